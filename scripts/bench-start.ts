// `npm run bench:start`: what running compiled JavaScript (what `npm start` runs) saves over tsx.
// Starts the service each way BENCH_ROUNDS times (default 5), interleaved, on one PostgreSQL
// database (BENCH_DATABASE_URL, default ids_bench_start on 127.0.0.1, created and migrated by the
// first start), and prints the medians of: time from spawn to the first answer, and memory (RSS)
// after 1,000 warm requests; then each figure of tsx as a ratio to the compiled one.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

async function startOnce(variant: Variant) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...variants[variant]], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
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
    await autocannon({ url, connections: 10, amount: 1000 });
    return { firstAnswerMs, rssMb: rssKb(child.pid!) / 1024 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
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
await startOnce('compiled'); // migrates the database on a first run; not measured

const results: Record<Variant, { firstAnswerMs: number; rssMb: number }[]> = { compiled: [], tsx: [] };
for (let round = 0; round < rounds; round++) {
  for (const variant of Object.keys(variants) as Variant[]) results[variant].push(await startOnce(variant));
}
console.log(`\n${rounds} starts each, interleaved, medians`);
console.log(`${'run'.padEnd(10)} ${'first answer ms'.padStart(16)} ${'RSS MB'.padStart(8)}`);
for (const variant of Object.keys(variants) as Variant[]) {
  const r = results[variant];
  console.log(`${variant.padEnd(10)} ${median(r.map((x) => x.firstAnswerMs)).toFixed(0).padStart(16)} ${median(r.map((x) => x.rssMb)).toFixed(0).padStart(8)}`);
}
const ratio = (pick: (x: { firstAnswerMs: number; rssMb: number }) => number) => median(results.tsx.map(pick)) / median(results.compiled.map(pick));
console.log(`tsx / compiled: first answer ${ratio((x) => x.firstAnswerMs).toFixed(2)}×, memory ${ratio((x) => x.rssMb).toFixed(2)}×`);
