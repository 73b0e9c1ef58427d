// `npm run bench:analytics`: what portfolio analytics cost as holdings and the window grow.
// 1. Over HTTP on real data: POST /v1/portfolio/analyze and /v1/portfolio/risk for 9 holdings
//    over 252 and 1,260 days, on PostgreSQL (BENCH_DATABASE_URL, default ids_bench_analytics,
//    created fresh and loaded with the corpus's market files), BENCH_REQUESTS (20) each, p50/p99.
// 2. The computation alone on synthetic samples made here and never stored (returns drawn from a
//    seeded five-factor model): 9 and 500 holdings over 252 and 1,260 days.
// 3. POST /v1/portfolio/hedge's computation alone on the same samples, four of the synthetic
//    holdings as its instruments.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runIngest } from '../ingest/run.ts';
import type { Source } from '../ingest/sources/types.ts';
import { analyzeSample } from '../resolvers/analytics/analyze.ts';
import { hedgeOfSample } from '../resolvers/analytics/hedge.ts';
import { riskOfSample } from '../resolvers/analytics/portfolioRisk.ts';
import type { Sample } from '../resolvers/analytics/window.ts';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { createOrganization } from '../resolvers/orgs.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { ensureDatabase } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '..', 'shared', 'data'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_analytics';
const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const figures = (ms: number[]) => `p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms`;

function marketSource(): Source {
  const files = ['prices', 'factors'].flatMap((dir) => readdirSync(path.join(corpus, 'market', dir)).map((name) => `market/${dir}/${name}`)).filter((f) => !/Research_Data_Factors|5_Factors_2x3\.csv$/.test(f));
  return { describe: () => 'market files', async *items() { for (const key of files) yield { key, name: path.basename(key), read: () => readFile(path.join(corpus, key), 'utf8') }; } };
}

async function overHttp() {
  await ensureDatabase(databaseUrl, true);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off' });
  const service = await createService(config, { logger: createLogger('warn') });
  const url = await service.listen(0);
  try {
    const began = performance.now();
    await runIngest(service.services, marketSource());
    console.log(`market files ingested in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    const org = await createOrganization(service.services.prisma, 'bench:analytics', { planKey: 'enterprise' });
    const { secret: key } = await issueApiKey(service.services, org.id, 'bench');
    const holdings = ['AAPL', 'MSFT', 'NVDA', 'JPM', 'TSLA', 'SPY', 'TLT', 'QQQ', 'IWM'].map((ticker) => ({ ticker, weight: 1 }));
    console.log('\nover HTTP, 9 holdings (sequential requests, the factor tables cached after the first):');
    for (const route of ['analyze', 'risk']) {
      for (const lookbackDays of [252, 1260]) {
        const times: number[] = [];
        for (let i = 0; i < requests + 2; i++) {
          const start = performance.now();
          const answer = await fetch(`${url}/v1/portfolio/${route}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ holdings, lookbackDays, model: 'ff5' }) });
          if (answer.status !== 200) throw new Error(`${route}: ${answer.status} ${await answer.text()}`);
          await answer.arrayBuffer();
          if (i >= 2) times.push(performance.now() - start);
        }
        console.log(`  ${route.padEnd(8)} ${String(lookbackDays).padStart(5)} days: ${figures(times)}`);
      }
    }
  } finally {
    await service.close();
  }
}

/** A seeded five-factor world: factor returns, and each holding's returns from its own betas and noise. */
function syntheticSample(holdings: number, days: number): Sample {
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const normal = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const factorNames = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'] as const;
  const factors = new Map<string, Float64Array>([...factorNames, 'RF'].map((f) => [f, Float64Array.from({ length: days }, () => (f === 'RF' ? 0.0001 : 0.01 * normal()))]));
  const returns = new Map<string, Float64Array>();
  for (let h = 0; h < holdings; h++) {
    const betas = factorNames.map(() => normal());
    returns.set(`S${h}`, Float64Array.from({ length: days }, (_, t) => factors.get('RF')![t]! + betas.reduce((sum, b, k) => sum + b * factors.get(factorNames[k]!)![t]!, 0) + 0.01 * normal()));
  }
  const dates = Array.from({ length: days }, (_, t) => new Date(Date.UTC(2020, 0, 1 + t)).toISOString().slice(0, 10));
  return { model: 'ff5', modelReason: 'synthetic', factorNames, dates, returns, factors, lastClose: new Map([...returns.keys()].map((t) => [t, 100])), history: { closes: new Map(), factors: new Map() }, sources: [] };
}

function computeOnly() {
  console.log('\nthe computation alone, synthetic holdings (10 runs each):');
  for (const holdings of [9, 500]) {
    for (const days of [252, 1260]) {
      const sample = syntheticSample(holdings, days);
      const book = [...sample.returns.keys()].map((ticker) => ({ ticker, weight: 1 }));
      for (const [name, run] of [['analyze', () => analyzeSample(sample, book, 'S0')], ['risk', () => riskOfSample(sample, book, 'S0')]] as const) {
        const times: number[] = [];
        for (let i = 0; i < 12; i++) {
          const start = performance.now();
          run();
          if (i >= 2) times.push(performance.now() - start);
        }
        console.log(`  ${name.padEnd(8)} ${String(holdings).padStart(4)} holdings × ${String(days).padStart(4)} days: ${figures(times)}`);
      }
    }
  }
}

/** POST /v1/portfolio/hedge's computation alone: the synthetic holdings hedged with four of them as the instruments, every ratio within −1..0. */
function hedgeOnly() {
  console.log('\nthe hedge computation alone, synthetic holdings, 4 instruments (10 runs each):');
  const instruments = ['S0', 'S1', 'S2', 'S3'];
  const bounds = instruments.map(() => ({ min: -1, max: 0 }));
  for (const holdings of [9, 500]) {
    for (const days of [252, 1260]) {
      const sample = syntheticSample(holdings, days);
      const book = [...sample.returns.keys()].map((ticker) => ({ ticker, weight: 1 }));
      const times: number[] = [];
      for (let i = 0; i < 12; i++) {
        const start = performance.now();
        hedgeOfSample(sample, book, instruments, bounds);
        if (i >= 2) times.push(performance.now() - start);
      }
      console.log(`  hedge    ${String(holdings).padStart(4)} holdings × ${String(days).padStart(4)} days: ${figures(times)}`);
    }
  }
}

await overHttp();
computeOnly();
hedgeOnly();
