// A company's statements and segment breakdowns, built from its stored facts and stored as
// periods: at ingest, when its facts change, and on a read that finds them missing or built by
// older rules. The building itself is pure (statements.ts, segments.ts, concepts.ts).
import type { Db } from '../prisma/db.ts';
import { Prisma, type Fact } from '../prisma/generated/client/client.ts';
import { insertRows, type Columns } from '../prisma/unnestInsert.ts';
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { lineItems } from './concepts.ts';
import { isoDay } from './citations.ts';
import { buildSegments } from './segments.ts';
import { companyStatements } from './statements.ts';

export function toFactRecord(f: Fact): FactRecord {
  return {
    cik: f.cik,
    taxonomy: f.taxonomy,
    tag: f.tag,
    unit: f.unit,
    value: f.value,
    periodStart: isoDay(f.periodStart),
    periodEnd: isoDay(f.periodEnd)!,
    isInstant: f.isInstant,
    fy: f.fy,
    fp: f.fp,
    form: f.form,
    frame: f.frame,
    accessionNumber: f.accessionNumber,
    filedAt: isoDay(f.filedAt),
    dimensions: f.dimensions as Record<string, string>,
    decimals: f.decimals,
  };
}

const statementPeriodColumns: Columns<{ cik: string; basis: string; asReported: string; periodEnd: string; fiscalYear: number; fiscalPeriod: string; body: unknown }> = [
  ['cik', 'text', (r) => r.cik],
  ['basis', 'text', (r) => r.basis],
  ['asReported', 'text', (r) => r.asReported],
  ['periodEnd', 'date', (r) => r.periodEnd],
  ['fiscalYear', 'integer', (r) => r.fiscalYear],
  ['fiscalPeriod', 'text', (r) => r.fiscalPeriod],
  ['body', 'jsonb', (r) => r.body],
];

const segmentPeriodColumns: Columns<{ cik: string; axis: string; kind: string; axisOrder: number; periodStart: string; periodEnd: string; confidence: string; body: unknown }> = [
  ['cik', 'text', (r) => r.cik],
  ['axis', 'text', (r) => r.axis],
  ['kind', 'text', (r) => r.kind],
  ['axisOrder', 'integer', (r) => r.axisOrder],
  ['periodStart', 'date', (r) => r.periodStart],
  ['periodEnd', 'date', (r) => r.periodEnd],
  ['confidence', 'text', (r) => r.confidence],
  ['body', 'jsonb', (r) => r.body],
];

export const statementTags = [...new Set(lineItems.flatMap((item) => item.candidates.map((c) => c.tag)))];

/**
 * The version of the statement and segment rules (derived/statements.ts, segments.ts,
 * concepts.ts, decimal.ts): bump it when what they build changes, and stored periods built by an
 * older version are rebuilt on the next read.
 */
export const statementRulesVersion = 4;

/**
 * Builds a company's statements (annual and quarterly, every period) and segment breakdowns from
 * its facts and stores them, replacing what was stored: in one transaction, on a read that finds
 * none or finds them built by older rules (an ingest reads, builds and stores in steps of its own:
 * ingest/load/facts.ts).
 */
export async function materializeFinancials(db: Db, cik: string) {
  const facts = await statementFacts(db, cik);
  return storeFinancials(db, cik, await buildFinancials(cik, facts));
}

export type BuiltFinancials = Awaited<ReturnType<typeof buildFinancials>>;

/**
 * The stored rows of a company's statements and segments, built from its statement facts: each of
 * the four variants a turn of the event loop of its own, so that requests are answered between them.
 */
export async function buildFinancials(cik: string, facts: FactRecord[]) {
  // one index of the facts for the four variants: most figures are chosen among their reports once
  const statements = companyStatements(facts);
  const bases = [];
  for (const basis of ['annual', 'quarterly'] as const) {
    for (const asReported of ['latest', 'first'] as const) {
      bases.push(statements({ period: basis, asReported, limit: Number.MAX_SAFE_INTEGER }));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const periods = bases.flatMap((bundle) =>
    bundle.periods.map((p) => ({ cik, basis: bundle.period, asReported: bundle.asReported, periodEnd: p.periodEnd, fiscalYear: p.fiscalYear, fiscalPeriod: p.fiscalPeriod, body: p })),
  );
  const segments = buildSegments(facts).axes.flatMap((axis, axisOrder) =>
    axis.periods.map((p) => ({
      cik,
      axis: axis.axis,
      kind: axis.kind,
      axisOrder,
      periodStart: p.periodStart,
      periodEnd: p.periodEnd,
      confidence: p.confidence,
      body: p,
    })),
  );
  return { periods, segments, taxonomy: bases[0]!.taxonomy, currency: bases[0]!.currency, statementFacts: facts.length };
}

/** Replaces the company's stored statements and segments with these, in the caller's transaction. */
export async function storeFinancials(db: Db, cik: string, built: BuiltFinancials) {
  await db.statementPeriod.deleteMany({ where: { cik } });
  await insertRows(db, 'StatementPeriod', statementPeriodColumns, built.periods, { onConflict: 'ON CONFLICT DO NOTHING' });
  return storeProfile(db, cik, built);
}

/**
 * The replacement in several transactions (an ingest's steps): `stagePeriods` writes new periods
 * beside the stored ones (after `dropStaged`), their "asReported" marked staged, which no read
 * asks for, as many times as it takes; `publishStaged` then drops the stored ones and unmarks the new in one short
 * transaction (an update keeps each body where it was written). A read sees the company's
 * statements as they were or as they are, never half replaced.
 */
export async function stagePeriods(db: Db, cik: string, periods: BuiltFinancials['periods']): Promise<void> {
  await insertRows(db, 'StatementPeriod', statementPeriodColumns, periods.map((p) => ({ ...p, asReported: p.asReported + staged })), { onConflict: 'ON CONFLICT DO NOTHING' });
}

/** Drops what a replacement cut short had staged: called before staging anew. */
export async function dropStaged(db: Db, cik: string): Promise<void> {
  await db.$executeRaw`DELETE FROM "StatementPeriod" WHERE "cik" = ${cik} AND "asReported" LIKE ${`%${staged}`}`;
}

export async function publishStaged(db: Db, cik: string, built: BuiltFinancials) {
  await db.$executeRaw`DELETE FROM "StatementPeriod" WHERE "cik" = ${cik} AND "asReported" NOT LIKE ${`%${staged}`}`;
  await db.$executeRaw`UPDATE "StatementPeriod" SET "asReported" = left("asReported", -${staged.length}::int) WHERE "cik" = ${cik} AND "asReported" LIKE ${`%${staged}`}`;
  return storeProfile(db, cik, built);
}

const staged = ':staged';

/** The segments (a few rows) and the profile that dates the build, with the statements they go with. */
async function storeProfile(db: Db, cik: string, built: BuiltFinancials) {
  await db.segmentPeriod.deleteMany({ where: { cik } });
  await insertRows(db, 'SegmentPeriod', segmentPeriodColumns, built.segments);
  const profile = { taxonomy: built.taxonomy, currency: built.currency, version: statementRulesVersion, builtAt: new Date() };
  await db.statementProfile.upsert({ where: { cik }, create: { cik, ...profile }, update: profile });
  return { profile, statementFacts: built.statementFacts };
}

/**
 * The facts statement lines read (consolidated, of these tags) and segments read (dimensional),
 * as records: one statement written by hand, days as text, at a quarter of the cost of the
 * client's findMany and its row objects.
 */
export async function statementFacts(db: Db, cik: string, tags: readonly string[] = statementTags): Promise<FactRecord[]> {
  return db.$queryRaw<FactRecord[]>(Prisma.sql`
    SELECT "cik", "taxonomy", "tag", "unit", "value", "periodStart"::text AS "periodStart", "periodEnd"::text AS "periodEnd", "isInstant", "fy", "fp", "form", "frame",
      "accessionNumber", "filedAt"::text AS "filedAt", "dimensions", "decimals"
    FROM "Fact" WHERE "cik" = ${cik} AND "tag" = ANY(${tags}::text[])`);
}

