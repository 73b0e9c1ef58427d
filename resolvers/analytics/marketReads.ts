// Reads of the market data the ingest holds (prices, Fama-French factor returns, FRED series),
// each with the file it came from, its vintage and coverage: a page of rows in date order, the
// cursor being the last date served.
import type { MarketSource } from '../../prisma/generated/client/client.ts';
import { ApiError } from '../../core/errors.ts';
import { requireDataAccess } from '../access.ts';
import type { Context } from '../context.ts';

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
  nextCursor: string | null;
  sources: MarketSource[];
}

interface Window {
  from?: string | null;
  to?: string | null;
  first: number;
  after?: string | null;
}

const day = (text: string) => new Date(`${text}T00:00:00Z`);
const iso = (date: Date) => date.toISOString().slice(0, 10);

/** The date filter of a page: within [from, to], after the cursor's date. */
function dates(window: Window) {
  const gt = window.after ? day(window.after) : undefined;
  const gte = window.from ? day(window.from) : undefined;
  return { ...(gte ? { gte } : {}), ...(gt ? { gt } : {}), ...(window.to ? { lte: day(window.to) } : {}) };
}

function paged<T extends { date: Date }>(rows: T[], first: number, sources: MarketSource[]): Page<T> {
  const hasMore = rows.length > first;
  const kept = rows.slice(0, first);
  return { rows: kept, hasMore, nextCursor: hasMore ? iso(kept[kept.length - 1]!.date) : null, sources };
}

async function sourcesOf(ctx: Context, keys: string[]): Promise<MarketSource[]> {
  return ctx.prisma.marketSource.findMany({ where: { sourceKey: { in: [...new Set(keys)] } }, orderBy: { sourceKey: 'asc' } });
}

export async function priceBars(ctx: Context, ticker: string, window: Window) {
  requireDataAccess(ctx);
  const symbol = ticker.trim().toUpperCase();
  const held = await ctx.prisma.marketSource.findMany({ where: { kind: 'market_prices' }, select: { subject: true, sourceKey: true } });
  const source = held.find((s) => s.subject.toUpperCase() === symbol);
  if (!source) {
    throw new ApiError('market_data_not_found', `No prices of ${symbol} are held.`, { details: { parameter: 'ticker', acceptedValues: held.map((s) => s.subject).sort() } });
  }
  const rows = await ctx.prisma.priceBar.findMany({ where: { ticker: source.subject, date: dates(window) }, orderBy: { date: 'asc' }, take: window.first + 1 });
  return { ticker: source.subject, ...paged(rows, window.first, await sourcesOf(ctx, [source.sourceKey])) };
}

export const factorDatasets = ['ff3', 'ff5', 'mom'] as const;

/** Factor returns of a dataset and frequency, one row per period with every factor's value (percent, as written). */
export async function factorReturns(ctx: Context, dataset: string, frequency: string, window: Window) {
  requireDataAccess(ctx);
  const periods = await ctx.prisma.factorReturn.findMany({
    where: { dataset, frequency, date: dates(window) },
    distinct: ['date'],
    orderBy: { date: 'asc' },
    take: window.first + 1,
    select: { date: true },
  });
  if (!periods.length && !(await ctx.prisma.factorReturn.count({ where: { dataset, frequency } }))) {
    const held = await ctx.prisma.factorReturn.groupBy({ by: ['dataset', 'frequency'] });
    throw new ApiError('market_data_not_found', `No ${frequency} returns of ${dataset} are held.`, {
      details: { parameter: 'model', acceptedValues: held.map((h) => `${h.dataset}/${h.frequency}`).sort() },
    });
  }
  const kept = periods.slice(0, window.first).map((p) => p.date);
  const values = kept.length ? await ctx.prisma.factorReturn.findMany({ where: { dataset, frequency, date: { in: kept } }, orderBy: [{ date: 'asc' }, { factor: 'asc' }] }) : [];
  const byDate = new Map<string, { period: string; date: Date; values: Record<string, string | null> }>();
  for (const v of values) {
    const key = iso(v.date);
    const row = byDate.get(key) ?? byDate.set(key, { period: v.period, date: v.date, values: {} }).get(key)!;
    row.values[v.factor] = v.value;
  }
  const rows = [...byDate.values()];
  const hasMore = periods.length > window.first;
  return { dataset, frequency, rows, hasMore, nextCursor: hasMore ? iso(kept[kept.length - 1]!) : null, sources: await sourcesOf(ctx, values.length ? [...new Set(values.map((v) => v.sourceKey))] : []) };
}

export async function macroSeries(ctx: Context, seriesId: string, frequency: string | null | undefined, window: Window) {
  requireDataAccess(ctx);
  const id = seriesId.trim().toUpperCase();
  const series = await ctx.prisma.macroSeries.findMany({ where: { seriesId: id, ...(frequency ? { frequency } : {}) }, orderBy: { frequency: 'asc' } });
  if (series.length !== 1) {
    const held = await ctx.prisma.macroSeries.findMany({ select: { seriesId: true, frequency: true }, orderBy: [{ seriesId: 'asc' }, { frequency: 'asc' }] });
    const which = series.length > 1 ? `${id} is held at several frequencies (${series.map((s) => s.frequency).join(', ')}); name one with frequency` : `No series ${id}${frequency ? ` at ${frequency} frequency` : ''} is held`;
    throw new ApiError(series.length > 1 ? 'invalid_query_parameter' : 'market_data_not_found', `${which}.`, {
      details: { parameter: series.length > 1 ? 'frequency' : 'series_id', acceptedValues: held.map((h) => `${h.seriesId}/${h.frequency}`) },
    });
  }
  const [one] = series;
  const rows = await ctx.prisma.macroObservation.findMany({ where: { seriesId: id, frequency: one!.frequency, date: dates(window) }, orderBy: { date: 'asc' }, take: window.first + 1 });
  return { series: one!, ...paged(rows, window.first, await sourcesOf(ctx, [one!.sourceKey])) };
}

export async function marketSources(ctx: Context) {
  requireDataAccess(ctx);
  return ctx.prisma.marketSource.findMany({ orderBy: [{ kind: 'asc' }, { subject: 'asc' }] });
}
