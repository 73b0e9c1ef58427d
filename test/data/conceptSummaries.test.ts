// What the ingest computes so that requests only read rows: concept summaries (tag resolution
// and coverage) and the statements, per company and period. A later filing that adds or restates
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
  t = await startTestService({ database: database.target }, { onQuery: (sql) => void sent.push(sql) });
  ({ key } = await orgWithKey(t));
  await runIngest(t.service.services, fixtureSource({ 'companyfacts/CIK0000000001.json': { fixture: 'xbrl/companyfacts-exact.json' } }));
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const facts = (tag: string) => call(t, 'GET', `/v1/facts?cik=1&tag=${tag}`, { key });

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
    expect((await facts('Revenues')).status).toBe(200);
    const overFacts = sent.filter((sql) => /FROM "public"\."Fact"/.test(sql));
    expect(overFacts.filter((sql) => /GROUP BY|COUNT\(/i.test(sql))).toEqual([]);
    expect(overFacts).toHaveLength(1); // the series itself
  });

  it('statements are read from the periods the ingest stored, and a restating filing rebuilds them', async () => {
    const revenue2023 = async () => {
      const answer = await call(t, 'GET', '/v1/statements/all?cik=1&limit=10', { key });
      expect(answer.status).toBe(200);
      const fy = answer.body.periods.find((p: { fiscalYear: number; fiscalPeriod: string }) => p.fiscalYear === 2023 && p.fiscalPeriod === 'FY');
      return fy.income.find((l: { key: string }) => l.key === 'revenue');
    };
    expect((await revenue2023()).value).toBe('8000000000000000');
    sent = [];
    await revenue2023();
    expect(sent.filter((sql) => /FROM "public"\."Fact"/.test(sql))).toEqual([]); // no fact is loaded to answer

    const file = JSON.parse(await withOperatingIncome());
    file.facts['us-gaap'].Revenues.units.USD.push({ start: '2022-10-02', end: '2023-09-30', val: 7400000000000000, accn: '0000000001-25-000009', fy: 2025, fp: 'FY', form: '10-K', filed: '2025-11-03' });
    await runIngest(t.service.services, fixtureSource({ 'companyfacts/CIK0000000001.json': { text: JSON.stringify(file) } }));
    const restated = await revenue2023();
    expect(restated.value).toBe('7400000000000000');
    expect(restated.restatedFrom).toMatchObject({ value: '8000000000000000' });
  });
});
