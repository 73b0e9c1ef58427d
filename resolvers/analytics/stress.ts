// POST /v1/portfolio/stress-test: a portfolio's return under scenarios of the catalog (scenarios.ts).
//
// Exposures: each holding's betas of its OLS with intercept of daily excess returns on the model's
// factors (fitFactors) over the window loadSample chooses (the rule of /v1/portfolio/analyze).
// Per scenario and holding:
//   historical, the file covers the window (a close on or before `from`, and a row on or after `to`):
//     buy and hold, close(last row ≤ to) / close(last row ≤ from) − 1          method buy_and_hold
//   historical otherwise: Σ_k β_k × (Π_t (1 + f_k,t) − 1), t the dates after `from` up to `to`
//     on which every factor of the model has a value (the span buy and hold covers)  factor_implied
//   hypothetical: Σ_k β_k × shock_k; a shocked factor outside the model contributes 0 (notModelled)
// The portfolio's return is Σ_i w_i × return_i (weights as portfolioWeights gives them).
import type { Context } from '../context.ts';
import { excessOf, fitFactors, portfolioWeights, type Holding } from './analyze.ts';
import { scenarioById, stressScenarios, type StressScenario } from './scenarios.ts';
import { forComputation, invalid, loadSample, type Close, type ModelName, type Sample } from './window.ts';

export interface StressInput {
  holdings: Holding[];
  scenarios: string[];
  asOf?: string;
  lookbackDays: number;
  model?: ModelName;
}

/** Refuses an empty list or an id outside the catalog, naming the element. */
export function checkScenarioIds(ids: string[]): StressScenario[] {
  if (!ids.length) throw invalid('scenarios', 'give at least one scenario id', { acceptedValues: stressScenarios.map((s) => s.id) });
  return ids.map((id, i) => {
    const found = scenarioById.get(id);
    if (!found) throw invalid(`scenarios[${i}]`, `no scenario ${JSON.stringify(id)} (GET /v1/portfolio/stress-test/scenarios lists them)`, { acceptedValues: stressScenarios.map((s) => s.id) });
    return found;
  });
}

/** The latest bar on or before a date, from bars in ascending date order. */
function onOrBefore(bars: { date: string; close: number }[], date: string): { date: string; close: number } | undefined {
  let lo = 0;
  let hi = bars.length - 1;
  let found: { date: string; close: number } | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (bars[mid]!.date <= date) {
      found = bars[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** A close a holding can be stressed with. */
const usable = (b: Close) => Number.isFinite(b.close) && b.close > 0;

/**
 * What the historical scenarios read of the history beyond the window: per ticker, of its usable
 * closes those a scenario starts or ends on (the latest on or before each end of its window) and
 * the last one held (whether the file covers the window); and the model's factor returns on the
 * dates inside a scenario's window. stressOfSample finds the same closes and dates in it as in the
 * whole history, and this is what crosses to a worker thread instead of every close and every
 * factor date held.
 */
export function scenarioHistory(sample: Sample, scenarios: readonly StressScenario[]): Sample['history'] {
  const windows = scenarios.flatMap((s) => (s.window ? [s.window] : []));
  const closes = new Map(
    [...sample.history.closes].map(([ticker, all]) => {
      const bars = all.filter(usable);
      const read = new Set<Close>();
      for (const window of windows) {
        for (const bar of [onOrBefore(bars, window.from), onOrBefore(bars, window.to)]) if (bar) read.add(bar);
      }
      if (bars.length) read.add(bars[bars.length - 1]!);
      return [ticker, bars.filter((b) => read.has(b))];
    }),
  );
  const factors = new Map<string, Map<string, number>>();
  if (windows.length) for (const [date, values] of sample.history.factors) if (windows.some((w) => date > w.from && date <= w.to)) factors.set(date, values);
  return { closes, factors };
}

export async function stressTest(ctx: Context, input: StressInput) {
  const scenarios = checkScenarioIds(input.scenarios);
  const tickers = [...new Set(input.holdings.map((h) => h.ticker.toUpperCase()))];
  const sample = await loadSample(ctx, { tickers, asOf: input.asOf, lookbackDays: input.lookbackDays, model: input.model });
  const result = await ctx.analytics.run<typeof stressOfSample>('stress', forComputation(sample, scenarioHistory(sample, scenarios)), input.holdings, scenarios);
  return { sources: sample.sources, result };
}

/** The computation alone, on a sample already loaded (with the history its historical scenarios read). */
export function stressOfSample(sample: Sample, holdingsIn: Holding[], scenarios: readonly StressScenario[]) {
  const tickers = [...new Set(holdingsIn.map((h) => h.ticker.toUpperCase()))];
  const { weights, basis } = portfolioWeights(holdingsIn, sample.lastClose);
  const rf = sample.factors.get('RF')!;
  const factorNames = [...sample.factorNames];
  const betas = new Map(
    tickers.map((ticker) => {
      const fit = fitFactors(sample, excessOf(sample.returns.get(ticker)!, rf), ticker);
      return [ticker, Object.fromEntries(factorNames.map((f) => [f, fit.betas[f]!.estimate]))];
    }),
  );
  const n = sample.dates.length;

  // closes and factor returns beyond the window, as loadSample read them (no second read)
  const closes = new Map([...sample.history.closes].map(([ticker, bars]) => [ticker, bars.filter(usable)]));
  const compounded = (i: number, window: { from: string; to: string }) => {
    const dates = [...sample.history.factors.keys()].filter((d) => d > window.from && d <= window.to && factorNames.every((f) => sample.history.factors.get(d)!.has(f))).sort();
    if (!dates.length) throw invalid(`scenarios[${i}]`, `no daily factor returns of ${sample.model} are held between ${window.from} and ${window.to}, so a holding whose prices do not cover the window cannot be stressed`);
    const growth = Object.fromEntries(factorNames.map((f) => [f, dates.reduce((g, d) => g * (1 + sample.history.factors.get(d)!.get(f)!), 1) - 1]));
    return { growth, days: dates.length };
  };

  const results = [];
  for (const [i, scenario] of scenarios.entries()) {
    const holdings: { ticker: string; weight: number; return: number; method: 'buy_and_hold' | 'factor_implied' | 'factor_shock'; from?: string; to?: string }[] = [];
    let factorReturns: Record<string, number> | undefined;
    let factorDays: number | undefined;
    let notModelled: string[] | undefined;
    if (scenario.kind === 'historical') {
      const window = scenario.window!;
      for (const ticker of tickers) {
        const bars = closes.get(ticker)!;
        const start = onOrBefore(bars, window.from);
        const end = onOrBefore(bars, window.to);
        const covers = start && end && bars[bars.length - 1]!.date >= window.to;
        if (covers) {
          holdings.push({ ticker, weight: weights.get(ticker)!, return: end.close / start.close - 1, method: 'buy_and_hold', from: start.date, to: end.date });
        } else {
          if (!factorReturns) ({ growth: factorReturns, days: factorDays } = compounded(i, window));
          const b = betas.get(ticker)!;
          holdings.push({ ticker, weight: weights.get(ticker)!, return: factorNames.reduce((s, f) => s + b[f]! * factorReturns![f]!, 0), method: 'factor_implied' });
        }
      }
    } else {
      const shocks = scenario.shocks!;
      notModelled = Object.keys(shocks).filter((f) => !factorNames.includes(f));
      for (const ticker of tickers) {
        const b = betas.get(ticker)!;
        holdings.push({ ticker, weight: weights.get(ticker)!, return: factorNames.reduce((s, f) => s + b[f]! * (shocks[f] ?? 0), 0), method: 'factor_shock' });
      }
    }
    results.push({
      id: scenario.id,
      kind: scenario.kind,
      title: scenario.title,
      ...(scenario.window ? { window: scenario.window } : {}),
      ...(scenario.shocks ? { shocks: scenario.shocks, notModelled: notModelled! } : {}),
      ...(factorReturns ? { factorReturns, factorDays: factorDays! } : {}),
      portfolioReturn: holdings.reduce((s, h) => s + h.weight * h.return, 0),
      holdings,
    });
  }

  return {
    asOf: sample.dates[n - 1]!,
    window: { from: sample.dates[0]!, to: sample.dates[n - 1]!, days: n },
    model: sample.model,
    modelReason: sample.modelReason,
    weightBasis: basis,
    exposures: tickers.map((ticker) => ({ ticker, weight: weights.get(ticker)!, betas: betas.get(ticker)! })),
    scenarios: results,
  };
}
