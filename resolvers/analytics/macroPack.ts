// The high-signal macro pack (GET /v1/macro/high-signal-pack): per FRED series held, the latest
// value with its changes, a drift forecast, the next observation estimated from the series'
// cadence and its staleness; and the growth/inflation regime. Every number cites the series and
// the observation dates it comes from. Deterministic: nothing reads today's clock.
import { ApiError } from '../../core/errors.ts';
import { requireDataAccess } from '../access.ts';
import type { Context } from '../context.ts';
import { heldSeries, monthly, sourcesByKey, yoy, type HeldSeries } from './macro.ts';

const DAY = 86_400_000;
const days = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export const coveredCountries = ['US'];

/** Series whose values are rates in percent: their changes are stated in points, every other series' in percent. */
const rateSeries = new Set(['UNRATE', 'DGS10', 'DFF', 'FEDFUNDS', 'DGS2', 'DGS3MO', 'T10Y2Y']);

export const regimeRule =
  'Growth trend: the mean of INDPRO\'s year-over-year change over its last 3 months with one, against the mean over the 3 months before; inflation trend: the same on CPIAUCSL. A trend is "up" when the later mean is strictly greater, else "down". Regime: growth up & inflation up = reflation; growth up & inflation down = goldilocks; growth down & inflation up = stagflation; growth down & inflation down = deflation.';

function changeOf(s: HeldSeries, from: { date: string; value: number } | undefined, to: { date: string; value: number }) {
  if (!from) return null;
  const points = rateSeries.has(s.seriesId);
  return {
    value: points ? to.value - from.value : from.value === 0 ? null : (to.value / from.value - 1) * 100,
    units: points ? 'points' : 'percent',
    from: { seriesId: s.seriesId, date: from.date, value: from.value },
    to: { seriesId: s.seriesId, date: to.date, value: to.value },
  };
}

const regimeNames = { 'up/up': 'reflation', 'up/down': 'goldilocks', 'down/up': 'stagflation', 'down/down': 'deflation' } as const;
export type RegimeName = (typeof regimeNames)[keyof typeof regimeNames];

/** A trend of the regime rule, from a series' monthly levels: its last 6 year-over-year changes, the later 3 months' mean against the earlier 3's; null with fewer than 6. */
export function yoyTrend(levels: Map<string, number>, seriesId: string) {
  const changes = [...yoy(levels)].sort(([a], [b]) => (a < b ? -1 : 1)).slice(-6);
  if (changes.length < 6) return null;
  const lastMean = mean(changes.slice(3).map(([, v]) => v));
  const previousMean = mean(changes.slice(0, 3).map(([, v]) => v));
  return {
    seriesId,
    direction: lastMean > previousMean ? ('up' as const) : ('down' as const),
    last3MonthsMeanYoY: lastMean,
    previous3MonthsMeanYoY: previousMean,
    months: changes.map(([month, value]) => ({ month, yoy: value })),
  };
}
export type YoyTrend = NonNullable<ReturnType<typeof yoyTrend>>;

/** The regime of a growth and an inflation trend, by regimeRule. */
export const regimeOf = (growth: YoyTrend, inflation: YoyTrend): RegimeName => regimeNames[`${growth.direction}/${inflation.direction}`];

/** The pack's trend: each month also names the two observations its change compares. */
function trend(s: HeldSeries) {
  const t = yoyTrend(monthly(s), s.seriesId);
  return t && { ...t, months: t.months.map((m) => ({ ...m, observationDates: [`${m.month}-01`, `${Number(m.month.slice(0, 4)) - 1}${m.month.slice(4)}-01`] })) };
}

export async function highSignalPack(ctx: Context, country: string) {
  requireDataAccess(ctx);
  const code = country.trim().toUpperCase();
  if (!coveredCountries.includes(code)) {
    throw new ApiError('country_not_covered', `No macro data of ${country} is held; the pack covers ${coveredCountries.join(', ')}.`, { details: { parameter: 'country', acceptedValues: coveredCountries } });
  }
  const held = await ctx.prisma.macroSeries.findMany({ orderBy: [{ seriesId: 'asc' }, { frequency: 'asc' }] });
  const all = await Promise.all(held.map((h) => heldSeries(ctx, h.seriesId, h.frequency)));
  const series = all.filter((s) => s.points.length > 0);
  const sources = new Map((await sourcesByKey(ctx, series.map((s) => s.sourceKey))).map((s) => [s.sourceKey, s]));
  const newest = series.reduce((d, s) => (s.points[s.points.length - 1]!.date > d ? s.points[s.points.length - 1]!.date : d), '');

  const entries = series.map((s) => {
    const points = s.points;
    const latest = points[points.length - 1]!;
    const previous = points[points.length - 2];
    const yearAgoDate = `${Number(latest.date.slice(0, 4)) - 1}${latest.date.slice(4)}`;
    const yearAgo = [...points].reverse().find((p) => p.date <= yearAgoDate);
    const gaps = points.slice(1).map((p, i) => days(points[i]!.date, p.date)).sort((a, b) => a - b);
    const medianGap = gaps.length ? (gaps.length % 2 ? gaps[(gaps.length - 1) / 2]! : (gaps[gaps.length / 2 - 1]! + gaps[gaps.length / 2]!) / 2) : null;
    const nextDate = medianGap === null ? null : addDays(latest.date, Math.round(medianGap));
    const tail = points.slice(-13);
    const drift = tail.length >= 2 ? (tail[tail.length - 1]!.value - tail[0]!.value) / (tail.length - 1) : null;
    const source = sources.get(s.sourceKey);
    return {
      seriesId: s.seriesId,
      frequency: s.frequency,
      latest: { value: latest.value, date: latest.date, seriesId: s.seriesId },
      changeFromPrevious: changeOf(s, previous, latest),
      changeFromYearEarlier: changeOf(s, yearAgo, latest),
      forecast:
        drift === null || nextDate === null
          ? null
          : {
              method: 'drift',
              rule: `next value = last value + the mean change over the last ${tail.length - 1} changes ((x_last − x_first) / ${tail.length - 1} over the ${tail.length} latest observations)`,
              value: latest.value + drift,
              forDate: nextDate,
              meanChange: drift,
              basedOn: { seriesId: s.seriesId, from: tail[0]!.date, to: latest.date, observations: tail.length },
            },
      nextObservation:
        nextDate === null
          ? null
          : { date: nextDate, estimated: true, method: `last observation date + the median gap between observation dates (${medianGap} days); the files carry no release calendar`, medianGapDays: medianGap, lastObservationDate: latest.date, seriesId: s.seriesId },
      source: {
        seriesId: s.seriesId,
        lastObservationDate: latest.date,
        stalenessDays: days(latest.date, newest),
        sourceKey: s.sourceKey,
        fileName: source?.fileName ?? null,
        vintage: source?.vintage ?? null,
        vintageNote: source?.vintageNote ?? null,
      },
    };
  });

  const growth = series.find((s) => s.seriesId === 'INDPRO' && s.frequency === 'monthly');
  const inflation = series.find((s) => s.seriesId === 'CPIAUCSL' && s.frequency === 'monthly');
  const growthTrend = growth ? trend(growth) : null;
  const inflationTrend = inflation ? trend(inflation) : null;
  const regime = {
    name: growthTrend && inflationTrend ? regimeOf(growthTrend, inflationTrend) : null,
    rule: regimeRule,
    growth: growthTrend,
    inflation: inflationTrend,
    ...(growthTrend && inflationTrend ? {} : { reason: 'INDPRO and CPIAUCSL (monthly) with at least 18 months of history are needed.' }),
  };

  return {
    country: code,
    asOf: newest || null,
    asOfRule: 'The newest observation date across the pack; staleness is measured against it, not against today\'s clock, so the same data always gives the same answer.',
    changeUnits: `Changes of rates (${[...rateSeries].filter((id) => series.some((s) => s.seriesId === id)).join(', ')}) are in percentage points; changes of every other series in percent.`,
    regime,
    series: entries,
  };
}
