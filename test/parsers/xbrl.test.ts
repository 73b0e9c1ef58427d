// XBRL parsers: companyfacts JSON, XBRL instance documents and inline XBRL. Every value must be
// the exact decimal text the filing shows (after inline scale and sign), never a float.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCompanyFacts, quoteValues, type FactRecord } from '../../ingest/parsers/xbrl/companyFacts.ts';
import { inlineValue, parseInlineXbrl, parseXbrlInstance } from '../../ingest/parsers/xbrl/xbrlInstance.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

const find = (facts: FactRecord[], tag: string, where: Partial<FactRecord> = {}) =>
  facts.filter((f) => f.tag === tag && Object.entries(where).every(([k, v]) => JSON.stringify(f[k as keyof FactRecord]) === JSON.stringify(v)));

describe('companyfacts JSON', () => {
  it('keeps decimals and integers beyond 2^53 exactly as written', async () => {
    const parsed = parseCompanyFacts(await fixture('xbrl/companyfacts-exact.json'));
    expect(parsed.cik).toBe('0000000001');
    expect(parsed.entityName).toBe('Fixture Corp');
    expect(find(parsed.facts, 'EntityCommonStockSharesOutstanding')[0].value).toBe('9007199254740993');
    expect(find(parsed.facts, 'Revenues', { periodStart: '2023-10-01', periodEnd: '2024-09-28' })[0].value).toBe('9007199254740993');
    const netIncome = find(parsed.facts, 'NetIncomeLoss').map((f) => f.value);
    expect(netIncome).toEqual(expect.arrayContaining(['-0.5', '0.1', '20.3']));
    expect(find(parsed.facts, 'Assets', { periodEnd: '2024-09-28' })[0]).toMatchObject({ value: '725.5', isInstant: true, periodStart: null });
  });

  it('keeps every re-reported row with its own accession and filed date', async () => {
    const parsed = parseCompanyFacts(await fixture('xbrl/companyfacts-exact.json'));
    const fy2023 = find(parsed.facts, 'NetIncomeLoss', { periodStart: '2022-10-02', periodEnd: '2023-09-30' });
    expect(fy2023.map((f) => [f.value, f.accessionNumber, f.filedAt, f.form])).toEqual([
      ['50', '0000000001-23-000004', '2023-11-02', '10-K'],
      ['45', '0000000001-24-000004', '2024-11-01', '10-K'],
    ]);
    expect(find(parsed.facts, 'Revenues', { periodEnd: '2023-12-30' })[0]).toMatchObject({ fy: 2024, fp: 'Q1', frame: 'CY2023Q4', dimensions: {}, decimals: null, taxonomy: 'us-gaap', unit: 'USD' });
    expect(parsed.concepts).toContainEqual({ taxonomy: 'us-gaap', tag: 'Assets', label: 'Assets', description: 'Total assets.' });
  });
});

describe('quoteValues', () => {
  // any JSON number text, to more digits than a double holds
  const digits = fc.stringMatching(/^[0-9]{1,30}$/);
  const numberText = fc
    .tuple(fc.boolean(), fc.oneof(fc.constant('0'), digits.map((d) => d.replace(/^0+(?=\d)/, ''))), fc.option(digits), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits)))
    .map(([negative, whole, fraction, exponent]) => `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}${exponent ? exponent.join('') : ''}`);
  const space = fc.constantFrom('', ' ', '\n  ', '\t', '\r\n');

  it('turns every "val" number into a string of its own text, whatever the spacing, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(numberText, space, space, fc.string()), { maxLength: 20 }), fc.integer(), (rows, fy) => {
        // a label that mentions "val": (escaped inside its string) and a val that is no number stay as they are
        const row = ([value, before, after, note]: (typeof rows)[number]) => `{"val"${before}:${after}${value},"note":${JSON.stringify(note)},"fy":${fy}}`;
        const json = `{"label":${JSON.stringify('the "val": 5 field')},"rows":[${rows.map(row).join(',')}],"other":{"val":null}}`;
        const parsed = JSON.parse(quoteValues(json));
        expect(parsed.rows.map((r: { val: string }) => r.val)).toEqual(rows.map(([value]) => value));
        expect(parsed.rows.map((r: { note: string; fy: number }) => [r.note, r.fy])).toEqual(rows.map(([, , , note]) => [note, fy]));
        expect(parsed.label).toBe('the "val": 5 field');
        expect(parsed.other).toEqual({ val: null });
      }),
    );
  });

  it('leaves text without a "val" number as it is, and an invalid number for JSON.parse to refuse', () => {
    expect(quoteValues('{"a":1,"val":"x"}')).toBe('{"a":1,"val":"x"}');
    expect(() => JSON.parse(quoteValues('{"val":1-2}'))).toThrow(SyntaxError);
  });
});

describe('XBRL instance', () => {
  const meta = { accessionNumber: '0000000001-23-000004', form: '10-K', filedAt: '2023-11-02' };

  it('reads contexts, dimensions, units and exact values; skips nil and text blocks; repeats once', async () => {
    const parsed = parseXbrlInstance(await fixture('xbrl/instance-exact.xml'), meta);
    expect(parsed.cik).toBe('0000000001');
    expect(find(parsed.facts, 'Revenues', { dimensions: {} })).toEqual([
      expect.objectContaining({ value: '383285000000', periodStart: '2022-10-02', periodEnd: '2023-09-30', isInstant: false, fy: 2023, fp: 'FY', form: '10-K', accessionNumber: meta.accessionNumber, filedAt: '2023-11-02', decimals: '-6', unit: 'USD', taxonomy: 'us-gaap', frame: null }),
    ]);
    expect(find(parsed.facts, 'Revenues', { dimensions: { 'us-gaap:StatementBusinessSegmentsAxis': 'fix:AmericasSegmentMember' } })[0].value).toBe('162560000000');
    expect(find(parsed.facts, 'EarningsPerShareBasic')[0]).toMatchObject({ value: '0.1', unit: 'USD/shares' });
    expect(find(parsed.facts, 'NonoperatingIncomeExpense')[0].value).toBe('-565000000');
    expect(find(parsed.facts, 'Assets')[0]).toMatchObject({ value: '123456789012345678901.25', isInstant: true, periodStart: null, periodEnd: '2023-09-30', decimals: 'INF' });
    expect(find(parsed.facts, 'RevenueRemainingPerformanceObligationPercentage')[0]).toMatchObject({
      value: '0.67',
      unit: 'pure',
      dimensions: { 'us-gaap:RevenueRemainingPerformanceObligationExpectedTimingOfSatisfactionStartDateAxis': '2023-10-01' },
    });
    expect(find(parsed.facts, 'CommitmentsAndContingencies')).toEqual([]);
    expect(find(parsed.facts, 'RevenueFromContractWithCustomerTextBlock')).toEqual([]);
    expect(parsed.concepts).toContainEqual({ taxonomy: 'us-gaap', tag: 'Revenues', label: null, description: null });
  });
});

describe('inline XBRL', () => {
  const meta = { accessionNumber: '0000000001-24-000004', form: '10-K', filedAt: '2024-11-01' };
  const value = (facts: FactRecord[], tag: string, where: Partial<FactRecord> = {}) => find(facts, tag, where).map((f) => f.value);

  it('applies scale by moving the decimal point, sign, and the ixt number formats', async () => {
    const { facts } = parseInlineXbrl(await fixture('xbrl/inline-scale-sign.htm'), meta);
    const fy2024 = { periodStart: '2023-10-01', periodEnd: '2024-09-28', dimensions: {} };
    const fy2023 = { periodStart: '2022-10-02', periodEnd: '2023-09-30', dimensions: {} };
    expect(value(facts, 'Revenues', fy2024)).toEqual(['1234567000000']); // "1,234,567" scale 6; the "$1.2 trillion" repeat is less precise
    expect(value(facts, 'NonoperatingIncomeExpense', fy2024)).toEqual(['-565000000']); // (565) with sign="-"
    expect(value(facts, 'NonoperatingIncomeExpense', fy2023)).toEqual(['0']); // fixed-zero em dash
    expect(value(facts, 'ProceedsFromIssuanceOfLongTermDebt', fy2024)).toEqual(['0']); // zerodash
    expect(value(facts, 'ProceedsFromIssuanceOfLongTermDebt', fy2023)).toEqual(['5228500']); // "5.228,5" comma decimal, scale 3
    expect(value(facts, 'EarningsPerShareBasic', fy2024)).toEqual(['6.10']);
    expect(value(facts, 'EarningsPerShareBasic', fy2023)).toEqual(['0.1']);
    expect(value(facts, 'RevenueRemainingPerformanceObligationPercentage')).toEqual(['0.64']); // 64 with scale -2
    expect(value(facts, 'UnrecordedUnconditionalPurchaseObligationBalanceSheetAmount')).toEqual(['12.345']); // scale -3
    expect(value(facts, 'NumberOfSignificantVendors')).toEqual(['2']); // "two"
    expect(value(facts, 'InterestPaidNet')).toEqual(['12.05']); // "12 dollars 05 cents"
    expect(value(facts, 'EntityCommonStockSharesOutstanding')).toEqual(['9007199254740993']);
    expect(find(facts, 'EntityCommonStockSharesOutstanding')[0]).toMatchObject({ taxonomy: 'dei', unit: 'shares', isInstant: true });
  });

  it('reads nested facts, dimensions and the filing’s fiscal focus; skips nil; reports what it cannot read', async () => {
    const parsed = parseInlineXbrl(await fixture('xbrl/inline-scale-sign.htm'), meta);
    expect(parsed.cik).toBe('0000000001');
    expect(value(parsed.facts, 'CommonStockParOrStatedValuePerShare')).toEqual(['0.00001', '0.00001']);
    expect(find(parsed.facts, 'Revenues', { dimensions: { 'srt:ProductOrServiceAxis': 'fix:WidgetsMember' } }).map((f) => [f.periodEnd, f.value])).toEqual([
      ['2024-09-28', '1000000000000'],
      ['2023-09-30', '900000000000'],
    ]);
    expect(find(parsed.facts, 'Revenues', { dimensions: { 'srt:StatementGeographicalAxis': 'country:US' } })[0].value).toBe('700000000000');
    expect(parsed.facts.every((f) => f.fy === 2024 && f.fp === 'FY' && f.accessionNumber === meta.accessionNumber && f.taxonomy !== 'gaap')).toBe(true);
    expect(find(parsed.facts, 'CommitmentsAndContingencies')).toEqual([]);
    expect(parsed.skipped).toEqual([{ tag: 'us-gaap:OtherNonoperatingIncome', contextRef: 'FY2024', reason: 'format ixt:num-dot-decimal cannot read "n/a"' }]);
  });

  it('moves the decimal point in the text rather than multiplying floats', () => {
    expect(inlineValue('0.1', { scale: '1' })).toEqual({ value: '1' });
    expect(inlineValue('0.07', { scale: '2' })).toEqual({ value: '7' });
    expect(inlineValue('1.15', { scale: '2', sign: '-' })).toEqual({ value: '-115' });
    expect(inlineValue('9,007,199,254,740,993', { format: 'ixt:numdotdecimal', scale: '3' })).toEqual({ value: '9007199254740993000' });
    expect(inlineValue('5', { scale: '-4' })).toEqual({ value: '0.0005' });
    expect(inlineValue('—', { format: 'ixt:fixed-zero', sign: '-' })).toEqual({ value: '0' });
  });
});

describe.runIf(hasCorpus)('corpus: companyfacts', () => {
  it('parses Apple (3.7 MB) well under a second, every value identical to the JSON text', async () => {
    const text = await corpusFile('companyfacts/CIK0000320193.json');
    const started = performance.now();
    const parsed = parseCompanyFacts(text);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1000);
    const written = [...text.matchAll(/"val":(-?[\d.]+)/g)].map((m) => m[1]);
    expect(parsed.facts.map((f) => f.value)).toEqual(written);
    expect(parsed.facts.length).toBe((text.match(/"accn":/g) ?? []).length);
    expect(parsed).toMatchObject({ cik: '0000320193', entityName: 'Apple Inc.' });
    const fy2024 = find(parsed.facts, 'RevenueFromContractWithCustomerExcludingAssessedTax', { periodStart: '2023-10-01', periodEnd: '2024-09-28' });
    expect(fy2024.map((f) => [f.value, f.accessionNumber, f.form, f.filedAt])).toEqual([
      ['391035000000', '0000320193-24-000123', '10-K', '2024-11-01'],
      ['391035000000', '0000320193-25-000079', '10-K', '2025-10-31'],
    ]);
  });

  it('reads the re-serialized Snowflake file and the IFRS filer LPA (string CIK) alike', async () => {
    const snowflake = parseCompanyFacts(await corpusFile('companyfacts/CIK0001640147.json'));
    expect(snowflake.cik).toBe('0001640147');
    expect(snowflake.facts.filter((f) => f.value.includes('.')).length).toBeGreaterThan(0);
    const lpa = parseCompanyFacts(await corpusFile('companyfacts/CIK0001997711.json'));
    expect(lpa.cik).toBe('0001997711');
    expect(find(lpa.facts, 'Revenue', { periodStart: '2024-01-01', periodEnd: '2024-12-31' })[0]).toMatchObject({ taxonomy: 'ifrs-full', value: '43862372', form: '20-F' });
  });
});

describe.runIf(hasCorpus)('corpus: Apple XBRL instance (FY2023) and inline XBRL (FY2024)', () => {
  it('reads the FY2023 instance with its segment facts', async () => {
    const parsed = parseXbrlInstance(await corpusFile('xbrl/CIK0000320193_10-K_0000320193-23-000106_aapl-20230930_htm.xml'), {
      accessionNumber: '0000320193-23-000106',
      form: '10-K',
      filedAt: '2023-11-03',
    });
    expect(parsed.cik).toBe('0000320193');
    expect(parsed.skipped).toEqual([]);
    const fy2023 = { periodStart: '2022-09-25', periodEnd: '2023-09-30' };
    expect(find(parsed.facts, 'RevenueFromContractWithCustomerExcludingAssessedTax', { ...fy2023, dimensions: {} })[0].value).toBe('383285000000');
    expect(find(parsed.facts, 'RevenueFromContractWithCustomerExcludingAssessedTax', { ...fy2023, dimensions: { 'srt:ProductOrServiceAxis': 'aapl:IPhoneMember' } })[0].value).toBe('200583000000');
    expect(find(parsed.facts, 'OperatingIncomeLoss', { ...fy2023, dimensions: { 'us-gaap:StatementBusinessSegmentsAxis': 'aapl:GreaterChinaSegmentMember' } })[0].value).toBe('30328000000');
    expect(find(parsed.facts, 'EarningsPerShareDiluted', { ...fy2023, dimensions: {} })[0]).toMatchObject({ value: '6.13', unit: 'USD/shares', decimals: '2' });
  });

  it('reads the FY2024 10-K inline XBRL: scaled statement facts, signs and segment facts', async () => {
    const parsed = parseInlineXbrl(await corpusFile('filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html'), {
      accessionNumber: '0000320193-24-000123',
      form: '10-K',
      filedAt: '2024-11-01',
    });
    expect(parsed.cik).toBe('0000320193');
    expect(parsed.skipped).toEqual([]);
    const fy2024 = { periodStart: '2023-10-01', periodEnd: '2024-09-28' };
    expect(find(parsed.facts, 'RevenueFromContractWithCustomerExcludingAssessedTax', { ...fy2024, dimensions: {} })[0]).toMatchObject({ value: '391035000000', fy: 2024, fp: 'FY' });
    expect(find(parsed.facts, 'NonoperatingIncomeExpense', { periodEnd: '2023-09-30', dimensions: {} })[0].value).toBe('-565000000');
    expect(find(parsed.facts, 'EarningsPerShareBasic', { ...fy2024, dimensions: {} })[0].value).toBe('6.11');
    expect(find(parsed.facts, 'RevenueFromContractWithCustomerExcludingAssessedTax', { ...fy2024, dimensions: { 'srt:ProductOrServiceAxis': 'aapl:IPhoneMember' } })[0].value).toBe('201183000000');
    expect(find(parsed.facts, 'RevenueFromContractWithCustomerExcludingAssessedTax', { ...fy2024, dimensions: { 'us-gaap:StatementBusinessSegmentsAxis': 'aapl:EuropeSegmentMember' } })[0].value).toBe('101328000000');
  });
});
