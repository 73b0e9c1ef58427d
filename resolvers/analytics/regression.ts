// Ordinary least squares with an intercept, for factor regressions of daily returns.
//
// Model: y = α + Σ_j β_j x_j + ε, design Z = [1 | X] (n × p, p = k + 1).
// Solved by Householder QR, Z = Q R, β̂ = R⁻¹ Qᵀy: this never forms ZᵀZ, whose condition number
// is the square of Z's, so correlated factors lose half as many digits as the normal equations.
// Classical (homoskedastic) inference: s² = e'e / (n − p), Var(β̂) = s² (ZᵀZ)⁻¹ = s² R⁻¹ R⁻ᵀ.
import { householderQr, invertUpper, solveUpper } from './linalg.ts';

export const INTERCEPT = '(intercept)';

export class RegressionError extends Error {
  constructor(
    readonly code: 'singular_design' | 'insufficient_observations' | 'constant_response' | 'invalid_input',
    message: string,
  ) {
    super(message);
    this.name = 'RegressionError';
  }
}

export interface Collinearity {
  /** the column that is (numerically) a combination of earlier ones */
  column: string;
  /** the earlier columns it is a combination of; [] for a column of zeros */
  dependsOn: string[];
}

/**
 * The design is rank deficient. Columns are examined in order (intercept first), so the one
 * named is the later column of each dependent set; `dependsOn` names the rest of the set.
 */
export class SingularDesignError extends RegressionError {
  constructor(readonly collinearities: Collinearity[]) {
    super('singular_design', `singular design: ${collinearities.map(describe).join('; ')}`);
    this.name = 'SingularDesignError';
  }
  get columns(): string[] {
    return this.collinearities.map((c) => c.column);
  }
}

function describe({ column, dependsOn }: Collinearity): string {
  if (dependsOn.length === 0) return `${column} is all zero`;
  if (dependsOn.length === 1 && dependsOn[0] === INTERCEPT) return `${column} is constant`;
  return `${column} is collinear with ${dependsOn.join(', ')}`;
}

export class InsufficientObservationsError extends RegressionError {
  constructor(readonly observations: number, readonly parameters: number) {
    super('insufficient_observations', `${observations} observations for ${parameters} parameters: need at least ${parameters + 1}`);
    this.name = 'InsufficientObservationsError';
  }
}

export interface Coefficient {
  estimate: number;
  stdError: number;
  /**
   * estimate / stdError. When stdError is exactly 0 (a perfect fit to the last bit) this is
   * ±Infinity, or 0 for an estimate of exactly 0, rather than NaN.
   */
  tStat: number;
}

export interface OlsResult {
  n: number;
  /** residual degrees of freedom, n − k − 1 */
  dof: number;
  alpha: Coefficient;
  /** per factor name, in the order given */
  betas: Record<string, Coefficient>;
  rSquared: number;
  adjustedRSquared: number;
  /** s = sqrt(e'e / (n − k − 1)), in the units of y (daily for daily returns) */
  residualStdDev: number;
  /** e = y − ŷ, length n */
  residuals: Float64Array;
}

export interface OlsOptions {
  /**
   * A column is rejected as collinear when its distance from the span of the earlier columns is
   * at most this fraction of its own norm. Exact collinearity leaves ~1e-15; 1e-10 leaves a wide
   * margin while still accepting any design whose t-stats would carry meaning.
   */
  collinearityTol?: number;
}

export function ols(y: Float64Array, X: Float64Array[], names: string[], options: OlsOptions = {}): OlsResult {
  const n = y.length;
  const k = X.length;
  const p = k + 1;
  validate(y, X, names);
  if (n <= p) throw new InsufficientObservationsError(n, p);

  const columnNames = [INTERCEPT, ...names];
  const qr = householderQr([new Float64Array(n).fill(1), ...X], n, options.collinearityTol ?? 1e-10);
  if (qr.rejected.length > 0) {
    throw new SingularDesignError(
      qr.rejected.map(({ index, coefficients }) => ({
        column: columnNames[index],
        dependsOn: participants(qr.accepted, coefficients, X, index, n).map((i) => columnNames[i]),
      })),
    );
  }

  const qty = qr.applyQt(y);
  const coef = solveUpper(qr.r, qty.subarray(0, p), p);

  // Residuals from the fitted values directly (not from the tail of Qᵀy) so that they are the
  // residuals of the coefficients we report.
  const residuals = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i];
  mean /= n;
  let sse = 0;
  let sst = 0;
  for (let i = 0; i < n; i++) {
    let fitted = coef[0];
    for (let j = 0; j < k; j++) fitted += coef[j + 1] * X[j][i];
    residuals[i] = y[i] - fitted;
    sse += residuals[i] * residuals[i];
    sst += (y[i] - mean) * (y[i] - mean);
  }
  if (sst === 0) throw new RegressionError('constant_response', 'y is constant: R² is undefined');

  const dof = n - p;
  const s2 = sse / dof;
  // diag((ZᵀZ)⁻¹) = diag(R⁻¹R⁻ᵀ) = squared row norms of R⁻¹.
  const rInv = invertUpper(qr.r, p);
  const coefficient = (j: number): Coefficient => {
    let d = 0;
    for (let l = j; l < p; l++) d += rInv[j * p + l] * rInv[j * p + l];
    const stdError = Math.sqrt(s2 * d);
    const estimate = coef[j];
    const tStat = stdError > 0 ? estimate / stdError : estimate === 0 ? 0 : Math.sign(estimate) * Infinity;
    return { estimate, stdError, tStat };
  };

  const rSquared = 1 - sse / sst;
  const betas: Record<string, Coefficient> = {};
  names.forEach((name, j) => (betas[name] = coefficient(j + 1)));
  return {
    n,
    dof,
    alpha: coefficient(0),
    betas,
    rSquared,
    adjustedRSquared: 1 - ((1 - rSquared) * (n - 1)) / dof,
    residualStdDev: Math.sqrt(s2),
    residuals,
  };
}

function validate(y: Float64Array, X: Float64Array[], names: string[]): void {
  if (names.length !== X.length) {
    throw new RegressionError('invalid_input', `${X.length} factor columns but ${names.length} names`);
  }
  const seen = new Set<string>([INTERCEPT]);
  for (const name of names) {
    if (seen.has(name)) throw new RegressionError('invalid_input', `duplicate or reserved factor name ${JSON.stringify(name)}`);
    seen.add(name);
  }
  const finite = (values: Float64Array, what: string) => {
    for (let i = 0; i < values.length; i++) {
      if (!Number.isFinite(values[i])) throw new RegressionError('invalid_input', `${what}[${i}] is ${values[i]}`);
    }
  };
  finite(y, 'y');
  X.forEach((column, j) => {
    if (column.length !== y.length) {
      throw new RegressionError('invalid_input', `factor ${names[j]} has ${column.length} observations, y has ${y.length}`);
    }
    finite(column, names[j]);
  });
}

/**
 * The accepted columns that materially take part in a rejected column: those whose term
 * c_i·z_i is more than 1e-8 of the rejected column's norm (rounding leaves ~1e-16 on the rest).
 * Returns indices into the design's columns (0 = intercept).
 */
function participants(accepted: number[], coefficients: Float64Array, X: Float64Array[], index: number, n: number): number[] {
  const norm = (j: number) => {
    if (j === 0) return Math.sqrt(n);
    let ss = 0;
    for (const v of X[j - 1]) ss += v * v;
    return Math.sqrt(ss);
  };
  const own = norm(index);
  return accepted.filter((j, i) => Math.abs(coefficients[i]) * norm(j) > 1e-8 * own);
}
