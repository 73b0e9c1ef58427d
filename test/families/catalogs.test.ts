// Catalogs against the real corpus: every market file (prices, the five Fama-French files, the
// eleven FRED series) and the SEC's ticker maps. Dates, counts and gaps are checked against the
// files themselves; a stock's exposures against the portfolio route's regression of the same holding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

/** The data rows of a Fama-French file's first block (dated YYYYMMDD or YYYYMM), as the file has them. */
async function firstBlock(file: string): Promise<string[][]> {
  const lines = (await corpusFile(`market/factors/${file}`)).split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*\d{6,8}\s*,/.test(l));
  const end = lines.findIndex((l, i) => i > start && !/^\s*\d{6,8}\s*,/.test(l));
  return lines.slice(start, end).map((l) => l.split(',').map((c) => c.trim()));
}

const ymd = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

describe.runIf(hasCorpus)('catalogs', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Catalog readers', 'team'));
    await runIngest(t.service.services, corpusSubset(/^(reference\/|market\/)/));
  }, 600_000);
  afterAll(() => t?.close());

  describe('GET /v1/factors/models', () => {
    it('lists each model\'s factors with definitions, and per frequency its file, vintage, first and last dates and periods, as the files have them', async () => {
      const answer = await get('/v1/factors/models');
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const model = (id: string) => answer.body.data.find((m: { id: string }) => m.id === id);
      expect(answer.body.data.map((m: { id: string }) => m.id)).toEqual(['ff3', 'ff5', 'mom']);

      const ff3Daily = await firstBlock('F-F_Research_Data_Factors_daily.CSV');
      const ff3 = model('ff3');
      expect(ff3.factors.map((f: { name: string }) => f.name)).toEqual(['Mkt-RF', 'SMB', 'HML', 'RF']);
      expect(ff3.factors.every((f: { definition: string | null }) => f.definition && f.definition.length > 40)).toBe(true);
      expect(ff3.series.map((s: { frequency: string }) => s.frequency)).toEqual(['daily', 'monthly', 'annual']);
      expect(ff3.series[0]).toMatchObject({
        frequency: 'daily',
        firstDate: ymd(ff3Daily[0]![0]!),
        lastDate: ymd(ff3Daily.at(-1)![0]!),
        observations: ff3Daily.length,
        missingValues: 0,
        source: { fileName: 'F-F_Research_Data_Factors_daily.CSV', vintage: '202408' },
      });
      expect(ff3.series[0]).toMatchObject({ firstDate: '1926-07-01', lastDate: '2024-08-30' });
      // the monthly file's header lines were trimmed by its author: it states no vintage, and says so
      expect(ff3.series[1]).toMatchObject({ firstPeriod: '1926-07', lastPeriod: '2024-08', lastDate: '2024-08-31', source: { fileName: 'F-F_Research_Data_Factors.CSV', vintage: null } });
      expect(ff3.series[1].source.vintageNote).toMatch(/no header text/);
      expect(ff3.usedByAnalytics).toEqual(['ff3']);

      const ff5Daily = await firstBlock('F-F_Research_Data_5_Factors_2x3_daily.CSV');
      expect(model('ff5').factors.map((f: { name: string }) => f.name)).toEqual(['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA', 'RF']);
      expect(model('ff5').series[0]).toMatchObject({ firstDate: '1963-07-01', lastDate: '2024-08-30', observations: ff5Daily.length, source: { vintage: '202408' } });
      expect(model('ff5').usedByAnalytics).toEqual(['ff5', 'ff5_mom']);
      expect(model('mom').series).toEqual([expect.objectContaining({ frequency: 'daily', firstDate: '1926-11-03', lastDate: '2022-12-30', source: expect.objectContaining({ vintage: '202212' }) })]);
      expect(model('mom').factors).toEqual([{ name: 'Mom', definition: expect.stringMatching(/prior-return/) }]);

      // the analytics models: momentum ends in 2022, so ff5_mom's dates end there
      expect(answer.body.analyticsModels).toEqual([
        { id: 'ff3', factors: ['Mkt-RF', 'SMB', 'HML'], datasets: ['ff3'], firstDate: '1926-07-01', lastDate: '2024-08-30' },
        { id: 'ff5', factors: ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'], datasets: ['ff5'], firstDate: '1963-07-01', lastDate: '2024-08-30' },
        { id: 'ff5_mom', factors: ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA', 'Mom'], datasets: ['ff5', 'mom'], firstDate: '1963-07-01', lastDate: '2022-12-30' },
      ]);
    });

    it('leaves the definitions out of the compact view', async () => {
      const answer = await get('/v1/factors/models?view=compact');
      expect(answer.body.data[0].factors[0]).toEqual({ name: 'Mkt-RF', definition: null });
      expect(answer.body.data[0].series[0].observations).toBeGreaterThan(25_000);
    });
  });

  describe('GET /v1/factors/exposures', () => {
    it('regresses SPY on the three factors: a market beta near 1, almost all of its variance explained', async () => {
      const answer = await get('/v1/factors/exposures?ticker=SPY&model=ff3');
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const e = answer.body;
      expect(e).toMatchObject({ object: 'factor_exposures', ticker: 'SPY', model: 'ff3', modelReason: 'ff3, as asked', observations: 252, window: { to: '2024-08-30', days: 252 } });
      expect(e.betas['Mkt-RF'].beta).toBeGreaterThan(0.95);
      expect(e.betas['Mkt-RF'].beta).toBeLessThan(1.05);
      expect(e.betas['Mkt-RF'].tStat).toBeGreaterThan(100);
      expect(e.rSquared).toBeGreaterThan(0.98);
      // an index fund earns no alpha to speak of
      expect(Math.abs(e.alpha.tStat)).toBeLessThan(2);
      expect(e.betas['Mkt-RF'].tStat).toBeCloseTo(e.betas['Mkt-RF'].beta / e.betas['Mkt-RF'].stdError, 9);
      expect(e.sources.map((s: { fileName: string; vintage: string | null }) => [s.fileName, s.vintage])).toEqual([
        ['F-F_Research_Data_Factors_daily.CSV', '202408'],
        ['SPY.daily.csv', null],
      ]);
      expect(answer.headers.get('ratelimit-policy')).toMatch(/"analytics:minute"/);
    });

    it('is the portfolio route\'s regression of the same holding: the same numbers, by default the model it would choose', async () => {
      const own = await get('/v1/factors/exposures?ticker=AAPL');
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      // daily momentum ends on 2022-12-30, before the window, so the default is ff5 and says why
      expect(own.body.model).toBe('ff5');
      expect(own.body.modelReason).toMatch(/momentum ends 2022-12-30/);
      const portfolio = await call(t, 'POST', '/v1/portfolio/analyze', { key, body: { holdings: [{ ticker: 'AAPL', weight: 1 }] } });
      expect(portfolio.status, JSON.stringify(portfolio.body)).toBe(200);
      const held = portfolio.body.holdings[0].exposures;
      expect(own.body.window).toEqual(portfolio.body.window);
      expect(own.body.betas).toEqual(held.betas);
      expect(own.body.alpha).toEqual(held.alpha);
      expect([own.body.rSquared, own.body.observations]).toEqual([held.rSquared, held.observations]);
      // Apple: a market beta around 1, a positive profitability loading, a growth (negative value) tilt
      expect(own.body.betas['Mkt-RF'].beta).toBeGreaterThan(0.7);
      expect(own.body.betas['Mkt-RF'].beta).toBeLessThan(1.4);
      expect(own.body.betas.HML.beta).toBeLessThan(0);
      expect(Object.keys(own.body.betas)).toEqual(['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA']);
    });

    it('takes the window from as_of and lookback_days, and ff5_mom where momentum covers it', async () => {
      const answer = await get('/v1/factors/exposures?ticker=MSFT&model=ff5_mom&as_of=2020-12-31&lookback_days=126');
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ model: 'ff5_mom', asOf: '2020-12-31', window: { to: '2020-12-31', days: 126 }, observations: 126 });
      expect(Object.keys(answer.body.betas)).toEqual(['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA', 'Mom']);
      expect(answer.body.sources.map((s: { subject: string }) => s.subject)).toEqual(['mom', 'ff5', 'MSFT']);
    });

    it('refuses what it cannot compute: 404 for a ticker without prices or unknown, 400 for bad parameters or a window the data cannot fill', async () => {
      const snow = expectEnvelope(await get('/v1/factors/exposures?ticker=SNOW'), 404, 'market_data_not_found');
      expect(snow.details.acceptedValues).toEqual(['AAPL', 'IWM', 'JPM', 'MSFT', 'NVDA', 'QQQ', 'SPY', 'TLT', 'TSLA']);
      expectEnvelope(await get('/v1/factors/exposures?ticker=ZZZZZ'), 404, 'entity_not_found');
      expectEnvelope(await get('/v1/factors/exposures'), 400, 'invalid_query_parameter');
      expectEnvelope(await get('/v1/factors/exposures?ticker=AAPL&model=ff7'), 400, 'invalid_query_parameter');
      expectEnvelope(await get('/v1/factors/exposures?ticker=AAPL&lookback_days=10'), 400, 'invalid_query_parameter');
      expectEnvelope(await get('/v1/factors/exposures?ticker=AAPL&as_of=2024-13-01'), 400, 'invalid_request_parameter');
      const tooLong = expectEnvelope(await get('/v1/factors/exposures?ticker=AAPL&model=ff3&lookback_days=5000'), 400, 'validation_error');
      expect(tooLong.details.issues[0].path).toBe('lookback_days');
      const tooEarly = expectEnvelope(await get('/v1/factors/exposures?ticker=IWM&as_of=2018-12-31'), 400, 'validation_error');
      expect(tooEarly.details.issues[0].path).toBe('as_of');
    });
  });

  describe('GET /v1/macro/series', () => {
    it('lists every series held with its file, frequency, first and last observation and count, as the files have them', async () => {
      const answer = await get('/v1/macro/series');
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data.map((s: { seriesId: string; frequency: string }) => `${s.seriesId}/${s.frequency}`)).toEqual([
        'CPIAUCSL/monthly',
        'DFF/daily',
        'DGS10/daily',
        'FEDFUNDS/quarterly',
        'GDP/quarterly',
        'GDPC1/quarterly',
        'INDPRO/monthly',
        'PCE/monthly',
        'RSAFS/monthly',
        'UMCSENT/monthly',
        'UNRATE/monthly',
      ]);
      const series = (id: string) => answer.body.data.find((s: { seriesId: string }) => s.seriesId === id);
      for (const s of answer.body.data) {
        const rows = (await corpusFile(`market/macro/${s.source.fileName}`)).split(/\r?\n/).slice(1).filter((l) => l.trim());
        expect([s.firstDate, s.lastDate, s.observations], s.seriesId).toEqual([rows[0]!.split(',')[0], rows.at(-1)!.split(',')[0], rows.length]);
        expect(s.source.vintage).toBeNull();
        expect(s.source.vintageNote).toMatch(/states no vintage/);
      }
      expect(series('CPIAUCSL')).toMatchObject({ firstDate: '2010-01-01', lastDate: '2026-02-01', observations: 194, source: { fileName: 'FRED_CPIAUCSL.csv' } });
      expect(answer.body.gapRule).toMatch(/first day of every month/);
    });

    it('lists the gaps at each series\' cadence: a value FRED left blank, quarters before a survey went monthly, holidays of a business-daily series', async () => {
      const { data } = (await get('/v1/macro/series')).body;
      const series = (id: string) => data.find((s: { seriesId: string }) => s.seriesId === id);
      // October 2025: no CPI or unemployment rate was published (the federal shutdown), written as an empty value
      expect(series('CPIAUCSL')).toMatchObject({ cadence: 'the first day of every month', missingValues: 1, missingExpected: 1, gapCount: 1, gaps: [{ from: '2025-10-01', to: '2025-10-01', missing: 1, kind: 'no_value' }] });
      expect(series('UNRATE').gaps).toEqual([{ from: '2025-10-01', to: '2025-10-01', missing: 1, kind: 'no_value' }]);
      // every calendar day, none missing
      expect(series('DFF')).toMatchObject({ cadence: 'every calendar day', expectedObservations: 25_928, gaps: [] });
      // business daily: the first holiday is Martin Luther King Jr. Day 2010, which FRED lists without a value
      const dgs10 = series('DGS10');
      expect(dgs10).toMatchObject({ cadence: 'every weekday (Monday to Friday)', missingValues: 175, offCadence: 0 });
      expect(dgs10.gaps[0]).toEqual({ from: '2010-01-18', to: '2010-01-18', missing: 1, kind: 'no_value' });
      expect(dgs10.gaps.every((g: { kind: string }) => g.kind === 'no_value')).toBe(true);
      // Michigan sentiment was quarterly-ish before 1978: the months between are absent from the file
      const umcsent = series('UMCSENT');
      const months = new Set((await corpusFile('market/macro/FRED_UMCSENT.csv')).split(/\r?\n/).slice(1).filter((l) => l.trim()).map((l) => l.slice(0, 7)));
      let absent = 0;
      for (let y = 1952, m = 11; `${y}-${String(m).padStart(2, '0')}` <= '2025-04'; m === 12 ? ((y += 1), (m = 1)) : (m += 1)) if (!months.has(`${y}-${String(m).padStart(2, '0')}`)) absent++;
      expect(umcsent.missingExpected).toBe(absent);
      expect(umcsent.gaps[0]).toEqual({ from: '1952-12-01', to: '1953-01-01', missing: 2, kind: 'no_row' });
      expect(umcsent.gaps.at(-1).to < '1978-01-01').toBe(true);
      expect(series('GDP')).toMatchObject({ cadence: 'every 3rd month from the first observation', gaps: [] });
    });

    it('keeps the gap counts and leaves the list out of the agent view', async () => {
      const dgs10 = (await get('/v1/macro/series?view=agent')).body.data.find((s: { seriesId: string }) => s.seriesId === 'DGS10');
      expect(dgs10.gaps).toBeUndefined();
      expect(dgs10).toMatchObject({ gapCount: 175, missingExpected: 175, source: { fileName: 'FRED_DGS10.csv' } });
    });

    it('refuses bad parameters with 400', async () => {
      expectEnvelope(await get('/v1/macro/series?view=full'), 400, 'invalid_query_parameter');
      expectEnvelope(await get('/v1/macro/series?frequency=daily'), 400, 'invalid_query_parameter');
      expectEnvelope(await get('/v1/factors/models?model=ff3'), 400, 'invalid_query_parameter');
    });
  });

  it('refuses a request without a key, like the other data reads', async () => {
    for (const route of ['/v1/factors/models', '/v1/factors/exposures?ticker=AAPL', '/v1/macro/series', '/v1/factors/returns?model=ff3']) {
      expectEnvelope(await call(t, 'GET', route), 401, 'missing_api_key');
    }
  });
});
