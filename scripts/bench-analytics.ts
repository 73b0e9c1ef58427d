// `npm run bench:analytics`: what portfolio analytics cost as holdings and the window grow.
// 1. Over HTTP on real data: POST /v1/portfolio/analyze and /v1/portfolio/risk for 9 holdings
//    over 252 and 1,260 days, on PostgreSQL (BENCH_DATABASE_URL, default ids_bench_analytics,
//    created fresh and loaded with the corpus's market files), BENCH_REQUESTS (20) each, p50/p99.
// 2. The computation alone on synthetic samples made here and never stored (returns drawn from a
//    seeded five-factor model): 9 and 500 holdings over 252 and 1,260 days.
// 3. POST /v1/portfolio/hedge's computation alone on the same samples, four of the synthetic
//    holdings as its instruments.
import { analyzeSample } from '../resolvers/analytics/analyze.ts';
import { hedgeOfSample } from '../resolvers/analytics/hedge.ts';
import { riskOfSample } from '../resolvers/analytics/portfolioRisk.ts';
import type { Sample } from '../resolvers/analytics/window.ts';

import { figures, marketService } from './benchMarket.ts';
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_analytics';
const requests = Number(process.env.BENCH_REQUESTS ?? 20);

async function overHttp() {
  const { url, key, close } = await marketService(databaseUrl, 'bench:analytics');
  try {
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
    await close();
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
