// POST /v1/portfolio/risk and /v1/portfolio/attribution against answers the test computes itself
// from the same files: its own window, returns, normal equations and sample covariance, not the
// service's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, type TestService } from '../harness.ts';
import { marketSuite, returnsOf, closesOf, factorsOf, normalEquations } from './independent.ts';

const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  SPY: 'market/prices/SPY.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
};
let texts: Record<keyof typeof files, string>;
let t: TestService;
let key: string;

beforeAll(async () => {
  ({ t, key, texts } = await marketSuite(files, 'Risk analysts'));
}, 120_000);
afterAll(() => t?.close());

/** Sample covariance, divisor n − 1, two passes. */
function covariance(columns: number[][]): number[][] {
  const n = columns[0]!.length;
  const means = columns.map((c) => c.reduce((s, v) => s + v, 0) / n);
  return columns.map((p, i) => columns.map((q, j) => p.reduce((s, v, t) => s + (v - means[i]!) * (q[t]! - means[j]!), 0) / (n - 1)));
}

const factorNames = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'];
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('portfolio risk', () => {
  it('finds the tracking error an independent factor model finds on the same window', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/risk', { key, body: { holdings: [{ ticker: 'AAPL', weight: 0.6 }, { ticker: 'MSFT', weight: 0.4 }], asOf: '2022-12-30', lookbackDays: 252, model: 'ff5' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.object).toBe('portfolio_risk');
    expect(answer.body.artifactId).toMatch(/^art_/);

    const returns = { AAPL: returnsOf(texts.AAPL!), MSFT: returnsOf(texts.MSFT!), SPY: returnsOf(texts.SPY!) };
    const ff5 = factorsOf(texts.ff5!);
    const dates = [...returns.AAPL.keys()].filter((d) => d <= '2022-12-30' && returns.MSFT.has(d) && returns.SPY.has(d) && ff5.has(d)).sort().slice(-252);
    expect(answer.body.window).toEqual({ from: dates[0], to: dates[251], days: 252 });
    const columns = factorNames.map((f) => dates.map((d) => ff5.get(d)![f]!));
    const F = covariance(columns);

    const universe = ['AAPL', 'MSFT', 'SPY'] as const;
    const B: number[][] = [];
    const delta: number[] = [];
    for (const ticker of universe) {
      const y = dates.map((d) => returns[ticker].get(d)! - ff5.get(d)!.RF!);
      const coef = normalEquations(y, columns);
      const residuals = y.map((v, i) => v - coef[0]! - sum(columns.map((c, j) => coef[j + 1]! * c[i]!)));
      B.push(coef.slice(1));
      delta.push(sum(residuals.map((e) => e * e)) / (dates.length - factorNames.length - 1));
    }
    const a = [0.6, 0.4, -1];
    // Σ = B F Bᵀ + Δ, formed in full
    const sigma = universe.map((_, i) => universe.map((_, j) => sum(factorNames.map((_, p) => sum(factorNames.map((_, q) => B[i]![p]! * F[p]![q]! * B[j]![q]!)))) + (i === j ? delta[i]! : 0)));
    const te = Math.sqrt(252 * sum(a.map((ai, i) => sum(a.map((aj, j) => ai * sigma[i]![j]! * aj)))));
    expect(Math.abs(answer.body.trackingError - te) / te).toBeLessThan(1e-8);
    expect(answer.body.trackingVariance).toBeCloseTo(answer.body.trackingError ** 2, 14);

    const bySecurity = answer.body.contributionsBySecurity as { ticker: string; activeWeight: number; contribution: number; coverage: string }[];
    expect(bySecurity.map((r) => r.ticker)).toEqual(['AAPL', 'MSFT', 'SPY']);
    bySecurity.forEach((r, i) => expect(r.activeWeight).toBeCloseTo(a[i]!, 14));
    expect(bySecurity.every((r) => r.coverage === 'full')).toBe(true);
    const tv = answer.body.trackingVariance as number;
    expect(Math.abs(sum(bySecurity.map((r) => r.contribution)) - tv)).toBeLessThan(1e-12 * Math.max(1, tv));
    const byGroup = answer.body.contributionsByGroup as Record<string, number>;
    expect(Object.keys(byGroup).sort()).toEqual(['idiosyncratic', 'investment', 'market', 'profitability', 'size', 'value']);
    expect(Math.abs(sum(Object.values(byGroup)) - tv)).toBeLessThan(1e-12 * Math.max(1, tv));

    expect(answer.body.factorCovariance.factors).toEqual(factorNames);
    answer.body.factorCovariance.annualized.forEach((row: number[], p: number) => row.forEach((v, q) => expect(Math.abs(v - 252 * F[p]![q]!)).toBeLessThan(1e-10 * Math.abs(252 * F[p]![q]!) + 1e-15)));
    const p = answer.body.portfolio;
    expect(p.variance).toBeCloseTo(p.factor + p.idiosyncratic, 14);
    expect(typeof answer.body.beta).toBe('number');
  });

  it('gives a portfolio equal to the benchmark no tracking error', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/risk', { key, body: { holdings: [{ ticker: 'SPY', weight: 1 }], asOf: '2022-12-30', model: 'ff5' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Math.abs(answer.body.trackingError)).toBeLessThanOrEqual(1e-12);
    expect(answer.body.contributionsBySecurity).toEqual([{ ticker: 'SPY', activeWeight: 0, contribution: 0, coverage: 'full' }]);
    expect(answer.body.beta).toBeCloseTo(1, 12);
  });
});

describe('portfolio attribution', () => {
  it('splits the excess return into factors and a residual that add up', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/attribution', { key, body: { holdings: [{ ticker: 'AAPL', weight: 0.6 }, { ticker: 'MSFT', weight: 0.4 }], from: '2022-07-01', to: '2022-12-30', model: 'ff5' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body;
    expect(body.object).toBe('portfolio_attribution');
    expect(body.method).toBe('arithmetic');
    expect(body.from >= '2022-07-01' && body.to <= '2022-12-30').toBe(true);
    expect(body.estimationWindow).toMatchObject({ to: body.to, days: 252 });
    expect(Object.keys(body.byFactor)).toEqual(factorNames);
    expect(Math.abs(sum(Object.values(body.byFactor as Record<string, number>)) + body.residual - body.excessReturn)).toBeLessThan(1e-12);
    for (const f of factorNames) {
      const rows = (body.rows as { ticker: string; factor: string; contribution: number }[]).filter((r) => r.factor === f);
      expect(rows.map((r) => r.ticker)).toEqual(['AAPL', 'MSFT']);
      expect(Math.abs(sum(rows.map((r) => r.contribution)) - body.byFactor[f])).toBeLessThan(1e-12);
    }

    // the period and its excess return, independently
    const [aapl, msft] = [returnsOf(texts.AAPL!), returnsOf(texts.MSFT!)];
    const ff5 = factorsOf(texts.ff5!);
    const dates = [...aapl.keys()].filter((d) => d >= '2022-07-01' && d <= '2022-12-30' && msft.has(d) && ff5.has(d)).sort();
    expect([body.from, body.to, body.days]).toEqual([dates[0], dates.at(-1), dates.length]);
    const excess = sum(dates.map((d) => 0.6 * aapl.get(d)! + 0.4 * msft.get(d)! - ff5.get(d)!.RF!));
    expect(body.excessReturn).toBeCloseTo(excess, 12);
    // one convention per figure: the sums add up, and the compounded ones are given beside them
    const total = sum(dates.map((d) => 0.6 * aapl.get(d)! + 0.4 * msft.get(d)!));
    const riskFree = sum(dates.map((d) => ff5.get(d)!.RF!));
    expect(body.totalReturn).toBeCloseTo(total, 12);
    expect(body.riskFreeReturn).toBeCloseTo(riskFree, 12);
    expect(Math.abs(body.totalReturn - body.riskFreeReturn - body.excessReturn)).toBeLessThan(1e-12);
    const grown = (values: number[]) => values.reduce((g, r) => g * (1 + r), 1) - 1;
    const compoundedTotal = grown(dates.map((d) => 0.6 * aapl.get(d)! + 0.4 * msft.get(d)!));
    const compoundedRiskFree = grown(dates.map((d) => ff5.get(d)!.RF!));
    expect(body.compounded.totalReturn).toBeCloseTo(compoundedTotal, 12);
    expect(body.compounded.riskFreeReturn).toBeCloseTo(compoundedRiskFree, 12);
    expect(body.compounded.excessReturn).toBeCloseTo((1 + compoundedTotal) / (1 + compoundedRiskFree) - 1, 12);
  });

  it('compounds the return of a single holding over three dates as the price file does', async () => {
    const closes = closesOf(texts.AAPL!);
    const all = [...closes.keys()].sort();
    const ff5 = factorsOf(texts.ff5!);
    const inRange = all.filter((d) => d >= '2022-12-20' && ff5.has(d));
    const [from, , to] = inRange as [string, string, string];
    const answer = await call(t, 'POST', '/v1/portfolio/attribution', { key, body: { holdings: [{ ticker: 'AAPL', weight: 1 }], from, to, model: 'ff5' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.days).toBe(3);
    const before = all[all.indexOf(from) - 1]!;
    const compounded = [from, inRange[1]!, to].reduce((growth, d, i, list) => growth * (closes.get(d)! / closes.get(i ? list[i - 1]! : before)!), 1) - 1;
    expect(answer.body.compounded.totalReturn).toBeCloseTo(compounded, 12);
    expect(answer.body.compounded.totalReturn).toBeCloseTo(closes.get(to)! / closes.get(before)! - 1, 12);
  });

  it('reaches back before the estimation window when the period is longer', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/attribution', { key, body: { holdings: [{ ticker: 'MSFT', weight: 1 }], from: '2021-01-04', to: '2022-12-30', lookbackDays: 60, model: 'ff5' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.estimationWindow.days).toBe(60);
    expect(answer.body.from).toBe('2021-01-04');
    expect(answer.body.days).toBeGreaterThan(60);
  });
});

describe('validation', () => {
  it.each([
    ['/v1/portfolio/attribution', { holdings: [{ ticker: 'AAPL', weight: 1 }], from: '2022-12-30', to: '2022-07-01' }, 'from'],
    ['/v1/portfolio/attribution', { holdings: [{ ticker: 'AAPL', weight: 1 }], from: '2022-12-24', to: '2022-12-26' }, 'from'],
    ['/v1/portfolio/attribution', { holdings: [], from: '2022-07-01', to: '2022-12-30' }, 'holdings'],
    ['/v1/portfolio/attribution', { holdings: [{ ticker: 'AAPL', weight: 1 }], from: '1990-01-02', to: '1999-01-04' }, 'to'],
    ['/v1/portfolio/attribution', { holdings: [{ ticker: 'AAPL', weight: 1 }], to: '2022-12-30' }, 'from'],
    ['/v1/portfolio/risk', { holdings: [] }, 'holdings'],
    ['/v1/portfolio/risk', { holdings: [{ ticker: 'ZZZZ', weight: 1 }] }, 'holdings[0].ticker'],
  ])('%s refuses %j with validation_error naming %s', async (path, body, field) => {
    const answer = await call(t, 'POST', path, { key, body });
    expectEnvelope(answer, 400, 'validation_error');
    expect(JSON.stringify(answer.body)).toContain(field);
    expect((answer.body.details.issues as { path: unknown }[]).map((i) => String(i.path)), JSON.stringify(answer.body)).toContain(field);
  });
});
