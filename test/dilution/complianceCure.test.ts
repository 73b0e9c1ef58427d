// A cured exchange compliance notice (dilution family): a Nasdaq minimum bid price notice (8-K Item 3.01)
// and the later 8-K reporting Nasdaq's confirmation that the issuer regained compliance, ingested
// for the fictional Lakeshore Therapeutics (CIK 0001999902), read back through
// /v1/dilution/exchange-compliance and /v1/dilution/score. Every sourceSpan is the document's text.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEightK } from '../../ingest/parsers/eightK/cover.ts';
import { runIngest } from '../../ingest/run.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const notice = { key: 'filings/8k/8-K_0001999902-25-000040.txt', fixture: 'eightk/nasdaq-bid-price-notice-3.01.txt', accessionNumber: '0001999902-25-000040' };
const cure = { key: 'filings/8k/8-K_0001999902-25-000052.txt', fixture: 'eightk/nasdaq-regained-compliance-3.01.txt', accessionNumber: '0001999902-25-000052' };
const submissions = { 'submissions/CIK0001999902.json': { fixture: 'eightk/lakeshore-submissions-CIK0001999902.json' } };

let t: TestService;
let key: string;
const get = (route: string) => call(t, 'GET', route, { key });
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
/** the documents' text as the 8-K reader gives it (markup and entities read), whitespace collapsed */
const documentText = async (fixture: string) => flat(readEightK({ text: await readFile(fileURLToPath(new URL(`../fixtures/${fixture}`, import.meta.url)), 'utf8'), name: fixture }).text);

async function complianceRows(): Promise<any[]> {
  const answer = await get('/v1/dilution/exchange-compliance?cik=1999902&limit=100');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

describe('a cured exchange compliance notice', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Compliance cures', 'team'));
  }, 300_000);
  afterAll(() => t?.close());

  it('the notice alone is open, with its deadline, and counts as one open notice', async () => {
    const summary = await runIngest(t.service.services, fixtureSource({ ...submissions, [notice.key]: { fixture: notice.fixture } }));
    expect(summary).toMatchObject({ failed: 0 });
    const [indexOnly, ...rows] = await complianceRows();
    // the later 8-K is known from the submissions index alone: its status is unknown, not open
    expect(indexOnly).toMatchObject({ accessionNumber: cure.accessionNumber, fromIndexOnly: true, values: { status: 'unknown' }, verification: { method: 'filing_index' } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'compliance_notice',
      accessionNumber: notice.accessionNumber,
      date: '2025-01-08',
      fromIndexOnly: false,
      values: { status: 'open', exchange: 'Nasdaq', rule: 'Nasdaq Listing Rule 5550(a)(2)', deficiency: 'minimum_bid_price', noticeDate: '2025-01-08', deadline: '2025-07-07' },
    });
    expect(rows[0].values.curedBy).toBeUndefined();
    // the notice's own "Nasdaq will provide written confirmation that the Company has regained compliance" is no cure
    expect(rows[0].values.unconfirmedRegain).toBeUndefined();
    const score = await get('/v1/dilution/score?cik=1999902');
    expect(score.status, JSON.stringify(score.body)).toBe(200);
    // the index-only 3.01 may be a notice or a cure: the open notices cannot be counted, so the input
    // is missing (with why), and the compliance sub-rating says so instead of counting it as zero
    expect(score.body.inputs.openComplianceNotices).toEqual({ missing: true, reason: "1 8-K item 3.01 in the 12 months to 2025-04-22 is known only from EDGAR's index: a notice or a cure, unread, so the open notices cannot be counted" });
    expect(score.body.missing).toContain('openComplianceNotices');
    expect(score.body.ratings.compliance.reasons.join(' ')).toContain("openComplianceNotices missing: 1 8-K item 3.01 in the 12 months to 2025-04-22 is known only from EDGAR's index");
  });

  it('the later confirmation cures it: the notice is cured by that 8-K, which is the regained record; no open notice is counted', async () => {
    const summary = await runIngest(t.service.services, fixtureSource({ [cure.key]: { fixture: cure.fixture } }));
    expect(summary).toMatchObject({ failed: 0 });
    const rows = await complianceRows();
    expect(rows.map((r) => r.accessionNumber)).toEqual([cure.accessionNumber, notice.accessionNumber]);
    const [regained, cured] = rows;
    expect(cured).toMatchObject({
      values: { status: 'cured', curedBy: { accessionNumber: cure.accessionNumber, date: '2025-04-22' }, deficiency: 'minimum_bid_price', deadline: '2025-07-07' },
    });
    expect(regained).toMatchObject({
      date: '2025-04-22',
      fromIndexOnly: false,
      values: { status: 'regained', regainedDate: '2025-04-22', exchange: 'Nasdaq', rule: 'Nasdaq Listing Rule 5550(a)(2)', deficiency: 'minimum_bid_price', deadline: null },
      verification: { accessionNumber: cure.accessionNumber, confidence: 'high', method: 'eight_k_item' },
    });
    expect(regained.verification.sourceSpan).toMatch(/^On April 22, 2025, the Company received a letter from Nasdaq notifying it that it has regained compliance with Nasdaq Listing Rule 5550\(a\)\(2\)/);
    // every sourceSpan is verbatim text of its document
    const texts = { [notice.accessionNumber]: await documentText(notice.fixture), [cure.accessionNumber]: await documentText(cure.fixture) };
    for (const r of rows) {
      const spans = [r.verification.sourceSpan, r.values.unconfirmedRegain?.sourceSpan].filter(Boolean);
      for (const span of spans) expect(texts[r.accessionNumber], span).toContain(flat(span));
    }
    const score = await get('/v1/dilution/score?cik=1999902');
    expect(score.status, JSON.stringify(score.body)).toBe(200);
    expect(score.body.asOf).toBe('2025-04-22');
    expect(score.body.inputs.openComplianceNotices).toMatchObject({ value: 0, daysToNearestDeadline: null, source: { accessionNumber: null, sourceSpan: expect.stringMatching(/^no open 8-K item 3.01 notice \(status 'open': not cured/) } });
    const ratings = await get('/v1/dilution/ratings?cik=1999902');
    expect(JSON.stringify(ratings.body.ratings.compliance.reasons)).toContain('0 open exchange compliance notices');
  });

  it('a company built by the previous rules is rebuilt on its first read, with the statuses', async () => {
    const { prisma } = t.service.services;
    await prisma.dilutionProfile.updateMany({ where: { cik: '0001999902' }, data: { version: 1 } });
    await prisma.dilutionRecord.updateMany({ where: { cik: '0001999902', kind: 'compliance_notice' }, data: { values: {} } });
    const rows = await complianceRows();
    expect(rows.map((r) => r.values.status)).toEqual(['regained', 'cured']);
  });
});
