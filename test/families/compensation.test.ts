// Compensation and board (issue 14) against the real corpus: Cabot's DEF 14A pay versus
// performance (ecd inline XBRL) and JPMorgan's 8-K Item 5.02.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import type { Source } from '../../ingest/sources/types.ts';
import { corpusDir, corpusFile, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

function subset(pattern: RegExp): Source {
  const all = folderSource(corpusDir);
  return {
    describe: () => `${all.describe()} (${pattern})`,
    async *items() {
      for await (const item of all.items()) if (pattern.test(item.key)) yield item;
    },
  };
}

const wanted = /^(reference\/|filings\/proxy\/|filings\/8k\/8-K_0000019617)/;
const amount = (n: string) => Number(n).toLocaleString('en-US');

describe.runIf(hasCorpus)('compensation and board', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Proxy readers', 'team'));
    await runIngest(t.service.services, subset(wanted));
  }, 600_000);
  afterAll(() => t?.close());

  it('gives Cabot\'s pay versus performance as its proxy statement prints it', async () => {
    const text = await corpusFile('filings/proxy/DEF14A_CIK0000016040_Cabot_2024-proxy_ixbrl.html');
    const answer = await get('/v1/compensation/pay-versus-performance?cik=16040');
    expect(answer.status).toBe(200);
    const [proxy] = answer.body.data;
    expect(proxy).toMatchObject({ object: 'pay_versus_performance', cik: '0000016040', formType: 'DEF 14A', sourceDocument: 'filings/proxy/DEF14A_CIK0000016040_Cabot_2024-proxy_ixbrl.html' });
    expect(proxy.citationUrl ?? proxy.citationNullReason).toBeTruthy();
    const fy2023 = proxy.years.find((y: { fiscalYearEnd: string }) => y.fiscalYearEnd === '2023-09-30');
    expect(fy2023).toMatchObject({ peoSummaryCompensationTotal: '7791510', peoCompensationActuallyPaid: '8106840', nonPeoNeoAverageCompensationActuallyPaid: '2279259', totalShareholderReturn: '206', peerGroupTotalShareholderReturn: '135', companySelectedMeasureValue: '553000000' });
    for (const value of [fy2023.peoCompensationActuallyPaid, fy2023.peoSummaryCompensationTotal, fy2023.nonPeoNeoAverageSummaryCompensationTotal]) expect(text).toContain(amount(value));
    expect(proxy.years.map((y: { fiscalYearEnd: string }) => y.fiscalYearEnd)).toEqual(['2023-09-30', '2022-09-30', '2021-09-30']);
    expect(fy2023.adjustments.filter((a: { executive: string }) => a.executive === 'peo').length).toBeGreaterThan(3);
    expect(fy2023.netIncome).toBeNull();
    expect(fy2023.netIncomeNullReason).toBeTruthy();
  });

  it('lists director and officer changes from 8-K Item 5.02, cited, paging without duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await get(`/v1/board/members?cik=19617&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      for (const m of answer.body.data) {
        seen.push(m.id);
        expect(m.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/19617\//);
        expect(m.source).toBe('8-K Item 5.02');
      }
      cursor = answer.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const all = (await get('/v1/board/members?cik=19617&limit=100')).body.data;
    expect(all).toContainEqual(expect.objectContaining({ person: 'Doug Petno', event: 'elected', effectiveDate: '2026-06-25', accessionNumber: '0000019617-26-000241' }));
    const text = await corpusFile('filings/8k/8-K_0000019617-26-000241_JPM_item5.02.htm');
    expect(text).toContain('Doug Petno');
  });

  it('answers client mistakes with the envelope, and lists the MCP tools', async () => {
    expectEnvelope(await get('/v1/compensation/pay-versus-performance?ticker=NOSUCHTICKER'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/board/members'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/board/members?cik=19617&cursor=zzz'), 400, 'invalid_query_parameter');
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect((await response.json()).result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['compensation_pay_versus_performance', 'board_members_list']));
  });
});
