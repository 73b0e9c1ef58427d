// The sample a portfolio computation runs on: the holdings' daily returns and the model's factor
// returns over a window of dates, chosen by one rule (issue 11): the `lookbackDays` most recent
// dates ≤ asOf on which every holding has a close on that date and on its previous row, and every
// factor of the model has a value. A daily return is close_t / close_prev − 1 (the previous row of
// that ticker's file); an excess return subtracts RF. Factor values are percent in the files.
import type { MarketSource } from '../../prisma/generated/client/client.ts';
import { ApiError } from '../../server/errors.ts';
import type { Context } from '../context.ts';

export const models = { ff3: ['Mkt-RF', 'SMB', 'HML'], ff5: ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'], ff5_mom: ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA', 'Mom'] } as const;
export type ModelName = keyof typeof models;

export interface Sample {
  model: ModelName;
  /** why this model: asked for, or the default and what decided it */
  modelReason: string;
  factorNames: readonly string[];
  dates: string[];
  /** per ticker, the daily returns on `dates` */
  returns: Map<string, Float64Array>;
  /** per factor, its daily return (a fraction) on `dates`; RF too */
  factors: Map<string, Float64Array>;
  /** per ticker, the close on the window's last date (to value share holdings) */
  lastClose: Map<string, number>;
  sources: MarketSource[];
}

export const invalid = (path: string, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError('validation_error', `${path}: ${message}`, { details: { issues: [{ path, message, code: 'invalid_value' }], ...extra } });

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** Per date, the daily return of a ticker where it has a close on that date and on its previous row. */
function tickerReturns(ctx: Context, ticker: string): Promise<Map<string, { ret: number; close: number }>> {
  // kept while the data is unchanged (dropped when an ingest commits): it depends on the file only
  return ctx.cache.data.memo(`analytics:returns:${ticker}`, () => readTickerReturns(ctx, ticker));
}

async function readTickerReturns(ctx: Context, ticker: string): Promise<Map<string, { ret: number; close: number }>> {
  const bars = await ctx.prisma.priceBar.findMany({ where: { ticker }, orderBy: { date: 'asc' }, select: { date: true, close: true } });
  const out = new Map<string, { ret: number; close: number }>();
  for (let i = 1; i < bars.length; i++) {
    const close = Number(bars[i]!.close);
    const prev = Number(bars[i - 1]!.close);
    if (Number.isFinite(close) && Number.isFinite(prev) && prev > 0) out.set(iso(bars[i]!.date), { ret: close / prev - 1, close });
  }
  return out;
}

/** Per date, every factor (and RF) of the datasets a model reads, as fractions. */
function factorTable(ctx: Context, model: ModelName): Promise<{ byDate: Map<string, Map<string, number>>; sourceKeys: Set<string> }> {
  return ctx.cache.data.memo(`analytics:factors:${model}`, () => readFactorTable(ctx, model));
}

async function readFactorTable(ctx: Context, model: ModelName): Promise<{ byDate: Map<string, Map<string, number>>; sourceKeys: Set<string> }> {
  const datasets = model === 'ff3' ? ['ff3'] : model === 'ff5' ? ['ff5'] : ['ff5', 'mom'];
  const rows = await ctx.prisma.factorReturn.findMany({ where: { dataset: { in: datasets }, frequency: 'daily' }, select: { date: true, factor: true, value: true, sourceKey: true } });
  const byDate = new Map<string, Map<string, number>>();
  const sourceKeys = new Set<string>();
  for (const row of rows) {
    if (row.value === null) continue;
    const key = iso(row.date);
    (byDate.get(key) ?? byDate.set(key, new Map()).get(key)!).set(row.factor.trim(), Number(row.value) / 100);
    sourceKeys.add(row.sourceKey);
  }
  return { byDate, sourceKeys };
}

function candidateDates(tickers: Map<string, Map<string, unknown>>, factors: Map<string, Map<string, number>>, needed: readonly string[]): string[] {
  const [first, ...rest] = [...tickers.values()];
  return [...first!.keys()].filter((date) => rest.every((t) => t.has(date)) && needed.every((f) => factors.get(date)?.has(f))).sort();
}

export async function loadSample(ctx: Context, input: { tickers: string[]; asOf?: string; lookbackDays: number; model?: ModelName }): Promise<Sample> {
  const held = new Map((await ctx.prisma.marketSource.findMany({ where: { kind: 'market_prices' } })).map((s) => [s.subject.toUpperCase(), s]));
  const perTicker = new Map<string, Map<string, { ret: number; close: number }>>();
  for (const [i, ticker] of input.tickers.entries()) {
    const source = held.get(ticker);
    if (!source) throw invalid(`holdings[${i}].ticker`, `no prices of ${ticker} are held`, { acceptedValues: [...held.keys()].sort() });
    if (!perTicker.has(ticker)) perTicker.set(ticker, await tickerReturns(ctx, source.subject));
  }
  const choose = async (model: ModelName) => {
    const table = await factorTable(ctx, model);
    const dates = candidateDates(perTicker, table.byDate, [...models[model], 'RF']).filter((d) => !input.asOf || d <= input.asOf);
    return { model, table, dates: dates.slice(-input.lookbackDays) };
  };
  let chosen: Awaited<ReturnType<typeof choose>>;
  let modelReason: string;
  if (input.model) {
    chosen = await choose(input.model);
    modelReason = `${input.model}, as asked`;
  } else {
    // the default: five factors and momentum where momentum covers the window, else five factors
    const five = await choose('ff5');
    const withMomentum = five.dates.length ? await choose('ff5_mom') : five;
    const covered = withMomentum.dates.length === five.dates.length && withMomentum.dates[withMomentum.dates.length - 1] === five.dates[five.dates.length - 1];
    chosen = covered ? withMomentum : five;
    const momentumEnd = [...(await factorTable(ctx, 'ff5_mom')).byDate.entries()].filter(([, f]) => f.has('Mom')).map(([d]) => d).sort().at(-1);
    modelReason = covered ? 'ff5_mom (the default): momentum covers the window' : `ff5 (the default when momentum does not cover the window): daily momentum ends ${momentumEnd ?? 'nowhere held'}, before the window's last date ${five.dates.at(-1)}`;
  }
  const { model, table, dates } = chosen;
  if (input.asOf && !dates.length) throw invalid('asOf', `no date on or before ${input.asOf} has data for every holding and every factor of ${model}`);
  if (dates.length < input.lookbackDays) {
    throw invalid('lookbackDays', `only ${dates.length} dates${input.asOf ? ` on or before ${input.asOf}` : ''} have data for every holding and every factor of ${model}`, { available: dates.length });
  }
  const returns = new Map([...perTicker].map(([ticker, byDate]) => [ticker, Float64Array.from(dates, (d) => byDate.get(d)!.ret)]));
  const factors = new Map([...models[model], 'RF'].map((f) => [f, Float64Array.from(dates, (d) => table.byDate.get(d)!.get(f)!)]));
  const last = dates[dates.length - 1]!;
  const lastClose = new Map([...perTicker].map(([ticker, byDate]) => [ticker, byDate.get(last)!.close]));
  const sourceKeys = [...table.sourceKeys, ...input.tickers.map((t) => held.get(t)!.sourceKey)];
  const sources = await ctx.prisma.marketSource.findMany({ where: { sourceKey: { in: [...new Set(sourceKeys)] } }, orderBy: { sourceKey: 'asc' } });
  return { model, modelReason, factorNames: models[model], dates, returns, factors, lastClose, sources };
}
