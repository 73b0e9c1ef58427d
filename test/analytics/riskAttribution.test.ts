// POST /v1/portfolio/risk and /v1/portfolio/attribution against answers the test computes itself
// from the same files: its own window, returns, normal equations and sample covariance, not the
// service's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, expectEnvelope, orgWithKey, startTestService, type TestService } from '../harness.ts';

const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  SPY: 'market/prices/SPY.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
};
const texts: Record<string, string> = {};
let t: TestService;
let key: string;

beforeAll(async () => {
  for (const [name, file] of Object.entries(files)) texts[name] = await corpusFile(file);
  t = await startTestService();
  ({ key } = await orgWithKey(t, 'Risk analysts', 'team'));
  await runIngest(t.service.services, fixtureSource(Object.fromEntries(Object.entries(files).map(([name, file]) => [file, { text: texts[name]! }]))));
}, 120_000);
afterAll(() => t?.close());

/** date → daily return, where the file has a close on the date and on its previous row. */
function returnsOf(text: string): Map<string, number> {
  const rows = text.split(/\r?\n/).slice(1).map((l) => l.split(',')).filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c[0]!.slice(0, 10)) && c[4]);
  const out = new Map<string, number>();
  for (let i = 1; i < rows.length; i++) out.set(rows[i]![0]!.slice(0, 10), Number(rows[i]![4]) / Number(rows[i - 1]![4]) - 1);
  return out;
}

/** date → close, from the price file. */
function closesOf(text: string): Map<string, number> {
  const rows = text.split(/\r?\n/).slice(1).map((l) => l.split(',')).filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c[0]!.slice(0, 10)) && c[4]);
  return new Map(rows.map((r) => [r[0]!.slice(0, 10), Number(r[4])]));
}

/** date → factor → fraction, from a Ken French daily file (YYYYMMDD rows under the header naming them). */
function factorsOf(text: string): Map<string, Record<string, number>> {
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((l) => /^\s*,/.test(l));
  const names = lines[header]!.split(',').slice(1).map((n) => n.trim());
  const out = new Map<string, Record<string, number>>();
  for (const line of lines.slice(header + 1)) {
    const cells = line.split(',').map((c) => c.trim());
    if (!/^\d{8}$/.test(cells[0]!)) continue;
    const date = `${cells[0]!.slice(0, 4)}-${cells[0]!.slice(4, 6)}-${cells[0]!.slice(6)}`;
    out.set(date, Object.fromEntries(names.map((n, i) => [n, Number(cells[i + 1]) / 100])));
  }
  return out;
}

/** OLS with intercept by the normal equations, solved by Gaussian elimination with partial pivoting. */
function normalEquations(y: number[], columns: number[][]): number[] {
  const X = y.map((_, t) => [1, ...columns.map((c) => c[t]!)]);
  const k = X[0]!.length;
  const A = Array.from({ length: k }, (_, i) => [...Array.from({ length: k }, (_, j) => X.reduce((s, row) => s + row[i]! * row[j]!, 0)), X.reduce((s, row, t) => s + row[i]! * y[t]!, 0)]);
  for (let col = 0; col < k; col++) {
    const pivot = A.slice(col).reduce((best, row, i) => (Math.abs(row[col]!) > Math.abs(A[best]![col]!) ? col + i : best), col);
    [A[col], A[pivot]] = [A[pivot]!, A[col]!];
    for (let r = col + 1; r < k; r++) {
      const f = A[r]![col]! / A[col]![col]!;
      for (let c = col; c <= k; c++) A[r]![c]! -= f * A[col]![c]!;
    }
  }
  const b = new Array<number>(k).fill(0);
  for (let r = k - 1; r >= 0; r--) b[r] = (A[r]![k]! - A[r]!.slice(r + 1, k).reduce((s, v, i) => s + v * b[r + 1 + i]!, 0)) / A[r]![r]!;
  return b;
}

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
    expect(answer.body.totalReturn).toBeCloseTo(compounded, 12);
    expect(answer.body.totalReturn).toBeCloseTo(closes.get(to)! / closes.get(before)! - 1, 12);
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
