// The market files of the corpus through the real ingest: prices, Fama-French factors and FRED
// series land in their tables with the file's decimal text, each file a MarketSource with its
// vintage and coverage; junk lines are the item's warnings; a second run adds nothing; a
// changed file replaces its rows. The files are copied to a temporary folder at test time.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest, type IngestSummary } from '../../ingest/run.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { scratchDatabase, startTestService, type TestService } from '../harness.ts';

describe.runIf(hasCorpus)('market data, ingested', { timeout: 120_000 }, () => {
  let t: TestService;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let folder: string;
  let first: IngestSummary;
  const ingest = () => runIngest(t.service.services, folderSource(folder));
  const prisma = () => t.service.services.prisma;
  const counts = async () => ({
    bars: await prisma().priceBar.count(),
    factors: await prisma().factorReturn.count(),
    observations: await prisma().macroObservation.count(),
    series: await prisma().macroSeries.count(),
    sources: await prisma().marketSource.count(),
  });
  const iso = (d: Date | null | undefined) => d?.toISOString().slice(0, 10) ?? null;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'ids-market-'));
    await cp(path.join(corpusDir, 'market'), path.join(folder, 'market'), { recursive: true });
    database = await scratchDatabase();
    t = await startTestService({ database: database.target });
    first = await ingest();
    console.log(`market files: ${first.read} items, ${first.records} records in ${first.seconds.toFixed(1)} s`);
  }, 600_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('writes all 25 files; TLT goes in partly, its junk row named where the ingest lists what was left out', async () => {
    expect(first).toMatchObject({ read: 25, written: 25, partial: 1, failed: 0, skipped: 0 });
    const tlt = await prisma().ingestItem.findUniqueOrThrow({ where: { sourceKey: 'market/prices/TLT.daily.csv' } });
    expect(tlt).toMatchObject({ kind: 'market_prices', status: 'partial', records: 5030, reason: 'line 2 left out: "" is not a date (",Tlt,Tlt,Tlt,Tlt,Tlt")' });
    const kinds = await prisma().ingestItem.groupBy({ by: ['kind'], _count: true, orderBy: { kind: 'asc' } });
    expect(kinds.map((k) => [k.kind, k._count])).toEqual([['factor_returns', 5], ['macro_series', 11], ['market_prices', 9]]);
  });

  it('holds every row the files have, MANIFEST\'s counts', async () => {
    // prices 4×5031 + 2×1638 + 2×5030 + 3844; factors: values (rows × factors); FRED observations
    expect(await counts()).toEqual({ bars: 37_304, factors: 230_812, observations: 32_697, series: 11, sources: 25 });
    expect(await prisma().priceBar.count({ where: { ticker: 'SPY' } })).toBe(5030);
  });

  it('keeps the numbers as the files write them', async () => {
    const aapl = await prisma().priceBar.findUniqueOrThrow({ where: { ticker_date: { ticker: 'AAPL', date: new Date('2020-03-16T00:00:00Z') } } });
    expect(aapl).toMatchObject({ open: '58.57280879803252', high: '62.71974667617121', low: '58.10074101606611', close: '58.6357536315918', volume: '322423600', sourceKey: 'market/prices/AAPL.daily.csv' });
    // `2019-07-01 00:00:00-04:00` is the 1 July session
    const qqq = await prisma().priceBar.findUniqueOrThrow({ where: { ticker_date: { ticker: 'QQQ', date: new Date('2019-07-01T00:00:00Z') } } });
    expect(qqq.close).toBe('182.30709838867188');

    const mkt = await prisma().factorReturn.findUniqueOrThrow({ where: { dataset_frequency_period_factor: { dataset: 'ff3', frequency: 'daily', period: '1926-07-01', factor: 'Mkt-RF' } } });
    expect(mkt.value).toBe('0.10');
    const annual = await prisma().factorReturn.findMany({ where: { dataset: 'ff5', frequency: 'annual', period: '2008' }, orderBy: { factor: 'asc' } });
    expect(annual.map((r) => [r.factor, r.value, iso(r.date)])).toEqual([
      ['CMA', '4.20', '2008-12-31'],
      ['HML', '1.05', '2008-12-31'],
      ['Mkt-RF', '-38.34', '2008-12-31'],
      ['RF', '1.60', '2008-12-31'],
      ['RMW', '14.72', '2008-12-31'],
      ['SMB', '2.74', '2008-12-31'],
    ]);
    const october = await prisma().factorReturn.findUniqueOrThrow({ where: { dataset_frequency_period_factor: { dataset: 'ff3', frequency: 'monthly', period: '2008-10', factor: 'SMB' } } });
    expect([october.value, iso(october.date)]).toEqual(['-2.60', '2008-10-31']);
    expect(await prisma().factorReturn.count({ where: { dataset: 'mom', factor: 'Mom' } })).toBe(25_298);

    const cpi = await prisma().macroObservation.findMany({ where: { seriesId: 'CPIAUCSL', date: { gte: new Date('2025-09-01T00:00:00Z'), lte: new Date('2025-11-01T00:00:00Z') } }, orderBy: { date: 'asc' } });
    expect(cpi.map((o) => o.value)).toEqual(['324.245', null, '325.063']);
    const gdpc1 = await prisma().macroObservation.findUniqueOrThrow({ where: { seriesId_frequency_date: { seriesId: 'GDPC1', frequency: 'quarterly', date: new Date('2008-10-01T00:00:00Z') } } });
    expect(gdpc1.value).toBe('16485.350');
  });

  it('records each file\'s source: vintage (or why none), coverage, missing values and junk', async () => {
    const source = (name: string) => prisma().marketSource.findFirstOrThrow({ where: { fileName: name } });
    const ff3Daily = await source('F-F_Research_Data_Factors_daily.CSV');
    expect(ff3Daily).toMatchObject({ kind: 'factor_returns', subject: 'ff3', vintage: '202408', rows: 25_817, missingValues: 0, badLines: [] });
    expect([iso(ff3Daily.firstDate), iso(ff3Daily.lastDate)]).toEqual(['1926-07-01', '2024-08-30']);
    const ff3Monthly = await source('F-F_Research_Data_Factors.CSV');
    expect(ff3Monthly).toMatchObject({ vintage: null, vintageNote: 'the file has no header text, so no vintage is stated', rows: 1275 });
    expect([iso(ff3Monthly.firstDate), iso(ff3Monthly.lastDate)]).toEqual(['1926-07-31', '2024-08-31']);
    expect(await source('F-F_Momentum_Factor_daily.CSV')).toMatchObject({ subject: 'mom', vintage: '202212' });

    const tlt = await source('TLT.daily.csv');
    expect(tlt).toMatchObject({ kind: 'market_prices', subject: 'TLT', rows: 5030, badLines: [{ line: 2, text: ',Tlt,Tlt,Tlt,Tlt,Tlt', reason: '"" is not a date' }] });
    expect([iso(tlt.firstDate), iso(tlt.lastDate)]).toEqual(['2005-10-07', '2025-10-06']);

    const dgs10 = await source('FRED_DGS10.csv');
    expect(dgs10).toMatchObject({ kind: 'macro_series', subject: 'DGS10', missingValues: 175, rows: 4228 });
    expect((dgs10.missing as { period: string }[])[0]).toEqual({ line: 12, period: '2010-01-18', column: 'DGS10' });
    const fedfunds = await prisma().macroSeries.findFirstOrThrow({ where: { seriesId: 'FEDFUNDS' } });
    expect(fedfunds).toMatchObject({ frequency: 'quarterly', observations: 285, missing: 0, sourceKey: 'market/macro/FRED_FEDFUNDS_quarterly.csv' });
    expect([iso(fedfunds.firstDate), iso(fedfunds.lastDate)]).toEqual(['1954-07-01', '2025-07-01']);
  });

  it('a second ingest of the same files adds nothing', async () => {
    const before = await counts();
    const again = await ingest();
    expect(again).toMatchObject({ read: 25, written: 0, skipped: 25, failed: 0 });
    expect(await counts()).toEqual(before);
  });

  it('a changed file replaces its own rows, and its junk is reported', async () => {
    const before = await counts();
    const aaplPath = path.join(folder, 'market/prices/AAPL.daily.csv');
    const lines = (await readFile(aaplPath, 'utf8')).trimEnd().split('\n');
    // the last two sessions dropped, one value revised, a junk line added
    const changed = lines.slice(0, -2).map((l) => (l.startsWith('2020-03-16,') ? '2020-03-16,58.57,62.71,58.10,58.63,322423600' : l));
    await writeFile(aaplPath, `${changed.join('\n')}\nnot,a,bar\n`);
    const unrate = path.join(folder, 'market/macro/FRED_UNRATE.csv');
    await writeFile(unrate, (await readFile(unrate, 'utf8')).replace('2025-10-01,\n', '2025-10-01,4.4\n'));

    const summary = await ingest();
    expect(summary).toMatchObject({ written: 2, partial: 1, skipped: 23, failed: 0 });
    expect(await counts()).toEqual({ ...before, bars: before.bars - 2 });
    const aapl = await prisma().priceBar.findUniqueOrThrow({ where: { ticker_date: { ticker: 'AAPL', date: new Date('2020-03-16T00:00:00Z') } } });
    expect(aapl.close).toBe('58.63');
    expect(await prisma().priceBar.findFirst({ where: { ticker: 'AAPL', date: new Date('2025-10-08T00:00:00Z') } })).toBeNull();
    const item = await prisma().ingestItem.findUniqueOrThrow({ where: { sourceKey: 'market/prices/AAPL.daily.csv' } });
    expect(item).toMatchObject({ status: 'partial', records: 5029, reason: 'line 5031 left out: expected 6 fields, found 3 ("not,a,bar")' });
    const source = await prisma().marketSource.findUniqueOrThrow({ where: { sourceKey: 'market/prices/AAPL.daily.csv' } });
    expect([source.rows, iso(source.lastDate), (source.badLines as unknown[]).length]).toEqual([5029, '2025-10-06', 1]);

    const observation = await prisma().macroObservation.findUniqueOrThrow({ where: { seriesId_frequency_date: { seriesId: 'UNRATE', frequency: 'monthly', date: new Date('2025-10-01T00:00:00Z') } } });
    expect(observation.value).toBe('4.4');
    expect(await prisma().macroSeries.findUniqueOrThrow({ where: { seriesId_frequency: { seriesId: 'UNRATE', frequency: 'monthly' } } })).toMatchObject({ observations: 194, missing: 0 });
  });

  it('a file that now names another series replaces its series, rather than failing on the one it held', async () => {
    const dgs10 = path.join(folder, 'market/macro/FRED_DGS10.csv');
    await writeFile(dgs10, (await readFile(dgs10, 'utf8')).replace('observation_date,DGS10', 'observation_date,DGS10X'));
    const summary = await ingest();
    expect(summary).toMatchObject({ written: 1, failed: 0 });
    const held = await prisma().macroSeries.findMany({ where: { sourceKey: 'market/macro/FRED_DGS10.csv' }, select: { seriesId: true } });
    expect(held).toEqual([{ seriesId: 'DGS10X' }]);
    expect(await prisma().macroObservation.count({ where: { seriesId: 'DGS10' } })).toBe(0);
  });

  it('refuses a second file of a ticker already held, changing nothing', async () => {
    const before = await counts();
    await cp(path.join(corpusDir, 'market/prices/MSFT.daily.csv'), path.join(folder, 'market/prices/msft.csv'));
    const summary = await ingest();
    expect(summary).toMatchObject({ written: 0, failed: 1 });
    const item = await prisma().ingestItem.findUniqueOrThrow({ where: { sourceKey: 'market/prices/msft.csv' } });
    expect(item).toMatchObject({ status: 'failed', reason: 'ticker MSFT is already held from market/prices/MSFT.daily.csv, and is held from one file only' });
    expect(await counts()).toEqual(before);
  });
});
