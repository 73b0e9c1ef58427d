// Small dense linear algebra on Float64Array, row-major: entry (i, j) of an r×c matrix is
// data[i * c + j]. Dimensions are passed explicitly so that callers keep plain typed arrays.
// Every routine runs its loops in a fixed order with plain sequential sums and no parallelism
// or randomisation, so the same inputs always give the same bits.
//
// Cholesky, the solves and inverses built on it, and triangular inverses come from ml-matrix
// (mljs; its Matrix keeps one Float64Array per row): CholeskyDecomposition and its solve(), and
// inverse(), whose LU step is a no-op on a triangular matrix (no row swaps, zero multipliers).
// What stays here:
// - what a library call would only wrap in allocation: dot, the products, transpose;
// - the O(n²) substitutions against a triangular factor the caller already holds (choleskySolve,
//   solveUpper): ml-matrix has triangular substitution only inside its decompositions' solve(),
//   so reaching it from a given factor would mean an O(n³) refactorisation;
// - the Householder QR of the regression design (householderQr): measured, the library's was
//   several times slower on that hot path; see the comment there.
import { CholeskyDecomposition, inverse, Matrix } from 'ml-matrix';

export class NotPositiveDefiniteError extends Error {
  constructor(readonly pivot: number) {
    super(`matrix is not positive definite (pivot ${pivot})`);
    this.name = 'NotPositiveDefiniteError';
  }
}

function checkSize(data: Float64Array, expected: number, what: string): void {
  if (data.length !== expected) throw new RangeError(`${what}: expected ${expected} entries, got ${data.length}`);
}

export function dot(x: Float64Array, y: Float64Array): number {
  checkSize(y, x.length, 'dot');
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i] * y[i];
  return s;
}

/** C = A B with A m×n and B n×p. */
export function matMul(a: Float64Array, b: Float64Array, m: number, n: number, p: number): Float64Array {
  checkSize(a, m * n, 'matMul A');
  checkSize(b, n * p, 'matMul B');
  const c = new Float64Array(m * p);
  for (let i = 0; i < m; i++) {
    for (let l = 0; l < n; l++) {
      const ail = a[i * n + l];
      for (let j = 0; j < p; j++) c[i * p + j] += ail * b[l * p + j];
    }
  }
  return c;
}

/** C = Aᵀ B with A m×n and B m×p (n×p result), without materialising Aᵀ. */
export function matTMul(a: Float64Array, b: Float64Array, m: number, n: number, p: number): Float64Array {
  checkSize(a, m * n, 'matTMul A');
  checkSize(b, m * p, 'matTMul B');
  const c = new Float64Array(n * p);
  for (let l = 0; l < m; l++) {
    for (let i = 0; i < n; i++) {
      const ali = a[l * n + i];
      for (let j = 0; j < p; j++) c[i * p + j] += ali * b[l * p + j];
    }
  }
  return c;
}

/** y = A x with A m×n. */
export function matVec(a: Float64Array, x: Float64Array, m: number, n: number): Float64Array {
  checkSize(a, m * n, 'matVec A');
  checkSize(x, n, 'matVec x');
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s;
  }
  return y;
}

/** y = Aᵀ x with A m×n. */
export function matTVec(a: Float64Array, x: Float64Array, m: number, n: number): Float64Array {
  checkSize(a, m * n, 'matTVec A');
  checkSize(x, m, 'matTVec x');
  const y = new Float64Array(n);
  for (let i = 0; i < m; i++) {
    const xi = x[i];
    for (let j = 0; j < n; j++) y[j] += a[i * n + j] * xi;
  }
  return y;
}

export function transpose(a: Float64Array, m: number, n: number): Float64Array {
  checkSize(a, m * n, 'transpose');
  const t = new Float64Array(n * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) t[j * m + i] = a[i * n + j];
  return t;
}

/** Largest |A_ij − A_ji| relative to the largest |A_ij| (0 for the zero matrix). */
export function asymmetry(a: Float64Array, n: number): number {
  checkSize(a, n * n, 'asymmetry');
  let scale = 0;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      scale = Math.max(scale, Math.abs(a[i * n + j]));
      worst = Math.max(worst, Math.abs(a[i * n + j] - a[j * n + i]));
    }
  }
  return scale === 0 ? 0 : worst / scale;
}

/** The library matrix of a row-major r×c Float64Array. */
function toMatrix(a: Float64Array, rows: number, cols: number): Matrix {
  const m = new Matrix(rows, cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) m.set(i, j, a[i * cols + j]);
  return m;
}

/** A library matrix back to row-major Float64Array. */
function fromMatrix(m: Matrix): Float64Array {
  const { rows, columns } = m;
  const out = new Float64Array(rows * columns);
  for (let i = 0; i < rows; i++) for (let j = 0; j < columns; j++) out[i * columns + j] = m.get(i, j);
  return out;
}

/** The first j with !(L_jj > 0): ml-matrix stores sqrt(max(d, 0)) there, so this is the first pivot d that was ≤ 0 or NaN. */
function firstBadPivot(l: Matrix): number {
  for (let j = 0; j < l.rows; j++) if (!(l.get(j, j) > 0)) return j;
  return l.rows;
}

/**
 * ml-matrix's Cholesky of the symmetric matrix whose lower triangle is that of `a` (our contract
 * reads only the lower triangle; the library demands exact symmetry), or NotPositiveDefiniteError
 * naming the first failing pivot, as the row-by-row algorithm meets it.
 */
function spdFactor(a: Float64Array, n: number, what: string): CholeskyDecomposition {
  checkSize(a, n * n, what);
  const s = new Matrix(n, n);
  let nanRow = -1;
  for (let i = 0; i < n && nanRow < 0; i++) {
    for (let j = 0; j <= i; j++) {
      const v = a[i * n + j];
      if (Number.isNaN(v)) {
        nanRow = i;
        break;
      }
      s.set(i, j, v);
      s.set(j, i, v);
    }
  }
  if (nanRow >= 0) {
    // NaN ≠ NaN fails the library's symmetry test. Pivot j depends only on the leading
    // (j+1)×(j+1) block, and a NaN in row r makes pivot r NaN: the answer is the first failing
    // pivot of the NaN-free leading r×r block, else r.
    const pivot = nanRow === 0 ? 0 : firstBadPivot(new CholeskyDecomposition(s.subMatrix(0, nanRow - 1, 0, nanRow - 1)).lowerTriangularMatrix);
    throw new NotPositiveDefiniteError(Math.min(pivot, nanRow));
  }
  const factor = new CholeskyDecomposition(s);
  if (!factor.isPositiveDefinite()) throw new NotPositiveDefiniteError(firstBadPivot(factor.lowerTriangularMatrix));
  return factor;
}

/** Lower-triangular L with A = L Lᵀ for symmetric positive definite A (n×n); reads the lower triangle. */
export function cholesky(a: Float64Array, n: number): Float64Array {
  const l = fromMatrix(spdFactor(a, n, 'cholesky').lowerTriangularMatrix);
  // the library leaves nothing above the diagonal, but the contract is a lower-triangular L
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) l[i * n + j] = 0;
  return l;
}

/** Solves L Lᵀ x = b given the Cholesky factor L (two O(n²) substitutions; see the head of the file). */
export function choleskySolve(l: Float64Array, b: Float64Array, n: number): Float64Array {
  checkSize(l, n * n, 'choleskySolve L');
  checkSize(b, n, 'choleskySolve b');
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) x[i] -= l[i * n + k] * x[k];
    x[i] /= l[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let k = i + 1; k < n; k++) x[i] -= l[k * n + i] * x[k];
    x[i] /= l[i * n + i];
  }
  return x;
}

/** Solves A x = b for symmetric positive definite A (ml-matrix: Cholesky, then its triangular solves). */
export function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const factor = spdFactor(a, n, 'solveSpd A');
  checkSize(b, n, 'solveSpd b');
  return Float64Array.from(factor.solve(Matrix.columnVector(b)).getColumn(0));
}

/** A⁻¹ for a small symmetric positive definite A, from one factorisation; symmetric by construction. */
export function inverseSpd(a: Float64Array, n: number): Float64Array {
  const cols = spdFactor(a, n, 'inverseSpd').solve(Matrix.eye(n, n));
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const v = cols.get(i, j);
      inv[i * n + j] = v;
      inv[j * n + i] = v;
    }
  }
  return inv;
}

/** Solves the upper-triangular system R x = b (R p×p row-major) by back substitution (O(p²); see the head of the file). */
export function solveUpper(r: Float64Array, b: Float64Array, p: number): Float64Array {
  checkSize(r, p * p, 'solveUpper R');
  checkSize(b, p, 'solveUpper b');
  const x = Float64Array.from(b);
  for (let i = p - 1; i >= 0; i--) {
    for (let k = i + 1; k < p; k++) x[i] -= r[i * p + k] * x[k];
    x[i] /= r[i * p + i];
  }
  return x;
}

/**
 * R⁻¹ of an upper-triangular R (p×p), itself upper triangular, by ml-matrix's inverse(): its LU
 * step leaves a triangular matrix as it is (no swaps, zero multipliers), so this is back
 * substitution on the columns of I. A zero on the diagonal is a RangeError (the library refuses
 * a singular matrix; the hand-written loops used to return ±Infinity/NaN).
 */
export function invertUpper(r: Float64Array, p: number): Float64Array {
  checkSize(r, p * p, 'invertUpper');
  for (let j = 0; j < p; j++) if (r[j * p + j] === 0) throw new RangeError(`invertUpper: R is singular (R[${j}][${j}] = 0)`);
  const full = inverse(toMatrix(r, p, p));
  const inv = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let j = i; j < p; j++) inv[i * p + j] = full.get(i, j);
  return inv;
}

/**
 * Householder QR of the columns of an m-row matrix, taken in order, that skips a column lying
 * (to within `relTol` of its own norm) in the span of the columns already accepted. Without
 * pivoting, the norm of what is left of column j after the earlier reflections is exactly its
 * distance from the span of the accepted columns, which is what identifies the offender.
 *
 * This one stays our own, though ml-matrix's QrDecomposition computes the same R (same sign
 * convention, same |R_jj| = residual norm; agreement to ~1e-12 checked in the tests): it is the
 * hot path (one factorisation of an n×6 design per holding per request, n up to 1,260), and the
 * library's made that path 4–6× slower (its Matrix is one Float64Array per row, walked column by
 * column through get/set, with a hypot per entry and a clone of the design; and its QR has no
 * column skipping, so a rank-deficient design needs a refactorisation per rejected column). With
 * it, `npm run bench:analytics` compute-only p50 for 500 holdings × 1,260 days went from 329 ms
 * to 1,540 ms (analyze) and from 299 ms to 1,864 ms (risk); 503 regressions of 1,260×6 alone,
 * ~270 ms ours against ~1,500 ms.
 */
export interface HouseholderQr {
  m: number;
  /** indices (into the input columns) of the accepted, linearly independent columns */
  accepted: number[];
  /** R (rank×rank, upper triangular, row-major) over the accepted columns */
  r: Float64Array;
  /** rejected columns: index, and its coefficients on the accepted columns (same order as `accepted`) */
  rejected: { index: number; coefficients: Float64Array }[];
  /** Applies Qᵀ to a length-m vector (a new array). */
  applyQt(v: Float64Array): Float64Array;
}

export function householderQr(columns: Float64Array[], m: number, relTol: number): HouseholderQr {
  const vs: Float64Array[] = []; // reflector k acts on rows k..m-1: H = I − 2 v vᵀ / vᵀv
  const vNorms: number[] = [];
  const applyQt = (input: Float64Array): Float64Array => {
    checkSize(input, m, 'applyQt');
    const x = Float64Array.from(input);
    for (let k = 0; k < vs.length; k++) {
      const v = vs[k];
      let s = 0;
      for (let i = k; i < m; i++) s += v[i] * x[i];
      const f = (2 * s) / vNorms[k];
      for (let i = k; i < m; i++) x[i] -= f * v[i];
    }
    return x;
  };
  const accepted: number[] = [];
  const rColumns: Float64Array[] = [];
  const rejected: HouseholderQr['rejected'] = [];
  columns.forEach((column, index) => {
    checkSize(column, m, `column ${index}`);
    const rank = vs.length;
    const x = applyQt(column);
    let tailSq = 0;
    for (let i = rank; i < m; i++) tailSq += x[i] * x[i];
    const tail = Math.sqrt(tailSq);
    if (rank === m || tail <= relTol * Math.sqrt(dot(column, column))) {
      rejected.push({ index, coefficients: solveUpper(packUpper(rColumns, rank), x.subarray(0, rank), rank) });
      return;
    }
    // Reflect x[rank..] onto −sign(x_rank)·tail·e_rank, the sign choice that avoids cancellation.
    const alpha = x[rank] >= 0 ? -tail : tail;
    const v = new Float64Array(m);
    for (let i = rank; i < m; i++) v[i] = x[i];
    v[rank] -= alpha;
    let vv = 0;
    for (let i = rank; i < m; i++) vv += v[i] * v[i];
    vs.push(v);
    vNorms.push(vv);
    const rCol = new Float64Array(rank + 1);
    rCol.set(x.subarray(0, rank));
    rCol[rank] = alpha;
    rColumns.push(rCol);
    accepted.push(index);
  });
  return { m, accepted, r: packUpper(rColumns, vs.length), rejected, applyQt };
}

function packUpper(rColumns: Float64Array[], p: number): Float64Array {
  const r = new Float64Array(p * p);
  for (let j = 0; j < p; j++) for (let i = 0; i <= j; i++) r[i * p + j] = rColumns[j][i];
  return r;
}
