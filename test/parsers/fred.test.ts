// FRED series files (market/macro): both header styles, missing values as null (FRED's "." and
// fredgraph's empty field), the frequency read off the dates, values as written.
import { describe, expect, it } from 'vitest';
import { parseFred } from '../../ingest/parsers/market/fred.ts';
import { corpusFile, hasCorpus } from '../corpus.ts';

const series = async (name: string) => parseFred(await corpusFile(`market/macro/${name}`), name);
const on = (file: ReturnType<typeof parseFred>, date: string) => file.observations.find((o) => o.date === date);

describe('FRED files, inline', () => {
  it('takes "." and an empty field as missing, reports junk, and falls back to the file name for the id', () => {
    const file = parseFred(['DATE,VALUE ?', '2024-01-01,1.50', '2024-02-01,.', '2024-03-01,', '2024-04-01,n/a', '2024-13-01,1', '2024-05-01,2,3', '2024-05-01,2.0'].join('\r\n'), 'FRED_TEST_monthly.csv');
    expect(file.seriesId).toBe('TEST');
    expect(file.observations).toEqual([
      { date: '2024-01-01', value: '1.50' },
      { date: '2024-02-01', value: null },
      { date: '2024-03-01', value: null },
      { date: '2024-05-01', value: '2.0' },
    ]);
    expect(file.missing.map((m) => m.line)).toEqual([3, 4]);
    expect(file.badLines.map((b) => [b.line, b.reason])).toEqual([
      [5, '"n/a" is not a number'],
      [6, '"2024-13-01" is not a date'],
      [7, 'expected 2 fields, found 3'],
    ]);
    expect(file.frequency).toBe('monthly');
  });

  it('refuses a file that is not a date/value series', () => {
    expect(() => parseFred('Date,Open,Close\n2024-01-01,1,2\n', 'FRED_X.csv')).toThrow(/not a FRED series file/);
  });
});

describe.runIf(hasCorpus)('FRED files of the corpus', () => {
  it('CPIAUCSL (observation_date header): 194 months, October 2025 missing (line 191)', async () => {
    const file = await series('FRED_CPIAUCSL.csv');
    expect(file).toMatchObject({ seriesId: 'CPIAUCSL', frequency: 'monthly', badLines: [] });
    expect(file.observations).toHaveLength(194);
    expect(file.observations[0]).toEqual({ date: '2010-01-01', value: '217.488' });
    expect(on(file, '2025-10-01')).toEqual({ date: '2025-10-01', value: null });
    expect(file.missing).toEqual([{ line: 191, period: '2025-10-01', column: 'CPIAUCSL' }]);
    expect(on(file, '2026-02-01')!.value).toBe('327.460');
  });

  it('DFF (DATE header, CRLF-free): daily 1954-07-01..2025-06-25, 25928 observations', async () => {
    const file = await series('FRED_DFF.csv');
    expect(file).toMatchObject({ seriesId: 'DFF', frequency: 'daily', badLines: [], missing: [] });
    expect(file.observations).toHaveLength(25928);
    expect(on(file, '2008-10-01')!.value).toBe('1.15');
    expect(file.observations.at(-1)).toEqual({ date: '2025-06-25', value: '4.33' });
  });

  it('DGS10: business-daily, the 175 holidays missing', async () => {
    const file = await series('FRED_DGS10.csv');
    expect(file).toMatchObject({ seriesId: 'DGS10', frequency: 'daily', badLines: [] });
    expect(file.missing).toHaveLength(175);
    expect(on(file, '2010-01-18')!.value).toBeNull();
    expect(on(file, '2020-04-01')!.value).toBe('0.62');
  });

  it('FEDFUNDS aggregated to quarters: id from the header, frequency quarterly', async () => {
    const file = await series('FRED_FEDFUNDS_quarterly.csv');
    expect(file).toMatchObject({ seriesId: 'FEDFUNDS', frequency: 'quarterly', badLines: [] });
    expect(file.observations).toHaveLength(285);
    expect(file.observations[0]).toEqual({ date: '1954-07-01', value: '1.03' });
    expect(file.observations.at(-1)).toEqual({ date: '2025-07-01', value: '4.29' });
  });

  it('GDP (CRLF, DATE header) and GDPC1: quarterly, trailing zeros kept', async () => {
    const gdp = await series('FRED_GDP.csv');
    expect(gdp).toMatchObject({ seriesId: 'GDP', frequency: 'quarterly', badLines: [] });
    expect(gdp.observations).toHaveLength(311);
    expect(on(gdp, '2008-10-01')!.value).toBe('14608.209');
    const gdpc1 = await series('FRED_GDPC1.csv');
    expect(on(gdpc1, '2008-10-01')!.value).toBe('16485.350');
    expect(gdpc1.observations).toHaveLength(317);
  });

  it('every series: id, frequency and count', async () => {
    const expected: [string, string, number][] = [
      ['FRED_INDPRO.csv', 'monthly', 194],
      ['FRED_PCE.csv', 'monthly', 193],
      ['FRED_RSAFS.csv', 'monthly', 193],
      ['FRED_UMCSENT.csv', 'monthly', 660],
      ['FRED_UNRATE.csv', 'monthly', 194],
    ];
    for (const [name, frequency, count] of expected) {
      const file = await series(name);
      expect([file.seriesId, file.frequency, file.observations.length, file.badLines]).toEqual([name.slice(5, -4), frequency, count, []]);
    }
    expect(on(await series('FRED_PCE.csv'), '2010-03-01')!.value).toBe('10156.0');
    expect(on(await series('FRED_UNRATE.csv'), '2025-10-01')!.value).toBeNull();
  });
});
