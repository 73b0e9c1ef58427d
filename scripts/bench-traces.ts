// `npm run bench:traces`: what tracing costs a request. The same organization (unlimited quotas)
// sends the same requests to three instances on one PostgreSQL database, interleaved over
// BENCH_ROUNDS rounds (3) of BENCH_SECONDS (8) with BENCH_CONNECTIONS (10): tracing off
// (IDS_TRACING=off), tracing on (spans kept with each request's record), and tracing on with every
// span also exported to an OTLP/HTTP collector (a local server that accepts and drops them).
// Prints, per request, the median req/s and p50 latency of each, and the median ratio of each
// traced instance's req/s to the untraced one's in the same round.
// PostgreSQL: BENCH_DATABASE_URL (default ids_bench_traces on 127.0.0.1, created fresh).
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureDatabase, freePort, startInstance as startCompiled, stopInstances } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_traces';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const requests = [
  { name: 'GET /v1/api_keys?limit=25', method: 'GET' as const, path: '/v1/api_keys?limit=25' },
  { name: 'apiKeys via POST /graphql', method: 'POST' as const, path: '/graphql', body: JSON.stringify({ query: 'query Keys { apiKeys(first: 25) { nodes { id name } } }' }) },
  { name: 'GET /v1/me', method: 'GET' as const, path: '/v1/me' },
];

// a collector that takes every export and keeps nothing
const collector = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

async function startInstance(extra: NodeJS.ProcessEnv) {
  const port = await freePort();
  const { REDIS_URL: _redis, OTEL_EXPORTER_OTLP_ENDPOINT: _otlp, ...inherited } = process.env;
  return startCompiled(root, { ...inherited, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', LOG_LEVEL: 'warn', IDS_WEBHOOK_WORKER: 'off', ...extra });
}

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
await ensureDatabase(databaseUrl, true);
const env = { ...process.env, DATABASE_URL: databaseUrl };
const cli = (...args: string[]) => execFileSync(process.execPath, ['dist/cli.js', ...args], { cwd: root, env }).toString().trim().split('\n').at(-1)!;
cli('migrate');
const orgId = cli('orgs:create', 'bench:traces', '--plan', 'team');
const key = cli('keys:create', '--org', orgId);
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
await db.query(
  `INSERT INTO "OrgQuota" ("orgId", "meterClass", "period", "limit") SELECT $1, "key", p::"QuotaPeriod", 1000000000 FROM "MeterClass", unnest(array['minute','hour','day']) p ON CONFLICT DO NOTHING`,
  [orgId],
);
await db.end();

const variants = [
  { name: 'tracing off', env: { IDS_TRACING: 'off' } },
  { name: 'tracing on', env: { IDS_TRACING: 'on' } },
  { name: 'on + OTLP export', env: { IDS_TRACING: 'on', OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl } },
];
const instances = await Promise.all(variants.map((v) => startInstance(v.env)));
try {
  for (const request of requests) {
    const run = (base: string, options: { duration?: number; amount?: number }) =>
      autocannon({ url: base + request.path, method: request.method, body: request.body, headers: { 'x-api-key': key, 'content-type': 'application/json' }, connections, ...options });
    for (const instance of instances) await run(instance.url, { amount: 500 }); // warm: compiled operations, connections
    const rps = variants.map(() => [] as number[]);
    const p50 = variants.map(() => [] as number[]);
    const ratios = variants.map(() => [] as number[]);
    for (let round = 0; round < rounds; round += 1) {
      const results: autocannon.Result[] = [];
      for (const instance of instances) results.push(await run(instance.url, { duration: seconds }));
      results.forEach((result, i) => {
        if (result.non2xx) throw new Error(`${result.non2xx} non-2xx answers from ${variants[i]!.name}`);
        rps[i]!.push(result.requests.average);
        p50[i]!.push(result.latency.p50);
        ratios[i]!.push(result.requests.average / results[0]!.requests.average);
      });
    }
    console.log(`${request.name} (${connections} connections, ${rounds} rounds of ${seconds} s, interleaved)`);
    variants.forEach((variant, i) => {
      const ratio = i === 0 ? '' : `   req/s ratio to tracing off: ${median(ratios[i]!).toFixed(3)}`;
      console.log(`  ${variant.name.padEnd(18)} ${median(rps[i]!).toFixed(0).padStart(6)} req/s   p50 ${median(p50[i]!).toFixed(1)} ms${ratio}`);
    });
  }
} finally {
  await stopInstances(instances);
  collector.close();
}
