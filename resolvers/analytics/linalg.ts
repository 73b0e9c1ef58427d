// Small dense linear algebra on Float64Array, row-major: entry (i, j) of an r×c matrix is
// data[i * c + j]. Dimensions are passed explicitly so that callers keep plain typed arrays.
// Every routine runs its loops in a fixed order with plain sequential sums and no parallelism
// or randomisation, so the same inputs always give the same bits.
//
// ml-matrix is installed but not used: it stores number[][] (a copy each way), and the
// regression needs the Householder internals (per-column residual norms) to name a collinear
// factor, which is simpler to get from forty lines of our own.

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

/** Lower-triangular L with A = L Lᵀ for symmetric positive definite A (n×n); reads the lower triangle. */
export function cholesky(a: Float64Array, n: number): Float64Array {
  checkSize(a, n * n, 'cholesky');
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= l[j * n + k] * l[j * n + k];
    // `!(d > 0)` also rejects NaN, so a non-finite input never yields a factor.
    if (!(d > 0)) throw new NotPositiveDefiniteError(j);
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = s / ljj;
    }
  }
  return l;
}

/** Solves L Lᵀ x = b given the Cholesky factor L. */
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

/** Solves A x = b for symmetric positive definite A. */
export function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  return choleskySolve(cholesky(a, n), b, n);
}

/** A⁻¹ for a small symmetric positive definite A, column by column from one factorisation; symmetric by construction. */
export function inverseSpd(a: Float64Array, n: number): Float64Array {
  const l = cholesky(a, n);
  const inv = new Float64Array(n * n);
  const e = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    e.fill(0);
    e[j] = 1;
    const col = choleskySolve(l, e, n);
    for (let i = j; i < n; i++) inv[i * n + j] = col[i];
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) inv[i * n + j] = inv[j * n + i];
  return inv;
}

/** Solves the upper-triangular system R x = b (R p×p row-major) by back substitution. */
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

/** R⁻¹ of an upper-triangular R (p×p), itself upper triangular. */
export function invertUpper(r: Float64Array, p: number): Float64Array {
  const inv = new Float64Array(p * p);
  const e = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    e.fill(0);
    e[j] = 1;
    const col = solveUpper(r, e, p);
    for (let i = 0; i <= j; i++) inv[i * p + j] = col[i];
  }
  return inv;
}

/**
 * Householder QR of the columns of an m-row matrix, taken in order, that skips a column lying
 * (to within `relTol` of its own norm) in the span of the columns already accepted. Without
 * pivoting, the norm of what is left of column j after the earlier reflections is exactly its
 * distance from the span of the accepted columns, which is what identifies the offender.
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
