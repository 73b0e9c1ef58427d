// Ex-ante risk of a portfolio against a benchmark under a factor model.
//
// Notation (n holdings, k factors; all inputs daily):
//   w, b      portfolio and benchmark weights (n), over one common list of holdings
//   a = w − b active weights
//   B         exposures, n × k;  F factor covariance, k × k;  Δ = diag(δ) specific variances
//   Σ = B F Bᵀ + Δ            covariance of holding returns (never formed: O(nk + k²) below)
//
//   TE² = aᵀ Σ a = xᵀ F x + Σ_i δ_i a_i²,   x = Bᵀa (active factor exposures)
//
// Euler decomposition (TE² is homogeneous of degree 2 in a, so Σ_i a_i ∂(TE²)/∂a_i / 2 = TE²):
//   security i:  a_i (Σa)_i,  (Σa)_i = (B F x)_i + δ_i a_i
//   factor f:    x_f (F x)_f,  summed over a group's factors for the group
//   idiosyncratic: Σ_i δ_i a_i²
// Both sets add up to TE²: Σ_i a_i (Σa)_i = aᵀΣa = Σ_f x_f (Fx)_f + Σ_i δ_i a_i².
// Contributions are to the variance, and can be negative (a position that hedges the rest).
//
// Ex-ante beta of the portfolio to the benchmark: β = cov(w, b) / var(b) = wᵀΣb / bᵀΣb.
//
// Variances are annualised by multiplying by `annualization` (252 trading days: daily returns
// assumed serially uncorrelated); volatilities are square roots of annualised variances.
import { asymmetry, dot, matTVec, matVec } from './linalg.ts';

export const IDIOSYNCRATIC = 'idiosyncratic';

export class RiskInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RiskInputError';
  }
}

/** Sample covariance (divisor n − 1) of k columns of n observations each: k × k, row-major, exactly symmetric. */
export function sampleCovariance(columns: Float64Array[]): Float64Array {
  const k = columns.length;
  const n = k > 0 ? columns[0].length : 0;
  if (k === 0) throw new RiskInputError('no columns');
  if (n < 2) throw new RiskInputError(`${n} observations: the sample covariance needs at least 2`);
  // Two passes (means, then centred products): the one-pass Σxy − n·x̄ȳ loses digits to
  // cancellation whenever a mean is large next to the spread around it.
  const centred = columns.map((column, j) => {
    if (column.length !== n) throw new RiskInputError(`column ${j} has ${column.length} observations, column 0 has ${n}`);
    let mean = 0;
    for (let i = 0; i < n; i++) mean += column[i];
    mean /= n;
    const c = new Float64Array(n);
    for (let i = 0; i < n; i++) c[i] = column[i] - mean;
    return c;
  });
  const cov = new Float64Array(k * k);
  for (let p = 0; p < k; p++) {
    for (let q = p; q < k; q++) {
      const v = dot(centred[p], centred[q]) / (n - 1);
      cov[p * k + q] = v;
      cov[q * k + p] = v;
    }
  }
  if (cov.some((v) => !Number.isFinite(v))) throw new RiskInputError('non-finite observation');
  return cov;
}

export interface PortfolioRiskInput {
  weights: Float64Array;
  benchmarkWeights: Float64Array;
  /** holdings × factors, row-major */
  exposures: Float64Array;
  /** factors × factors, row-major, daily */
  factorCov: Float64Array;
  /** per holding, daily */
  specificVar: Float64Array;
  /** group name → its factors; every factor in exactly one group */
  factorGroups: Record<string, string[]>;
  factorNames: string[];
  annualization?: number;
}

export interface VarianceSplit {
  /** annualised total variance = factor + idiosyncratic */
  variance: number;
  volatility: number;
  factor: number;
  idiosyncratic: number;
}

export interface PortfolioRisk {
  /** annualised ex-ante tracking error, sqrt(trackingVariance) */
  trackingError: number;
  /** annualised TE²: the sum of contributionsByGroup (and, to rounding, of contributionsBySecurity) */
  trackingVariance: number;
  /** Euler contributions to TE² (annualised) per factor group, plus 'idiosyncratic' */
  contributionsByGroup: Record<string, number>;
  /** Euler contributions to TE² (annualised) per factor */
  contributionsByFactor: Record<string, number>;
  /** Euler contributions to TE² (annualised) per holding, in input order */
  contributionsBySecurity: Float64Array;
  /** x = Bᵀa per factor */
  activeExposures: Record<string, number>;
  /** wᵀΣb / bᵀΣb; null when the benchmark has no variance (e.g. no benchmark weights) */
  beta: number | null;
  /** split of the portfolio's own (not active) variance */
  portfolio: VarianceSplit;
  benchmark: VarianceSplit;
}

export function portfolioRisk(input: PortfolioRiskInput): PortfolioRisk {
  const { weights: w, benchmarkWeights: bw, exposures: B, factorCov: F, specificVar: delta, factorNames } = input;
  const A = input.annualization ?? 252;
  const n = w.length;
  const k = factorNames.length;
  const groupOf = validate(input, n, k, A);

  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = w[i] - bw[i];

  const x = matTVec(B, a, n, k); // active factor exposures
  const Fx = matVec(F, x, k, k);
  const BFx = matVec(B, Fx, n, k);

  const contributionsByFactor: Record<string, number> = {};
  const contributionsByGroup: Record<string, number> = {};
  for (const group of Object.keys(input.factorGroups)) contributionsByGroup[group] = 0;
  factorNames.forEach((name, f) => {
    const c = A * x[f] * Fx[f];
    contributionsByFactor[name] = c;
    contributionsByGroup[groupOf[f]] += c;
  });
  let idio = 0;
  for (let i = 0; i < n; i++) idio += delta[i] * a[i] * a[i];
  contributionsByGroup[IDIOSYNCRATIC] = A * idio;

  // TE² summed from the group record in its own order, so the record adds up to it bit for bit.
  let trackingVariance = 0;
  for (const c of Object.values(contributionsByGroup)) trackingVariance += c;

  const contributionsBySecurity = new Float64Array(n);
  for (let i = 0; i < n; i++) contributionsBySecurity[i] = A * a[i] * (BFx[i] + delta[i] * a[i]);

  const activeExposures: Record<string, number> = {};
  factorNames.forEach((name, f) => (activeExposures[name] = x[f]));

  // Covariances under Σ through the factor exposures: uᵀΣv = (Bᵀu)ᵀ F (Bᵀv) + Σ_i δ_i u_i v_i.
  const exposuresW = matTVec(B, w, n, k);
  const exposuresB = matTVec(B, bw, n, k);
  const FxB = matVec(F, exposuresB, k, k);
  const split = (u: Float64Array, exposuresU: Float64Array, FexposuresU: Float64Array): VarianceSplit => {
    let specific = 0;
    for (let i = 0; i < n; i++) specific += delta[i] * u[i] * u[i];
    const factor = A * dot(exposuresU, FexposuresU);
    const variance = factor + A * specific;
    return { variance, volatility: Math.sqrt(Math.max(variance, 0)), factor, idiosyncratic: A * specific };
  };
  const portfolio = split(w, exposuresW, matVec(F, exposuresW, k, k));
  const benchmark = split(bw, exposuresB, FxB);

  let specificWB = 0;
  for (let i = 0; i < n; i++) specificWB += delta[i] * w[i] * bw[i];
  const covWB = A * (dot(exposuresW, FxB) + specificWB);
  const beta = benchmark.variance > 0 ? covWB / benchmark.variance : null;

  return {
    // max(…, 0): a covariance that is not quite PSD can leave TE² at −1e-18; never a NaN.
    trackingError: Math.sqrt(Math.max(trackingVariance, 0)),
    trackingVariance,
    contributionsByGroup,
    contributionsByFactor,
    contributionsBySecurity,
    activeExposures,
    beta,
    portfolio,
    benchmark,
  };
}

/** Checks shapes and values; returns the group of each factor by index. */
function validate(input: PortfolioRiskInput, n: number, k: number, annualization: number): string[] {
  const size = (arr: Float64Array, expected: number, what: string) => {
    if (arr.length !== expected) throw new RiskInputError(`${what}: expected ${expected} entries, got ${arr.length}`);
    for (let i = 0; i < arr.length; i++) {
      if (!Number.isFinite(arr[i])) throw new RiskInputError(`${what}[${i}] is ${arr[i]}`);
    }
  };
  size(input.benchmarkWeights, n, 'benchmarkWeights');
  size(input.weights, n, 'weights');
  size(input.exposures, n * k, 'exposures (holdings × factors)');
  size(input.factorCov, k * k, 'factorCov (factors × factors)');
  size(input.specificVar, n, 'specificVar');
  if (input.specificVar.some((v) => v < 0)) throw new RiskInputError('specificVar has a negative variance');
  if (!(annualization > 0) || !Number.isFinite(annualization)) throw new RiskInputError(`annualization ${annualization}`);
  // A transposed or mis-sized matrix usually shows up as asymmetry; a genuine covariance is symmetric.
  if (asymmetry(input.factorCov, k) > 1e-10) throw new RiskInputError('factorCov is not symmetric');

  const index = new Map(input.factorNames.map((name, f) => [name, f]));
  if (index.size !== k) throw new RiskInputError('duplicate factor names');
  const groupOf: string[] = new Array(k);
  for (const [group, members] of Object.entries(input.factorGroups)) {
    if (group === IDIOSYNCRATIC) throw new RiskInputError(`'${IDIOSYNCRATIC}' is reserved for the specific part`);
    for (const name of members) {
      const f = index.get(name);
      if (f === undefined) throw new RiskInputError(`group ${group} names unknown factor ${name}`);
      if (groupOf[f] !== undefined) throw new RiskInputError(`factor ${name} is in groups ${groupOf[f]} and ${group}`);
      groupOf[f] = group;
    }
  }
  const ungrouped = input.factorNames.filter((_, f) => groupOf[f] === undefined);
  // Contributions must partition TE², so every factor has to land in exactly one group.
  if (ungrouped.length > 0) throw new RiskInputError(`factors in no group: ${ungrouped.join(', ')}`);
  return groupOf;
}
