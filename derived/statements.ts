// Income statement, balance sheet and cash-flow statement of one company, from its facts.
// Pure: facts in, statements out. Every value is the exact filed text (or exact decimal
// arithmetic on filed texts, for derived quarters) and names the fact(s) behind it.
//
// Periods are found from the facts' dates, not from their fy/fp: companyfacts stamps every fact
// with the fiscal year of the filing that reported it, so the FY2022 comparative in Apple's
// FY2024 10-K says fy=2024. A fiscal year is a ~1-year duration; its label comes from the
// filing whose own year it is; quarters are placed by their end date inside that year.
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { lineItems, lineItemsOf, type LineItem, type StatementKind } from './concepts.ts';
import { compareDecimals, roundToDecimals, subtractDecimals } from '../core/decimal.ts';

export interface FactSource {
  taxonomy: string;
  tag: string;
  value: string;
  accessionNumber: string;
  form: string | null;
  filedAt: string | null;
  periodStart: string | null;
  periodEnd: string;
  /** the XBRL `decimals` as filed (-6: to the million), null where the source does not carry them (companyfacts) */
  decimals: string | null;
}

export type MissingReason = 'not_reported' | 'not_covered' | 'not_derivable';

export interface DerivationTerm {
  sign: '+' | '-';
  /** FY, Q1..Q3, or the year-to-date span: "6M YTD", "9M YTD" */
  term: string;
  fact: FactSource;
}

export interface StatementLine {
  key: string;
  label: string;
  value: string | null;
  unit: string | null;
  /** the fact behind a reported value: the first filing that reported the current value */
  fact: FactSource | null;
  /** the value as first filed, when a later filing changed it (statements of latest values) */
  restatedFrom: FactSource | null;
  /** the value a later filing changed it to (statements of values as first reported) */
  restatedTo: FactSource | null;
  derived: boolean;
  /** for derived quarters: the arithmetic and the facts it used */
  derivation: { formula: string; terms: DerivationTerm[] } | null;
  missing: MissingReason | null;
  /** why a quarter could not be derived, when that is not plain absence */
  note: string | null;
}

export interface StatementPeriod {
  fiscalYear: number;
  fiscalPeriod: 'FY' | 'Q1' | 'Q2' | 'Q3' | 'Q4';
  periodStart: string;
  periodEnd: string;
  income: Record<string, StatementLine>;
  balanceSheet: Record<string, StatementLine>;
  cashFlow: Record<string, StatementLine>;
}

export interface StatementBundle {
  period: 'annual' | 'quarterly';
  asReported: AsReported;
  /** the taxonomy the company's statements use: us-gaap or ifrs-full */
  taxonomy: 'us-gaap' | 'ifrs-full' | null;
  /** the reporting currency: the currency of most of the statement facts */
  currency: string | null;
  /** most recent first */
  periods: StatementPeriod[];
}

/**
 * Which version of a restated value a statement shows: `latest`, the standing value (a later
 * filing's restatement replaces what was first filed), or `first`, each value as first filed
 * (what the market saw at the time; a restatement is then shown beside it, not in its place).
 */
export type AsReported = 'first' | 'latest';

export interface StatementOptions {
  period: 'annual' | 'quarterly';
  limit: number;
  /** default `latest` */
  asReported?: AsReported;
}

// ---------------------------------------------------------------------------------------------
// Dates

const dayMs = 86_400_000;

// Facts share few distinct dates; remembering them keeps calendar work off the profile.
const dayNumbers = new Map<string, number>();

function dayNumber(date: string): number {
  let day = dayNumbers.get(date);
  if (day === undefined) {
    day = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / dayMs;
    dayNumbers.set(date, day);
  }
  return day;
}

function dateOf(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

export function durationDays(start: string, end: string): number {
  return dayNumber(end) - dayNumber(start) + 1;
}

const isAnnual = (days: number) => days >= 340 && days <= 390;
const isQuarter = (days: number) => days >= 75 && days <= 105;

// ---------------------------------------------------------------------------------------------
// Choosing among re-reported facts

function precision(decimals: string | null): number {
  if (decimals === null) return -Infinity;
  return decimals === 'INF' ? Infinity : Number(decimals);
}

/** Oldest filing first; within one filing, the more precise of two roundings last. */
function byFiling(a: FactRecord, b: FactRecord): number {
  const filed = (a.filedAt ?? '').localeCompare(b.filedAt ?? '');
  if (filed) return filed;
  const accession = a.accessionNumber.localeCompare(b.accessionNumber);
  return accession || precision(a.decimals) - precision(b.decimals);
}

export function sourceOf(fact: FactRecord): FactSource {
  return {
    taxonomy: fact.taxonomy,
    tag: fact.tag,
    value: fact.value,
    accessionNumber: fact.accessionNumber,
    form: fact.form,
    filedAt: fact.filedAt,
    periodStart: fact.periodStart,
    periodEnd: fact.periodEnd,
    decimals: fact.decimals,
  };
}

export interface Selected {
  /** the most recently filed value */
  value: string;
  /** the first filing that reported that value (later filings that repeat it add nothing) */
  fact: FactRecord;
  /** the value as first filed, when it differs */
  original: FactRecord | null;
  /** the most recent filing that reported the value shown (as first filed: the filing that first reported it) */
  lastReported: FactRecord;
  /** as first reported: the value a later filing changed it to */
  restatedTo: FactRecord | null;
}

/**
 * Two reports of one figure agree when the finer one, rounded to the coarser one's `decimals`,
 * is the coarser one: MRVL's 4,462,383,000 filed first and 4,462,400,000 (to $0.1M) filed later
 * are one figure, not a restatement.
 */
export function agreeAtPrecision(a: FactRecord, b: FactRecord): boolean {
  const [coarse, fine] = statedPrecision(a) <= statedPrecision(b) ? [a, b] : [b, a];
  return compareDecimals(roundToDecimals(fine.value, statedPrecision(coarse)), coarse.value) === 0;
}

/**
 * A fact's precision: its XBRL `decimals`, or, where the source does not carry them (companyfacts
 * does not), what the value's own digits state: 4462400000 is stated to the hundred thousand
 * (-5), 6.11 to the cent (2). Fewer than three trailing zeros are read as exact: filers state
 * rounded amounts in thousands or coarser, and 50 restated to 45 is a restatement.
 */
function statedPrecision(fact: FactRecord): number {
  if (fact.decimals !== null) return precision(fact.decimals);
  const [whole, fraction = ''] = fact.value.replace(/^[+-]/, '').split('.');
  if (fraction.replace(/0+$/, '')) return fraction.replace(/0+$/, '').length;
  const zeros = whole!.length - whole!.replace(/0+$/, '').length;
  return whole === '0' || zeros < 3 ? 0 : -zeros;
}

/**
 * Facts that report the same thing (tag, unit, period, dimensions), in filing order. The value is
 * the latest filing's, unless the latest only rounds an earlier, more precise one: then the more
 * precise value stands. A restatement is a later value that does not agree at its precision.
 */
export function selectLatest(reports: readonly FactRecord[]): Selected {
  const sorted = [...reports].sort(byFiling);
  let current = sorted[0]!;
  let first = 0;
  let original: FactRecord | null = null;
  sorted.forEach((report, i) => {
    if (i === 0) return;
    if (agreeAtPrecision(current, report)) {
      if (statedPrecision(report) > statedPrecision(current)) current = report; // a finer report of the same figure
      return;
    }
    original ??= sorted[0]!;
    current = report;
    first = i;
  });
  // the first filing that reported the standing value (later ones that repeat it add nothing)
  const firstOfValue = sorted.findIndex((r, i) => i >= first && compareDecimals(r.value, current.value) === 0);
  return { value: current.value, fact: sorted[firstOfValue >= 0 ? firstOfValue : first]!, original, lastReported: sorted[sorted.length - 1]!, restatedTo: null };
}

/**
 * The same figure as first reported: the first filing's value, with the standing one beside it
 * when a later filing restated it. Refinements that agree at precision are not restatements, so
 * they leave the first value (or its finer report) standing as `selectLatest` does.
 */
export function selectFirst(reports: readonly FactRecord[]): Selected {
  return firstOf(selectLatest(reports));
}

/** The figure as first reported, from its standing selection (`selectLatest` of the same reports). */
function firstOf(standing: Selected): Selected {
  if (!standing.original) return standing;
  return { value: standing.original.value, fact: standing.original, original: null, lastReported: standing.original, restatedTo: standing.fact };
}

// ---------------------------------------------------------------------------------------------
// The company's statement facts, indexed by tag, unit and period

const mappedTags = new Set(lineItems.flatMap((item) => item.candidates.map((ref) => `${ref.taxonomy}:${ref.tag}`)));

/**
 * A company's statement facts, indexed once for every statement built from them (annual and
 * quarterly, latest and as first reported): each figure's standing selection is made once and
 * kept, and the as-first-reported one is read off it.
 */
class FactIndex {
  private readonly byKey = new Map<string, FactRecord[]>();
  /** 3-month facts by tag, unit and end date */
  private readonly quartersByEnd = new Map<string, FactRecord[]>();
  /** tag -> facts, for finding periods and for "does the company report this at all" */
  readonly byTag = new Map<string, FactRecord[]>();
  /** tag|unit of every fact: whether the company reports a tag in a unit at all */
  private readonly tagUnits = new Set<string>();
  /** selectLatest of the reports under a key of byKey (null: none), as chosen so far */
  private readonly chosen = new Map<string, Selected | null>();
  /** the same for quartersByEnd */
  private readonly chosenQuarters = new Map<string, Selected | null>();

  constructor(facts: readonly FactRecord[]) {
    for (const fact of facts) {
      const tagKey = `${fact.taxonomy}:${fact.tag}`;
      if (!mappedTags.has(tagKey)) continue;
      // Statement lines are the consolidated totals: no dimensions.
      if (Object.keys(fact.dimensions).length) continue;
      push(this.byTag, tagKey, fact);
      this.tagUnits.add(`${tagKey}|${fact.unit}`);
      push(this.byKey, FactIndex.key(tagKey, fact.unit, fact.periodStart, fact.periodEnd), fact);
      if (fact.periodStart !== null && isQuarter(durationDays(fact.periodStart, fact.periodEnd))) {
        push(this.quartersByEnd, FactIndex.key(tagKey, fact.unit, null, fact.periodEnd), fact);
      }
    }
  }

  static key(tagKey: string, unit: string, start: string | null, end: string): string {
    return `${tagKey}|${unit}|${start ?? ''}|${end}`;
  }

  reports(tagKey: string, unit: string | null): boolean {
    return unit !== null && this.tagUnits.has(`${tagKey}|${unit}`);
  }

  find(tagKey: string, unit: string, start: string | null, end: string, asReported: AsReported): Selected | null {
    // most candidate tags of a line are ones the company never uses
    if (!this.byTag.has(tagKey)) return null;
    const key = FactIndex.key(tagKey, unit, start, end);
    let standing = this.chosen.get(key);
    if (standing === undefined) {
      const reports = this.byKey.get(key);
      standing = reports ? selectLatest(reports) : null;
      this.chosen.set(key, standing);
    }
    return standing && asReported === 'first' ? firstOf(standing) : standing;
  }

  /** 3-month facts ending on `end` (their start dates vary by a day or two across filers). */
  findQuarter(tagKey: string, unit: string, end: string, asReported: AsReported): Selected | null {
    if (!this.byTag.has(tagKey)) return null;
    const key = FactIndex.key(tagKey, unit, null, end);
    let standing = this.chosenQuarters.get(key);
    if (standing === undefined) {
      const reports = this.quartersByEnd.get(key);
      standing = null;
      if (reports) {
        // Two different starts for the same end would be two different quarters: take the commonest.
        const start = mostCommon(reports.map((fact) => fact.periodStart!));
        standing = selectLatest(reports.filter((fact) => fact.periodStart === start));
      }
      this.chosenQuarters.set(key, standing);
    }
    return standing && asReported === 'first' ? firstOf(standing) : standing;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function mostCommon<T>(values: readonly T[]): T {
  const counts = new Map<T, number>();
  let best = values[0];
  for (const value of values) {
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (count > (counts.get(best) ?? 0)) best = value;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// The fiscal calendar

interface FiscalYear {
  fy: number;
  start: string;
  /** null for the year in progress (after the last annual report) */
  end: string | null;
}

interface FiscalQuarter {
  fy: number;
  quarter: 1 | 2 | 3 | 4;
  year: FiscalYear;
  start: string;
  end: string;
  /** the end dates of the year's earlier quarters, Q1 first */
  earlierEnds: Array<string | null>;
}

function fiscalYears(facts: readonly FactRecord[]): FiscalYear[] {
  const annualStarts = new Map<string, string[]>();
  // The fiscal year a filing is about: its fy, and the latest annual period it reports.
  const filingYears = new Map<string, { fy: number; end: string }>();
  for (const fact of facts) {
    if (fact.periodStart === null || !isAnnual(durationDays(fact.periodStart, fact.periodEnd))) continue;
    push(annualStarts, fact.periodEnd, fact.periodStart);
    if (fact.fp === 'FY' && fact.fy !== null) {
      const filing = filingYears.get(fact.accessionNumber);
      if (!filing || fact.periodEnd > filing.end) filingYears.set(fact.accessionNumber, { fy: fact.fy, end: fact.periodEnd });
    }
  }
  const labelsByEnd = new Map<string, number[]>();
  for (const { fy, end } of filingYears.values()) push(labelsByEnd, end, fy);
  // Years no filing in hand is about keep the filer's convention: fiscal year = the calendar
  // year a week before the year ends, plus an offset (Apple: 0; a retailer ending 1 Feb: -1).
  const calendarYear = (end: string) => Number(dateOf(dayNumber(end) - 7).slice(0, 4));
  const offsets = [...labelsByEnd].map(([end, labels]) => mostCommon(labels) - calendarYear(end));
  const offset = offsets.length ? mostCommon(offsets) : 0;

  const years: FiscalYear[] = [];
  for (const end of [...annualStarts.keys()].sort()) {
    const labels = labelsByEnd.get(end);
    const year = { fy: labels ? mostCommon(labels) : calendarYear(end) + offset, start: mostCommon(annualStarts.get(end)!), end };
    const previous = years[years.length - 1];
    // An odd twelve-month span overlapping a real fiscal year (a transition or pro-forma period)
    // gives way to the one a filing is about.
    if (previous && dayNumber(end) - dayNumber(previous.end!) < 300) {
      if (labels && !labelsByEnd.has(previous.end!)) years[years.length - 1] = year;
      continue;
    }
    if (previous && previous.fy === year.fy) continue;
    years.push(year);
  }
  const last = years[years.length - 1];
  if (last) years.push({ fy: last.fy + 1, start: dateOf(dayNumber(last.end!) + 1), end: null });
  return years;
}

function fiscalQuarters(years: readonly FiscalYear[], facts: readonly FactRecord[]): FiscalQuarter[] {
  const quarters: FiscalQuarter[] = [];
  const durations = facts.filter((fact) => fact.periodStart !== null);
  for (const year of years) {
    const yearStart = dayNumber(year.start);
    const yearEnd = year.end ? dayNumber(year.end) : yearStart + 371;
    // Quarter ends: where year-to-date spans from the year's start end, and where 3-month spans end.
    const endsByQuarter = new Map<number, string[]>();
    for (const fact of durations) {
      const end = dayNumber(fact.periodEnd);
      if (end <= yearStart || end >= yearEnd) continue;
      const days = durationDays(fact.periodStart!, fact.periodEnd);
      const isYearToDate = fact.periodStart === year.start && days < 340;
      if (!isYearToDate && !isQuarter(days)) continue;
      const quarter = Math.round((end - yearStart + 1) / 91.3);
      if (quarter >= 1 && quarter <= 3) push(endsByQuarter, quarter, fact.periodEnd);
    }
    const ends: Array<string | null> = [1, 2, 3].map((q) => (endsByQuarter.has(q) ? mostCommon(endsByQuarter.get(q)!) : null));
    ends.push(year.end);
    for (let q = 1; q <= 4; q += 1) {
      const end = ends[q - 1];
      if (!end) continue;
      const previousEnd = q === 1 ? null : ends[q - 2];
      const start = q === 1 ? year.start : previousEnd ? dateOf(dayNumber(previousEnd) + 1) : null;
      if (!start) continue;
      quarters.push({ fy: year.fy, quarter: q as FiscalQuarter['quarter'], year, start, end, earlierEnds: ends.slice(0, q - 1) });
    }
  }
  return quarters;
}

// ---------------------------------------------------------------------------------------------
// Lines

interface CompanyProfile {
  taxonomy: 'us-gaap' | 'ifrs-full' | null;
  currency: string | null;
}

function companyProfile(index: FactIndex): CompanyProfile {
  const taxonomies: string[] = [];
  const currencies: string[] = [];
  for (const [tagKey, facts] of index.byTag) {
    const taxonomy = tagKey.slice(0, tagKey.indexOf(':'));
    for (const fact of facts) {
      taxonomies.push(taxonomy);
      if (/^[A-Z]{3}$/.test(fact.unit)) currencies.push(fact.unit);
    }
  }
  return {
    taxonomy: taxonomies.length ? (mostCommon(taxonomies) as CompanyProfile['taxonomy']) : null,
    currency: currencies.length ? mostCommon(currencies) : null,
  };
}

function unitFor(item: LineItem, currency: string | null): string | null {
  if (item.measure === 'shares') return 'shares';
  if (!currency) return null;
  return item.measure === 'perShare' ? `${currency}/shares` : currency;
}

/** A line item's candidate tags as index keys, made once: every line of every period asks for them. */
const candidateTagKeys = new WeakMap<LineItem, string[]>();

class LineBuilder {
  constructor(
    private readonly index: FactIndex,
    private readonly profile: CompanyProfile,
    private readonly asReported: AsReported,
  ) {}

  private tagKeys(item: LineItem): string[] {
    let keys = candidateTagKeys.get(item);
    if (!keys) candidateTagKeys.set(item, (keys = item.candidates.map((ref) => `${ref.taxonomy}:${ref.tag}`)));
    return keys;
  }

  /** Why a line has no value, when it has none. */
  private missingReason(item: LineItem, unit: string | null, whenReported: MissingReason): MissingReason {
    if (!this.profile.taxonomy || !item.candidates.some((ref) => ref.taxonomy === this.profile.taxonomy)) return 'not_covered';
    const reported = this.tagKeys(item).some((tagKey) => this.index.reports(tagKey, unit));
    return reported ? whenReported : 'not_reported';
  }

  private empty(item: LineItem, unit: string | null, missing: MissingReason): StatementLine {
    return { key: item.key, label: item.label, value: null, unit, fact: null, restatedFrom: null, restatedTo: null, derived: false, derivation: null, missing, note: null };
  }

  private reported(item: LineItem, unit: string, selected: Selected): StatementLine {
    return {
      key: item.key,
      label: item.label,
      value: selected.value,
      unit,
      fact: sourceOf(selected.fact),
      restatedFrom: selected.original ? sourceOf(selected.original) : null,
      restatedTo: selected.restatedTo ? sourceOf(selected.restatedTo) : null,
      derived: false,
      derivation: null,
      missing: null,
      note: null,
    };
  }

  /** A value for exactly this period (a fiscal year, or a balance at an instant). */
  exact(item: LineItem, start: string | null, end: string): StatementLine {
    const unit = unitFor(item, this.profile.currency);
    if (unit) {
      for (const tagKey of this.tagKeys(item)) {
        const selected = this.index.find(tagKey, unit, start, end, this.asReported);
        if (selected) return this.reported(item, unit, selected);
      }
    }
    return this.empty(item, unit, this.missingReason(item, unit, 'not_reported'));
  }

  /** A 3-month flow: as reported, else derived from same-tag year-to-date and quarter facts. */
  quarter(item: LineItem, quarter: FiscalQuarter): StatementLine {
    const unit = unitFor(item, this.profile.currency);
    if (unit) {
      for (const tagKey of this.tagKeys(item)) {
        const selected = this.index.findQuarter(tagKey, unit, quarter.end, this.asReported);
        if (selected) return this.reported(item, unit, selected);
      }
      if (item.additive) {
        let note: string | null = null;
        for (const tagKey of this.tagKeys(item)) {
          const derived = this.derive(item, unit, tagKey, quarter);
          if (derived && 'value' in derived) return derived;
          note ??= derived?.note ?? null;
        }
        if (note) return { ...this.empty(item, unit, 'not_derivable'), note };
      }
    }
    return this.empty(item, unit, this.missingReason(item, unit, 'not_derivable'));
  }

  /**
   * Quarter q = cumulative(q) − cumulative(j) − the discrete quarters between, where cumulative
   * is the fiscal-year-to-date value (cumulative(4) = FY, cumulative(1) = Q1) and all terms use
   * one tag. Tried first with the latest year-to-date value available (FY − 9M YTD; 9M YTD − 6M
   * YTD; 6M YTD − Q1), then with j = 0 (FY − Q1 − Q2 − Q3, from discrete quarters).
   */
  private derive(item: LineItem, unit: string, tagKey: string, quarter: FiscalQuarter): StatementLine | { note: string } | null {
    const q = quarter.quarter;
    const cumulative = (k: number): { selected: Selected; term: string } | null => {
      const end = k === q ? quarter.end : quarter.earlierEnds[k - 1];
      if (!end) return null;
      if (k === 1) {
        const first = this.index.findQuarter(tagKey, unit, end, this.asReported);
        return first && first.fact.periodStart === quarter.year.start ? { selected: first, term: 'Q1' } : null;
      }
      const selected = this.index.find(tagKey, unit, quarter.year.start, end, this.asReported);
      if (!selected) return null;
      return { selected, term: k === 4 ? 'FY' : `${k * 3}M YTD` };
    };
    const discrete = (k: number): Selected | null => {
      const end = quarter.earlierEnds[k - 1];
      return end ? this.index.findQuarter(tagKey, unit, end, this.asReported) : null;
    };
    const total = cumulative(q);
    if (!total) return null;
    // The latest year-to-date first (FY − 9M YTD uses two reported figures where FY − Q1 − Q2 − Q3
    // uses four, and each rounding of the four adds up); the discrete quarters only without it.
    for (const j of [...Array.from({ length: q - 1 }, (_, i) => q - 1 - i), 0]) {
      const base = j === 0 ? null : cumulative(j);
      if (j > 0 && !base) continue;
      const between: Array<{ selected: Selected; term: string }> = [];
      for (let k = j + 1; k < q; k += 1) {
        const selected = discrete(k);
        if (!selected) break;
        between.push({ selected, term: `Q${k}` });
      }
      if (between.length !== q - 1 - j) continue;
      const subtracted = [...(base ? [base] : []), ...between];
      const mixed = mixedVintage([total, ...subtracted]);
      if (mixed) return { note: mixed };
      const terms: DerivationTerm[] = [
        { sign: '+', term: total.term, fact: sourceOf(total.selected.fact) },
        ...subtracted.map(({ selected, term }) => ({ sign: '-' as const, term, fact: sourceOf(selected.fact) })),
      ];
      return {
        key: item.key,
        label: item.label,
        value: subtractDecimals(total.selected.value, ...subtracted.map(({ selected }) => selected.value)),
        unit,
        fact: null,
        restatedFrom: null,
        restatedTo: null,
        derived: true,
        derivation: { formula: [total.term, ...subtracted.map(({ term }) => term)].join(' − '), terms },
        missing: null,
        note: null,
      };
    }
    return null;
  }
}

/**
 * Terms of a subtraction must be on one basis. When one term was restated, every other term
 * must have been reported again on or after the restating filing; otherwise a restated FY minus
 * 9 months as first reported would make a quarter no filing ever showed.
 */
function mixedVintage(terms: Array<{ selected: Selected; term: string }>): string | null {
  for (const restated of terms) {
    if (!restated.selected.original) continue;
    const restatedOn = restated.selected.fact.filedAt ?? '';
    const stale = terms.find((other) => other !== restated && (other.selected.lastReported.filedAt ?? '') < restatedOn);
    if (stale) {
      return `${restated.term} was restated by ${restated.selected.fact.accessionNumber} (filed ${restatedOn}); ${stale.term} was last reported before that (${stale.selected.lastReported.accessionNumber}), so subtracting them would mix bases`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------

const statementKinds: StatementKind[] = ['income', 'balanceSheet', 'cashFlow'];

/** Statements of ONE company, most recent period first, at most `limit` periods. */
export function buildStatements(facts: readonly FactRecord[], options: StatementOptions): StatementBundle {
  return statementsOf(companyOf(facts), options);
}

/**
 * Statements of ONE company in as many variants (basis, as reported, limit) as asked of the
 * function it returns, each what buildStatements builds for it: the facts are indexed, the profile
 * and fiscal calendar found, and each figure chosen among its reports once for all of them.
 */
export function companyStatements(facts: readonly FactRecord[]): (options: StatementOptions) => StatementBundle {
  const company = companyOf(facts);
  return (options) => statementsOf(company, options);
}

interface Company {
  index: FactIndex;
  profile: CompanyProfile;
  statementFacts: FactRecord[];
  years: FiscalYear[];
  /** found when a quarterly variant first asks */
  quarters?: FiscalQuarter[];
}

function companyOf(facts: readonly FactRecord[]): Company {
  const index = new FactIndex(facts);
  const statementFacts = [...index.byTag.values()].flat();
  return { index, profile: companyProfile(index), statementFacts, years: fiscalYears(statementFacts) };
}

function statementsOf(company: Company, options: StatementOptions): StatementBundle {
  const { index, profile, statementFacts, years } = company;
  const asReported = options.asReported ?? 'latest';
  const lines = new LineBuilder(index, profile, asReported);
  const periods: StatementPeriod[] = [];

  const statementsFor = (fill: (item: LineItem) => StatementLine) => {
    const result = {} as Record<StatementKind, Record<string, StatementLine>>;
    for (const kind of statementKinds) result[kind] = Object.fromEntries(lineItemsOf(kind).map((item) => [item.key, fill(item)]));
    return result;
  };

  if (options.period === 'annual') {
    for (const year of years) {
      if (!year.end) continue;
      const end = year.end;
      const statements = statementsFor((item) => (item.statement === 'balanceSheet' ? lines.exact(item, null, end) : lines.exact(item, year.start, end)));
      periods.push({ fiscalYear: year.fy, fiscalPeriod: 'FY', periodStart: year.start, periodEnd: end, ...statements });
    }
  } else {
    for (const quarter of (company.quarters ??= fiscalQuarters(years, statementFacts))) {
      const statements = statementsFor((item) => (item.statement === 'balanceSheet' ? lines.exact(item, null, quarter.end) : lines.quarter(item, quarter)));
      periods.push({ fiscalYear: quarter.fy, fiscalPeriod: `Q${quarter.quarter}`, periodStart: quarter.start, periodEnd: quarter.end, ...statements });
    }
  }
  periods.sort((a, b) => b.periodEnd.localeCompare(a.periodEnd));
  return { period: options.period, asReported, taxonomy: profile.taxonomy, currency: profile.currency, periods: periods.slice(0, Math.max(0, options.limit)) };
}
