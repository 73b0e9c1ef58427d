// Catalogs of the market data held: the Fama-French factor models (GET /v1/factors/models) and the
// FRED macro series (GET /v1/macro/series), each with its source file, vintage, frequency and
// coverage, and for macro series the observations missing at the series' cadence. Read from the
// rows the ingest stored (FactorReturn, MacroSeries, MacroObservation, MarketSource).
import type { MarketSource } from '../../prisma/generated/client/client.ts';
import { isoDay } from '../../derived/citations.ts';
import { requireDataAccess } from '../access.ts';
import type { Context } from '../context.ts';
import { marketFiles, models, type ModelName } from './window.ts';

/* factor models ------------------------------------------------------------------------------ */

/** What the Kenneth R. French Data Library says each factor is (its files state only the column names). */
const definitions: Record<string, string> = {
  'Mkt-RF':
    'The excess return on the market: the value-weighted return of all CRSP firms incorporated in the US and listed on the NYSE, AMEX or NASDAQ with a CRSP share code of 10 or 11 and good price and return data, minus the one-month Treasury bill rate.',
  SMB: 'Small Minus Big: the average return on the small-stock portfolios minus the average return on the big-stock portfolios of the size sorts (in the 2x3 five-factor files, the average of the size premia of the book-to-market, operating profitability and investment sorts).',
  HML: 'High Minus Low: the average return on the two value portfolios (high book-to-market) minus the average return on the two growth portfolios (low book-to-market).',
  RMW: 'Robust Minus Weak: the average return on the two robust operating profitability portfolios minus the average return on the two weak operating profitability portfolios.',
  CMA: 'Conservative Minus Aggressive: the average return on the two conservative investment portfolios minus the average return on the two aggressive investment portfolios.',
  RF: 'The risk-free rate: the one-month Treasury bill rate (Ibbotson Associates). Not a factor to load on: the analytics subtract it to make excess returns.',
  Mom: 'Momentum: the average return on the two high prior-return portfolios minus the average return on the two low prior-return portfolios, prior return being that of months t−12 to t−2 (six value-weighted portfolios on size and prior return).',
};

const datasets: Record<string, { name: string; reference: string }> = {
  ff3: { name: 'Fama/French 3 factors', reference: 'Fama and French (1993), Common risk factors in the returns on stocks and bonds' },
  ff5: { name: 'Fama/French 5 factors (2x3)', reference: 'Fama and French (2015), A five-factor asset pricing model' },
  mom: { name: 'Momentum factor (Mom)', reference: 'Carhart (1997), On persistence in mutual fund performance; Jegadeesh and Titman (1993)' },
};

const frequencyOrder = ['daily', 'weekly', 'monthly', 'annual'];

export const factorUnits = 'percent per period, as the Kenneth R. French Data Library publishes them (1.25 is 1.25 %); a value the file marks missing (-99.99 or -999) is null';

/** Which datasets' daily returns each model of the analytics routes (`model`) reads. */
const analyticsDatasets: Record<ModelName, string[]> = { ff3: ['ff3'], ff5: ['ff5'], ff5_mom: ['ff5', 'mom'] };

export interface FactorSeries {
  frequency: string;
  source: MarketSource | null;
  firstPeriod: string;
  lastPeriod: string;
  firstDate: string;
  lastDate: string;
  /** periods held */
  observations: number;
  /** values the file marks missing, over all factors */
  missingValues: number;
}

export interface FactorModel {
  id: string;
  name: string;
  reference: string | null;
  factors: { name: string; definition: string | null }[];
  series: FactorSeries[];
  /** the analytics models (`model` of the portfolio and exposure routes) that read this dataset's daily returns */
  usedByAnalytics: string[];
}

export interface AnalyticsModel {
  id: ModelName;
  factors: string[];
  datasets: string[];
  /** from the latest first date to the earliest last date of the datasets' daily series: where every one has rows */
  firstDate: string | null;
  lastDate: string | null;
}

export function factorModels(ctx: Context): Promise<{ models: FactorModel[]; analyticsModels: AnalyticsModel[] }> {
  requireDataAccess(ctx);
  return ctx.cache.data.memo('catalog:factor-models', async () => {
    const [groups, files] = await Promise.all([
      ctx.prisma.factorReturn.groupBy({
        by: ['dataset', 'frequency', 'factor', 'sourceKey'],
        _count: { _all: true, value: true },
        _min: { date: true, period: true },
        _max: { date: true, period: true },
      }),
      marketFiles(ctx),
    ]);
    const byKey = new Map(files.map((f) => [f.sourceKey, f]));
    const found = new Map<string, { factors: string[]; series: Map<string, FactorSeries> }>();
    for (const g of groups) {
      const model = found.get(g.dataset) ?? found.set(g.dataset, { factors: [], series: new Map() }).get(g.dataset)!;
      if (!model.factors.includes(g.factor)) model.factors.push(g.factor);
      const first = { period: g._min.period!, date: isoDay(g._min.date)! };
      const last = { period: g._max.period!, date: isoDay(g._max.date)! };
      const held = model.series.get(g.frequency);
      if (!held) {
        model.series.set(g.frequency, { frequency: g.frequency, source: byKey.get(g.sourceKey) ?? null, firstPeriod: first.period, lastPeriod: last.period, firstDate: first.date, lastDate: last.date, observations: g._count._all, missingValues: g._count._all - g._count.value });
        continue;
      }
      if (first.date < held.firstDate) Object.assign(held, { firstPeriod: first.period, firstDate: first.date });
      if (last.date > held.lastDate) Object.assign(held, { lastPeriod: last.period, lastDate: last.date });
      held.observations = Math.max(held.observations, g._count._all);
      held.missingValues += g._count._all - g._count.value;
    }
    const factorOrder = Object.keys(definitions);
    const rank = (name: string) => (factorOrder.includes(name) ? factorOrder.indexOf(name) : factorOrder.length);
    const modelsHeld = [...found.entries()]
      .sort(([a], [b]) => (datasets[a] ? 0 : 1) - (datasets[b] ? 0 : 1) || a.localeCompare(b))
      .map(([id, m]) => ({
        id,
        name: datasets[id]?.name ?? id,
        reference: datasets[id]?.reference ?? null,
        factors: m.factors.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((name) => ({ name, definition: definitions[name] ?? null })),
        series: [...m.series.values()].sort((a, b) => frequencyOrder.indexOf(a.frequency) - frequencyOrder.indexOf(b.frequency)),
        usedByAnalytics: (Object.keys(analyticsDatasets) as ModelName[]).filter((model) => analyticsDatasets[model].includes(id)),
      }));
    const daily = (id: string) => found.get(id)?.series.get('daily');
    const analyticsModels = (Object.keys(models) as ModelName[]).map((id) => {
      const series = analyticsDatasets[id].map(daily);
      const complete = series.every((s) => s !== undefined);
      const firstDate = complete ? series.map((s) => s!.firstDate).sort().at(-1)! : null;
      const lastDate = complete ? series.map((s) => s!.lastDate).sort()[0]! : null;
      return { id, factors: [...models[id]], datasets: analyticsDatasets[id], firstDate: firstDate && lastDate && firstDate <= lastDate ? firstDate : null, lastDate: firstDate && lastDate && firstDate <= lastDate ? lastDate : null };
    });
    return { models: modelsHeld, analyticsModels };
  });
}

/* macro series ------------------------------------------------------------------------------- */

export interface MacroGap {
  from: string;
  to: string;
  /** expected observations in the run */
  missing: number;
  /** no_row: the file has no observation there; no_value: FRED wrote one without a value; mixed: both */
  kind: 'no_row' | 'no_value' | 'mixed';
}

export interface MacroSeriesSummary {
  seriesId: string;
  frequency: string;
  source: MarketSource | null;
  firstDate: string | null;
  lastDate: string | null;
  observations: number;
  missingValues: number;
  /** the cadence the gaps were found by, in words; null for an irregular series */
  cadence: string | null;
  expectedObservations: number | null;
  missingExpected: number | null;
  /** observations not on the cadence (not counted against it) */
  offCadence: number | null;
  gaps: MacroGap[] | null;
  gapsNullReason: string | null;
}

export const gapRule =
  'Expected dates run from a series\' first to its last observation at its cadence: a daily series with observations on weekends, every calendar day; another daily series, every weekday (Monday to Friday: FRED lists a business-daily series\' holidays as observations without a value); weekly, every 7 days from the first observation; monthly, the first day of every month; quarterly and annual, every 3rd and 12th month from the first observation. ' +
  'A gap is a run of consecutive expected dates without a value: no observation in the file (`no_row`), an observation FRED writes without a value (`.` or empty: `no_value`), or both (`mixed`); `missing` counts the expected dates in it. An observation off the cadence is counted in `offCadence`, not as a gap. An irregular series has no cadence, so no gaps are computed (`gapsNullReason`).';

const dayMs = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  return new Date(Date.UTC(Math.floor(total / 12), total % 12, d)).toISOString().slice(0, 10);
}

/** The cadence of a series: the next expected date after one, and the rule in words. Null for an irregular series. */
function cadenceOf(frequency: string, dates: string[]): { next: (date: string) => string; first: (date: string) => string; words: string } | null {
  switch (frequency) {
    case 'daily': {
      if (dates.some((d) => weekday(d) === 0 || weekday(d) === 6)) return { first: (d) => d, next: (d) => addDays(d, 1), words: 'every calendar day' };
      const weekdayOnOrAfter = (d: string) => (weekday(d) === 6 ? addDays(d, 2) : weekday(d) === 0 ? addDays(d, 1) : d);
      return { first: weekdayOnOrAfter, next: (d) => weekdayOnOrAfter(addDays(d, 1)), words: 'every weekday (Monday to Friday)' };
    }
    case 'weekly':
      return { first: (d) => d, next: (d) => addDays(d, 7), words: 'every 7 days from the first observation' };
    case 'monthly':
      return { first: (d) => `${d.slice(0, 7)}-01`, next: (d) => addMonths(d, 1), words: 'the first day of every month' };
    case 'quarterly':
      return { first: (d) => d, next: (d) => addMonths(d, 3), words: 'every 3rd month from the first observation' };
    case 'annual':
      return { first: (d) => d, next: (d) => addMonths(d, 12), words: 'every 12th month from the first observation' };
    default:
      return null;
  }
}

/** The gaps of one series' observations (oldest first) at its cadence. */
function gapsOf(frequency: string, observations: { date: string; hasValue: boolean }[]) {
  const dates = observations.map((o) => o.date);
  const cadence = cadenceOf(frequency, dates);
  if (!cadence || !observations.length) return null;
  const held = new Map(observations.map((o) => [o.date, o.hasValue]));
  const last = dates[dates.length - 1]!;
  const gaps: MacroGap[] = [];
  const expected = new Set<string>();
  let open: MacroGap | null = null;
  for (let date = cadence.first(dates[0]!); date <= last; date = cadence.next(date)) {
    expected.add(date);
    const value = held.get(date);
    if (value === true) {
      open = null;
      continue;
    }
    const kind = value === undefined ? 'no_row' : 'no_value';
    if (open) {
      open.to = date;
      open.missing += 1;
      if (open.kind !== kind) open.kind = 'mixed';
    } else gaps.push((open = { from: date, to: date, missing: 1, kind }));
  }
  return { words: cadence.words, expected: expected.size, missing: gaps.reduce((a, g) => a + g.missing, 0), offCadence: dates.filter((d) => !expected.has(d)).length, gaps };
}

export function macroSeriesCatalog(ctx: Context): Promise<MacroSeriesSummary[]> {
  requireDataAccess(ctx);
  return ctx.cache.data.memo('catalog:macro-series', async () => {
    const [series, files, rows] = await Promise.all([
      ctx.prisma.macroSeries.findMany({ orderBy: [{ seriesId: 'asc' }, { frequency: 'asc' }] }),
      marketFiles(ctx),
      ctx.prisma.macroObservation.findMany({ orderBy: [{ seriesId: 'asc' }, { frequency: 'asc' }, { date: 'asc' }], select: { seriesId: true, frequency: true, date: true, value: true } }),
    ]);
    const byKey = new Map(files.map((f) => [f.sourceKey, f]));
    const observations = new Map<string, { date: string; hasValue: boolean }[]>();
    for (const r of rows) {
      const key = `${r.seriesId}/${r.frequency}`;
      (observations.get(key) ?? observations.set(key, []).get(key)!).push({ date: isoDay(r.date)!, hasValue: r.value !== null });
    }
    return series.map((s): MacroSeriesSummary => {
      const held = observations.get(`${s.seriesId}/${s.frequency}`) ?? [];
      const found = gapsOf(s.frequency, held);
      return {
        seriesId: s.seriesId,
        frequency: s.frequency,
        source: byKey.get(s.sourceKey) ?? null,
        firstDate: isoDay(s.firstDate),
        lastDate: isoDay(s.lastDate),
        observations: s.observations,
        missingValues: s.missing,
        cadence: found?.words ?? null,
        expectedObservations: found?.expected ?? null,
        missingExpected: found?.missing ?? null,
        offCadence: found?.offCadence ?? null,
        gaps: found?.gaps ?? null,
        gapsNullReason: found ? null : held.length ? `not_derivable: a ${s.frequency} series has no cadence to expect observations by.` : 'not_covered: the series holds no observations.',
      };
    });
  });
}
