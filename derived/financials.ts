// A company's statements and segment breakdowns, built from its stored facts and stored as
// periods: at ingest, when its facts change, and on a read that finds them missing or built by
// older rules. The building itself is pure (statements.ts, segments.ts, concepts.ts).
import type { Db } from '../prisma/db.ts';
import type { Fact, Prisma } from '../prisma/generated/client/client.ts';
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { lineItems } from './concepts.ts';
import { isoDay } from './citations.ts';
import { buildSegments } from './segments.ts';
import { buildStatements } from './statements.ts';

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

export const statementTags = [...new Set(lineItems.flatMap((item) => item.candidates.map((c) => c.tag)))];

/**
 * The version of the statement and segment rules (derived/statements.ts, segments.ts,
 * concepts.ts, decimal.ts): bump it when what they build changes, and stored periods built by an
 * older version are rebuilt on the next read.
 */
export const statementRulesVersion = 4;

/**
 * Builds a company's statements (annual and quarterly, every period) and segment breakdowns from
 * its facts and stores them, replacing what was stored: called in the ingest transaction that
 * changes its facts, and on a read that finds none or finds them built by older rules.
 */
export async function materializeFinancials(db: Db, cik: string) {
  // Statement lines read the consolidated facts of these tags; segments, their dimensional ones.
  const rows = await db.fact.findMany({ where: { cik, tag: { in: statementTags } } });
  const facts = rows.map(toFactRecord);
  const bases = (['annual', 'quarterly'] as const).flatMap((basis) =>
    (['latest', 'first'] as const).map((asReported) => buildStatements(facts, { period: basis, asReported, limit: Number.MAX_SAFE_INTEGER })),
  );
  await db.statementPeriod.deleteMany({ where: { cik } });
  const periods = bases.flatMap((bundle) =>
    bundle.periods.map((p) => ({ cik, basis: bundle.period, asReported: bundle.asReported, periodEnd: new Date(p.periodEnd), fiscalYear: p.fiscalYear, fiscalPeriod: p.fiscalPeriod, body: p as unknown as Prisma.InputJsonValue })),
  );
  if (periods.length) await db.statementPeriod.createMany({ data: periods, skipDuplicates: true });

  await db.segmentPeriod.deleteMany({ where: { cik } });
  const segments = buildSegments(facts).axes.flatMap((axis, axisOrder) =>
    axis.periods.map((p) => ({
      cik,
      axis: axis.axis,
      kind: axis.kind,
      axisOrder,
      periodStart: new Date(p.periodStart),
      periodEnd: new Date(p.periodEnd),
      confidence: p.confidence,
      body: p as unknown as Prisma.InputJsonValue,
    })),
  );
  if (segments.length) await db.segmentPeriod.createMany({ data: segments });

  const profile = { taxonomy: bases[0]!.taxonomy, currency: bases[0]!.currency, version: statementRulesVersion, builtAt: new Date() };
  await db.statementProfile.upsert({ where: { cik }, create: { cik, ...profile }, update: profile });
  return { profile, statementFacts: rows.length };
}

