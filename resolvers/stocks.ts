// Stocks: what the service holds of one ticker, in one place. The company behind it (EDGAR's
// submissions and the SEC's ticker maps), the daily prices of its market file with the latest
// close, trailing returns, daily returns and a rolling volatility, a statement of what is and is
// not held (filings, facts, statements, prices), and its own factor exposures. Everything is read
// from stored rows; the only clock is the data's own (returns are as of the latest close held).
import type { Entity, MarketSource } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { isoDay } from '../derived/citations.ts';
import type { exposuresOfSample } from './analytics/analyze.ts';
import { forComputation, loadSample, marketFiles, type ModelName } from './analytics/window.ts';
import type { Context } from './context.ts';
import { ciksFor, tickerMatches, tickerOf, type Resolution } from './entities.ts';
import { coverageOf, financialsProfile } from './financials.ts';
import { slicePage } from './ownership.ts';

/** Why a part of an answer is null: a code to branch on and a sentence to read. */
export interface NullReason {
  code: string;
  message: string;
}

/* the ticker's price file ------------------------------------------------------------------ */

/** The price file of a ticker, matched as EDGAR writes tickers (BRK.B, BRK/B and BRK-B are one). */
async function priceFileOf(ctx: Context, ticker: string): Promise<MarketSource | null> {
  const symbol = tickerOf(ticker);
  if (!symbol) return null;
  return (await marketFiles(ctx)).find((f) => f.kind === 'market_prices' && tickerOf(f.subject) === symbol) ?? null;
}

/** The tickers whose daily prices are held, for a refusal to name. */
async function tickersWithPrices(ctx: Context): Promise<string[]> {
  return (await marketFiles(ctx)).filter((f) => f.kind === 'market_prices').map((f) => f.subject).sort();
}

/** The 404 of a ticker nothing is held of (the code every ticker read answers). */
const unknownTicker = (ticker: string) =>
  new ApiError('entity_not_found', `No entity with ticker ${ticker} is known, and no prices of it are held.`, { details: { parameter: 'ticker' } });

/* daily bars, returns and volatility -------------------------------------------------------- */

/** Trading days of the rolling volatility, and the days of a year it is annualised by. */
export const volatilityWindow = 21;
export const tradingDaysPerYear = 252;

export const returnRule = 'dailyReturn = adjustedClose_t / adjustedClose_prev − 1, where prev is the file\'s previous row (the previous trading day held, which may lie before `from`); null on the file\'s first row.';
export const volatilityRule = `volatility = the sample standard deviation (divisor n − 1) of the ${volatilityWindow} daily returns ending on the bar (inclusive), × √${tradingDaysPerYear}: annualised; null until ${volatilityWindow} daily returns are held.`;

export interface StockBar {
  date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  /** the file's Adj Close where it has that column, else its Close (which is then the adjusted close) */
  adjustedClose: string;
  volume: string;
  dailyReturn: number | null;
  volatility: number | null;
  sourceKey: string;
}

/** Every bar of a price file, oldest first, with its daily return and rolling volatility (kept until an ingest commits). */
function barsOf(ctx: Context, file: MarketSource): Promise<StockBar[]> {
  return ctx.cache.data.memo(`stocks:bars:${file.sourceKey}`, async () => {
    const rows = await ctx.prisma.priceBar.findMany({ where: { sourceKey: file.sourceKey }, orderBy: { date: 'asc' } });
    const adjusted = rows.map((r) => Number(r.adjClose ?? r.close));
    const returns = adjusted.map((close, i) => (i > 0 && adjusted[i - 1]! > 0 && Number.isFinite(close) ? close / adjusted[i - 1]! - 1 : null));
    return rows.map((r, i) => ({
      date: iso(r.date),
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      adjustedClose: r.adjClose ?? r.close,
      volume: r.volume,
      dailyReturn: returns[i]!,
      volatility: rollingVolatility(returns, i),
      sourceKey: r.sourceKey,
    }));
  });
}

/** The annualised sample standard deviation of the window of returns ending at `end`, or null when one is missing. */
function rollingVolatility(returns: (number | null)[], end: number): number | null {
  if (end + 1 < volatilityWindow) return null;
  const window = returns.slice(end + 1 - volatilityWindow, end + 1);
  if (window.some((r) => r === null)) return null;
  const values = window as number[];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance) * Math.sqrt(tradingDaysPerYear);
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/* the profile ----------------------------------------------------------------------------- */

export interface PricePoint {
  date: string;
  close: string;
  adjustedClose: string;
  sourceKey: string;
}

export interface TrailingReturn {
  /** 1m, 3m, 1y or ytd */
  period: string;
  /** the date the base close is looked for on or before */
  baseDate: string;
  from: PricePoint | null;
  to: PricePoint;
  value: number | null;
  nullReason: string | null;
}

export const trailingReturnRule =
  'As of the latest close held (the data\'s date, not today\'s): value = adjustedClose(latest) / adjustedClose(base) − 1, the base being the latest bar on or before `baseDate`. `baseDate` is the latest date less 1, 3 or 12 calendar months (a day the shorter month lacks becomes its last day: 31 March less 1 month is 28 or 29 February) for 1m, 3m and 1y, and 31 December of the previous year for ytd. Null, with the reason, when the prices held start after the base date.';

const trailingPeriods = [
  ['1m', 1],
  ['3m', 3],
  ['1y', 12],
  ['ytd', null],
] as const;

/** YYYY-MM-DD less `months` calendar months, the day clamped to the month's last. */
function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - months;
  const year = Math.floor(total / 12);
  const month = total % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(d, last))).toISOString().slice(0, 10);
}

const pointOf = (bar: StockBar): PricePoint => ({ date: bar.date, close: bar.close, adjustedClose: bar.adjustedClose, sourceKey: bar.sourceKey });

/** The latest bar on or before `date` (bars oldest first), or null. */
function onOrBefore(bars: StockBar[], date: string): StockBar | null {
  let lo = 0;
  let hi = bars.length - 1;
  let found: StockBar | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (bars[mid]!.date <= date) (found = bars[mid]!), (lo = mid + 1);
    else hi = mid - 1;
  }
  return found;
}

function trailingReturns(bars: StockBar[]): TrailingReturn[] {
  const latest = bars[bars.length - 1]!;
  return trailingPeriods.map(([period, months]) => {
    const baseDate = months === null ? `${Number(latest.date.slice(0, 4)) - 1}-12-31` : monthsBefore(latest.date, months);
    const base = onOrBefore(bars, baseDate);
    if (!base) return { period, baseDate, from: null, to: pointOf(latest), value: null, nullReason: `not_covered: the prices held start on ${bars[0]!.date}, after the base date ${baseDate}.` };
    return { period, baseDate, from: pointOf(base), to: pointOf(latest), value: Number(latest.adjustedClose) / Number(base.adjustedClose) - 1, nullReason: null };
  });
}

export interface PriceSummary {
  source: MarketSource;
  bars: number;
  firstDate: string;
  lastDate: string;
  latest: PricePoint;
  returns: TrailingReturn[];
}

export interface Listing {
  ticker: string;
  exchange: string | null;
  /** company_tickers | company_tickers_exchange | submissions */
  source: string;
  /** when the service read that source: EDGAR dates no ticker */
  asOf: string;
}

export interface FormerName {
  name: string;
  from: string | null;
  to: string | null;
}

export interface StockCoverage {
  summary: string;
  filings: { count: number; indexHeld: boolean; documentsIngested: number; firstFiledAt: string | null; lastFiledAt: string | null };
  facts: { count: number; latestFiledAt: string | null };
  statements: { annualPeriods: number; quarterlyPeriods: number; firstPeriodEnd: string | null; lastPeriodEnd: string | null };
  prices: { bars: number; firstDate: string | null; lastDate: string | null; sourceKey: string } | null;
  notHeld: string[];
}

export interface StockProfile {
  ticker: string;
  cik: string | null;
  /** every CIK the ticker names, best first (more than one when sources disagree) */
  matches: Resolution[];
  entity: (Entity & { listings: { ticker: string; exchange: string | null; source: string; seenAt: Date }[] }) | null;
  entityNullReason: NullReason | null;
  listings: Listing[];
  formerNames: FormerName[];
  prices: PriceSummary | null;
  pricesNullReason: NullReason | null;
  coverage: StockCoverage;
}

/** The profile of a ticker: 404 entity_not_found when neither a company nor prices of it are held. */
export async function stockProfile(ctx: Context, ticker: string): Promise<StockProfile> {
  const symbol = tickerOf(ticker);
  if (!symbol) throw unknownTicker(ticker);
  const [matches, file] = await Promise.all([tickerMatches(ctx.prisma, symbol), priceFileOf(ctx, symbol)]);
  if (!matches.length && !file) throw unknownTicker(symbol);
  const cik = matches[0]?.cik ?? null;
  const entity = cik ? await ctx.prisma.entity.findUnique({ where: { cik }, include: { listings: { orderBy: [{ source: 'asc' }, { ticker: 'asc' }] } } }) : null;

  const bars = file ? await barsOf(ctx, file) : [];
  const prices: PriceSummary | null = file && bars.length ? { source: file, bars: bars.length, firstDate: bars[0]!.date, lastDate: bars[bars.length - 1]!.date, latest: pointOf(bars[bars.length - 1]!), returns: trailingReturns(bars) } : null;
  const pricesNullReason = prices ? null : await noPrices(ctx, symbol, file);
  const held = entity ? await companyCoverage(ctx, entity) : null;

  return {
    ticker: symbol,
    cik,
    matches,
    entity,
    entityNullReason: entity ? null : { code: 'entity_not_held', message: `Neither the SEC's ticker maps nor a submissions file the service holds names a registrant with ticker ${symbol}: only its prices are held.` },
    listings: entity ? listingsOf(entity) : [],
    formerNames: entity ? formerNamesOf(entity.formerNames) : [],
    prices,
    pricesNullReason,
    coverage: coverageSentence(symbol, entity, held, prices, pricesNullReason),
  };
}

async function noPrices(ctx: Context, symbol: string, file: MarketSource | null): Promise<NullReason> {
  if (file) return { code: 'no_bars_held', message: `The price file ${file.fileName} of ${symbol} is held but holds no bars.` };
  const held = await tickersWithPrices(ctx);
  return { code: 'prices_not_held', message: `No daily price file of ${symbol} is held. ${held.length ? `Prices are held of: ${held.join(', ')}.` : 'No price file is held at all.'}` };
}

/** Each source's listing of the company: the ticker maps' rows, and its submissions file's tickers with their exchanges. */
function listingsOf(entity: NonNullable<StockProfile['entity']>): Listing[] {
  const fromMaps = entity.listings.map((l) => ({ ticker: l.ticker, exchange: l.exchange, source: l.source, asOf: l.seenAt.toISOString() }));
  // the submissions file pairs tickers[i] with exchanges[i]; a pair it left without an exchange was not stored, so unequal lengths pair nothing
  const paired = entity.tickers.length === entity.exchanges.length;
  const fromSubmissions = entity.hasSubmissions ? entity.tickers.map((t, i) => ({ ticker: t, exchange: paired ? entity.exchanges[i]! : null, source: 'submissions', asOf: entity.updatedAt.toISOString() })) : [];
  return [...fromSubmissions, ...fromMaps];
}

function formerNamesOf(value: unknown): FormerName[] {
  if (!Array.isArray(value)) return [];
  const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null);
  return value
    .filter((n): n is { name: string; from?: unknown; to?: unknown } => typeof n === 'object' && n !== null && typeof (n as { name?: unknown }).name === 'string')
    .map((n) => ({ name: n.name, from: day(n.from), to: day(n.to) }))
    .sort((a, b) => (b.to ?? '').localeCompare(a.to ?? ''));
}

/** The company's filings, facts and statements held, in counts. */
async function companyCoverage(ctx: Context, entity: Entity) {
  const { cik } = entity;
  const [filings, documents, facts] = await Promise.all([
    ctx.prisma.filing.aggregate({ where: { cik }, _count: { _all: true }, _min: { filedAt: true }, _max: { filedAt: true } }),
    ctx.prisma.filing.count({ where: { cik, documentSourceKey: { not: null } } }),
    coverageOf(ctx, cik),
  ]);
  // statements are built at ingest; a company whose were built by older rules is rebuilt here, as a statements read would
  if (facts.facts > 0) await financialsProfile(ctx, cik);
  const periods = await ctx.prisma.statementPeriod.groupBy({ by: ['basis'], where: { cik, asReported: 'latest' }, _count: { _all: true }, _min: { periodEnd: true }, _max: { periodEnd: true } });
  const basis = (b: string) => periods.find((p) => p.basis === b);
  const ends = periods.flatMap((p) => [isoDay(p._min.periodEnd), isoDay(p._max.periodEnd)]).filter((d): d is string => d !== null).sort();
  return {
    filings: { count: filings._count._all, indexHeld: entity.hasSubmissions, documentsIngested: documents, firstFiledAt: isoDay(filings._min.filedAt), lastFiledAt: isoDay(filings._max.filedAt) },
    facts: { count: facts.facts, latestFiledAt: facts.latestFiledAt },
    statements: { annualPeriods: basis('annual')?._count._all ?? 0, quarterlyPeriods: basis('quarterly')?._count._all ?? 0, firstPeriodEnd: ends[0] ?? null, lastPeriodEnd: ends[ends.length - 1] ?? null },
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What is held of the ticker, in counts and in words, and what is not. */
function coverageSentence(symbol: string, entity: Entity | null, held: Awaited<ReturnType<typeof companyCoverage>> | null, prices: PriceSummary | null, pricesNullReason: NullReason | null): StockCoverage {
  const filings = held?.filings ?? { count: 0, indexHeld: false, documentsIngested: 0, firstFiledAt: null, lastFiledAt: null };
  const facts = held?.facts ?? { count: 0, latestFiledAt: null };
  const statements = held?.statements ?? { annualPeriods: 0, quarterlyPeriods: 0, firstPeriodEnd: null, lastPeriodEnd: null };
  const parts: string[] = [];
  const notHeld: string[] = [];
  if (entity) {
    parts.push(filings.count ? `${count(filings.count, 'filing')} (filed ${filings.firstFiledAt} to ${filings.lastFiledAt}; ${count(filings.documentsIngested, 'document')} ingested)` : 'no filings');
    if (!filings.indexHeld) notHeld.push(`EDGAR's submissions index of CIK ${entity.cik} is not held: the filings counted are only those other sources named.`);
    if (filings.count && filings.documentsIngested < filings.count) notHeld.push(`The documents of ${count(filings.count - filings.documentsIngested, 'filing')} are not held (only their index entries are), so their sections and items are not read.`);
    parts.push(facts.count ? `${count(facts.count, 'XBRL fact')} (latest filed ${facts.latestFiledAt})` : 'no XBRL facts');
    if (!facts.count) notHeld.push(`No XBRL facts of CIK ${entity.cik} are held, so no statements can be built.`);
    parts.push(statements.annualPeriods + statements.quarterlyPeriods ? `${statements.annualPeriods.toLocaleString('en-US')} annual and ${statements.quarterlyPeriods.toLocaleString('en-US')} quarterly statement periods (period ends ${statements.firstPeriodEnd} to ${statements.lastPeriodEnd})` : 'no statement periods');
  } else {
    notHeld.push(`No SEC registrant with ticker ${symbol} is held: no filings, facts or statements.`);
  }
  if (prices) parts.push(`${count(prices.bars, 'daily price bar')} (${prices.firstDate} to ${prices.lastDate}, from ${prices.source.fileName})`);
  else notHeld.push(pricesNullReason!.message);
  notHeld.push('No intraday, real-time or delayed quotes, and no market capitalisation: prices are the daily bars of the file held, as written.');
  return {
    summary: `For ${entity ? `${entity.name} (CIK ${entity.cik}, ticker ${symbol})` : `ticker ${symbol}`} the service holds ${parts.join(', ')}.`,
    filings,
    facts,
    statements,
    prices: prices ? { bars: prices.bars, firstDate: prices.firstDate, lastDate: prices.lastDate, sourceKey: prices.source.sourceKey } : null,
    notHeld,
  };
}

/* the price list -------------------------------------------------------------------------- */

export interface StockPricePage {
  ticker: string;
  cik: string | null;
  source: MarketSource | null;
  pricesNullReason: NullReason | null;
  /** bars within from..to */
  total: number;
  nodes: StockBar[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * A ticker's daily bars within `from`..`to`, oldest first, a page at a time. A company held without
 * prices is an empty page with the reason; a ticker nothing is held of, 404 entity_not_found.
 */
export async function stockPrices(ctx: Context, ticker: string, window: { from?: string | null; to?: string | null; first?: number | null; after?: string | null }): Promise<StockPricePage> {
  const symbol = tickerOf(ticker);
  if (!symbol) throw unknownTicker(ticker);
  const [ciks, file] = await Promise.all([ciksFor(ctx, { ticker: symbol }), priceFileOf(ctx, symbol)]);
  if (!ciks?.length && !file) throw unknownTicker(symbol);
  const cik = ciks?.[0] ?? null;
  const bars = file ? await barsOf(ctx, file) : [];
  const within = bars.filter((b) => (!window.from || b.date >= window.from) && (!window.to || b.date <= window.to));
  return {
    ticker: symbol,
    cik,
    source: file,
    pricesNullReason: bars.length ? null : await noPrices(ctx, symbol, file),
    total: within.length,
    ...slicePage('stock-prices', within, window.first, window.after),
  };
}

/* factor exposures ------------------------------------------------------------------------ */

/**
 * A stock's factor exposures (GET /v1/factors/exposures): POST /v1/portfolio/analyze's regression
 * of a holding (analyze.ts exposuresOfSample) on the stock alone, over the window rule every
 * portfolio analytic shares (window.ts), on the analytics runner. A company held without prices is
 * 404 market_data_not_found naming the tickers that have them; a ticker nothing is held of, 404
 * entity_not_found.
 */
export async function stockExposures(ctx: Context, input: { ticker: string; asOf?: string; lookbackDays: number; model?: ModelName }) {
  const symbol = tickerOf(input.ticker) ?? input.ticker;
  const file = await priceFileOf(ctx, symbol);
  if (!file) {
    if (!(await ciksFor(ctx, { ticker: symbol }))?.length) throw unknownTicker(symbol);
    throw new ApiError('market_data_not_found', `No daily prices of ${symbol} are held: its factor exposures need them.`, { details: { parameter: 'ticker', acceptedValues: await tickersWithPrices(ctx) } });
  }
  const ticker = file.subject.toUpperCase();
  const sample = await loadSample(ctx, { tickers: [ticker], asOf: input.asOf, lookbackDays: input.lookbackDays, model: input.model, parameters: { asOf: 'as_of', lookbackDays: 'lookback_days' } });
  return { sample, result: await ctx.analytics.run<typeof exposuresOfSample>('exposures', forComputation(sample), ticker) };
}
