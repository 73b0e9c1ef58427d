// POST /v1/portfolio/hedge against what the test computes itself from the same files: its own
// window, returns, normal equations and factor covariance (never the service's code), and the
// optimality conditions of the bounded problem checked on the served ratios.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, type TestService } from '../harness.ts';
import { marketSuite, returnsOf, factorsOf, normalEquations } from './independent.ts';

const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  SPY: 'market/prices/SPY.daily.csv',
  QQQ: 'market/prices/QQQ.daily.csv',
  IWM: 'market/prices/IWM.daily.csv',
  TLT: 'market/prices/TLT.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
  ff3: 'market/factors/F-F_Research_Data_Factors_daily.CSV',
};
type Name = keyof typeof files;
let texts: Record<Name, string>;
let t: TestService;
let key: string;

beforeAll(async () => {
  ({ t, key, texts } = await marketSuite(files, 'Hedgers'));
}, 120_000);
afterAll(() => t?.close());

const factorNames = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'];
const instruments = ['SPY', 'QQQ', 'IWM', 'TLT'] as const;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const book = [{ ticker: 'AAPL', weight: 0.6 }, { ticker: 'MSFT', weight: 0.4 }];
const hedge = (body: Record<string, unknown>) => call(t, 'POST', '/v1/portfolio/hedge', { key, body });

/** The window of analyze's rule over these tickers, the portfolio's and each instrument's betas by the normal equations, and F. */
function independentModel(tickers: Name[], asOf: string, days: number) {
  const returns = Object.fromEntries(tickers.map((ticker) => [ticker, returnsOf(texts[ticker]!)])) as Record<string, Map<string, number>>;
  const ff5 = factorsOf(texts.ff5!);
  const dates = [...returns[tickers[0]!]!.keys()].filter((d) => d <= asOf && tickers.every((ticker) => returns[ticker]!.has(d)) && ff5.has(d)).sort().slice(-days);
  const columns = factorNames.map((f) => dates.map((d) => ff5.get(d)![f]!));
  const betas = (series: (d: string) => number) => normalEquations(dates.map((d) => series(d) - ff5.get(d)!.RF!), columns).slice(1);
  const n = dates.length;
  const means = columns.map((c) => sum(c) / n);
  const F = columns.map((p, i) => columns.map((q, j) => sum(p.map((v, s) => (v - means[i]!) * (q[s]! - means[j]!))) / (n - 1)));
  const b = betas((d) => 0.6 * returns.AAPL!.get(d)! + 0.4 * returns.MSFT!.get(d)!);
  const B = Object.fromEntries(tickers.filter((x) => (instruments as readonly string[]).includes(x)).map((ticker) => [ticker, betas((d) => returns[ticker]!.get(d)!)]));
  return { dates, F, b, B };
}
const fDot = (F: number[][], x: number[], y: number[]) => sum(x.map((xi, p) => sum(y.map((yj, q) => xi * F[p]![q]! * yj))));

describe('portfolio hedge', () => {
  it('lowers the residual factor variance within the bounds, at the minimum the optimality conditions describe', async () => {
    const answer = await hedge({ holdings: book, asOf: '2022-12-30', lookbackDays: 252, model: 'ff5' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body;
    expect(body.object).toBe('portfolio_hedge');
    expect(body.artifactId).toMatch(/^art_/);
    expect(body.instruments.map((i: { instrument: string }) => i.instrument)).toEqual([...instruments]);

    const { dates, F, b, B } = independentModel(['AAPL', 'MSFT', ...instruments], '2022-12-30', 252);
    expect(body.window).toEqual({ from: dates[0], to: dates[251], days: 252 });
    factorNames.forEach((f, p) => expect(body.exposures.before[f]).toBeCloseTo(b[p]!, 8));

    const legs = body.instruments as { instrument: string; ratio: number; bounds: { min: number; max: number }; atBound: boolean; boundHit: string | null; exposures: { betas: Record<string, { beta: number }>; rSquared: number; residualVolatility: { annualized: number } } }[];
    for (const leg of legs) {
      expect(leg.bounds).toEqual({ min: -1, max: 0 });
      expect(leg.ratio).toBeGreaterThanOrEqual(-1);
      expect(leg.ratio).toBeLessThanOrEqual(0);
      factorNames.forEach((f, p) => expect(leg.exposures.betas[f]!.beta).toBeCloseTo(B[leg.instrument]![p]!, 8));
      expect(leg.exposures.rSquared).toBeGreaterThan(0);
      expect(leg.exposures.rSquared).toBeLessThanOrEqual(1);
      expect(leg.exposures.residualVolatility.annualized).toBeGreaterThan(0);
    }

    // the exposures after are b + Σ h_j B_j, and the residual variance is theirs under F × 252
    const h = legs.map((l) => l.ratio);
    const after = factorNames.map((_, p) => b[p]! + sum(legs.map((l, j) => h[j]! * B[l.instrument]![p]!)));
    factorNames.forEach((f, p) => expect(body.exposures.after[f]).toBeCloseTo(after[p]!, 8));
    const before = 252 * fDot(F, b, b);
    expect(Math.abs(body.residualFactorRisk.before.variance - before) / before).toBeLessThan(1e-8);
    expect(Math.abs(body.residualFactorRisk.after.variance - 252 * fDot(F, after, after)) / before).toBeLessThan(1e-8);
    expect(body.residualFactorRisk.after.variance).toBeLessThan(0.5 * body.residualFactorRisk.before.variance);
    expect(body.residualFactorRisk.after.volatility).toBeCloseTo(Math.sqrt(body.residualFactorRisk.after.variance), 12);

    // KKT of min (b + Bh)ᵀF(b + Bh) on the box: the gradient B_jᵀF(b + Bh) is 0 where a ratio is
    // free, ≥ 0 at its min and ≤ 0 at its max
    const scale = fDot(F, b, b);
    legs.forEach((leg) => {
      const gradient = fDot(F, B[leg.instrument]!, after) / scale;
      if (leg.boundHit === 'min') expect(gradient).toBeGreaterThan(-1e-9);
      else if (leg.boundHit === 'max') expect(gradient).toBeLessThan(1e-9);
      else expect(Math.abs(gradient)).toBeLessThan(1e-9);
      expect(leg.atBound).toBe(leg.boundHit !== null);
    });

    // no single instrument does better than the combined hedge; candidates come lowest residual first
    const candidates = body.candidates as { rank: number; instrument: string; residual: { variance: number } }[];
    expect(candidates.map((c) => c.rank)).toEqual([1, 2, 3, 4]);
    expect([...candidates.map((c) => c.instrument)].sort()).toEqual([...instruments].sort());
    candidates.slice(1).forEach((c, i) => expect(c.residual.variance).toBeGreaterThanOrEqual(candidates[i]!.residual.variance));
    expect(body.residualFactorRisk.after.variance).toBeLessThanOrEqual(candidates[0]!.residual.variance * (1 + 1e-12));
  });

  it('hedges with one instrument at the closed-form minimiser −(B_jᵀFb)/(B_jᵀFB_j) when its bound does not bind', async () => {
    const { F, b, B } = independentModel(['AAPL', 'MSFT', 'QQQ'], '2022-12-30', 252);
    const expected = -fDot(F, B.QQQ!, b) / fDot(F, B.QQQ!, B.QQQ!);
    const answer = await hedge({ holdings: book, asOf: '2022-12-30', model: 'ff5', instruments: ['QQQ'], bounds: { QQQ: { min: -3, max: 3 } } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [leg] = answer.body.instruments;
    expect(leg.atBound).toBe(false);
    expect(Math.abs(leg.ratio - expected)).toBeLessThan(1e-8);
    expect(answer.body.candidates).toHaveLength(1);
    expect(Math.abs(answer.body.candidates[0].unconstrainedRatio - expected)).toBeLessThan(1e-8);
    expect(answer.body.candidates[0].ratio).toBeCloseTo(leg.ratio, 12);
    // it is a short of close to the portfolio's whole value: two tech stocks against the Nasdaq-100
    expect(expected).toBeLessThan(-0.5);
  });

  it('stops at a tight bound and says so, lowering the residual less than the free ratio would', async () => {
    const free = await hedge({ holdings: book, asOf: '2022-12-30', model: 'ff5', instruments: ['SPY'], bounds: { SPY: { min: -5, max: 5 } } });
    const tight = await hedge({ holdings: book, asOf: '2022-12-30', model: 'ff5', instruments: ['SPY'], bounds: { SPY: { min: -0.25, max: 0 } } });
    expect(tight.status, JSON.stringify(tight.body)).toBe(200);
    expect(free.body.instruments[0].ratio).toBeLessThan(-0.25);
    expect(tight.body.instruments[0]).toMatchObject({ instrument: 'SPY', ratio: -0.25, bounds: { min: -0.25, max: 0 }, atBound: true, boundHit: 'min' });
    expect(tight.body.candidates[0]).toMatchObject({ ratio: -0.25, atBound: true });
    const risk = (a: typeof tight) => a.body.residualFactorRisk;
    expect(risk(tight).after.variance).toBeLessThan(risk(tight).before.variance);
    expect(risk(tight).after.variance).toBeGreaterThan(risk(free).after.variance);

    // with every instrument, a bound that binds on one leaves the others free to make up for it
    const mixed = await hedge({ holdings: book, asOf: '2022-12-30', model: 'ff5', bounds: { QQQ: { min: -0.1, max: 0 } } });
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    const qqq = mixed.body.instruments.find((i: { instrument: string }) => i.instrument === 'QQQ');
    expect(qqq).toMatchObject({ ratio: -0.1, atBound: true, boundHit: 'min', bounds: { min: -0.1, max: 0 } });
    for (const leg of mixed.body.instruments) expect(leg.ratio >= leg.bounds.min && leg.ratio <= leg.bounds.max).toBe(true);
  });

  it('takes the factor exposure to zero when four instruments span three factors and the bounds allow it', async () => {
    const wide = { min: -3, max: 3 };
    const answer = await hedge({ holdings: book, asOf: '2022-12-30', model: 'ff3', bounds: { SPY: wide, QQQ: wide, IWM: wide, TLT: wide } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { before, after } = answer.body.residualFactorRisk;
    expect(after.variance).toBeLessThan(1e-20 * before.variance);
    for (const f of ['Mkt-RF', 'SMB', 'HML']) expect(Math.abs(answer.body.exposures.after[f])).toBeLessThan(1e-10);
    for (const leg of answer.body.instruments) expect(leg.ratio >= -3 && leg.ratio <= 3).toBe(true);
    expect(answer.body.grossHedge).toBeCloseTo(sum(answer.body.instruments.map((l: { ratio: number }) => Math.abs(l.ratio))), 12);
  });

  it('hedges a window before 2019 with the instruments whose files cover it (QQQ and IWM start in 2019)', async () => {
    const answer = await hedge({ holdings: book, asOf: '2017-12-29', lookbackDays: 252, model: 'ff5' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.instruments.map((l: { instrument: string }) => l.instrument)).toEqual(['SPY', 'TLT']);
    expect(answer.body.window.to).toBe('2017-12-29');
    expect(answer.body.residualFactorRisk.after.variance).toBeLessThan(answer.body.residualFactorRisk.before.variance);
  });

  it('is deterministic: the same request gives the same result and content hash', async () => {
    const body = { holdings: book, asOf: '2021-06-30', lookbackDays: 126, model: 'ff5', instruments: ['SPY', 'IWM', 'TLT'] };
    const strip = ({ artifactId: _a, requestId: _r, ...rest }: Record<string, unknown>) => JSON.stringify(rest);
    const [a, b] = [await hedge(body), await hedge(body)];
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.artifactId).not.toBe(b.body.artifactId);
    expect(a.body.contentHash).toBe(b.body.contentHash);
    expect(strip(a.body)).toBe(strip(b.body));
  });

  it('is kept as an artifact its organization can read, and no other', async () => {
    const answer = await hedge({ holdings: book, asOf: '2022-12-30', model: 'ff5', instruments: ['SPY', 'TLT'] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const artifact = await call(t, 'GET', `/v1/artifacts/${answer.body.artifactId}`, { key });
    expect(artifact.status, JSON.stringify(artifact.body)).toBe(200);
    expect(artifact.body).toMatchObject({ id: answer.body.artifactId, kind: 'portfolio_hedge', route: '/v1/portfolio/hedge', contentHash: answer.body.contentHash });
    const { object: _o, artifactId: _a, contentHash: _c, requestId: _r, ...result } = answer.body;
    expect(artifact.body.result).toEqual(result);
    expect(artifact.body.manifest).toMatchObject({ model: 'ff5', window: answer.body.window });
    expect(artifact.body.manifest.inputs).toMatchObject({ instruments: ['SPY', 'TLT'], bounds: [{ instrument: 'SPY', min: -1, max: 0 }, { instrument: 'TLT', min: -1, max: 0 }] });
    expect(artifact.body.manifest.sources.map((s: { subject: string }) => s.subject)).toEqual(expect.arrayContaining(['AAPL', 'MSFT', 'SPY', 'TLT']));
    const other = await orgWithKey(t, 'Other hedgers', 'team');
    expectEnvelope(await call(t, 'GET', `/v1/artifacts/${answer.body.artifactId}`, { key: other.key }), 404, 'artifact_not_found');
  });

  it.each([
    [{ holdings: [] }, 'holdings'],
    [{ holdings: book, instruments: ['XLF'] }, 'instruments.0'],
    [{ holdings: book, instruments: [] }, 'instruments'],
    [{ holdings: book, instruments: ['SPY', 'SPY'] }, 'instruments'],
    [{ holdings: book, bounds: { SPY: { min: 0, max: -0.5 } } }, 'bounds.SPY'],
    [{ holdings: book, bounds: { XLF: { min: -1, max: 0 } } }, 'bounds.XLF'],
    [{ holdings: book, bounds: { SPY: { min: -20, max: 0 } } }, 'bounds.SPY.min'],
    [{ holdings: book, instruments: ['SPY'], bounds: { QQQ: { min: -1, max: 0 } } }, 'bounds.QQQ'],
    [{ holdings: [{ ticker: 'ZZZZ', weight: 1 }] }, 'holdings[0].ticker'],
  ])('refuses %j with validation_error naming %s', async (body, field) => {
    const answer = await hedge(body);
    expectEnvelope(answer, 400, 'validation_error');
    expect((answer.body.details.issues as { path: unknown }[]).map((i) => String(i.path)), JSON.stringify(answer.body)).toContain(field);
  });

  it('is an MCP tool', async () => {
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const { result } = await response.json();
    const tool = result.tools.find((x: { name: string }) => x.name === 'portfolio_hedge');
    expect(tool).toBeDefined();
    expect(Object.keys(tool.inputSchema.properties)).toEqual(expect.arrayContaining(['holdings', 'instruments', 'bounds']));
  });
});
