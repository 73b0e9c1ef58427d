// Catalogs of the market data held: the factor models and the macro series, each with its source
// file, vintage and coverage (resolvers/analytics/catalogs.ts).
import { factorModels, macroSeriesCatalog, type AnalyticsModel, type FactorModel, type FactorSeries, type MacroGap, type MacroSeriesSummary } from '../resolvers/analytics/catalogs.ts';
import { builder } from './builder.ts';
import { Source } from './market.ts';

const Factor = builder.objectRef<FactorModel['factors'][number]>('FactorDefinition').implement({
  description: 'A factor of a model: its column name in the file, and what the data library says it is.',
  fields: (t) => ({ name: t.exposeString('name', { description: 'As the file\'s column header names it: Mkt-RF, SMB, HML, RMW, CMA, RF, Mom' }), definition: t.exposeString('definition', { nullable: true }) }),
});

const Series = builder.objectRef<FactorSeries>('FactorModelSeries').implement({
  description: 'The returns of a factor model held at one frequency, from one file.',
  fields: (t) => ({
    frequency: t.exposeString('frequency', { description: 'daily, weekly, monthly or annual (a monthly file\'s annual block)' }),
    source: t.field({ type: Source, nullable: true, resolve: (s) => s.source }),
    firstPeriod: t.exposeString('firstPeriod', { description: 'YYYY-MM-DD, YYYY-MM or YYYY' }),
    lastPeriod: t.exposeString('lastPeriod'),
    firstDate: t.expose('firstDate', { type: 'Date', description: 'The first period\'s last day' }),
    lastDate: t.expose('lastDate', { type: 'Date', description: 'The last period\'s last day' }),
    observations: t.exposeInt('observations', { description: 'Periods held' }),
    missingValues: t.exposeInt('missingValues', { description: 'Values the file marks missing, over all factors' }),
  }),
});

const Model = builder.objectRef<FactorModel>('FactorModel').implement({
  description: 'A factor dataset of the Kenneth R. French Data Library as held.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'ff3, ff5 or mom (another data-library file: its own name)' }),
    name: t.exposeString('name'),
    reference: t.exposeString('reference', { nullable: true }),
    factors: t.field({ type: [Factor], resolve: (m) => m.factors }),
    series: t.field({ type: [Series], resolve: (m) => m.series }),
    usedByAnalytics: t.exposeStringList('usedByAnalytics', { description: 'The `model` values of the analytics routes that read its daily returns' }),
  }),
});

const Analytic = builder.objectRef<AnalyticsModel>('AnalyticsFactorModel').implement({
  description: 'A `model` the portfolio and exposure routes accept: the factors it regresses on and the daily datasets it reads.',
  fields: (t) => ({
    id: t.exposeString('id'),
    factors: t.exposeStringList('factors'),
    datasets: t.exposeStringList('datasets'),
    firstDate: t.expose('firstDate', { type: 'Date', nullable: true, description: 'The latest first date of its datasets\' daily series' }),
    lastDate: t.expose('lastDate', { type: 'Date', nullable: true, description: 'The earliest last date of its datasets\' daily series' }),
  }),
});

const Catalog = builder.objectRef<Awaited<ReturnType<typeof factorModels>>>('FactorModelCatalog').implement({
  fields: (t) => ({ models: t.field({ type: [Model], resolve: (c) => c.models }), analyticsModels: t.field({ type: [Analytic], resolve: (c) => c.analyticsModels }) }),
});

const Gap = builder.objectRef<MacroGap>('MacroGap').implement({
  description: 'A run of consecutive expected observations without a value.',
  fields: (t) => ({
    from: t.expose('from', { type: 'Date' }),
    to: t.expose('to', { type: 'Date' }),
    missing: t.exposeInt('missing', { description: 'Expected observations in the run' }),
    kind: t.exposeString('kind', { description: 'no_row (not in the file), no_value (written without a value) or mixed' }),
  }),
});

const Summary = builder.objectRef<MacroSeriesSummary>('MacroSeriesSummary').implement({
  description: 'A FRED series as held: its file, frequency, coverage and the gaps at its cadence.',
  fields: (t) => ({
    seriesId: t.exposeString('seriesId'),
    frequency: t.exposeString('frequency'),
    source: t.field({ type: Source, nullable: true, resolve: (s) => s.source }),
    firstDate: t.expose('firstDate', { type: 'Date', nullable: true }),
    lastDate: t.expose('lastDate', { type: 'Date', nullable: true }),
    observations: t.exposeInt('observations'),
    missingValues: t.exposeInt('missingValues', { description: 'Observations FRED writes without a value' }),
    cadence: t.exposeString('cadence', { nullable: true }),
    expectedObservations: t.exposeInt('expectedObservations', { nullable: true }),
    missingExpected: t.exposeInt('missingExpected', { nullable: true, description: 'Expected dates without a value: the sum of the gaps' }),
    offCadence: t.exposeInt('offCadence', { nullable: true, description: 'Observations on a date the cadence does not expect' }),
    gaps: t.field({ type: [Gap], nullable: true, resolve: (s) => s.gaps }),
    gapsNullReason: t.exposeString('gapsNullReason', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  factorModels: t.field({ type: Catalog, description: 'The factor models held (as GET /v1/factors/models documents it).', resolve: (_root, _args, ctx) => factorModels(ctx) }),
  macroSeriesCatalog: t.field({ type: [Summary], description: 'Every macro series held, with its gaps (as GET /v1/macro/series documents it).', resolve: (_root, _args, ctx) => macroSeriesCatalog(ctx) }),
}));
