// POST /v1/portfolio/analyze: factor exposures of each holding and of the portfolio (OLS with
// intercept of daily excess returns on the model's factor returns), with attribution and hedge
// summaries, over the window stated in the answer.
import type { Context } from '../context.ts';
import { ols, RegressionError, type OlsResult } from './regression.ts';
import { forComputation, invalid, loadSample, type ModelName, type Sample } from './window.ts';

export type Holding = { ticker: string; weight: number } | { ticker: string; shares: number };

export interface AnalyzeInput {
  holdings: Holding[];
  asOf?: string;
  lookbackDays: number;
  model?: ModelName;
  benchmark: string;
}

const tradingDays = 252;

/** Weights as given (normalised to sum to 1), or share counts valued at the window's last close. */
export function portfolioWeights(holdings: Holding[], lastClose: Map<string, number>): { weights: Map<string, number>; basis: string } {
  const byShares = holdings.every((h) => 'shares' in h);
  if (!byShares && holdings.some((h) => 'shares' in h)) throw invalid('holdings', 'give every holding a weight, or every holding a share count, not a mix');
  const values = new Map<string, number>();
  for (const h of holdings) {
    const ticker = h.ticker.toUpperCase();
    const value = 'shares' in h ? h.shares * lastClose.get(ticker)! : h.weight;
    values.set(ticker, (values.get(ticker) ?? 0) + value);
  }
  const total = [...values.values()].reduce((a, b) => a + b, 0);
  if (!(total > 0)) throw invalid('holdings', 'the weights (or share values) add up to zero');
  const weights = new Map([...values].map(([ticker, value]) => [ticker, value / total]));
  return { weights, basis: byShares ? 'shares valued at the close of the window\'s last date' : 'weights as given, scaled to add up to 1' };
}

export function exposureSummary(fit: OlsResult) {
  return {
    alpha: { daily: fit.alpha.estimate, annualized: fit.alpha.estimate * tradingDays, stdError: fit.alpha.stdError, tStat: fit.alpha.tStat },
    betas: Object.fromEntries(Object.entries(fit.betas).map(([name, c]) => [name, { beta: c.estimate, stdError: c.stdError, tStat: c.tStat }])),
    rSquared: fit.rSquared,
    adjustedRSquared: fit.adjustedRSquared,
    residualVolatility: { daily: fit.residualStdDev, annualized: fit.residualStdDev * Math.sqrt(tradingDays) },
    observations: fit.n,
  };
}

export function excessOf(returns: Float64Array, rf: Float64Array): Float64Array {
  return returns.map((r, t) => r - rf[t]!);
}

/**
 * A period's returns in both conventions. Attribution sums daily returns (arithmetic: the parts
 * add up), so `totalReturn` − `riskFreeReturn` = `excessReturn` there; `compounded` holds the
 * same three grown day by day, the excess as (1 + total) / (1 + risk-free) − 1.
 */
export function periodReturns(portfolio: ArrayLike<number>, rf: ArrayLike<number>) {
  let total = 0;
  let riskFree = 0;
  let totalGrowth = 1;
  let riskFreeGrowth = 1;
  for (let t = 0; t < portfolio.length; t++) {
    total += portfolio[t]!;
    riskFree += rf[t]!;
    totalGrowth *= 1 + portfolio[t]!;
    riskFreeGrowth *= 1 + rf[t]!;
  }
  return {
    totalReturn: total,
    riskFreeReturn: riskFree,
    excessReturn: total - riskFree,
    compounded: { totalReturn: totalGrowth - 1, riskFreeReturn: riskFreeGrowth - 1, excessReturn: totalGrowth / riskFreeGrowth - 1 },
  };
}

/** The OLS of a return series on the sample's factors; a design that cannot be estimated is the client's 400, naming `parameter`. */
export function fitFactors(sample: Sample, y: Float64Array, what: string, parameter = 'holdings'): OlsResult {
  try {
    return ols(y, sample.factorNames.map((f) => sample.factors.get(f)!), [...sample.factorNames]);
  } catch (error) {
    if (error instanceof RegressionError) throw invalid(parameter, `the regression of ${what} cannot be estimated: ${error.message}`);
    throw error;
  }
}

/** One stock's exposures (GET /v1/factors/exposures): the regression of a holding here, on the stock alone, over the sample's window. */
export function exposuresOfSample(sample: Sample, ticker: string) {
  const fit = fitFactors(sample, excessOf(sample.returns.get(ticker)!, sample.factors.get('RF')!), ticker, 'ticker');
  const n = sample.dates.length;
  return { ticker, asOf: sample.dates[n - 1]!, window: { from: sample.dates[0]!, to: sample.dates[n - 1]!, days: n }, model: sample.model, modelReason: sample.modelReason, ...exposureSummary(fit) };
}

/** The sample of a portfolio measured against a benchmark: the holdings' tickers, then the benchmark's. */
export function loadPortfolioSample(ctx: Context, input: Omit<AnalyzeInput, 'benchmark'>, benchmark: string): Promise<Sample> {
  const tickers = [...new Set([...input.holdings.map((h) => h.ticker.toUpperCase()), benchmark])];
  return loadSample(ctx, { tickers, asOf: input.asOf, lookbackDays: input.lookbackDays, model: input.model });
}

export async function analyzePortfolio(ctx: Context, input: AnalyzeInput) {
  const benchmark = input.benchmark.toUpperCase();
  const sample = await loadPortfolioSample(ctx, input, benchmark);
  return { sample, result: await ctx.analytics.run<typeof analyzeSample>('analyze', forComputation(sample), input.holdings, benchmark) };
}

/** The computation alone, on a sample already loaded (benchmarks run it on synthetic samples). */
export function analyzeSample(sample: Sample, holdingsIn: Holding[], benchmark: string) {
  const tickers = [...new Set(holdingsIn.map((h) => h.ticker.toUpperCase()))];
  const { weights, basis } = portfolioWeights(holdingsIn, sample.lastClose);
  const rf = sample.factors.get('RF')!;
  const n = sample.dates.length;
  const portfolio = new Float64Array(n);
  for (const [ticker, w] of weights) sample.returns.get(ticker)!.forEach((r, t) => (portfolio[t]! += w * r));
  const portfolioExcess = excessOf(portfolio, rf);
  const portfolioFit = fitFactors(sample, portfolioExcess, 'the portfolio');
  const holdings = tickers.map((ticker) => ({ ticker, weight: weights.get(ticker)!, exposures: exposureSummary(fitFactors(sample, excessOf(sample.returns.get(ticker)!, rf), ticker)) }));

  // attribution over the window: each factor's beta times its summed return, the alpha, and what is left
  const summed = (series: Float64Array) => series.reduce((a, b) => a + b, 0);
  const returns = periodReturns(portfolio, rf);
  const { excessReturn } = returns;
  const byFactor = Object.fromEntries(sample.factorNames.map((f) => [f, portfolioFit.betas[f]!.estimate * summed(sample.factors.get(f)!)]));
  const explained = Object.values(byFactor).reduce((a, b) => a + b, 0);
  const alphaPart = portfolioFit.alpha.estimate * n;

  // hedge: the benchmark's beta-neutral amount, and the market exposure left after it
  const benchmarkExcess = excessOf(sample.returns.get(benchmark)!, rf);
  const marketFit = ols(portfolioExcess, [benchmarkExcess], [benchmark]);
  const benchmarkFit = fitFactors(sample, benchmarkExcess, benchmark);
  const hedgeRatio = -marketFit.betas[benchmark]!.estimate;
  const marketBeta = (f: OlsResult) => f.betas['Mkt-RF']!.estimate;

  return {
    asOf: sample.dates[n - 1]!,
    window: { from: sample.dates[0]!, to: sample.dates[n - 1]!, days: n },
    model: sample.model,
    modelReason: sample.modelReason,
    benchmark,
    weightBasis: basis,
    portfolio: exposureSummary(portfolioFit),
    holdings,
    attribution: {
      method: 'over the window, arithmetic: each factor\'s portfolio beta × the sum of its daily returns; alpha × days; the residual is what is left of the summed excess return. totalReturn, riskFreeReturn and excessReturn are sums of daily returns (totalReturn − riskFreeReturn = excessReturn); `compounded` holds them grown day by day',
      ...returns,
      byFactor,
      alpha: alphaPart,
      residual: excessReturn - explained - alphaPart,
    },
    hedge: {
      instrument: benchmark,
      method: `OLS of the portfolio's daily excess return on ${benchmark}'s over the window`,
      betaToBenchmark: -hedgeRatio,
      rSquared: marketFit.rSquared,
      hedgeRatio,
      explanation: `Sell ${(-hedgeRatio).toFixed(4)} of the portfolio's value in ${benchmark} to neutralise its beta to ${benchmark}.`,
      marketBetaBefore: marketBeta(portfolioFit),
      marketBetaAfter: marketBeta(portfolioFit) + hedgeRatio * marketBeta(benchmarkFit),
    },
  };
}
