// Macro analytics: factor sensitivity to macro changes equals an OLS the test computes itself from
// the files, and the high-signal pack reads back the files with its stated regime rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const macro = (id: string) => `market/macro/FRED_${id}.csv`;
const factorsFile = 'market/factors/F-F_Research_Data_5_Factors_2x3.csv';
const files = [...['CPIAUCSL', 'UNRATE', 'DGS10', 'DFF', 'INDPRO', 'GDPC1'].map(macro), factorsFile];
const texts = new Map<string, string>();
let t: TestService;
let key: string;

beforeAll(async () => {
  for (const file of files) texts.set(file, await corpusFile(file));
  t = await startIsolatedService(); // market files of its own: other suites load and change them
  ({ key } = await orgWithKey(t, 'x', 'team'));
  await runIngest(t.service.services, fixtureSource(Object.fromEntries(files.map((f) => [f, { text: texts.get(f)! }]))));
}, 120_000);
afterAll(() => t?.close());

/** A FRED file's (date, value) rows with a value, read by the test itself. */
function fred(id: string): [string, number][] {
  return texts
    .get(macro(id))!
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(',').map((c) => c.trim()))
    .filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c[0] ?? '') && c[1] !== undefined && c[1] !== '' && c[1] !== '.')
    .map((c) => [c[0]!, Number(c[1])]);
}
/** Month → mean of the values dated in it. */
function byMonth(rows: [string, number][]): Map<string, number> {
  const acc = new Map<string, number[]>();
  for (const [d, v] of rows) (acc.get(d.slice(0, 7)) ?? acc.set(d.slice(0, 7), []).get(d.slice(0, 7))!).push(v);
  return new Map([...acc].map(([m, vs]) => [m, vs.reduce((a, b) => a + b, 0) / vs.length]));
}
const monthBefore = (m: string, k: number) => {
  const n = Number(m.slice(0, 4)) * 12 + Number(m.slice(5)) - 1 - k;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
};
const yoyOf = (levels: Map<string, number>) => new Map([...levels].filter(([m]) => levels.has(monthBefore(m, 12))).map(([m, v]) => [m, v / levels.get(monthBefore(m, 12))! - 1]));
const diffOf = (levels: Map<string, number>) => new Map([...levels].filter(([m]) => levels.has(monthBefore(m, 1))).map(([m, v]) => [m, v - levels.get(monthBefore(m, 1))!]));

/** Solves A x = b by Gaussian elimination with partial pivoting, on plain arrays. */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= M[r]![k]! * x[k]!;
    x[r] = s / M[r]![r]!;
  }
  return x;
}

describe('macro sensitivity', () => {
  it('equals an OLS of monthly factor returns on the macro changes computed from the files', async () => {
    const answer = await call(t, 'GET', '/v1/factors/macro-sensitivity?model=ff5', { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    const lines = texts.get(factorsFile)!.split(/\r?\n/);
    const header = lines.find((l) => l.includes('Mkt-RF'))!.split(',').map((c) => c.trim());
    const factorNames = header.slice(1).filter((f) => f !== 'RF');
    const factorRows = new Map<string, Record<string, number>>();
    for (const l of lines) {
      const c = l.split(',').map((x) => x.trim());
      if (!/^\d{6}$/.test(c[0]!)) continue;
      const row: Record<string, number> = {};
      header.slice(1).forEach((f, i) => {
        const v = Number(c[i + 1]);
        if (c[i + 1] !== '' && v !== -99.99) row[f] = v / 100;
      });
      factorRows.set(`${c[0]!.slice(0, 4)}-${c[0]!.slice(4)}`, row);
    }
    const regressors = [yoyOf(byMonth(fred('CPIAUCSL'))), diffOf(byMonth(fred('UNRATE'))), diffOf(byMonth(fred('DGS10'))), diffOf(byMonth(fred('DFF'))), yoyOf(byMonth(fred('INDPRO')))];
    const names = ['cpi_yoy', 'unemployment_change', 'treasury_10y_change', 'fed_funds_change', 'industrial_production_yoy'];
    const months = [...regressors[0]!.keys()].filter((m) => regressors.every((r) => r.has(m)) && factorNames.every((f) => factorRows.get(m)?.[f] !== undefined)).sort();

    expect(answer.body.window).toMatchObject({ from: months[0], to: months[months.length - 1], months: months.length });
    expect(answer.body.regressors.map((r: { name: string }) => r.name)).toEqual(names);
    expect(answer.body.regressors[0].series).toMatchObject({ seriesId: 'CPIAUCSL', sourceKey: macro('CPIAUCSL') });
    expect(Object.keys(answer.body.factors).sort()).toEqual([...factorNames].sort());

    const Z = months.map((m) => [1, ...regressors.map((r) => r.get(m)!)]);
    const ZtZ = Z[0]!.map((_, i) => Z[0]!.map((_, j) => Z.reduce((s, z) => s + z[i]! * z[j]!, 0)));
    for (const factor of factorNames) {
      const y = months.map((m) => factorRows.get(m)![factor]!);
      const beta = solve(ZtZ, Z[0]!.map((_, i) => Z.reduce((s, z, r) => s + z[i]! * y[r]!, 0)));
      const got = answer.body.factors[factor];
      expect(got.n).toBe(months.length);
      expect(Math.abs(got.alpha.estimate - beta[0]!)).toBeLessThan(1e-8);
      names.forEach((name, j) => expect(Math.abs(got.betas[name].beta - beta[j + 1]!), `${factor} ${name}`).toBeLessThan(1e-8));
      const fitted = Z.map((z) => z.reduce((s, v, i) => s + v * beta[i]!, 0));
      const mean = y.reduce((a, b) => a + b, 0) / y.length;
      const r2 = 1 - y.reduce((s, v, i) => s + (v - fitted[i]!) ** 2, 0) / y.reduce((s, v) => s + (v - mean) ** 2, 0);
      expect(Math.abs(got.rSquared - r2)).toBeLessThan(1e-8);
    }
  });

  it('keeps to the from..to window', async () => {
    const answer = await call(t, 'GET', '/v1/factors/macro-sensitivity?from=2015-01-01&to=2019-12-31', { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.window).toMatchObject({ from: '2015-01', to: '2019-12', months: 60 });
    expect(answer.body.model).toBe('ff5');
    // the three-factor file is not ingested here: a model not held is 404, naming what is held
    const missing = expectEnvelope(await call(t, 'GET', '/v1/factors/macro-sensitivity?model=ff3', { key }), 404, 'market_data_not_found');
    expect(missing.details.acceptedValues).toContain('ff5/monthly');
  });
});

describe('high-signal macro pack', () => {
  it('serves the latest CPI as the file\'s last line, the regime by its stated rule, and is deterministic', async () => {
    const first = await call(t, 'GET', '/v1/macro/high-signal-pack?country=US', { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const cpiLines = texts.get(macro('CPIAUCSL'))!.split(/\r?\n/).filter((l) => l.trim() !== '');
    const [date, value] = cpiLines[cpiLines.length - 1]!.split(',');
    const cpi = first.body.series.find((s: { seriesId: string }) => s.seriesId === 'CPIAUCSL');
    expect(cpi.latest).toEqual({ seriesId: 'CPIAUCSL', date, value: Number(value) });
    expect(cpi.nextObservation.estimated).toBe(true);
    expect(cpi.changeFromYearEarlier.from.date).toBe(`${Number(date!.slice(0, 4)) - 1}${date!.slice(4)}`);

    const trend = (id: string) => {
      const yoys = [...yoyOf(byMonth(fred(id)))].sort(([a], [b]) => (a < b ? -1 : 1)).slice(-6).map(([, v]) => v);
      return yoys.slice(3).reduce((a, b) => a + b, 0) / 3 > yoys.slice(0, 3).reduce((a, b) => a + b, 0) / 3 ? 'up' : 'down';
    };
    const quadrant: Record<string, string> = { 'up/up': 'reflation', 'up/down': 'goldilocks', 'down/up': 'stagflation', 'down/down': 'deflation' };
    expect(first.body.regime.name).toBe(quadrant[`${trend('INDPRO')}/${trend('CPIAUCSL')}`]);
    expect(first.body.regime.rule).toMatch(/reflation/);

    const newest = first.body.series.map((s: { latest: { date: string } }) => s.latest.date).sort().pop();
    expect(first.body.asOf).toBe(newest);
    const dff = first.body.series.find((s: { seriesId: string }) => s.seriesId === 'DFF');
    expect(dff.source.stalenessDays).toBe(Math.round((Date.parse(newest) - Date.parse(dff.latest.date)) / 86_400_000));

    const second = await call(t, 'GET', '/v1/macro/high-signal-pack?country=us', { key });
    const strip = (b: Record<string, unknown>) => JSON.stringify({ ...b, requestId: undefined });
    expect(strip(second.body)).toBe(strip(first.body));
  });

  it('answers 404 country_not_covered for a country it does not hold', async () => {
    const answer = expectEnvelope(await call(t, 'GET', '/v1/macro/high-signal-pack?country=FR', { key }), 404, 'country_not_covered');
    expect(answer.details.acceptedValues).toEqual(['US']);
  });
});

describe('date cursors', () => {
  // The cursor of a date-ordered page is a date: one that names no calendar day is the client's
  // mistake (400 naming the parameter), never a 500, whether or not the series is held.
  it.each([
    '/v1/macro/series/CPIAUCSL?cursor=2020-13-01',
    '/v1/macro/series/CPIAUCSL?cursor=2020-02-30',
    '/v1/macro/series/NOSUCHSERIES?cursor=2020-13-01',
    '/v1/market/prices?ticker=SPY&cursor=2020-00-10',
    '/v1/factors/returns?model=ff5&cursor=2020-12-32',
  ])('%s is 400 invalid_request_parameter naming cursor', async (route) => {
    const answer = expectEnvelope(await call(t, 'GET', route, { key }), 400, 'invalid_request_parameter');
    expect(answer.details.parameter).toBe('cursor');
  });

  it('a good cursor still pages on', async () => {
    const first = await call(t, 'GET', '/v1/macro/series/CPIAUCSL?limit=2', { key });
    expect(first.status).toBe(200);
    const next = await call(t, 'GET', `/v1/macro/series/CPIAUCSL?limit=2&cursor=${first.body.nextCursor}`, { key });
    expect(next.status).toBe(200);
    expect(next.body.data[0].date > first.body.nextCursor).toBe(true);
  });
});
