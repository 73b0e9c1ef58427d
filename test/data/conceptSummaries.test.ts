// What the ingest computes so that requests only read rows: concept summaries (tag resolution
// and coverage), the statements and the segment breakdowns, per company and period. A later filing that adds or restates
// facts is reflected at once, through the same ingest transaction, and requests never scan the
// company's facts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { fixture } from '../corpus.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';
import { fixtureSource } from './fixtureSource.ts';

let t: TestService;
let key: string;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let sent: string[] = [];

beforeAll(async () => {
  database = await scratchDatabase();
  t = await startTestService({ database: database.target }, { onQuery: (sql) => void sent.push(sql), countingStatements: true });
  ({ key } = await orgWithKey(t));
  await runIngest(t.service.services, fixtureSource({ 'companyfacts/CIK0000000001.json': { fixture: 'xbrl/companyfacts-exact.json' } }));
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const facts = (tag: string, more = '') => call(t, 'GET', `/v1/facts?cik=1&tag=${tag}${more}`, { key });

/** the fixture's companyfacts, with one more fact of a tag it did not report, filed later */
async function withOperatingIncome() {
  const file = JSON.parse(await fixture('xbrl/companyfacts-exact.json'));
  file.facts['us-gaap'].OperatingIncomeLoss = {
    label: 'Operating Income (Loss)',
    units: { USD: [{ start: '2024-07-01', end: '2024-09-28', val: 123456789, accn: '0000000001-25-000001', fy: 2025, fp: 'Q1', form: '10-Q', filed: '2025-01-30' }] },
  };
  return JSON.stringify(file);
}

describe('concept summaries', () => {
  it('follow a later ingest that adds facts: coverage and resolution move with it', async () => {
    const before = await facts('OperatingIncomeLoss');
    expect(before.status).toBe(200);
    expect(before.body.resolution).toBe('not_reported');
    const held = before.body.coverage.factsHeld;
    expect(held).toBeGreaterThan(0);

    await runIngest(t.service.services, fixtureSource({ 'companyfacts/CIK0000000001.json': { text: await withOperatingIncome() } }));
    const after = await facts('OperatingIncomeLoss');
    expect(after.body.resolution).toBe('exact');
    expect(after.body.facts.map((f: { value: string }) => f.value)).toEqual(['123456789']);
    expect(after.body.coverage.factsHeld).toBe(held + 1);
  });

  it('a facts request resolves its tag and coverage without scanning the company\'s facts', async () => {
    await facts('Revenues');
    sent = [];
    expect((await facts('Revenues', '&limit=5')).status).toBe(200); // another page size: not an answer kept from before
    const overFacts = sent.filter((sql) => /FROM "(public"\.")?Fact"/.test(sql));
    expect(overFacts.filter((sql) => /GROUP BY|COUNT\(/i.test(sql))).toEqual([]);
    expect(overFacts).toHaveLength(1); // the series itself
  });

  it('statements are read from the periods the ingest stored, and a restating filing rebuilds them', async () => {
    const revenue2023 = async (limit = 10) => {
      const answer = await call(t, 'GET', `/v1/statements/all?cik=1&limit=${limit}`, { key });
      expect(answer.status).toBe(200);
      const fy = answer.body.periods.find((p: { fiscalYear: number; fiscalPeriod: string }) => p.fiscalYear === 2023 && p.fiscalPeriod === 'FY');
      return fy.income.find((l: { key: string }) => l.key === 'revenue');
    };
    expect((await revenue2023()).value).toBe('8000000000000000');
    sent = [];
    await revenue2023(9); // asked for the first time: read from the stored periods
    expect(sent.filter((sql) => /FROM "(public"\.")?Fact"/.test(sql))).toEqual([]); // no fact is loaded to answer

    const file = JSON.parse(await withOperatingIncome());
    file.facts['us-gaap'].Revenues.units.USD.push({ start: '2022-10-02', end: '2023-09-30', val: 7400000000000000, accn: '0000000001-25-000009', fy: 2025, fp: 'FY', form: '10-K', filed: '2025-11-03' });
    await runIngest(t.service.services, fixtureSource({ 'companyfacts/CIK0000000001.json': { text: JSON.stringify(file) } }));
    const restated = await revenue2023();
    expect(restated.value).toBe('7400000000000000');
    expect(restated.restatedFrom).toMatchObject({ value: '8000000000000000' });
  });

  it('segments are read from the periods the ingest stored, and a restating filing rebuilds them', async () => {
    const { prisma } = t.service.services;
    // the fixture's company, under a CIK of its own (CIK 1's companyfacts report other totals)
    const inline = (await fixture('xbrl/inline-scale-sign.htm')).replaceAll('0000000001', '0000000007');
    await prisma.entity.create({ data: { cik: '0000000007', name: 'Segments Fixture Inc.' } });
    const tenK = (accessionNumber: string, filedAt: string) => ({ accessionNumber, cik: '0000000007', form: '10-K', filedAt: new Date(filedAt), orderedAt: new Date(filedAt) });
    await prisma.filing.createMany({ data: [tenK('0000000007-24-000004', '2024-11-01'), tenK('0000000007-25-000010', '2025-11-03')] });
    await runIngest(t.service.services, fixtureSource({ 'filings/10k/10-K_0000000007-24-000004_FIX_FY2024.html': { text: inline } }));
    const widgets2024 = async () => {
      const answer = await call(t, 'GET', '/v1/companies/segments?cik=7', { key });
      expect(answer.status).toBe(200);
      const product = answer.body.axes.find((a: { axis: string }) => a.axis === 'srt:ProductOrServiceAxis');
      const fy2024 = product.periods.find((p: { periodEnd: string }) => p.periodEnd === '2024-09-28');
      return { product, fy2024, widgets: fy2024.members.find((m: { member: string }) => m.member === 'fix:WidgetsMember') };
    };
    const before = await widgets2024();
    expect(before.fy2024).toMatchObject({ confidence: 'reported', total: '1234567000000' });
    expect(before.widgets).toMatchObject({ revenue: '1000000000000', shareOfTotal: '0.8100', yoyGrowth: '0.1111', fact: { accessionNumber: '0000000007-24-000004' } });
    sent = [];
    expect((await call(t, 'GET', '/v1/companies/segments?cik=7&view=agent', { key })).status).toBe(200); // asked for the first time
    expect(sent.filter((sql) => /FROM "(public"\.")?Fact"/.test(sql))).toEqual([]); // no fact is loaded to answer

    // A later 10-K restates FY2024 Widgets revenue: 1,050,000 (in millions) where 1,000,000 was filed.
    const restating = inline.replace('contextRef="FY2024_Widgets" decimals="-6" name="gaap:Revenues" format="ixt:num-dot-decimal" scale="6">1,000,000<', 'contextRef="FY2024_Widgets" decimals="-6" name="gaap:Revenues" format="ixt:num-dot-decimal" scale="6">1,050,000<');
    expect(restating).not.toBe(inline);
    await runIngest(t.service.services, fixtureSource({ 'filings/10k/10-K_0000000007-25-000010_FIX_FY2025.html': { text: restating } }));
    const after = await widgets2024();
    expect(after.widgets).toMatchObject({ revenue: '1050000000000', fact: { accessionNumber: '0000000007-25-000010' } });
    // 1,050,000 + 234,567 no longer adds up to the total of 1,234,567, and the stored period says so
    expect(after.fy2024.confidence).toBe('low_confidence');
  });
});
