// `npm run bench:analytics-loop`: what portfolio analytics do to everything else a service
// answers, with the computations on worker threads (IDS_ANALYTICS_THREADS, the default) and on
// the event loop (IDS_ANALYTICS_THREADS=0, as before the pool), in the same run.
//
// Two services run as children of this script (`--serve`), each on a scratch embedded database
// of its own loaded with the corpus's market files: one with the pool, one without. Rounds
// alternate between them (the other idles); in each, for BENCH_SECONDS, BENCH_CONCURRENCY clients
// send analytics requests (analyze, risk, optimize, hedge, stress test, attribution over 9
// holdings and BENCH_LOOKBACK days, the default model) at BENCH_RATE requests a second between
// them (the same load for both modes; 0 sends them back to back), while one more asks GET /v1/me
// every 20 ms. Each child measures its own event loop (perf_hooks.monitorEventLoopDelay, 1 ms
// resolution) over the round; this process times the answers. Printed: per round, the loop's
// delay p50/p99/max, /v1/me p50/p99 and the analytics answered per second; then the medians over
// the rounds and the pool's ratios to the event loop's.
//
// The market reads are kept for the whole run (BENCH_CACHE_TTL_MS, default 10 minutes): with the
// service's default of 10 s, each expiry reloads every factor row on the embedded database, a
// stall of a second or more in both modes that is the database's, not the computations'.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Source } from '../ingest/sources/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '..', 'shared', 'data'));
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const rate = Number(process.env.BENCH_RATE ?? 5);
const lookbackDays = Number(process.env.BENCH_LOOKBACK ?? 1260);
const cacheTtlMs = process.env.BENCH_CACHE_TTL_MS ?? '600000';

type Ready = { type: 'ready'; url: string; keys: string[]; threads: number };
type LoopDelay = { type: 'loop'; p50: number; p99: number; max: number };
type ToChild = { type: 'reset' } | { type: 'report' } | { type: 'stop' };

const percentile = (values: number[], p: number) => (values.length ? [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]! : NaN);
const median = (values: number[]) => percentile(values, 0.5);

/** The corpus's price files and daily factor files (the monthly ones are not read by these routes). */
function marketSource(): Source {
  const files = ['prices', 'factors'].flatMap((dir) => readdirSync(path.join(corpus, 'market', dir)).map((name) => `market/${dir}/${name}`)).filter((f) => !/Research_Data_Factors\.CSV$|5_Factors_2x3\.csv$/.test(f));
  return { describe: () => 'market files', async *items() { for (const key of files) yield { key, name: path.basename(key), read: () => readFile(path.join(corpus, key), 'utf8') }; } };
}

// ---------------------------------------------------------------------------------------------
// The child: one service, its own event loop measured

async function serve() {
  const { runIngest } = await import('../ingest/run.ts');
  const { issueApiKey } = await import('../resolvers/apiKeys.ts');
  const { createOrganization } = await import('../resolvers/orgs.ts');
  const { createService } = await import('../server/app.ts');
  const { loadConfig } = await import('../core/config.ts');
  const { createLogger } = await import('../core/logger.ts');
  const config = loadConfig({ ...process.env, PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') });
  const service = await createService(config, { logger: createLogger('warn') });
  const url = await service.listen(0);
  await runIngest(service.services, marketSource());
  // An organization per client and round: each stays well within the enterprise plan's analytics
  // quota per minute, so that no answer is a 429.
  const keys: string[] = [];
  for (let i = 0; i < Number(process.env.BENCH_KEYS); i++) {
    const org = await createOrganization(service.services.prisma, `bench:analytics-loop ${i}`, { planKey: 'enterprise' });
    keys.push((await issueApiKey(service.services, org.id, 'bench')).secret);
  }
  const delay = monitorEventLoopDelay({ resolution: 1 });
  process.on('message', async (message: ToChild) => {
    if (message.type === 'reset') {
      delay.disable();
      delay.reset();
      delay.enable();
      process.send!({ type: 'reset' });
    } else if (message.type === 'report') {
      delay.disable();
      const ms = (ns: number) => ns / 1e6;
      process.send!({ type: 'loop', p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) } satisfies LoopDelay);
    } else if (message.type === 'stop') {
      await service.close();
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url, keys, threads: config.analyticsThreads } satisfies Ready);
}

// ---------------------------------------------------------------------------------------------
// This process: the load, the probe, the figures

interface Child {
  name: string;
  process: ChildProcess;
  ready: Ready;
  ask<T>(message: ToChild): Promise<T>;
}

async function startChild(name: string, env: NodeJS.ProcessEnv): Promise<Child> {
  // the same loader as this process (tsx), so the child and its worker threads run the sources
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting: ((message: unknown) => void)[] = [];
  child.on('message', (message) => waiting.shift()?.(message));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`))));
  exited.catch(() => {}); // heard by whoever waits for an answer; the last exit is expected
  const next = <T>() => Promise.race([new Promise<T>((resolve) => waiting.push(resolve as (message: unknown) => void)), exited]);
  const ready = await next<Ready>();
  return { name, process: child, ready, ask: <T>(message: ToChild) => { const answer = next<T>(); child.send(message); return answer; } };
}

const holdings = ['AAPL', 'MSFT', 'NVDA', 'JPM', 'TSLA', 'SPY', 'TLT', 'QQQ', 'IWM'].map((ticker) => ({ ticker, weight: 1 }));
const mix: [string, Record<string, unknown>][] = [
  ['analyze', { holdings, lookbackDays }],
  ['risk', { holdings, lookbackDays }],
  ['optimize', { holdings, lookbackDays, objective: 'min_drawdown' }],
  ['hedge', { holdings: holdings.slice(0, 5), lookbackDays }],
  ['stress-test', { holdings, lookbackDays, scenarios: ['gfc_2008', 'covid_2020', 'rates_2022', 'market_down_20', 'rates_up_100bp'] }],
  ['attribution', { holdings, from: '2023-01-03', to: '2024-06-28', lookbackDays }],
];

interface Round {
  mode: string;
  loop: LoopDelay;
  me: number[];
  analytics: number[];
  failures: Map<number, number>;
}

async function round(child: Child, keys: string[], probeKey: string): Promise<Round> {
  const { url } = child.ready;
  const me: number[] = [];
  const analytics: number[] = [];
  const failures = new Map<number, number>();
  const end = Date.now() + seconds * 1000;
  await child.ask({ type: 'reset' });
  // each client starts a request every `interval` ms (or when its last one is answered, if later)
  const interval = rate > 0 ? (concurrency / rate) * 1000 : 0;
  const client = async (key: string, offset: number) => {
    let due = Date.now() + (interval * offset) / concurrency;
    for (let i = offset; ; i++) {
      if (interval) {
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        due = Math.max(due + interval, Date.now());
      }
      if (Date.now() >= end) break;
      const [route, body] = mix[i % mix.length]!;
      const start = performance.now();
      const answer = await fetch(`${url}/v1/portfolio/${route}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await answer.arrayBuffer();
      if (answer.status === 200) analytics.push(performance.now() - start);
      else failures.set(answer.status, (failures.get(answer.status) ?? 0) + 1);
    }
  };
  const probe = async () => {
    while (Date.now() < end) {
      const start = performance.now();
      const answer = await fetch(`${url}/v1/me`, { headers: { 'x-api-key': probeKey } });
      await answer.arrayBuffer();
      if (answer.status === 200) me.push(performance.now() - start);
      else failures.set(answer.status, (failures.get(answer.status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all([...keys.map((key, c) => client(key, c)), probe()]);
  const loop = await child.ask<LoopDelay>({ type: 'report' });
  return { mode: child.name, loop, me, analytics, failures };
}

async function main() {
  const folders = await Promise.all(['pool', 'inline'].map((name) => mkdtemp(path.join(tmpdir(), `ids-bench-loop-${name}-`))));
  const keysNeeded = concurrency * rounds + 1;
  const base = { ...process.env, IDS_REQUEST_CACHE_TTL_MS: cacheTtlMs, BENCH_KEYS: String(keysNeeded) };
  const began = performance.now();
  // both load their market files at once; the one not measured idles through the other's rounds
  const [pool, inline] = await Promise.all([
    startChild('pool', { ...base, IDS_STATE_DIR: folders[0]!, IDS_ANALYTICS_THREADS: process.env.IDS_ANALYTICS_THREADS ?? '' }),
    startChild('inline', { ...base, IDS_STATE_DIR: folders[1]!, IDS_ANALYTICS_THREADS: '0' }),
  ]);
  console.log(`two services ready in ${((performance.now() - began) / 1000).toFixed(1)} s: pool with ${pool.ready.threads} worker thread(s), inline with ${inline.ready.threads}`);
  console.log(`${rounds} rounds × ${seconds} s per mode; ${concurrency} analytics clients, ${rate > 0 ? `${rate} requests/s between them` : 'back to back'} (${mix.map(([r]) => r).join(', ')}; 9 holdings, ${lookbackDays} days), and GET /v1/me every 20 ms; market reads kept ${Number(cacheTtlMs) / 1000} s\n`);
  try {
    // a warm-up per service: its first requests read the market files and start its threads
    for (const child of [pool, inline]) {
      for (const [route, body] of mix) {
        const answer = await fetch(`${child.ready.url}/v1/portfolio/${route}`, { method: 'POST', headers: { 'x-api-key': child.ready.keys.at(-1)!, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (answer.status !== 200) throw new Error(`${child.name} ${route}: ${answer.status} ${await answer.text()}`);
      }
    }
    const results: Round[] = [];
    const line = (r: Round) => {
      const failed = [...r.failures].map(([status, n]) => `${n}×${status}`).join(' ');
      return `${r.mode.padEnd(7)} loop delay p50 ${r.loop.p50.toFixed(1).padStart(6)} ms  p99 ${r.loop.p99.toFixed(1).padStart(7)} ms  max ${r.loop.max.toFixed(1).padStart(7)} ms | /v1/me p50 ${percentile(r.me, 0.5).toFixed(1).padStart(6)} ms  p99 ${percentile(r.me, 0.99).toFixed(1).padStart(7)} ms (${r.me.length}) | analytics ${(r.analytics.length / seconds).toFixed(1).padStart(5)}/s  p50 ${percentile(r.analytics, 0.5).toFixed(0).padStart(5)} ms${failed ? `  failed ${failed}` : ''}`;
    };
    for (let r = 0; r < rounds; r++) {
      // alternate which mode goes first, so neither always follows the other
      for (const child of r % 2 ? [inline, pool] : [pool, inline]) {
        const keys = child.ready.keys.slice(r * concurrency, (r + 1) * concurrency);
        const result = await round(child, keys, child.ready.keys.at(-1)!);
        results.push(result);
        console.log(`round ${r + 1} ${line(result)}`);
      }
    }
    const of = (mode: string) => results.filter((r) => r.mode === mode);
    const summary = (mode: string) => {
      const rs = of(mode);
      return {
        loopP50: median(rs.map((r) => r.loop.p50)),
        loopP99: median(rs.map((r) => r.loop.p99)),
        loopMax: median(rs.map((r) => r.loop.max)),
        meP50: median(rs.map((r) => percentile(r.me, 0.5))),
        meP99: median(rs.map((r) => percentile(r.me, 0.99))),
        rate: median(rs.map((r) => r.analytics.length / seconds)),
      };
    };
    const p = summary('pool');
    const i = summary('inline');
    const row = (name: string, s: typeof p) =>
      `${name.padEnd(7)} loop delay p50 ${s.loopP50.toFixed(1).padStart(6)} ms  p99 ${s.loopP99.toFixed(1).padStart(7)} ms  max ${s.loopMax.toFixed(1).padStart(7)} ms | /v1/me p50 ${s.meP50.toFixed(1).padStart(6)} ms  p99 ${s.meP99.toFixed(1).padStart(7)} ms | analytics ${s.rate.toFixed(1).padStart(5)}/s`;
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    console.log(`\nmedians over ${rounds} rounds:\n  ${row('pool', p)}\n  ${row('inline', i)}`);
    console.log(`pool ÷ inline: loop delay p99 ${ratio(p.loopP99, i.loopP99)}, max ${ratio(p.loopMax, i.loopMax)}; /v1/me p50 ${ratio(p.meP50, i.meP50)}, p99 ${ratio(p.meP99, i.meP99)}; analytics answered per second ${ratio(p.rate, i.rate)}`);
  } finally {
    await Promise.all([pool, inline].map((child) => new Promise((resolve) => {
      child.process.once('exit', resolve);
      child.process.send({ type: 'stop' } satisfies ToChild);
    })));
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
