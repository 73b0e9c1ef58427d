// The sample a portfolio computation runs on: the holdings' daily returns and the model's factor
// returns over a window of dates, chosen by one rule that every portfolio analytic shares: the
// `lookbackDays` most recent dates ≤ asOf on which every holding has a close on that date and on its previous row, and every
// factor of the model has a value. A daily return is close_t / close_prev − 1 (the previous row of
// that ticker's file); an excess return subtracts RF. Factor values are percent in the files.
import type { MarketSource } from '../../prisma/generated/client/client.ts';
import { ApiError } from '../../core/errors.ts';
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
  /** everything held beyond the window: per ticker its closes, per date the model's factor returns (stress replays read them) */
  history: { closes: Map<string, Close[]>; factors: Map<string, Map<string, number>> };
  sources: MarketSource[];
}

/**
 * The sample as a computation receives it (the runner may copy it to a worker thread): the
 * window's series without what was read beyond it. The history is every close and every factor
 * date held, far larger than the window, and copying it would cost the event loop what the worker
 * saves; the files read are the request's to cite. The stress test passes the part of the history
 * its scenarios read.
 */
export const forComputation = (sample: Sample, history: Sample['history'] = { closes: new Map(), factors: new Map() }): Sample => ({ ...sample, history, sources: [] });

export const invalid = (path: string, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError('validation_error', `${path}: ${message}`, { details: { issues: [{ path, message, code: 'invalid_value' }], ...extra } });

const iso = (date: Date) => date.toISOString().slice(0, 10);

export interface Close {
  date: string;
  close: number;
}

/**
 * A ticker's adjusted closes in date order, as its file has them: its Adj Close where it has that
 * column, else its Close (MarketSource.adjusted). Kept until an ingest commits: they depend on the file only.
 */
function dailyCloses(ctx: Context, ticker: string): Promise<Close[]> {
  return ctx.cache.data.memo(`analytics:closes:${ticker}`, async () => {
    const bars = await ctx.prisma.priceBar.findMany({ where: { ticker }, orderBy: { date: 'asc' }, select: { date: true, close: true, adjClose: true } });
    return bars.map((b) => ({ date: iso(b.date), close: Number(b.adjClose ?? b.close) }));
  });
}

/** Per date, the daily return of a ticker where it has a close on that date and on its previous row. */
function tickerReturns(ctx: Context, ticker: string): Promise<Map<string, { ret: number; close: number }>> {
  return ctx.cache.data.memo(`analytics:returns:${ticker}`, async () => returnsOf(await dailyCloses(ctx, ticker)));
}

function returnsOf(closes: Close[]): Map<string, { ret: number; close: number }> {
  const out = new Map<string, { ret: number; close: number }>();
  for (let i = 1; i < closes.length; i++) {
    const { date, close } = closes[i]!;
    const prev = closes[i - 1]!.close;
    if (Number.isFinite(close) && Number.isFinite(prev) && prev > 0) out.set(date, { ret: close / prev - 1, close });
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
  // The dates of the ticker with the fewest are tried against the others: the same dates, sorted,
  // for a fraction of the lookups when one file is much shorter than the rest (this runs on the
  // event loop for every analytics request).
  const [shortest, ...rest] = [...tickers.values()].sort((a, b) => a.size - b.size);
  return [...shortest!.keys()].filter((date) => rest.every((t) => t.has(date)) && needed.every((f) => factors.get(date)?.has(f))).sort();
}

/** The last date on which the factor table has `factor` (the table is in no particular order). */
function lastDateWith(byDate: Map<string, Map<string, number>>, factor: string): string | undefined {
  let last: string | undefined;
  for (const [date, values] of byDate) if (values.has(factor) && (last === undefined || date > last)) last = date;
  return last;
}

/** The market files held (every kind), in source-key order; kept until an ingest commits. */
export function marketFiles(ctx: Context): Promise<MarketSource[]> {
  return ctx.cache.data.memo('analytics:sources', () => ctx.prisma.marketSource.findMany({ orderBy: { sourceKey: 'asc' } }));
}

type SampleRequest = {
  tickers: string[];
  asOf?: string;
  lookbackDays: number;
  model?: ModelName;
  /** what the request calls asOf and lookbackDays, for the 400 that names one (a query string's as_of, lookback_days) */
  parameters?: { asOf: string; lookbackDays: string };
  /**
   * Every date of the rule on or before asOf (and on or after `from`), not only the last
   * `lookbackDays`: a backtest runs over a span, and lookbackDays is then the fewest it needs.
   */
  span?: { from?: string };
};

/** The window of the rule over these tickers, its model and why, and what was read to choose them. */
async function chooseWindow(ctx: Context, input: SampleRequest) {
  const files = await marketFiles(ctx);
  const held = new Map(files.filter((f) => f.kind === 'market_prices').map((f) => [f.subject.toUpperCase(), f]));
  const perTicker = new Map<string, Map<string, { ret: number; close: number }>>();
  for (const [i, ticker] of input.tickers.entries()) {
    const source = held.get(ticker);
    if (!source) throw invalid(`holdings[${i}].ticker`, `no prices of ${ticker} are held`, { acceptedValues: [...held.keys()].sort() });
    if (!perTicker.has(ticker)) perTicker.set(ticker, await tickerReturns(ctx, source.subject));
  }
  const choose = async (model: ModelName) => {
    const table = await factorTable(ctx, model);
    const dates = candidateDates(perTicker, table.byDate, [...models[model], 'RF']).filter((d) => (!input.asOf || d <= input.asOf) && (!input.span?.from || d >= input.span.from));
    return { model, table, dates: input.span ? dates : dates.slice(-input.lookbackDays) };
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
    // where momentum ends is looked for only when it is stated
    modelReason = covered
      ? 'ff5_mom (the default): momentum covers the window'
      : `ff5 (the default when momentum does not cover the window): daily momentum ends ${lastDateWith((await factorTable(ctx, 'ff5_mom')).byDate, 'Mom') ?? 'nowhere held'}, before the window's last date ${five.dates.at(-1)}`;
  }
  const { model, table, dates } = chosen;
  const named = input.parameters ?? { asOf: 'asOf', lookbackDays: 'lookbackDays' };
  if (input.asOf && !dates.length) throw invalid(named.asOf, `no date on or before ${input.asOf} has data for every holding and every factor of ${model}`);
  if (dates.length < input.lookbackDays) {
    throw invalid(named.lookbackDays, `only ${dates.length} dates${input.asOf ? ` on or before ${input.asOf}` : ''} have data for every holding and every factor of ${model}`, { available: dates.length });
  }
  return { files, held, perTicker, model, modelReason, table, dates };
}

/** The first and last dates of the window loadSample would choose over these tickers (refused as loadSample refuses), without building the sample. */
export async function windowBounds(ctx: Context, input: SampleRequest): Promise<{ from: string; to: string }> {
  const { dates } = await chooseWindow(ctx, input);
  return { from: dates[0]!, to: dates[dates.length - 1]! };
}

export async function loadSample(ctx: Context, input: SampleRequest): Promise<Sample> {
  const { files, held, perTicker, model, modelReason, table, dates } = await chooseWindow(ctx, input);
  const returns = new Map([...perTicker].map(([ticker, byDate]) => [ticker, Float64Array.from(dates, (d) => byDate.get(d)!.ret)]));
  const factors = new Map([...models[model], 'RF'].map((f) => [f, Float64Array.from(dates, (d) => table.byDate.get(d)!.get(f)!)]));
  const last = dates[dates.length - 1]!;
  const lastClose = new Map([...perTicker].map(([ticker, byDate]) => [ticker, byDate.get(last)!.close]));
  const used = new Set([...table.sourceKeys, ...input.tickers.map((t) => held.get(t)!.sourceKey)]);
  const closes = new Map(await Promise.all([...perTicker.keys()].map(async (ticker) => [ticker, await dailyCloses(ctx, held.get(ticker)!.subject)] as const)));
  return { model, modelReason, factorNames: models[model], dates, returns, factors, lastClose, history: { closes, factors: table.byDate }, sources: files.filter((f) => used.has(f.sourceKey)) };
}
