// The numerical core of portfolio analytics, checked against exact constructions, hand-computed
// textbook values, and independent plain-array implementations written here (normal equations
// by Gaussian elimination; Σ = B F Bᵀ + Δ formed explicitly with loops) — never against itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Matrix, QrDecomposition } from 'ml-matrix';
import { cholesky, householderQr, inverseSpd, invertUpper, matMul, matTMul, NotPositiveDefiniteError, solveSpd } from '../../resolvers/analytics/linalg.ts';
import {
  InsufficientObservationsError,
  ols,
  RegressionError,
  SingularDesignError,
} from '../../resolvers/analytics/regression.ts';
import { IDIOSYNCRATIC, portfolioRisk, RiskInputError, sampleCovariance, type PortfolioRiskInput } from '../../resolvers/analytics/risk.ts';

// ---- independent helpers on plain number arrays ----

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normals(rand: () => number, n: number): number[] {
  const out: number[] = [];
  while (out.length < n) {
    const u = 1 - rand();
    const v = rand();
    out.push(Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  }
  return out;
}

/** Solves M x = r by Gaussian elimination with partial pivoting (copies its inputs). */
function gaussSolve(M: number[][], r: number[]): number[] {
  const p = r.length;
  const a = M.map((row, i) => [...row, r[i]]);
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let i = c + 1; i < p; i++) if (Math.abs(a[i][c]) > Math.abs(a[piv][c])) piv = i;
    [a[c], a[piv]] = [a[piv], a[c]];
    for (let i = c + 1; i < p; i++) {
      const f = a[i][c] / a[c][c];
      for (let j = c; j <= p; j++) a[i][j] -= f * a[c][j];
    }
  }
  const x = new Array<number>(p).fill(0);
  for (let i = p - 1; i >= 0; i--) {
    let s = a[i][p];
    for (let j = i + 1; j < p; j++) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
  return x;
}

/** OLS the textbook way: β = (ZᵀZ)⁻¹Zᵀy with Z = [1 | X], inverse column by column. */
function normalEquationsOls(y: number[], X: number[][]) {
  const n = y.length;
  const Z = y.map((_, i) => [1, ...X.map((col) => col[i])]);
  const p = Z[0].length;
  const ZtZ = Array.from({ length: p }, (_, r) => Array.from({ length: p }, (_, c) => Z.reduce((s, row) => s + row[r] * row[c], 0)));
  const Zty = Array.from({ length: p }, (_, r) => Z.reduce((s, row, i) => s + row[r] * y[i], 0));
  const beta = gaussSolve(ZtZ, Zty);
  const inv = Array.from({ length: p }, (_, c) => gaussSolve(ZtZ, Array.from({ length: p }, (_, r) => (r === c ? 1 : 0))));
  const resid = y.map((yi, i) => yi - Z[i].reduce((s, z, j) => s + z * beta[j], 0));
  const sse = resid.reduce((s, e) => s + e * e, 0);
  const mean = y.reduce((s, v) => s + v, 0) / n;
  const sst = y.reduce((s, v) => s + (v - mean) ** 2, 0);
  const s2 = sse / (n - p);
  const se = beta.map((_, j) => Math.sqrt(s2 * inv[j][j]));
  return { beta, se, t: beta.map((b, j) => b / se[j]), r2: 1 - sse / sst, adjR2: 1 - (sse / (n - p)) / (sst / (n - 1)), s: Math.sqrt(s2), resid };
}

const f64 = (xs: number[]) => Float64Array.from(xs);

function expectRel(actual: number, expected: number, rel: number) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.max(Math.abs(expected), Number.MIN_VALUE));
}

// ---- OLS ----

describe('ols', () => {
  it('recovers exact coefficients from noiseless data, with R² = 1', () => {
    const rand = mulberry32(7);
    const n = 60;
    const X = [normals(rand, n), normals(rand, n), normals(rand, n)];
    const y = Array.from({ length: n }, (_, i) => 0.5 + 2 * X[0][i] - 3 * X[1][i] + 0.25 * X[2][i]);
    const fit = ols(f64(y), X.map(f64), ['mkt', 'smb', 'hml']);
    expect(Math.abs(fit.alpha.estimate - 0.5)).toBeLessThan(1e-10);
    expect(Math.abs(fit.betas.mkt.estimate - 2)).toBeLessThan(1e-10);
    expect(Math.abs(fit.betas.smb.estimate + 3)).toBeLessThan(1e-10);
    expect(Math.abs(fit.betas.hml.estimate - 0.25)).toBeLessThan(1e-10);
    expect(Math.abs(fit.rSquared - 1)).toBeLessThan(1e-12);
    expect(fit.residualStdDev).toBeLessThan(1e-12);
    expect(Object.keys(fit.betas)).toEqual(['mkt', 'smb', 'hml']);
    expect(fit.dof).toBe(n - 4);
  });

  it('matches the textbook formulas on five points with one regressor', () => {
    const x = [1, 2, 3, 4, 5];
    const y = [2, 4, 5, 4, 5];
    const n = 5;
    const xbar = x.reduce((s, v) => s + v) / n;
    const ybar = y.reduce((s, v) => s + v) / n;
    const Sxx = x.reduce((s, v) => s + (v - xbar) ** 2, 0);
    const Sxy = x.reduce((s, v, i) => s + (v - xbar) * (y[i] - ybar), 0);
    const Syy = y.reduce((s, v) => s + (v - ybar) ** 2, 0);
    const slope = Sxy / Sxx;
    const intercept = ybar - slope * xbar;
    const sse = y.reduce((s, v, i) => s + (v - intercept - slope * x[i]) ** 2, 0);
    const s2 = sse / (n - 2);
    const seSlope = Math.sqrt(s2 / Sxx);
    const seIntercept = Math.sqrt(s2 * (1 / n + xbar ** 2 / Sxx));

    // By hand: Sxx = 10, Sxy = 6, slope 0.6, intercept 2.2, SSE 2.4, s² 0.8, R² = 1 − 2.4/6 = 0.6.
    [slope, intercept, sse, Syy].forEach((v, i) => expectRel(v, [0.6, 2.2, 2.4, 6][i], 1e-12));

    const fit = ols(f64(y), [f64(x)], ['x']);
    expectRel(fit.betas.x.estimate, 0.6, 1e-12);
    expectRel(fit.alpha.estimate, 2.2, 1e-12);
    expectRel(fit.betas.x.stdError, seSlope, 1e-12);
    expectRel(fit.betas.x.stdError, Math.sqrt(0.08), 1e-12);
    expectRel(fit.alpha.stdError, seIntercept, 1e-12);
    expectRel(fit.alpha.stdError, Math.sqrt(0.88), 1e-12);
    expectRel(fit.betas.x.tStat, slope / seSlope, 1e-12);
    expectRel(fit.alpha.tStat, intercept / seIntercept, 1e-12);
    expectRel(fit.rSquared, 1 - sse / Syy, 1e-12);
    expectRel(fit.rSquared, 0.6, 1e-12);
    expectRel(fit.adjustedRSquared, 1 - (0.4 * 4) / 3, 1e-12);
    expectRel(fit.residualStdDev, Math.sqrt(0.8), 1e-12);
    [-0.8, 0.6, 1.0, -0.6, -0.2].forEach((e, i) => expect(Math.abs(fit.residuals[i] - e)).toBeLessThan(1e-12));
  });

  it('agrees with the normal equations solved by Gaussian elimination on noisy, correlated factors', () => {
    for (const seed of [1, 2, 3]) {
      const rand = mulberry32(seed);
      const n = 250;
      const mkt = normals(rand, n).map((v) => 0.01 * v);
      const smb = normals(rand, n).map((v, i) => 0.6 * mkt[i] + 0.004 * v);
      const mom = normals(rand, n).map((v, i) => -0.3 * smb[i] + 0.006 * v);
      const noise = normals(rand, n);
      const y = mkt.map((m, i) => 0.0002 + 1.1 * m + 0.4 * smb[i] - 0.2 * mom[i] + 0.005 * noise[i]);
      const ref = normalEquationsOls(y, [mkt, smb, mom]);
      const fit = ols(f64(y), [f64(mkt), f64(smb), f64(mom)], ['mkt', 'smb', 'mom']);
      const got = [fit.alpha, fit.betas.mkt, fit.betas.smb, fit.betas.mom];
      got.forEach((c, j) => {
        expectRel(c.estimate, ref.beta[j], 1e-8);
        expectRel(c.stdError, ref.se[j], 1e-8);
        expectRel(c.tStat, ref.t[j], 1e-8);
      });
      expectRel(fit.rSquared, ref.r2, 1e-10);
      expectRel(fit.adjustedRSquared, ref.adjR2, 1e-10);
      expectRel(fit.residualStdDev, ref.s, 1e-10);
      ref.resid.forEach((e, i) => expect(Math.abs(fit.residuals[i] - e)).toBeLessThan(1e-12));
      expect(fit.rSquared).toBeGreaterThan(0.5);
    }
  });

  it('gives the same bits for the same inputs', () => {
    const rand = mulberry32(11);
    const X = [f64(normals(rand, 40)), f64(normals(rand, 40))];
    const y = f64(normals(rand, 40));
    const a = ols(y, X, ['a', 'b']);
    const b = ols(y, X, ['a', 'b']);
    expect(Object.is(a.betas.b.tStat, b.betas.b.tStat)).toBe(true);
    expect(Buffer.from(a.residuals.buffer).equals(Buffer.from(b.residuals.buffer))).toBe(true);
  });

  describe('singular designs throw, naming the column', () => {
    const rand = mulberry32(5);
    const n = 30;
    const x1 = f64(normals(rand, n));
    const x2 = f64(normals(rand, n));
    const y = f64(normals(rand, n));
    const singular = (X: Float64Array[], names: string[]): SingularDesignError => {
      try {
        ols(y, X, names);
      } catch (e) {
        expect(e).toBeInstanceOf(SingularDesignError);
        expect(e).toBeInstanceOf(RegressionError);
        return e as SingularDesignError;
      }
      throw new Error('expected a SingularDesignError');
    };

    it('a constant factor', () => {
      const e = singular([x1, f64(new Array(n).fill(0.01))], ['x1', 'flat']);
      expect(e.columns).toEqual(['flat']);
      expect(e.collinearities[0].dependsOn).toEqual(['(intercept)']);
      expect(e.message).toMatch(/flat is constant/);
    });

    it('an all-zero factor', () => {
      const e = singular([new Float64Array(n), x1], ['zero', 'x1']);
      expect(e.columns).toEqual(['zero']);
      expect(e.message).toMatch(/zero is all zero/);
    });

    it('a combination of other factors', () => {
      const x3 = x1.map((v, i) => v + 2 * x2[i]);
      const e = singular([x1, x2, x3], ['x1', 'x2', 'x3']);
      expect(e.columns).toEqual(['x3']);
      expect(e.collinearities[0].dependsOn).toEqual(['x1', 'x2']);
    });

    it('an affine copy of a factor, and several offenders at once', () => {
      const affine = x1.map((v) => 3 - 2 * v);
      const e = singular([x1, affine, x2, x2.slice()], ['x1', 'affine', 'x2', 'dup']);
      expect(e.columns).toEqual(['affine', 'dup']);
      expect(e.collinearities[0].dependsOn).toEqual(['(intercept)', 'x1']);
      expect(e.collinearities[1].dependsOn).toEqual(['x2']);
    });

    it('too few observations: n ≤ k + 1', () => {
      expect(() => ols(f64([1, 2, 4]), [f64([1, 0, 3]), f64([2, 5, 1])], ['a', 'b'])).toThrow(InsufficientObservationsError);
      expect(() => ols(f64([1, 2]), [f64([1, 0]), f64([2, 5])], ['a', 'b'])).toThrow(InsufficientObservationsError);
      expect(() => ols(f64([1, 2]), [f64([1, 3])], ['a'])).toThrow(InsufficientObservationsError);
    });

    it('non-finite inputs, a constant y and mismatched names are rejected, never NaN', () => {
      expect(() => ols(f64([1, NaN, 3, 4]), [f64([1, 2, 3, 5])], ['a'])).toThrow(RegressionError);
      expect(() => ols(f64([2, 2, 2, 2]), [f64([1, 2, 3, 5])], ['a'])).toThrow(/constant/);
      expect(() => ols(f64([1, 2, 3, 4]), [f64([1, 2, 3, 5])], ['a', 'b'])).toThrow(RegressionError);
      expect(() => ols(f64([1, 2, 3, 4]), [f64([1, 2, 3])], ['a'])).toThrow(RegressionError);
    });
  });
});

// ---- linear algebra helpers ----

describe('linalg', () => {
  it('multiplies by hand-checked values', () => {
    expect([...matMul(f64([1, 2, 3, 4]), f64([5, 6, 7, 8]), 2, 2, 2)]).toEqual([19, 22, 43, 50]);
    // Aᵀ B with A = [[1,2],[3,4],[5,6]] (3×2), B = [[1],[0],[2]]: [1+10, 2+12].
    expect([...matTMul(f64([1, 2, 3, 4, 5, 6]), f64([1, 0, 2]), 3, 2, 1)]).toEqual([11, 14]);
  });

  it('inverts and solves a symmetric positive definite matrix', () => {
    const A = [4, 2, 0.6, 2, 5, 1, 0.6, 1, 3];
    const inv = inverseSpd(f64(A), 3);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let l = 0; l < 3; l++) s += A[i * 3 + l] * inv[l * 3 + j];
        expect(Math.abs(s - (i === j ? 1 : 0))).toBeLessThan(1e-14);
      }
    }
    const x = solveSpd(f64(A), f64([1, 2, 3]), 3);
    for (let i = 0; i < 3; i++) expect(Math.abs(A[i * 3] * x[0] + A[i * 3 + 1] * x[1] + A[i * 3 + 2] * x[2] - (i + 1))).toBeLessThan(1e-14);
    expect(() => cholesky(f64([1, 2, 2, 1]), 2)).toThrow(NotPositiveDefiniteError);
  });
});

describe('linalg on ml-matrix', () => {
  // The textbook example: A = L Lᵀ with L = [[2,0,0],[6,1,0],[-8,5,3]], det A = 36.
  const A = [4, 12, -16, 12, 37, -43, -16, -43, 98];

  it('Cholesky: the textbook factor, reading only the lower triangle', () => {
    expect([...cholesky(f64(A), 3)]).toEqual([2, 0, 0, 6, 1, 0, -8, 5, 3]);
    const upperGarbage = [4, 1e9, NaN, 12, 37, -7, -16, -43, 98];
    expect([...cholesky(f64(upperGarbage), 3)]).toEqual([2, 0, 0, 6, 1, 0, -8, 5, 3]);
    expect([...cholesky(f64([4, 2, 2, 5]), 2)]).toEqual([2, 0, 1, 2]);
  });

  it('inverse and solve from the library factor: A⁻¹ = adj(A)/36', () => {
    const adj = [1777, -488, 76, -488, 136, -20, 76, -20, 4];
    const inv = inverseSpd(f64(A), 3);
    adj.forEach((v, i) => expect(Math.abs(inv[i] - v / 36)).toBeLessThan(1e-12 * 50));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(inv[i * 3 + j]).toBe(inv[j * 3 + i]);
    // A x = A·[1, −2, 3] solved back
    const x = solveSpd(f64(A), f64([4 - 24 - 48, 12 - 74 - 129, -16 + 86 + 294]), 3);
    [1, -2, 3].forEach((v, i) => expect(Math.abs(x[i] - v)).toBeLessThan(1e-10));
  });

  it('names the first failing pivot, as the row-by-row algorithm meets it', () => {
    const pivot = (a: number[], n: number) => {
      try {
        cholesky(f64(a), n);
        return 'ok';
      } catch (error) {
        expect(error).toBeInstanceOf(NotPositiveDefiniteError);
        return (error as NotPositiveDefiniteError).pivot;
      }
    };
    expect(pivot([-1], 1)).toBe(0);
    expect(pivot([0], 1)).toBe(0);
    expect(pivot([1, 2, 2, 1], 2)).toBe(1);
    expect(pivot([1, 0, 0, 0, -1, 0, 0, 0, NaN], 3)).toBe(1); // the indefinite pivot comes before the NaN
    expect(pivot([1, 0, 0, 0, 1, 0, 0, NaN, 1], 3)).toBe(2); // a NaN (which the library's symmetry test refuses) in row 2
    expect(pivot([NaN, 0, 0, 1], 2)).toBe(0);
    expect(pivot([1, 0, 1, 1], 2)).toBe(1); // lower triangle [[1],[1, 1]]: d = 1 − 1 = 0
    expect(pivot([1, 0, 0.5, 1], 2)).toBe('ok');
  });

  it('inverts an upper-triangular R exactly on a hand case, and refuses a zero pivot', () => {
    expect([...invertUpper(f64([2, 1, 0, 4]), 2)]).toEqual([0.5, -0.125, 0, 0.25]);
    expect(() => invertUpper(f64([1, 1, 0, 0]), 2)).toThrow(RangeError);
  });

  it('householderQr: a hand case, agreement with ml-matrix\'s QrDecomposition, and an orthogonal Qᵀ', () => {
    // [1 | t] for t = 1..4: R = [[−2, −5], [0, ±√5]]
    const qr = householderQr([f64([1, 1, 1, 1]), f64([1, 2, 3, 4])], 4, 1e-10);
    expect(qr.accepted).toEqual([0, 1]);
    expect(Math.abs(qr.r[0] + 2)).toBeLessThan(1e-15);
    expect(Math.abs(qr.r[1] + 5)).toBeLessThan(1e-14);
    expect(Math.abs(Math.abs(qr.r[3]) - Math.sqrt(5))).toBeLessThan(1e-14);

    const rand = mulberry32(99);
    const n = 300;
    const columns = [new Float64Array(n).fill(1), ...Array.from({ length: 5 }, () => f64(normals(rand, n)))];
    const ours = householderQr(columns, n, 1e-10);
    const design = new Matrix(n, columns.length);
    columns.forEach((c, j) => c.forEach((v, i) => design.set(i, j, v)));
    const theirs = new QrDecomposition(design).upperTriangularMatrix;
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(Math.abs(ours.r[i * 6 + j] - theirs.get(i, j))).toBeLessThan(1e-12 * Math.max(1, Math.abs(theirs.get(i, j))));
    const y = f64(normals(rand, n));
    const qty = ours.applyQt(y);
    let a = 0;
    let b = 0;
    for (let i = 0; i < n; i++) (a += y[i] * y[i]), (b += qty[i] * qty[i]);
    expect(Math.abs(a - b)).toBeLessThan(1e-12 * a);
  });

  it('detects a singular design at the stated tolerance and reports the combination', () => {
    const t = f64([1, 2, 3, 4, 5]);
    const combo = t.map((v) => 3 - 2 * v);
    const qr = householderQr([new Float64Array(5).fill(1), t, combo, new Float64Array(5)], 5, 1e-10);
    expect(qr.accepted).toEqual([0, 1]);
    expect(qr.rejected.map((r) => r.index)).toEqual([2, 3]);
    expect(Math.abs(qr.rejected[0].coefficients[0] - 3)).toBeLessThan(1e-12);
    expect(Math.abs(qr.rejected[0].coefficients[1] + 2)).toBeLessThan(1e-12);
    expect([...qr.rejected[1].coefficients].map(Math.abs)).toEqual([0, 0]);
    // just above the tolerance is accepted, just below is not: |R_jj| ≤ relTol·‖z_j‖ is the rule
    const nudged = combo.map((v, i) => v + (i === 0 ? 1e-6 : 0));
    expect(householderQr([new Float64Array(5).fill(1), t, nudged], 5, 1e-10).rejected).toEqual([]);
    expect(householderQr([new Float64Array(5).fill(1), t, nudged], 5, 1e-5).rejected.map((r) => r.index)).toEqual([2]);
    expect(() => ols(f64([1, 3, 2, 5, 4]), [t, combo], ['t', 'combo'])).toThrow(SingularDesignError);
  });
});

// ---- risk ----

/** Σ = B F Bᵀ + Δ formed explicitly as number[][]. */
function explicitSigma(B: number[], F: number[], delta: number[], n: number, k: number): number[][] {
  const S = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) for (let q = 0; q < k; q++) s += B[i * k + p] * F[p * k + q] * B[j * k + q];
      S[i][j] = s + (i === j ? delta[i] : 0);
    }
  }
  return S;
}

function quad(u: number[], S: number[][], v: number[]): number {
  let s = 0;
  for (let i = 0; i < u.length; i++) for (let j = 0; j < v.length; j++) s += u[i] * S[i][j] * v[j];
  return s;
}

interface Case {
  n: number;
  k: number;
  w: number[];
  b: number[];
  B: number[];
  F: number[];
  delta: number[];
  group: number[];
}

function toInput(c: Case): PortfolioRiskInput {
  const factorNames = Array.from({ length: c.k }, (_, f) => `f${f}`);
  const factorGroups: Record<string, string[]> = {};
  c.group.forEach((g, f) => (factorGroups[`g${g}`] ??= []).push(factorNames[f]));
  return {
    weights: f64(c.w),
    benchmarkWeights: f64(c.b),
    exposures: f64(c.B),
    factorCov: f64(c.F),
    specificVar: f64(c.delta),
    factorGroups,
    factorNames,
  };
}

const sum = (xs: Iterable<number>) => {
  let s = 0;
  for (const x of xs) s += x;
  return s;
};

/** Random small portfolios: weights and exposures on a grid, F = L Lᵀ (PSD), δ ≥ 0. */
const caseArb: fc.Arbitrary<Case> = fc
  .record({ n: fc.integer({ min: 1, max: 8 }), k: fc.integer({ min: 1, max: 4 }) })
  .chain(({ n, k }) => {
    const grid = (scale: number) => fc.integer({ min: -10_000, max: 10_000 }).map((v) => (v / 10_000) * scale);
    return fc.record({
      n: fc.constant(n),
      k: fc.constant(k),
      w: fc.array(grid(1), { minLength: n, maxLength: n }),
      b: fc.array(grid(1), { minLength: n, maxLength: n }),
      B: fc.array(grid(3), { minLength: n * k, maxLength: n * k }),
      F: fc.array(grid(0.02), { minLength: k * k, maxLength: k * k }).map((L) => {
        const F = new Array<number>(k * k).fill(0);
        for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) for (let l = 0; l < k; l++) F[i * k + j] += L[i * k + l] * L[j * k + l];
        return F;
      }),
      delta: fc.array(fc.integer({ min: 0, max: 10_000 }).map((v) => v * 4e-8), { minLength: n, maxLength: n }),
      group: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: k, maxLength: k }),
    });
  });

describe('portfolioRisk', () => {
  it('contributions by security and by group add up to TE², which equals 252·aᵀΣa from an explicit Σ', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const risk = portfolioRisk(toInput(c));
        const a = c.w.map((v, i) => v - c.b[i]);
        const S = explicitSigma(c.B, c.F, c.delta, c.n, c.k);
        const direct = 252 * quad(a, S, a);
        // Rounding is relative to the sum of absolute terms, which is TE² itself unless the
        // terms cancel (e.g. active weights in the null space of Bᵀ with δ = 0).
        const absB = c.B.map(Math.abs);
        const absS = explicitSigma(absB, c.F.map(Math.abs), c.delta, c.n, c.k);
        const absA = a.map(Math.abs);
        const tol = 1e-12 * 252 * quad(absA, absS, absA);
        expect(Math.abs(sum(risk.contributionsBySecurity) - risk.trackingVariance)).toBeLessThanOrEqual(tol);
        expect(Math.abs(sum(Object.values(risk.contributionsByGroup)) - risk.trackingVariance)).toBeLessThanOrEqual(tol);
        expect(Math.abs(sum(Object.values(risk.contributionsByFactor)) + risk.contributionsByGroup[IDIOSYNCRATIC] - risk.trackingVariance)).toBeLessThanOrEqual(tol);
        expect(Math.abs(risk.trackingVariance - direct)).toBeLessThanOrEqual(tol);
        expect(Math.abs(risk.trackingError - Math.sqrt(Math.max(direct, 0)))).toBeLessThanOrEqual(Math.sqrt(tol) + 1e-300);
        expect(Number.isNaN(risk.trackingError)).toBe(false);
      }),
      { numRuns: 300, seed: 20240611 },
    );
  });

  it('beta and the variance split agree with an explicit Σ', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const risk = portfolioRisk(toInput(c));
        const S = explicitSigma(c.B, c.F, c.delta, c.n, c.k);
        const varB = quad(c.b, S, c.b);
        const wDelta = c.w.reduce((s, v, i) => s + c.delta[i] * v * v, 0);
        if (varB > 1e-12) {
          expectRel(risk.beta!, quad(c.w, S, c.b) / varB, 1e-9);
        }
        const varW = 252 * quad(c.w, S, c.w);
        expect(Math.abs(risk.portfolio.variance - varW)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(varW)));
        expect(Math.abs(risk.portfolio.idiosyncratic - 252 * wDelta)).toBeLessThanOrEqual(1e-15);
        expect(Math.abs(risk.portfolio.factor + risk.portfolio.idiosyncratic - risk.portfolio.variance)).toBeLessThanOrEqual(1e-15);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('matches a two-holding example worked by hand', () => {
    // One factor with exposure 1 for both: active weights ±0.1 have no factor exposure, so
    // TE² = 252·(0.0002·0.01 + 0.0003·0.01) = 1.26e-3, from holdings 5.04e-4 and 7.56e-4.
    const risk = portfolioRisk({
      weights: f64([0.6, 0.4]),
      benchmarkWeights: f64([0.5, 0.5]),
      exposures: f64([1, 1]),
      factorCov: f64([0.0001]),
      specificVar: f64([0.0002, 0.0003]),
      factorGroups: { market: ['mkt'] },
      factorNames: ['mkt'],
    });
    expectRel(risk.trackingVariance, 1.26e-3, 1e-12);
    expectRel(risk.trackingError, Math.sqrt(1.26e-3), 1e-12);
    expectRel(risk.contributionsBySecurity[0], 5.04e-4, 1e-12);
    expectRel(risk.contributionsBySecurity[1], 7.56e-4, 1e-12);
    expect(Math.abs(risk.contributionsByGroup.market)).toBe(0);
    expectRel(risk.contributionsByGroup[IDIOSYNCRATIC], 1.26e-3, 1e-12);
    // var(b) = 0.0001 + 0.25·0.0002 + 0.25·0.0003 = 2.25e-4; cov(w,b) = 0.0001 + 0.3·0.0002 + 0.2·0.0003 = 2.2e-4.
    expectRel(risk.beta!, 2.2e-4 / 2.25e-4, 1e-12);
  });

  it('with the portfolio equal to the benchmark: TE 0, every contribution 0, beta 1', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const risk = portfolioRisk(toInput({ ...c, w: c.b }));
        expect(risk.trackingError).toBe(0);
        expect(risk.trackingVariance).toBe(0);
        for (const v of risk.contributionsBySecurity) expect(Math.abs(v)).toBe(0);
        for (const v of Object.values(risk.contributionsByGroup)) expect(Math.abs(v)).toBe(0);
        if (risk.benchmark.variance > 0) expect(Math.abs(risk.beta! - 1)).toBeLessThan(1e-12);
        else expect(risk.beta).toBeNull();
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  it('without a benchmark: beta is null and TE is the portfolio volatility', () => {
    const risk = portfolioRisk({
      weights: f64([0.7, 0.3]),
      benchmarkWeights: f64([0, 0]),
      exposures: f64([1.2, 0.8]),
      factorCov: f64([0.0001]),
      specificVar: f64([0.0002, 0.0001]),
      factorGroups: { market: ['mkt'] },
      factorNames: ['mkt'],
    });
    expect(risk.beta).toBeNull();
    expectRel(risk.trackingError, risk.portfolio.volatility, 1e-12);
  });

  it('rejects inputs that cannot partition TE²', () => {
    const base = toInput({ n: 2, k: 2, w: [0.5, 0.5], b: [0.4, 0.6], B: [1, 0, 0, 1], F: [1e-4, 0, 0, 1e-4], delta: [1e-4, 1e-4], group: [0, 1] });
    expect(() => portfolioRisk({ ...base, factorGroups: { g0: ['f0'] } })).toThrow(/no group: f1/);
    expect(() => portfolioRisk({ ...base, factorGroups: { g0: ['f0', 'f1'], g1: ['f1'] } })).toThrow(RiskInputError);
    expect(() => portfolioRisk({ ...base, factorGroups: { g0: ['f0', 'nope'], g1: ['f1'] } })).toThrow(/unknown factor/);
    expect(() => portfolioRisk({ ...base, factorGroups: { g0: ['f0'], [IDIOSYNCRATIC]: ['f1'] } })).toThrow(/reserved/);
    expect(() => portfolioRisk({ ...base, factorCov: f64([1e-4, 1e-5, 0, 1e-4]) })).toThrow(/symmetric/);
    expect(() => portfolioRisk({ ...base, specificVar: f64([1e-4, -1]) })).toThrow(/negative/);
    expect(() => portfolioRisk({ ...base, weights: f64([0.5]) })).toThrow(RiskInputError);
    expect(() => portfolioRisk({ ...base, weights: f64([0.5, NaN]) })).toThrow(RiskInputError);
  });
});

describe('sampleCovariance', () => {
  it('matches hand-computed values (n − 1 divisor)', () => {
    // x̄ = 2.5, ȳ = 5.25: Σ(x−x̄)² = 5, Σ(x−x̄)(y−ȳ) = 11.5, Σ(y−ȳ)² = 26.75.
    const cov = sampleCovariance([f64([1, 2, 3, 4]), f64([2, 4, 6, 9])]);
    [5 / 3, 11.5 / 3, 11.5 / 3, 26.75 / 3].forEach((v, i) => expectRel(cov[i], v, 1e-14));
  });

  it('is unaffected by a large common level (two-pass), and exactly symmetric', () => {
    const rand = mulberry32(9);
    const cols = [normals(rand, 100), normals(rand, 100), normals(rand, 100)].map((c) => c.map((v) => 0.01 * v));
    const plain = (p: number, q: number) => {
      const mp = cols[p].reduce((s, v) => s + v, 0) / 100;
      const mq = cols[q].reduce((s, v) => s + v, 0) / 100;
      return cols[p].reduce((s, v, i) => s + (v - mp) * (cols[q][i] - mq), 0) / 99;
    };
    const cov = sampleCovariance(cols.map(f64));
    const shifted = sampleCovariance(cols.map((c) => f64(c.map((v) => v + 1e4))));
    for (let p = 0; p < 3; p++) {
      for (let q = 0; q < 3; q++) {
        expectRel(cov[p * 3 + q], plain(p, q), 1e-12);
        expect(Math.abs(shifted[p * 3 + q] - plain(p, q))).toBeLessThan(1e-8 * Math.sqrt(plain(p, p) * plain(q, q)));
        expect(cov[p * 3 + q]).toBe(cov[q * 3 + p]);
      }
    }
    expect(() => sampleCovariance([f64([1])])).toThrow(RiskInputError);
  });

  it('feeds portfolioRisk: TE of a factor-only model from estimated covariances', () => {
    const rand = mulberry32(21);
    const factorReturns = [normals(rand, 500).map((v) => 0.01 * v), normals(rand, 500).map((v) => 0.005 * v)];
    const F = sampleCovariance(factorReturns.map(f64));
    const c: Case = { n: 3, k: 2, w: [0.5, 0.3, 0.2], b: [1 / 3, 1 / 3, 1 / 3], B: [1, 0.2, 0.9, -0.5, 1.1, 0], F: [...F], delta: [0, 0, 0], group: [0, 1] };
    const risk = portfolioRisk(toInput(c));
    const a = c.w.map((v, i) => v - c.b[i]);
    expectRel(risk.trackingVariance, 252 * quad(a, explicitSigma(c.B, c.F, c.delta, 3, 2), a), 1e-12);
    expect(risk.contributionsByGroup[IDIOSYNCRATIC]).toBe(0);
  });
});
