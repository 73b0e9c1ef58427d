// Financial statements, the tag map and segment reports, built from parsed XBRL facts. Values
// must be exact, cite their filing, and never pass a year-to-date figure off as a quarter.
import { describe, expect, it } from 'vitest';
import { parseCompanyFacts, type FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { parseInlineXbrl, parseXbrlInstance } from '../ingest/parsers/xbrl/xbrlInstance.ts';
import { resolveTag, tagUsage } from '../derived/concepts.ts';
import { buildSegments, type SegmentAxis } from '../derived/segments.ts';
import { addDecimals, subtractDecimals } from '../core/decimal.ts';
import { buildStatements, durationDays, selectLatest, type StatementBundle, type StatementPeriod } from '../derived/statements.ts';
import { corpusFile, fixture, hasCorpus } from './corpus.ts';

function period(bundle: StatementBundle, fiscalYear: number, fiscalPeriod: StatementPeriod['fiscalPeriod']): StatementPeriod {
  const found = bundle.periods.find((p) => p.fiscalYear === fiscalYear && p.fiscalPeriod === fiscalPeriod);
  if (!found) throw new Error(`no ${fiscalPeriod} ${fiscalYear} in ${bundle.periods.map((p) => `${p.fiscalPeriod} ${p.fiscalYear}`).join(', ')}`);
  return found;
}

function axis(facts: FactRecord[], name: string): SegmentAxis {
  const found = buildSegments(facts).axes.find((a) => a.axis === name);
  if (!found) throw new Error(`no segment axis ${name}`);
  return found;
}

describe('statements from a small companyfacts file', () => {
  const load = async () => parseCompanyFacts(await fixture('xbrl/companyfacts-exact.json')).facts;

  it('reads fiscal years from the filings, not the calendar, with the filed value and its source', async () => {
    const annual = buildStatements(await load(), { period: 'annual', limit: 10 });
    expect(annual.periods.map((p) => [p.fiscalYear, p.periodStart, p.periodEnd])).toEqual([
      [2024, '2023-10-01', '2024-09-28'],
      [2023, '2022-10-02', '2023-09-30'],
    ]);
    expect(annual).toMatchObject({ taxonomy: 'us-gaap', currency: 'USD' });
    expect(period(annual, 2024, 'FY').income.revenue).toMatchObject({
      value: '9007199254740993',
      unit: 'USD',
      derived: false,
      missing: null,
      fact: { tag: 'Revenues', accessionNumber: '0000000001-24-000004', form: '10-K', filedAt: '2024-11-01', periodStart: '2023-10-01', periodEnd: '2024-09-28' },
    });
    expect(period(annual, 2024, 'FY').balanceSheet.totalAssets).toMatchObject({ value: '725.5', fact: { periodStart: null, periodEnd: '2024-09-28' } });
    expect(buildStatements(await load(), { period: 'annual', limit: 1 }).periods.map((p) => p.fiscalYear)).toEqual([2024]);
  });

  it('serves a restated value as most recently filed and keeps the value as first filed', async () => {
    const netIncome = period(buildStatements(await load(), { period: 'annual', limit: 10 }), 2023, 'FY').income.netIncome;
    expect(netIncome.value).toBe('45');
    expect(netIncome.fact).toMatchObject({ accessionNumber: '0000000001-24-000004', filedAt: '2024-11-01' });
    expect(netIncome.restatedFrom).toMatchObject({ value: '50', accessionNumber: '0000000001-23-000004', filedAt: '2023-11-02' });
  });

  it('as first reported, serves the value first filed and points to the restatement', async () => {
    const first = buildStatements(await load(), { period: 'annual', limit: 10, asReported: 'first' });
    expect(first.asReported).toBe('first');
    const netIncome = period(first, 2023, 'FY').income.netIncome;
    expect(netIncome).toMatchObject({ value: '50', restatedFrom: null, fact: { accessionNumber: '0000000001-23-000004', filedAt: '2023-11-02' } });
    expect(netIncome.restatedTo).toMatchObject({ value: '45', accessionNumber: '0000000001-24-000004', filedAt: '2024-11-01' });
    // a value never restated is the same either way
    expect(period(first, 2024, 'FY').income.revenue).toMatchObject({ value: '9007199254740993', restatedTo: null });
  });

  it('derives Q4 as FY − 9M YTD exactly, beyond 2^53 and in decimals, and says so', async () => {
    const quarterly = buildStatements(await load(), { period: 'quarterly', limit: 20 });
    const q4 = period(quarterly, 2024, 'Q4');
    expect([q4.periodStart, q4.periodEnd]).toEqual(['2024-06-30', '2024-09-28']);
    expect(q4.income.revenue).toMatchObject({ value: '3007199254740987', derived: true, fact: null, missing: null });
    expect(q4.income.revenue.derivation).toEqual({
      formula: 'FY − 9M YTD',
      terms: [
        expect.objectContaining({ sign: '+', term: 'FY', fact: expect.objectContaining({ value: '9007199254740993', accessionNumber: '0000000001-24-000004' }) }),
        expect.objectContaining({ sign: '-', term: '9M YTD', fact: expect.objectContaining({ value: '6000000000000006' }) }),
      ],
    });
    expect(q4.income.netIncome.value).toBe('0.7'); // 20.3 − 20 − (−0.5) − 0.1, where floats give 0.6999…
    expect(period(quarterly, 2024, 'Q2').income.revenue).toMatchObject({ value: '2000000000000002', derived: false });
  });

  it('never serves a year-to-date cash flow as a quarter: it subtracts consecutive YTD values', async () => {
    const quarterly = buildStatements(await load(), { period: 'quarterly', limit: 20 });
    const cash = (q: StatementPeriod['fiscalPeriod']) => period(quarterly, 2024, q).cashFlow.operatingCashFlow;
    expect(cash('Q1')).toMatchObject({ value: '50', derived: false });
    expect(cash('Q2')).toMatchObject({ value: '70', derived: true, derivation: { formula: '6M YTD − Q1' } });
    expect(cash('Q3')).toMatchObject({ value: '80', derived: true, derivation: { formula: '9M YTD − 6M YTD' } });
    expect(cash('Q4')).toMatchObject({ value: '110', derived: true, derivation: { formula: 'FY − 9M YTD' } });
    // Capex is only in the Q3 10-Q (9 months) and the 10-K: Q4 is derivable, the others are not.
    const capex = (q: StatementPeriod['fiscalPeriod']) => period(quarterly, 2024, q).cashFlow.capitalExpenditure;
    expect(capex('Q4')).toMatchObject({ value: '11', derived: true });
    for (const q of ['Q1', 'Q2', 'Q3'] as const) expect(capex(q)).toMatchObject({ value: null, missing: 'not_derivable' });
  });

  it('does not derive per-share amounts, nor subtract across a restatement', async () => {
    const quarterly = buildStatements(await load(), { period: 'quarterly', limit: 20 });
    expect(period(quarterly, 2024, 'Q3').income.epsBasic).toMatchObject({ value: '0.01', derived: false });
    expect(period(quarterly, 2024, 'Q4').income.epsBasic).toMatchObject({ value: null, missing: 'not_derivable' });
    // FY2023 net income was restated (50 → 45) after the three 10-Qs were filed.
    const q4of2023 = period(quarterly, 2023, 'Q4').income.netIncome;
    expect(q4of2023).toMatchObject({ value: null, missing: 'not_derivable' });
    expect(q4of2023.note).toContain('0000000001-24-000004');
    expect(period(quarterly, 2024, 'Q4').income.grossProfit).toMatchObject({ value: null, missing: 'not_reported' });
  });
});

describe('rounding is not a restatement', () => {
  const report = (value: string, decimals: string | null, accessionNumber: string, filedAt: string) => ({
    cik: '0000000001', taxonomy: 'us-gaap', tag: 'Revenues', unit: 'USD', value, periodStart: '2021-01-31', periodEnd: '2022-01-29', isInstant: false,
    fy: 2022, fp: 'FY', form: '10-K', frame: null, accessionNumber, filedAt, dimensions: {}, decimals,
  });
  it('keeps the precise first-filed value when a later filing only rounds it, at its stated decimals', () => {
    const first = report('4462383000', '-3', 'a-22', '2022-03-10');
    const rounded = report('4462000000', '-6', 'a-23', '2023-03-09');
    expect(selectLatest([first, rounded])).toMatchObject({ value: '4462383000', original: null, fact: { accessionNumber: 'a-22' } });
    const restated = report('4463000000', '-6', 'a-24', '2024-03-13');
    expect(selectLatest([first, rounded, restated])).toMatchObject({ value: '4463000000', original: { accessionNumber: 'a-22' }, fact: { accessionNumber: 'a-24' } });
  });
});

describe('the tag map', () => {
  it('resolves a requested tag to the one the issuer uses now, and says how', () => {
    const apple = [
      { taxonomy: 'us-gaap', tag: 'Revenues', lastFiled: '2018-11-05' },
      { taxonomy: 'us-gaap', tag: 'SalesRevenueNet', lastFiled: '2018-08-01' },
      { taxonomy: 'us-gaap', tag: 'RevenueFromContractWithCustomerExcludingAssessedTax', lastFiled: '2026-01-30' },
      { taxonomy: 'us-gaap', tag: 'InventoryNet', lastFiled: '2026-01-30' },
    ];
    // a tag the issuer reports is answered with that tag, even one it no longer uses
    expect(resolveTag('Revenues', apple)).toMatchObject({ requestedTag: 'Revenues', resolvedTag: 'Revenues', taxonomy: 'us-gaap', reason: 'exact', lineItem: 'revenue' });
    // a line item reads every tag of the line the issuer reported, most recently used first
    expect(resolveTag('revenue', apple)).toMatchObject({ resolvedTag: 'RevenueFromContractWithCustomerExcludingAssessedTax', reason: 'alias' });
    expect(resolveTag('revenue', apple).tags.map((t) => t.tag)).toEqual(['RevenueFromContractWithCustomerExcludingAssessedTax', 'Revenues', 'SalesRevenueNet']);
    // a tag never reported is answered with its line's tags, saying so
    expect(resolveTag('SalesRevenueGoodsNet', apple)).toMatchObject({ resolvedTag: 'RevenueFromContractWithCustomerExcludingAssessedTax', reason: 'alias' });
    expect(resolveTag('SalesRevenueGoodsNet', apple).explanation).toContain('has never reported SalesRevenueGoodsNet');
    expect(resolveTag('us-gaap:InventoryNet', apple)).toMatchObject({ resolvedTag: 'InventoryNet', reason: 'exact', lineItem: null });
    expect(resolveTag('NetIncomeLoss', apple)).toMatchObject({ resolvedTag: null, reason: 'not_reported', lineItem: 'netIncome' });
    expect(resolveTag('Revenues', ['us-gaap:Revenues'])).toMatchObject({ resolvedTag: 'Revenues', reason: 'exact' });
    expect(resolveTag('revenue', ['ifrs-full:Revenue'])).toMatchObject({ resolvedTag: 'Revenue', taxonomy: 'ifrs-full', reason: 'alias' });
  });
});

describe('segments from a small inline XBRL filing', () => {
  const load = async () => parseInlineXbrl(await fixture('xbrl/inline-scale-sign.htm'), { accessionNumber: '0000000001-24-000004', form: '10-K', filedAt: '2024-11-01' }).facts;

  it('gives each member its share of the total and its growth, exactly rounded to 4 places', async () => {
    const product = axis(await load(), 'srt:ProductOrServiceAxis');
    expect(product).toMatchObject({ kind: 'product', confidence: 'reported' });
    const [fy2024, fy2023] = product.periods;
    expect(fy2024).toMatchObject({ periodEnd: '2024-09-28', total: { value: '1234567000000' }, breakdownSum: '1234567000000', confidence: 'reported' });
    expect(fy2024.members.map((m) => [m.member, m.revenue, m.shareOfTotal, m.priorRevenue, m.yoyGrowth])).toEqual([
      ['fix:WidgetsMember', '1000000000000', '0.8100', '900000000000', '0.1111'], // 0.81000…, 0.11111…
      ['fix:GadgetsMember', '234567000000', '0.1900', '200000000000', '0.1728'], // 0.18999…, 0.172835
    ]);
    expect(fy2023.members.map((m) => m.shareOfTotal)).toEqual(['0.8182', '0.1818']);
  });

  it('flags an axis whose members do not add up to the total as low confidence', async () => {
    const geographic = axis(await load(), 'srt:StatementGeographicalAxis');
    expect(geographic).toMatchObject({ kind: 'geographic', confidence: 'low_confidence' });
    expect(geographic.periods[0]).toMatchObject({ confidence: 'low_confidence', reason: 'only one member is reported on this axis' });
    expect(geographic.periods[0].members[0]).toMatchObject({ member: 'country:US', shareOfTotal: '0.5670' });
  });
});

// ---------------------------------------------------------------------------------------------

describe.runIf(hasCorpus)('corpus: Apple companyfacts', () => {
  const load = async () => {
    const text = await corpusFile('companyfacts/CIK0000320193.json');
    return { text, facts: parseCompanyFacts(text).facts };
  };
  /** The file's own rows, read independently of the parser. */
  const rows = (text: string, tag: string) =>
    (JSON.parse(text).facts['us-gaap'][tag].units.USD as Array<{ start?: string; end: string; val: number; accn: string }>).map((r) => ({ ...r, val: String(r.val) }));

  it('FY2024 revenue is 391035000000 USD from the FY2024 10-K, under the tag Apple uses', async () => {
    const { text, facts } = await load();
    const annual = buildStatements(facts, { period: 'annual', limit: 5 });
    const revenue = period(annual, 2024, 'FY').income.revenue;
    expect(revenue).toMatchObject({ value: '391035000000', unit: 'USD', restatedFrom: null });
    expect(revenue.fact).toMatchObject({ tag: 'RevenueFromContractWithCustomerExcludingAssessedTax', accessionNumber: '0000320193-24-000123', form: '10-K', filedAt: '2024-11-01' });
    expect(rows(text, 'RevenueFromContractWithCustomerExcludingAssessedTax')).toContainEqual(
      expect.objectContaining({ start: '2023-10-01', end: '2024-09-28', val: '391035000000', accn: '0000320193-24-000123' }),
    );
    expect(resolveTag('revenue', tagUsage(facts))).toMatchObject({ resolvedTag: 'RevenueFromContractWithCustomerExcludingAssessedTax', reason: 'alias' });
    expect(resolveTag('Revenues', tagUsage(facts))).toMatchObject({ resolvedTag: 'Revenues', reason: 'exact' });
    expect(period(annual, 2023, 'FY').income.netIncome).toMatchObject({ value: '96995000000', fact: { tag: 'NetIncomeLoss', accessionNumber: '0000320193-23-000106' } });
    expect([period(annual, 2024, 'FY').periodStart, period(annual, 2024, 'FY').periodEnd]).toEqual(['2023-10-01', '2024-09-28']);
  });

  it('quarters: Q2 FY2024 as reported, Q4 FY2024 derived from the file’s FY and quarters', async () => {
    const { text, facts } = await load();
    const quarterly = buildStatements(facts, { period: 'quarterly', limit: 12 });
    const q2 = period(quarterly, 2024, 'Q2');
    expect([q2.periodStart, q2.periodEnd]).toEqual(['2023-12-31', '2024-03-30']);
    expect(q2.income.revenue).toMatchObject({ value: '90753000000', derived: false, fact: { accessionNumber: '0000320193-24-000069', form: '10-Q' } });

    const revenue = rows(text, 'RevenueFromContractWithCustomerExcludingAssessedTax');
    const val = (start: string, end: string) => revenue.find((r) => r.start === start && r.end === end)!.val;
    const expected = subtractDecimals(val('2023-10-01', '2024-09-28'), val('2023-10-01', '2024-06-29'));
    const q4 = period(quarterly, 2024, 'Q4');
    expect(q4.income.revenue).toMatchObject({ value: expected, derived: true, derivation: { formula: 'FY − 9M YTD' } });
    expect(expected).toBe('94930000000');
    expect(q4.income.revenue.derivation!.terms.map((t) => t.fact.value)).toEqual(['391035000000', '296105000000']);
  });

  it('a 10-Q cash-flow year-to-date value never appears as a quarter', async () => {
    const { text, facts } = await load();
    const quarterly = buildStatements(facts, { period: 'quarterly', limit: 200 });
    for (const p of quarterly.periods) {
      for (const line of [...Object.values(p.cashFlow), ...Object.values(p.income)]) {
        if (line.fact) expect(durationDays(line.fact.periodStart!, line.fact.periodEnd), `${line.key} ${p.fiscalPeriod} ${p.fiscalYear}`).toBeLessThanOrEqual(105);
      }
    }
    const cash = rows(text, 'NetCashProvidedByUsedInOperatingActivities');
    const sixMonths = cash.find((r) => r.start === '2023-10-01' && r.end === '2024-03-30')!.val;
    const firstQuarter = cash.find((r) => r.start === '2023-10-01' && r.end === '2023-12-30')!.val;
    const q2 = period(quarterly, 2024, 'Q2').cashFlow.operatingCashFlow;
    expect(q2.value).not.toBe(sixMonths);
    expect(q2).toMatchObject({ value: subtractDecimals(sixMonths, firstQuarter), derived: true, derivation: { formula: '6M YTD − Q1' } });
  });

  it('restated values keep both versions: the FY2009 restatement and split-adjusted EPS', async () => {
    const { facts } = await load();
    const annual = buildStatements(facts, { period: 'annual', limit: 30 });
    const fy2009 = period(annual, 2009, 'FY').income.netIncome;
    expect(fy2009).toMatchObject({ value: '8235000000', fact: { form: '10-K/A', accessionNumber: '0001193125-10-012091' } });
    expect(fy2009.restatedFrom).toMatchObject({ value: '5704000000', form: '10-K', accessionNumber: '0001193125-09-214859', filedAt: '2009-10-27' });
    const eps2018 = period(annual, 2018, 'FY').income.epsBasic;
    expect(eps2018).toMatchObject({ value: '3', unit: 'USD/shares' });
    expect(eps2018.restatedFrom).toMatchObject({ value: '12.01', accessionNumber: '0000320193-18-000145' });
    // as first reported: FY2019 diluted EPS before the 2020 four-for-one split, with the split-adjusted value beside it
    const first = buildStatements(facts, { period: 'annual', limit: 30, asReported: 'first' });
    const eps2019 = period(first, 2019, 'FY').income.epsDiluted;
    expect(eps2019).toMatchObject({ value: '11.89', fact: { accessionNumber: '0000320193-19-000119' }, restatedTo: { value: '2.97', accessionNumber: '0000320193-20-000096' } });
    expect(period(first, 2009, 'FY').income.netIncome).toMatchObject({ value: '5704000000', restatedTo: { value: '8235000000', form: '10-K/A' } });
  });
});

describe.runIf(hasCorpus)('corpus: NVIDIA and LPA (IFRS) companyfacts', () => {
  it('NVIDIA FY2025 revenue is tagged Revenues; a line it does not report says not_reported', async () => {
    const facts = parseCompanyFacts(await corpusFile('companyfacts/CIK0001045810.json')).facts;
    const fy2025 = period(buildStatements(facts, { period: 'annual', limit: 5 }), 2025, 'FY');
    expect([fy2025.periodStart, fy2025.periodEnd]).toEqual(['2024-01-29', '2025-01-26']);
    expect(fy2025.income.revenue).toMatchObject({ value: '130497000000', fact: { tag: 'Revenues', accessionNumber: '0001045810-25-000023' } });
    expect(fy2025.cashFlow.capitalExpenditure.fact?.tag).toBe('PaymentsToAcquireProductiveAssets');
    expect(fy2025.balanceSheet.noncontrollingInterest).toMatchObject({ value: null, missing: 'not_reported' });
    expect(resolveTag('Revenues', tagUsage(facts))).toMatchObject({ resolvedTag: 'Revenues', reason: 'exact' });
  });

  it('LPA reads revenue through ifrs-full and marks lines the IFRS map leaves out', async () => {
    const facts = parseCompanyFacts(await corpusFile('companyfacts/CIK0001997711.json')).facts;
    const annual = buildStatements(facts, { period: 'annual', limit: 5 });
    expect(annual).toMatchObject({ taxonomy: 'ifrs-full', currency: 'USD' });
    const fy2024 = period(annual, 2024, 'FY');
    expect(fy2024.income.revenue).toMatchObject({ value: '43862372', fact: { taxonomy: 'ifrs-full', tag: 'Revenue', form: '20-F' } });
    expect(fy2024.income.operatingExpenses).toMatchObject({ value: null, missing: 'not_covered' });
    expect(fy2024.income.costOfRevenue).toMatchObject({ value: null, missing: 'not_reported' });
  });
});

describe.runIf(hasCorpus)('corpus: Apple segments from the FY2023 instance and the FY2024 inline XBRL', () => {
  const load = async () => {
    const instance = parseXbrlInstance(await corpusFile('xbrl/CIK0000320193_10-K_0000320193-23-000106_aapl-20230930_htm.xml'), {
      accessionNumber: '0000320193-23-000106',
      form: '10-K',
      filedAt: '2023-11-03',
    });
    const inline = parseInlineXbrl(await corpusFile('filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html'), {
      accessionNumber: '0000320193-24-000123',
      form: '10-K',
      filedAt: '2024-11-01',
    });
    return { instance: instance.facts, inline: inline.facts };
  };
  const members = (segmentAxis: SegmentAxis, end: string) => {
    const found = segmentAxis.periods.find((p) => p.periodEnd === end && durationDays(p.periodStart, p.periodEnd) > 360)!;
    return { period: found, byName: Object.fromEntries(found.members.map((m) => [m.member, m])) };
  };
  const revenueOf = (facts: FactRecord[], dimensions: Record<string, string>, end: string) =>
    facts.find((f) => f.tag === 'RevenueFromContractWithCustomerExcludingAssessedTax' && f.periodEnd === end && JSON.stringify(f.dimensions) === JSON.stringify(dimensions))!.value;

  it('product lines (iPhone, Mac, iPad, Wearables, Services) add up to net sales; Products is a subtotal', async () => {
    const { instance, inline } = await load();
    const expectations: Array<[FactRecord[], string, Record<string, string>]> = [
      [instance, '2023-09-30', { 'aapl:IPhoneMember': '200583000000', 'aapl:MacMember': '29357000000', 'aapl:IPadMember': '28300000000', 'aapl:WearablesHomeandAccessoriesMember': '39845000000', 'us-gaap:ServiceMember': '85200000000' }],
      [inline, '2024-09-28', { 'aapl:IPhoneMember': '201183000000', 'aapl:MacMember': '29984000000', 'aapl:IPadMember': '26694000000', 'aapl:WearablesHomeandAccessoriesMember': '37005000000', 'us-gaap:ServiceMember': '96169000000' }],
    ];
    for (const [facts, end, values] of expectations) {
      const product = axis(facts, 'srt:ProductOrServiceAxis');
      expect(product).toMatchObject({ kind: 'product', confidence: 'reported' });
      const { period: p, byName } = members(product, end);
      for (const [member, value] of Object.entries(values)) expect(byName[member]).toMatchObject({ revenue: value, inBreakdown: true });
      expect(byName['us-gaap:ProductMember'].inBreakdown).toBe(false);
      expect(p.breakdownSum).toBe(p.total!.value);
      expect(addDecimals(...Object.values(values))).toBe(p.total!.value);
      const shares = p.members.filter((m) => m.inBreakdown).map((m) => m.shareOfTotal!);
      expect(Math.abs(Number(addDecimals(...shares)) - 1)).toBeLessThanOrEqual(0.00005 * shares.length); // each share is rounded to 4 places
    }
  });

  it('Apple’s regional operating segments and its country split add up to net sales, with margins', async () => {
    const { instance, inline } = await load();
    const regions = axis(inline, 'us-gaap:StatementBusinessSegmentsAxis');
    expect(regions).toMatchObject({ kind: 'operating', confidence: 'reported' });
    const { period: fy2024, byName } = members(regions, '2024-09-28');
    expect(Object.keys(byName).sort()).toEqual(['aapl:AmericasSegmentMember', 'aapl:EuropeSegmentMember', 'aapl:GreaterChinaSegmentMember', 'aapl:JapanSegmentMember', 'aapl:RestOfAsiaPacificSegmentMember']);
    expect(byName['aapl:GreaterChinaSegmentMember']).toMatchObject({ revenue: '66952000000', operatingIncome: '27082000000', operatingMargin: '0.4045' });
    expect(fy2024).toMatchObject({ total: { value: '391035000000' }, confidence: 'reported' });
    expect(addDecimals(...fy2024.members.map((m) => m.shareOfTotal!))).toBe('1.0000');

    const fy2023 = members(axis(instance, 'us-gaap:StatementBusinessSegmentsAxis'), '2023-09-30').byName;
    expect(fy2023['aapl:AmericasSegmentMember']).toMatchObject({ revenue: '162560000000', fact: { accessionNumber: '0000320193-23-000106' } });
    expect(fy2023['aapl:JapanSegmentMember'].revenue).toBe('24257000000');

    const countries = axis(instance, 'srt:StatementGeographicalAxis');
    expect(countries).toMatchObject({ kind: 'geographic', confidence: 'reported' });
    expect(members(countries, '2023-09-30').byName['country:US'].revenue).toBe('138573000000');
  });

  it('iPhone FY2024 growth over FY2023 is computed exactly from the filings’ values', async () => {
    const { instance, inline } = await load();
    const iPhone = { 'srt:ProductOrServiceAxis': 'aapl:IPhoneMember' };
    const fy2024Value = revenueOf(inline, iPhone, '2024-09-28');
    const fy2023Value = revenueOf(instance, iPhone, '2023-09-30');
    const { byName } = members(axis([...instance, ...inline], 'srt:ProductOrServiceAxis'), '2024-09-28');
    expect(byName['aapl:IPhoneMember']).toMatchObject({ revenue: fy2024Value, priorRevenue: fy2023Value });
    // (201183000000 − 200583000000) / 200583000000 = 0.0029912…
    expect(byName['aapl:IPhoneMember'].yoyGrowth).toBe('0.0030');
    expect(byName['aapl:IPhoneMember'].priorFact).toMatchObject({ accessionNumber: '0000320193-23-000106' });
  });
});
