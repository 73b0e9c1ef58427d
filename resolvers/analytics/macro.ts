// Macro sensitivity of Fama-French factors (GET /v1/factors/macro-sensitivity): monthly factor
// returns regressed, all regressors jointly (OLS with intercept), on monthly changes of FRED
// series the service holds. Computed on each request from the rows held; nothing is stored.
import type { MarketSource } from '../../prisma/generated/client/client.ts';
import { ApiError } from '../../core/errors.ts';
import { requireDataAccess } from '../access.ts';
import type { Context } from '../context.ts';
import { InsufficientObservationsError, ols, RegressionError } from './regression.ts';

const iso = (date: Date) => date.toISOString().slice(0, 10);

export interface HeldSeries {
  seriesId: string;
  frequency: string;
  sourceKey: string;
  /** non-null observations, oldest first */
  points: { date: string; value: number }[];
}

/** Frequencies in the order a series held at several is read. */
const preference = ['monthly', 'daily', 'weekly', 'quarterly', 'annual', 'irregular'];

/** The observations of a FRED series held (its preferred frequency when held at several), or a 404 naming what is held. */
export async function heldSeries(ctx: Context, seriesId: string, frequency?: string): Promise<HeldSeries> {
  const rows = await ctx.prisma.macroSeries.findMany({ where: { seriesId, ...(frequency ? { frequency } : {}) } });
  rows.sort((a, b) => preference.indexOf(a.frequency) - preference.indexOf(b.frequency));
  const series = rows[0];
  if (!series) {
    const held = await ctx.prisma.macroSeries.findMany({ select: { seriesId: true, frequency: true }, orderBy: [{ seriesId: 'asc' }, { frequency: 'asc' }] });
    throw new ApiError('market_data_not_found', `The FRED series ${seriesId}${frequency ? ` (${frequency})` : ''} is not held; it is needed for this answer.`, {
      details: { series: seriesId, acceptedValues: held.map((h) => `${h.seriesId}/${h.frequency}`) },
    });
  }
  const observations = await ctx.prisma.macroObservation.findMany({ where: { seriesId, frequency: series.frequency }, orderBy: { date: 'asc' }, select: { date: true, value: true } });
  const points: HeldSeries['points'] = [];
  for (const o of observations) {
    if (o.value === null) continue;
    const value = Number(o.value);
    if (Number.isFinite(value)) points.push({ date: iso(o.date), value });
  }
  return { seriesId, frequency: series.frequency, sourceKey: series.sourceKey, points };
}

export async function sourcesByKey(ctx: Context, keys: string[]): Promise<MarketSource[]> {
  return ctx.prisma.marketSource.findMany({ where: { sourceKey: { in: [...new Set(keys)] } }, orderBy: { sourceKey: 'asc' } });
}

/** YYYY-MM shifted by k months (k may be negative). */
export function shiftMonth(month: string, k: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + k;
  return `${String(Math.floor(total / 12)).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}`;
}

/** Month → value: a monthly series' observation, or the mean of a daily series' observations in the month. */
export function monthly(series: HeldSeries): Map<string, number> {
  const sums = new Map<string, { sum: number; count: number }>();
  for (const p of series.points) {
    const month = p.date.slice(0, 7);
    const s = sums.get(month) ?? sums.set(month, { sum: 0, count: 0 }).get(month)!;
    s.sum += p.value;
    s.count += 1;
  }
  return new Map([...sums].map(([m, s]) => [m, s.sum / s.count]));
}

/** Month → x_m / x_{m−12} − 1 where both are held. */
export function yoy(levels: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [m, v] of levels) {
    const before = levels.get(shiftMonth(m, -12));
    if (before !== undefined && before !== 0) out.set(m, v / before - 1);
  }
  return out;
}

/** Month → x_m − x_{m−1} where both are held. */
export function firstDifference(levels: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [m, v] of levels) {
    const before = levels.get(shiftMonth(m, -1));
    if (before !== undefined) out.set(m, v - before);
  }
  return out;
}

interface RegressorSpec {
  name: string;
  seriesId: string;
  transform: 'yoy' | 'difference';
  aggregation: 'monthly observation' | 'monthly average of daily observations';
  units: string;
  definition: string;
}

export const regressorSpecs: RegressorSpec[] = [
  { name: 'cpi_yoy', seriesId: 'CPIAUCSL', transform: 'yoy', aggregation: 'monthly observation', units: 'fraction (0.03 = 3%)', definition: 'CPI inflation, year over year: CPIAUCSL_m / CPIAUCSL_{m−12} − 1' },
  { name: 'unemployment_change', seriesId: 'UNRATE', transform: 'difference', aggregation: 'monthly observation', units: 'percentage points', definition: 'Change of the unemployment rate: UNRATE_m − UNRATE_{m−1}' },
  { name: 'treasury_10y_change', seriesId: 'DGS10', transform: 'difference', aggregation: 'monthly average of daily observations', units: 'percentage points', definition: 'Change of the 10-year Treasury yield: mean(DGS10 in m) − mean(DGS10 in m−1), over the days with a value' },
  { name: 'fed_funds_change', seriesId: 'DFF', transform: 'difference', aggregation: 'monthly average of daily observations', units: 'percentage points', definition: 'Change of the effective fed funds rate: mean(DFF in m) − mean(DFF in m−1), over the days with a value' },
  { name: 'industrial_production_yoy', seriesId: 'INDPRO', transform: 'yoy', aggregation: 'monthly observation', units: 'fraction', definition: 'Industrial production growth, year over year: INDPRO_m / INDPRO_{m−12} − 1' },
];

export interface MacroSensitivityRequest {
  model: 'ff3' | 'ff5';
  from?: string | null;
  to?: string | null;
}

export async function macroSensitivity(ctx: Context, request: MacroSensitivityRequest) {
  requireDataAccess(ctx);
  const { model } = request;
  const fromMonth = request.from ? request.from.slice(0, 7) : null;
  const toMonth = request.to ? request.to.slice(0, 7) : null;

  // Factor returns, percent → fraction, by month of the period's end date.
  const factorRows = await ctx.prisma.factorReturn.findMany({ where: { dataset: model, frequency: 'monthly' }, orderBy: [{ date: 'asc' }, { factor: 'asc' }] });
  if (!factorRows.length) {
    const held = await ctx.prisma.factorReturn.groupBy({ by: ['dataset', 'frequency'] });
    throw new ApiError('market_data_not_found', `No monthly returns of ${model} are held.`, { details: { parameter: 'model', acceptedValues: held.map((h) => `${h.dataset}/${h.frequency}`).sort() } });
  }
  const factorNames = [...new Set(factorRows.map((r) => r.factor))].filter((f) => f !== 'RF').sort();
  const factorValues = new Map<string, Map<string, number>>(factorNames.map((f) => [f, new Map()]));
  for (const r of factorRows) {
    if (r.value === null || !factorValues.has(r.factor)) continue;
    const v = Number(r.value);
    if (Number.isFinite(v)) factorValues.get(r.factor)!.set(iso(r.date).slice(0, 7), v / 100);
  }

  const series = await Promise.all(regressorSpecs.map((s) => heldSeries(ctx, s.seriesId, s.aggregation === 'monthly observation' ? 'monthly' : 'daily')));
  const regressors = regressorSpecs.map((spec, i) => {
    const levels = monthly(series[i]!);
    return spec.transform === 'yoy' ? yoy(levels) : firstDifference(levels);
  });

  // The window: months (within from..to) where every regressor and every factor has a value.
  const months = [...regressors[0]!.keys()]
    .filter((m) => (!fromMonth || m >= fromMonth) && (!toMonth || m <= toMonth))
    .filter((m) => regressors.every((r) => r.has(m)) && factorNames.every((f) => factorValues.get(f)!.has(m)))
    .sort();

  const X = regressors.map((r) => Float64Array.from(months, (m) => r.get(m)!));
  const names = regressorSpecs.map((s) => s.name);
  const factors: Record<string, unknown> = {};
  for (const factor of factorNames) {
    const y = Float64Array.from(months, (m) => factorValues.get(factor)!.get(m)!);
    try {
      const fit = ols(y, X, names);
      factors[factor] = {
        alpha: { estimate: fit.alpha.estimate, stdError: fit.alpha.stdError, tStat: fit.alpha.tStat },
        betas: Object.fromEntries(names.map((n) => [n, { beta: fit.betas[n]!.estimate, stdError: fit.betas[n]!.stdError, tStat: fit.betas[n]!.tStat }])),
        rSquared: fit.rSquared,
        adjustedRSquared: fit.adjustedRSquared,
        n: fit.n,
      };
    } catch (error) {
      if (error instanceof InsufficientObservationsError) {
        throw new ApiError('invalid_query_parameter', `Only ${months.length} months between ${fromMonth ?? 'the start'} and ${toMonth ?? 'the end'} have every regressor and factor; ${names.length + 2} are needed at least.`, {
          details: { parameter: fromMonth ? 'from' : 'to' },
        });
      }
      if (error instanceof RegressionError) throw new ApiError('invalid_query_parameter', `The regression of ${factor} cannot be estimated over this window: ${error.message}.`, { details: { parameter: 'from' } });
      throw error;
    }
  }

  const factorKeys = [...new Set(factorRows.map((r) => r.sourceKey))];
  const sources = await sourcesByKey(ctx, [...factorKeys, ...series.map((s) => s.sourceKey)]);
  const byKey = new Map(sources.map((s) => [s.sourceKey, s]));
  const cite = (key: string) => {
    const s = byKey.get(key);
    return { sourceKey: key, fileName: s?.fileName ?? null, vintage: s?.vintage ?? null, vintageNote: s?.vintageNote ?? null, firstDate: s?.firstDate ? iso(s.firstDate) : null, lastDate: s?.lastDate ? iso(s.lastDate) : null };
  };

  return {
    model,
    frequency: 'monthly',
    method:
      'Each factor\'s monthly return (percent as published ÷ 100, so a fraction) is regressed by OLS with an intercept on all five regressors jointly; standard errors are classical (homoskedastic), t = beta / stdError. Months are aligned as YYYY-MM (a factor return by its period, a FRED observation by the month it is dated). RF is the risk-free rate, not a factor, and is not regressed.',
    window: { from: months[0] ?? null, to: months[months.length - 1] ?? null, months: months.length, rule: 'Months within from..to (by YYYY-MM) in which every regressor and every factor has a value.' },
    regressors: regressorSpecs.map((spec, i) => ({
      name: spec.name,
      definition: spec.definition,
      units: spec.units,
      aggregation: spec.aggregation,
      series: { seriesId: spec.seriesId, frequency: series[i]!.frequency, ...cite(series[i]!.sourceKey) },
    })),
    factors,
    factorSource: factorKeys.map(cite),
  };
}
