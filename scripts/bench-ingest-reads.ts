// `npm run bench:ingest-reads`: what an ingest does to the reads served meanwhile. The compiled
// service starts on a fresh state (embedded by default; BENCH_DATABASE=postgres for a fresh
// PostgreSQL database beside BENCH_DATABASE_URL's) and ingests the corpus in the background, as a
// first `npm start` does. From the moment it listens, reads are sent at a steady rate
// (BENCH_RATE a second, default 20, each one on its own, whatever the answers before it took:
// latencies are not hidden by a slow one holding the next back) drawn from a mix of distinct
// requests (the key's account, companies, filings and facts of the corpus's companies), until
// `GET /v1/ingest/status` says the ingest is over; then the same traffic for BENCH_AFTER_SECONDS
// (default 15) on the idle service. Prints p50, p99 and the slowest read of each phase, and
// their ratios. An answer of 5xx is counted and printed (a 404 for a company not loaded yet is
// the answer at that moment, and counts as one). BENCH_CPU_PROFILE=<folder> has the service write
// its CPU profile there: what ran on its thread while reads waited.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, freePort } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rate = Number(process.env.BENCH_RATE ?? 20);
const afterSeconds = Number(process.env.BENCH_AFTER_SECONDS ?? 15);
const onPostgres = process.env.BENCH_DATABASE === 'postgres';
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '../shared/data'));

const tickers = ['AAPL', 'MSFT', 'NVDA', 'TSLA', 'MRVL'];
const tags = ['Revenues', 'NetIncomeLoss', 'Assets', 'Liabilities', 'StockholdersEquity', 'EarningsPerShareDiluted', 'OperatingIncomeLoss', 'CashAndCashEquivalentsAtCarryingValue'];
const paths = [
  '/v1/me',
  ...tickers.flatMap((t) => [`/v1/entities?q=${t}`, `/v1/filings?ticker=${t}&limit=20`, `/v1/filings?ticker=${t}&form=10-K&limit=5`]),
  ...tickers.flatMap((t) => tags.flatMap((tag) => [`/v1/facts?ticker=${t}&tag=${tag}&limit=10`, `/v1/facts?ticker=${t}&tag=${tag}&form=10-K&limit=4`])),
];

const cli = (env: NodeJS.ProcessEnv, ...args: string[]) => execFileSync(process.execPath, ['--enable-source-maps', 'dist/cli.js', ...args], { cwd: root, env, encoding: 'utf8' }).trim();

interface Sample {
  ms: number;
  status: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
};

/** Reads at `rate` a second until `done()` says so; each read's time and status. */
async function steadyReads(url: string, key: string, done: () => boolean): Promise<Sample[]> {
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const started = performance.now();
  while (!done()) {
    const path = paths[(n * 7919) % paths.length]!; // a fixed, spread order over the mix
    const sent = performance.now();
    const read = fetch(url + path, { headers: { 'x-api-key': key } })
      .then(async (r) => {
        await r.arrayBuffer();
        samples.push({ ms: performance.now() - sent, status: r.status });
      })
      .catch(() => void samples.push({ ms: performance.now() - sent, status: 0 }))
      .finally(() => inFlight.delete(read));
    inFlight.add(read);
    n++;
    const next = started + (n * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await Promise.all(inFlight);
  return samples;
}

function report(name: string, samples: Sample[]): { p50: number; p99: number } {
  const ms = samples.map((s) => s.ms);
  const failed = samples.filter((s) => s.status === 0 || s.status >= 500);
  const byStatus = new Map<number, number>();
  for (const s of failed) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
  const failures = failed.length ? [...byStatus].map(([status, n]) => `${n} ${status || 'no answer'}`).join(', ') : '0';
  const p50 = percentile(ms, 50);
  const p99 = percentile(ms, 99);
  console.log(`${name.padEnd(22)} ${String(samples.length).padStart(6)} reads  p50 ${p50.toFixed(1).padStart(7)} ms  p99 ${p99.toFixed(1).padStart(7)} ms  max ${Math.max(...ms).toFixed(1).padStart(7)} ms  5xx or no answer: ${failures}`);
  return { p50, p99 };
}

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
const scratch = await mkdtemp(path.join(tmpdir(), 'ids-bench-ingest-reads-'));
let database: NodeJS.ProcessEnv;
if (onPostgres) {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_ingest_reads');
  await ensureDatabase(url.toString(), true);
  database = { DATABASE_URL: url.toString() };
} else {
  database = { DATABASE_URL: '', IDS_STATE_DIR: path.join(scratch, 'state') };
}
const port = await freePort();
const env = { ...process.env, ...database, PORT: String(port), HOST: '127.0.0.1', IDS_DATA_DIR: corpus, IDS_AUTO_INGEST: 'on', IDS_DEMO_ORG: 'off', LOG_LEVEL: 'warn' };
const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`, '--cpu-prof-interval=500'] : [];
const child = spawn(process.execPath, [...profile, '--enable-source-maps', 'dist/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
try {
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // an organization of its own whose quotas the steady traffic stays well inside (the CLI reaches the running server)
  const orgId = cli(env, 'orgs:create', 'bench:ingest-reads', '--plan', 'enterprise').split('\n').at(-1)!;
  const key = cli(env, 'keys:create', '--org', orgId, '--name', 'bench').split('\n').at(-1)!; // the secret is its last line

  let ingesting = true;
  const watcher = (async () => {
    while (ingesting) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const status = (await fetch(`${url}/v1/ingest/status`, { headers: { 'x-api-key': key } }).then((r) => r.json(), () => null)) as { state?: string } | null;
      if (status?.state === 'idle') ingesting = false;
    }
  })();
  const started = performance.now();
  const during = await steadyReads(url, key, () => !ingesting);
  await watcher;
  const ingestSeconds = (performance.now() - started) / 1000;
  const afterUntil = performance.now() + afterSeconds * 1000;
  const after = await steadyReads(url, key, () => performance.now() > afterUntil);

  console.log(`\n${onPostgres ? 'PostgreSQL' : 'embedded'} database, the corpus ingested in the background in ${ingestSeconds.toFixed(1)} s; ${rate} reads a second over ${paths.length} distinct requests`);
  const a = report('during the ingest', during);
  const b = report('after it', after);
  console.log(`during / after: p50 ${(a.p50 / b.p50).toFixed(2)}×, p99 ${(a.p99 / b.p99).toFixed(2)}×`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await rm(scratch, { recursive: true, force: true });
}
