// POST /v1/portfolio/attribution: the portfolio's return from `from` to `to` split into what its
// factor exposures explain and a residual, arithmetic (cumulative sum of daily returns) throughout.
//
// Exposures: each holding's betas from its OLS with intercept of daily excess returns on the
// model's factors over the estimation window, the `lookbackDays` dates ending at `to` under
// loadSample's rule; the portfolio's beta is β_p,k = Σ_i w_i β_i,k (OLS is linear in y, so this is
// the portfolio regression's beta). Weights are held constant over the period.
//
// Period: every date t in [from, to] with data for every holding and every factor (the same rule).
//   r_p,t = Σ_i w_i r_i,t                 totalReturn = Σ_t r_p,t, riskFreeReturn = Σ_t RF_t
//   excessReturn = Σ_t (r_p,t − RF_t) = totalReturn − riskFreeReturn
//   row (i, k) = w_i β_i,k Σ_t f_k,t       byFactor[k] = Σ_i row (i, k) = β_p,k Σ_t f_k,t
//   residual = excessReturn − Σ_k byFactor[k] = Σ_t (r_p,t − RF_t − Σ_k β_p,k f_k,t)
// so byFactor and the residual add up to excessReturn, and the rows to byFactor, to rounding.
// The compounded figures (Π_t (1 + r) − 1, the excess as (1 + total) / (1 + RF) − 1) are given
// beside them, never mixed in.
import { ApiError } from '../../core/errors.ts';
import type { Context } from '../context.ts';
import { excessOf, fitFactors, periodReturns, portfolioWeights, type Holding } from './analyze.ts';
import { forComputation, invalid, loadSample, type ModelName, type Sample } from './window.ts';

export interface AttributionInput {
  holdings: Holding[];
  from: string;
  to: string;
  lookbackDays: number;
  model?: ModelName;
}

const issuePath = (error: unknown): string | undefined =>
  error instanceof ApiError && error.code === 'validation_error' ? ((error.options.details as { issues?: { path?: string }[] } | undefined)?.issues?.[0]?.path) : undefined;

/** loadSample with its `asOf` field named `to`, as this route calls it. */
async function sampleEndingAt(ctx: Context, input: { tickers: string[]; to: string; lookbackDays: number; model?: ModelName }): Promise<Sample> {
  try {
    return await loadSample(ctx, { tickers: input.tickers, asOf: input.to, lookbackDays: input.lookbackDays, model: input.model });
  } catch (error) {
    if (issuePath(error) === 'asOf') throw invalid('to', (error as ApiError).message.replace(/^asOf: /, ''));
    throw error;
  }
}

/** Every date of the period: the dates in [from, to] with data for every holding and factor of the model. */
async function periodSample(ctx: Context, tickers: string[], input: AttributionInput, estimation: Sample): Promise<Sample> {
  // The window ending at `to` holds the latest such dates; when it starts after `from`, a longer
  // one does: there are at most as many dates in the period as calendar days.
  if (estimation.dates[0]! <= input.from) return estimation;
  const calendarDays = Math.round((Date.parse(input.to) - Date.parse(input.from)) / 86_400_000) + 1;
  const load = (lookbackDays: number) => sampleEndingAt(ctx, { tickers, to: input.to, lookbackDays, model: estimation.model });
  try {
    return await load(calendarDays);
  } catch (error) {
    // fewer dates than calendar days up to `to`: all of them
    if (issuePath(error) !== 'lookbackDays') throw error;
    const available = Number((error as ApiError).options.details?.available ?? 0);
    if (!(available > 0)) throw error;
    return load(available);
  }
}

export async function attributePortfolio(ctx: Context, input: AttributionInput) {
  if (input.from > input.to) throw invalid('from', `${input.from} is after to (${input.to})`);
  const tickers = [...new Set(input.holdings.map((h) => h.ticker.toUpperCase()))];
  const estimation = await sampleEndingAt(ctx, { tickers, to: input.to, lookbackDays: input.lookbackDays, model: input.model });
  const period = await periodSample(ctx, tickers, input, estimation);
  const sources = [...new Map([...estimation.sources, ...period.sources].map((s) => [s.sourceKey, s])).values()].sort((a, b) => (a.sourceKey < b.sourceKey ? -1 : a.sourceKey > b.sourceKey ? 1 : 0));
  const result = await ctx.analytics.run<typeof attributeSamples>('attribution', forComputation(estimation), forComputation(period), input);
  return { sample: estimation, sources, result };
}

export function attributeSamples(estimation: Sample, period: Sample, input: AttributionInput) {
  const picked = period.dates.flatMap((d, t) => (d >= input.from && d <= input.to ? [t] : []));
  if (!picked.length) throw invalid('from', `no date from ${input.from} to ${input.to} has data for every holding and every factor of ${estimation.model}`);
  const dates = picked.map((t) => period.dates[t]!);
  const series = (values: Float64Array) => Float64Array.from(picked, (t) => values[t]!);

  const { weights, basis } = portfolioWeights(input.holdings, estimation.lastClose);
  const factorNames = [...estimation.factorNames];
  const rfEstimation = estimation.factors.get('RF')!;
  const betas = new Map([...weights.keys()].map((ticker) => {
    const fit = fitFactors(estimation, excessOf(estimation.returns.get(ticker)!, rfEstimation), ticker);
    return [ticker, Object.fromEntries(factorNames.map((f) => [f, fit.betas[f]!.estimate]))] as const;
  }));

  const m = dates.length;
  const portfolio = new Float64Array(m);
  for (const [ticker, w] of weights) series(period.returns.get(ticker)!).forEach((r, t) => (portfolio[t]! += w * r));
  const rf = series(period.factors.get('RF')!);
  const summed = (values: Float64Array) => values.reduce((a, b) => a + b, 0);
  const returns = periodReturns(portfolio, rf);
  const { excessReturn } = returns;
  const factorSums = new Map(factorNames.map((f) => [f, summed(series(period.factors.get(f)!))]));

  const rows: { ticker: string; factor: string; contribution: number }[] = [];
  const byFactor: Record<string, number> = Object.fromEntries(factorNames.map((f) => [f, 0]));
  const portfolioBetas: Record<string, number> = Object.fromEntries(factorNames.map((f) => [f, 0]));
  for (const [ticker, w] of weights) {
    for (const f of factorNames) {
      const contribution = w * betas.get(ticker)![f]! * factorSums.get(f)!;
      rows.push({ ticker, factor: f, contribution });
      byFactor[f]! += contribution;
      portfolioBetas[f]! += w * betas.get(ticker)![f]!;
    }
  }
  let explained = 0;
  for (const f of factorNames) explained += byFactor[f]!;

  const window = estimation.dates.length;
  return {
    from: dates[0]!,
    to: dates[m - 1]!,
    days: m,
    estimationWindow: { from: estimation.dates[0]!, to: estimation.dates[window - 1]!, days: window },
    model: estimation.model,
    modelReason: estimation.modelReason,
    weightBasis: basis,
    betas: portfolioBetas,
    ...returns,
    byFactor,
    residual: excessReturn - explained,
    rows,
    method: 'arithmetic' as const,
    note:
      'Arithmetic throughout (no linking): excessReturn is the sum over the period of the portfolio\'s daily return less RF; byFactor[k] is the portfolio beta × the sum of factor k\'s daily returns; the residual (alpha included) is what is left, so byFactor and residual add up to excessReturn. ' +
      'Each row is weight × the holding\'s beta × the summed factor return, and a factor\'s rows add up to byFactor. totalReturn and riskFreeReturn are sums of daily returns too (totalReturn − riskFreeReturn = excessReturn); `compounded` gives the three grown day by day, Π(1 + r) − 1, with the excess as (1 + total) / (1 + risk-free) − 1.',
  };
}
