// POST /v1/portfolio/stress-test and its scenario catalog against answers the test computes itself
// from the same files: closes for buy and hold, compounded Fama-French factor returns for the
// factor-implied path, not the service's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, type TestService } from '../harness.ts';
import { marketSuite, closesOf, factorsOf } from './independent.ts';

const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  SPY: 'market/prices/SPY.daily.csv',
  TSLA: 'market/prices/TSLA.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
  mom: 'market/factors/F-F_Momentum_Factor_daily.CSV',
};
let texts: Record<keyof typeof files, string>;
let t: TestService;
let key: string;

beforeAll(async () => {
  ({ t, key, texts } = await marketSuite(files, 'Stress testers'));
}, 120_000);
afterAll(() => t?.close());

type Row = { ticker: string; weight: number; return: number; method: string; from?: string; to?: string };
type Scenario = { id: string; kind: string; portfolioReturn: number; holdings: Row[]; notModelled?: string[] };

describe('portfolio stress test', () => {
  const body = { holdings: [{ ticker: 'AAPL', weight: 0.5 }, { ticker: 'TSLA', weight: 0.3 }, { ticker: 'MSFT', weight: 0.2 }], scenarios: ['covid_2020', 'gfc_2008', 'market_down_20', 'value_rotation'], asOf: '2022-12-30', model: 'ff5' };

  it('prices each scenario as the files say', async () => {
    const answer = await call(t, 'POST', '/v1/portfolio/stress-test', { key, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.object).toBe('portfolio_stress_test');
    expect(answer.body.artifactId).toMatch(/^art_/);
    expect(answer.body.model).toBe('ff5');
    expect(answer.body.window.to).toBe('2022-12-30');
    expect(answer.body.window.days).toBe(252);
    const betas = new Map<string, Record<string, number>>(answer.body.exposures.map((e: { ticker: string; betas: Record<string, number> }) => [e.ticker, e.betas]));
    const scenario = (id: string) => answer.body.scenarios.find((s: Scenario) => s.id === id) as Scenario;
    const row = (id: string, ticker: string) => scenario(id).holdings.find((h) => h.ticker === ticker)!;

    // covid_2020: AAPL's file covers the window, so buy and hold from the two closes
    const aapl = closesOf(texts.AAPL!);
    const covid = row('covid_2020', 'AAPL');
    expect(covid).toMatchObject({ method: 'buy_and_hold', from: '2020-02-19', to: '2020-03-23' });
    expect(covid.return).toBeCloseTo(aapl.get('2020-03-23')! / aapl.get('2020-02-19')! - 1, 12);

    // gfc_2008: TSLA's file starts 2010-06-29, so Σ β × compounded factor returns over the window
    const ff5 = factorsOf(texts.ff5!);
    const dates = [...ff5.keys()].filter((d) => d > '2007-10-09' && d <= '2009-03-09').sort();
    const factorNames = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'];
    const tsla = betas.get('TSLA')!;
    expect(Object.keys(tsla).sort()).toEqual([...factorNames].sort());
    const expected = factorNames.reduce((s, f) => s + tsla[f]! * (dates.reduce((g, d) => g * (1 + ff5.get(d)![f]!), 1) - 1), 0);
    const gfc = row('gfc_2008', 'TSLA');
    expect(gfc.method).toBe('factor_implied');
    expect(gfc.return).toBeCloseTo(expected, 10);
    expect(row('gfc_2008', 'AAPL').method).toBe('buy_and_hold');

    // market_down_20: −0.2 × the market beta
    for (const ticker of ['AAPL', 'TSLA', 'MSFT']) {
      expect(row('market_down_20', ticker)).toMatchObject({ method: 'factor_shock' });
      expect(row('market_down_20', ticker).return).toBeCloseTo(-0.2 * betas.get(ticker)!['Mkt-RF']!, 12);
    }
    // value_rotation under ff5: momentum is not in the model, contributes 0 and is named
    expect(scenario('value_rotation').notModelled).toEqual(['Mom']);
    expect(row('value_rotation', 'MSFT').return).toBeCloseTo(0.1 * betas.get('MSFT')!.HML!, 12);

    // the portfolio's return is the weighted sum of the holdings'
    for (const s of answer.body.scenarios as Scenario[]) {
      expect(s.holdings.map((h) => h.weight)).toEqual([0.5, 0.3, 0.2].map((w) => expect.closeTo(w, 12)));
      expect(s.portfolioReturn).toBeCloseTo(s.holdings.reduce((sum, h) => sum + h.weight * h.return, 0), 12);
    }
  });

  it('lists the catalog with the historical windows', async () => {
    const answer = await call(t, 'GET', '/v1/portfolio/stress-test/scenarios', { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const windows = Object.fromEntries(answer.body.data.filter((s: { kind: string }) => s.kind === 'historical').map((s: { id: string; window: unknown }) => [s.id, s.window]));
    expect(windows).toEqual({
      gfc_2008: { from: '2007-10-09', to: '2009-03-09' },
      lehman_2008: { from: '2008-09-12', to: '2008-11-20' },
      covid_2020: { from: '2020-02-19', to: '2020-03-23' },
      rates_2022: { from: '2022-01-03', to: '2022-10-12' },
    });
    const ids = answer.body.data.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['market_down_20', 'rates_up_100bp', 'value_rotation']));
    expect(answer.body.data.find((s: { id: string }) => s.id === 'market_down_20').shocks).toEqual({ 'Mkt-RF': -0.2 });
  });

  it.each([
    [{ scenarios: ['no_such_crash'] }, 'scenarios[0]'],
    [{ scenarios: ['covid_2020', 'nope'] }, 'scenarios[1]'],
    [{ scenarios: [] }, 'scenarios'],
  ])('refuses %j with validation_error naming %s', async (patch, field) => {
    const answer = await call(t, 'POST', '/v1/portfolio/stress-test', { key, body: { holdings: [{ ticker: 'AAPL', weight: 1 }], ...patch } });
    expectEnvelope(answer, 400, 'validation_error');
    expect(JSON.stringify(answer.body)).toContain(field);
  });
});
