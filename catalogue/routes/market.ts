// Market utilities: the prices, Fama-French factor returns and FRED series the service holds,
// as written in their files, each page with the files it came from (vintage, coverage, lines
// left out). Pages run in date order; the cursor is the last date served.
import { z } from 'zod';
import { FactorReturnsDocument, MacroSeriesDocument, MarketSourcesDocument, PriceBarsDocument, type MarketSourceFieldsFragment } from '../operations/generated.ts';
import { dateParam } from '../dataParams.ts';
import { operationRoute, viewParam } from '../route.ts';

const source = z.object({
  object: z.literal('market_source'),
  sourceKey: z.string(),
  kind: z.enum(['market_prices', 'factor_returns', 'macro_series']),
  fileName: z.string(),
  subject: z.string().describe('The ticker, factor dataset (ff3, ff5, mom) or FRED series id'),
  vintage: z.string().nullable().describe('The data vintage the file states (Fama-French: the CRSP database month); null when it states none'),
  vintageNote: z.string(),
  rows: z.number().int(),
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
  missingValues: z.number().int().describe('Values the file marks missing (-99.99, ".", empty), served as null'),
  badLines: z.array(z.object({ line: z.number().int(), text: z.string(), reason: z.string() })).describe('Lines left out of the file, reported rather than guessed'),
  ingestedAt: z.iso.datetime(),
});
const toSource = (s: MarketSourceFieldsFragment) => ({ object: 'market_source' as const, ...s, kind: s.kind as z.infer<typeof source>['kind'], badLines: s.badLines as z.infer<typeof source>['badLines'] });

const range = {
  from: dateParam('From'),
  to: dateParam('To'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Rows per page, 1 to 1,000 (default 100)'),
  cursor: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected the nextCursor of the previous page').optional().describe('The previous page\'s `nextCursor`'),
  view: viewParam,
};
const variablesOf = (query: { from?: string; to?: string; limit: number; cursor?: string }) => ({ from: query.from ?? null, to: query.to ?? null, first: query.limit, after: query.cursor ?? null });
const paging = { hasMore: z.boolean(), nextCursor: z.string().nullable(), sources: z.array(source), requestId: z.string() };
const common = { tag: 'Market utilities', access: 'org' as const, meter: 'data_read', mcp: true, errors: ['market_data_not_found'] };

export const marketRoutes = [
  operationRoute({
    name: 'market_sources_list',
    method: 'GET',
    path: '/v1/market/sources',
    summary: 'The market data files held: prices, factor returns, macro series, with vintage and coverage',
    ...common,
    errors: [],
    params: { query: z.strictObject({ view: viewParam }) },
    response: z.object({ object: z.literal('list'), data: z.array(source), requestId: z.string() }),
    operation: MarketSourcesDocument,
  }).reshape(({ marketSources }, meta) => ({ object: 'list', data: marketSources.map(toSource), ...meta })),
  operationRoute({
    name: 'market_prices_get',
    method: 'GET',
    path: '/v1/market/prices',
    summary: 'Daily prices of a ticker over a date range, as the file has them',
    description: 'Adjusted daily bars (open, high, low, close, volume) as decimal text exactly as written in the source file, oldest first. A ticker the service holds no prices of is 404 `market_data_not_found` with the tickers it holds in `details.acceptedValues`.',
    ...common,
    params: { query: z.strictObject({ ticker: z.string().min(1).max(12).describe('e.g. AAPL, SPY'), ...range }) },
    response: z.object({ object: z.literal('price_series'), ticker: z.string(), data: z.array(z.object({ date: z.string(), open: z.string(), high: z.string(), low: z.string(), close: z.string(), volume: z.string() })), ...paging }),
    operation: PriceBarsDocument,
    variables: ({ query }) => ({ ticker: query.ticker, ...variablesOf(query) }),
  }).reshape(({ priceBars: p }, meta) => ({ object: 'price_series', ticker: p.ticker, data: p.bars, hasMore: p.hasMore, nextCursor: p.nextCursor, sources: p.sources.map(toSource), ...meta })),
  operationRoute({
    name: 'factor_returns_get',
    method: 'GET',
    path: '/v1/factors/returns',
    summary: 'Fama-French factor returns of a model over a date range, in percent as published',
    description: '`model`: `ff3` (Mkt-RF, SMB, HML, RF), `ff5` (adds RMW, CMA) or `mom` (Mom, daily only); `frequency`: `daily`, `monthly` or `annual` (the annual block of the monthly files). Values are percent, as the Kenneth R. French Data Library writes them; a value the file marks missing (-99.99) is null. Each row\'s `date` is the last day of its period.',
    ...common,
    params: { query: z.strictObject({ model: z.enum(['ff3', 'ff5', 'mom']), frequency: z.enum(['daily', 'monthly', 'annual']).default('daily'), ...range }) },
    response: z.object({ object: z.literal('factor_returns'), model: z.string(), frequency: z.string(), data: z.array(z.object({ period: z.string(), date: z.string(), values: z.record(z.string(), z.string().nullable()) })), ...paging }),
    operation: FactorReturnsDocument,
    variables: ({ query }) => ({ dataset: query.model, frequency: query.frequency, ...variablesOf(query) }),
  }).reshape(({ factorReturns: f }, meta) => ({ object: 'factor_returns', model: f.dataset, frequency: f.frequency, data: f.rows.map((r) => ({ ...r, values: r.values as Record<string, string | null> })), hasMore: f.hasMore, nextCursor: f.nextCursor, sources: f.sources.map(toSource), ...meta })),
  operationRoute({
    name: 'macro_series_get',
    method: 'GET',
    path: '/v1/macro/series/{series_id}',
    summary: 'A FRED macro series over a date range, as published',
    description: 'Observations as FRED wrote them (null where FRED has none, written `.`), dated by the first day of their period. A series held at two frequencies (FEDFUNDS monthly and quarterly, say) needs `frequency`.',
    ...common,
    errors: ['market_data_not_found'],
    params: { path: z.strictObject({ series_id: z.string().regex(/^[A-Za-z0-9_]{1,40}$/, 'expected a FRED series id such as CPIAUCSL') }), query: z.strictObject({ frequency: z.enum(['daily', 'weekly', 'monthly', 'quarterly', 'annual']).optional(), ...range }) },
    response: z.object({ object: z.literal('macro_series'), seriesId: z.string(), frequency: z.string(), observationCount: z.number().int(), missingCount: z.number().int(), data: z.array(z.object({ date: z.string(), value: z.string().nullable() })), ...paging }),
    operation: MacroSeriesDocument,
    variables: ({ path, query }) => ({ seriesId: path.series_id, frequency: query.frequency ?? null, ...variablesOf(query) }),
  }).reshape(({ macroSeries: m }, meta) => ({ object: 'macro_series', seriesId: m.seriesId, frequency: m.frequency, observationCount: m.observationCount, missingCount: m.missingCount, data: m.observations, hasMore: m.hasMore, nextCursor: m.nextCursor, sources: m.sources.map(toSource), ...meta })),
];
