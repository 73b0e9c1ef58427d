// Daily price files of the corpus (market/prices): values as written, trading days from
// timezone-suffixed stamps, the ticker from the file name, TLT's junk ticker row reported.
import { describe, expect, it } from 'vitest';
import { parsePrices } from '../../ingest/parsers/market/prices.ts';
import { corpusFile, hasCorpus } from '../corpus.ts';

const prices = async (name: string) => parsePrices(await corpusFile(`market/prices/${name}`), name);

describe('price files, inline', () => {
  it('finds columns by name in either header style, and reports what is not a bar', () => {
    const text = ['date,close,open,high,low,volume', '2024-01-02,2.50,1.0,3,0.5,100', '2024-01-03,abc,1,1,1,1', '2024-02-30,1,1,1,1,1', '2024-01-02,9,9,9,9,9', '2024-01-04,1,1', ''].join('\n');
    const file = parsePrices(text, 'BRK.B.daily.csv');
    expect(file.ticker).toBe('BRK.B');
    expect(file.bars).toEqual([{ date: '2024-01-02', open: '1.0', high: '3', low: '0.5', close: '2.50', volume: '100' }]);
    expect(file.badLines.map((b) => [b.line, b.reason])).toEqual([
      [3, 'close "abc" is not a number'],
      [4, '"2024-02-30" is not a date'],
      [5, 'a second bar for 2024-01-02'],
      [6, 'expected 6 fields, found 3'],
    ]);
  });

  it('says the Close is adjusted when the file has no Adj Close column, and keeps that column when it has one', () => {
    const plain = parsePrices('Date,Open,High,Low,Close,Volume\n2024-01-02,1,2,0.5,1.5,100\n', 'XYZ.daily.csv');
    expect(plain.adjustment.adjusted).toBe(true);
    expect(plain.adjustment.note).toMatch(/no Adj Close column/);
    const text = ['Date,Open,High,Low,Close,Adj Close,Volume', '2024-01-02,10,12,9,11,10.5,100', '2024-01-03,11,12,10,12,x,100', ''].join('\n');
    const file = parsePrices(text, 'XYZ.daily.csv');
    expect(file.adjustment).toEqual({ adjusted: false, note: expect.stringMatching(/"Adj Close" column: its Close is not adjusted for dividends/) });
    expect(file.bars).toEqual([{ date: '2024-01-02', open: '10', high: '12', low: '9', close: '11', adjClose: '10.5', volume: '100' }]);
    expect(file.badLines.map((b) => b.reason)).toEqual(['Adj Close "x" is not a number']);
  });

  it('refuses a file without the price columns', () => {
    expect(() => parsePrices('Date,Open\n2024-01-02,1\n', 'XYZ.daily.csv')).toThrow(/lacks high, low, close, volume/);
  });
});

describe.runIf(hasCorpus)('price files of the corpus', () => {
  it('AAPL: Date,Open,... header, 5031 bars (MANIFEST), the decimal text exactly as written', async () => {
    const file = await prices('AAPL.daily.csv');
    expect(file).toMatchObject({ ticker: 'AAPL', badLines: [], adjustment: { adjusted: true } });
    expect(file.bars).toHaveLength(5031);
    expect(file.bars[0]).toEqual({ date: '2005-10-10', open: '1.5538410287043611', high: '1.558344851265656', low: '1.5094114358864243', close: '1.5121138095855713', volume: '507505600' });
    // line 3633 of the file
    expect(file.bars.find((b) => b.date === '2020-03-16')).toEqual({ date: '2020-03-16', open: '58.57280879803252', high: '62.71974667617121', low: '58.10074101606611', close: '58.6357536315918', volume: '322423600' });
    expect(file.bars.at(-1)!.date).toBe('2025-10-08');
  });

  it('QQQ: lower-case header, timestamps with -05:00 and -04:00 offsets give the local trading day', async () => {
    const file = await prices('QQQ.daily.csv');
    expect(file.bars).toHaveLength(1638);
    expect(file.bars[0]).toEqual({ date: '2019-01-02', open: '144.8585434214018', high: '149.4252421820383', low: '144.7530097594952', close: '148.590576171875', volume: '58576700' });
    // `2019-07-01 00:00:00-04:00` (line 126) is 1 July, not 30 June nor a UTC shift
    expect(file.bars.find((b) => b.date === '2019-07-01')).toMatchObject({ open: '183.32816922561986', close: '182.30709838867188', volume: '31025600' });
    expect(file.bars.at(-1)).toMatchObject({ date: '2025-07-09', close: '556.25' });
  });

  it('TLT: the junk ticker row ",Tlt,Tlt,..." is reported as line 2, the 5030 bars are kept', async () => {
    const file = await prices('TLT.daily.csv');
    expect(file.badLines).toEqual([{ line: 2, text: ',Tlt,Tlt,Tlt,Tlt,Tlt', reason: '"" is not a date' }]);
    expect(file.bars).toHaveLength(5030);
    expect(file.bars[0]).toEqual({ date: '2005-10-07', open: '48.30805298668', high: '48.764139897687585', low: '48.23911112194501', close: '48.70580291748047', volume: '1337800' });
  });

  it('every file: the row count MANIFEST states, no junk but TLT\'s', async () => {
    const expected: Record<string, number> = { AAPL: 5031, IWM: 1638, JPM: 5031, MSFT: 5031, NVDA: 5031, QQQ: 1638, SPY: 5030, TLT: 5030, TSLA: 3844 };
    for (const [ticker, rows] of Object.entries(expected)) {
      const file = await prices(`${ticker}.daily.csv`);
      expect([file.ticker, file.bars.length, file.badLines.length]).toEqual([ticker, rows, ticker === 'TLT' ? 1 : 0]);
    }
  });
});
