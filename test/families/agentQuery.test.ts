// The AI query against the real corpus: Apple's companyfacts and submissions, NVIDIA's
// submissions. Questions compile into catalogue reads that run as the caller, metered as those
// reads, and the answer cites what they returned; the ai_query window is refused at every door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { corpusSubset, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/|companyfacts\/CIK0000320193|submissions\/CIK0000320193|submissions\/CIK0001045810)/;

const graphqlQuery = 'mutation Ask($question: String!) { agentQuery(question: $question) { answer plan { route params } citations { accessionNumber } } }';

describe.runIf(hasCorpus)('AI query', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const ask = (question: unknown, as = key) => call(t, 'POST', '/v1/agent/query', { key: as, body: { question } });
  const get = (route: string) => call(t, 'GET', route, { key });

  /** A team organization whose own window of `meterClass` holds `limit` a day. */
  async function orgWithDailyLimit(meterClass: string, limit: number) {
    const org = await orgWithKey(t, undefined, 'team');
    await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass, period: 'day', limit } });
    t.service.services.cache.forgetOrg(org.orgId);
    return org;
  }

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Question askers', 'team'));
    const run = await runIngest(t.service.services, corpusSubset(wanted));
    expect(run.failed).toBe(0);
  }, 600_000);
  afterAll(() => t?.close());

  it('answers a fiscal year\'s revenue from the 10-K that reported it, cited', async () => {
    const answer = await ask('What was Apple\'s revenue in fiscal year 2021?');
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body).toMatchObject({ object: 'agent_answer', question: 'What was Apple\'s revenue in fiscal year 2021?' });
    expect(body.understood).toMatchObject({ company: { cik: '0000320193', ticker: 'AAPL' }, subject: 'metric', metric: { label: 'revenue' }, period: { fiscalYear: 2021, fiscalPeriod: 'FY' } });
    expect(body.plan).toEqual([expect.objectContaining({ step: 1, route: 'facts_get', params: expect.objectContaining({ ticker: 'AAPL', fy: 2021, fp: 'FY', form: '10-K', duration: '12m' }) })]);
    expect(body.steps[0]).toMatchObject({ step: 1, route: 'facts_get', status: 'ok' });
    expect(body.answer).toContain('Apple Inc.');
    expect(body.answer).toContain('revenue of 365,817,000,000 USD for fiscal year 2021');
    expect(body.answer).toContain('0000320193-21-000105');
    expect(body.citations[0]).toMatchObject({ accessionNumber: '0000320193-21-000105' });
    expect(body.citations[0].citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/320193\//);
    expect(answer.headers.get('service-meter-class')).toBe('ai_query');
  });

  it('reads the same fact however the question is worded', async () => {
    const [a, b] = await Promise.all([ask('AAPL revenue FY2021'), ask('how much total revenue did apple inc report for fiscal 2021')]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.steps[0].result.facts[0].value).toBe('365817000000');
    expect(b.body.answer).toBe(a.body.answer);
  });

  it('answers a company\'s latest filing of a form as the latest-filing read does', async () => {
    const answer = await ask('latest 10-K of NVDA');
    expect(answer.status).toBe(200);
    expect(answer.body.plan).toEqual([expect.objectContaining({ route: 'filings_latest', params: expect.objectContaining({ ticker: 'NVDA', form: '10-K' }) })]);
    const direct = await get('/v1/filings/latest?ticker=NVDA&form=10-K');
    expect(direct.status).toBe(200);
    expect(answer.body.answer).toContain(`latest 10-K is ${direct.body.accessionNumber}, filed ${direct.body.filedAt}`);
    expect(answer.body.citations).toEqual([expect.objectContaining({ accessionNumber: direct.body.accessionNumber, citationUrl: direct.body.citationUrl })]);
  });

  it('lists a company\'s 8-K officer changes, its insider transactions and its dilution score through their own reads', async () => {
    const officers = await ask('Any officer changes at Apple?');
    expect(officers.status).toBe(200);
    expect(officers.body.plan[0].route).toBe('events_officer_changes_list');
    const events = await get('/v1/events/officer-changes?ticker=AAPL&limit=5&view=agent');
    expect(events.body.data.length).toBeGreaterThan(0);
    expect(officers.body.citations.map((c: { accessionNumber: string }) => c.accessionNumber)).toEqual([...new Set(events.body.data.map((e: { accessionNumber: string }) => e.accessionNumber))]);
    expect(officers.body.answer).toContain(events.body.data[0].accessionNumber);

    const insiders = await ask('Show insider transactions of Apple');
    expect(insiders.status).toBe(200);
    expect(insiders.body.plan[0]).toMatchObject({ route: 'insiders_transactions_list', params: { ticker: 'AAPL' } });
    const rows = (await get('/v1/insiders/transactions?ticker=AAPL&limit=10&view=agent')).body.data;
    expect(insiders.body.steps[0].result.data).toEqual(rows);

    const dilution = await ask('What is the dilution score of AAPL?');
    expect(dilution.status).toBe(200);
    expect(dilution.body.plan[0].route).toBe('dilution_score_get');
    const score = (await get('/v1/dilution/score?ticker=AAPL&view=agent')).body;
    expect(dilution.body.answer).toContain(score.score === null ? 'cannot be computed' : `dilution score is ${score.score} of 100`);
  });

  it('refuses a question it cannot compile with what it understood and what was missing', async () => {
    const noCompany = expectEnvelope(await ask('What was the revenue in fiscal 2021?'), 422, 'question_not_understood');
    expect(noCompany.details.understood).toMatchObject({ subject: 'metric', metric: { label: 'revenue' }, period: { fiscalYear: 2021 } });
    expect(noCompany.details.understood.company).toBeUndefined();
    expect(noCompany.details.missing).toEqual(['company']);

    const nothingAsked = expectEnvelope(await ask('Tell me about Apple'), 422, 'question_not_understood');
    expect(nothingAsked.details.understood.company).toMatchObject({ cik: '0000320193' });
    expect(nothingAsked.details.missing).toHaveLength(1);
    expect(nothingAsked.details.missing[0]).toMatch(/what to look up/);

    // "in Europe" would narrow the revenue to a segment: answering the total would be a guess
    const narrower = expectEnvelope(await ask('What was Apple\'s revenue in Europe in fiscal 2021?'), 422, 'question_not_understood');
    expect(narrower.details.understood).toMatchObject({ company: { ticker: 'AAPL' }, metric: { label: 'revenue' } });
    expect(narrower.details.notUnderstood).toContain('Europe');

    const twoThings = expectEnvelope(await ask('Apple revenue and net income for fiscal 2021'), 422, 'question_not_understood');
    expect(twoThings.details.notUnderstood).toContain('net income');

    expectEnvelope(await ask(''), 400, 'validation_error');
    expectEnvelope(await ask('x'.repeat(501)), 400, 'validation_error');
  });

  it('lets a read-scoped key ask: a question is a read', async () => {
    const org = await orgWithKey(t, undefined, 'team');
    const { secret } = await issueApiKey(t.service.services, org.orgId, 'reader', null, undefined, ['read']);
    const answer = await ask('Apple net income FY 2021', secret);
    expect(answer.status).toBe(200);
    expect(answer.body.understood.metric).toMatchObject({ label: 'net income' });
    expect(answer.body.answer).toMatch(/reported net income of [\d,]+ USD for fiscal year 2021/);
  });

  it('lists the ai_query window in GET /v1/limits', async () => {
    const limits = await get('/v1/limits');
    expect(limits.body.quotas).toEqual(expect.arrayContaining([expect.objectContaining({ meterClass: 'ai_query', period: 'day', allowed: true })]));
  });

  it('refuses past the ai_query window with 429 ai_query_quota_exceeded over REST, GraphQL and MCP', async () => {
    const org = await orgWithDailyLimit('ai_query', 1);
    expect((await ask('latest 10-Q of Apple', org.key)).status).toBe(200);
    const refused = await ask('latest 10-Q of Apple', org.key);
    const body = expectEnvelope(refused, 429, 'ai_query_quota_exceeded');
    expect(body.details).toEqual({ meterClass: 'ai_query', period: 'day', limit: 1 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const graphql = await call(t, 'POST', '/graphql', { key: org.key, body: { query: graphqlQuery, variables: { question: 'latest 10-Q of Apple' } } });
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0].extensions.code).toBe('ai_query_quota_exceeded');
    expect(Number(graphql.headers.get('retry-after'))).toBeGreaterThan(0);

    const mcp = await call(t, 'POST', '/mcp', {
      key: org.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'agent_query', arguments: { question: 'latest 10-Q of Apple' } } },
    });
    expect(mcp.status).toBe(429);
    expect(mcp.body.error).toMatchObject({ code: -32005, data: { code: 'ai_query_quota_exceeded' } });
  });

  it('answers over GraphQL and MCP as over REST', async () => {
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: graphqlQuery, variables: { question: 'AAPL revenue FY2021' } } });
    expect(graphql.status).toBe(200);
    expect(graphql.body.data.agentQuery.citations).toEqual([{ accessionNumber: '0000320193-21-000105' }]);
    const mcp = await call(t, 'POST', '/mcp', {
      key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'agent_query', arguments: { question: 'AAPL revenue FY2021' } } },
    });
    expect(mcp.status).toBe(200);
    expect(mcp.body.result.structuredContent.answer).toBe(graphql.body.data.agentQuery.answer);
  });

  it('charges each read it runs to the caller\'s own organization, as that read', async () => {
    // one data read a day: the question's read takes it, the next question's read is refused
    const org = await orgWithDailyLimit('data_read', 1);
    expect((await ask('latest 10-K of Apple', org.key)).status).toBe(200);
    const refused = expectEnvelope(await ask('latest 10-K of Apple', org.key), 429, 'rate_limit_exceeded');
    expect(refused.details).toEqual({ meterClass: 'data_read', period: 'day', limit: 1 });
    // another organization's windows are its own
    const other = await orgWithKey(t, undefined, 'team');
    expect((await ask('latest 10-K of Apple', other.key)).status).toBe(200);
  });
});
