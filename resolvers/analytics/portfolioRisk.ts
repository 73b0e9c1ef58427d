// POST /v1/portfolio/risk: ex-ante tracking error of a portfolio against a benchmark under the
// model's factors, over the window loadSample chooses (the same rule as /v1/portfolio/analyze).
//
//   F   sample covariance (divisor n − 1) of the model's daily factor returns over the window
//   B   per security (the holdings and the benchmark), the betas of its OLS with intercept of
//       daily excess returns on the factors (as analyze fits them)
//   Δ   per security, that OLS's residual variance s² = e'e / (n − k − 1)
//   w   portfolio weights (portfolioWeights), w_b = 1 on the benchmark, a = w − w_b over the
//       union of holdings and the benchmark
// portfolioRisk (risk.ts) then gives TE² = aᵀ(B F Bᵀ + Δ)a × 252 and its Euler contributions.
import type { Context } from '../context.ts';
import { excessOf, fitFactors, loadPortfolioSample, portfolioWeights, type AnalyzeInput, type Holding } from './analyze.ts';
import { portfolioRisk, RiskInputError, sampleCovariance } from './risk.ts';
import { forComputation, invalid, type Sample } from './window.ts';

const tradingDays = 252;

/** Each factor's group; a model's groups are those whose factors it has. */
export const factorGroups: Record<string, string[]> = {
  market: ['Mkt-RF'],
  size: ['SMB'],
  value: ['HML'],
  profitability: ['RMW'],
  investment: ['CMA'],
  momentum: ['Mom'],
};

export function groupsOf(factorNames: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [group, members] of Object.entries(factorGroups)) {
    const present = members.filter((m) => factorNames.includes(m));
    if (present.length) out[group] = present;
  }
  return out;
}

/** The same request as analyze's. */
export async function portfolioRiskOf(ctx: Context, input: AnalyzeInput) {
  const benchmark = input.benchmark.toUpperCase();
  const sample = await loadPortfolioSample(ctx, input, benchmark);
  return { sample, result: await ctx.analytics.run<typeof riskOfSample>('risk', forComputation(sample), input.holdings, benchmark) };
}

export function riskOfSample(sample: Sample, holdingsIn: Holding[], benchmark: string) {
  const { weights } = portfolioWeights(holdingsIn, sample.lastClose);
  const universe = [...weights.keys(), ...(weights.has(benchmark) ? [] : [benchmark])];
  const factorNames = [...sample.factorNames];
  const k = factorNames.length;
  const n = universe.length;
  const rf = sample.factors.get('RF')!;

  const exposures = new Float64Array(n * k);
  const specificVar = new Float64Array(n);
  universe.forEach((ticker, i) => {
    const fit = fitFactors(sample, excessOf(sample.returns.get(ticker)!, rf), ticker);
    factorNames.forEach((f, j) => (exposures[i * k + j] = fit.betas[f]!.estimate));
    let sse = 0;
    for (const e of fit.residuals) sse += e * e;
    specificVar[i] = sse / fit.dof;
  });
  const factorCov = sampleCovariance(factorNames.map((f) => sample.factors.get(f)!));
  const w = Float64Array.from(universe, (t) => weights.get(t) ?? 0);
  const wb = Float64Array.from(universe, (t) => (t === benchmark ? 1 : 0));

  let risk: ReturnType<typeof portfolioRisk>;
  try {
    risk = portfolioRisk({ weights: w, benchmarkWeights: wb, exposures, factorCov, specificVar, factorGroups: groupsOf(factorNames), factorNames, annualization: tradingDays });
  } catch (error) {
    if (error instanceof RiskInputError) throw invalid('holdings', `the risk model cannot be formed: ${error.message}`);
    throw error;
  }

  const days = sample.dates.length;
  return {
    asOf: sample.dates[days - 1]!,
    window: { from: sample.dates[0]!, to: sample.dates[days - 1]!, days },
    model: sample.model,
    modelReason: sample.modelReason,
    benchmark,
    trackingError: risk.trackingError,
    trackingVariance: risk.trackingVariance,
    contributionsByGroup: risk.contributionsByGroup,
    contributionsBySecurity: universe.map((ticker, i) => ({
      ticker,
      activeWeight: w[i]! - wb[i]!,
      contribution: risk.contributionsBySecurity[i]!,
      // every security has a return on every date of the window: the window rule refuses a
      // holding without data (400) rather than dropping it
      coverage: 'full' as const,
    })),
    beta: risk.beta,
    portfolio: risk.portfolio,
    factorCovariance: { factors: factorNames, annualized: factorNames.map((_, p) => factorNames.map((_, q) => factorCov[p * k + q]! * tradingDays)) },
  };
}
