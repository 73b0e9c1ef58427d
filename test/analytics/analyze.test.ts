// POST /v1/portfolio/analyze against an OLS the test computes itself from the same files: its own
// window, returns and normal equations (Gaussian elimination), not the service's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, type TestService } from '../harness.ts';
import { marketSuite, returnsOf, factorsOf, normalEquations } from './independent.ts';

const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  SPY: 'market/prices/SPY.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
  mom: 'market/factors/F-F_Momentum_Factor_daily.CSV',
};
let texts: Record<keyof typeof files, string>;
let t: TestService;
let key: string;

beforeAll(async () => {
  ({ t, key, texts } = await marketSuite(files, 'Analysts'));
}, 120_000);
afterAll(() => t?.close());

describe('portfolio analyze', () => {
  it('finds the exposures an independent OLS finds on the same window', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/analyze', { key, body: { holdings: [{ ticker: 'AAPL', weight: 0.6 }, { ticker: 'MSFT', weight: 0.4 }], asOf: '2022-12-30', lookbackDays: 252, model: 'ff5' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    const factorNames = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'];
    const [aapl, msft, spy] = [returnsOf(texts.AAPL!), returnsOf(texts.MSFT!), returnsOf(texts.SPY!)];
    const ff5 = factorsOf(texts.ff5!);
    const dates = [...aapl.keys()].filter((d) => d <= '2022-12-30' && msft.has(d) && spy.has(d) && ff5.has(d)).sort().slice(-252);
    expect(answer.body.window).toEqual({ from: dates[0], to: dates[251], days: 252 });
    const columns = factorNames.map((f) => dates.map((d) => ff5.get(d)![f]!));
    const excess = (r: Map<string, number>) => dates.map((d) => r.get(d)! - ff5.get(d)!.RF!);
    const expectCoefficients = (served: { alpha: { daily: number }; betas: Record<string, { beta: number }> }, expected: number[]) => {
      expect(served.alpha.daily).toBeCloseTo(expected[0]!, 9);
      factorNames.forEach((f, i) => expect(served.betas[f]!.beta).toBeCloseTo(expected[i + 1]!, 8));
    };
    expectCoefficients(answer.body.holdings.find((h: { ticker: string }) => h.ticker === 'AAPL').exposures, normalEquations(excess(aapl), columns));
    const portfolio = new Map(dates.map((d) => [d, 0.6 * aapl.get(d)! + 0.4 * msft.get(d)!]));
    expectCoefficients(answer.body.portfolio, normalEquations(excess(portfolio), columns));
    expect(answer.body.model).toBe('ff5');
    expect(answer.body.artifactId).toMatch(/^art_/);
  });

  it('defaults to ff5 when daily momentum does not cover the window, and says why', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/analyze', { key, body: { holdings: [{ ticker: 'AAPL', shares: 10 }], asOf: '2024-06-28' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.model).toBe('ff5');
    expect(answer.body.modelReason).toMatch(/momentum ends 2022-12-30/);
    const covered = await call(t, 'POST', '/v1/portfolio/analyze', { key, body: { holdings: [{ ticker: 'AAPL', shares: 10 }], asOf: '2021-06-30' } });
    expect(covered.body.model).toBe('ff5_mom');
    expect(Object.keys(covered.body.portfolio.betas)).toContain('Mom');
  });

  it('is deterministic: the same request gives the same bytes apart from ids and times', async () => {
    const body = { holdings: [{ ticker: 'MSFT', weight: 1 }], asOf: '2020-12-31', lookbackDays: 126, model: 'ff5' };
    const strip = ({ artifactId: _a, requestId: _r, ...rest }: Record<string, unknown>) => JSON.stringify(rest);
    const [a, b] = [await call(t, 'POST', '/v1/portfolio/analyze', { key, body }), await call(t, 'POST', '/v1/portfolio/analyze', { key, body })];
    expect(a.status).toBe(200);
    expect(strip(a.body)).toBe(strip(b.body));
  });

  it.each([
    [{ holdings: [] }, 'holdings'],
    [{ holdings: [{ ticker: 'ZZZZ', weight: 1 }] }, 'holdings[0].ticker'],
    [{ holdings: [{ ticker: 'AAPL', weight: -1 }] }, 'holdings.0.weight'],
    [{ holdings: [{ ticker: 'AAPL', weight: 'lots' }] }, 'holdings.0'],
    [{ holdings: [{ ticker: 'AAPL', weight: 1 }], asOf: '1999-01-04' }, 'asOf'],
    [{ holdings: [{ ticker: 'AAPL', weight: 1 }, { ticker: 'MSFT', shares: 3 }] }, 'holdings'],
  ])('refuses %j with validation_error naming %s', async (body, field) => {
    const answer = await call(t, 'POST', '/v1/portfolio/analyze', { key, body });
    expectEnvelope(answer, 400, 'validation_error');
    expect(JSON.stringify(answer.body)).toContain(field);
  });

  it('is refused to a plan without analytics', async () => {
    const starter = await orgWithKey(t, 'Starter');
    expectEnvelope(await call(t, 'POST', '/v1/portfolio/analyze', { key: starter.key, body: { holdings: [{ ticker: 'AAPL', weight: 1 }] } }), 402, 'billing_required');
  });
});
