// POST /v1/portfolio/optimize on the real market files: the optimum HiGHS finds is checked against
// a closed form and against random feasible weights, using a factor model the test estimates
// itself from the files (its own window, normal equations and covariance, not the service's code).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, type TestService } from '../harness.ts';
import { factorsOf, marketSuite, normalEquations, returnsOf } from './independent.ts';

const tickers = ['AAPL', 'MSFT', 'JPM', 'NVDA', 'TSLA'] as const;
const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  JPM: 'market/prices/JPM.daily.csv',
  NVDA: 'market/prices/NVDA.daily.csv',
  TSLA: 'market/prices/TSLA.daily.csv',
  SPY: 'market/prices/SPY.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
  INDPRO: 'market/macro/FRED_INDPRO.csv',
  CPIAUCSL: 'market/macro/FRED_CPIAUCSL.csv',
};
let texts: Record<keyof typeof files, string>;
let t: TestService;
let key: string;

beforeAll(async () => {
  ({ t, key, texts } = await marketSuite(files, 'Optimizers'));
}, 180_000);
afterAll(() => t?.close());

const factorNames = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'];
const style = [1, 2, 3, 4]; // every factor but Mkt-RF
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const asOf = '2022-12-30';
const current = [0.3, 0.25, 0.2, 0.15, 0.1];
const holdings = tickers.map((ticker, i) => ({ ticker, weight: current[i]! }));
const optimize = (body: Record<string, unknown>) => call(t, 'POST', '/v1/portfolio/optimize', { key, body: { holdings, asOf, lookbackDays: 252, model: 'ff5', ...body } });

/** The test's own annualised factor model of the tickers over the 252 dates to asOf. */
function factorModel() {
  const returns = Object.fromEntries([...tickers, 'SPY'].map((tk) => [tk, returnsOf(texts[tk as keyof typeof files])])) as Record<string, Map<string, number>>;
  const ff5 = factorsOf(texts.ff5);
  const dates = [...returns.AAPL!.keys()].filter((d) => d <= asOf && [...tickers, 'SPY'].every((tk) => returns[tk]!.has(d)) && ff5.has(d)).sort().slice(-252);
  const columns = factorNames.map((f) => dates.map((d) => ff5.get(d)![f]!));
  const n = dates.length;
  const means = columns.map((c) => sum(c) / n);
  const F = columns.map((p, i) => columns.map((q, j) => (252 * sum(p.map((v, s) => (v - means[i]!) * (q[s]! - means[j]!)))) / (n - 1)));
  const B: number[][] = [];
  const delta: number[] = [];
  for (const tk of tickers) {
    const y = dates.map((d) => returns[tk]!.get(d)! - ff5.get(d)!.RF!);
    const coef = normalEquations(y, columns);
    const residuals = y.map((v, i) => v - coef[0]! - sum(columns.map((c, j) => coef[j + 1]! * c[i]!)));
    B.push(coef.slice(1));
    delta.push((252 * sum(residuals.map((e) => e * e))) / (n - factorNames.length - 1));
  }
  const quad = (S: number[]) => tickers.map((_, i) => tickers.map((_, j) => sum(S.map((p) => sum(S.map((q) => B[i]![p]! * F[p]![q]! * B[j]![q]!))))));
  const all = [0, 1, 2, 3, 4];
  const sigma = quad(all).map((row, i) => row.map((v, j) => v + (i === j ? delta[i]! : 0)));
  const down = dates.filter((d) => returns.SPY!.get(d)! < 0);
  const semi = tickers.map((a) => tickers.map((b) => (252 * sum(down.map((d) => returns[a]!.get(d)! * returns[b]!.get(d)!))) / down.length));
  return { dates, F, B, sigma, styleCov: quad(style), semi };
}

/** Solves A x = b by Gaussian elimination with partial pivoting. */
function solve(A: number[][], b: number[]): number[] {
  const m = A.map((row, i) => [...row, b[i]!]);
  const k = b.length;
  for (let col = 0; col < k; col++) {
    const pivot = m.slice(col).reduce((best, row, i) => (Math.abs(row[col]!) > Math.abs(m[best]![col]!) ? col + i : best), col);
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = col + 1; r < k; r++) {
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= k; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  const x = new Array<number>(k).fill(0);
  for (let r = k - 1; r >= 0; r--) x[r] = (m[r]![k]! - sum(m[r]!.slice(r + 1, k).map((v, i) => v * x[r + 1 + i]!))) / m[r]![r]!;
  return x;
}

const quadForm = (M: number[][], w: number[]) => sum(w.map((wi, i) => sum(w.map((wj, j) => wi * M[i]![j]! * wj))));
const combine = (a: number[][], b: number[][], s: number) => a.map((row, i) => row.map((v, j) => v + s * b[i]![j]!));
type Row = { ticker: string; before: number; after: number; min: number; max: number; bound: 'min' | 'max' | null };

describe('POST /v1/portfolio/optimize', () => {
  it('factor_neutral: equals the closed-form optimum w ∝ M⁻¹1 when no bound binds, and lowers the style-factor variance', async () => {
    const answer = await optimize({ objective: 'factor_neutral', longOnly: false, bounds: { min: -1, max: 1 } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.object).toBe('portfolio_optimization');
    expect(answer.body.solver).toMatchObject({ library: 'highs', status: 'optimal' });
    expect(answer.body.objective.targetedFactors).toEqual(['SMB', 'HML', 'RMW', 'CMA']);
    const { styleCov, sigma, dates } = factorModel();
    expect(answer.body.window).toEqual({ from: dates[0], to: dates[251], days: 252 });
    const M = combine(styleCov, sigma, 0.01);
    const x = solve(M, tickers.map(() => 1));
    const expected = x.map((v) => v / sum(x));
    const rows = answer.body.weights as Row[];
    expect(rows.map((r) => r.ticker)).toEqual([...tickers]);
    expect(rows.every((r) => r.bound === null)).toBe(true);
    rows.forEach((r, i) => expect(Math.abs(r.after - expected[i]!), r.ticker).toBeLessThan(1e-6));
    expect(Math.abs(sum(rows.map((r) => r.after)) - 1)).toBeLessThan(1e-9);

    // the targeted exposures carry less variance than the current weights' do
    const styleVariance = (exposures: Record<string, number>) => {
      const { F } = factorModel();
      return sum(style.map((p) => sum(style.map((q) => exposures[factorNames[p]!]! * F[p]![q]! * exposures[factorNames[q]!]!))));
    };
    expect(styleVariance(answer.body.exposures.after)).toBeLessThan(styleVariance(answer.body.exposures.before) / 4);
    expect(answer.body.objectiveValue.after).toBeLessThan(answer.body.objectiveValue.before);
    expect(Math.abs(answer.body.objectiveValue.after - quadForm(M, rows.map((r) => r.after)))).toBeLessThan(1e-9);
    // ex-ante risk under the test's Σ
    expect(Math.abs(answer.body.risk.after.variance - quadForm(sigma, rows.map((r) => r.after)))).toBeLessThan(1e-9);
  });

  it('min_drawdown, long-only with bounds: weights add up to 1, stay within bounds, the tight bounds bind, and no random feasible weights do better', async () => {
    const answer = await optimize({ objective: 'min_drawdown', bounds: { min: 0, max: 0.4 }, tickerBounds: [{ ticker: 'TSLA', min: 0.15 }] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = answer.body.weights as Row[];
    expect(Math.abs(sum(rows.map((r) => r.after)) - 1)).toBeLessThan(1e-9);
    for (const r of rows) {
      expect(r.after).toBeGreaterThanOrEqual(r.min - 1e-9);
      expect(r.after).toBeLessThanOrEqual(r.max + 1e-9);
    }
    const tsla = rows.find((r) => r.ticker === 'TSLA')!;
    expect(tsla).toMatchObject({ min: 0.15, max: 0.4, bound: 'min' });
    expect(Math.abs(tsla.after - 0.15)).toBeLessThan(1e-7);
    expect(answer.body.bindingBounds).toContainEqual({ ticker: 'TSLA', bound: 'min', value: 0.15 });
    for (const b of answer.body.bindingBounds as { ticker: string; bound: 'min' | 'max'; value: number }[]) {
      expect(Math.abs(rows.find((r) => r.ticker === b.ticker)!.after - b.value)).toBeLessThan(1e-7);
    }
    expect(answer.body.objective.downsideDays).toBeGreaterThan(50);

    // the objective, formed by the test: (252/|D|) Σ_D (wᵀr)² + 0.01 wᵀΣw
    const { semi, sigma } = factorModel();
    const M = combine(semi, sigma, 0.01);
    const w = rows.map((r) => r.after);
    const best = quadForm(M, w);
    expect(Math.abs(answer.body.objectiveValue.after - best)).toBeLessThan(1e-9);
    const lo = rows.map((r) => r.min);
    const hi = rows.map((r) => r.max);
    // random feasible points: convex mixes of the optimum with random points of the box pushed onto Σw = 1
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }), fc.double({ min: 0.001, max: 1, noNaN: true }), (u, s) => {
        let v = u.map((x, i) => lo[i]! + x * (hi[i]! - lo[i]!));
        // move the free room proportionally until the budget holds, staying in the box
        for (let pass = 0; pass < 50; pass++) {
          const gap = 1 - sum(v);
          if (Math.abs(gap) < 1e-12) break;
          const room = v.map((x, i) => (gap > 0 ? hi[i]! - x : x - lo[i]!));
          const total = sum(room);
          if (total <= 0) return true;
          v = v.map((x, i) => x + (gap * room[i]!) / total);
        }
        if (Math.abs(sum(v) - 1) > 1e-9) return true;
        const candidate = w.map((x, i) => (1 - s) * x + s * v[i]!);
        return quadForm(M, candidate) >= best - 1e-12;
      }),
      { numRuns: 300, seed: 7 },
    );
    expect(answer.body.maxDrawdown.after).toBeGreaterThan(0);
  });

  it('regime_aware: states the macro pack\'s regime and rule, and the premia it used', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/optimize', { key, body: { holdings, model: 'ff5', objective: 'regime_aware' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const pack = await call(t, 'GET', '/v1/macro/high-signal-pack?country=US', { key });
    expect(pack.status).toBe(200);
    expect(answer.body.regime.rule).toBe(pack.body.regime.rule);
    expect(answer.body.regime.asOf).toBe(answer.body.window.to);
    const lastMacro = [pack.body.regime.growth.months.at(-1).month, pack.body.regime.inflation.months.at(-1).month].sort()[1];
    if (answer.body.window.to >= `${lastMacro}-01`) expect(answer.body.regime.name).toBe(pack.body.regime.name);
    // as of the window's end: no month after it is read
    for (const trend of [answer.body.regime.growth, answer.body.regime.inflation]) expect(trend.months.at(-1).month <= answer.body.window.to.slice(0, 7)).toBe(true);
    expect(['goldilocks', 'reflation', 'stagflation', 'deflation']).toContain(answer.body.regime.name);
    expect(Object.keys(answer.body.objective.premia)).toEqual(factorNames);
    expect(answer.body.objective.riskAversion).toBe(5);
    const rows = answer.body.weights as Row[];
    expect(Math.abs(sum(rows.map((r) => r.after)) - 1)).toBeLessThan(1e-9);
    expect(rows.every((r) => r.after >= -1e-9 && r.after <= 1 + 1e-9)).toBe(true);
    // the optimum beats the current weights on the stated objective
    expect(answer.body.objectiveValue.after).toBeLessThanOrEqual(answer.body.objectiveValue.before);
    const artifact = await call(t, 'GET', `/v1/artifacts/${answer.body.artifactId}`, { key });
    expect(artifact.body.manifest.sources.map((s: { sourceKey: string }) => s.sourceKey)).toEqual(expect.arrayContaining([files.INDPRO, files.CPIAUCSL, files.AAPL]));
  });

  it('infeasible bounds are 422 optimization_infeasible, never an answer', async () => {
    const tight = expectEnvelope(await optimize({ objective: 'factor_neutral', bounds: { min: 0, max: 0.1 } }), 422, 'optimization_infeasible');
    expect(tight.details).toMatchObject({ reason: 'sum of max below 1', sumMax: 0.5 });
    const heavy = expectEnvelope(await optimize({ objective: 'min_drawdown', tickerBounds: [{ ticker: 'AAPL', min: 0.6 }, { ticker: 'MSFT', min: 0.5 }] }), 422, 'optimization_infeasible');
    expect(heavy.details).toMatchObject({ reason: 'sum of min above 1' });
    expectEnvelope(await optimize({ objective: 'min_drawdown', tickerBounds: [{ ticker: 'AAPL', min: 0.5, max: 0.4 }] }), 422, 'optimization_infeasible');
    // feasible bounds, but not within the turnover allowed from the current weights (AAPL 0.3 must fall to 0.1): HiGHS proves it
    const turnover = expectEnvelope(await optimize({ objective: 'min_drawdown', tickerBounds: [{ ticker: 'AAPL', max: 0.1 }], maxTurnover: 0.2 }), 422, 'optimization_infeasible');
    expect(turnover.details).toMatchObject({ solver: 'HiGHS', solverStatus: 'infeasible' });
    // and the same turnover limit, loose enough, binds
    const ok = await optimize({ objective: 'min_drawdown', tickerBounds: [{ ticker: 'AAPL', max: 0.1 }], maxTurnover: 0.5 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.turnover.value).toBeLessThanOrEqual(0.5 + 1e-7);
  });

  it('400 validation_error naming the field: an unknown objective, a negative lower bound while long-only, an unknown ticker bound', async () => {
    const unknown = expectEnvelope(await optimize({ objective: 'max_sharpe' }), 400, 'validation_error');
    expect(JSON.stringify(unknown.details)).toContain('objective');
    const missing = expectEnvelope(await optimize({}), 400, 'validation_error');
    expect(JSON.stringify(missing.details)).toContain('objective');
    const short = expectEnvelope(await optimize({ objective: 'factor_neutral', bounds: { min: -0.1, max: 1 } }), 400, 'validation_error');
    expect(short.details.issues[0].path).toBe('bounds.min');
    const stranger = expectEnvelope(await optimize({ objective: 'factor_neutral', tickerBounds: [{ ticker: 'IBM', max: 0.2 }] }), 400, 'validation_error');
    expect(stranger.details.issues[0].path).toBe('tickerBounds[0].ticker');
  });

  it('400 validation_error naming the field: a neutral factor the model lacks, a ticker bounded twice', async () => {
    const lacking = expectEnvelope(await optimize({ objective: 'factor_neutral', neutralFactors: ['SMB', 'Mom'] }), 400, 'validation_error');
    expect(lacking.details.issues[0].path).toBe('neutralFactors[1]');
    const twice = expectEnvelope(await optimize({ objective: 'min_drawdown', tickerBounds: [{ ticker: 'AAPL', max: 0.4 }, { ticker: 'aapl', max: 0.3 }] }), 400, 'validation_error');
    expect(twice.details.issues[0].path).toBe('tickerBounds[1].ticker');
  });

  it('is deterministic, kept as an artifact, and listed as an MCP tool', async () => {
    const body = { objective: 'min_drawdown', bounds: { min: 0.05, max: 0.5 } };
    const first = await optimize(body);
    const second = await optimize(body);
    expect(first.status).toBe(200);
    expect(second.body.contentHash).toBe(first.body.contentHash);
    expect(second.body.weights).toEqual(first.body.weights);
    const artifact = await call(t, 'GET', `/v1/artifacts/${first.body.artifactId}`, { key });
    expect(artifact.status).toBe(200);
    expect(artifact.body).toMatchObject({ object: 'artifact', kind: 'portfolio_optimization', contentHash: first.body.contentHash });
    expect(artifact.body.result.weights).toEqual(first.body.weights);

    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const listed = (await response.json()) as { result: { tools: { name: string; inputSchema: { properties: Record<string, unknown>; required?: string[] } }[] } };
    const tool = listed.result.tools.find((x) => x.name === 'portfolio_optimize');
    expect(tool).toBeDefined();
    expect(tool!.inputSchema.required).toEqual(expect.arrayContaining(['holdings', 'objective']));
  });
});
