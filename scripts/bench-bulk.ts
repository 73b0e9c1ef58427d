// `npm run bench:bulk`: corpus:scale archives of factor BENCH_FACTOR (default 10) in a temporary
// folder, bulk-ingested into a fresh PostgreSQL database (ids_bench_bulk on DATABASE_URL's server,
// else on 127.0.0.1), then the same archives again. Prints the load's fact rows per second, the
// derived build's, the total time, the database's size and bytes per fact, and peak RSS.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../prisma/db.ts';
import { createLogger } from '../core/logger.ts';
import { createEventBus } from '../subscriptions/bus.ts';
import { bulkSummaryLine, runBulkIngest } from '../ingest/bulk/run.ts';
import { ensureDatabase } from './benchDatabase.ts';
import { writeScaleCorpus } from './scaleCorpus.ts';

const factor = Number(process.env.BENCH_FACTOR ?? 10);
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? '../shared/data');
const url = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
url.pathname = '/ids_bench_bulk';

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

const folder = await mkdtemp(path.join(tmpdir(), 'ids-bench-bulk-'));
try {
  let started = performance.now();
  const scale = await writeScaleCorpus({ corpus, out: folder, factor });
  console.log(`archives: factor ${factor}, ${scale.companies} real companies, ${scale.members.companyfacts} companyfacts + ${scale.members.submissions} submissions members, written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  await ensureDatabase(url.toString(), true);
  const db = await openDatabase({ kind: 'postgres', url: url.toString() });
  const logger = createLogger('silent');
  const deps = { prisma: db.prisma, bus: createEventBus(undefined, logger), logger };
  const load = loadavg()[0]!;
  peakRss = process.memoryUsage().rss;
  started = performance.now();
  const summary = await runBulkIngest(deps, folder);
  const total = (performance.now() - started) / 1000;
  const again = await runBulkIngest(deps, folder);
  const [sizes] = await db.prisma.$queryRaw<{ database: bigint; fact: bigint; facts: bigint }[]>`
    SELECT pg_database_size(current_database()) AS database, pg_total_relation_size('"Fact"') AS fact, (SELECT count(*) FROM "Fact") AS facts`;
  await db.close();

  const facts = Number(sizes!.facts);
  console.log(bulkSummaryLine(summary));
  const { companyfacts: factSeconds, submissions: filingSeconds } = summary.archiveSeconds;
  console.log(`load:    ${summary.factRows} fact rows in ${factSeconds.toFixed(1)} s (companyfacts.zip): ${Math.round(summary.factRows / factSeconds).toLocaleString('en-US')} fact rows/s; ${summary.filingRows} filing rows in ${filingSeconds.toFixed(1)} s (submissions.zip): ${Math.round(summary.filingRows / filingSeconds).toLocaleString('en-US')} rows/s; ${Math.round((summary.factRows + summary.filingRows) / summary.loadSeconds).toLocaleString('en-US')} rows/s over the whole load`);
  console.log(`derived: ${summary.derived.companies} companies, ${summary.derived.facts} facts in ${summary.derived.seconds.toFixed(1)} s: ${Math.round(summary.derived.facts / summary.derived.seconds).toLocaleString('en-US')} facts/s, ${(summary.derived.companies / summary.derived.seconds).toFixed(1)} companies/s`);
  console.log(`total:   ${total.toFixed(1)} s; second run of the same archives: written ${again.written}, skipped ${again.skipped} in ${again.seconds.toFixed(1)} s`);
  console.log(`size:    database ${mib(Number(sizes!.database))}, "Fact" ${mib(Number(sizes!.fact))} for ${facts.toLocaleString('en-US')} facts: ${(Number(sizes!.fact) / facts).toFixed(0)} bytes per fact`);
  console.log(`memory:  peak RSS ${mib(peakRss)}; machine load average ${load.toFixed(1)} at the start (2 cores shared)`);
} finally {
  clearInterval(sampler);
  await rm(folder, { recursive: true, force: true });
}
