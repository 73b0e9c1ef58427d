// The IngestRun row is the run's state as other processes see it (GET /v1/ingest/status on any
// instance, the CLI while a server ingests): both ingests write their counts there as they go.
import type { PrismaClient } from '../prisma/db.ts';

export interface RunCounts {
  total: number;
  read: number;
  written: number;
  skipped: number;
  failed: number;
  records: number;
}

/** How often a working run writes its row: a write a second costs the ingest nothing. */
const everyMs = 1000;

/** Writes a run's counts at once (the total, as soon as it is known), then at most once a second, and when it finishes. */
export function runRowWriter(prisma: PrismaClient, runId: string) {
  let lastWrite = -Infinity;
  return {
    async progress(counts: RunCounts): Promise<void> {
      if (performance.now() - lastWrite < everyMs) return;
      lastWrite = performance.now();
      await prisma.ingestRun.update({ where: { id: runId }, data: counts });
    },
    async finish(counts: RunCounts): Promise<void> {
      await prisma.ingestRun.update({ where: { id: runId }, data: { ...counts, finishedAt: new Date() } });
    },
  };
}
