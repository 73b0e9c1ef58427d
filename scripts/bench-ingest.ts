// `npm run bench:ingest [-- <folder>]`: ingests a corpus (default ../shared/data) into a fresh
// database (embedded in memory; embedded in a new folder on disk, as `npm start` has it, with
// BENCH_ON_DISK=1; or DATABASE_URL if set, which should name an empty database) and prints the
// summary line, time by kind, the slowest items and peak memory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../prisma/db.ts';
import { runIngest, summaryLine } from '../ingest/run.ts';
import { folderSource } from '../ingest/sources/folder.ts';
import { createLogger } from '../core/logger.ts';
import { createEventBus } from '../subscriptions/bus.ts';

const folder = path.resolve(process.argv[2] ?? '../shared/data');
const onDisk = process.env.BENCH_ON_DISK === '1' ? await mkdtemp(path.join(tmpdir(), 'ids-bench-ingest-')) : null;
const target = process.env.DATABASE_URL
  ? { kind: 'postgres' as const, url: process.env.DATABASE_URL }
  : { kind: 'pglite' as const, dataDir: onDisk ? path.join(onDisk, 'pglite') : 'memory://' };
const logger = createLogger('silent');
const db = await openDatabase(target);
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const items: { key: string; kind: string; ms: number; status: string }[] = [];

const summary = await runIngest({ prisma: db.prisma, bus: createEventBus(undefined, logger), logger }, folderSource(folder), {
  item: () => {},
  itemDone: (key, kind, ms, status) => void items.push({ key, kind, ms, status }),
  finish: () => {},
});
clearInterval(sampler);
await db.close();
if (onDisk) await rm(onDisk, { recursive: true, force: true });

console.log(summaryLine(summary));
console.log(`database: ${target.kind}${onDisk ? ' on disk' : ''}; peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
const byKind = new Map<string, { n: number; ms: number }>();
for (const i of items) byKind.set(i.kind, { n: (byKind.get(i.kind)?.n ?? 0) + 1, ms: (byKind.get(i.kind)?.ms ?? 0) + i.ms });
console.log('time by kind:');
for (const [kind, t] of [...byKind].sort((a, b) => b[1].ms - a[1].ms)) console.log(`  ${kind.padEnd(26)} ${String(t.n).padStart(3)} items  ${(t.ms / 1000).toFixed(2).padStart(7)} s`);
console.log('slowest items:');
for (const i of [...items].sort((a, b) => b.ms - a.ms).slice(0, 5)) console.log(`  ${(i.ms / 1000).toFixed(2).padStart(6)} s  ${i.key}`);
