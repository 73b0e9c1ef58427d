// Catalogs: the factor models and macro series held, each with its source file, vintage,
// frequency and coverage (macro series with their gaps), and a stock's own factor exposures by the
// regression POST /v1/portfolio/analyze runs for each holding (resolvers/analytics/catalogs.ts,
// resolvers/stocks.ts stockExposures).
import { z } from 'zod';
import { FactorExposuresDocument, FactorModelsDocument, MacroSeriesCatalogDocument, type CatalogSourceFieldsFragment } from '../operations/generated.ts';
import { factorUnits, gapRule } from '../../resolvers/analytics/catalogs.ts';
import { dateParam, inView } from '../dataParams.ts';
import { operationRoute, type Route, viewParam } from '../route.ts';
import { exposures, modelRule, models, sampleWindow } from './portfolio.ts';

const fileCite = z.object({ sourceKey: z.string(), fileName: z.string(), vintage: z.string().nullable().describe('The vintage the file states (Fama-French: the CRSP database month, e.g. 202408); null when it states none'), vintageNote: z.string(), ingestedAt: z.iso.datetime() });
const citeOf = (s: CatalogSourceFieldsFragment | null) => s && { sourceKey: s.sourceKey, fileName: s.fileName, vintage: s.vintage, vintageNote: s.vintageNote, ingestedAt: s.ingestedAt };

const factorModel = z
  .object({
    object: z.literal('factor_model'),
    id: z.string().describe('ff3, ff5 or mom (another data-library file: its own name)'),
    name: z.string(),
    reference: z.string().nullable().describe('The paper that defines the factors'),
    units: z.string(),
    factors: z.array(z.object({ name: z.string().describe('As the file\'s column header names it'), definition: z.string().nullable().describe('What the Kenneth R. French Data Library says the factor is; null for a column it does not define') })),
    series: z.array(
      z.object({
        frequency: z.string().describe('daily, weekly, monthly or annual (the annual block of a monthly file)'),
        source: fileCite.nullable(),
        firstPeriod: z.string().describe('YYYY-MM-DD, YYYY-MM or YYYY, as the file dates it'),
        lastPeriod: z.string(),
        firstDate: z.string().describe('The first period\'s last day'),
        lastDate: z.string().describe('The last period\'s last day'),
        observations: z.number().int().describe('Periods held'),
        missingValues: z.number().int().describe('Values the file marks missing (-99.99 or -999), over all factors'),
      }),
    ),
    usedByAnalytics: z.array(z.string()).describe('The `model` values of the analytics routes that read this dataset\'s daily returns'),
  })
  .partial()
  .required({ object: true, id: true });

const modelsRoute = operationRoute({
  name: 'factor_models_list',
  method: 'GET',
  path: '/v1/factors/models',
  summary: 'The factor models held: each model\'s factors with definitions, and per frequency its file, vintage, first and last dates and observation count',
  description:
    'One entry per Fama-French dataset held (`ff3`: Mkt-RF, SMB, HML, RF; `ff5`: the 2x3 five factors with RF; `mom`: Mom), as the FactorReturn rows of its files hold it. `factors` names each column with the Kenneth R. French Data Library\'s definition (the files state only the column names). `series` has one entry per frequency held: the file it comes from with the vintage the file states (the CRSP database month in its header; null and why when it states none), the first and last period, the periods held (`observations`) and the values the file marks missing. ' +
    `Values are ${factorUnits}; GET /v1/factors/returns serves them. ` +
    '`analyticsModels` lists the `model` values of the analytics routes (POST /v1/portfolio/*, GET /v1/factors/exposures): the factors each regresses on, the daily datasets it reads, and the dates where every one of them has rows (from the latest first date to the earliest last date). `view=compact` and `agent` leave out the definitions.',
  tag: 'Catalogs',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { query: z.strictObject({ view: viewParam }) },
  response: z.object({
    object: z.literal('list'),
    data: z.array(factorModel),
    analyticsModels: z.array(z.object({ id: models, factors: z.array(z.string()), datasets: z.array(z.string()), firstDate: z.string().nullable(), lastDate: z.string().nullable() })),
    requestId: z.string(),
  }),
  operation: FactorModelsDocument,
}).reshape(({ factorModels: c }, meta, { query }) => ({
  object: 'list',
  data: c.models.map((m) => {
    const full = { object: 'factor_model' as const, ...m, units: factorUnits, series: m.series.map((s) => ({ ...s, source: citeOf(s.source) })) };
    const names = { ...full, factors: m.factors.map((f) => ({ name: f.name, definition: null })) };
    return inView(query.view, query.view === 'default' ? full : names, { always: ['object', 'id', 'name', 'factors', 'series'], compact: ['usedByAnalytics'], agent: ['usedByAnalytics', 'units'] });
  }),
  analyticsModels: c.analyticsModels.map((a) => ({ ...a, id: a.id as z.infer<typeof models> })),
  ...meta,
}));

const exposuresRoute = operationRoute({
  name: 'factor_exposures_get',
  method: 'GET',
  path: '/v1/factors/exposures',
  summary: 'A stock\'s own factor betas, with standard errors, t-stats, R² and observations',
  description:
    'The regression POST /v1/portfolio/analyze runs for each holding, on the stock alone: OLS with intercept of its daily excess returns (return − RF) on the model\'s Fama-French daily factor returns (percent ÷ 100), with classical standard errors; alpha daily and × 252, betas, standard errors, t-stats, R², adjusted R², residual volatility (daily and × √252) and the observations used. ' +
    'The window is the `lookback_days` (default 252, 20 to 5,000) most recent dates on or before `as_of` on which the stock has a close on that date and on its previous row and every factor of the model has a value; a daily return is close_t / close_prev − 1 on the file\'s adjusted closes. `as_of` defaults to the latest such date. ' +
    modelRule +
    'Every answer names the price and factor files it read, with their vintages (`sources`). Computed on each request (on the analytics worker threads), nothing stored. ' +
    'A ticker of which nothing is held is 404 `entity_not_found`; a company held without prices, 404 `market_data_not_found` naming the tickers whose prices are held; a window the data cannot fill (fewer dates than `lookback_days`, nothing on or before `as_of`) is 400 `validation_error` naming the parameter.',
  tag: 'Catalogs',
  access: 'org',
  meter: 'analytics',
  mcp: true,
  params: {
    query: z.strictObject({
      ticker: z.string().min(1).max(12).describe('A ticker whose daily prices are held, e.g. AAPL'),
      model: models.optional().describe('ff3, ff5 or ff5_mom; by default ff5_mom where daily momentum covers the window, else ff5'),
      as_of: dateParam('The last date of the window at the latest'),
      lookback_days: z.coerce.number().int().min(20).max(5000).default(252).describe('Dates in the window, 20 to 5,000 (default 252)'),
      view: viewParam,
    }),
  },
  response: exposures.extend({
    object: z.literal('factor_exposures'),
    ticker: z.string(),
    asOf: z.string(),
    window: sampleWindow,
    model: models,
    modelReason: z.string(),
    method: z.string(),
    sources: z.array(fileCite.extend({ kind: z.string(), subject: z.string() })).describe('The price and factor files read'),
    requestId: z.string(),
  }),
  errors: ['entity_not_found', 'market_data_not_found', 'validation_error'],
  operation: FactorExposuresDocument,
  variables: ({ query }) => ({ ticker: query.ticker, model: query.model ?? null, asOf: query.as_of ?? null, lookbackDays: query.lookback_days }),
}).reshape(({ factorExposures: e }, meta) => ({
  object: 'factor_exposures',
  ticker: e.ticker,
  asOf: e.asOf,
  window: { from: e.from, to: e.to, days: e.days },
  model: e.model as z.infer<typeof models>,
  modelReason: e.modelReason,
  method: 'OLS with intercept of daily excess returns (return − RF) on the model\'s daily factor returns, classical standard errors (POST /v1/portfolio/analyze\'s regression of a holding)',
  alpha: { daily: e.alphaDaily, annualized: e.alphaAnnualized, stdError: e.alphaStdError, tStat: e.alphaTStat },
  betas: Object.fromEntries(e.betas.map((b) => [b.factor, { beta: b.beta, stdError: b.stdError, tStat: b.tStat }])),
  rSquared: e.rSquared,
  adjustedRSquared: e.adjustedRSquared,
  residualVolatility: { daily: e.residualVolatilityDaily, annualized: e.residualVolatilityAnnualized },
  observations: e.observations,
  sources: e.sources,
  ...meta,
}));

const gap = z.object({ from: z.string(), to: z.string(), missing: z.number().int().describe('Expected observations in the run'), kind: z.enum(['no_row', 'no_value', 'mixed']) });

const macroSeries = z
  .object({
    object: z.literal('macro_series_summary'),
    seriesId: z.string().describe('The FRED series id'),
    frequency: z.string().describe('daily, weekly, monthly, quarterly, annual or irregular, read off the dates (FRED\'s files state none)'),
    source: fileCite.nullable(),
    firstDate: z.string().nullable(),
    lastDate: z.string().nullable(),
    observations: z.number().int(),
    missingValues: z.number().int().describe('Observations FRED writes without a value (`.` or empty)'),
    cadence: z.string().nullable().describe('The cadence the gaps were found by, in words; null for an irregular series'),
    expectedObservations: z.number().int().nullable(),
    missingExpected: z.number().int().nullable().describe('Expected dates without a value: the gaps\' total'),
    offCadence: z.number().int().nullable().describe('Observations on a date the cadence does not expect'),
    gapCount: z.number().int().nullable(),
    gaps: z.array(gap).nullable().describe('Runs of expected dates without a value, oldest first'),
    gapsNullReason: z.string().nullable(),
  })
  .partial()
  .required({ object: true, seriesId: true, frequency: true });

const macroRoute = operationRoute({
  name: 'macro_series_list',
  method: 'GET',
  path: '/v1/macro/series',
  summary: 'Every macro series held, with its source file, frequency, vintage, first and last observation, count, and gaps',
  description:
    'One entry per FRED series and frequency held (FEDFUNDS monthly and FEDFUNDS aggregated to quarters are two), ordered by series id: its file and the vintage the file states (a FRED download states none: null, and why), the frequency read off its dates, the first and last observation, the observations held and how many FRED writes without a value. ' +
    gapRule +
    ' GET /v1/macro/series/{series_id} serves the observations. `view=compact` and `agent` leave out the gap list (its counts stay).',
  tag: 'Catalogs',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { query: z.strictObject({ view: viewParam }) },
  response: z.object({ object: z.literal('list'), data: z.array(macroSeries), gapRule: z.string(), requestId: z.string() }),
  operation: MacroSeriesCatalogDocument,
}).reshape(({ macroSeriesCatalog }, meta, { query }) => ({
  object: 'list',
  data: macroSeriesCatalog.map((s) =>
    inView(query.view, { object: 'macro_series_summary' as const, ...s, source: citeOf(s.source), gapCount: s.gaps?.length ?? null, gaps: s.gaps?.map((g) => ({ ...g, kind: g.kind as z.infer<typeof gap>['kind'] })) ?? null }, {
      always: ['object', 'seriesId', 'frequency', 'firstDate', 'lastDate', 'observations', 'source'],
      compact: ['missingValues', 'gapCount', 'missingExpected'],
      agent: ['missingValues', 'cadence', 'gapCount', 'missingExpected', 'gapsNullReason'],
    }),
  ),
  gapRule,
  ...meta,
}));

export const catalogRoutes: Route[] = [modelsRoute, exposuresRoute, macroRoute];
