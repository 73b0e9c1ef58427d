// Macro analytics: how Fama-French factors move with macro changes, and the high-signal macro
// pack. Both are computed on each request from the FRED and factor files held; nothing is stored.
import { z } from 'zod';
import { MacroHighSignalPackDocument, MacroSensitivityDocument } from '../operations/generated.ts';
import { dateParam } from '../dataParams.ts';
import { operationRoute, viewParam } from '../route.ts';

const cited = z.object({ seriesId: z.string(), date: z.string(), value: z.number() });
const fileCite = z.object({ sourceKey: z.string(), fileName: z.string().nullable(), vintage: z.string().nullable(), vintageNote: z.string().nullable(), firstDate: z.string().nullable(), lastDate: z.string().nullable() });
const coefficient = z.object({ beta: z.number(), stdError: z.number(), tStat: z.number() });
const change = z.object({ value: z.number().nullable(), units: z.enum(['points', 'percent']), from: cited, to: cited }).nullable();
const trend = z
  .object({
    seriesId: z.string(),
    direction: z.enum(['up', 'down']),
    last3MonthsMeanYoY: z.number(),
    previous3MonthsMeanYoY: z.number(),
    months: z.array(z.object({ month: z.string(), yoy: z.number(), observationDates: z.array(z.string()) })),
  })
  .nullable();

export const macroRoutes = [
  operationRoute({
    name: 'factor_macro_sensitivity',
    method: 'GET',
    path: '/v1/factors/macro-sensitivity',
    summary: 'Sensitivity of monthly Fama-French factor returns to macro changes (OLS betas, t-stats, R²)',
    description:
      'Each factor\'s monthly return of the model (`ff3` or `ff5`, default `ff5`; percent ÷ 100; RF is not regressed) is regressed by OLS with an intercept on five monthly regressors jointly: CPI inflation year over year (CPIAUCSL_m / CPIAUCSL_{m−12} − 1), the change of the unemployment rate (UNRATE, points), the change of the monthly average 10-year Treasury yield (DGS10, points), the change of the monthly average effective fed funds rate (DFF, points) and industrial production year over year (INDPRO). ' +
      'Months are aligned as YYYY-MM; the window is every month within `from`..`to` in which every regressor and every factor has a value, and the answer states it. Each regressor names its FRED series, file and vintage. Computed on each request; nothing is stored. A series or model not held is 404 `market_data_not_found`.',
    tag: 'Macro analytics',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    errors: ['market_data_not_found', 'invalid_query_parameter'],
    params: { query: z.strictObject({ model: z.enum(['ff3', 'ff5']).default('ff5'), from: dateParam('The first month of the window at the earliest (its YYYY-MM)'), to: dateParam('The last month of the window at the latest (its YYYY-MM)'), view: viewParam }) },
    response: z.object({
      object: z.literal('macro_sensitivity'),
      model: z.enum(['ff3', 'ff5']),
      frequency: z.literal('monthly'),
      method: z.string(),
      window: z.object({ from: z.string().nullable(), to: z.string().nullable(), months: z.number().int(), rule: z.string() }),
      regressors: z.array(z.object({ name: z.string(), definition: z.string(), units: z.string(), aggregation: z.string(), series: fileCite.extend({ seriesId: z.string(), frequency: z.string() }) })),
      factors: z.record(z.string(), z.object({ alpha: z.object({ estimate: z.number(), stdError: z.number(), tStat: z.number() }), betas: z.record(z.string(), coefficient), rSquared: z.number(), adjustedRSquared: z.number(), n: z.number().int() })).describe('Per factor (Mkt-RF, SMB, HML, and RMW, CMA for ff5)'),
      factorSource: z.array(fileCite),
      requestId: z.string(),
    }),
    operation: MacroSensitivityDocument,
    variables: ({ query }) => ({ model: query.model, from: query.from ?? null, to: query.to ?? null }),
  }).reshape(({ macroSensitivity }, meta) => ({ object: 'macro_sensitivity', ...(macroSensitivity as object), ...meta }) as never),
  operationRoute({
    name: 'macro_high_signal_pack',
    method: 'GET',
    path: '/v1/macro/high-signal-pack',
    summary: 'Latest macro readings, changes, growth/inflation regime, drift forecasts and source posture of a country',
    description:
      'Per FRED series held: the latest value and date, the change from the previous observation and from a year earlier (rates in points, other series in percent), a drift forecast (last value + the mean of the last 12 changes), the next observation date estimated from the series\' cadence (median gap between observation dates; `estimated: true`) and its source (file, vintage, staleness in days against the newest observation in the pack — not today\'s clock, so the answer is deterministic). ' +
      'The regime is the growth/inflation quadrant from the trends of INDPRO and CPIAUCSL year-over-year changes (the rule is stated in the answer). Every number cites its series and observation date. Only `US` is covered: any other country is 404 `country_not_covered`.',
    tag: 'Macro analytics',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    errors: ['country_not_covered'],
    params: { query: z.strictObject({ country: z.string().min(2).max(3).default('US').describe('ISO country code; US is covered'), view: viewParam }) },
    response: z.object({
      object: z.literal('macro_pack'),
      country: z.string(),
      asOf: z.string().nullable(),
      asOfRule: z.string(),
      changeUnits: z.string(),
      regime: z.object({ name: z.enum(['reflation', 'goldilocks', 'stagflation', 'deflation']).nullable(), rule: z.string(), growth: trend, inflation: trend, reason: z.string().optional() }),
      series: z.array(
        z.object({
          seriesId: z.string(),
          frequency: z.string(),
          latest: cited,
          changeFromPrevious: change,
          changeFromYearEarlier: change,
          forecast: z.object({ method: z.literal('drift'), rule: z.string(), value: z.number(), forDate: z.string(), meanChange: z.number(), basedOn: z.object({ seriesId: z.string(), from: z.string(), to: z.string(), observations: z.number().int() }) }).nullable(),
          nextObservation: z.object({ date: z.string(), estimated: z.literal(true), method: z.string(), medianGapDays: z.number(), lastObservationDate: z.string(), seriesId: z.string() }).nullable(),
          source: z.object({ seriesId: z.string(), lastObservationDate: z.string(), stalenessDays: z.number().int(), sourceKey: z.string(), fileName: z.string().nullable(), vintage: z.string().nullable(), vintageNote: z.string().nullable() }),
        }),
      ),
      requestId: z.string(),
    }),
    operation: MacroHighSignalPackDocument,
    variables: ({ query }) => ({ country: query.country }),
  }).reshape(({ macroHighSignalPack }, meta) => ({ object: 'macro_pack', ...(macroHighSignalPack as object), ...meta }) as never),
];
