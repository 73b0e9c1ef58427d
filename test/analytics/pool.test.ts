// The analytics computations on worker threads (resolvers/analytics/pool.ts) against the same
// computations on the event loop (IDS_ANALYTICS_THREADS=0): every route gives the same bytes
// either way, a refusal made inside a computation crosses back as the same error, and a thread
// that dies fails its own request alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsRunner } from '../../resolvers/analytics/pool.ts';
import type { AnalyticsRunner } from '../../resolvers/analytics/runner.ts';
import { stressScenarios } from '../../resolvers/analytics/scenarios.ts';
import { scenarioHistory, stressOfSample } from '../../resolvers/analytics/stress.ts';
import { forComputation, loadSample } from '../../resolvers/analytics/window.ts';
import type { Context } from '../../resolvers/context.ts';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, expectEnvelope, orgWithKey, startIsolatedService, type Answer, type TestService } from '../harness.ts';

const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  TSLA: 'market/prices/TSLA.daily.csv',
  SPY: 'market/prices/SPY.daily.csv',
  QQQ: 'market/prices/QQQ.daily.csv',
  TLT: 'market/prices/TLT.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
  mom: 'market/factors/F-F_Momentum_Factor_daily.CSV',
  INDPRO: 'market/macro/FRED_INDPRO.csv',
  CPIAUCSL: 'market/macro/FRED_CPIAUCSL.csv',
};
let t: TestService;
let key: string;
let pooled: AnalyticsRunner;
let inline: AnalyticsRunner;
let own: AnalyticsRunner;

beforeAll(async () => {
  // The market reads are kept for the whole suite: it compares computations, not reads, and each
  // of its requests runs twice.
  t = await startIsolatedService({ requestCacheTtlMs: 600_000 });
  ({ key } = await orgWithKey(t, 'Pool users', 'team'));
  await runIngest(t.service.services, fixtureSource(Object.fromEntries(await Promise.all(Object.values(files).map(async (file) => [file, { text: await corpusFile(file) }] as const)))));
  own = t.service.services.analytics;
  // explicit runners, whatever the number of cores the defaults follow
  pooled = createAnalyticsRunner({ threads: 1, logger: t.service.services.logger });
  inline = createAnalyticsRunner({ threads: 0, logger: t.service.services.logger });
}, 180_000);
afterAll(async () => {
  if (own) t.service.services.analytics = own;
  await pooled?.close();
  await t?.close();
});

/** Requests read the runner from the services as each one starts. */
const using = (runner: AnalyticsRunner) => (t.service.services.analytics = runner);

/** Every number as the bits of its double, so that equal means equal to the last bit (and −0 is not 0). */
function bits(value: unknown): unknown {
  if (typeof value === 'number') return Buffer.from(new Float64Array([value]).buffer).toString('hex');
  if (Array.isArray(value)) return value.map(bits);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bits(v)]));
  return value;
}

/** An answer without what names this request and its artifact. */
const computed = (answer: Answer) => {
  const { requestId: _r, artifactId: _a, id: _i, traceparent: _t, ...rest } = answer.body as Record<string, unknown>;
  return { status: answer.status, body: rest };
};

const holdings = [{ ticker: 'AAPL', weight: 0.4 }, { ticker: 'MSFT', weight: 0.35 }, { ticker: 'TSLA', weight: 0.25 }];
const requests: [string, Record<string, unknown>][] = [
  ['analyze', { holdings, asOf: '2023-06-30', lookbackDays: 756 }],
  ['risk', { holdings, asOf: '2023-06-30', lookbackDays: 504 }],
  ['optimize', { holdings, asOf: '2023-06-30', objective: 'min_drawdown', bounds: { min: 0.05, max: 0.6 } }],
  ['optimize', { holdings, asOf: '2023-06-30', objective: 'factor_neutral', maxTurnover: 0.5 }],
  ['optimize', { holdings, asOf: '2023-06-30', objective: 'regime_aware', model: 'ff5' }],
  ['hedge', { holdings, asOf: '2023-06-30' }],
  ['stress-test', { holdings, asOf: '2022-12-30', scenarios: stressScenarios.map((s) => s.id) }],
  ['attribution', { holdings, from: '2022-01-03', to: '2022-12-30' }],
  // refused inside the computations: a mix of weights and share counts, bounds HiGHS finds infeasible
  ['analyze', { holdings: [{ ticker: 'AAPL', weight: 1 }, { ticker: 'MSFT', shares: 10 }] }],
  ['optimize', { holdings, objective: 'min_drawdown', maxTurnover: 0.01, bounds: { min: 0.3, max: 0.4 } }],
];

describe('analytics on worker threads', () => {
  it('answers every route with the bytes the event loop computes, refusals included', async () => {
    const statuses: number[] = [];
    for (const [route, body] of requests) {
      using(inline);
      const here = await call(t, 'POST', `/v1/portfolio/${route}`, { key, body });
      using(pooled);
      const there = await call(t, 'POST', `/v1/portfolio/${route}`, { key, body });
      expect(there.status, `${route} ${JSON.stringify(body)}: ${JSON.stringify(there.body)}`).toBe(here.status);
      expect(bits(computed(there)), `${route} ${JSON.stringify(body)}`).toStrictEqual(bits(computed(here)));
      if (here.status === 200) expect(there.body.contentHash).toBe(here.body.contentHash);
      statuses.push(there.status);
    }
    expect(statuses).toEqual([...requests.slice(0, -2).map(() => 200), 400, 422]);
    expect(pooled.workers().length).toBe(1);
  }, 120_000);

  it('gives the stress scenarios what they read of the whole history', async () => {
    const ctx: Context = { ...t.service.services, principal: null, requestId: 'req_pool_test' };
    for (const tickers of [['AAPL', 'TSLA'], ['QQQ', 'TLT', 'SPY']]) {
      const sample = await loadSample(ctx, { tickers, asOf: '2022-12-30', lookbackDays: 252, model: 'ff5' });
      const book = tickers.map((ticker) => ({ ticker, weight: 1 }));
      const whole = stressOfSample(sample, book, stressScenarios);
      const read = stressOfSample(forComputation(sample, scenarioHistory(sample, stressScenarios)), book, stressScenarios);
      expect(bits(read)).toStrictEqual(bits(whole));
      // both paths of a historical scenario are exercised: TSLA and QQQ have no closes in 2008
      expect(whole.scenarios.flatMap((s) => s.holdings.map((h) => h.method))).toEqual(expect.arrayContaining(['buy_and_hold', 'factor_implied', 'factor_shock']));
    }
  }, 60_000);

  it('fails the request whose thread dies, and only that one', async () => {
    using(pooled);
    const body = { holdings, asOf: '2023-06-30' };
    const before = await call(t, 'POST', '/v1/portfolio/analyze', { key, body });
    expect(before.status).toBe(200);
    // The thread is told to end just before this computation is handed to it: the pool has not yet
    // heard it end, so the computation goes to a thread that will never answer.
    const killing: AnalyticsRunner = {
      ...pooled,
      run: ((name, ...args) => {
        for (const worker of pooled.workers()) void worker.terminate();
        return pooled.run(name, ...args);
      }) as AnalyticsRunner['run'],
    };
    using(killing);
    const [killed, alongside] = await Promise.all([call(t, 'POST', '/v1/portfolio/analyze', { key, body }), call(t, 'GET', '/v1/me', { key })]);
    expectEnvelope(killed, 500, 'internal_error');
    expect(alongside.status).toBe(200);
    expect(t.logs.some((line) => line.includes('analytics worker thread ended during a computation'))).toBe(true);

    using(pooled);
    await eventually('a thread in place of the one that died', () => pooled.workers().length === 1);
    const after = await call(t, 'POST', '/v1/portfolio/analyze', { key, body });
    expect(after.status).toBe(200);
    expect(after.body.contentHash).toBe(before.body.contentHash);
  }, 60_000);

  it('ends its threads on close, and refuses computations after', async () => {
    const runner = createAnalyticsRunner({ threads: 1, logger: t.service.services.logger });
    using(runner);
    const answer = await call(t, 'POST', '/v1/portfolio/risk', { key, body: { holdings, asOf: '2023-06-30' } });
    expect(answer.status).toBe(200);
    const [worker] = runner.workers();
    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    await runner.close();
    await exited;
    await expect(runner.run('risk')).rejects.toThrow(/closed/);
    using(pooled);
  }, 60_000);
});
