// Fama-French data-library files (market/factors): percent values as written, the monthly and
// annual blocks kept apart, the stated CRSP vintage (or why there is none), -99.99 as null.
import { describe, expect, it } from 'vitest';
import { parseFamaFrench } from '../../ingest/parsers/market/famaFrench.ts';
import { corpusFile, hasCorpus } from '../corpus.ts';

const factors = async (name: string) => parseFamaFrench(await corpusFile(`market/factors/${name}`), name);
const valueOf = (file: ReturnType<typeof parseFamaFrench>, frequency: string, period: string) =>
  Object.fromEntries(file.values.filter((v) => v.frequency === frequency && v.period === period).map((v) => [v.factor, v.value]));

describe('Fama-French files, inline', () => {
  const text = [
    'This file was created by CMPT_ME_BEME_RETS using the 202401 CRSP database.',
    'Missing data are indicated by -99.99 or -999.',
    '',
    ',Mkt-RF,SMB,RF',
    '202301,    1.00,  -99.99,    0.30',
    '202302,   -0.50,    0.25',
    '2023x3,    1.00,    1.00,    1.00',
    '202304,    2.00,    -999,    0.40',
    '',
    ' Annual Factors: January-December ',
    ',Mkt-RF,SMB,RF',
    '  2023,   10.00,    1.10,    4.00',
    '  202305,   10.00,    1.10,    4.00',
    '',
    '202306,   10.00,    1.10,    4.00',
    'Copyright 2024 Kenneth R. French',
  ].join('\r\n');
  const file = parseFamaFrench(text, 'F-F_Research_Data_Factors.CSV');

  it('stores -99.99 and -999 as null and reports where they were', () => {
    expect(valueOf(file, 'monthly', '2023-01')).toEqual({ 'Mkt-RF': '1.00', SMB: null, RF: '0.30' });
    expect(valueOf(file, 'monthly', '2023-04')).toEqual({ 'Mkt-RF': '2.00', SMB: null, RF: '0.40' });
    expect(file.missing).toEqual([
      { line: 5, period: '2023-01', column: 'SMB' },
      { line: 8, period: '2023-04', column: 'SMB' },
    ]);
  });

  it('keeps the annual block apart, dated by the year\'s last day', () => {
    expect(file.values.filter((v) => v.frequency === 'annual')).toEqual([
      { frequency: 'annual', period: '2023', date: '2023-12-31', factor: 'Mkt-RF', value: '10.00' },
      { frequency: 'annual', period: '2023', date: '2023-12-31', factor: 'SMB', value: '1.10' },
      { frequency: 'annual', period: '2023', date: '2023-12-31', factor: 'RF', value: '4.00' },
    ]);
    expect(file.values.find((v) => v.period === '2023-04')!.date).toBe('2023-04-30');
  });

  it('reports short rows, bad dates, a monthly row in the annual block and a row outside any block', () => {
    expect(file.badLines.map((b) => [b.line, b.reason])).toEqual([
      [6, 'expected 4 fields, found 3'],
      [7, '"2023x3" is not a YYYYMMDD, YYYYMM or YYYY date'],
      [13, 'a monthly date in a block of annual rows'],
      [15, 'a data row outside a block with a column header'],
    ]);
    expect(file).toMatchObject({ dataset: 'ff3', vintage: '202401', rows: 3 });
  });
});

describe.runIf(hasCorpus)('Fama-French files of the corpus', () => {
  it('3-factor daily: 202408 vintage, 25817 days (1926-07-01..2024-08-30), values as written', async () => {
    const file = await factors('F-F_Research_Data_Factors_daily.CSV');
    expect(file).toMatchObject({ dataset: 'ff3', vintage: '202408', rows: 25817, badLines: [], missing: [] });
    expect(file.vintageNote).toBe('This file was created by CMPT_ME_BEME_RETS_DAILY using the 202408 CRSP database.');
    expect(file.values[0]).toEqual({ frequency: 'daily', period: '1926-07-01', date: '1926-07-01', factor: 'Mkt-RF', value: '0.10' });
    // line 24699: `20200316,  -12.00,   -0.24,   -0.73,   0.006`
    expect(valueOf(file, 'daily', '2020-03-16')).toEqual({ 'Mkt-RF': '-12.00', SMB: '-0.24', HML: '-0.73', RF: '0.006' });
    expect(file.values.at(-1)).toMatchObject({ period: '2024-08-30', factor: 'RF', value: '0.022' });
  });

  it('3-factor monthly (header text trimmed): no vintage, and says why; 1178 months and 97 years apart', async () => {
    const file = await factors('F-F_Research_Data_Factors.CSV');
    expect(file).toMatchObject({ dataset: 'ff3', vintage: null, vintageNote: 'the file has no header text, so no vintage is stated', badLines: [] });
    expect(new Set(file.values.filter((v) => v.frequency === 'monthly').map((v) => v.period)).size).toBe(1178);
    expect(new Set(file.values.filter((v) => v.frequency === 'annual').map((v) => v.period)).size).toBe(97);
    // line 989 `200810,  -17.23,   -2.60,   -2.30,    0.08` and line 1264 `  2008,  -38.34,    2.40,    1.05,    1.60`
    expect(valueOf(file, 'monthly', '2008-10')).toEqual({ 'Mkt-RF': '-17.23', SMB: '-2.60', HML: '-2.30', RF: '0.08' });
    expect(valueOf(file, 'annual', '2008')).toEqual({ 'Mkt-RF': '-38.34', SMB: '2.40', HML: '1.05', RF: '1.60' });
    expect(file.values.find((v) => v.frequency === 'monthly' && v.period === '2024-08')!.date).toBe('2024-08-31');
    expect(file.values.filter((v) => v.frequency === 'annual')[0]).toEqual({ frequency: 'annual', period: '1927', date: '1927-12-31', factor: 'Mkt-RF', value: '29.47' });
  });

  it('5-factor (2x3) monthly: six factors, 734 months 1963-07..2024-08, 60 years', async () => {
    const file = await factors('F-F_Research_Data_5_Factors_2x3.csv');
    expect(file).toMatchObject({ dataset: 'ff5', vintage: '202408', rows: 794, badLines: [] });
    expect(valueOf(file, 'monthly', '1963-07')).toEqual({ 'Mkt-RF': '-0.39', SMB: '-0.41', HML: '-0.97', RMW: '0.68', CMA: '-1.18', RF: '0.27' });
    expect(valueOf(file, 'annual', '2008')).toEqual({ 'Mkt-RF': '-38.34', SMB: '2.74', HML: '1.05', RMW: '14.72', CMA: '4.20', RF: '1.60' });
    expect(valueOf(file, 'annual', '1966')).toMatchObject({ RMW: '0.00' });
    expect(file.values.filter((v) => v.frequency === 'monthly')).toHaveLength(734 * 6);
    expect(file.values.filter((v) => v.frequency === 'annual')).toHaveLength(60 * 6);
  });

  it('5-factor (2x3) daily: 15397 days 1963-07-01..2024-08-30', async () => {
    const file = await factors('F-F_Research_Data_5_Factors_2x3_daily.CSV');
    expect(file).toMatchObject({ dataset: 'ff5', vintage: '202408', rows: 15397, badLines: [] });
    expect(valueOf(file, 'daily', '2020-03-16')).toEqual({ 'Mkt-RF': '-12.00', SMB: '-0.82', HML: '-0.73', RMW: '0.47', CMA: '1.38', RF: '0.006' });
    expect(valueOf(file, 'daily', '2024-08-30')).toEqual({ 'Mkt-RF': '0.98', SMB: '-0.56', HML: '0.04', RMW: '-0.20', CMA: '-0.14', RF: '0.022' });
  });

  it('momentum daily: column "Mom   " read as Mom, 202212 vintage, 1926-11-03..2022-12-30', async () => {
    const file = await factors('F-F_Momentum_Factor_daily.CSV');
    expect(file).toMatchObject({ dataset: 'mom', vintage: '202212', rows: 25298, badLines: [], missing: [] });
    expect(new Set(file.values.map((v) => v.factor))).toEqual(new Set(['Mom']));
    expect(file.values[0]).toEqual({ frequency: 'daily', period: '1926-11-03', date: '1926-11-03', factor: 'Mom', value: '0.56' });
    expect(valueOf(file, 'daily', '2020-03-16')).toEqual({ Mom: '-2.33' });
    expect(file.values.at(-1)).toMatchObject({ period: '2022-12-30', value: '-0.26' });
  });
});
