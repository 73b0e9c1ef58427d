// The derived data of what a bulk load wrote, built once after the load instead of inside each
// member's transaction: concept summaries with one INSERT ... SELECT over a batch of companies,
// statements per company (materializeFinancials), dilution inputs per batch (materializeDilution).
// The members waiting for it are the IngestItem rows marked 'loaded' (by this run or by one that
// was killed); a batch's derived rows and the 'ingested' mark of its members commit together.
import type { PrismaClient } from '../../prisma/db.ts';
import { chunks } from '../../core/rows.ts';
import { materializeFinancials } from '../../derived/financials.ts';
import { materializeDilution } from '../../derived/dilution/materialize.ts';
import { bulkKinds, cikOfMember } from './keys.ts';
import { summariseConcepts } from '../load/facts.ts';

export const loadedStatus = 'loaded';

export interface DerivedSummary {
  companies: number;
  /** facts the concept summaries and statements were built from */
  facts: number;
  seconds: number;
}

/** Companies per transaction: large enough for set-wise statements, small enough to commit often. */
const batchSize = 50;
const batchTransactionMs = 600_000;

export async function buildDerived(prisma: PrismaClient, onBatch?: (done: number, total: number) => void): Promise<DerivedSummary> {
  const started = performance.now();
  const pending = await prisma.ingestItem.findMany({ where: { status: loadedStatus, kind: { in: [...bulkKinds] } }, select: { sourceKey: true, kind: true }, orderBy: { sourceKey: 'asc' } });
  const byCompany = new Map<string, { facts: boolean; keys: string[] }>();
  for (const item of pending) {
    const cik = cikOfMember(item.sourceKey);
    if (!cik) continue;
    const company = byCompany.get(cik) ?? byCompany.set(cik, { facts: false, keys: [] }).get(cik)!;
    company.facts ||= item.kind === 'companyfacts';
    company.keys.push(item.sourceKey);
  }
  let facts = 0;
  let done = 0;
  const companies = [...byCompany.keys()];
  for (const batch of chunks(companies, batchSize)) {
    const withFacts = batch.filter((cik) => byCompany.get(cik)!.facts);
    facts += await prisma.$transaction(
      async (tx) => {
        let summarised = 0;
        if (withFacts.length) {
          await summariseConcepts(tx, withFacts);
          const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT coalesce(sum("factCount"), 0)::int AS n FROM "CompanyConcept" WHERE "cik" = ANY(${withFacts}::text[])`;
          summarised = Number(row?.n ?? 0);
          for (const cik of withFacts) await materializeFinancials(tx, cik);
        }
        await materializeDilution(tx, batch);
        const keys = batch.flatMap((cik) => byCompany.get(cik)!.keys);
        await tx.ingestItem.updateMany({ where: { sourceKey: { in: keys }, status: loadedStatus }, data: { status: 'ingested' } });
        return summarised;
      },
      { timeout: batchTransactionMs, maxWait: batchTransactionMs },
    );
    done += batch.length;
    onBatch?.(done, companies.length);
  }
  return { companies: companies.length, facts, seconds: (performance.now() - started) / 1000 };
}
