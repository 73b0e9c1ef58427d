// `npm run bench:start`: how long `npm start` takes to answer, and what running compiled
// JavaScript saves over tsx. BENCH_ROUNDS rounds (default 5), interleaved, medians:
// - compiled (dist/main.js, what `npm start` runs) against a fresh embedded state (a new
//   IDS_STATE_DIR each round, demo organization made), a migrated embedded state (one folder
//   every round), a fresh PostgreSQL database (a new one each round) and a migrated one: time from
//   spawn to the "listening" line and to the first answer;
// - compiled and tsx on the migrated PostgreSQL database (BENCH_DATABASE_URL, default
//   ids_bench_start on 127.0.0.1): first answer, and memory (RSS) after 1,000 warm requests, with
//   tsx's figures as ratios to the compiled ones.
// The embedded templates under node_modules/.cache/ids-pglite are made, when missing, by an
// unmeasured first start (that first start's time is printed too: a new machine pays it once).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import pg from 'pg';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ensureDatabase, freePort } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_start';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const variants = {
  compiled: ['--enable-source-maps', 'dist/main.js'],
  tsx: ['--import', 'tsx', 'server/main.ts'],
} as const;
type Variant = keyof typeof variants;

const rssKb = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]);

/** Starts the service; resolves when it answers, with the times to its "listening" line and to that answer. */
async function startOnce(variant: Variant, database: { DATABASE_URL: string } | { IDS_STATE_DIR: string }, options: { demo?: boolean; warmRequests?: boolean } = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...variants[variant]], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', ...database, PORT: String(port), HOST: '127.0.0.1', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: options.demo ? 'on' : 'off', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let listeningMs = NaN;
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (Number.isNaN(listeningMs) && /"msg":"listening"/.test(output)) listeningMs = performance.now() - started;
  });
  try {
    const url = `http://127.0.0.1:${port}/v1/billing/rates`;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant} exited with ${child.exitCode}`);
      const ok = await fetch(url).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const firstAnswerMs = performance.now() - started;
    // The embedded database's owner channel opens between the port and the "listening" line.
    for (let waited = 0; Number.isNaN(listeningMs) && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    if (options.warmRequests) await autocannon({ url, connections: 10, amount: 1000 });
    return { listeningMs, firstAnswerMs, rssMb: rssKb(child.pid!) / 1024 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** A new, empty PostgreSQL database beside BENCH_DATABASE_URL's; dropped by the returned function. */
async function freshPostgres(round: number): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(databaseUrl);
  const name = `${url.pathname.slice(1)}_fresh_${round}`;
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await run(`CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

await ensureDatabase(databaseUrl);
const buildStarted = performance.now();
execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
console.log(`build (scripts/build.mjs): ${(performance.now() - buildStarted).toFixed(0)} ms`);
await startOnce('compiled', { DATABASE_URL: databaseUrl }); // migrates the database on a first run; not measured

const scratch = await mkdtemp(path.join(tmpdir(), 'ids-bench-start-'));
const migratedState = path.join(scratch, 'migrated');
// Makes the embedded templates when this machine has none yet, and the migrated state folder.
const first = await startOnce('compiled', { IDS_STATE_DIR: migratedState }, { demo: true });
console.log(`first embedded start (templates made if missing): listening ${first.listeningMs.toFixed(0)} ms`);

type Figures = { listeningMs: number; firstAnswerMs: number; rssMb: number };
const starts: Record<string, Figures[]> = { 'embedded, fresh state': [], 'embedded, migrated': [], 'PostgreSQL, fresh db': [], 'PostgreSQL, migrated': [] };
const results: Record<Variant, Figures[]> = { compiled: [], tsx: [] };
for (let round = 0; round < rounds; round++) {
  starts['embedded, fresh state']!.push(await startOnce('compiled', { IDS_STATE_DIR: path.join(scratch, `fresh-${round}`) }, { demo: true }));
  starts['embedded, migrated']!.push(await startOnce('compiled', { IDS_STATE_DIR: migratedState }, { demo: true }));
  const fresh = await freshPostgres(round);
  starts['PostgreSQL, fresh db']!.push(await startOnce('compiled', { DATABASE_URL: fresh.url }, { demo: true }));
  await fresh.drop();
  for (const variant of Object.keys(variants) as Variant[]) results[variant].push(await startOnce(variant, { DATABASE_URL: databaseUrl }, { warmRequests: true }));
  starts['PostgreSQL, migrated']!.push(results.compiled.at(-1)!);
}
await rm(scratch, { recursive: true, force: true });

console.log(`\n${rounds} starts each, interleaved, medians (compiled; demo organization on, except on the migrated PostgreSQL database)`);
console.log(`${'start'.padEnd(24)} ${'listening ms'.padStart(13)} ${'first answer ms'.padStart(16)}`);
for (const [name, r] of Object.entries(starts)) {
  console.log(`${name.padEnd(24)} ${median(r.map((x) => x.listeningMs)).toFixed(0).padStart(13)} ${median(r.map((x) => x.firstAnswerMs)).toFixed(0).padStart(16)}`);
}
console.log(`\nmigrated PostgreSQL, compiled against tsx`);
console.log(`${'run'.padEnd(10)} ${'first answer ms'.padStart(16)} ${'RSS MB'.padStart(8)}`);
for (const variant of Object.keys(variants) as Variant[]) {
  const r = results[variant];
  console.log(`${variant.padEnd(10)} ${median(r.map((x) => x.firstAnswerMs)).toFixed(0).padStart(16)} ${median(r.map((x) => x.rssMb)).toFixed(0).padStart(8)}`);
}
const ratio = (pick: (x: Figures) => number) => median(results.tsx.map(pick)) / median(results.compiled.map(pick));
console.log(`tsx / compiled: first answer ${ratio((x) => x.firstAnswerMs).toFixed(2)}×, memory ${ratio((x) => x.rssMb).toFixed(2)}×`);
