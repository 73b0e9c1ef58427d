// Market utilities read back exactly what the files hold, with the file, vintage and coverage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const files = ['market/prices/AAPL.daily.csv', 'market/prices/IWM.daily.csv', 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV', 'market/macro/FRED_CPIAUCSL.csv', 'market/macro/FRED_DFF.csv'];
const texts = new Map<string, string>();
let t: TestService;
let key: string;

beforeAll(async () => {
  for (const file of files) texts.set(file, await corpusFile(file));
  t = await startIsolatedService(); // market files of its own: other suites load and change them
  ({ key } = await orgWithKey(t));
  await runIngest(t.service.services, fixtureSource(Object.fromEntries(files.map((f) => [f, { text: texts.get(f)! }]))));
});
afterAll(() => t?.close());

/** The file's data lines starting with `prefix`, split on commas: the test reads the file itself. */
const linesOf = (file: string, prefix: string) => texts.get(file)!.split(/\r?\n/).filter((l) => l.startsWith(prefix)).map((l) => l.split(',').map((c) => c.trim()));

describe('market utilities', () => {
  it('serves a ticker\'s closes exactly as written, paged in date order, with the file it came from', async () => {
    const first = await call(t, 'GET', '/v1/market/prices?ticker=AAPL&from=2020-03-02&to=2020-03-31&limit=10', { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const expected = linesOf('market/prices/AAPL.daily.csv', '2020-03-');
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]).toEqual({ date: expected[0]![0], open: expected[0]![1], high: expected[0]![2], low: expected[0]![3], close: expected[0]![4], volume: expected[0]![5] });
    expect(first.body.hasMore).toBe(true);
    const rest = await call(t, 'GET', `/v1/market/prices?ticker=aapl&from=2020-03-02&to=2020-03-31&limit=100&cursor=${first.body.nextCursor}`, { key });
    const all = [...first.body.data, ...rest.body.data];
    expect(all.map((b: { date: string; close: string }) => [b.date, b.close])).toEqual(expected.map((l) => [l[0], l[4]]));
    expect(first.body.sources[0]).toMatchObject({ object: 'market_source', kind: 'market_prices', subject: 'AAPL', fileName: 'AAPL.daily.csv' });
  });

  it('reads the trading day of a timezone-stamped row', async () => {
    const [row] = linesOf('market/prices/IWM.daily.csv', '2019-01-03');
    const answer = await call(t, 'GET', '/v1/market/prices?ticker=IWM&from=2019-01-03&to=2019-01-03', { key });
    expect(answer.body.data).toEqual([{ date: '2019-01-03', open: row![1], high: row![2], low: row![3], close: row![4], volume: row![5] }]);
  });

  it('serves factor returns in percent as published, with the vintage the file states', async () => {
    const answer = await call(t, 'GET', '/v1/factors/returns?model=ff5&frequency=daily&from=2020-03-16&to=2020-03-16', { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const header = texts.get('market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV')!.split(/\r?\n/).find((l) => l.includes('Mkt-RF'))!.split(',').map((c) => c.trim());
    const [row] = linesOf('market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV', '20200316');
    expect(answer.body.data).toEqual([{ period: '2020-03-16', date: '2020-03-16', values: Object.fromEntries(header.slice(1).map((name, i) => [name, row![i + 1]])) }]);
    expect(answer.body.sources[0].vintage).toBe('202408');
  });

  it('serves a FRED series with its gaps as null', async () => {
    const answer = await call(t, 'GET', '/v1/macro/series/CPIAUCSL?from=2020-01-01&to=2020-03-01', { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual(linesOf('market/macro/FRED_CPIAUCSL.csv', '2020-0').slice(0, 3).map(([date, value]) => ({ date, value })));
    expect(answer.body.frequency).toBe('monthly');
  });

  it('answers 404 market_data_not_found naming what is held, and 400 for a bad date', async () => {
    const missing = expectEnvelope(await call(t, 'GET', '/v1/market/prices?ticker=ZZZZ', { key }), 404, 'market_data_not_found');
    expect(missing.details.acceptedValues).toEqual(['AAPL', 'IWM']);
    expectEnvelope(await call(t, 'GET', '/v1/macro/series/NOPE', { key }), 404, 'market_data_not_found');
    expectEnvelope(await call(t, 'GET', '/v1/market/prices?ticker=AAPL&from=2020-02-30', { key }), 400, 'invalid_request_parameter');
    expectEnvelope(await call(t, 'GET', '/v1/factors/returns?model=ff7', { key }), 400, 'invalid_query_parameter');
  });

  it('lists the files held', async () => {
    const answer = await call(t, 'GET', '/v1/market/sources', { key });
    expect(answer.body.data.map((s: { fileName: string }) => s.fileName).sort()).toEqual(files.map((f) => f.split('/').pop()).sort());
  });
});
