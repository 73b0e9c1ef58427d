// Facts, statements and segments of one company, read from the stored facts and the periods
// derived/financials.ts built from them.
import type { Db, PrismaClient } from '../prisma/db.ts';
import { directRead } from '../prisma/directRead.ts';
import { dataVersion, type DataReader } from '../derived/dataCache.ts';
import { Prisma, type Fact } from '../prisma/generated/client/client.ts';
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { lineItems, requestedTag, resolveTag, tagsConsulted, type TagResolution } from '../derived/concepts.ts';
import { ApiError } from '../core/errors.ts';
import { cursorOffset, offsetCursor } from '../core/cursor.ts';
import { isoDay } from '../derived/citations.ts';
import { buildSegments, segmentRounding, type AxisKind, type SegmentAxis, type SegmentPeriod, type SegmentReport } from '../derived/segments.ts';
import type { AsReported, StatementBundle, StatementPeriod } from '../derived/statements.ts';
import { materializeFinancials, statementRulesVersion, statementTags, toFactRecord } from '../derived/financials.ts';


/** What is held of a company's facts, as one row (`facts`, `latestFiledAt`), from its concept summaries: the statements and facts reads join it, coverageOf reads it alone. */
const heldFacts = (cik: string) => Prisma.sql`SELECT coalesce(sum("factCount"), 0)::int AS facts, max("lastFiledAt") AS "latestFiledAt" FROM "CompanyConcept" WHERE cik = ${cik}`;

/** What a series needs to know of a company before its facts: how its tag resolves, the resolved tag's label, and what is held of its facts. */
interface SeriesHeader {
  resolution: TagResolution;
  label: string | null;
  /** null when the statement left it out: the company's coverage was kept already */
  coverage: { facts: number; latestFiledAt: Date | null } | null;
}

/**
 * What a company reports of the tag names a resolution consults (tagsConsulted: a few), with their
 * labels, and what is held of its facts, as one row: `usage` (JSON [taxonomy, tag, last filed,
 * label] in a fixed order), `factsHeld`, `heldLatestFiledAt`. Reading only those names keeps the
 * statement and what is kept of it small, whatever the company reports: a company-wide list of
 * concepts (thousands for a large filer) kept for each company read would hold gigabytes under
 * traffic across all of EDGAR. `withCoverage`: false leaves the coverage out (NULL), for a company
 * whose coverage is kept: summing it reads every concept summary of the company.
 */
function headerStatement(cik: string, requested: string, withCoverage: boolean): Prisma.Sql {
  return Prisma.sql`
    SELECT s.facts AS "factsHeld", s."latestFiledAt" AS "heldLatestFiledAt",
      (SELECT coalesce(json_agg(json_build_array(u.taxonomy, u.tag, u."lastFiled", c.label) ORDER BY u.taxonomy, u.tag), '[]')
       FROM (SELECT taxonomy, tag, max("lastFiledAt") AS "lastFiled" FROM "CompanyConcept"
             WHERE cik = ${cik} AND NOT "hasDimensions" AND tag = ANY(${tagsConsulted(requested)}::text[]) GROUP BY taxonomy, tag) u
       LEFT JOIN "Concept" c ON c.taxonomy = u.taxonomy AND c.tag = u.tag) AS usage
    FROM (${withCoverage ? heldFacts(cik) : Prisma.sql`SELECT NULL::int AS facts, NULL::timestamp AS "latestFiledAt"`}) s`;
}

interface HeaderColumns {
  factsHeld: number | null;
  heldLatestFiledAt: Date | null;
  usage: [string, string, string | null, string | null][];
}

function seriesHeaderOf(requested: string, row: HeaderColumns): SeriesHeader {
  const used = row.usage.map(([taxonomy, tag, lastFiled, label]) => ({ taxonomy, tag, lastFiled, label }));
  const resolution = resolveTag(requested, used);
  const [first] = resolution.tags;
  const label = used.find((u) => u.taxonomy === first?.taxonomy && u.tag === first?.tag)?.label ?? null;
  return { resolution, label, coverage: row.factsHeld === null ? null : { facts: row.factsHeld, latestFiledAt: row.heldLatestFiledAt } };
}

export interface FactFilters {
  tag: string;
  form?: string | null;
  unit?: string | null;
  /** on the fact's period end, inclusive (YYYY-MM-DD) */
  periodFrom?: string | null;
  periodTo?: string | null;
  /** the period's first day, exactly */
  periodStart?: string | null;
  /** how long the period runs: a point in time, or about 3, 6, 9 or 12 months */
  duration?: FactDuration | null;
  /** the fiscal year and period of the filing that reported the fact */
  fy?: number | null;
  fp?: string | null;
  limit: number;
  /** facts already served, from the previous page's cursor */
  offset: number;
}

/**
 * The durations a fact may be filtered by: the name /v1 uses, the name of the GraphQL enum value,
 * and the days a period of that length may run (first and last day counted). Fiscal quarters are
 * 13 weeks or three calendar months (89 to 98 days with 52/53-week years), and their sums, so a
 * 3-month and a 9-month fact ending on the same day fall in different bands.
 */
export const factDurationTable = {
  instant: { graph: 'instant', days: null },
  '3m': { graph: 'three_months', days: [80, 100] },
  '6m': { graph: 'six_months', days: [170, 195] },
  '9m': { graph: 'nine_months', days: [260, 285] },
  '12m': { graph: 'twelve_months', days: [350, 380] },
} as const;
export type FactDuration = keyof typeof factDurationTable;
export const factDurations = Object.keys(factDurationTable) as [FactDuration, ...FactDuration[]];

function hasDuration(fact: FactRow, duration: FactDuration): boolean {
  if (duration === 'instant') return fact.isInstant;
  if (fact.isInstant || !fact.periodStart) return false;
  const days = Math.round((fact.periodEnd.getTime() - fact.periodStart.getTime()) / 86_400_000) + 1;
  const [min, max] = factDurationTable[duration].days;
  return days >= min && days <= max;
}

/** A fact as a series answers it: what the graph's Fact exposes, and the primary document of its filing, which its citation links to. */
export type FactRow = Pick<Fact, 'cik' | 'taxonomy' | 'tag' | 'unit' | 'value' | 'periodStart' | 'periodEnd' | 'isInstant' | 'fy' | 'fp' | 'form' | 'frame' | 'accessionNumber' | 'filedAt' | 'dimensions'> & {
  primaryDocument: string | null;
};

/**
 * One statement for a series' facts, newest period first (ties: the later filing, then the
 * accession number, then the row), the filing's primary document joined in: written by hand and
 * sent past the client's query engine (prisma/directRead.ts), which costs a read more than the
 * database does. A tag without taxonomy reads that tag in any. `page`: a page in the database;
 * without it, every fact of the tags. `withId`: the row's id too, as `factId`, for a statement
 * that joins this one and must keep its order (readHeaderAndPage).
 */
function factsStatement(cik: string, tags: { taxonomy: string | null; tag: string }[], filters: FactFilters, page?: { offset: number; take: number }, withId = false): Prisma.Sql {
  const conditions = [
    Prisma.sql`f.cik = ${cik}`,
    Prisma.sql`NOT f."hasDimensions"`,
    Prisma.sql`(${Prisma.join(tags.map(({ taxonomy, tag }) => (taxonomy ? Prisma.sql`(f.taxonomy = ${taxonomy} AND f.tag = ${tag})` : Prisma.sql`f.tag = ${tag}`)), ' OR ')})`,
    ...(filters.form ? [Prisma.sql`f.form = ${filters.form}`] : []),
    ...(filters.unit ? [Prisma.sql`f.unit = ${filters.unit}`] : []),
    ...(filters.fy ? [Prisma.sql`f.fy = ${filters.fy}`] : []),
    ...(filters.fp ? [Prisma.sql`f.fp = ${filters.fp}`] : []),
    ...(filters.periodStart ? [Prisma.sql`f."periodStart" = ${filters.periodStart}::date`] : []),
    ...(filters.duration ? [Prisma.sql`f."isInstant" = ${filters.duration === 'instant'}`] : []),
    ...(filters.periodFrom ? [Prisma.sql`f."periodEnd" >= ${filters.periodFrom}::date`] : []),
    ...(filters.periodTo ? [Prisma.sql`f."periodEnd" <= ${filters.periodTo}::date`] : []),
  ];
  return Prisma.sql`
    SELECT ${withId ? Prisma.sql`f.id AS "factId", ` : Prisma.empty}f.cik, f.taxonomy, f.tag, f.unit, f.value, f."periodStart", f."periodEnd", f."isInstant", f.fy, f.fp, f.form, f.frame, f."accessionNumber", f."filedAt", f.dimensions,
      (SELECT d."primaryDocument" FROM "Filing" d WHERE d."accessionNumber" = f."accessionNumber") AS "primaryDocument"
    FROM "Fact" f WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY f."periodEnd" DESC, f."filedAt" DESC, f."accessionNumber" DESC, f.id DESC
    ${page ? Prisma.sql`LIMIT ${page.take} OFFSET ${page.offset}` : Prisma.empty}`;
}

function readFacts(prisma: PrismaClient, cik: string, tags: { taxonomy: string; tag: string }[], filters: FactFilters, page?: { offset: number; take: number }): Promise<FactRow[]> {
  return directRead<FactRow>(prisma, factsStatement(cik, tags, filters, page));
}

/**
 * A series' header, and the page it would read if the tag asked for is reported as asked, in one
 * statement: the first read of a company and tag sends one statement, as later ones do. The page
 * is only a guess until the header is resolved: the caller keeps it when the resolution reads
 * exactly that tag.
 */
async function readHeaderAndPage(prisma: PrismaClient, cik: string, filters: FactFilters, page: { offset: number; take: number }, withCoverage: boolean) {
  const { taxonomy, tag } = requestedTag(filters.tag);
  const rows = await directRead<HeaderColumns & (FactRow & { factId: bigint } | { factId: null })>(prisma, Prisma.sql`
    SELECT h.*, p.* FROM (${headerStatement(cik, filters.tag, withCoverage)}) h
    LEFT JOIN LATERAL (${factsStatement(cik, [{ taxonomy, tag }], filters, page, true)}) p ON true
    ORDER BY p."periodEnd" DESC, p."filedAt" DESC, p."accessionNumber" DESC, p."factId" DESC`);
  const header = rows[0]!;
  // read by name in any taxonomy, the page is that of one tag only when one taxonomy has the name
  const oneTag = taxonomy !== null || header.usage.filter((used) => used[1] === tag).length === 1;
  const facts: FactRow[] = [];
  for (const { factId, factsHeld: _held, heldLatestFiledAt: _latest, usage: _usage, ...fact } of rows) if (factId !== null) facts.push(fact as FactRow);
  return { header, guess: oneTag ? { tag, facts } : undefined };
}

/**
 * A company's facts for a tag or line item, newest period first, a page at a time. One tag is
 * paged in the database; a stitched series (several tags of one line) takes each period from the
 * first of its tags that reports it, so it is assembled from those tags' facts, then paged.
 */
export async function factSeries(reader: DataReader, cik: string, filters: FactFilters) {
  const { prisma } = reader;
  // A period's length is not a column: a series filtered by it is read whole (one company's tag) and paged here.
  const byLength = filters.duration && filters.duration !== 'instant' ? filters.duration : null;
  const dbPage = { offset: filters.offset, take: filters.limit + 1 };
  let guess: Awaited<ReturnType<typeof readHeaderAndPage>>['guess'];
  // how the tag resolves for the company, kept while the data holds, as its coverage is
  const version = await dataVersion(reader);
  const header = await reader.cache.data.versioned(`series:${cik}:${filters.tag}`, version, async () => {
    const withCoverage = !reader.cache.data.holdsVersioned(coverageKey(cik), version);
    if (byLength) return seriesHeaderOf(filters.tag, (await directRead<HeaderColumns>(prisma, headerStatement(cik, filters.tag, withCoverage)))[0]!);
    const read = await readHeaderAndPage(prisma, cik, filters, dbPage, withCoverage);
    guess = read.guess;
    return seriesHeaderOf(filters.tag, read.header);
  });
  const { resolution, label } = header;
  const coverage = await coverageOf(reader, cik, header.coverage ?? undefined);
  if (!resolution.tags.length) return { resolution, facts: [] as FactRow[], hasMore: false, label: null as string | null, coverage };
  let page: FactRow[];
  if (resolution.tags.length === 1 && !byLength) {
    const [only] = resolution.tags;
    page = guess && only!.tag === guess.tag && resolution.reason === 'exact' ? guess.facts : await readFacts(prisma, cik, resolution.tags, filters, dbPage);
  } else {
    let all = await readFacts(prisma, cik, resolution.tags, filters);
    if (byLength) all = all.filter((fact) => hasDuration(fact, byLength));
    page = stitchByPeriod(all, resolution.tags).slice(filters.offset, filters.offset + filters.limit + 1);
  }
  return { resolution, facts: page.slice(0, filters.limit), hasMore: page.length > filters.limit, label, coverage };
}

/** Each period (start, end, unit) from the first tag, in preference order, that reports it. */
export function stitchByPeriod<F extends { taxonomy: string; tag: string; periodStart: Date | null; periodEnd: Date; unit: string }>(facts: F[], preference: { taxonomy: string; tag: string }[]): F[] {
  const rank = (f: F) => preference.findIndex((p) => p.taxonomy === f.taxonomy && p.tag === f.tag);
  const periodOf = (f: F) => `${f.periodStart?.getTime() ?? ''}|${f.periodEnd.getTime()}|${f.unit}`;
  const chosen = new Map<string, number>();
  for (const fact of facts) {
    const key = periodOf(fact);
    const best = chosen.get(key);
    if (best === undefined || rank(fact) < best) chosen.set(key, rank(fact));
  }
  return facts.filter((fact) => rank(fact) === chosen.get(periodOf(fact)));
}

/**
 * What the service holds of a company's facts: how many, and the latest filing date. `read`: the
 * figures as a read that already has them (a statements read) gives them, kept for the next read.
 * Kept while the data holds (only an ingest changes them), so that traffic over thousands of
 * companies sums each company's concept summaries once, not once every few seconds.
 */
export async function coverageOf(reader: DataReader, cik: string, read?: { facts: number; latestFiledAt: Date | null }) {
  return reader.cache.data.versioned(coverageKey(cik), await dataVersion(reader), async () => {
    if (read) return { facts: read.facts, latestFiledAt: isoDay(read.latestFiledAt) };
    const [held] = await directRead<{ facts: number; latestFiledAt: Date | null }>(reader.prisma, heldFacts(cik));
    return { facts: held!.facts, latestFiledAt: isoDay(held!.latestFiledAt) };
  });
}

const coverageKey = (cik: string) => `coverage:${cik}`;

/** A facts page's cursor: opaque to clients, the number of facts already served. */
export const factsCursor = (offset: number) => offsetCursor('facts', offset);

export const factsOffset = (cursor: string | null | undefined) => cursorOffset('facts', cursor);

/** The company's stored profile, after building its periods if none are stored or older rules built them. */
export function financialsProfile({ prisma, cache }: DataReader, cik: string) {
  return cache.data.memo(`profile:${cik}`, async () => {
    const profile = await prisma.statementProfile.findUnique({ where: { cik } });
    if (profile && profile.version === statementRulesVersion) return profile;
    return { cik, ...(await prisma.$transaction((tx) => materializeFinancials(tx, cik), { timeout: 120_000 })).profile };
  });
}

/** What a statements read reads, in one row: the profile, what is held of the company's facts, the periods, and what their values cite. */
interface StoredStatements {
  taxonomy: string | null;
  currency: string | null;
  /** null when no profile is stored */
  version: number | null;
  facts: number;
  latestFiledAt: Date | null;
  periods: StatementPeriod[];
  /** each cited filing: its primary document (null when not known); null when not asked for */
  documents: Record<string, string | null> | null;
}

/**
 * One statement for a statements read, past the client's query engine (prisma/directRead.ts): a
 * first read after an ingest keeps nothing, and each statement more is a round trip more. `cited`: also the primary documents of the filings the
 * lines' sources cite (`body.<statement>.<line>.<source>.accessionNumber`).
 */
async function readStoredStatements(prisma: PrismaClient, cik: string, period: 'annual' | 'quarterly', limit: number, asReported: AsReported, cited: boolean): Promise<StoredStatements> {
  const [row] = await directRead<StoredStatements>(prisma, Prisma.sql`
    WITH periods AS (
      SELECT "periodEnd", body FROM "StatementPeriod" WHERE cik = ${cik} AND basis = ${period} AND "asReported" = ${asReported} ORDER BY "periodEnd" DESC LIMIT ${limit}
    )
    SELECT p.taxonomy, p.currency, p.version, c.facts, c."latestFiledAt",
      (SELECT coalesce(json_agg(body ORDER BY "periodEnd" DESC), '[]') FROM periods) AS periods,
      ${cited ? Prisma.sql`(SELECT json_object_agg(a.accession, f."primaryDocument") FROM (SELECT DISTINCT jsonb_path_query(body, 'lax $.*.*.*.accessionNumber') #>> '{}' AS accession FROM periods) a
        LEFT JOIN "Filing" f ON f."accessionNumber" = a.accession)` : Prisma.sql`NULL::json`} AS documents
    FROM (${heldFacts(cik)}) c
    LEFT JOIN "StatementProfile" p ON p.cik = ${cik}`);
  return row!;
}

/**
 * A company's statements: stored periods read, newest first, as many as asked. `cited` (the
 * default): with the primary document of each filing their values cite, kept like the ones
 * derived/citations.ts reads, so that their citations need no read of their own.
 */
export async function companyStatements(reader: DataReader, cik: string, period: 'annual' | 'quarterly', limit: number, asReported: AsReported = 'latest', cited = true) {
  const { prisma, cache } = reader;
  let stored = await readStoredStatements(prisma, cik, period, limit, asReported, cited);
  if (stored.version !== statementRulesVersion) {
    await financialsProfile(reader, cik); // builds the periods with the current rules
    stored = await readStoredStatements(prisma, cik, period, limit, asReported, cited);
  }
  const coverage = await coverageOf(reader, cik, stored);
  const documents = new Map(Object.entries(stored.documents ?? {}));
  await cache.data.memoEach([...documents.keys()].map((accession) => `document:${accession}`), async () => new Map([...documents].map(([accession, document]) => [`document:${accession}`, document])), null);
  const bundle: StatementBundle = { period, asReported, taxonomy: stored.taxonomy as StatementBundle['taxonomy'], currency: stored.currency, periods: stored.periods };
  return { ...bundle, coverage, documents, emptyReason: bundle.periods.length ? null : await whyNoPeriods(prisma, cik, period, coverage.facts) };
}

/** Why a statement bundle has no periods: said, never left to be read as "nothing was reported". */
async function whyNoPeriods(prisma: PrismaClient, cik: string, period: 'annual' | 'quarterly', factsHeld: number): Promise<string> {
  if (factsHeld === 0) return 'not_covered: the service holds no XBRL facts of this company, so its statements cannot be built.';
  if (!(await prisma.fact.count({ where: { cik, hasDimensions: false, tag: { in: statementTags } } }))) return 'not_reported: the company reports none of the statement tags in the facts held.';
  if (period === 'quarterly') {
    const quarterlyForms = await prisma.fact.count({ where: { cik, form: { in: ['10-Q', '10-Q/A', '6-K'] } } });
    if (quarterlyForms === 0) {
      const forms = await prisma.fact.groupBy({ by: ['form'], where: { cik }, _count: true });
      return `not_reported: the company files no quarterly reports with XBRL (its facts come from ${forms.map((f) => f.form ?? 'unknown').join(', ')}), so there are no quarters to show; ask for period=annual.`;
    }
  }
  return `not_derivable: the facts held report no ${period} period of the statement lines.`;
}

/** A company's segment breakdowns: stored periods read, grouped by axis in report order, newest first. */
export async function companySegments(reader: DataReader, cik: string): Promise<SegmentReport> {
  await financialsProfile(reader, cik);
  const rows = await reader.prisma.segmentPeriod.findMany({
    where: { cik },
    orderBy: [{ axisOrder: 'asc' }, { periodEnd: 'desc' }, { periodStart: 'asc' }],
    select: { axis: true, kind: true, confidence: true, body: true },
  });
  const axes = new Map<string, SegmentAxis>();
  for (const row of rows) {
    let axis = axes.get(row.axis);
    if (!axis) axes.set(row.axis, (axis = { axis: row.axis, kind: row.kind as AxisKind, confidence: 'reported', periods: [] }));
    axis.periods.push(row.body as unknown as SegmentPeriod);
    // An axis is reported only when every one of its periods adds up.
    if (row.confidence !== 'reported') axis.confidence = 'low_confidence';
  }
  return { rounding: segmentRounding, axes: [...axes.values()] };
}
