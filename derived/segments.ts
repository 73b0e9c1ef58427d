// Revenue by segment, from the dimensional facts of a company's filings (XBRL instance or
// inline XBRL; companyfacts carries no dimensions). Axes are grouped into product lines,
// geographic areas and operating segments. Shares, margins and growth rates are exact
// decimal divisions rounded half away from zero to 4 decimal places (0.5130 = 51.30%).
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { lineItems } from './concepts.ts';
import { addDecimals, compareDecimals, divideDecimals, parseDecimal, subtractDecimals } from '../core/decimal.ts';
import { durationDays, selectLatest, sourceOf, type FactSource, type Selected } from './statements.ts';

export type AxisKind = 'product' | 'geographic' | 'operating';
export type SegmentConfidence = 'reported' | 'low_confidence';

export interface SegmentMember {
  /** the member as tagged, e.g. aapl:IPhoneMember, country:US */
  member: string;
  revenue: string;
  fact: FactSource;
  /** the value as first filed, when a later filing changed it */
  restatedFrom: FactSource | null;
  /** revenue / consolidated revenue, 4 decimal places; null without a consolidated total */
  shareOfTotal: string | null;
  /**
   * false for a subtotal of other members (Apple's Products = iPhone + Mac + iPad + Wearables),
   * which is left out so that the breakdown adds up to the total once
   */
  inBreakdown: boolean;
  operatingIncome: string | null;
  operatingIncomeFact: FactSource | null;
  /** operating income / revenue, 4 decimal places */
  operatingMargin: string | null;
  /** the member's revenue in the same period a year earlier */
  priorRevenue: string | null;
  priorFact: FactSource | null;
  /** revenue / prior revenue − 1, 4 decimal places */
  yoyGrowth: string | null;
}

export interface SegmentPeriod {
  periodStart: string;
  periodEnd: string;
  /** the revenue tag the members are reported with */
  revenueTag: string;
  unit: string;
  /** the consolidated (non-dimensional) revenue of the period, same tag */
  total: { value: string; fact: FactSource } | null;
  /** the sum of the members in the breakdown */
  breakdownSum: string;
  confidence: SegmentConfidence;
  /** why the period is or is not a reliable breakdown */
  reason: string;
  members: SegmentMember[];
}

export interface SegmentAxis {
  axis: string;
  kind: AxisKind;
  /** reported only when every period's members add up to its consolidated total */
  confidence: SegmentConfidence;
  /** most recent first */
  periods: SegmentPeriod[];
}

export interface SegmentReport {
  rounding: string;
  axes: SegmentAxis[];
}

const axisKinds: Record<string, AxisKind> = {
  'srt:ProductOrServiceAxis': 'product',
  'us-gaap:ProductOrServiceAxis': 'product',
  'srt:StatementGeographicalAxis': 'geographic',
  'us-gaap:StatementGeographicalAxis': 'geographic',
  'us-gaap:StatementBusinessSegmentsAxis': 'operating',
};

// Segment tables often qualify each segment fact as the operating-segment column of a
// reconciliation; that qualifier does not change what the number is.
const consolidationAxis = 'srt:ConsolidationItemsAxis';
const operatingSegmentsMember = 'us-gaap:OperatingSegmentsMember';

const revenueTags = lineItems.find((item) => item.key === 'revenue')!.candidates.map((ref) => `${ref.taxonomy}:${ref.tag}`);
const operatingIncomeTags = lineItems.find((item) => item.key === 'operatingIncome')!.candidates.map((ref) => `${ref.taxonomy}:${ref.tag}`);

const ratioPlaces = 4;
export const segmentRounding = `shares, margins and growth are exact ratios rounded half away from zero to ${ratioPlaces} decimal places`;
/** Subsets are searched exhaustively (2^n sums) up to this many members. */
const maxSubsetSearch = 16;

interface SegmentFacts {
  /** `${tag}|${unit}|${start}|${end}` -> member -> plain facts, and qualified ones kept apart */
  plain: Map<string, Map<string, FactRecord[]>>;
  qualified: Map<string, Map<string, FactRecord[]>>;
}

function periodKey(tagKey: string, unit: string, start: string | null, end: string): string {
  return `${tagKey}|${unit}|${start ?? ''}|${end}`;
}

function addTo(map: Map<string, Map<string, FactRecord[]>>, key: string, member: string, fact: FactRecord): void {
  let members = map.get(key);
  if (!members) map.set(key, (members = new Map()));
  const list = members.get(member);
  if (list) list.push(fact);
  else members.set(member, [fact]);
}

/** The segment axis a fact reports on, if it is a plain (or operating-segment-qualified) segment fact. */
function segmentAxisOf(fact: FactRecord): { axis: string; member: string; qualified: boolean } | null {
  const axes = Object.keys(fact.dimensions);
  if (axes.length === 0 || axes.length > 2) return null;
  const axis = axes.find((candidate) => candidate in axisKinds);
  if (!axis) return null;
  if (axes.length === 2) {
    const other = axes.find((candidate) => candidate !== axis)!;
    if (other !== consolidationAxis || fact.dimensions[other] !== operatingSegmentsMember) return null;
  }
  return { axis, member: fact.dimensions[axis], qualified: axes.length === 2 };
}

export function buildSegments(facts: readonly FactRecord[]): SegmentReport {
  const wanted = new Set([...revenueTags, ...operatingIncomeTags]);
  const byAxis = new Map<string, SegmentFacts>();
  const totals = new Map<string, FactRecord[]>();
  for (const fact of facts) {
    if (fact.periodStart === null) continue;
    const tagKey = `${fact.taxonomy}:${fact.tag}`;
    if (!wanted.has(tagKey)) continue;
    const key = periodKey(tagKey, fact.unit, fact.periodStart, fact.periodEnd);
    if (Object.keys(fact.dimensions).length === 0) {
      const list = totals.get(key);
      if (list) list.push(fact);
      else totals.set(key, [fact]);
      continue;
    }
    const segment = segmentAxisOf(fact);
    if (!segment) continue;
    let axisFacts = byAxis.get(segment.axis);
    if (!axisFacts) byAxis.set(segment.axis, (axisFacts = { plain: new Map(), qualified: new Map() }));
    addTo(segment.qualified ? axisFacts.qualified : axisFacts.plain, key, segment.member, fact);
  }

  const axes: SegmentAxis[] = [];
  for (const [axis, axisFacts] of byAxis) {
    const periods = axisPeriods(axisFacts, totals);
    if (!periods.length) continue;
    addGrowth(periods, axisFacts);
    axes.push({
      axis,
      kind: axisKinds[axis],
      confidence: periods.every((period) => period.confidence === 'reported') ? 'reported' : 'low_confidence',
      periods,
    });
  }
  const kindOrder: AxisKind[] = ['product', 'geographic', 'operating'];
  axes.sort((a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind) || a.axis.localeCompare(b.axis));
  return { rounding: segmentRounding, axes };
}

/** A member's facts for one tag and period: plain ones, or else operating-segment-qualified ones. */
function memberFacts(axisFacts: SegmentFacts, key: string): Map<string, Selected> {
  const chosen = new Map<string, Selected>();
  for (const source of [axisFacts.plain, axisFacts.qualified]) {
    for (const [member, reports] of source.get(key) ?? []) if (!chosen.has(member)) chosen.set(member, selectLatest(reports));
  }
  return chosen;
}

function axisPeriods(axisFacts: SegmentFacts, totals: Map<string, FactRecord[]>): SegmentPeriod[] {
  // For each period, the highest-priority revenue tag the members use.
  const periodTags = new Map<string, { tagKey: string; unit: string; start: string; end: string }>();
  for (const key of new Set([...axisFacts.plain.keys(), ...axisFacts.qualified.keys()])) {
    const [tagKey, unit, start, end] = key.split('|');
    if (!revenueTags.includes(tagKey)) continue;
    const period = `${start}|${end}`;
    const current = periodTags.get(period);
    if (!current || revenueTags.indexOf(tagKey) < revenueTags.indexOf(current.tagKey)) periodTags.set(period, { tagKey, unit, start, end });
  }

  const periods: SegmentPeriod[] = [];
  for (const { tagKey, unit, start, end } of periodTags.values()) {
    const revenue = memberFacts(axisFacts, periodKey(tagKey, unit, start, end));
    const totalReports = totals.get(periodKey(tagKey, unit, start, end));
    const total = totalReports ? selectLatest(totalReports) : null;
    const breakdown = chooseBreakdown([...revenue].map(([member, selected]) => ({ member, selected })), total);
    const operatingIncome = new Map<string, Selected>();
    for (const incomeTag of operatingIncomeTags) {
      for (const [member, selected] of memberFacts(axisFacts, periodKey(incomeTag, unit, start, end))) if (!operatingIncome.has(member)) operatingIncome.set(member, selected);
    }
    const members: SegmentMember[] = [...revenue].map(([member, selected]) => {
      const income = operatingIncome.get(member) ?? null;
      return {
        member,
        revenue: selected.value,
        fact: sourceOf(selected.fact),
        restatedFrom: selected.original ? sourceOf(selected.original) : null,
        shareOfTotal: total ? divideDecimals(selected.value, total.value, ratioPlaces) : null,
        inBreakdown: breakdown.members.has(member),
        operatingIncome: income?.value ?? null,
        operatingIncomeFact: income ? sourceOf(income.fact) : null,
        operatingMargin: income ? divideDecimals(income.value, selected.value, ratioPlaces) : null,
        priorRevenue: null,
        priorFact: null,
        yoyGrowth: null,
      };
    });
    // Largest first, subtotals after the breakdown they summarize.
    members.sort((a, b) => Number(b.inBreakdown) - Number(a.inBreakdown) || compareDecimals(b.revenue, a.revenue));
    periods.push({
      periodStart: start,
      periodEnd: end,
      revenueTag: tagKey,
      unit,
      total: total ? { value: total.value, fact: sourceOf(total.fact) } : null,
      breakdownSum: breakdown.sum,
      confidence: breakdown.confidence,
      reason: breakdown.reason,
      members,
    });
  }
  periods.sort((a, b) => b.periodEnd.localeCompare(a.periodEnd) || a.periodStart.localeCompare(b.periodStart));
  return periods;
}

// ---------------------------------------------------------------------------------------------
// Which members make up the total

interface Breakdown {
  members: Set<string>;
  sum: string;
  confidence: SegmentConfidence;
  reason: string;
}

function chooseBreakdown(values: Array<{ member: string; selected: Selected }>, total: Selected | null): Breakdown {
  const everyone = new Set(values.map((v) => v.member));
  const sumOf = (indexes: number[]) => addDecimals(...indexes.map((i) => values[i].selected.value));
  const all = values.map((_, i) => i);
  if (values.length === 1) {
    return { members: everyone, sum: values[0].selected.value, confidence: 'low_confidence', reason: 'only one member is reported on this axis' };
  }
  if (!total) {
    return { members: everyone, sum: sumOf(all), confidence: 'low_confidence', reason: 'no consolidated total is reported for this period with the same tag' };
  }
  // Compare as integers of one scale; each member and the total may be off by half a unit of
  // their last reported digit ("within rounding").
  const facts = [...values.map(({ selected }) => selected.fact), total.fact];
  const places = Math.max(...facts.map((fact) => parseDecimal(fact.value).places), ...facts.map((fact) => decimalPlaces(fact.decimals) + 1));
  const scaled = (value: string) => {
    const d = parseDecimal(value);
    return d.digits * 10n ** BigInt(places - d.places);
  };
  const amounts = values.map(({ selected }) => scaled(selected.value));
  const target = scaled(total.value);
  const slack = facts.reduce((sum, fact) => sum + halfUnit(fact.decimals, places), 0n);
  const fits = (sum: bigint) => (sum > target ? sum - target : target - sum) <= slack;

  if (fits(amounts.reduce((a, b) => a + b, 0n))) {
    return { members: everyone, sum: sumOf(all), confidence: 'reported', reason: 'the members add up to the consolidated total' };
  }
  const subset = values.length <= maxSubsetSearch ? largestFittingSubset(amounts, fits) : null;
  if (subset && subset.length >= 2) {
    const left = all.filter((i) => !subset.includes(i)).map((i) => values[i].member);
    return {
      members: new Set(subset.map((i) => values[i].member)),
      sum: sumOf(subset),
      confidence: 'reported',
      reason: `the members add up to the consolidated total without ${left.join(', ')}, which ${left.length === 1 ? 'is a subtotal' : 'are subtotals'} of the others`,
    };
  }
  return {
    members: everyone,
    sum: sumOf(all),
    confidence: 'low_confidence',
    reason: `the members add up to ${sumOf(all)}, not the consolidated total ${total.value}, and no combination of them does`,
  };
}

/** The decimals attribute as a count of places; 0 when absent, exact (INF) or negative. */
function decimalPlaces(decimals: string | null): number {
  const d = decimals === null ? NaN : Number(decimals);
  return Number.isInteger(d) && d > 0 ? d : 0;
}

/** Half a unit of the last reported digit (decimals = -6: 500000), in units of 10^-places. */
function halfUnit(decimals: string | null, places: number): bigint {
  const d = decimals === null ? NaN : Number(decimals);
  if (!Number.isInteger(d) || d >= places) return 0n;
  return 5n * 10n ** BigInt(places - d - 1);
}

/** The subset with the most members whose sum fits; sums are built mask by mask from smaller masks. */
function largestFittingSubset(amounts: bigint[], fits: (sum: bigint) => boolean): number[] | null {
  const n = amounts.length;
  const sums = new Array<bigint>(1 << n);
  sums[0] = 0n;
  let best = 0;
  let bestSize = 0;
  for (let mask = 1; mask < 1 << n; mask += 1) {
    const low = mask & -mask;
    sums[mask] = sums[mask ^ low] + amounts[31 - Math.clz32(low)];
    const size = popcount(mask);
    if (size > bestSize && fits(sums[mask])) {
      best = mask;
      bestSize = size;
    }
  }
  if (!bestSize) return null;
  return amounts.map((_, i) => i).filter((i) => best & (1 << i));
}

function popcount(mask: number): number {
  let count = 0;
  for (let m = mask; m; m &= m - 1) count += 1;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Year-over-year growth

/** Each member against the same member in the period of the same length ending a year earlier. */
function addGrowth(periods: SegmentPeriod[], axisFacts: SegmentFacts): void {
  for (const period of periods) {
    const length = durationDays(period.periodStart, period.periodEnd);
    const prior = periods.find((candidate) => {
      const gap = durationDays(candidate.periodEnd, period.periodEnd) - 1;
      return gap >= 350 && gap <= 380 && Math.abs(durationDays(candidate.periodStart, candidate.periodEnd) - length) <= 10;
    });
    if (!prior) continue;
    // The prior year as reported with this period's tag when the filer changed tags in between.
    const sameTag = memberFacts(axisFacts, periodKey(period.revenueTag, period.unit, prior.periodStart, prior.periodEnd));
    for (const member of period.members) {
      const before = sameTag.get(member.member);
      const priorRevenue = before?.value ?? prior.members.find((m) => m.member === member.member)?.revenue ?? null;
      if (priorRevenue === null) continue;
      member.priorRevenue = priorRevenue;
      member.priorFact = before ? sourceOf(before.fact) : prior.members.find((m) => m.member === member.member)!.fact;
      member.yoyGrowth = divideDecimals(subtractDecimals(member.revenue, priorRevenue), priorRevenue, ratioPlaces);
    }
  }
}
