// The AI query's monthly quota (SPEC 8.4): every plan caps `ai_query` per calendar month in UTC;
// past it, 429 ai_query_quota_exceeded with Retry-After (the seconds to 00:00 UTC on the 1st) at
// every door (MCP: -32005), and GET /v1/limits lists the month window with when it starts again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowAt } from '../core/limiter.ts';
import { plans } from '../prisma/seed.ts';
import { routes } from '../catalogue/routes/index.ts';
import { openDatabase } from '../prisma/db.ts';
import { call, expectEnvelope, orgWithKey, scratchDatabase, startTestService, type Answer, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

type Quota = { meterClass: string; period: string; limit: number; allowed: boolean; resetsAt: string };

/** The start of the next calendar month in UTC, as the clock reads now. */
const nextMonthStart = () => new Date(windowAt('month', Math.floor(Date.now() / 1000)).end * 1000);
const secondsToNextMonth = () => (nextMonthStart().getTime() - Date.now()) / 1000;

const question = { question: 'latest 10-Q of Apple' };
const ask = (key: string) => call(t, 'POST', '/v1/agent/query', { key, body: question });
const askGraphql = (key: string) =>
  call(t, 'POST', '/graphql', { key, body: { query: 'mutation Ask($question: String!) { agentQuery(question: $question) { answer } }', variables: question } });
const askMcp = (key: string) =>
  call(t, 'POST', '/mcp', {
    key,
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'agent_query', arguments: question } },
  });

/** The `ai_query:month` member of a RateLimit field. */
function monthMember(field: string | null): Record<string, number> {
  const member = field?.split(/,\s*/).find((m) => m.startsWith('"ai_query:month"'));
  expect(member, String(field)).toBeDefined();
  return Object.fromEntries(member!.split(';').slice(1).map((p) => [p.split('=')[0]!, Number(p.split('=')[1])]));
}

function expectRetryUntilNextMonth(answer: Answer) {
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(Math.abs(retryAfter - secondsToNextMonth())).toBeLessThanOrEqual(2);
  return retryAfter;
}

describe('the seeded month windows', () => {
  it('cap the AI query on every plan, each above nothing its day window alone allows in a long month', () => {
    const months = Object.fromEntries(plans.map((p) => [p.key, (p.quotas.ai_query as Record<string, number>).month]));
    expect(months).toEqual({ sandbox_grant: 100, personal: 500, team: 2000, payg: 1000, enterprise: 100000 });
    for (const plan of plans) {
      const aiQuery = plan.quotas.ai_query as Record<string, number>;
      expect(aiQuery.month, plan.key).toBeLessThan(aiQuery.day! * 31);
    }
    // no other class has a month window
    for (const plan of plans) for (const [meterClass, windows] of Object.entries(plan.quotas)) if (meterClass !== 'ai_query') expect(windows === 'not_allowed' || !('month' in windows)).toBe(true);
  });
});

describe('a database seeded before the month windows', () => {
  it('gets them at its next start', async () => {
    // a database that outlives its first opening: a server's, else a PGlite folder (memory:// starts afresh each time)
    const folder = process.env.DATABASE_URL ? null : await mkdtemp(path.join(tmpdir(), 'ids-month-'));
    const scratch = folder ? { target: { kind: 'pglite' as const, dataDir: folder }, drop: () => rm(folder, { recursive: true, force: true }) } : await scratchDatabase();
    try {
      const earlier = await openDatabase(scratch.target);
      // as a database seeded by the previous version holds it: no month rows
      await earlier.prisma.planQuota.deleteMany({ where: { period: 'month' } });
      await earlier.close();
      const restarted = await openDatabase(scratch.target);
      const months = await restarted.prisma.planQuota.findMany({ where: { period: 'month' }, orderBy: { planKey: 'asc' } });
      await restarted.close();
      expect(months.map((q) => [q.planKey, q.meterClass, q.limit, q.allowed])).toEqual([
        ['enterprise', 'ai_query', 100000, true],
        ['payg', 'ai_query', 1000, true],
        ['personal', 'ai_query', 500, true],
        ['sandbox_grant', 'ai_query', 100, true],
        ['team', 'ai_query', 2000, true],
      ]);
    } finally {
      await scratch.drop();
    }
  });
});

describe('GET /v1/limits', () => {
  it('lists the month window with its reset at 00:00 UTC on the 1st of the next month, and GraphQL the same', async () => {
    const org = await orgWithKey(t, undefined, 'personal');
    const answer = await call(t, 'GET', '/v1/limits', { key: org.key });
    expect(answer.status).toBe(200);
    const parsed = routes.find((r) => r.name === 'limits_get')!.response.safeParse(answer.body);
    expect(parsed.success, parsed.error?.message).toBe(true);
    const quotas = answer.body.quotas as Quota[];
    const aiQuery = quotas.filter((q) => q.meterClass === 'ai_query');
    expect(aiQuery.map((q) => q.period)).toEqual(['minute', 'day', 'month']);
    const month = aiQuery.find((q) => q.period === 'month')!;
    expect(month).toMatchObject({ limit: 500, allowed: true, planKey: 'personal' });
    expect(month.resetsAt).toBe(nextMonthStart().toISOString());
    const dayWindow = aiQuery.find((q) => q.period === 'day')!;
    expect(Date.parse(dayWindow.resetsAt) % 86_400_000).toBe(0);
    expect(Date.parse(dayWindow.resetsAt)).toBeLessThanOrEqual(Date.parse(month.resetsAt));

    const graphql = await call(t, 'POST', '/graphql', { key: org.key, body: { query: '{ limits { quotas { meterClass period limit resetsAt } } }' } });
    const overGraph = (graphql.body.data.limits.quotas as Quota[]).find((q) => q.meterClass === 'ai_query' && q.period === 'month');
    expect(overGraph).toEqual({ meterClass: 'ai_query', period: 'month', limit: 500, resetsAt: month.resetsAt });
  });
});

describe('a full month window', () => {
  it('refuses the AI query with 429 ai_query_quota_exceeded until the 1st, at every door', async () => {
    const org = await orgWithKey(t, undefined, 'personal');
    await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'ai_query', period: 'month', limit: 2 } });
    t.service.services.cache.forgetOrg(org.orgId);

    // each question counts one, whatever it finds; the RateLimit field counts the month down
    const first = await ask(org.key);
    expect(first.status).not.toBe(429);
    expect(first.headers.get('service-meter-class')).toBe('ai_query');
    expect(monthMember(first.headers.get('ratelimit')).r).toBe(1);
    const second = await ask(org.key);
    expect(second.status).not.toBe(429);
    expect(monthMember(second.headers.get('ratelimit')).r).toBe(0);
    const daysThisMonth = (nextMonthStart().getTime() - new Date(windowAt('month', Math.floor(Date.now() / 1000)).start * 1000).getTime()) / 86_400_000;
    expect(monthMember(second.headers.get('ratelimit-policy'))).toEqual({ q: 2, w: daysThisMonth * 86_400 });

    const refused = await ask(org.key);
    const body = expectEnvelope(refused, 429, 'ai_query_quota_exceeded');
    expect(body.details).toEqual({ meterClass: 'ai_query', period: 'month', limit: 2 });
    const retryAfter = expectRetryUntilNextMonth(refused);
    expect(monthMember(refused.headers.get('ratelimit'))).toEqual({ r: 0, t: retryAfter });

    const graphql = await askGraphql(org.key);
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0].extensions.code).toBe('ai_query_quota_exceeded');
    expectRetryUntilNextMonth(graphql);

    const mcp = await askMcp(org.key);
    expect(mcp.status).toBe(429);
    expect(mcp.body.error).toMatchObject({ code: -32005, data: { code: 'ai_query_quota_exceeded' } });
    expect(Math.abs(mcp.body.error.data.retryAfter - secondsToNextMonth())).toBeLessThanOrEqual(2);

    // the other classes are untouched, and the dashboard's gauge shows the month's count
    expect((await call(t, 'GET', '/v1/me', { key: org.key })).status).toBe(200);
    const gauge = await call(t, 'POST', '/graphql', { key: org.key, body: { query: '{ limits { quotas { meterClass period limit used } } }' } });
    expect((gauge.body.data.limits.quotas as (Quota & { used: number })[]).find((q) => q.meterClass === 'ai_query' && q.period === 'month')).toEqual({
      meterClass: 'ai_query',
      period: 'month',
      limit: 2,
      used: 2,
    });
  });
});
