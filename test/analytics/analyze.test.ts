// POST /v1/portfolio/analyze against an OLS the test computes itself from the same files: its own
// window, returns and normal equations (Gaussian elimination), not the service's code.
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
  mom: 'market/factors/F-F_Momentum_Factor_daily.CSV',
};
const texts: Record<string, string> = {};
let t: TestService;
let key: string;

beforeAll(async () => {
  for (const [name, file] of Object.entries(files)) texts[name] = await corpusFile(file);
  t = await startTestService();
  ({ key } = await orgWithKey(t, 'Analysts', 'team'));
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
