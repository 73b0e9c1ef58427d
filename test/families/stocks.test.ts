// Stocks against the real corpus: Apple (ticker maps, submissions, companyfacts and its price
// file), Snowflake (companyfacts, no prices), IWM (prices, no registrant in the maps). Every price
// checked here is read from the file itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/|submissions\/CIK0000320193\.json|companyfacts\/(CIK0000320193|CIK0001640147)\.json|market\/prices\/(AAPL|IWM)\.daily\.csv)/;

interface Row {
  date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

describe.runIf(hasCorpus)('stocks', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  let aapl: Row[];
  const get = (route: string) => call(t, 'GET', route, { key });
  /** The bar of the file on the latest date on or before `date`. */
  const onOrBefore = (date: string) => aapl.filter((r) => r.date <= date).at(-1)!;

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Stock readers', 'team'));
    await runIngest(t.service.services, corpusSubset(wanted));
    aapl = (await corpusFile('market/prices/AAPL.daily.csv'))
      .split(/\r?\n/)
      .slice(1)
      .filter((l) => l.trim())
      .map((l) => {
        const [date, open, high, low, close, volume] = l.split(',');
        return { date: date!, open: open!, high: high!, low: low!, close: close!, volume: volume! };
      });
  }, 600_000);
  afterAll(() => t?.close());

  it('profiles Apple: the company from its submissions and the ticker maps, names over time, and the latest close as the file writes it', async () => {
    const answer = await get('/v1/stocks/AAPL');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const s = answer.body;
    expect(s.entity).toMatchObject({ object: 'entity', cik: '0000320193', name: 'Apple Inc.', sic: '3571', sicDescription: 'Electronic Computers', fiscalYearEnd: '0926', filingsCovered: true });
    expect(s.entity.match).toMatchObject({ matchedBy: 'ticker', confidence: 1, alternatives: [] });
    expect(s.listings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ticker: 'AAPL', exchange: 'Nasdaq', source: 'submissions' }),
        expect.objectContaining({ ticker: 'AAPL', exchange: 'Nasdaq', source: 'company_tickers_exchange' }),
        expect.objectContaining({ ticker: 'AAPL', exchange: null, source: 'company_tickers' }),
      ]),
    );
    expect(s.formerNames).toEqual([
      { name: 'APPLE INC', from: '2007-01-10', to: '2019-08-05' },
      { name: 'APPLE COMPUTER INC', from: '1994-01-26', to: '2007-01-04' },
      { name: 'APPLE COMPUTER INC/ FA', from: '1997-07-28', to: '1997-07-28' },
    ]);

    const last = aapl.at(-1)!;
    expect(s.prices).toMatchObject({ bars: aapl.length, firstDate: '2005-10-10', lastDate: '2025-10-08', adjusted: true });
    expect(s.prices.latest).toEqual({ date: last.date, close: last.close, adjustedClose: last.close, source: { sourceKey: 'market/prices/AAPL.daily.csv', fileName: 'AAPL.daily.csv', vintage: null } });
    expect(s.prices.source).toMatchObject({ object: 'market_source', fileName: 'AAPL.daily.csv', subject: 'AAPL', vintage: null, adjusted: true, rows: 5031 });
    expect(s.prices.adjustedNote).toMatch(/no Adj Close column/);
  });

  it('computes trailing returns from the file\'s closes, as of the latest close held', async () => {
    const { prices } = (await get('/v1/stocks/AAPL')).body;
    const last = aapl.at(-1)!;
    const expected = { '1m': '2025-09-08', '3m': '2025-07-08', '1y': '2024-10-08', ytd: '2024-12-31' } as const;
    for (const [period, baseDate] of Object.entries(expected)) {
      const r = prices.returns[period];
      const base = onOrBefore(baseDate);
      expect(r.baseDate, period).toBe(baseDate);
      expect(r.from, period).toMatchObject({ date: base.date, close: base.close });
      expect(r.to.date).toBe(last.date);
      expect(r.value, period).toBeCloseTo(Number(last.close) / Number(base.close) - 1, 12);
      expect(r.from.source.fileName).toBe('AAPL.daily.csv');
    }
    // 31 December 2024 was a trading day: the year-to-date base is that close itself
    expect(prices.returns.ytd.from.date).toBe('2024-12-31');
    expect(prices.returnRule).toMatch(/calendar months/);
  });

  it('says what it holds of Apple in counts and words, and what it does not', async () => {
    const { coverage } = (await get('/v1/stocks/AAPL')).body;
    const facts = await get('/v1/facts?ticker=AAPL&tag=Revenues&limit=1');
    expect(coverage.filings.count).toBeGreaterThan(1000);
    expect(coverage.filings).toMatchObject({ indexHeld: true, documentsIngested: 0 });
    // the count the facts read reports as held
    expect(coverage.facts.count).toBe(facts.body.coverage.factsHeld);
    expect(coverage.facts.count).toBeGreaterThan(10_000);
    expect(coverage.facts.latestFiledAt).toMatch(/^20\d\d-\d\d-\d\d$/);
    expect(coverage.statements.annualPeriods).toBeGreaterThan(10);
    expect(coverage.statements.quarterlyPeriods).toBeGreaterThan(30);
    expect(coverage.prices).toEqual({ bars: 5031, firstDate: '2005-10-10', lastDate: '2025-10-08', sourceKey: 'market/prices/AAPL.daily.csv' });
    expect(coverage.summary).toContain('Apple Inc. (CIK 0000320193, ticker AAPL)');
    expect(coverage.summary).toContain('5,031 daily price bars (2005-10-10 to 2025-10-08, from AAPL.daily.csv)');
    expect(coverage.notHeld.join(' ')).toMatch(/documents of [\d,]+ filings are not held/);
    expect(coverage.note).toMatch(/does not establish/);
  });

  it('profiles a company held without prices with prices null and a typed reason, not an error', async () => {
    const answer = await get('/v1/stocks/SNOW');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.entity).toMatchObject({ cik: '0001640147', filingsCovered: false });
    expect(answer.body.prices).toBeNull();
    expect(answer.body.pricesNullReason).toEqual({ code: 'prices_not_held', message: 'No daily price file of SNOW is held. Prices are held of: AAPL, IWM.' });
    expect(answer.body.coverage.prices).toBeNull();
    expect(answer.body.coverage.facts.count).toBeGreaterThan(1000);
    expect(answer.body.coverage.notHeld).toEqual(expect.arrayContaining([answer.body.pricesNullReason.message, expect.stringMatching(/submissions index of CIK 0001640147 is not held/)]));
    // its price list is empty, with the same reason
    const list = await get('/v1/stocks/SNOW/prices');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ data: [], total: 0, hasMore: false, nextCursor: null, sources: [], cik: '0001640147', pricesNullReason: { code: 'prices_not_held' } });
  });

  it('says so when the ticker maps disagree: BLK is BlackRock Inc. in one and the new holding company in the other', async () => {
    const answer = await get('/v1/stocks/BLK');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { match } = answer.body.entity;
    expect(answer.body.entity.cik).toBe('0001364742');
    expect(match.confidence).toBeLessThan(1);
    expect(match.reason).toMatch(/disagree/);
    expect(match.sources).toEqual([expect.objectContaining({ source: 'company_tickers' })]);
    expect(match.alternatives).toEqual([expect.objectContaining({ cik: '0002012383', name: 'BlackRock, Inc.', sources: [expect.objectContaining({ source: 'company_tickers_exchange' })] })]);
  });

  it('profiles a ticker held only by its prices with entity null and a typed reason', async () => {
    const answer = await get('/v1/stocks/iwm');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ ticker: 'IWM', entity: null, entityNullReason: { code: 'entity_not_held' }, prices: { firstDate: '2019-01-02', lastDate: '2025-07-09', bars: 1638 } });
    expect(answer.body.coverage.notHeld[0]).toMatch(/No SEC registrant with ticker IWM/);
  });

  it('serves the bars as the file writes them, with the daily return and a 21-day volatility computed from the file', async () => {
    const answer = await get('/v1/stocks/AAPL/prices?from=2020-03-02&to=2020-03-31&limit=100');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const march = aapl.filter((r) => r.date >= '2020-03-02' && r.date <= '2020-03-31');
    expect(answer.body.total).toBe(march.length);
    expect(answer.body.data.map((b: Row) => [b.date, b.open, b.high, b.low, b.close, b.volume])).toEqual(march.map((r) => [r.date, r.open, r.high, r.low, r.close, r.volume]));
    const at = (date: string) => aapl.findIndex((r) => r.date === date);
    const dailyReturn = (i: number) => Number(aapl[i]!.close) / Number(aapl[i - 1]!.close) - 1;
    for (const bar of answer.body.data) {
      const i = at(bar.date);
      expect(bar.adjustedClose).toBe(bar.close);
      expect(bar.dailyReturn).toBeCloseTo(dailyReturn(i), 12);
      const window = Array.from({ length: 21 }, (_, k) => dailyReturn(i - 20 + k));
      const mean = window.reduce((a, b) => a + b, 0) / 21;
      const sd = Math.sqrt(window.reduce((a, b) => a + (b - mean) ** 2, 0) / 20);
      expect(bar.volatility).toBeCloseTo(sd * Math.sqrt(252), 12);
      expect(bar.source).toEqual({ sourceKey: 'market/prices/AAPL.daily.csv', fileName: 'AAPL.daily.csv', vintage: null });
    }
    // the first bar of the range has the return from the row before it (28 February)
    expect(answer.body.data[0].dailyReturn).toBeCloseTo(Number(march[0]!.close) / Number(onOrBefore('2020-02-28').close) - 1, 12);
    // 16 March 2020: the worst day of the crash, annualised volatility far above normal
    expect(answer.body.data.find((b: { date: string }) => b.date === '2020-03-16').dailyReturn).toBeLessThan(-0.12);
    expect(answer.body).toMatchObject({ ticker: 'AAPL', cik: '0000320193', adjusted: true, rules: { volatilityWindow: 21, annualization: 252 } });
    expect(answer.body.rules.volatility).toMatch(/sample standard deviation/);
  });

  it('has no return on the file\'s first row, and no volatility until 21 returns are held', async () => {
    const { data } = (await get('/v1/stocks/AAPL/prices?limit=23')).body;
    expect(data[0]).toMatchObject({ date: '2005-10-10', dailyReturn: null, volatility: null });
    expect(data[20].volatility).toBeNull();
    expect(data[21].volatility).toBeGreaterThan(0);
  });

  it('pages with an opaque cursor: disjoint pages covering every bar of the range, in date order', async () => {
    const year = aapl.filter((r) => r.date >= '2024-01-01' && r.date <= '2024-12-31');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: Awaited<ReturnType<typeof get>> = await get(`/v1/stocks/AAPL/prices?from=2024-01-01&to=2024-12-31&limit=40${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.total).toBe(year.length);
      expect(answer.body.data.length).toBeLessThanOrEqual(40);
      seen.push(...answer.body.data.map((b: { date: string }) => b.date));
      cursor = answer.body.nextCursor;
      expect(answer.body.hasMore).toBe(cursor !== null);
      if (cursor) expect(cursor).not.toMatch(/2024/);
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(year.length / 40));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(year.map((r) => r.date));
  });

  it('keeps the views small: compact and agent bars keep the date and the citation', async () => {
    const compact = (await get('/v1/stocks/AAPL/prices?from=2024-12-31&to=2024-12-31&view=compact')).body.data[0];
    expect(Object.keys(compact).sort()).toEqual(['adjustedClose', 'dailyReturn', 'date', 'object', 'source', 'volume']);
    const agent = (await get('/v1/stocks/AAPL?view=agent')).body;
    expect(Object.keys(agent).sort()).toEqual(['coverage', 'entity', 'entityNullReason', 'object', 'prices', 'pricesNullReason', 'requestId', 'ticker']);
  });

  it('answers the same through the graph', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: '{ stock(ticker: "AAPL") { entity { cik } prices { latest { date close } } } }' } });
    expect(answer.body.data.stock).toEqual({ entity: { cik: '0000320193' }, prices: { latest: { date: aapl.at(-1)!.date, close: aapl.at(-1)!.close } } });
  });

  it('answers an unknown ticker 404 entity_not_found, the code the other ticker reads answer', async () => {
    expectEnvelope(await get('/v1/stocks/ZZZZZ'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/stocks/ZZZZZ/prices'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/earnings?ticker=ZZZZZ'), 404, 'entity_not_found');
  });

  it('refuses bad parameters with 400', async () => {
    expectEnvelope(await get('/v1/stocks/AAPL?view=full'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/stocks/AAPL?extra=1'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/stocks/A$PL'), 400, 'invalid_request_parameter');
    expectEnvelope(await get('/v1/stocks/AAPL/prices?from=2024-02-30'), 400, 'invalid_request_parameter');
    expectEnvelope(await get('/v1/stocks/AAPL/prices?limit=0'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/stocks/AAPL/prices?limit=101'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/stocks/AAPL/prices?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_query_parameter');
  });

  // Last, since it adds a ticker to what is held: the corpus's files have no Adj Close column, so
  // this one is written inline, as a yfinance export without auto_adjust writes it.
  it('takes a file\'s Adj Close as the adjusted close, says its Close is not adjusted, and computes returns on the adjusted close', async () => {
    const text = ['Date,Open,High,Low,Close,Adj Close,Volume', '2024-01-02,100,101,99,100,96,10', '2024-01-03,100,103,99,102,98,12', ''].join('\n');
    await runIngest(t.service.services, fixtureSource({ 'market/prices/ADJX.daily.csv': { text } }));
    const list = await get('/v1/stocks/ADJX/prices');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toMatchObject({ adjusted: false, adjustedNote: expect.stringMatching(/"Adj Close" column/) });
    expect(list.body.data.map((b: { close: string; adjustedClose: string }) => [b.close, b.adjustedClose])).toEqual([['100', '96'], ['102', '98']]);
    expect(list.body.data[1].dailyReturn).toBeCloseTo(98 / 96 - 1, 15);
    const profile = (await get('/v1/stocks/ADJX')).body;
    expect(profile.prices.returns['1m']).toMatchObject({ value: null, nullReason: expect.stringMatching(/^not_covered: the prices held start on 2024-01-02/) });
    expect(profile.prices.latest).toMatchObject({ close: '102', adjustedClose: '98' });
  });

  it('refuses a request without a key, like the other data reads', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/stocks/AAPL'), 401, 'missing_api_key');
    expectEnvelope(await call(t, 'GET', '/v1/stocks/AAPL/prices'), 401, 'missing_api_key');
    expectEnvelope(await call(t, 'GET', '/v1/market/prices?ticker=AAPL'), 401, 'missing_api_key');
  });
});
