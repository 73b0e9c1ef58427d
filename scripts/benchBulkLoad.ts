// One measured bulk load for the benchmarks: corpus:scale archives of a factor in a temporary
// folder, bulk-ingested into a fresh PostgreSQL database, then the same archives again (which
// must write nothing). Returns the figures bench:bulk and bench:scale print. Peak RSS is the
// whole process's: this thread and the load's.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../prisma/db.ts';
import { createLogger } from '../core/logger.ts';
import { createEventBus } from '../subscriptions/bus.ts';
import type { BulkSummary } from '../ingest/bulk/run.ts';
import { bulkIngestInThread } from '../server/ingestThread.ts';
import { ensureDatabase } from './benchDatabase.ts';
import { writeScaleCorpus, type ScaleSummary } from './scaleCorpus.ts';

export interface MeasuredLoad {
  scale: ScaleSummary;
  archiveSeconds: number;
  summary: BulkSummary;
  again: BulkSummary;
  /** the first run, from its start to its end */
  seconds: number;
  databaseBytes: number;
  factBytes: number;
  facts: number;
  peakRss: number;
  loadAverage: number;
}

export async function measureBulkLoad(options: { corpus: string; factor: number; databaseUrl: string }): Promise<MeasuredLoad> {
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const folder = await mkdtemp(path.join(tmpdir(), 'ids-bench-bulk-'));
  try {
    let started = performance.now();
    const scale = await writeScaleCorpus({ corpus: options.corpus, out: folder, factor: options.factor });
    const archiveSeconds = (performance.now() - started) / 1000;

    await ensureDatabase(options.databaseUrl, true);
    const db = await openDatabase({ kind: 'postgres', url: options.databaseUrl });
    try {
      const logger = createLogger('silent');
      const deps = { bus: createEventBus(undefined, logger), logger };
      // as `ids ingest --bulk` loads into PostgreSQL: on a thread whose heap is capped
      const target = { databaseUrl: options.databaseUrl, logLevel: 'silent' };
      const loadAverage = loadavg()[0]!;
      peakRss = process.memoryUsage().rss;
      started = performance.now();
      const summary = await bulkIngestInThread(deps, target, folder);
      const seconds = (performance.now() - started) / 1000;
      const again = await bulkIngestInThread(deps, target, folder);
      const [sizes] = await db.prisma.$queryRaw<{ database: bigint; fact: bigint; facts: bigint }[]>`
        SELECT pg_database_size(current_database()) AS database, pg_total_relation_size('"Fact"') AS fact, (SELECT count(*) FROM "Fact") AS facts`;
      return { scale, archiveSeconds, summary, again, seconds, databaseBytes: Number(sizes!.database), factBytes: Number(sizes!.fact), facts: Number(sizes!.facts), peakRss, loadAverage };
    } finally {
      await db.close();
    }
  } finally {
    clearInterval(sampler);
    await rm(folder, { recursive: true, force: true });
  }
}

export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const perSecond = (n: number, seconds: number) => Math.round(n / seconds).toLocaleString('en-US');

/** The figures of a measured load, one line each. */
export function loadReport(m: MeasuredLoad): string[] {
  const { summary, again } = m;
  const { companyfacts: factSeconds, submissions: filingSeconds } = summary.archiveSeconds;
  return [
    `load:    ${summary.factRows} fact rows in ${factSeconds.toFixed(1)} s (companyfacts.zip): ${perSecond(summary.factRows, factSeconds)} fact rows/s; ${summary.filingRows} filing rows in ${filingSeconds.toFixed(1)} s (submissions.zip): ${perSecond(summary.filingRows, filingSeconds)} rows/s; ${perSecond(summary.factRows + summary.filingRows, summary.loadSeconds)} rows/s over the whole load; deferred indexes built in ${summary.indexSeconds.toFixed(1)} s`,
    `derived: ${summary.derived.companies} companies, ${summary.derived.facts} facts in ${summary.derived.seconds.toFixed(1)} s: ${perSecond(summary.derived.facts, summary.derived.seconds)} facts/s, ${(summary.derived.companies / summary.derived.seconds).toFixed(1)} companies/s`,
    `total:   ${m.seconds.toFixed(1)} s; second run of the same archives: written ${again.written}, skipped ${again.skipped} in ${again.seconds.toFixed(1)} s`,
    `size:    database ${mib(m.databaseBytes)}, "Fact" ${mib(m.factBytes)} for ${m.facts.toLocaleString('en-US')} facts: ${(m.factBytes / m.facts).toFixed(0)} bytes per fact`,
    `memory:  peak RSS ${mib(m.peakRss)}; machine load average ${m.loadAverage.toFixed(1)} at the start (2 cores shared)`,
  ];
}
