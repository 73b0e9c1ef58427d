// `npm run bench:events`: the events platform under load, on one PostgreSQL database
// (BENCH_DATABASE_URL, default ids_bench_events on 127.0.0.1, created if missing), with the
// service run as `npm start` runs it (compiled), one or two instances sharing Redis (REDIS_URL,
// default redis://127.0.0.1:6379), as production runs several. Events are written as their causes
// write them: a row in a transaction, then a notice on the event bus. Prints:
// - webhook events delivered per second to a local receiver, with 1 and 2 instances
//   (BENCH_EVENTS events written at once, default 2,000), and the event→delivery latency p50/p99
//   of events written at a steady BENCH_RATE per second (default 100) for BENCH_SECONDS (8);
// - stream poll requests per second (GET /v1/stream_subscriptions/{id}/events, autocannon);
// - what recording every request for diagnostics costs: req/s of GET /v1/limits with
//   IDS_REQUEST_RECORDS on and off, interleaved over BENCH_ROUNDS rounds (3), and their ratio.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureDatabase, freePort, startInstance as startCompiled, stopInstances } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_events';
const burst = Number(process.env.BENCH_EVENTS ?? 2000);
const rate = Number(process.env.BENCH_RATE ?? 100);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl);

async function startInstance(extra: NodeJS.ProcessEnv = {}) {
  const port = await freePort();
  return startCompiled(root, { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, PORT: String(port), HOST: '127.0.0.1', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', LOG_LEVEL: 'warn', IDS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', IDS_WEBHOOK_SECRET_KEY: randomKey, ...extra });
}

const stopAll = stopInstances;

const randomKey = randomBytes(32).toString('base64');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** A receiver that notes when each webhook-id first arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, Date.now());
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { arrivals, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => new Promise((r) => server.close(r)) };
}

/** An organization with a key whose quotas do not limit the load, made with the operator CLI. */
function organization(): { orgId: string; key: string } {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  const cli = (...args: string[]) => execFileSync(process.execPath, ['dist/cli.js', ...args], { cwd: root, env }).toString().trim().split('\n').at(-1)!;
  const orgId = cli('orgs:create', 'bench:events', '--plan', 'team');
  return { orgId, key: cli('keys:create', '--org', orgId) };
}

async function unlimited(db: pg.Client, orgId: string) {
  await db.query(
    `INSERT INTO "OrgQuota" ("orgId", "meterClass", "period", "limit") SELECT $1, "key", p::"QuotaPeriod", 1000000000 FROM "MeterClass", unnest(array['minute','hour','day']) p ON CONFLICT DO NOTHING`,
    [orgId],
  );
}

/** Writes `count` api_key.created events of the organization in one transaction; returns their ids. */
async function writeEvents(db: pg.Client, orgId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `evt_bench${randomBytes(10).toString('hex')}`);
  await db.query(`INSERT INTO "Event" ("id", "type", "orgId", "payload") SELECT id, 'api_key.created', $1, '{"apiKeyId":"key_bench","name":"bench","hint":"idsk_…0000"}'::jsonb FROM unnest($2::text[]) id`, [orgId, ids]);
  // what publishAll does after a commit: the instances hear of new events without polling
  await redis.publish('ids:events', JSON.stringify({ id: ids[0], seq: '0', type: 'bench.written', orgId: null, payload: {}, createdAt: new Date().toISOString() }));
  return ids;
}

async function deliveryRun(db: pg.Client, instances: number) {
  const receiver = await startReceiver();
  const running = [];
  for (let i = 0; i < instances; i += 1) running.push(await startInstance());
  try {
    const { orgId, key } = organization();
    await unlimited(db, orgId);
    const created = await fetch(`${running[0]!.url}/v1/webhook_endpoints`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, eventTypes: ['api_key.created'] }) });
    if (!created.ok) throw new Error(`endpoint: ${created.status} ${await created.text()}`);

    // Throughput: a burst written at once, until every event has arrived.
    const started = Date.now();
    const ids = await writeEvents(db, orgId, burst);
    while (ids.some((id) => !receiver.arrivals.has(id))) await new Promise((r) => setTimeout(r, 20));
    const perSecond = burst / ((Date.now() - started) / 1000);

    // Latency: events written at a steady rate, from commit to arrival.
    const written = new Map<string, number>();
    const tick = 100;
    for (let elapsed = 0; elapsed < seconds * 1000; elapsed += tick) {
      const at = Date.now();
      for (const id of await writeEvents(db, orgId, Math.max(1, Math.round((rate * tick) / 1000)))) written.set(id, at);
      await new Promise((r) => setTimeout(r, Math.max(0, tick - (Date.now() - at))));
    }
    while ([...written.keys()].some((id) => !receiver.arrivals.has(id))) await new Promise((r) => setTimeout(r, 20));
    const latencies = [...written].map(([id, at]) => receiver.arrivals.get(id)! - at);
    return { perSecond, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
  } finally {
    await stopAll(running);
    await receiver.close();
  }
}

async function streamPolls(db: pg.Client) {
  const [instance] = [await startInstance({ IDS_WEBHOOK_WORKER: 'off' })];
  try {
    const { orgId, key } = organization();
    await unlimited(db, orgId);
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const created = await fetch(`${instance!.url}/v1/stream_subscriptions`, { method: 'POST', headers, body: JSON.stringify({ eventTypes: ['api_key.created'] }) });
    if (!created.ok) throw new Error(`stream subscription: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    await writeEvents(db, orgId, 100);
    const url = `${instance!.url}/v1/stream_subscriptions/${id}/events?limit=25`;
    await autocannon({ url, headers, connections: 10, amount: 300 });
    const result = await autocannon({ url, headers, connections: 10, duration: seconds });
    if (result.non2xx) throw new Error(`stream polls: ${result.non2xx} non-2xx answers`);
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
  } finally {
    await stopAll([instance!]);
  }
}

async function recordingCost(db: pg.Client) {
  const on = await startInstance({ IDS_WEBHOOK_WORKER: 'off' });
  const off = await startInstance({ IDS_WEBHOOK_WORKER: 'off', IDS_REQUEST_RECORDS: 'off' });
  try {
    const { orgId, key } = organization();
    await unlimited(db, orgId);
    const load = async (base: string) => (await autocannon({ url: `${base}/v1/limits`, headers: { 'x-api-key': key }, connections: 10, duration: seconds })).requests.average;
    for (const base of [on.url, off.url]) await autocannon({ url: `${base}/v1/limits`, headers: { 'x-api-key': key }, connections: 10, amount: 500 });
    const ratios: number[] = [];
    const withRecords: number[] = [];
    const without: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const a = await load(off.url);
      const b = await load(on.url);
      without.push(a);
      withRecords.push(b);
      ratios.push(b / a);
    }
    return { on: median(withRecords), off: median(without), ratio: median(ratios) };
  } finally {
    await stopAll([on, off]);
  }
}

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
await ensureDatabase(databaseUrl);
execFileSync(process.execPath, ['dist/cli.js', 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'ignore' });
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
try {
  console.log(`webhooks: ${burst} events written at once (throughput), then ${rate}/s for ${seconds} s (latency from commit to arrival)`);
  for (const instances of [1, 2]) {
    const run = await deliveryRun(db, instances);
    console.log(`  ${instances} instance${instances > 1 ? 's' : ' '}: ${run.perSecond.toFixed(0).padStart(6)} events/s delivered   latency p50 ${run.p50} ms, p99 ${run.p99} ms`);
  }
  const polls = await streamPolls(db);
  console.log(`stream polls (25 events a page, 10 connections): ${polls.rps.toFixed(0)} req/s, p50 ${polls.p50} ms, p99 ${polls.p99} ms`);
  const cost = await recordingCost(db);
  console.log(`diagnostics records, GET /v1/limits, ${rounds} rounds interleaved: ${cost.on.toFixed(0)} req/s recorded vs ${cost.off.toFixed(0)} req/s not recorded (ratio ${cost.ratio.toFixed(3)})`);
} finally {
  await db.end();
  redis.disconnect();
}
