// Facts, statements and segments of one company, from the stored facts: the database query
// here, the computation in statements.ts, segments.ts and concepts.ts (pure functions).
import type { PrismaClient } from '../prisma/db.ts';
import type { Fact, Prisma } from '../prisma/generated/client/client.ts';
import type { FactRecord } from '../ingest/parsers/companyFacts.ts';
import { lineItems, resolveTag } from './concepts.ts';
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

const statementTags = [...new Set(lineItems.flatMap((item) => item.candidates.map((c) => c.tag)))];

/** The tag an issuer uses for a requested tag or line item, from what it has reported (its concept summaries). */
export async function resolveCompanyTag(prisma: PrismaClient, cik: string, requested: string) {
  const used = await prisma.companyConcept.groupBy({ by: ['taxonomy', 'tag'], where: { cik, hasDimensions: false }, _max: { lastFiledAt: true } });
  return resolveTag(requested, used.map((u) => ({ taxonomy: u.taxonomy, tag: u.tag, lastFiled: isoDay(u._max.lastFiledAt) })));
}

export async function factSeries(prisma: PrismaClient, cik: string, options: { tag: string; form?: string | null; unit?: string | null; limit: number }) {
  const resolution = await resolveCompanyTag(prisma, cik, options.tag);
  if (!resolution.resolvedTag) return { resolution, facts: [], label: null, coverage: await coverageOf(prisma, cik) };
  const where: Prisma.FactWhereInput = {
    cik,
    taxonomy: resolution.taxonomy ?? undefined,
    tag: resolution.resolvedTag,
    hasDimensions: false,
    ...(options.form ? { form: options.form } : {}),
    ...(options.unit ? { unit: options.unit } : {}),
  };
  const [facts, concept] = await Promise.all([
    prisma.fact.findMany({ where, orderBy: [{ periodEnd: 'desc' }, { filedAt: 'desc' }, { accessionNumber: 'desc' }], take: options.limit }),
    prisma.concept.findUnique({ where: { taxonomy_tag: { taxonomy: resolution.taxonomy!, tag: resolution.resolvedTag } } }),
  ]);
  return { resolution, facts, label: concept?.label ?? null, coverage: await coverageOf(prisma, cik) };
}

async function coverageOf(prisma: PrismaClient, cik: string) {
  const summary = await prisma.companyConcept.aggregate({ where: { cik }, _sum: { factCount: true }, _max: { lastFiledAt: true } });
  return { facts: summary._sum.factCount ?? 0, latestFiledAt: isoDay(summary._max.lastFiledAt) };
}

export async function companyStatements(prisma: PrismaClient, cik: string, period: 'annual' | 'quarterly', limit: number) {
  const rows = await prisma.fact.findMany({ where: { cik, hasDimensions: false, tag: { in: statementTags } } });
  return buildStatements(rows.map(toFactRecord), { period, limit });
}

export async function companySegments(prisma: PrismaClient, cik: string) {
  const revenueTags = lineItems.find((item) => item.key === 'revenue')?.candidates.map((c) => c.tag) ?? [];
  const rows = await prisma.fact.findMany({ where: { cik, OR: [{ hasDimensions: true }, { tag: { in: [...revenueTags, ...statementTags] } }] } });
  return buildSegments(rows.map(toFactRecord));
}
