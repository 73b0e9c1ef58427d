// The country report (POST /v1/intelligence/country-report): a dense briefing built by fixed,
// stated rules from the high-signal macro pack (GET /v1/macro/high-signal-pack) as that route
// computes it. Every statement cites the FRED observations it rests on (series, date, value, file,
// vintage). Deterministic: the pack's `asOf` is its newest observation, never today's clock, and
// every rule reads only the pack and the observations it cites.
import type { Context } from '../context.ts';
import { heldSeries, shiftMonth, sourcesByKey } from './macro.ts';
import { highSignalPack, type RegimeName } from './macroPack.ts';

export const reportMethod = 'country_report_rules';
export const reportVersion = '1';

/** A stale series: more days behind the pack's `asOf` than this many of its median gaps, and at least `staleFloorDays`. */
const staleGaps = 2;
const staleFloorDays = 90;
/** An estimated next observation dated within this many days after `asOf` (or before it) is a watch item. */
const upcomingDays = 30;
/** Only series observed at most this often (median gap in days, at least) get an upcoming-observation watch item. */
const upcomingMinGapDays = 28;
/** A regime trend whose two 3-month means of year-over-year change differ by less than this (points) is marginal. */
const marginalPoints = 0.1;

/** Drivers are listed in this order of series; a series not named here comes after, by series id. */
const driverOrder = ['CPIAUCSL', 'PCE', 'INDPRO', 'GDPC1', 'GDP', 'RSAFS', 'UNRATE', 'DFF', 'FEDFUNDS', 'DGS10', 'UMCSENT'];

const labels: Record<string, string> = {
  CPIAUCSL: 'CPI (all urban consumers, index)',
  PCE: 'Personal consumption expenditures (USD bn, SAAR)',
  INDPRO: 'Industrial production (index)',
  GDPC1: 'Real GDP (chained USD bn, SAAR)',
  GDP: 'Nominal GDP (USD bn, SAAR)',
  RSAFS: 'Retail and food services sales (USD m)',
  UNRATE: 'Unemployment rate (%)',
  DFF: 'Effective fed funds rate (%)',
  FEDFUNDS: 'Fed funds rate (%)',
  DGS10: '10-year Treasury yield (%)',
  UMCSENT: 'University of Michigan consumer sentiment (index)',
};

/** What each growth/inflation quadrant has tended to mean for asset classes: a fixed table, not a forecast. */
const regimeImplications: Record<RegimeName, string[]> = {
  reflation: [
    'Reflation quadrant (growth and inflation trends both up): cyclical and value equities, commodities and other real assets have tended to lead; long-duration nominal bonds have tended to lag as yields rise.',
    'Reflation quadrant: policy rates have tended to be held or raised; shorter duration and inflation-linked bonds have tended to hold up better than long nominal bonds.',
  ],
  goldilocks: [
    'Goldilocks quadrant (growth trend up, inflation trend down): equities broadly, growth and quality styles in particular, have tended to do well; credit spreads have tended to stay tight.',
    'Goldilocks quadrant: easing inflation has tended to leave room for stable or lower policy rates, a neutral-to-positive backdrop for duration.',
  ],
  stagflation: [
    'Stagflation quadrant (growth trend down, inflation trend up): historically the hardest quadrant for both equities and long nominal bonds; real assets, short duration and defensive, quality equities have tended to hold up best.',
    'Stagflation quadrant: policy is constrained (inflation argues against cuts while growth slows); inflation-linked bonds and cash have tended to beat nominal duration.',
  ],
  deflation: [
    'Deflation quadrant (growth and inflation trends both down; not necessarily falling prices): high-quality nominal government bonds (duration) have tended to lead; defensive sectors have tended to beat cyclicals and credit spreads to widen.',
    'Deflation quadrant: easing inflation with slowing growth has tended to bring policy-rate cuts, supporting duration over cash.',
  ],
};

/** Bands of the real 10-year yield (DGS10 − CPI year-over-year, points) and what each reads as: a fixed table. */
const realYieldBands: { min: number; reading: string }[] = [
  { min: 2, reading: 'clearly restrictive: long real rates are high, a headwind for long-duration equities and housing' },
  { min: 1, reading: 'moderately restrictive: positive long real rates' },
  { min: 0, reading: 'roughly neutral: long real rates near zero' },
  { min: -Infinity, reading: 'accommodative: negative long real rates' },
];

export const reportRules = [
  { id: 'D1', section: 'keyDrivers', rule: `One driver per series of the pack that is not stale (rule W1) and has a change from a year earlier: its latest value and date, its change from a year earlier and from the previous observation (rates in points, other series in percent, as the pack states them). Series in the order ${driverOrder.join(', ')}, then any other by series id.` },
  { id: 'D2', section: 'keyDrivers', rule: 'For the regime\'s series (CPIAUCSL for inflation, INDPRO for growth): the year-over-year change of the latest month and its change over 3 months (latest month − the month 3 months before, in points), from the pack\'s regime months; cites the four observations used.' },
  { id: 'W1', section: 'watchItems', rule: `A series is stale when its latest observation is more than max(${staleFloorDays}, ${staleGaps} × its median gap between observations) days before the pack\'s asOf (the pack\'s stalenessDays); each stale series is a watch item, and is left out of the drivers.` },
  { id: 'W2', section: 'watchItems', rule: `A series that is not stale, observed at most every ${upcomingMinGapDays} days (median gap), whose next observation the pack estimates (last date + median gap; estimated, the files carry no release calendar) on or before asOf + ${upcomingDays} days is a watch item: a new reading is due.` },
  { id: 'W3', section: 'watchItems', rule: `A regime trend is marginal when its last and previous 3-month means of year-over-year change differ by less than ${marginalPoints} points: a small revision could flip the regime.` },
  { id: 'W4', section: 'watchItems', rule: 'The 6 months of a regime trend (the pack\'s regime months) that are not consecutive calendar months: the months missing from the file are named, citing the observations either side of each gap.' },
  { id: 'I1', section: 'implications', rule: 'The pack\'s regime quadrant (its rule is the pack\'s regime.rule) maps to fixed statements: ' + Object.entries(regimeImplications).map(([name, texts]) => `${name}: "${texts.join(' ')}"`).join('; ') + '.' },
  { id: 'I2', section: 'implications', rule: 'When DGS10 and CPIAUCSL are both not stale: the real 10-year yield ≈ DGS10 latest − CPIAUCSL change from a year earlier (points), read by fixed bands: ' + realYieldBands.map((b) => `≥ ${b.min === -Infinity ? '−∞' : b.min}: ${b.reading}`).join('; ') + '.' },
  { id: 'S1', section: 'summary', rule: 'One statement: the regime and its trend directions, the latest inflation and growth year-over-year changes, and how many drivers and watch items (stale series) there are.' },
];

export interface Citation {
  seriesId: string;
  frequency: string;
  date: string;
  value: number;
  /** what the observation is to the statement: latest, previous, year_earlier, … */
  role: string;
  sourceKey: string;
  fileName: string | null;
  vintage: string | null;
}

export interface Figure {
  name: string;
  value: number;
  units: string;
}

export interface Statement {
  rule: string;
  text: string;
  figures: Figure[];
  citations: Citation[];
}

type Pack = Awaited<ReturnType<typeof highSignalPack>>;
type Entry = Pack['series'][number];

const fixed = (x: number, digits = 2) => (Object.is(Math.round(x * 10 ** digits) / 10 ** digits, -0) ? 0 : x).toFixed(digits);
const signed = (x: number, digits = 2) => `${x > 0 && Number(fixed(x, digits)) !== 0 ? '+' : ''}${fixed(x, digits)}`;
const direction = (x: number) => (x > 0 ? 'up' : x < 0 ? 'down' : 'unchanged');
const unitText = (units: string) => (units === 'points' ? 'pp' : '%');
const DAY = 86_400_000;
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const label = (seriesId: string) => labels[seriesId] ?? seriesId;

function isStale(e: Entry): boolean {
  const gap = e.nextObservation?.medianGapDays ?? 0;
  return e.source.stalenessDays > Math.max(staleFloorDays, staleGaps * gap);
}

function orderOf(seriesId: string) {
  const i = driverOrder.indexOf(seriesId);
  return i === -1 ? driverOrder.length : i;
}

/** Builds the report from the pack of `country` (404 country_not_covered, naming what is covered, as the pack answers). */
export async function countryReport(ctx: Context, country: string) {
  const pack = await highSignalPack(ctx, country);

  // The values of observations the regime rests on, by series and date (the pack states the dates).
  const regimeSeries = [pack.regime.growth, pack.regime.inflation].filter((t) => t !== null);
  const observed = new Map(await Promise.all(regimeSeries.map(async (t) => [t.seriesId, new Map((await heldSeries(ctx, t.seriesId, 'monthly')).points.map((p) => [p.date, p.value]))] as const)));

  const entryOf = (seriesId: string, frequency?: string) => pack.series.find((s) => s.seriesId === seriesId && (!frequency || s.frequency === frequency));
  const cite = (e: Entry, o: { date: string; value: number }, role: string): Citation => ({
    seriesId: e.seriesId,
    frequency: e.frequency,
    date: o.date,
    value: o.value,
    role,
    sourceKey: e.source.sourceKey,
    fileName: e.source.fileName,
    vintage: e.source.vintage,
  });
  /** A monthly observation the regime used, cited from the held values (null when not held). */
  const citeObserved = (seriesId: string, date: string, role: string): Citation | null => {
    const e = entryOf(seriesId, 'monthly');
    const value = observed.get(seriesId)?.get(date);
    return e && value !== undefined ? cite(e, { date, value }, role) : null;
  };

  const stale = pack.series.filter(isStale);
  const fresh = pack.series.filter((e) => !isStale(e));

  // --- key drivers ---
  const keyDrivers: Statement[] = [];
  const sortedFresh = [...fresh].sort((a, b) => orderOf(a.seriesId) - orderOf(b.seriesId) || (a.seriesId < b.seriesId ? -1 : a.seriesId > b.seriesId ? 1 : 0) || (a.frequency < b.frequency ? -1 : 1));
  for (const e of sortedFresh) {
    const year = e.changeFromYearEarlier;
    if (!year || year.value === null) continue;
    const prev = e.changeFromPrevious;
    const rate = year.units === 'points';
    const level = `${e.latest.value}${rate ? ' %' : ''}`;
    const parts = [`${label(e.seriesId)} [${e.seriesId}, ${e.frequency}]: ${level} on ${e.latest.date}`, `${signed(year.value)} ${unitText(year.units)} over the year (from ${year.from.value} on ${year.from.date})`];
    const figures: Figure[] = [{ name: 'latest', value: e.latest.value, units: 'level' }, { name: 'changeFromYearEarlier', value: year.value, units: year.units }];
    const citations = [cite(e, e.latest, 'latest'), cite(e, year.from, 'year_earlier')];
    if (prev && prev.value !== null) {
      parts.push(`${signed(prev.value)} ${unitText(prev.units)} on the previous observation (${prev.from.value} on ${prev.from.date})`);
      figures.push({ name: 'changeFromPrevious', value: prev.value, units: prev.units });
      if (prev.from.date !== year.from.date) citations.push(cite(e, prev.from, 'previous'));
    }
    keyDrivers.push({ rule: 'D1', text: `${parts.join('; ')}.`, figures, citations });
  }
  for (const [what, t] of [['Inflation', pack.regime.inflation], ['Growth', pack.regime.growth]] as const) {
    if (!t || !t.months.length) continue;
    const last = t.months[t.months.length - 1]!;
    const before = t.months.find((m) => m.month === shiftMonth(last.month, -3));
    if (!before) continue;
    const citations = [
      citeObserved(t.seriesId, last.observationDates[0]!, 'latest_month'),
      citeObserved(t.seriesId, last.observationDates[1]!, 'latest_month_year_earlier'),
      citeObserved(t.seriesId, before.observationDates[0]!, 'three_months_earlier'),
      citeObserved(t.seriesId, before.observationDates[1]!, 'three_months_earlier_year_earlier'),
    ];
    if (citations.some((c) => c === null)) continue;
    const yoy = last.yoy * 100;
    const shift = (last.yoy - before.yoy) * 100;
    keyDrivers.push({
      rule: 'D2',
      text: `${what} [${t.seriesId}]: year over year ${fixed(yoy)} % as of ${last.month}, ${direction(shift)} ${fixed(Math.abs(shift))} pp over 3 months (from ${fixed(before.yoy * 100)} % in ${before.month}).`,
      figures: [
        { name: 'yoy', value: yoy, units: 'percent' },
        { name: 'yoyThreeMonthsEarlier', value: before.yoy * 100, units: 'percent' },
        { name: 'changeOverThreeMonths', value: shift, units: 'points' },
      ],
      citations: citations as Citation[],
    });
  }

  // --- watch items ---
  const watchItems: Statement[] = [];
  for (const e of stale) {
    const gap = e.nextObservation?.medianGapDays ?? 0;
    watchItems.push({
      rule: 'W1',
      text: `${label(e.seriesId)} [${e.seriesId}, ${e.frequency}] is stale: its latest observation (${e.latest.value} on ${e.latest.date}) is ${e.source.stalenessDays} days before the pack's as-of ${pack.asOf} (limit ${Math.max(staleFloorDays, staleGaps * gap)} days); readings from ${e.source.fileName ?? e.source.sourceKey} may be out of date and are left out of the drivers.`,
      figures: [{ name: 'stalenessDays', value: e.source.stalenessDays, units: 'days' }],
      citations: [cite(e, e.latest, 'latest')],
    });
  }
  const horizon = pack.asOf ? addDays(pack.asOf, upcomingDays) : null;
  for (const e of fresh) {
    const next = e.nextObservation;
    if (!next || next.medianGapDays === null || !horizon || next.medianGapDays < upcomingMinGapDays || next.date > horizon) continue;
    const when = pack.asOf && next.date <= pack.asOf ? `on or before the pack's as-of ${pack.asOf} and not yet in the file` : `within ${upcomingDays} days of the pack's as-of ${pack.asOf}`;
    watchItems.push({
      rule: 'W2',
      text: `${label(e.seriesId)} [${e.seriesId}, ${e.frequency}]: next observation due, estimated to be dated ${next.date} (${e.latest.date} + median gap ${next.medianGapDays} days), ${when}; an estimate, the files carry no release calendar.`,
      figures: [{ name: 'medianGapDays', value: next.medianGapDays, units: 'days' }],
      citations: [cite(e, e.latest, 'latest')],
    });
  }
  for (const [what, t] of [['growth', pack.regime.growth], ['inflation', pack.regime.inflation]] as const) {
    if (!t) continue;
    const gap = (t.last3MonthsMeanYoY - t.previous3MonthsMeanYoY) * 100;
    if (Math.abs(gap) >= marginalPoints) continue;
    const citations = t.months.flatMap((m) => [citeObserved(t.seriesId, m.observationDates[0]!, `month_${m.month}`), citeObserved(t.seriesId, m.observationDates[1]!, `month_${m.month}_year_earlier`)]).filter((c) => c !== null);
    watchItems.push({
      rule: 'W3',
      text: `The ${what} trend [${t.seriesId}] is marginal: the last 3 months' mean year-over-year change (${fixed(t.last3MonthsMeanYoY * 100, 3)} %) is within ${marginalPoints} pp of the 3 months before (${fixed(t.previous3MonthsMeanYoY * 100, 3)} %); a small revision could flip the regime.`,
      figures: [{ name: 'trendGap', value: gap, units: 'points' }],
      citations,
    });
  }

  for (const [what, t] of [['growth', pack.regime.growth], ['inflation', pack.regime.inflation]] as const) {
    if (!t || t.months.length < 2) continue;
    const first = t.months[0]!.month;
    const last = t.months[t.months.length - 1]!.month;
    const have = new Set(t.months.map((m) => m.month));
    const missing: string[] = [];
    for (let m = first; m < last; m = shiftMonth(m, 1)) if (!have.has(m)) missing.push(m);
    if (!missing.length) continue;
    const around = t.months.filter((m, i) => missing.some((x) => (m.month < x && (t.months[i + 1]?.month ?? '') > x) || (m.month > x && (t.months[i - 1]?.month ?? '') < x)));
    watchItems.push({
      rule: 'W4',
      text: `The ${what} trend [${t.seriesId}] spans ${first} to ${last} with ${missing.length === 1 ? 'a month' : `${missing.length} months`} missing from the file (${missing.join(', ')}): its "3 months" are the latest months held, not consecutive calendar months; the regime call rests on a gap.`,
      figures: [{ name: 'missingMonths', value: missing.length, units: 'months' }],
      citations: around.map((m) => citeObserved(t.seriesId, m.observationDates[0]!, `month_${m.month}`)).filter((c) => c !== null),
    });
  }

  // --- implications ---
  const implications: Statement[] = [];
  const regime = pack.regime;
  const regimeCitations = regimeSeries.flatMap((t) => [citeObserved(t.seriesId, t.months[t.months.length - 1]!.observationDates[0]!, 'latest_month'), citeObserved(t.seriesId, t.months[t.months.length - 1]!.observationDates[1]!, 'latest_month_year_earlier')]).filter((c) => c !== null);
  if (regime.name && regime.growth && regime.inflation) {
    const trendCitations = [regime.growth, regime.inflation].flatMap((t) => t.months.flatMap((m) => [citeObserved(t.seriesId, m.observationDates[0]!, `month_${m.month}`), citeObserved(t.seriesId, m.observationDates[1]!, `month_${m.month}_year_earlier`)])).filter((c) => c !== null);
    const describe = (t: NonNullable<typeof regime.growth>) => `${t.seriesId} ${t.direction} (mean year-over-year change ${fixed(t.last3MonthsMeanYoY * 100)} % over the last 3 months against ${fixed(t.previous3MonthsMeanYoY * 100)} % the 3 months before)`;
    implications.push({
      rule: 'I1',
      text: `Regime: ${regime.name}, by the pack's rule: growth ${describe(regime.growth)}, inflation ${describe(regime.inflation)}.`,
      figures: [
        { name: 'growthLast3MonthsMeanYoY', value: regime.growth.last3MonthsMeanYoY * 100, units: 'percent' },
        { name: 'growthPrevious3MonthsMeanYoY', value: regime.growth.previous3MonthsMeanYoY * 100, units: 'percent' },
        { name: 'inflationLast3MonthsMeanYoY', value: regime.inflation.last3MonthsMeanYoY * 100, units: 'percent' },
        { name: 'inflationPrevious3MonthsMeanYoY', value: regime.inflation.previous3MonthsMeanYoY * 100, units: 'percent' },
      ],
      citations: trendCitations,
    });
    if (regimeCitations.length) for (const text of regimeImplications[regime.name]) implications.push({ rule: 'I1', text, figures: [], citations: regimeCitations });
  }
  const dgs10 = entryOf('DGS10');
  const cpi = entryOf('CPIAUCSL', 'monthly');
  if (dgs10 && cpi && !isStale(dgs10) && !isStale(cpi) && cpi.changeFromYearEarlier?.value != null) {
    const real = dgs10.latest.value - cpi.changeFromYearEarlier.value;
    const band = realYieldBands.find((b) => real >= b.min)!;
    implications.push({
      rule: 'I2',
      text: `Real 10-year yield ≈ ${fixed(real)} pp (DGS10 ${dgs10.latest.value} % on ${dgs10.latest.date} − CPI ${fixed(cpi.changeFromYearEarlier.value)} % over the year to ${cpi.latest.date}): ${band.reading}.`,
      figures: [{ name: 'realYield10y', value: real, units: 'points' }],
      citations: [cite(dgs10, dgs10.latest, 'latest'), cite(cpi, cpi.changeFromYearEarlier.to, 'latest'), cite(cpi, cpi.changeFromYearEarlier.from, 'year_earlier')],
    });
  }

  // --- summary ---
  const summary: Statement[] = [];
  const inflationDriver = keyDrivers.find((d) => d.rule === 'D2' && d.citations[0]!.seriesId === regime.inflation?.seriesId);
  const growthDriver = keyDrivers.find((d) => d.rule === 'D2' && d.citations[0]!.seriesId === regime.growth?.seriesId);
  const summaryCitations = [...(inflationDriver?.citations.slice(0, 2) ?? []), ...(growthDriver?.citations.slice(0, 2) ?? [])];
  if (summaryCitations.length) {
    const bits = [
      regime.name ? `${pack.country} as of ${pack.asOf}: ${regime.name} regime (growth ${regime.growth!.direction}, inflation ${regime.inflation!.direction})` : `${pack.country} as of ${pack.asOf}: no regime (${regime.reason ?? 'not enough history'})`,
      inflationDriver ? `inflation ${fixed(inflationDriver.figures[0]!.value)} % year over year (${direction(inflationDriver.figures[2]!.value)} ${fixed(Math.abs(inflationDriver.figures[2]!.value))} pp over 3 months)` : null,
      growthDriver ? `industrial production ${signed(growthDriver.figures[0]!.value)} % year over year` : null,
      `${keyDrivers.length} drivers, ${watchItems.length} watch items (${stale.length} stale series)`,
    ].filter((b) => b !== null);
    summary.push({
      rule: 'S1',
      text: `${bits.join('; ')}.`,
      figures: [],
      citations: summaryCitations,
    });
  }

  const result = {
    country: pack.country,
    asOf: pack.asOf,
    asOfRule: pack.asOfRule,
    method: reportMethod,
    version: reportVersion,
    basis: 'GET /v1/macro/high-signal-pack, computed for this request',
    regime: { name: regime.name, rule: regime.rule },
    rules: reportRules,
    summary,
    keyDrivers,
    watchItems,
    implications,
    sources: pack.series.map((s) => ({ seriesId: s.seriesId, frequency: s.frequency, sourceKey: s.source.sourceKey, fileName: s.source.fileName, vintage: s.source.vintage, vintageNote: s.source.vintageNote, lastObservationDate: s.source.lastObservationDate, stalenessDays: s.source.stalenessDays, stale: isStale(s) })),
  };
  return { result, sources: await sourcesByKey(ctx, pack.series.map((s) => s.source.sourceKey)) };
}
