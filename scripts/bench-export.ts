// `npm run bench:export`: exporting the event log (GET /v1/delivery/events/export) on PostgreSQL
// (BENCH_DATABASE_URL, default ids_bench_export on 127.0.0.1, recreated), with the service in this
// process and a client that reads the download and keeps nothing. Writes BENCH_EXPORT_EVENTS
// events (default 100,000) of one organization, then exports a tenth, half and all of them as
// NDJSON, and all as JSON. Prints per export: records, bytes, seconds, records per second, the peak
// RSS growth over the resident size before it (sampled every 20 ms) and the heap still held after
// it (after a GC): flat when the export holds one page at a time, whatever its size. The heap is
// capped (--max-old-space-size=192, in the npm script): uncapped, V8 sizes its heap to the
// allocation rate and collects lazily, so RSS would follow the garbage, not what is held.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { createOrganization } from '../resolvers/orgs.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { ensureDatabase } from './benchDatabase.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_export';
const total = Number(process.env.BENCH_EXPORT_EVENTS ?? 100_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

await ensureDatabase(databaseUrl, true);
const base = loadConfig({ ...process.env, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-export-')), PORT: '0' });
const service = await createService(
  { ...base, database: { kind: 'postgres', url: databaseUrl }, identityProvider: undefined, webhooks: { ...base.webhooks, worker: false }, recordRequests: false },
  { logger: createLogger('warn') },
);
const url = await service.listen(0);
const { prisma, bus } = service.services;

const org = await createOrganization(prisma, 'bench:export', { planKey: 'team' });
const { secret: key } = await issueApiKey({ prisma, bus }, org.id, 'bench key');
const started = Date.now();
// in batches of their own transactions (and creation times), written by the database: the
// benchmark process holds none of it
const batch = 10_000;
for (let written = 0; written < total; written += batch) {
  await prisma.$executeRaw`
    INSERT INTO "Event" ("id", "type", "orgId", "payload")
    SELECT 'evt_' || substr(md5(random()::text || n::text), 1, 24), 'api_key.revoked', ${org.id}, jsonb_build_object('apiKeyId', 'key_' || n, 'hint', 'idsk_…abcd', 'note', repeat('x', 200))
    FROM generate_series(${written + 1}::int, ${Math.min(written + batch, total)}::int) AS n`;
}
await prisma.$executeRaw`ANALYZE "Event"`; // as autovacuum would soon: the planner's estimates of the organization's events
console.log(`wrote ${total.toLocaleString('en-US')} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);

/** Reads a download to its end, keeping nothing but counts, while RSS is sampled. */
async function exportOnce(query: string) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const response = await fetch(`${url}/v1/delivery/events/export?${query}`, { headers: { 'x-api-key': key } });
  if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  let newlines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) newlines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  global.gc?.();
  return { bytes, newlines, seconds, growth: peak - before, retained: process.memoryUsage().heapUsed - heapBefore };
}

const events = await prisma.event.count({ where: { orgId: org.id } });

/** About the first `share` of the events: those created up to the one that far along (a batch shares its creation time). */
async function upTo(share: number) {
  if (share === 1) return { query: '', records: events };
  const [at] = await prisma.event.findMany({ where: { orgId: org.id }, orderBy: { seq: 'asc' }, skip: Math.floor(events * share), take: 1 });
  const to = new Date(at!.createdAt.getTime() + 1);
  return { query: `&to=${to.toISOString()}`, records: await prisma.event.count({ where: { orgId: org.id, createdAt: { lt: to } } }) };
}

await exportOnce(`from=${new Date(Date.now() + 86_400_000).toISOString()}`); // warm-up: code paths loaded, nothing exported
for (const [format, share] of [['ndjson', 0.1], ['ndjson', 0.5], ['ndjson', 1], ['json', 1]] as const) {
  const { query, records } = await upTo(share);
  const r = await exportOnce(`format=${format}${query}`);
  if (format === 'ndjson' && r.newlines !== records) throw new Error(`exported ${r.newlines} lines, expected ${records}`);
  console.log(
    `${format.padEnd(6)} ${String(records).padStart(7)} records  ${mb(r.bytes).padStart(8)}  ${r.seconds.toFixed(2).padStart(6)} s  ${Math.round(records / r.seconds).toLocaleString('en-US').padStart(7)} records/s  peak RSS growth ${mb(r.growth).padStart(8)}  heap retained after GC ${mb(r.retained)}`,
  );
}
console.log(`RSS now ${mb(process.memoryUsage().rss)}`);
await service.close();
