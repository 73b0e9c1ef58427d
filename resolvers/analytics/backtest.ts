// POST /v1/strategies/{strategy_id}/backtest: a saved strategy run over the prices and factor
// returns held, day by day. Deterministic: the same strategy version over the same files and span
// gives the same result. The dates are the portfolio analytics' window rule (window.ts) over every
// ticker the strategy may hold, so a date missing for one ticker or one factor is no date at all.
import type { Context } from '../context.ts';
import type { StrategyDefinition } from '../strategies/definition.ts';
import { exposureSummary } from './analyze.ts';
import { ols, RegressionError } from './regression.ts';
import { forComputation, invalid, loadSample, type Sample } from './window.ts';

const tradingDays = 252;

export const backtestCurves = ['daily', 'monthly'] as const;
export type BacktestCurve = (typeof backtestCurves)[number];

export interface BacktestInput {
  start?: string;
  end?: string;
  initialValue: number;
  curve: BacktestCurve;
}

export const backtestMethod =
  'The portfolio is set to its target weights at the close of the span\'s first date and valued at each later close: V_t = V_{t−1} × (1 + Σ_i w_i,t r_i,t), r_i,t = close_t / close_prev − 1 on the adjusted closes; between rebalances the weights drift with the prices (w_i ← w_i (1 + r_i,t) / (1 + r_p,t)). ' +
  'A rebalance resets the target weights at the close of the last date of each month, quarter or year the data has; its turnover is ½ Σ_i |w_target − w_drifted| (one-way; the first, from cash, is 1). No transaction costs, no cash, dividends only as the adjusted closes carry them. ' +
  'Holdings targets are the weights scaled to add up to 1, then capped at `maxWeight` with the excess given to the uncapped holdings in proportion to their weights. Factor-tilt targets: at each rebalance, each universe ticker\'s betas are the OLS with intercept of its daily excess returns on the model\'s factors over the `lookbackDays` dates ending on the rebalance date (nothing after it is read), its score Σ_f tilt_f × β_f, and the `select` highest scores (ties by ticker) are held equally weighted. ' +
  'Return: totalReturn = V_end / V_0 − 1; annualizedReturn = (1 + totalReturn)^(252 / n) − 1 over the span\'s n daily returns; volatility = the sample standard deviation (n − 1) of the daily returns × √252; sharpeRatio = mean / standard deviation of the daily excess returns (r_p − RF) × √252. Drawdown_t = V_t / max_{s≤t} V_s − 1. ' +
  'Factor exposures: the OLS with intercept of the strategy\'s daily excess returns on the model\'s factors over each rebalance period (each calendar quarter when it never rebalances); a period too short to estimate gives `exposures: null` and the regression\'s `reason`.';

type Weights = Map<string, number>;
interface Selection {
  ticker: string;
  score: number;
  betas: Record<string, number>;
  selected: boolean;
}

/** The tickers a strategy may hold, upper-cased, in the definition's order. */
export function strategyTickers(definition: StrategyDefinition): string[] {
  return definition.kind === 'holdings' ? definition.holdings.map((h) => h.ticker.toUpperCase()) : definition.universe.map((t) => t.toUpperCase());
}

/** Weights scaled to add up to 1, then capped at `max` with the excess spread over the uncapped in proportion (repeated until none is above it). */
export function cappedWeights(raw: [string, number][], max: number): Weights {
  const total = raw.reduce((a, [, w]) => a + w, 0);
  const weights = new Map(raw.map(([t, w]) => [t, w / total]));
  const capped = new Set<string>();
  for (let round = 0; round < raw.length; round++) {
    const over = [...weights].filter(([t, w]) => !capped.has(t) && w > max + 1e-15);
    if (!over.length) break;
    for (const [t] of over) capped.add(t);
    const free = [...weights].filter(([t]) => !capped.has(t));
    const left = 1 - capped.size * max;
    const freeTotal = free.reduce((a, [, w]) => a + w, 0);
    for (const t of capped) weights.set(t, max);
    for (const [t, w] of free) weights.set(t, freeTotal > 0 ? (w / freeTotal) * left : left / free.length);
  }
  return weights;
}

const periodOf = (rebalance: StrategyDefinition['rebalance'], date: string) => {
  if (rebalance === 'monthly') return date.slice(0, 7);
  if (rebalance === 'annually') return date.slice(0, 4);
  // quarters: also the exposure periods of a strategy that never rebalances
  return `${date.slice(0, 4)}Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
};

function standardDeviation(values: ArrayLike<number>): number {
  const n = values.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i]!;
  mean /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i]! - mean) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/** The factor-tilt selection at date index t: betas over the lookback ending at t, scores, the top `select`. */
function tiltTargets(sample: Sample, definition: Extract<StrategyDefinition, { kind: 'factor_tilt' }>, t: number): { weights: Weights; selection: Selection[] } {
  const from = t - definition.lookbackDays + 1;
  const rf = sample.factors.get('RF')!.subarray(from, t + 1);
  const factors = sample.factorNames.map((f) => sample.factors.get(f)!.subarray(from, t + 1));
  const scored = strategyTickers(definition).map((ticker) => {
    const returns = sample.returns.get(ticker)!.subarray(from, t + 1);
    let fit;
    try {
      fit = ols(returns.map((r, i) => r - rf[i]!), factors, [...sample.factorNames]);
    } catch (error) {
      if (error instanceof RegressionError) throw invalid('definition.universe', `the betas of ${ticker} over the ${definition.lookbackDays} dates to ${sample.dates[t]} cannot be estimated: ${error.message}`);
      throw error;
    }
    const betas = Object.fromEntries(sample.factorNames.map((f) => [f, fit.betas[f]!.estimate]));
    const score = Object.entries(definition.tilts).reduce((s, [f, tilt]) => s + (tilt ?? 0) * betas[f]!, 0);
    return { ticker, score, betas, selected: false };
  });
  const ranked = [...scored].sort((a, b) => b.score - a.score || (a.ticker < b.ticker ? -1 : 1));
  const chosen = ranked.slice(0, definition.select);
  for (const c of chosen) c.selected = true;
  return { weights: cappedWeights(chosen.map((c) => [c.ticker, 1]), definition.constraints.maxWeight), selection: scored };
}

/** The computation alone, on a sample of every date of the rule to `end` (a worker thread may run it). */
export function backtestSample(sample: Sample, definition: StrategyDefinition, input: BacktestInput) {
  const { dates } = sample;
  const lookback = definition.kind === 'factor_tilt' ? definition.lookbackDays : 1;
  const warmup = lookback - 1;
  let s = input.start ? dates.findIndex((d) => d >= input.start!) : warmup;
  if (s < 0) throw invalid('start', `no date on or after ${input.start}${input.end ? ` and on or before ${input.end}` : ''} has a price of every ticker of the strategy and every factor of ${sample.model}`);
  if (s < warmup) {
    throw invalid('start', `the first rebalance estimates betas over the ${lookback} dates ending on it: the first date with that many before it is ${dates[warmup] ?? 'none held'}`, { earliestStart: dates[warmup] ?? null });
  }
  const last = dates.length - 1;
  if (last - s < 1) throw invalid(input.start ? 'start' : 'end', `the span from ${dates[s] ?? input.start} to ${dates[last] ?? input.end} has fewer than two dates with data for every ticker and factor`);
  s = Math.max(s, 0);

  const tickers = strategyTickers(definition);
  const targetsAt = (t: number): { weights: Weights; selection?: Selection[] } =>
    definition.kind === 'holdings' ? { weights: cappedWeights(definition.holdings.map((h) => [h.ticker.toUpperCase(), h.weight]), definition.constraints.maxWeight) } : tiltTargets(sample, definition, t);

  const weightRows = (before: Weights, after: Weights) =>
    tickers.filter((t) => (before.get(t) ?? 0) !== 0 || (after.get(t) ?? 0) !== 0).map((ticker) => ({ ticker, before: before.get(ticker) ?? 0, after: after.get(ticker) ?? 0 }));

  const m = last - s;
  const portfolio = new Float64Array(m);
  const values = new Float64Array(m + 1);
  values[0] = input.initialValue;
  const first = targetsAt(s);
  let weights = first.weights;
  const rebalances = [{ date: dates[s]!, index: s, initial: true, turnover: 1, weights: weightRows(new Map(), weights), ...(first.selection ? { selection: first.selection } : {}) }];
  for (let t = s + 1; t <= last; t++) {
    let r = 0;
    for (const [ticker, w] of weights) r += w * sample.returns.get(ticker)![t]!;
    portfolio[t - s - 1] = r;
    values[t - s] = values[t - s - 1]! * (1 + r);
    const drifted: Weights = new Map();
    for (const [ticker, w] of weights) drifted.set(ticker, (w * (1 + sample.returns.get(ticker)![t]!)) / (1 + r));
    weights = drifted;
    if (definition.rebalance !== 'none' && t < last && periodOf(definition.rebalance, dates[t]!) !== periodOf(definition.rebalance, dates[t + 1]!)) {
      const next = targetsAt(t);
      let turnover = 0;
      for (const ticker of tickers) turnover += Math.abs((next.weights.get(ticker) ?? 0) - (weights.get(ticker) ?? 0));
      rebalances.push({ date: dates[t]!, index: t, initial: false, turnover: turnover / 2, weights: weightRows(weights, next.weights), ...(next.selection ? { selection: next.selection } : {}) });
      weights = next.weights;
    }
  }

  // drawdown: the deepest fall from a running peak, when it began, bottomed and was made up
  const drawdowns = new Float64Array(m + 1);
  let peak = 0;
  let deepest = { value: 0, peak: -1, trough: -1 };
  for (let i = 0; i <= m; i++) {
    if (values[i]! > values[peak]!) peak = i;
    drawdowns[i] = values[i]! / values[peak]! - 1;
    if (drawdowns[i]! < deepest.value) deepest = { value: drawdowns[i]!, peak, trough: i };
  }
  let recovery = -1;
  if (deepest.trough >= 0) for (let i = deepest.trough + 1; i <= m && recovery < 0; i++) if (values[i]! >= values[deepest.peak]!) recovery = i;
  const dateAt = (i: number) => dates[s + i]!;

  const rf = sample.factors.get('RF')!.subarray(s + 1, last + 1);
  const excess = portfolio.map((r, i) => r - rf[i]!);
  const totalReturn = values[m]! / values[0]! - 1;
  const dailyVolatility = m > 1 ? standardDeviation(portfolio) : null;
  const excessVolatility = m > 1 ? standardDeviation(excess) : null;
  const meanExcess = excess.reduce((a, b) => a + b, 0) / m;
  let riskFreeGrowth = 1;
  for (const v of rf) riskFreeGrowth *= 1 + v;

  // exposures per rebalance period: the returns earned from the day after one rebalance to the next
  const cuts = definition.rebalance === 'none' ? quarterEnds(dates, s, last) : [...rebalances.map((r) => r.index), last].filter((v, i, a) => a.indexOf(v) === i);
  const exposures = cuts.slice(0, -1).map((from, k) => {
    const to = cuts[k + 1]!;
    const y = excess.subarray(from - s, to - s);
    const X = sample.factorNames.map((f) => sample.factors.get(f)!.subarray(from + 1, to + 1));
    const period = { from: dates[from + 1]!, to: dates[to]!, days: to - from, afterRebalance: definition.rebalance === 'none' ? null : dates[from]! };
    try {
      return { ...period, exposures: exposureSummary(ols(y, X, [...sample.factorNames])), reason: null };
    } catch (error) {
      if (error instanceof RegressionError) return { ...period, exposures: null, reason: { code: error.code, message: error.message } };
      throw error;
    }
  });

  const monthEnds = new Set<number>();
  for (let i = 0; i <= m; i++) if (i === 0 || i === m || dateAt(i).slice(0, 7) !== dateAt(i + 1).slice(0, 7)) monthEnds.add(i);
  const points = [];
  for (let i = 0; i <= m; i++) if (input.curve === 'daily' || monthEnds.has(i)) points.push({ date: dateAt(i), value: values[i]!, drawdown: drawdowns[i]! });

  const later = rebalances.slice(1);
  const turnoverTotal = later.reduce((a, r) => a + r.turnover, 0);
  return {
    span: { from: dates[s]!, to: dates[last]!, days: m + 1, returns: m },
    model: sample.model,
    modelReason: sample.modelReason,
    initialValue: input.initialValue,
    finalValue: values[m]!,
    performance: {
      totalReturn,
      annualizedReturn: (1 + totalReturn) ** (tradingDays / m) - 1,
      riskFreeReturn: riskFreeGrowth - 1,
      volatility: dailyVolatility === null ? null : { daily: dailyVolatility, annualized: dailyVolatility * Math.sqrt(tradingDays) },
      sharpeRatio: excessVolatility ? (meanExcess / excessVolatility) * Math.sqrt(tradingDays) : null,
      reason: dailyVolatility === null ? 'one daily return: a standard deviation needs two' : null,
    },
    maxDrawdown:
      deepest.trough < 0
        ? { value: 0, peakDate: null, troughDate: null, recoveryDate: null, recovered: null, reason: 'the value never fell below an earlier one' }
        : { value: deepest.value, peakDate: dateAt(deepest.peak), troughDate: dateAt(deepest.trough), recoveryDate: recovery < 0 ? null : dateAt(recovery), recovered: recovery >= 0, reason: recovery < 0 ? `not back to the peak by ${dateAt(m)}` : null },
    turnover: { rebalances: later.length, total: turnoverTotal, annualized: (turnoverTotal * tradingDays) / m, note: 'One-way, the initial purchase from cash left out' },
    rebalances: rebalances.map(({ index: _index, ...r }) => r),
    exposures,
    curve: { frequency: input.curve, points },
    method: backtestMethod,
  };
}

/** Indices that cut the span [s, last] into calendar quarters: s, each quarter's last date, last. */
function quarterEnds(dates: string[], s: number, last: number): number[] {
  const cuts = [s];
  for (let t = s + 1; t < last; t++) if (periodOf('quarterly', dates[t]!) !== periodOf('quarterly', dates[t + 1]!)) cuts.push(t);
  cuts.push(last);
  return cuts;
}

export type BacktestResult = ReturnType<typeof backtestSample>;

/**
 * The sample of a strategy over every date to `end` (from `start` for holdings; a factor tilt
 * also reads the dates before it for its first betas), then the backtest on a worker thread.
 */
export async function backtestStrategy(ctx: Context, definition: StrategyDefinition, input: BacktestInput) {
  if (input.start && input.end && input.start > input.end) throw invalid('end', `${input.end} is before start ${input.start}`);
  const sample = await loadSample(ctx, {
    tickers: strategyTickers(definition),
    asOf: input.end,
    lookbackDays: 2,
    model: definition.kind === 'factor_tilt' ? definition.model : undefined,
    parameters: { asOf: 'end', lookbackDays: input.start ? 'start' : 'end' },
    span: definition.kind === 'holdings' && input.start ? { from: input.start } : {},
  });
  const result = await ctx.analytics.run<typeof backtestSample>('backtest', forComputation(sample), definition, input);
  return { sources: sample.sources, result };
}
