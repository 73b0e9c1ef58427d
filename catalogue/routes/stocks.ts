// Stocks: one ticker's profile (the company behind it, its latest close and trailing returns, what
// the service holds of it) and its daily bars with daily returns and a rolling volatility. Both read
// the company from EDGAR's submissions and the SEC's ticker maps, and the prices from the ticker's
// market file, each price citing that file and its vintage (resolvers/stocks.ts).
import { z } from 'zod';
import { StockDocument, StockPricesDocument, type StockPricePointFieldsFragment, type StockSourceFieldsFragment } from '../operations/generated.ts';
import { returnRule, trailingReturnRule, tradingDaysPerYear, volatilityRule, volatilityWindow } from '../../resolvers/stocks.ts';
import { coverage, coverageSchema, dateParam, inView } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';

const tickerPath = z.strictObject({
  ticker: z.string().regex(/^[A-Za-z0-9.-]{1,12}$/, 'expected a ticker such as AAPL or BRK.B').describe('Ticker symbol, e.g. AAPL; a class suffix as BRK.B or BRK-B'),
});

/** The file a price is read from: every price cites it. */
const cite = z.object({ sourceKey: z.string().describe('The market file, e.g. market/prices/AAPL.daily.csv'), fileName: z.string(), vintage: z.string().nullable().describe('The vintage the file states; a price export states none (null)') });
const citeOf = (s: StockSourceFieldsFragment) => ({ sourceKey: s.sourceKey, fileName: s.fileName, vintage: s.vintage });

const source = z.object({
  object: z.literal('market_source'),
  sourceKey: z.string(),
  fileName: z.string(),
  subject: z.string().describe('The ticker the file is of'),
  vintage: z.string().nullable(),
  vintageNote: z.string(),
  adjusted: z.boolean().nullable().describe('Whether the file\'s Close is adjusted for splits and dividends, as its columns say; null for a file ingested before the service read this'),
  adjustedNote: z.string().nullable().describe('The rule the flag was read by'),
  rows: z.number().int(),
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
  ingestedAt: z.iso.datetime(),
});
const sourceOf = (s: StockSourceFieldsFragment) => ({ object: 'market_source' as const, ...s });

const nullReason = z.object({ code: z.string(), message: z.string() }).nullable();

const adjustedRule =
  '`adjusted` says whether the file\'s Close is adjusted for splits and dividends, as the file\'s columns state it (the files carry no sentence about it): a file without an Adj Close column is a yfinance export written with auto_adjust, whose Open, High, Low and Close are all split- and dividend-adjusted (`adjusted: true`, `adjustedClose` = `close`); a file with one has a Close that is not dividend-adjusted (`adjusted: false`) and `adjustedClose` is its Adj Close. Returns and volatility are computed on `adjustedClose`. ';

const point = z.object({ date: z.string(), close: z.string().describe('The file\'s Close, decimal text as written'), adjustedClose: z.string().describe('The split- and dividend-adjusted close: the file\'s Adj Close where it has one, else its Close'), source: cite });

const trailing = z.object({
  baseDate: z.string().describe('The date the base close is looked for on or before'),
  from: point.nullable().describe('The base: the latest bar on or before baseDate'),
  to: point,
  value: z.number().nullable().describe('adjustedClose(to) / adjustedClose(from) − 1, a fraction (0.05 is 5 %)'),
  nullReason: z.string().nullable(),
});

const profile = z
  .object({
    object: z.literal('stock'),
    ticker: z.string().describe('As EDGAR writes tickers: BRK-B'),
    entity: z
      .object({
        object: z.literal('entity'),
        cik: z.string(),
        name: z.string(),
        entityType: z.string().nullable(),
        sic: z.string().nullable(),
        sicDescription: z.string().nullable(),
        stateOfIncorporation: z.string().nullable(),
        fiscalYearEnd: z.string().nullable().describe('MMDD, as EDGAR states it'),
        filingsCovered: z.boolean().describe('Whether EDGAR\'s submissions index of the company was ingested'),
        match: z.object({
          matchedBy: z.string(),
          confidence: z.number().describe('1 when every source agrees on the ticker; less when they name different companies'),
          sources: z.array(z.object({ source: z.string(), asOf: z.string().nullable() })),
          reason: z.string().nullable(),
          alternatives: z.array(z.object({ cik: z.string(), name: z.string(), confidence: z.number(), sources: z.array(z.object({ source: z.string(), asOf: z.string().nullable() })), lastFiledAt: z.string().nullable() })).describe('Other companies a source names for the ticker'),
        }),
      })
      .nullable(),
    entityNullReason: nullReason.describe('entity_not_held: only prices of the ticker are held'),
    listings: z.array(z.object({ ticker: z.string(), exchange: z.string().nullable(), source: z.string().describe('submissions, company_tickers or company_tickers_exchange'), asOf: z.string().describe('When the service read that source') })),
    formerNames: z.array(z.object({ name: z.string(), from: z.string().nullable(), to: z.string().nullable() })).describe('Names the company filed under before, newest first, with the dates EDGAR gives'),
    prices: z
      .object({
        adjusted: z.boolean().nullable(),
        adjustedNote: z.string().nullable(),
        bars: z.number().int(),
        firstDate: z.string(),
        lastDate: z.string(),
        latest: point.describe('The latest close held'),
        returns: z.object({ '1m': trailing, '3m': trailing, '1y': trailing, ytd: trailing }),
        returnRule: z.string(),
        source,
      })
      .nullable(),
    pricesNullReason: nullReason.describe('prices_not_held (no price file of the ticker) or no_bars_held'),
    coverage: coverageSchema.extend({
      summary: z.string().describe('What is held, in words'),
      filings: z.object({ count: z.number().int(), indexHeld: z.boolean(), documentsIngested: z.number().int(), firstFiledAt: z.string().nullable(), lastFiledAt: z.string().nullable() }),
      facts: z.object({ count: z.number().int(), latestFiledAt: z.string().nullable() }),
      statements: z.object({ annualPeriods: z.number().int(), quarterlyPeriods: z.number().int(), firstPeriodEnd: z.string().nullable(), lastPeriodEnd: z.string().nullable() }),
      prices: z.object({ bars: z.number().int(), firstDate: z.string().nullable(), lastDate: z.string().nullable(), sourceKey: z.string() }).nullable(),
      notHeld: z.array(z.string()).describe('What is not held, one sentence each'),
    }),
    requestId: z.string(),
  })
  .partial()
  .required({ object: true, ticker: true, requestId: true });

const get = operationRoute({
  name: 'stocks_get',
  method: 'GET',
  path: '/v1/stocks/{ticker}',
  summary: 'A stock\'s profile: the company, its listings, the latest close and trailing returns, and what the service holds of it',
  description:
    'The company the ticker names (CIK, name, SIC, fiscal year end, state of incorporation) from EDGAR\'s submissions file and the SEC\'s ticker maps; when the sources name different companies the best match is shown (the one with the most recent filing held) with `match.confidence` below 1 and the others in `match.alternatives`. ' +
    '`listings` is each source\'s listing of the company (ticker, exchange); EDGAR dates no ticker, so `asOf` is when the service read that source, and names over time are `formerNames` with the dates EDGAR gives. ' +
    'From the ticker\'s daily price file: the latest close and the 1-month, 3-month, 1-year and year-to-date returns. ' +
    trailingReturnRule +
    ' ' +
    adjustedRule +
    'Every price cites its market file and vintage (`source`). `coverage` says in words (`summary`, `notHeld`) and counts what is held: filings (and whether the submissions index and the documents are), XBRL facts, statement periods, and the prices\' date range. ' +
    'A company held without prices answers with `prices: null` and `pricesNullReason` (`prices_not_held`, naming the tickers whose prices are held); a ticker held only by its prices (an ETF no ticker map lists), with `entity: null` and `entityNullReason` (`entity_not_held`). A ticker of which nothing is held is 404 `entity_not_found`. ' +
    '`view=compact` keeps the entity and prices; `agent` adds the coverage.',
  tag: 'Stocks',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { path: tickerPath, query: z.strictObject({ view: viewParam }) },
  response: profile,
  errors: ['entity_not_found'],
  operation: StockDocument,
  variables: ({ path }) => ({ ticker: path.ticker }),
}).reshape(({ stock: s }, meta, { query }) => {
  const cited = (p: StockPricePointFieldsFragment) => ({ date: p.date, close: p.close, adjustedClose: p.adjustedClose, source: citeOf(s.prices!.source) });
  const [best, ...others] = s.matches;
  const full = {
    object: 'stock' as const,
    ticker: s.ticker,
    entity: s.entity && {
      object: 'entity' as const,
      ...s.entity,
      match: {
        matchedBy: best!.matchedBy,
        confidence: best!.confidence,
        sources: best!.sources,
        reason: best!.reason,
        alternatives: others.map((m) => ({ cik: m.entity.cik, name: m.entity.name, confidence: m.confidence, sources: m.sources, lastFiledAt: m.lastFiledAt })),
      },
    },
    entityNullReason: s.entityNullReason,
    listings: s.listings,
    formerNames: s.formerNames,
    prices: s.prices && {
      adjusted: s.prices.source.adjusted,
      adjustedNote: s.prices.source.adjustedNote,
      bars: s.prices.bars,
      firstDate: s.prices.firstDate,
      lastDate: s.prices.lastDate,
      latest: cited(s.prices.latest),
      returns: Object.fromEntries(s.prices.returns.map((r) => [r.period, { baseDate: r.baseDate, from: r.from && cited(r.from), to: cited(r.to), value: r.value, nullReason: r.nullReason }])) as Record<'1m' | '3m' | '1y' | 'ytd', z.input<typeof trailing>>,
      returnRule: trailingReturnRule,
      source: sourceOf(s.prices.source),
    },
    pricesNullReason: s.pricesNullReason,
    coverage: {
      ...coverage(s.entity ? `EDGAR filings, XBRL facts and statements of CIK ${s.entity.cik}, the SEC's ticker maps, and the daily price files held` : 'the SEC\'s ticker maps, the submissions files and the daily price files held'),
      ...s.coverage,
    },
  };
  return {
    ...inView(query.view, full, { always: ['object', 'ticker', 'entity', 'entityNullReason'], compact: ['prices', 'pricesNullReason'], agent: ['prices', 'pricesNullReason', 'coverage'] }),
    ...meta,
  };
});

const bar = z
  .object({
    object: z.literal('price_bar'),
    date: z.string(),
    open: z.string(),
    high: z.string(),
    low: z.string(),
    close: z.string().describe('The file\'s Close, decimal text as written'),
    adjustedClose: z.string().describe('The file\'s Adj Close where it has one, else its Close'),
    volume: z.string(),
    dailyReturn: z.number().nullable().describe('adjustedClose / the previous row\'s − 1; null on the file\'s first row'),
    volatility: z.number().nullable().describe(`Annualised: the sample standard deviation of the ${volatilityWindow} daily returns ending on this bar × √${tradingDaysPerYear}; null until ${volatilityWindow} returns are held`),
    source: cite,
  })
  .partial()
  .required({ object: true, date: true, source: true });

const prices = operationRoute({
  name: 'stocks_prices_list',
  method: 'GET',
  path: '/v1/stocks/{ticker}/prices',
  summary: 'A stock\'s daily bars, oldest first, with the daily return and a 21-day rolling volatility',
  description:
    'Open, high, low, close, adjusted close and volume as the ticker\'s price file writes them (decimal text, never re-rounded), oldest first, within `from`..`to` (inclusive), a page at a time: `limit` (1 to 100, default 25) and the opaque `cursor` of the previous page\'s `nextCursor`; `total` counts the bars within the dates. ' +
    `${returnRule} ${volatilityRule} ` +
    'Both are computed over the whole file, so the first bar of a page or of a date range has its return and volatility from the rows before it. ' +
    adjustedRule +
    'Every bar cites its market file and vintage (`source`), and `sources` holds the file (rows, dates, ingestion). ' +
    'A company held without prices is an empty list with `pricesNullReason` (`prices_not_held`, naming the tickers whose prices are held); a ticker of which nothing is held is 404 `entity_not_found`. `view=compact` keeps date, adjusted close, volume and return; `agent` adds the close and volatility.',
  tag: 'Stocks',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { path: tickerPath, query: z.strictObject({ from: dateParam('Bars on or after'), to: dateParam('Bars on or before'), ...pageParams, view: viewParam }) },
  response: listEnvelope(bar).extend({
    ticker: z.string(),
    cik: z.string().nullable().describe('The company the ticker names, when one is held'),
    total: z.number().int().describe('Bars within from..to'),
    adjusted: z.boolean().nullable().describe('Whether the file\'s Close is split- and dividend-adjusted, as its columns say'),
    adjustedNote: z.string().nullable(),
    rules: z.object({ dailyReturn: z.string(), volatility: z.string(), volatilityWindow: z.number().int().describe('Trading days (returns) per volatility'), annualization: z.number().int().describe('Trading days a year: volatility is scaled by its square root') }),
    sources: z.array(source),
    pricesNullReason: nullReason,
    coverage: coverageSchema,
  }),
  errors: ['entity_not_found'],
  operation: StockPricesDocument,
  variables: ({ path, query }) => ({ ticker: path.ticker, from: query.from ?? null, to: query.to ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ stockPrices: p }, meta, { query }) => ({
  object: 'list',
  ticker: p.ticker,
  cik: p.cik,
  total: p.total,
  data: p.nodes.map((b) =>
    inView(query.view, { object: 'price_bar' as const, date: b.date, open: b.open, high: b.high, low: b.low, close: b.close, adjustedClose: b.adjustedClose, volume: b.volume, dailyReturn: b.dailyReturn, volatility: b.volatility, source: citeOf(p.source!) }, {
      always: ['object', 'date', 'source'],
      compact: ['adjustedClose', 'volume', 'dailyReturn'],
      agent: ['close', 'adjustedClose', 'dailyReturn', 'volatility'],
    }),
  ),
  hasMore: p.hasMore,
  nextCursor: p.nextCursor,
  adjusted: p.source?.adjusted ?? null,
  adjustedNote: p.source?.adjustedNote ?? null,
  rules: { dailyReturn: returnRule, volatility: volatilityRule, volatilityWindow, annualization: tradingDaysPerYear },
  sources: p.source ? [sourceOf(p.source)] : [],
  pricesNullReason: p.pricesNullReason,
  coverage: coverage(`the daily price file of ${p.ticker}`),
  ...meta,
}));

export const stockRoutes: Route[] = [get, prices];
