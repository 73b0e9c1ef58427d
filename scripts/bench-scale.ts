// `npm run bench:scale`: the corpus at each factor of BENCH_FACTORS (default 1,100,1000; factor
// 1,000 is about 68 million facts and takes an hour or more here), each real company copied under
// synthetic CIKs by corpus:scale's code. For each factor: the bulk load into a fresh PostgreSQL
// database (ids_bench_scale_<factor> on DATABASE_URL's server, else on 127.0.0.1) with bench:bulk's
// figures (rows per second of the load and of the derived build, total time, sizes, peak RSS),
// then the diverse-read benchmark (bench:reads, BENCH_MODE=diverse) against that database, printing
// p50 and p99 per read. Last, each read's p50 at each factor over its p50 at the first factor.
// Every factor draws as many distinct requests per read as the first factor could (factor 1 holds
// 149 distinct statements requests, factor 1,000 149,000): the same traffic against more data, so
// that a ratio measures the data's size, not how many of the requests a cache had already kept.
// The databases are dropped afterwards unless BENCH_KEEP=1.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadReport, measureBulkLoad } from './benchBulkLoad.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const factors = (process.env.BENCH_FACTORS ?? '1,100,1000').split(',').map(Number);
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '../shared/data'));
const server = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const databaseOf = (factor: number) => Object.assign(new URL(server), { pathname: `/ids_bench_scale_${factor}` }).toString();

interface ReadRow {
  name: string;
  kind: string;
  distinct: number;
  p50: number;
  p99: number;
}

/** bench:reads' diverse traffic against one database, in a process of its own; its rows. */
async function diverseReads(databaseUrl: string, distinctBy: Record<string, number>): Promise<ReadRow[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'ids-bench-scale-'));
  const out = path.join(scratch, 'reads.json');
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-reads.ts'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, BENCH_MODE: 'diverse', BENCH_DATABASE_URL: databaseUrl, BENCH_JSON_OUT: out, BENCH_FIRST_READS: '0', BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? '1', BENCH_DISTINCT_BY: JSON.stringify(distinctBy) },
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`bench:reads exited with ${code}`);
    return JSON.parse(await readFile(out, 'utf8')) as ReadRow[];
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function dropDatabase(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

const readsByFactor = new Map<number, ReadRow[]>();
for (const factor of factors) {
  const databaseUrl = databaseOf(factor);
  console.log(`\n== factor ${factor} ==`);
  const measured = await measureBulkLoad({ corpus, factor, databaseUrl });
  for (const line of loadReport(measured)) console.log(line);
  const firstReads = readsByFactor.get(factors[0]!) ?? [];
  const reads = await diverseReads(databaseUrl, Object.fromEntries(firstReads.map((r) => [r.name, r.distinct])));
  readsByFactor.set(factor, reads);
  for (const r of reads) console.log(`reads:   ${r.name.padEnd(48)} ${String(r.distinct).padStart(8)} distinct  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms`);
  if (process.env.BENCH_KEEP !== '1') await dropDatabase(databaseUrl);
}

const [first, ...rest] = factors;
if (first !== undefined && rest.length) {
  console.log(`\ndiverse-read p50 at each factor over its p50 at factor ${first}:`);
  for (const base of readsByFactor.get(first)!) {
    const ratios = rest.map((factor) => {
      const row = readsByFactor.get(factor)!.find((r) => r.name === base.name);
      return `factor ${factor}: ${row ? (row.p50 / base.p50).toFixed(2) : '?'}×`;
    });
    console.log(`  ${base.name.padEnd(48)} ${ratios.join(', ')}`);
  }
}
