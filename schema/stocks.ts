// Stocks: a ticker's profile (company, listings, latest close and trailing returns, coverage), its
// daily bars with returns and rolling volatility, and its own factor exposures (resolvers/stocks.ts).
import { ApiError } from '../core/errors.ts';
import { requireDataAccess } from '../resolvers/access.ts';
import { models, type ModelName } from '../resolvers/analytics/window.ts';
import {
  stockExposures,
  stockPrices,
  stockProfile,
  type FormerName,
  type Listing,
  type NullReason,
  type PricePoint,
  type PriceSummary,
  type StockBar,
  type StockCoverage,
  type StockPricePage,
  type StockProfile,
  type TrailingReturn,
} from '../resolvers/stocks.ts';
import { builder } from './builder.ts';
import { EntityMatch } from './edgar.ts';
import { Source } from './market.ts';

const Reason = builder.objectRef<NullReason>('StockNullReason').implement({
  description: 'Why a part of a stock\'s answer is null.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'entity_not_held, prices_not_held or no_bars_held' }),
    message: t.exposeString('message'),
  }),
});

const ListingRef = builder.objectRef<Listing>('StockListing').implement({
  description: 'A ticker as one source lists the company. EDGAR dates no ticker: `asOf` is when the service read the source.',
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    exchange: t.exposeString('exchange', { nullable: true, description: 'Nasdaq, NYSE, OTC, CBOE …; null where the source names none' }),
    source: t.exposeString('source', { description: 'submissions, company_tickers or company_tickers_exchange' }),
    asOf: t.exposeString('asOf', { description: 'When the service read that source (ISO instant)' }),
  }),
});

const FormerNameRef = builder.objectRef<FormerName>('StockFormerName').implement({
  description: 'A name the company filed under before, with the dates EDGAR\'s submissions file gives.',
  fields: (t) => ({ name: t.exposeString('name'), from: t.expose('from', { type: 'Date', nullable: true }), to: t.expose('to', { type: 'Date', nullable: true }) }),
});

const Point = builder.objectRef<PricePoint>('StockPricePoint').implement({
  description: 'One day\'s close, as the price file writes it.',
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    close: t.exposeString('close', { description: 'The file\'s Close, decimal text as written' }),
    adjustedClose: t.exposeString('adjustedClose', { description: 'The split- and dividend-adjusted close: the file\'s Adj Close where it has one, else its Close' }),
    sourceKey: t.exposeString('sourceKey', { description: 'The market file it is read from' }),
  }),
});

const Trailing = builder.objectRef<TrailingReturn>('StockTrailingReturn').implement({
  description: 'A return over a trailing period, as of the latest close held.',
  fields: (t) => ({
    period: t.exposeString('period', { description: '1m, 3m, 1y or ytd' }),
    baseDate: t.expose('baseDate', { type: 'Date', description: 'The date the base close is looked for on or before' }),
    from: t.field({ type: Point, nullable: true, resolve: (r) => r.from }),
    to: t.field({ type: Point, resolve: (r) => r.to }),
    value: t.exposeFloat('value', { nullable: true, description: 'adjustedClose(to) / adjustedClose(from) − 1, a fraction' }),
    nullReason: t.exposeString('nullReason', { nullable: true }),
  }),
});

const Summary = builder.objectRef<PriceSummary>('StockPriceSummary').implement({
  description: 'What the price file of a stock holds, its latest close and trailing returns.',
  fields: (t) => ({
    source: t.field({ type: Source, resolve: (p) => p.source }),
    bars: t.exposeInt('bars'),
    firstDate: t.expose('firstDate', { type: 'Date' }),
    lastDate: t.expose('lastDate', { type: 'Date' }),
    latest: t.field({ type: Point, resolve: (p) => p.latest }),
    returns: t.field({ type: [Trailing], resolve: (p) => p.returns }),
  }),
});

const FilingCoverage = builder.objectRef<StockCoverage['filings']>('StockFilingCoverage').implement({
  fields: (t) => ({
    count: t.exposeInt('count'),
    indexHeld: t.exposeBoolean('indexHeld', { description: 'Whether EDGAR\'s submissions index of the company was ingested' }),
    documentsIngested: t.exposeInt('documentsIngested', { description: 'Filings whose own document was ingested' }),
    firstFiledAt: t.expose('firstFiledAt', { type: 'Date', nullable: true }),
    lastFiledAt: t.expose('lastFiledAt', { type: 'Date', nullable: true }),
  }),
});
const FactCoverage = builder.objectRef<StockCoverage['facts']>('StockFactCoverage').implement({
  fields: (t) => ({ count: t.exposeInt('count'), latestFiledAt: t.expose('latestFiledAt', { type: 'Date', nullable: true }) }),
});
const StatementCoverage = builder.objectRef<StockCoverage['statements']>('StockStatementCoverage').implement({
  fields: (t) => ({
    annualPeriods: t.exposeInt('annualPeriods'),
    quarterlyPeriods: t.exposeInt('quarterlyPeriods'),
    firstPeriodEnd: t.expose('firstPeriodEnd', { type: 'Date', nullable: true }),
    lastPeriodEnd: t.expose('lastPeriodEnd', { type: 'Date', nullable: true }),
  }),
});
const PriceCoverage = builder.objectRef<NonNullable<StockCoverage['prices']>>('StockPriceCoverage').implement({
  fields: (t) => ({ bars: t.exposeInt('bars'), firstDate: t.expose('firstDate', { type: 'Date', nullable: true }), lastDate: t.expose('lastDate', { type: 'Date', nullable: true }), sourceKey: t.exposeString('sourceKey') }),
});

const Coverage = builder.objectRef<StockCoverage>('StockCoverage').implement({
  description: 'What the service holds of a stock, in counts and in words, and what it does not.',
  fields: (t) => ({
    summary: t.exposeString('summary'),
    filings: t.field({ type: FilingCoverage, resolve: (c) => c.filings }),
    facts: t.field({ type: FactCoverage, resolve: (c) => c.facts }),
    statements: t.field({ type: StatementCoverage, resolve: (c) => c.statements }),
    prices: t.field({ type: PriceCoverage, nullable: true, resolve: (c) => c.prices }),
    notHeld: t.exposeStringList('notHeld', { description: 'What is not held, one sentence each' }),
  }),
});

const Stock = builder.objectRef<StockProfile>('Stock').implement({
  description: 'A ticker as the service holds it: the company behind it, its daily prices and what is covered.',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'As EDGAR writes it (BRK-B)' }),
    entity: t.prismaField({ type: 'Entity', nullable: true, description: 'The company the ticker names (the best match when sources disagree)', resolve: (query, s, _args, ctx) => (s.cik ? ctx.prisma.entity.findUnique({ ...query, where: { cik: s.cik } }) : null) }),
    entityNullReason: t.field({ type: Reason, nullable: true, resolve: (s) => s.entityNullReason }),
    matches: t.field({ type: [EntityMatch], description: 'Every CIK the ticker names, best first: more than one when the sources disagree', resolve: (s) => s.matches }),
    listings: t.field({ type: [ListingRef], description: 'The ticker maps\' and the submissions file\'s listings of the company', resolve: (s) => s.listings }),
    formerNames: t.field({ type: [FormerNameRef], description: 'Names over time, newest first', resolve: (s) => s.formerNames }),
    prices: t.field({ type: Summary, nullable: true, resolve: (s) => s.prices }),
    pricesNullReason: t.field({ type: Reason, nullable: true, resolve: (s) => s.pricesNullReason }),
    coverage: t.field({ type: Coverage, resolve: (s) => s.coverage }),
  }),
});

const Bar = builder.objectRef<StockBar>('StockPriceBar').implement({
  description: 'A daily bar as the price file writes it, with its daily return and rolling volatility.',
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    open: t.exposeString('open'),
    high: t.exposeString('high'),
    low: t.exposeString('low'),
    close: t.exposeString('close'),
    adjustedClose: t.exposeString('adjustedClose', { description: 'The file\'s Adj Close where it has one, else its Close' }),
    volume: t.exposeString('volume'),
    dailyReturn: t.exposeFloat('dailyReturn', { nullable: true, description: 'adjustedClose / the previous row\'s − 1' }),
    volatility: t.exposeFloat('volatility', { nullable: true, description: 'Annualised sample standard deviation of the 21 daily returns ending on the bar' }),
    sourceKey: t.exposeString('sourceKey'),
  }),
});

const PricePage = builder.objectRef<StockPricePage>('StockPricePage').implement({
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    cik: t.exposeString('cik', { nullable: true }),
    source: t.field({ type: Source, nullable: true, resolve: (p) => p.source }),
    pricesNullReason: t.field({ type: Reason, nullable: true, resolve: (p) => p.pricesNullReason }),
    total: t.exposeInt('total', { description: 'Bars within from..to' }),
    nodes: t.field({ type: [Bar], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

type Exposures = Awaited<ReturnType<typeof stockExposures>>;

const Beta = builder.objectRef<{ factor: string; beta: number; stdError: number; tStat: number }>('FactorBeta').implement({
  fields: (t) => ({ factor: t.exposeString('factor'), beta: t.exposeFloat('beta'), stdError: t.exposeFloat('stdError'), tStat: t.exposeFloat('tStat') }),
});

const ExposuresRef = builder.objectRef<Exposures>('StockFactorExposures').implement({
  description: 'A stock\'s factor exposures: OLS with intercept of its daily excess returns on the model\'s factor returns (as GET /v1/factors/exposures documents it).',
  fields: (t) => ({
    ticker: t.string({ resolve: (e) => e.result.ticker }),
    asOf: t.field({ type: 'Date', resolve: (e) => e.result.asOf }),
    from: t.field({ type: 'Date', resolve: (e) => e.result.window.from }),
    to: t.field({ type: 'Date', resolve: (e) => e.result.window.to }),
    days: t.int({ resolve: (e) => e.result.window.days }),
    model: t.string({ resolve: (e) => e.result.model }),
    modelReason: t.string({ resolve: (e) => e.result.modelReason }),
    alphaDaily: t.float({ resolve: (e) => e.result.alpha.daily }),
    alphaAnnualized: t.float({ description: 'daily × 252', resolve: (e) => e.result.alpha.annualized }),
    alphaStdError: t.float({ resolve: (e) => e.result.alpha.stdError }),
    alphaTStat: t.float({ resolve: (e) => e.result.alpha.tStat }),
    betas: t.field({ type: [Beta], description: 'Per factor of the model, in its order', resolve: (e) => Object.entries(e.result.betas).map(([factor, c]) => ({ factor, ...c })) }),
    rSquared: t.float({ resolve: (e) => e.result.rSquared }),
    adjustedRSquared: t.float({ resolve: (e) => e.result.adjustedRSquared }),
    residualVolatilityDaily: t.float({ resolve: (e) => e.result.residualVolatility.daily }),
    residualVolatilityAnnualized: t.float({ description: 'daily × √252', resolve: (e) => e.result.residualVolatility.annualized }),
    observations: t.int({ resolve: (e) => e.result.observations }),
    sources: t.field({ type: [Source], description: 'The price and factor files read', resolve: (e) => e.sample.sources }),
  }),
});

const modelNames = Object.keys(models) as ModelName[];

builder.queryFields((t) => ({
  stock: t.field({
    type: Stock,
    description: 'A ticker\'s profile (as GET /v1/stocks/{ticker} documents it).',
    args: { ticker: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return stockProfile(ctx, args.ticker);
    },
  }),
  stockPrices: t.field({
    type: PricePage,
    description: 'A ticker\'s daily bars, oldest first, with daily returns and a 21-day rolling volatility (as GET /v1/stocks/{ticker}/prices documents it).',
    args: { ticker: t.arg.string({ required: true }), from: t.arg({ type: 'Date' }), to: t.arg({ type: 'Date' }), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return stockPrices(ctx, args.ticker, args);
    },
  }),
  factorExposures: t.field({
    type: ExposuresRef,
    description: 'A stock\'s own factor betas over a window (as GET /v1/factors/exposures documents it).',
    args: {
      ticker: t.arg.string({ required: true }),
      model: t.arg.string({ description: 'ff3, ff5 or ff5_mom; default ff5_mom where momentum covers the window, else ff5' }),
      asOf: t.arg({ type: 'Date' }),
      lookbackDays: t.arg.int({ defaultValue: 252, description: '20 to 5,000' }),
    },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      if (args.model && !modelNames.includes(args.model as ModelName)) throw new ApiError('invalid_query_parameter', `model must be one of ${modelNames.join(', ')}, not ${args.model}.`, { details: { parameter: 'model', acceptedValues: modelNames } });
      const lookbackDays = args.lookbackDays ?? 252;
      if (lookbackDays < 20 || lookbackDays > 5000) throw new ApiError('invalid_query_parameter', 'lookbackDays must be 20 to 5,000.', { details: { parameter: 'lookback_days' } });
      return stockExposures(ctx, { ticker: args.ticker, asOf: args.asOf ?? undefined, lookbackDays, model: (args.model ?? undefined) as ModelName | undefined });
    },
  }),
}));
