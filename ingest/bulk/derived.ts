// The derived data of what a bulk load wrote, built once after the load instead of inside each
// member's transaction: concept summaries with one INSERT ... SELECT over a batch of companies,
// statements per company (materializeFinancials), dilution inputs per batch (materializeDilution),
// then the batch's signals, each one never announced announced with `signal.added` (as the item
// ingest announces what it adds; here set-wise, once the company's data is whole).
// The members waiting for it are the IngestItem rows marked 'loaded' or 'loaded:signals' (by this
// run or by one that was killed); a batch's derived rows, its signal.added events and the
// 'ingested' mark of its members commit together, and the events are published after the commit.
import { rawConnectionOf, type PrismaClient } from '../../prisma/db.ts';
import { chunks } from '../../core/rows.ts';
import { materializeFinancials } from '../../derived/financials.ts';
import { materializeDilution } from '../../derived/dilution/materialize.ts';
import { computeSignals } from '../../derived/signals.ts';
import type { EventBus } from '../../subscriptions/bus.ts';
import { publishAll } from '../../subscriptions/events.ts';
import { bulkKinds, cikOfMember } from './keys.ts';
import { summariseConcepts } from '../load/facts.ts';
import { announceNew } from '../load/signals.ts';
import type { PendingDerived } from './member.ts';

/** A member with derived rows to build (and signals to announce), or with signals only. */
const rebuildStatus = 'loaded';
const signalsStatus = 'loaded:signals';

export function pendingStatus(derived: NonNullable<PendingDerived>): string {
  return derived === 'signals' ? signalsStatus : rebuildStatus;
}

export interface DerivedSummary {
  companies: number;
  /** facts the concept summaries and statements were built from */
  facts: number;
  /** signal.added events recorded */
  signals: number;
  seconds: number;
}

/** Companies per transaction: large enough for set-wise statements, small enough to commit often. */
const batchSize = 50;
const batchTransactionMs = 600_000;

/** `announceFrom` (YYYY-MM-DD): signals as of an earlier day are marked announced without an event. */
export async function buildDerived(prisma: PrismaClient, bus: EventBus, announceFrom: string): Promise<DerivedSummary> {
  const started = performance.now();
  const pending = await prisma.ingestItem.findMany({
    where: { status: { in: [rebuildStatus, signalsStatus] }, kind: { in: [...bulkKinds] } },
    select: { sourceKey: true, kind: true, status: true },
    orderBy: { sourceKey: 'asc' },
  });
  const byCompany = new Map<string, { facts: boolean; rebuild: boolean; keys: string[] }>();
  for (const item of pending) {
    const cik = cikOfMember(item.sourceKey);
    if (!cik) continue;
    const company = byCompany.get(cik) ?? byCompany.set(cik, { facts: false, rebuild: false, keys: [] }).get(cik)!;
    company.facts ||= item.kind === 'companyfacts';
    company.rebuild ||= item.status === rebuildStatus;
    company.keys.push(item.sourceKey);
  }
  let facts = 0;
  let signals = 0;
  const companies = [...byCompany.keys()];
  const postgres = rawConnectionOf(prisma).kind === 'postgres';
  const queue = chunks(companies, batchSize);
  const buildBatches = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      const { summarised, announced } = await buildBatch(prisma, postgres, next.value, byCompany, announceFrom);
      await publishAll(bus, announced);
      facts += summarised;
      signals += announced.length;
    }
  };
  // On PostgreSQL two batches are built side by side (their companies are disjoint, and a signal
  // two of them share is marked announced in one order by both): one's statements are computed
  // while the other's rows are written. The embedded database has one
  // connection, and takes one transaction at a time.
  const builders = postgres ? 2 : 1;
  await Promise.all(Array.from({ length: builders }, buildBatches));
  return { companies: companies.length, facts, signals, seconds: (performance.now() - started) / 1000 };
}

async function buildBatch(prisma: PrismaClient, postgres: boolean, batch: string[], byCompany: Map<string, { facts: boolean; rebuild: boolean; keys: string[] }>, announceFrom: string) {
  const withFacts = batch.filter((cik) => byCompany.get(cik)!.facts);
  const rebuilt = batch.filter((cik) => byCompany.get(cik)!.rebuild);
  return prisma.$transaction(
    async (tx) => {
      // A batch's facts grouped into concept summaries by hash rather than by sorting them all:
      // the planner counts on as many groups as facts and, within the default 4 MB, sorted them
      // on disk. The groups themselves take little of it.
      await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
      // Statement bodies (tens of kilobytes of JSON each, compressed out of line) compressed with
      // lz4 rather than pglz, where the server has it (the embedded database does not): pglz took
      // about 40% of the time PostgreSQL spent writing them, and decompresses several times
      // slower on each read of them.
      if (postgres) await tx.$executeRaw`SET LOCAL default_toast_compression = 'lz4'`;
      let summarised = 0;
      if (withFacts.length) {
        await summariseConcepts(tx, withFacts);
        const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT coalesce(sum("factCount"), 0)::int AS n FROM "CompanyConcept" WHERE "cik" = ANY(${withFacts}::text[])`;
        summarised = Number(row?.n ?? 0);
        for (const cik of withFacts) await materializeFinancials(tx, cik);
      }
      if (rebuilt.length) await materializeDilution(tx, rebuilt);
      const announced = await announceNew(tx, await computeSignals(tx, batch), announceFrom);
      const keys = batch.flatMap((cik) => byCompany.get(cik)!.keys);
      await tx.ingestItem.updateMany({ where: { sourceKey: { in: keys }, status: { in: [rebuildStatus, signalsStatus] } }, data: { status: 'ingested' } });
      return { summarised, announced };
    },
    { timeout: batchTransactionMs, maxWait: batchTransactionMs },
  );
}
