// Earnings against the real corpus: Apple's 8-K Item 2.02 releases (from its
// submissions index) joined with its quarterly statements from XBRL, Adobe's ingested 8-K.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/|companyfacts\/CIK0000320193|submissions\/CIK0000320193|filings\/8k\/8-K_0000796343)/;

describe.runIf(hasCorpus)('earnings', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Earnings readers', 'team'));
    await runIngest(t.service.services, corpusSubset(wanted));
  }, 600_000);
  afterAll(() => t?.close());

  it('joins an Apple quarter\'s release with the revenue, net income and EPS the statements give', async () => {
    const answer = await get('/v1/earnings?ticker=AAPL&fiscal_year=2025&fiscal_period=Q1');
    expect(answer.status).toBe(200);
    expect(answer.body.estimates).toBeNull();
    expect(answer.body.estimatesNote).toMatch(/no consensus estimates/i);
    const [q] = answer.body.data;
    expect(q).toMatchObject({ object: 'earnings_quarter', fiscalYear: 2025, fiscalPeriod: 'Q1', periodEnd: '2024-12-28' });
    expect(q.release).toMatchObject({ accessionNumber: '0000320193-25-000007', filedAt: '2025-01-30', items: ['2.02', '9.01'], fromIndexOnly: true });
    expect(q.release.citationUrl).toBe('https://www.sec.gov/Archives/edgar/data/320193/000032019325000007/aapl-20250130.htm');
    const statements = await get('/v1/statements/all?ticker=AAPL&period=quarterly&limit=40');
    const period = statements.body.periods.find((p: { fiscalYear: number; fiscalPeriod: string }) => p.fiscalYear === 2025 && p.fiscalPeriod === 'Q1');
    const line = (key: string) => period.income.find((l: { key: string }) => l.key === key);
    expect(q.revenue.value).toBe(line('revenue').value);
    expect(q.netIncome.value).toBe(line('netIncome').value);
    expect(q.epsDiluted.value).toBe(line('epsDiluted').value);
    expect(q.revenue.value).toBe('124300000000');
    expect(q.revenue).toMatchObject({ derived: false, priorYearValue: '119575000000', yoyChange: '4725000000', yoyChangePercent: 3.95 });
    expect(q.revenue.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/320193\//);
  });

  it('flags a derived fourth quarter exactly as the statements do', async () => {
    const answer = await get('/v1/earnings?ticker=AAPL&fiscal_year=2024&fiscal_period=Q4');
    const [q] = answer.body.data;
    const statements = await get('/v1/statements/all?ticker=AAPL&period=quarterly&limit=40');
    const period = statements.body.periods.find((p: { fiscalYear: number; fiscalPeriod: string }) => p.fiscalYear === 2024 && p.fiscalPeriod === 'Q4');
    const revenue = period.income.find((l: { key: string }) => l.key === 'revenue');
    expect(q.revenue).toMatchObject({ value: revenue.value, derived: revenue.derived, derivation: revenue.derivation?.formula ?? null });
    expect(q.revenue.derived).toBe(true);
    expect(q.revenue.value).toBe('94930000000');
    expect(q.release).toMatchObject({ filedAt: '2024-10-31' });
  });

  it('walks the pages without duplicates, every row cited', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await get(`/v1/earnings?ticker=AAPL&limit=25${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      for (const q of answer.body.data) {
        seen.push(q.id);
        if (q.release) expect(q.release.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\//);
        else expect(q.releaseNullReason).toBeTruthy();
        if (q.revenue?.value) expect(q.revenue.accessionNumber).toMatch(/^\d{10}-\d{2}-\d{6}$/);
      }
      cursor = answer.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(40);
  });

  it('shows a release without XBRL facts on its own, with the reason and the exhibit its text names', async () => {
    const answer = await get('/v1/earnings?cik=796343');
    expect(answer.status).toBe(200);
    const [row] = answer.body.data;
    const text = await corpusFile('filings/8k/8-K_0000796343-23-000044_ADBE_item2.02.htm');
    expect(text).toMatch(/Exhibit\s+99\.1/);
    expect(row).toMatchObject({ fiscalYear: null, revenue: null, release: { accessionNumber: '0000796343-23-000044', exhibitNumber: '99.1', fromIndexOnly: false } });
    expect(row.release.excerpt).toMatch(/first quarter fiscal year 2023/);
    expect(row.financialsNullReason).toMatch(/not_covered/);
  });

  it('answers client mistakes with the envelope, and lists the MCP tool', async () => {
    expectEnvelope(await get('/v1/earnings?ticker=NOSUCHTICKER'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/earnings'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/earnings?ticker=AAPL&fiscal_period=Q5'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/earnings?ticker=AAPL&cursor=nope'), 400, 'invalid_query_parameter');
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect((await response.json()).result.tools.map((tool: { name: string }) => tool.name)).toContain('earnings_list');
  });
});
