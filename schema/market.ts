// Market utilities: prices, factor returns and macro series as ingested, with their sources.
import type { MarketSource } from '../prisma/generated/client/client.ts';
import { factorReturns, macroSeries, marketSources, priceBars } from '../resolvers/analytics/marketReads.ts';
import { builder } from './builder.ts';

export const Source = builder.objectRef<MarketSource>('MarketSource').implement({
  description: 'A market data file as ingested: what it holds, the vintage it states, its coverage and what it left out.',
  fields: (t) => ({
    sourceKey: t.exposeString('sourceKey'),
    kind: t.exposeString('kind', { description: 'market_prices, factor_returns or macro_series' }),
    fileName: t.exposeString('fileName'),
    subject: t.exposeString('subject', { description: 'The ticker, factor dataset or FRED series id' }),
    vintage: t.exposeString('vintage', { nullable: true }),
    vintageNote: t.exposeString('vintageNote'),
    rows: t.exposeInt('rows'),
    firstDate: t.expose('firstDate', { type: 'Date', nullable: true }),
    lastDate: t.expose('lastDate', { type: 'Date', nullable: true }),
    missingValues: t.exposeInt('missingValues'),
    badLines: t.expose('badLines', { type: 'JSON', description: '[{line, text, reason}]: lines left out' }),
    adjusted: t.exposeBoolean('adjusted', { nullable: true, description: 'Prices: whether the file\'s Close is adjusted for splits and dividends, as its columns say (no Adj Close column: it is); null for factor and macro files' }),
    adjustedNote: t.exposeString('adjustedNote', { nullable: true, description: 'The rule the adjusted flag was read by' }),
    ingestedAt: t.expose('ingestedAt', { type: 'DateTime' }),
  }),
});

const Bar = builder.objectRef<{ date: Date; open: string; high: string; low: string; close: string; volume: string }>('PriceBar').implement({
  description: 'A daily bar as the file has it (adjusted prices; decimal text as written).',
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    open: t.exposeString('open'),
    high: t.exposeString('high'),
    low: t.exposeString('low'),
    close: t.exposeString('close'),
    volume: t.exposeString('volume'),
  }),
});

const page = { hasMore: 'hasMore', nextCursor: 'nextCursor' } as const;

const PricePage = builder.objectRef<Awaited<ReturnType<typeof priceBars>>>('PricePage').implement({
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    bars: t.field({ type: [Bar], resolve: (p) => p.rows }),
    hasMore: t.exposeBoolean(page.hasMore),
    nextCursor: t.exposeString(page.nextCursor, { nullable: true }),
    sources: t.field({ type: [Source], resolve: (p) => p.sources }),
  }),
});

const FactorRow = builder.objectRef<{ period: string; date: Date; values: Record<string, string | null> }>('FactorReturnRow').implement({
  fields: (t) => ({
    period: t.exposeString('period', { description: 'YYYY-MM-DD, YYYY-MM or YYYY' }),
    date: t.expose('date', { type: 'Date', description: 'The period\'s last day' }),
    values: t.expose('values', { type: 'JSON', description: 'Factor → return in percent as written (null: missing in the file)' }),
  }),
});

const FactorPage = builder.objectRef<Awaited<ReturnType<typeof factorReturns>>>('FactorReturnPage').implement({
  fields: (t) => ({
    dataset: t.exposeString('dataset'),
    frequency: t.exposeString('frequency'),
    rows: t.field({ type: [FactorRow], resolve: (p) => p.rows }),
    hasMore: t.exposeBoolean(page.hasMore),
    nextCursor: t.exposeString(page.nextCursor, { nullable: true }),
    sources: t.field({ type: [Source], resolve: (p) => p.sources }),
  }),
});

const Observation = builder.objectRef<{ date: Date; value: string | null }>('MacroObservation').implement({
  fields: (t) => ({ date: t.expose('date', { type: 'Date' }), value: t.exposeString('value', { nullable: true, description: 'As FRED wrote it; null where it has none' }) }),
});

const MacroPage = builder.objectRef<Awaited<ReturnType<typeof macroSeries>>>('MacroSeriesPage').implement({
  fields: (t) => ({
    seriesId: t.string({ resolve: (p) => p.series.seriesId }),
    frequency: t.string({ resolve: (p) => p.series.frequency }),
    observationCount: t.int({ resolve: (p) => p.series.observations }),
    missingCount: t.int({ resolve: (p) => p.series.missing }),
    observations: t.field({ type: [Observation], resolve: (p) => p.rows }),
    hasMore: t.exposeBoolean(page.hasMore),
    nextCursor: t.exposeString(page.nextCursor, { nullable: true }),
    sources: t.field({ type: [Source], resolve: (p) => p.sources }),
  }),
});

const limited = (first: number | null | undefined) => Math.min(Math.max(first ?? 100, 1), 1000);

builder.queryFields((t) => ({
  marketSources: t.field({ type: [Source], description: 'Every market data file held.', resolve: (_root, _args, ctx) => marketSources(ctx) }),
  priceBars: t.field({
    type: PricePage,
    args: { ticker: t.arg.string({ required: true }), from: t.arg({ type: 'Date' }), to: t.arg({ type: 'Date' }), first: t.arg.int({ defaultValue: 100 }), after: t.arg({ type: 'Date', description: 'The nextCursor of the previous page' }) },
    resolve: (_root, args, ctx) => priceBars(ctx, args.ticker, { from: args.from, to: args.to, first: limited(args.first), after: args.after }),
  }),
  factorReturns: t.field({
    type: FactorPage,
    args: { dataset: t.arg.string({ required: true }), frequency: t.arg.string({ required: true }), from: t.arg({ type: 'Date' }), to: t.arg({ type: 'Date' }), first: t.arg.int({ defaultValue: 100 }), after: t.arg({ type: 'Date', description: 'The nextCursor of the previous page' }) },
    resolve: (_root, args, ctx) => factorReturns(ctx, args.dataset, args.frequency, { from: args.from, to: args.to, first: limited(args.first), after: args.after }),
  }),
  macroSeries: t.field({
    type: MacroPage,
    args: { seriesId: t.arg.string({ required: true }), frequency: t.arg.string(), from: t.arg({ type: 'Date' }), to: t.arg({ type: 'Date' }), first: t.arg.int({ defaultValue: 100 }), after: t.arg({ type: 'Date', description: 'The nextCursor of the previous page' }) },
    resolve: (_root, args, ctx) => macroSeries(ctx, args.seriesId, args.frequency, { from: args.from, to: args.to, first: limited(args.first), after: args.after }),
  }),
}));
