// `npm run bench:strategies`: what a strategy backtest costs, its heaviest read.
// 1. Over HTTP on real data: POST /v1/strategies/{strategy_id}/backtest on PostgreSQL
//    (BENCH_DATABASE_URL, default ids_bench_strategies, created fresh and loaded with the corpus's
//    market files), BENCH_REQUESTS (20) each, p50/p99, after two warm-up requests:
//    - holdings: 6 tickers capped at 25 %, monthly rebalance, over every date held (2005 to 2024, ~4,700 dates),
//      daily and monthly equity curves, and over one year;
//    - factor tilt: 5 of a 7-ticker universe by value and low beta, monthly, 252-date betas (a
//      regression per ticker per rebalance), over every date held.
// 2. The computation alone (resolvers/analytics/backtest.ts) on a synthetic sample made here:
//    500 tickers' factor tilt over 5,000 dates, monthly, the figure a large universe would cost.
import { backtestSample } from '../resolvers/analytics/backtest.ts';
import type { Sample } from '../resolvers/analytics/window.ts';
import { strategyDefinition } from '../resolvers/strategies/definition.ts';

import { figures, marketService } from './benchMarket.ts';
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_strategies';
const requests = Number(process.env.BENCH_REQUESTS ?? 20);

async function overHttp() {
  const { url, key, close } = await marketService(databaseUrl, 'bench:strategies');
  try {
    const post = async (route: string, body: unknown) => {
      const answer = await fetch(`${url}${route}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (answer.status !== 200) throw new Error(`${route}: ${answer.status} ${await answer.text()}`);
      return { body: (await answer.json()) as { id?: string; span?: { days: number } }, bytes: Number(answer.headers.get('content-length') ?? 0) };
    };
    const holdings = ['AAPL', 'MSFT', 'NVDA', 'JPM', 'SPY', 'TLT'].map((ticker) => ({ ticker, weight: 1 }));
    const wide = ['AAPL', 'MSFT', 'NVDA', 'JPM', 'TSLA', 'SPY', 'TLT'];
    const strategies = {
      holdings: (await post('/v1/strategies', { name: 'bench holdings', definition: { kind: 'holdings', holdings, rebalance: 'monthly', constraints: { maxWeight: 0.25 } } })).body.id!,
      tilt: (await post('/v1/strategies', { name: 'bench tilt', definition: { kind: 'factor_tilt', universe: wide, tilts: { HML: 1, 'Mkt-RF': -0.5 }, select: 5, rebalance: 'monthly', lookbackDays: 252 } })).body.id!,
    };
    console.log('\nover HTTP (sequential requests, the price and factor tables cached after the first):');
    const runs: [string, string, Record<string, unknown>][] = [
      ['holdings, every date, daily curve', strategies.holdings, {}],
      ['holdings, every date, monthly curve', strategies.holdings, { curve: 'monthly' }],
      ['holdings, 2023 only', strategies.holdings, { start: '2023-01-01', end: '2023-12-31' }],
      ['factor tilt, every date, monthly curve', strategies.tilt, { curve: 'monthly' }],
    ];
    for (const [label, id, body] of runs) {
      const times: number[] = [];
      let last = { days: 0, bytes: 0 };
      for (let i = 0; i < requests + 2; i++) {
        const start = performance.now();
        const answer = await post(`/v1/strategies/${id}/backtest`, body);
        if (i >= 2) times.push(performance.now() - start);
        last = { days: answer.body.span!.days, bytes: answer.bytes };
      }
      console.log(`  ${label.padEnd(40)} ${String(last.days).padStart(5)} dates, ${(last.bytes / 1024).toFixed(0).padStart(5)} KiB: ${figures(times)}`);
    }
  } finally {
    await close();
  }
}

/** A seeded five-factor world: factor returns, and each ticker's returns from its own betas and noise. */
function syntheticSample(tickers: number, days: number): Sample {
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const normal = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const factorNames = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'] as const;
  const factors = new Map<string, Float64Array>([...factorNames, 'RF'].map((f) => [f, Float64Array.from({ length: days }, () => (f === 'RF' ? 0.0001 : 0.01 * normal()))]));
  const returns = new Map<string, Float64Array>();
  for (let h = 0; h < tickers; h++) {
    const betas = factorNames.map(() => normal());
    returns.set(`S${h}`, Float64Array.from({ length: days }, (_, t) => factors.get('RF')![t]! + betas.reduce((sum, b, k) => sum + b * factors.get(factorNames[k]!)![t]!, 0) + 0.01 * normal()));
  }
  const dates = Array.from({ length: days }, (_, t) => new Date(Date.UTC(2000, 0, 1 + t)).toISOString().slice(0, 10));
  return { model: 'ff5', modelReason: 'synthetic', factorNames, dates, returns, factors, lastClose: new Map(), history: { closes: new Map(), factors: new Map() }, sources: [] };
}

function computeOnly() {
  console.log('\nthe computation alone, synthetic tickers (5 runs each):');
  for (const tickers of [50, 500]) {
    const sample = syntheticSample(tickers, 5000);
    const universe = [...sample.returns.keys()];
    // the definition schema caps a saved universe at 50; the computation itself has no cap
    const definition = { ...strategyDefinition.parse({ kind: 'factor_tilt', universe: universe.slice(0, 50), tilts: { HML: 1 }, select: 20, rebalance: 'monthly' }), universe };
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const start = performance.now();
      backtestSample(sample, definition, { initialValue: 10000, curve: 'monthly' });
      if (i >= 1) times.push(performance.now() - start);
    }
    console.log(`  factor tilt, ${String(tickers).padStart(3)} tickers, 5,000 dates, monthly: ${figures(times)}`);
  }
}

await overHttp();
computeOnly();
