// `npm run bench:reads`: the data reads of this service against a raw node:http + pg server
// (scripts/bench-reads-raw.ts) on the same PostgreSQL database, interleaved, with autocannon.
// Prints req/s, p50 and p99 of each read and its ratio to the raw server measured next to it
// (medians over the rounds): absolute figures drift on a shared machine, ratios much less.
//
// Two kinds of traffic (BENCH_MODE=hot|diverse|both, default both). Hot: one URL per read, over
// and over, which the whole-answer cache serves. Diverse: every request drawn at random (a fixed
// seed, BENCH_SEED) from all the distinct requests the corpus makes possible for the read (facts:
// every ticker and tag × forms × limits, through REST and the same operation over GraphQL;
// statements, segments and filings: every company × their options), the raw server answering the
// same request: what a cache barely helps.
//
// The database is BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/ids_bench_reads,
// created if missing). The corpus (../shared/data) is ingested into it when it holds none; the
// ingest's time is printed either way. BENCH_FRESH=1 drops the database first (a new ingest).
// BENCH_SECONDS (8), BENCH_CONNECTIONS (10) and BENCH_ROUNDS (3) shape the load; REDIS_URL, if
// set, is passed to the service. BENCH_ONLY=<text> measures only the reads whose name contains it.
// BENCH_DISTINCT (50,000) caps the distinct requests of a diverse read: drawn at random from them
// all (the fixed seed) when a large database makes more possible. BENCH_DISTINCT_BY ({"<read>": n},
// JSON) caps named reads further: bench:scale measures each factor with the first factor's counts.
// BENCH_JSON_OUT=<file> also writes the table's rows there as JSON (bench:scale reads them).
// BENCH_WARM=1 first sends every distinct request of each diverse read once, to the service and
// to the raw server, then waits out the service's answer cache (IDS_REQUEST_CACHE_TTL_MS): the
// pages the reads need are in memory, none of the answers is kept. Without it, a database larger
// than memory is measured on the pages each request finds: the disk's speed more than ours.
//
// First reads: before any load, the statements of companies no request has read yet are read one
// at a time (BENCH_FIRST_READS companies, default 40), each twice: the first read builds the whole
// answer as a read right after an ingest does (the ingest drops what was kept), the second is
// served kept. Their p50s and ratio are printed after the table.
import { spawn, type ChildProcess } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { print } from 'graphql';
import { openDatabase } from '../prisma/db.ts';
import { Prisma } from '../prisma/generated/client/client.ts';
import { runIngest, summaryLine } from '../ingest/run.ts';
import { folderSource } from '../ingest/sources/folder.ts';
import { FactsDocument } from '../catalogue/operations/generated.ts';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { createOrganization } from '../resolvers/orgs.ts';
import { createLogger } from '../core/logger.ts';
import { createEventBus } from '../subscriptions/bus.ts';
import { ensureDatabase } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_reads';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const logger = createLogger('silent');

interface Read {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

const factsQuery = { ticker: 'AAPL', tag: 'Revenues', form: '10-K', limit: 25 };
const reads: Read[] = [
  { name: 'GET /v1/facts?ticker=AAPL&tag=Revenues&form=10-K&limit=25', method: 'GET', path: '/v1/facts?ticker=AAPL&tag=Revenues&form=10-K&limit=25' },
  { name: 'same facts operation via POST /graphql', method: 'POST', path: '/graphql', body: JSON.stringify({ query: print(FactsDocument), variables: { ...factsQuery, cik: null, unit: null } }) },
  { name: 'GET /v1/statements/all?ticker=AAPL', method: 'GET', path: '/v1/statements/all?ticker=AAPL' },
  { name: 'GET /v1/companies/segments?ticker=AAPL', method: 'GET', path: '/v1/companies/segments?ticker=AAPL' },
  { name: 'GET /v1/filings?ticker=AAPL&limit=100', method: 'GET', path: '/v1/filings?ticker=AAPL&limit=100' },
  { name: 'GET /v1/me', method: 'GET', path: '/v1/me' },
];
const only = process.env.BENCH_ONLY;
const measured = only ? reads.filter((r) => r.name.includes(only)) : reads;
const rawFacts: Read = { name: 'raw node:http + pg facts', method: 'GET', path: `/v1/facts?ticker=AAPL&tag=Revenues&form=10-K&limit=25` };

/** The corpus in the database (ingested now if it holds none), and an organization whose quotas do not limit the load. */
async function prepare(): Promise<{ key: string; ingest: string }> {
  await ensureDatabase(databaseUrl, process.env.BENCH_FRESH === '1');
  const db = await openDatabase({ kind: 'postgres', url: databaseUrl });
  try {
    const { prisma } = db;
    let ingest: string;
    if ((await prisma.ingestItem.count({ where: { status: 'ingested' } })) === 0) {
      const summary = await runIngest({ prisma, bus: createEventBus(undefined, logger), logger }, folderSource(path.join(root, '../shared/data')));
      ingest = summaryLine(summary);
    } else {
      const runs = await prisma.ingestRun.findMany({ where: { written: { gt: 0 }, finishedAt: { not: null } }, orderBy: { startedAt: 'asc' }, take: 1 });
      const run = runs[0];
      ingest = run ? `corpus loaded earlier by ${run.id}: written ${run.written} in ${((run.finishedAt!.getTime() - run.startedAt.getTime()) / 1000).toFixed(1)} s (BENCH_FRESH=1 ingests again)` : 'corpus loaded earlier';
    }
    const org = await createOrganization(prisma, 'bench:reads', { planKey: 'team' });
    const classes = await prisma.meterClass.findMany();
    await prisma.orgQuota.createMany({
      data: classes.flatMap((c) => (['minute', 'hour', 'day'] as const).map((period) => ({ orgId: org.id, meterClass: c.key, period, limit: 1_000_000_000 }))),
    });
    const { secret } = await issueApiKey({ prisma, bus: createEventBus(undefined, logger) }, org.id, 'bench:reads');
    return { key: secret, ingest };
  } finally {
    await db.close();
  }
}

/** Starts a child process and resolves with its base URL once it answers `ready`. */
async function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv, portFrom: (line: string) => number | undefined): Promise<{ child: ChildProcess; url: string }> {
  // Its own process group, so that stopping it stops what it started (npm starts node).
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        const port = portFrom(line);
        if (port) {
          child.stdout!.off('data', onData);
          child.stdout!.resume(); // keep draining its output
          return resolve({ child, url: `http://127.0.0.1:${port}` });
        }
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code} before it was ready`)));
  });
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Spec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** A read as it is measured: the requests drawn from, and the raw server's request for each. */
interface Mix {
  name: string;
  kind: 'hot' | 'diverse';
  service: Spec[];
  raw: Spec[];
}

const mode = process.env.BENCH_MODE ?? 'both';
const seed = Number(process.env.BENCH_SEED ?? 20261126);
const limits = [5, 10, 25, 50];

/** mulberry32: the same sequence of draws for the service and for the raw server. */
function draws(from: number): () => number {
  let a = from >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** at most this many distinct requests per read (BENCH_DISTINCT): a large database makes millions possible */
const mostDistinct = Number(process.env.BENCH_DISTINCT ?? 50_000);

/** The `count` requests `at` makes when there are at most `most` of them, else that many of them drawn at random (the fixed seed). */
function drawn<T>(count: number, at: (index: number) => T, most = mostDistinct): T[] {
  if (count <= most) return Array.from({ length: count }, (_, i) => at(i));
  const next = draws(seed + 1);
  const picked = new Set<number>();
  while (picked.size < most) picked.add(Math.floor(next() * count));
  return [...picked].sort((a, b) => a - b).map(at);
}
const drawnOf = <T>(items: T[]) => drawn(items.length, (i) => items[i]!);

/** BENCH_DISTINCT_BY: at most this many distinct requests of the named reads */
const distinctBy = new Map(Object.entries(JSON.parse(process.env.BENCH_DISTINCT_BY ?? '{}') as Record<string, number>));

/** A mix with at most `most` of its requests, drawn as `drawn` draws (two mixes of the same requests keep the same ones). */
function capped(mix: Mix, most: number | undefined): Mix {
  if (most === undefined) return mix;
  const kept = drawn(mix.service.length, (i) => i, most);
  return { ...mix, service: kept.map((i) => mix.service[i]!), raw: kept.map((i) => mix.raw[i]!) };
}

const get = (path: string): Spec => ({ method: 'GET', path });
const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/** Every distinct request of each read that the corpus in the database answers with data. */
async function diverseMixes(): Promise<Mix[]> {
  const db = await openDatabase({ kind: 'postgres', url: databaseUrl });
  try {
    const { prisma } = db;
    // a company's tickers from the ticker maps and from its submissions (a load of the archives alone has only the latter)
    const tickers = Prisma.sql`(SELECT ticker, cik FROM "Ticker" UNION SELECT unnest(tickers), cik FROM "Entity")`;
    const pairs = await prisma.$queryRaw<{ ticker: string; tag: string; form: string }[]>`
      SELECT DISTINCT t.ticker, f.tag, f.form FROM "Fact" f JOIN ${tickers} t ON t.cik = f.cik
      WHERE NOT f."hasDimensions" AND f.form IN ('10-K', '10-Q', '20-F', '40-F')`;
    const statementCompanies = await prisma.$queryRaw<{ ticker: string; basis: string; periods: number }[]>`
      SELECT t.ticker, s.basis, count(*)::int AS periods FROM "StatementPeriod" s JOIN ${tickers} t ON t.cik = s.cik
      WHERE s."asReported" = 'latest' GROUP BY t.ticker, s.basis`;
    const segmentCompanies = await prisma.$queryRaw<{ ticker: string }[]>`SELECT DISTINCT t.ticker FROM "SegmentPeriod" s JOIN ${tickers} t ON t.cik = s.cik`;
    const filingForms = await prisma.$queryRaw<{ ticker: string; form: string }[]>`SELECT DISTINCT t.ticker, f.form FROM "Filing" f JOIN ${tickers} t ON t.cik = f.cik`;

    const facts = drawn(pairs.length * limits.length, (i) => ({ ...pairs[Math.floor(i / limits.length)]!, limit: limits[i % limits.length]! }));
    const factPath = (f: (typeof facts)[number]) => `/v1/facts?${query(f)}`;
    const statements = drawnOf(statementCompanies.flatMap(({ ticker, basis, periods }) =>
      Array.from({ length: Math.min(periods, 40) }, (_, i) => `/v1/statements/all?${query({ ticker, period: basis, limit: i + 1 })}`),
    ));
    const segments = drawnOf(segmentCompanies.map(({ ticker }) => `/v1/companies/segments?${query({ ticker })}`));
    const filings = drawnOf([...new Set(filingForms.map((f) => f.ticker))].flatMap((ticker) =>
      [null, ...filingForms.filter((f) => f.ticker === ticker).map((f) => f.form)].flatMap((form) =>
        Array.from({ length: 20 }, (_, i) => `/v1/filings?${query({ ticker, ...(form ? { form } : {}), limit: (i + 1) * 5 })}`),
      ),
    ));
    const same = (paths: string[]) => paths.map(get);
    const mixes: Mix[] = [
      { name: 'facts, REST', kind: 'diverse', service: same(facts.map(factPath)), raw: same(facts.map(factPath)) },
      {
        name: 'facts, the same operation via POST /graphql',
        kind: 'diverse',
        service: facts.map((f) => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query: print(FactsDocument), variables: { ...f, cik: null, unit: null } }) })),
        raw: same(facts.map(factPath)),
      },
      { name: 'statements, REST', kind: 'diverse', service: same(statements), raw: same(statements) },
      { name: 'segments, REST', kind: 'diverse', service: same(segments), raw: same(segments) },
      { name: 'filings, REST', kind: 'diverse', service: same(filings), raw: same(filings) },
    ];
    // a database loaded from the archives alone holds no segments (they come from filings' XBRL)
    for (const mix of mixes) if (!mix.service.length) console.log(`diverse ${mix.name}: no request of the database's data to make; not measured`);
    return mixes.filter((mix) => mix.service.length).map((mix) => capped(mix, distinctBy.get(mix.name)));
  } finally {
    await db.close();
  }
}

const firstReadCompanies = Number(process.env.BENCH_FIRST_READS ?? 40);

/** Companies with statements that the warm-up does not read (it reads AAPL's). */
async function unreadStatementCompanies(): Promise<string[]> {
  const db = await openDatabase({ kind: 'postgres', url: databaseUrl });
  try {
    const rows = await db.prisma.$queryRaw<{ ticker: string }[]>`
      SELECT min(t.ticker) AS ticker FROM "StatementPeriod" s JOIN "Ticker" t ON t.cik = s.cik
      WHERE s.basis = 'annual' AND s."asReported" = 'latest' GROUP BY s.cik HAVING bool_and(t.ticker <> 'AAPL') ORDER BY s.cik`;
    return rows.map((r) => r.ticker).slice(0, firstReadCompanies);
  } finally {
    await db.close();
  }
}

/** Milliseconds of each company's first read of its statements, and of the read right after it (kept). */
async function firstAndKeptReads(url: string, tickers: string[]): Promise<{ first: number[]; kept: number[] }> {
  const timed = async (path: string) => {
    const started = performance.now();
    const answer = await fetch(url + path, { headers: { 'x-api-key': key } });
    const body = await answer.text();
    if (answer.status !== 200) throw new Error(`${answer.status} for ${path}: ${body.slice(0, 300)}`);
    return performance.now() - started;
  };
  const first: number[] = [];
  const kept: number[] = [];
  for (const ticker of tickers) {
    const path = `/v1/statements/all?ticker=${encodeURIComponent(ticker)}`;
    first.push(await timed(path));
    kept.push(await timed(path));
  }
  return { first, kept };
}

const hotMixes: Mix[] = reads.map((read) => ({ name: read.name, kind: 'hot', service: [read], raw: [rawFacts] }));

const warm = process.env.BENCH_WARM === '1';
/** how long the service keeps an answer (its IDS_REQUEST_CACHE_TTL_MS), so that the warm pass is over before the measurements */
const answerKeptMs = Number(process.env.IDS_REQUEST_CACHE_TTL_MS ?? 10_000);

/** Every request of `specs` once, in order; the seconds it took. */
async function readEach(url: string, specs: Spec[], key: string): Promise<number> {
  const started = performance.now();
  let n = 0;
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const result = await autocannon({ url, connections, amount: specs.length, requests: [{ setupRequest: (request: object) => ({ ...request, ...specs[n++ % specs.length]!, headers }) }] });
  if (result.non2xx || result.errors || result.timeouts) throw new Error(`warming ${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return (performance.now() - started) / 1000;
}

/** `drawSeed`: the sequence of requests drawn (the raw server and the service measured on one draw each get the same one). */
async function loadMix(url: string, specs: Spec[], key: string, drawSeed = seed): Promise<Measured> {
  const next = draws(drawSeed);
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  let refused = '';
  const run = autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        // one request at a time per connection: its context holds the request its answer is for
        setupRequest: (request: object, context: { spec?: Spec }) => {
          context.spec = specs[Math.floor(next() * specs.length)]!;
          return { ...request, ...context.spec, headers };
        },
        onResponse: (status: number, body: string, context: { spec?: Spec }) => {
          if (status >= 300 && !refused) refused = `${status} for ${context.spec?.method} ${context.spec?.path} ${context.spec?.body ?? ''}: ${body.slice(0, 300)}`;
        },
      },
    ],
  });
  // each response's own time: autocannon's histogram keeps whole milliseconds, too coarse for reads of 2-6 ms
  const times: number[] = [];
  (run as unknown as EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => void times.push(ms));
  const result = await run;
  if (result.non2xx || result.errors || result.timeouts) throw new Error(`${url}: ${result.non2xx} non-2xx (${refused}), ${result.errors} errors, ${result.timeouts} timeouts`);
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  return { rps: result.requests.average, p50: at(50), p99: at(99) };
}

const { key, ingest } = await prepare();
console.log(ingest);
const mixes = [...(mode === 'diverse' ? [] : hotMixes), ...(mode === 'hot' ? [] : await diverseMixes())].filter((m) => !only || m.name.includes(only));
const env = { ...process.env, DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off' };
const service = await startProcess('npm', ['start', '--silent'], env, (line) => {
  if (!line.includes('"listening"')) return undefined;
  return Number(new URL(JSON.parse(line).url).port);
});
const raw = await startProcess(process.execPath, ['--import', 'tsx', 'scripts/bench-reads-raw.ts'], env, (line) => Number(line.match(/^listening (\d+)/)?.[1]) || undefined);

try {
  // Warm both (JIT, connection pools) before measuring; a diverse read's draws are not the ones warmed.
  for (const read of reads) await autocannon({ url: service.url + read.path, method: read.method, body: read.body, headers: { 'x-api-key': key, 'content-type': 'application/json' }, connections, amount: 200 });
  await autocannon({ url: raw.url + rawFacts.path, connections, amount: 500 });
  const firstReads = only && !'first reads of statements'.includes(only) ? null : await firstAndKeptReads(service.url, await unreadStatementCompanies());

  if (warm) {
    for (const mix of mixes.filter((m) => m.kind === 'diverse')) {
      const [rawSeconds, serviceSeconds] = [await readEach(raw.url, mix.raw, key), await readEach(service.url, mix.service, key)];
      console.log(`warmed: ${mix.name}, each of ${mix.service.length} requests once (raw ${rawSeconds.toFixed(1)} s, service ${serviceSeconds.toFixed(1)} s)`);
    }
    await new Promise((resolve) => setTimeout(resolve, answerKeptMs + 1000));
  }

  const results = new Map<Mix, { service: Measured[]; raw: Measured[] }>(mixes.map((m) => [m, { service: [], raw: [] }]));
  // Each mix and round draws a sequence of its own: on a database larger than memory, a mix that
  // repeated the one before it (GraphQL's facts after REST's) found the pages it reads already
  // cached. The raw server and the service get the same sequence, one before the other, in turns.
  for (let round = 1; round <= rounds; round++) {
    for (const [m, mix] of mixes.entries()) {
      const entry = results.get(mix)!;
      const drawSeed = seed + 1000 * m + round;
      const measureRaw = async () => entry.raw.push(await loadMix(raw.url, mix.raw, key, drawSeed));
      const measureService = async () => entry.service.push(await loadMix(service.url, mix.service, key, drawSeed));
      if (round % 2) await measureRaw().then(measureService);
      else await measureService().then(measureRaw);
      process.stderr.write(`round ${round}/${rounds}: ${mix.kind} ${mix.name}\n`);
    }
  }

  console.log(`\n${connections} connections, ${seconds} s per measurement, ${rounds} rounds, medians; ratio = this service / the raw server measured next to it, first one then the other in turns (hot: the raw facts read; diverse: the same requests)`);
  console.log(`${'read'.padEnd(60)} ${'traffic'.padEnd(7)} ${'distinct'.padStart(8)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'raw req/s'.padStart(9)} ${'ratio'.padStart(6)}`);
  const rps = new Map<string, number>();
  const rows: { name: string; kind: string; distinct: number; rps: number; p50: number; p99: number; rawRps: number; ratio: number }[] = [];
  for (const mix of mixes) {
    const { service: s, raw: r } = results.get(mix)!;
    const ratio = median(s.map((m, i) => m.rps / r[i]!.rps));
    rps.set(`${mix.kind} ${mix.name}`, median(s.map((m) => m.rps)));
    const distinct = new Set(mix.service.map((spec) => `${spec.path} ${spec.body ?? ''}`)).size;
    rows.push({ name: mix.name, kind: mix.kind, distinct, rps: rps.get(`${mix.kind} ${mix.name}`)!, p50: median(s.map((m) => m.p50)), p99: median(s.map((m) => m.p99)), rawRps: median(r.map((m) => m.rps)), ratio });
    console.log(
      `${mix.name.padEnd(60)} ${mix.kind.padEnd(7)} ${String(distinct).padStart(8)} ${rps.get(`${mix.kind} ${mix.name}`)!.toFixed(0).padStart(8)} ${median(s.map((m) => m.p50)).toFixed(1).padStart(7)} ${median(s.map((m) => m.p99)).toFixed(1).padStart(7)} ${median(r.map((m) => m.rps)).toFixed(0).padStart(9)} ${ratio.toFixed(3).padStart(6)}`,
    );
  }
  const pair = (kind: string, rest: string, graphql: string) => {
    const [a, b] = [rps.get(`${kind} ${rest}`), rps.get(`${kind} ${graphql}`)];
    if (a && b) console.log(`GraphQL/REST cost (${kind} facts): ${(a / b).toFixed(2)}×`);
  };
  if (process.env.BENCH_JSON_OUT) writeFileSync(process.env.BENCH_JSON_OUT, JSON.stringify(rows, null, 2));
  pair('hot', reads[0]!.name, reads[1]!.name);
  pair('diverse', 'facts, REST', 'facts, the same operation via POST /graphql');
  if (firstReads?.first.length) {
    const [first, kept] = [median(firstReads.first), median(firstReads.kept)];
    console.log(`first read of a company's statements (GET /v1/statements/all, ${firstReads.first.length} companies, one at a time): p50 ${first.toFixed(1)} ms; the same read kept: p50 ${kept.toFixed(1)} ms; first/kept ${(first / kept).toFixed(2)}×`);
  }
} finally {
  for (const { child } of [service, raw]) process.kill(-child.pid!, 'SIGTERM');
}
