// `npm run bench:billing`: what the billing gates and credit debits cost a metered read. The same
// payg organization (unlimited quotas, ample credit) reads GET /v1/entities?q=a, the cheapest
// metered read (its answer is cached), from an instance with billing on (IDS_BILLING on: gates,
// reservations, settlement into the ledger) and one with billing off, interleaved over
// BENCH_ROUNDS rounds (3) of BENCH_SECONDS (8) with 10 connections. Prints req/s of each and the
// median ratio, then checks the ledger after the load: balance = sum of entries, debits = charges.
// PostgreSQL: BENCH_DATABASE_URL (default ids_bench_billing on 127.0.0.1, created if missing).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureDatabase, freePort, startInstance as startCompiled, stopInstances } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_billing';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function startInstance(extra: NodeJS.ProcessEnv) {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', LOG_LEVEL: 'warn', IDS_WEBHOOK_WORKER: 'off', ...extra };
  delete env.REDIS_URL;
  return startCompiled(root, env);
}

const stop = (instance: Awaited<ReturnType<typeof startInstance>>) => stopInstances([instance]);

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
await ensureDatabase(databaseUrl, true);
const env = { ...process.env, DATABASE_URL: databaseUrl };
const cli = (...args: string[]) => execFileSync(process.execPath, ['dist/cli.js', ...args], { cwd: root, env }).toString().trim().split('\n').at(-1)!;
cli('migrate');
const orgId = cli('orgs:create', 'bench:billing', '--plan', 'payg');
const key = cli('keys:create', '--org', orgId);
cli('credits:adjust', '--org', orgId, '--amount-cents', '100000000', '--reason', 'bench credit');
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
await db.query(
  `INSERT INTO "OrgQuota" ("orgId", "meterClass", "period", "limit") SELECT $1, "key", p::"QuotaPeriod", 1000000000 FROM "MeterClass", unnest(array['minute','hour','day']) p ON CONFLICT DO NOTHING`,
  [orgId],
);

const on = await startInstance({ IDS_BILLING: 'on' });
const off = await startInstance({ IDS_BILLING: 'off' });
try {
  const read = (base: string, options: { duration?: number; amount?: number }) => autocannon({ url: `${base}/v1/entities?q=a`, headers: { 'x-api-key': key }, connections: 10, ...options });
  for (const base of [on.url, off.url]) await read(base, { amount: 1000 });
  const billed: number[] = [];
  const unbilled: number[] = [];
  const ratios: number[] = [];
  let served = 0;
  for (let round = 0; round < rounds; round += 1) {
    const without = await read(off.url, { duration: seconds });
    const withBilling = await read(on.url, { duration: seconds });
    if (without.non2xx || withBilling.non2xx) throw new Error(`non-2xx answers: ${without.non2xx} without billing, ${withBilling.non2xx} with`);
    served += withBilling.requests.total;
    unbilled.push(without.requests.average);
    billed.push(withBilling.requests.average);
    ratios.push(withBilling.requests.average / without.requests.average);
  }
  console.log(`GET /v1/entities?q=a (payg, 10 connections, ${rounds} rounds of ${seconds} s, interleaved)`);
  console.log(`  billing on:  ${median(billed).toFixed(0)} req/s`);
  console.log(`  billing off: ${median(unbilled).toFixed(0)} req/s`);
  console.log(`  ratio (median of rounds): ${median(ratios).toFixed(3)}`);
  await stop(on); // settles what it admitted
  const sums = await db.query(
    `SELECT (SELECT "balanceMillicents" FROM "BillingAccount" WHERE "orgId" = $1) AS balance,
            (SELECT sum("amountMillicents") FROM "LedgerEntry" WHERE "orgId" = $1) AS ledger,
            (SELECT -sum("amountMillicents") FROM "LedgerEntry" WHERE "orgId" = $1 AND type = 'debit') AS debits,
            (SELECT sum(millicents) FROM "RequestCharge" WHERE "orgId" = $1) AS charges,
            (SELECT count(*) FROM "RequestCharge" WHERE "orgId" = $1) AS charged,
            (SELECT count(*) FROM "LedgerEntry" WHERE "orgId" = $1 AND type = 'debit') AS entries`,
    [orgId],
  );
  const s = sums.rows[0];
  console.log(`ledger after the load: balance ${s.balance} = sum of entries ${s.ledger}: ${s.balance === s.ledger}; debits ${s.debits} = charges ${s.charges}: ${s.debits === s.charges}`);
  console.log(`  ${s.charged} charged requests (of ${served + 1000} served with billing on) settled in ${s.entries} debit entries`);
} finally {
  await Promise.all([stop(on), stop(off)]);
  await db.end();
}
