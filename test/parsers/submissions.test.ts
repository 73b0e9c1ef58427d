// The SEC's reference files: submissions JSON (company header, filings, overflow pages), the
// ticker maps and the EDGAR index files. Fixtures are small files in the real formats; the
// corpus suites check the real files.
import { describe, expect, it } from 'vitest';
import { parseEdgarIndex } from '../../ingest/parsers/edgar/indexFiles.ts';
import { parseSgmlSubmission } from '../../ingest/parsers/documents/sgml.ts';
import { parseSubmissions } from '../../ingest/parsers/edgar/submissions.ts';
import { parseCompanyTickers, parseCompanyTickersExchange } from '../../ingest/parsers/edgar/tickers.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

describe('submissions JSON (fixtures)', () => {
  it('reads the company header and zips the filing columns by index', async () => {
    const { entity, filings, morePages } = parseSubmissions(await fixture('sec/CIK0000320193.json'));
    expect(entity).toEqual({
      cik: '0000320193',
      name: 'Apple Inc.',
      entityType: 'operating',
      sic: '3571',
      sicDescription: 'Electronic Computers',
      tickers: ['AAPL'],
      exchanges: ['Nasdaq'],
      fiscalYearEnd: '0926',
      stateOfIncorporation: 'CA',
      formerNames: [
        { name: 'APPLE INC', from: '2007-01-10', to: '2019-08-05' },
        { name: 'APPLE COMPUTER INC', from: '1994-01-26', to: '2007-01-04' },
      ],
      category: 'Large accelerated filer',
      insiderTransactionForOwnerExists: false,
      insiderTransactionForIssuerExists: true,
    });
    expect(morePages).toEqual(['CIK0000320193-submissions-001.json']);
    expect(filings.map((f) => [f.accessionNumber, f.form, f.filingDate])).toEqual([
      ['0000320193-26-000006', '10-Q', '2026-01-30'],
      ['0000320193-26-000005', '8-K', '2026-01-29'],
      ['0000320193-24-000123', '10-K', '2024-11-01'],
    ]);
    expect(filings[1]).toEqual({
      accessionNumber: '0000320193-26-000005',
      cik: '0000320193',
      form: '8-K',
      filingDate: '2026-01-29',
      acceptedAt: '2026-01-29T21:30:33.000Z',
      reportDate: '2026-01-29',
      items: ['2.02', '9.01'],
      primaryDocument: 'aapl-20260129.htm',
      primaryDocDescription: '8-K',
      size: 384366,
      isXBRL: true,
      isInlineXBRL: true,
      fileNumber: '001-36743',
      filmNumber: '26578546',
      act: '34',
    });
  });

  it("reads acceptanceDateTime as EDGAR's Eastern time, in winter and in summer", async () => {
    const { filings } = parseSubmissions(await fixture('sec/CIK0000320193.json'));
    // 06:01 in New York: EST (UTC-5) in January, EDT (UTC-4) in November before the switch back
    expect(filings[0]!.acceptedAt).toBe('2026-01-30T11:01:32.000Z');
    expect(filings[2]!.acceptedAt).toBe('2024-11-01T10:01:36.000Z');
  });

  it('reads an overflow page: no company header, filings of the company its file name names', async () => {
    const page = parseSubmissions(await fixture('sec/CIK0000320193-submissions-001.json'), 'CIK0000320193-submissions-001.json');
    expect(page.entity).toBeNull();
    expect(page.morePages).toEqual([]);
    expect(page.filings).toHaveLength(2);
    expect(page.filings[1]).toMatchObject({
      accessionNumber: '0001104659-05-014310',
      cik: '0000320193',
      form: 'SC 13G',
      reportDate: null,
      items: [],
      primaryDocument: null,
      fileNumber: null,
      act: null,
      // 2005 still had the old US daylight-saving dates: 30 March was standard time (UTC-5)
      acceptedAt: '2005-03-30T21:05:00.000Z',
    });
  });

  it('reads acceptance times as New York time on both sides of each daylight-saving switch', () => {
    const accepted = ['2024-03-10T01:59:59.000Z', '2024-03-10T03:00:00.000Z', '2024-11-03T00:30:00.000Z', '2024-11-03T02:30:00.000Z', '2024-07-01T17:05:00.000Z', '2024-12-31T23:59:59.000Z'];
    const json = JSON.stringify({
      cik: '320193',
      name: 'Apple Inc.',
      filings: {
        recent: {
          accessionNumber: accepted.map((_, i) => `0000320193-24-00000${i}`),
          filingDate: accepted.map((at) => at.slice(0, 10)),
          form: accepted.map(() => '8-K'),
          acceptanceDateTime: accepted,
        },
        files: [],
      },
    });
    expect(parseSubmissions(json).filings.map((f) => f.acceptedAt)).toEqual([
      '2024-03-10T06:59:59.000Z', // 1:59:59 EST, the last second before clocks go forward
      '2024-03-10T07:00:00.000Z', // 3:00 EDT, the first moment after
      '2024-11-03T04:30:00.000Z', // 0:30 EDT
      '2024-11-03T07:30:00.000Z', // 2:30 EST, after clocks went back
      '2024-07-01T21:05:00.000Z',
      '2025-01-01T04:59:59.000Z',
    ]);
  });

  it('refuses an overflow page without the file name that says whose filings they are', async () => {
    const json = await fixture('sec/CIK0000320193-submissions-001.json');
    expect(() => parseSubmissions(json)).toThrow(/file name must carry the company's CIK/);
  });

  it('throws a clear error when the filing columns differ in length', async () => {
    const json = await fixture('sec/mismatched-columns.json');
    expect(() => parseSubmissions(json)).toThrow('filings column "form" has 2 entries but accessionNumber has 3');
  });
});

describe('ticker maps (fixtures)', () => {
  it('company_tickers.json: ticker to 10-digit CIK, no exchange', async () => {
    const rows = parseCompanyTickers(await fixture('sec/company_tickers.json'));
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.ticker === 'AAPL')).toEqual({ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: null });
  });

  it('company_tickers_exchange.json: columns as its fields declare, a missing exchange is null', async () => {
    const rows = parseCompanyTickersExchange(await fixture('sec/company_tickers_exchange.json'));
    expect(rows.find((r) => r.ticker === 'AAPL')).toEqual({ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: 'Nasdaq' });
    expect(rows.find((r) => r.ticker === 'AYR')).toEqual({ cik: '0001362988', ticker: 'AYR', name: 'Aircastle LTD', exchange: null });
  });

  it('rejects a file of the wrong shape with a clear error', () => {
    expect(() => parseCompanyTickersExchange('{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}}')).toThrow(/expected \{"fields"/);
    expect(() => parseCompanyTickers('{"0":{"cik_str":"x","ticker":"AAPL","title":"Apple Inc."}}')).toThrow(/entry "0": invalid CIK/);
  });
});

describe('EDGAR index files (fixtures)', () => {
  const apple = {
    form: '8-K',
    companyName: 'Apple Inc.',
    cik: '0000320193',
    dateFiled: '2024-01-02',
    accessionNumber: '0000320193-24-000001',
    path: 'edgar/data/320193/0000320193-24-000001.txt',
  };

  it('form index: fixed-width rows, junk lines reported with their line numbers', async () => {
    const index = parseEdgarIndex(await fixture('sec/form.20240102.idx'), 'form.20240102.idx');
    expect(index.kind).toBe('form');
    expect(index.rows).toHaveLength(4);
    expect(index.rows).toContainEqual(apple);
    expect(index.rows.find((r) => r.form === 'SC 13G/A')?.companyName).toBe('VANGUARD GROUP INC');
    expect(index.badLines).toEqual([
      { line: 15, text: '<html><body>Service Unavailable</body></html>', reason: expect.stringMatching(/CIK, date filed and file name/) },
      { line: 16, text: expect.stringContaining('Truncated Corp'), reason: 'invalid date filed "20241399"' },
    ]);
  });

  it('company index: the wrapped header does not matter, a cut-off line is reported', async () => {
    const index = parseEdgarIndex(await fixture('sec/company.20240102.idx'), 'company.20240102.idx');
    expect(index.kind).toBe('company');
    expect(index.rows).toHaveLength(4);
    expect(index.rows).toContainEqual(apple);
    expect(index.badLines.map((b) => b.line)).toEqual([16]);
  });

  it('master index: pipe-separated rows, short and malformed lines reported', async () => {
    const index = parseEdgarIndex(await fixture('sec/master.20240102.idx'), 'master.20240102.idx');
    expect(index.kind).toBe('master');
    expect(index.rows).toHaveLength(4);
    expect(index.rows).toContainEqual(apple);
    expect(index.badLines).toEqual([
      { line: 12, text: '1234567|Example Industries Inc.|10-K', reason: "expected 5 '|'-separated fields, found 3" },
      { line: 13, text: expect.stringContaining('Not A Cik Co'), reason: 'invalid CIK "ABC"' },
    ]);
  });
});

describe.runIf(hasCorpus)('submissions JSON (corpus)', () => {
  it('Apple: the company header and its FY2024 10-K', async () => {
    const { entity, filings, morePages } = parseSubmissions(await corpusFile('submissions/CIK0000320193.json'));
    expect(entity).toMatchObject({ cik: '0000320193', name: 'Apple Inc.', sic: '3571', fiscalYearEnd: '0926', stateOfIncorporation: 'CA', category: 'Large accelerated filer' });
    expect(entity!.tickers).toContain('AAPL');
    expect(morePages).toEqual(['CIK0000320193-submissions-001.json']);
    expect(filings).toHaveLength(1005);
    expect(filings.find((f) => f.accessionNumber === '0000320193-24-000123')).toMatchObject({
      form: '10-K',
      filingDate: '2024-11-01',
      acceptedAt: '2024-11-01T10:01:36.000Z',
      reportDate: '2024-09-28',
      primaryDocument: 'aapl-20240928.htm',
      isInlineXBRL: true,
      fileNumber: '001-36743',
    });
  });

  it('gives the same acceptance instant as the full submission text of the filing', async () => {
    const { filings } = parseSubmissions(await corpusFile('submissions/CIK0001796129.json'));
    for (const file of ['filings/offerings/S-3_0001193125-25-012209_Vincerx.txt', 'filings/offerings/POSAM_0001193125-25-110092_Vincerx.txt']) {
      const submission = parseSgmlSubmission(await corpusFile(file));
      expect(filings.find((f) => f.accessionNumber === submission.accessionNumber)?.acceptedAt).toBe(submission.acceptedAt);
    }
  });

  it('Tesla: the main file names its overflow page, which parses with no header', async () => {
    const main = parseSubmissions(await corpusFile('submissions/CIK0001318605.json'));
    expect(main.morePages).toEqual(['CIK0001318605-submissions-001.json']);
    const page = parseSubmissions(await corpusFile('submissions/CIK0001318605-submissions-001.json'), 'CIK0001318605-submissions-001.json');
    expect(page.entity).toBeNull();
    expect(page.filings).toHaveLength(720);
    expect(page.filings.at(-1)).toMatchObject({ accessionNumber: '9999999997-05-006484', cik: '0001318605', form: 'REGDEX', filingDate: '2005-02-17', reportDate: null });
    // the page continues where the main file's recent filings stop
    const oldestRecent = main.filings.map((f) => f.filingDate).sort()[0]!;
    expect(page.filings.every((f) => f.filingDate <= oldestRecent)).toBe(true);
  });

  it('Imunon: the older-filings page', async () => {
    const main = parseSubmissions(await corpusFile('submissions/CIK0000749647.json'));
    expect(main.morePages).toEqual(['CIK0000749647-submissions-001.json']);
    const page = parseSubmissions(await corpusFile('submissions/CIK0000749647-submissions-001.json'), 'CIK0000749647-submissions-001.json');
    expect(page.entity).toBeNull();
    expect(page.filings).toHaveLength(395);
    expect(page.filings.every((f) => f.cik === '0000749647' && f.filingDate >= '1996-08-07' && f.filingDate <= '2010-07-24')).toBe(true);
  });

  it('Warren Buffett: an individual insider, no company filings', async () => {
    const { entity, filings } = parseSubmissions(await corpusFile('submissions/CIK0000315090.json'));
    expect(entity).toMatchObject({ name: 'BUFFETT WARREN E', entityType: 'other', sic: null, tickers: [], exchanges: [], fiscalYearEnd: null, category: null });
    expect(entity!.insiderTransactionForOwnerExists).toBe(true);
    expect(entity!.insiderTransactionForIssuerExists).toBe(false);
    expect(filings.length).toBeGreaterThan(0);
    expect(filings.filter((f) => /^(10-K|10-Q|8-K|DEF 14A)/.test(f.form))).toEqual([]);
    expect(new Set(filings.map((f) => f.form))).toContain('4');
  });

  it('Fannie Mae: many tickers, each with its exchange', async () => {
    const { entity, morePages } = parseSubmissions(await corpusFile('submissions/CIK0000310522.json'));
    expect(entity!.tickers).toHaveLength(16);
    expect(entity!.tickers).toEqual(expect.arrayContaining(['FNMA', 'FNMAS', 'FNMAP']));
    expect(entity!.exchanges).toEqual(Array(16).fill('OTC'));
    expect(morePages).toHaveLength(3);
  });
});

describe.runIf(hasCorpus)('ticker maps (corpus)', () => {
  it('company_tickers.json: AAPL is CIK 0000320193', async () => {
    const rows = parseCompanyTickers(await corpusFile('reference/company_tickers.json'));
    expect(rows).toHaveLength(9610);
    expect(rows.find((r) => r.ticker === 'AAPL')).toEqual({ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: null });
  });

  it('company_tickers_exchange.json: AAPL trades on Nasdaq', async () => {
    const rows = parseCompanyTickersExchange(await corpusFile('reference/company_tickers_exchange.json'));
    expect(rows).toHaveLength(10089);
    expect(rows.find((r) => r.ticker === 'AAPL')).toEqual({ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.', exchange: 'Nasdaq' });
    expect(rows.find((r) => r.ticker === 'AYR')?.exchange).toBeNull();
  });
});

describe.runIf(hasCorpus)('EDGAR index files (corpus)', () => {
  it('company.20221003.idx: every row of a complete day', async () => {
    const index = parseEdgarIndex(await corpusFile('index/daily/company.20221003.idx'), 'company.20221003.idx');
    expect(index.rows).toHaveLength(4925);
    expect(index.badLines).toEqual([]);
    expect(index.rows[0]).toEqual({
      form: '1-A POS',
      companyName: '1st stREIT Office Inc.',
      cik: '0001700461',
      dateFiled: '2022-10-03',
      accessionNumber: '0001104659-22-105357',
      path: 'edgar/data/1700461/0001104659-22-105357.txt',
    });
  });

  it('form.20200318.idx: every row of a complete day', async () => {
    const index = parseEdgarIndex(await corpusFile('index/daily/form.20200318.idx'), 'form.20200318.idx');
    expect(index.rows).toHaveLength(4084);
    expect(index.badLines).toEqual([]);
    expect(index.rows).toContainEqual({
      form: '1-A POS',
      companyName: 'DELHI BANK CORP',
      cik: '0000927719',
      dateFiled: '2020-03-18',
      accessionNumber: '0001213900-20-006773',
      path: 'edgar/data/927719/0001213900-20-006773.txt',
    });
  });

  it('master index samples: daily (YYYYMMDD) and quarterly (YYYY-MM-DD) dates', async () => {
    const daily = parseEdgarIndex(await corpusFile('index/samples/master.20181231.sample.idx'), 'master.20181231.sample.idx');
    expect(daily.rows).toHaveLength(10);
    expect(daily.rows[0]).toMatchObject({ cik: '0001000228', companyName: 'HENRY SCHEIN INC', form: '4', dateFiled: '2018-12-31', accessionNumber: '0001209191-18-064398' });
    const quarterly = parseEdgarIndex(await corpusFile('index/samples/master.1993QTR4.sample.idx'), 'master.1993QTR4.sample.idx');
    expect(quarterly.rows).toHaveLength(20);
    expect(quarterly.rows).toContainEqual(expect.objectContaining({ cik: '0000011860', companyName: 'BETHLEHEM STEEL CORP /DE/', form: '10-Q', dateFiled: '1993-11-12' }));
  });

  it('a junk line in a real file is reported and the other rows still parse', async () => {
    const text = await corpusFile('index/daily/form.20200318.idx');
    const lines = text.split('\n');
    lines.splice(500, 0, 'Content-Type: text/html; charset=UTF-8');
    const index = parseEdgarIndex(lines.join('\n'), 'form.20200318.idx');
    expect(index.rows).toHaveLength(4084);
    expect(index.badLines).toEqual([{ line: 501, text: 'Content-Type: text/html; charset=UTF-8', reason: expect.any(String) }]);
  });
});
