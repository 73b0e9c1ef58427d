// Earnings: per company and fiscal quarter, the 8-K Item 2.02 earnings release joined
// with the quarter's reported revenue, net income and diluted EPS from the statements built from
// XBRL facts (derived/statements.ts, stored as StatementPeriod rows), and the change against the
// same quarter of the prior fiscal year. A derived Q4 (FY − 9M YTD) stays flagged as derived, with
// its formula, exactly as the statements flag it. There are no consensus estimates: the
// "surprise" is year over year.
import { citationUrl as buildCitationUrl, isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import { divideDecimals, subtractDecimals } from '../core/decimal.ts';
import { companyStatements } from './financials.ts';
import { cursorOffset, offsetCursor } from '../core/cursor.ts';
import type { StatementLine, StatementPeriod } from '../derived/statements.ts';

export interface EarningsMetric {
  value: string | null;
  unit: string | null;
  /** true for a quarter computed from other reported values (Q4 = FY − 9M YTD) */
  derived: boolean;
  derivation: string | null;
  missing: string | null;
  note: string | null;
  tag: string | null;
  accessionNumber: string | null;
  form: string | null;
  filedAt: string | null;
  citationUrl: string | null;
  priorYearValue: string | null;
  priorYearDerived: boolean | null;
  /** value − prior-year value, exact decimal */
  yoyChange: string | null;
  /** percent, 2 places; null when the prior-year value is zero or negative (a percent of it would mislead) or either is missing */
  yoyChangePercent: number | null;
  yoyNullReason: string | null;
}

export interface EarningsRelease {
  accessionNumber: string;
  form: string;
  filedAt: string | null;
  eventDate: string | null;
  items: string[];
  exhibitNumber: string | null;
  exhibitNullReason: string | null;
  /** the Item 2.02 text, when the 8-K document was ingested */
  excerpt: string | null;
  fromIndexOnly: boolean;
  citationUrl: string;
}

export interface EarningsQuarter {
  id: string;
  cik: string;
  fiscalYear: number | null;
  fiscalPeriod: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  release: EarningsRelease | null;
  releaseNullReason: string | null;
  currency: string | null;
  revenue: EarningsMetric | null;
  netIncome: EarningsMetric | null;
  epsDiluted: EarningsMetric | null;
  financialsNullReason: string | null;
  priorYearPeriodEnd: string | null;
}

/** A release belongs to the latest quarter that ended before it, when it came within this many days. */
const releaseWindowDays = 100;
const dayMs = 86_400_000;

function metricOf(cik: string, line: StatementLine | undefined, prior: StatementLine | undefined, hasPrior: boolean): EarningsMetric {
  const value = line?.value ?? null;
  const priorValue = prior?.value ?? null;
  let yoyChange: string | null = null;
  let yoyChangePercent: number | null = null;
  let yoyNullReason: string | null = null;
  if (value === null) yoyNullReason = 'No value for this quarter.';
  else if (!hasPrior) yoyNullReason = 'The same quarter of the prior fiscal year is not among the periods held.';
  else if (priorValue === null) yoyNullReason = `The prior-year quarter has no value (${prior?.missing ?? 'not_reported'}).`;
  else {
    yoyChange = subtractDecimals(value, priorValue);
    if (Number(priorValue) > 0) {
      const ratio = divideDecimals(yoyChange, priorValue, 6);
      yoyChangePercent = ratio === null ? null : Math.round(Number(ratio) * 10_000) / 100;
    } else yoyNullReason = 'The prior-year value is zero or negative: a percent change of it would mislead; yoyChange gives the difference.';
  }
  const fact = line?.fact ?? null;
  const accessionNumber = fact?.accessionNumber ?? line?.derivation?.terms[0]?.fact.accessionNumber ?? null;
  return {
    value,
    unit: line?.unit ?? null,
    derived: line?.derived ?? false,
    derivation: line?.derivation?.formula ?? null,
    missing: line?.missing ?? (line ? null : 'not_reported'),
    note: line?.note ?? null,
    tag: fact ? `${fact.taxonomy}:${fact.tag}` : null,
    accessionNumber,
    form: fact?.form ?? line?.derivation?.terms[0]?.fact.form ?? null,
    filedAt: fact?.filedAt ?? line?.derivation?.terms[0]?.fact.filedAt ?? null,
    citationUrl: accessionNumber ? buildCitationUrl(cik, accessionNumber) : null,
    priorYearValue: priorValue,
    priorYearDerived: prior ? prior.derived : null,
    yoyChange,
    yoyChangePercent,
    yoyNullReason,
  };
}

interface ReleaseFiling {
  accessionNumber: string;
  form: string;
  filedAt: Date | null;
  reportDate: Date | null;
  items: string[];
  primaryDocument: string | null;
}

/** Every quarter of a company, newest first, each with its release and figures. */
export async function companyEarnings(reader: DataReader, cik: string): Promise<{ quarters: EarningsQuarter[]; statementsReason: string | null }> {
  const { prisma } = reader;
  const [bundle, filings, events] = await Promise.all([
    companyStatements(reader, cik, 'quarterly', 400, 'latest', false), // its lines' citations are not served
    prisma.filing.findMany({ where: { cik, items: { has: '2.02' }, form: { startsWith: '8-K' } }, select: { accessionNumber: true, form: true, filedAt: true, reportDate: true, items: true, primaryDocument: true }, orderBy: [{ orderedAt: 'asc' }] }),
    prisma.filingEvent.findMany({ where: { cik, type: 'results_of_operations' }, select: { accessionNumber: true, eventDate: true, filedAt: true, fromIndexOnly: true, data: true } }),
  ]);
  // releases: the index's 8-Ks with Item 2.02, and documents the index does not know
  const releases = new Map<string, { filing: ReleaseFiling; excerpt: string | null; fromIndexOnly: boolean }>();
  for (const f of filings) releases.set(f.accessionNumber, { filing: f, excerpt: null, fromIndexOnly: true });
  for (const e of events) {
    if (!e.accessionNumber) continue;
    const excerpt = (e.data as { excerpt?: string }).excerpt ?? null;
    const held = releases.get(e.accessionNumber);
    if (held) Object.assign(held, { excerpt: held.excerpt ?? excerpt, fromIndexOnly: held.fromIndexOnly && e.fromIndexOnly });
    else releases.set(e.accessionNumber, { filing: { accessionNumber: e.accessionNumber, form: '8-K', filedAt: e.filedAt, reportDate: e.eventDate, items: ['2.02'], primaryDocument: null }, excerpt, fromIndexOnly: e.fromIndexOnly });
  }
  const releaseOf = (r: { filing: ReleaseFiling; excerpt: string | null; fromIndexOnly: boolean }): EarningsRelease => {
    const exhibit = r.excerpt?.match(/Exhibit\s+(99(?:\.\d+)?)/i)?.[1] ?? null;
    return {
      accessionNumber: r.filing.accessionNumber,
      form: r.filing.form,
      filedAt: isoDay(r.filing.filedAt),
      eventDate: isoDay(r.filing.reportDate),
      items: r.filing.items,
      exhibitNumber: exhibit,
      exhibitNullReason: exhibit
        ? null
        : r.excerpt
          ? 'The Item 2.02 text names no Exhibit 99 press release.'
          : `The 8-K document was not ingested: EDGAR's index lists its items (${r.filing.items.join(', ')}) but not its exhibits; the citation opens the filing.`,
      excerpt: r.excerpt,
      fromIndexOnly: r.fromIndexOnly && !r.excerpt,
      citationUrl: buildCitationUrl(cik, r.filing.accessionNumber, r.filing.primaryDocument),
    };
  };
  const releaseDay = (r: { filing: ReleaseFiling }) => (r.filing.reportDate ?? r.filing.filedAt)?.getTime() ?? null;

  const periods = bundle.periods.filter((p) => p.fiscalPeriod !== 'FY');
  const newestEndFirst = [...periods].sort((a, b) => b.periodEnd.localeCompare(a.periodEnd));
  const used = new Set<string>();
  const matched = new Map<string, EarningsRelease>();
  // each release goes to the latest quarter that ended before it, within the window
  for (const r of [...releases.values()].sort((a, b) => (releaseDay(a) ?? 0) - (releaseDay(b) ?? 0))) {
    const day = releaseDay(r);
    if (day === null) continue;
    const quarter = newestEndFirst.find((p) => new Date(p.periodEnd).getTime() < day);
    if (!quarter || day - new Date(quarter.periodEnd).getTime() > releaseWindowDays * dayMs || matched.has(quarter.periodEnd)) continue;
    matched.set(quarter.periodEnd, releaseOf(r));
    used.add(r.filing.accessionNumber);
  }
  const firstRelease = Math.min(...[...releases.values()].map((r) => releaseDay(r) ?? Infinity));
  const quarterOf = (fy: number, fp: string) => periods.find((p) => p.fiscalYear === fy && p.fiscalPeriod === fp);
  const quarters: EarningsQuarter[] = periods.map((p: StatementPeriod) => {
    const prior = quarterOf(p.fiscalYear - 1, p.fiscalPeriod);
    const release = matched.get(p.periodEnd) ?? null;
    const end = new Date(p.periodEnd).getTime();
    return {
      id: `${cik}:${p.fiscalYear}${p.fiscalPeriod}`,
      cik,
      fiscalYear: p.fiscalYear,
      fiscalPeriod: p.fiscalPeriod,
      periodStart: p.periodStart,
      periodEnd: p.periodEnd,
      release,
      releaseNullReason: release
        ? null
        : !releases.size
          ? 'No 8-K with Item 2.02 of this company is in the filings held.'
          : end + releaseWindowDays * dayMs < firstRelease
            ? 'The quarter ended before the earliest 8-K Item 2.02 in the filings held (the submissions index held covers later years).'
            : `No 8-K with Item 2.02 came within ${releaseWindowDays} days after the quarter ended, in the filings held.`,
      currency: bundle.currency,
      revenue: metricOf(cik, p.income.revenue, prior?.income.revenue, !!prior),
      netIncome: metricOf(cik, p.income.netIncome, prior?.income.netIncome, !!prior),
      epsDiluted: metricOf(cik, p.income.epsDiluted, prior?.income.epsDiluted, !!prior),
      financialsNullReason: null,
      priorYearPeriodEnd: prior?.periodEnd ?? null,
    };
  });
  // releases no quarter held can take: shown on their own, figures null with the reason
  const reason = bundle.emptyReason ?? 'No quarter of the statements held ended within the window before this release.';
  for (const r of releases.values()) {
    if (used.has(r.filing.accessionNumber)) continue;
    const release = releaseOf(r);
    quarters.push({
      id: `${cik}:release:${r.filing.accessionNumber}`,
      cik,
      fiscalYear: null,
      fiscalPeriod: null,
      periodStart: null,
      periodEnd: null,
      release,
      releaseNullReason: null,
      currency: bundle.currency,
      revenue: null,
      netIncome: null,
      epsDiluted: null,
      financialsNullReason: bundle.periods.length ? `${reason} Without XBRL facts for the period the release reports, its quarter and figures are not stated.` : reason,
      priorYearPeriodEnd: null,
    });
  }
  const sortKey = (q: EarningsQuarter) => q.periodEnd ?? q.release?.eventDate ?? q.release?.filedAt ?? '';
  quarters.sort((a, b) => sortKey(b).localeCompare(sortKey(a)) || b.id.localeCompare(a.id));
  return { quarters, statementsReason: bundle.emptyReason };
}

export async function earningsPage(reader: DataReader, cik: string, filter: { fiscalYear?: number | null; fiscalPeriod?: string | null; withRelease?: boolean | null }, page: { first: number; after?: string | null }) {
  const offset = cursorOffset('earnings', page.after);
  const { quarters, statementsReason } = await reader.cache.data.memo(`earnings:${cik}`, () => companyEarnings(reader, cik));
  const filtered = quarters.filter(
    (q) => (filter.fiscalYear == null || q.fiscalYear === filter.fiscalYear) && (!filter.fiscalPeriod || q.fiscalPeriod === filter.fiscalPeriod) && (!filter.withRelease || q.release !== null),
  );
  const nodes = filtered.slice(offset, offset + page.first);
  const hasMore = offset + page.first < filtered.length;
  return { cik, nodes, hasMore, nextCursor: hasMore ? offsetCursor('earnings', offset + page.first) : null, statementsReason };
}
