// The quota fields of draft-ietf-httpapi-ratelimit-headers on every metered answer, REST and
// GraphQL, the 429 included: RateLimit-Policy names each window of the meter class (its limit q,
// its length w in seconds) and RateLimit what is left of each (r) and when it starts again (t).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, startTestService, type Answer, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

/** A Structured Field List of `"name";key=integer;…` items, by name. */
function items(field: string | null): Record<string, Record<string, number>> {
  expect(field).toBeTruthy();
  const parsed: Record<string, Record<string, number>> = {};
  for (const member of field!.split(/,\s*/)) {
    const match = /^"([^"\\]+)"((?:;[a-z]+=\d+)+)$/.exec(member);
    expect(match, member).not.toBeNull();
    parsed[match![1]!] = Object.fromEntries(match![2]!.slice(1).split(';').map((p) => [p.split('=')[0]!, Number(p.split('=')[1])]));
  }
  return parsed;
}

const policy = (answer: Answer) => items(answer.headers.get('ratelimit-policy'));
const state = (answer: Answer) => items(answer.headers.get('ratelimit'));

async function orgWithDailyLimit(meterClass: string, limit: number) {
  const org = await orgWithKey(t);
  await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass, period: 'day', limit } });
  return org;
}

describe('RateLimit-Policy and RateLimit', () => {
  it('count down each window of the class on REST, and stay on the 429', async () => {
    const org = await orgWithDailyLimit('platform', 3);
    const first = await call(t, 'GET', '/v1/me', { key: org.key });
    expect(first.status).toBe(200);
    expect(policy(first)).toEqual({ 'platform:minute': { q: 60, w: 60 }, 'platform:hour': { q: 1000, w: 3600 }, 'platform:day': { q: 3, w: 86400 } });
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"platform:minute";q=60;w=60, "platform:hour";q=1000;w=3600, "platform:day";q=3;w=86400$/);
    const now = state(first);
    expect(now['platform:day']!.r).toBe(2);
    expect(now['platform:minute']!.r).toBe(59);
    expect(now['platform:minute']!.t).toBeGreaterThanOrEqual(0);
    expect(now['platform:minute']!.t).toBeLessThanOrEqual(60);
    expect(now['platform:day']!.t).toBeLessThanOrEqual(86400);

    // a metered request the route then refuses was still counted, and says so
    const notFound = expectEnvelope(await call(t, 'GET', '/v1/monitors/mon_000000000000000000000000', { key: org.key }), 404, 'monitor_not_found');
    expect(notFound).toBeTruthy();
    const third = await call(t, 'GET', '/v1/limits', { key: org.key });
    expect(state(third)['platform:day']!.r).toBe(0);

    const refused = await call(t, 'GET', '/v1/me', { key: org.key });
    expectEnvelope(refused, 429, 'rate_limit_exceeded');
    expect(policy(refused)).toEqual(policy(first));
    expect(state(refused)['platform:day']).toEqual({ r: 0, t: Number(refused.headers.get('retry-after')) });
    // nothing counted for the refusal (unless a minute began in between: then the new window is whole)
    const before = state(third)['platform:minute']!;
    const after = state(refused)['platform:minute']!;
    expect(after.r).toBe(after.t <= before.t ? before.r : 60);
  });

  it('are on the 404 of a metered route too', async () => {
    const org = await orgWithKey(t);
    const answer = await call(t, 'GET', '/v1/monitors/mon_000000000000000000000000', { key: org.key });
    expect(answer.status).toBe(404);
    expect(state(answer)['platform:minute']!.r).toBe(59);
  });

  it('count GraphQL cost units, and stay on the 429', async () => {
    const org = await orgWithDailyLimit('graphql', 4);
    // a data read (the account's own fields are the platform class): costs 2
    const ask = () => call(t, 'POST', '/graphql', { key: org.key, body: { query: '{ entity(ticker: "AAPL") { cik } }' } });
    const first = await ask();
    expect(first.status).toBe(200);
    expect(policy(first)['graphql:day']).toEqual({ q: 4, w: 86400 });
    expect(state(first)['graphql:day']!.r).toBe(2);
    expect(state(await ask())['graphql:day']!.r).toBe(0);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('rate_limit_exceeded');
    expect(state(refused)['graphql:day']).toMatchObject({ r: 0 });
    expect(policy(refused)['graphql:day']).toEqual({ q: 4, w: 86400 });
  });

  it('are not sent on an answer nothing metered', async () => {
    const rates = await call(t, 'GET', '/v1/billing/rates');
    expect(rates.status).toBe(200);
    expect(rates.headers.get('ratelimit')).toBeNull();
    expect(rates.headers.get('ratelimit-policy')).toBeNull();
  });

  it('are documented in the contract', async () => {
    const contract = (await call(t, 'GET', '/openapi/sec-api.v1.json')).body;
    const me = contract.paths['/v1/me'].get.responses;
    expect(Object.keys(me['200'].headers)).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']));
    expect(Object.keys(me['429'].headers ?? contract.components.responses?.[me['429'].$ref?.split('/').pop()]?.headers ?? {})).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']));
  });
});
