// The graph's usage reads that the dashboard's Overview draws: requests per meter class over the
// last 24 hours and 30 days, what each quota window counted, the latest failed requests, and one
// key by id. Counted from the request records, of the caller's organization only, priced as
// GraphQL and open to every role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let other: Awaited<ReturnType<typeof orgWithKey>>;

const gql = async (credentials: { key?: string; token?: string }, query: string, variables: Record<string, unknown> = {}) => {
  const answer = await call(t, 'POST', '/graphql', { ...credentials, body: { query, variables } });
  return { ...answer, data: answer.body.data, errors: answer.body.errors as { message: string; extensions: { code: string } }[] | undefined };
};

const usageQuery = `query Usage($range: UsageRange!) {
  requestUsage(range: $range) { range interval from to bucketStarts totalRequests series { meterClass requests errors units } }
}`;

beforeAll(async () => {
  t = await startTestService();
  acme = await orgWithKey(t, 'Usage Acme', 'personal');
  other = await orgWithKey(t, 'Usage Other', 'personal');
  // acme: five platform reads, one refused for its parameters; the other organization: one read
  for (let i = 0; i < 3; i++) expect((await call(t, 'GET', '/v1/me', { key: acme.key })).status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await call(t, 'GET', '/v1/limits', { key: acme.key })).status).toBe(200);
  expect((await call(t, 'GET', '/v1/entities?limit=500', { key: acme.key })).status).toBe(400);
  expect((await call(t, 'GET', '/v1/me', { key: other.key })).status).toBe(200);
});
afterAll(() => t?.close());

describe('requestUsage', () => {
  it('counts the last 24 hours by UTC hour, per meter class, the current hour last', async () => {
    const before = Date.now();
    const answer = await gql({ key: acme.key }, usageQuery, { range: 'last_24_hours' });
    expect(answer.errors).toBeUndefined();
    const usage = answer.data.requestUsage;
    expect(usage).toMatchObject({ range: 'last_24_hours', interval: 'hour' });
    expect(usage.bucketStarts).toHaveLength(24);
    for (const [i, iso] of usage.bucketStarts.entries()) {
      expect(Date.parse(iso) % 3_600_000).toBe(0);
      if (i) expect(Date.parse(iso) - Date.parse(usage.bucketStarts[i - 1])).toBe(3_600_000);
    }
    expect(usage.from).toBe(usage.bucketStarts[0]);
    expect(Date.parse(usage.to)).toBe(Date.parse(usage.bucketStarts[23]) + 3_600_000);
    expect(Date.parse(usage.to)).toBeGreaterThan(before);

    const platform = usage.series.find((s: { meterClass: string }) => s.meterClass === 'platform');
    const refused = usage.series.find((s: { meterClass: string }) => s.meterClass === 'unmetered');
    // a request that crossed an hour boundary while the suite ran sits in the hour before
    expect(platform.requests.slice(-2).reduce((a: number, b: number) => a + b, 0)).toBe(5);
    expect(platform.units.slice(-2).reduce((a: number, b: number) => a + b, 0)).toBe(5);
    expect(platform.errors.every((n: number) => n === 0)).toBe(true);
    // refused before it was metered: no meter class, one error
    expect(refused.requests.reduce((a: number, b: number) => a + b, 0)).toBe(1);
    expect(refused.errors.reduce((a: number, b: number) => a + b, 0)).toBe(1);
    expect(usage.totalRequests).toBe(6);
    expect(usage.series.map((s: { meterClass: string }) => s.meterClass)).toEqual([...usage.series.map((s: { meterClass: string }) => s.meterClass)].sort());
  });

  it('counts the last 30 days by UTC day, and only the caller\'s organization', async () => {
    const mine = (await gql({ key: acme.key }, usageQuery, { range: 'last_30_days' })).data.requestUsage;
    expect(mine).toMatchObject({ range: 'last_30_days', interval: 'day' });
    expect(mine.bucketStarts).toHaveLength(30);
    expect(mine.bucketStarts.every((iso: string) => Date.parse(iso) % 86_400_000 === 0)).toBe(true);
    // the 24-hour read a moment ago is one more platform request of acme (an account read)
    expect(mine.totalRequests).toBe(7);
    expect(mine.series.find((s: { meterClass: string }) => s.meterClass === 'platform').requests.reduce((a: number, b: number) => a + b, 0)).toBe(6);
    expect(mine.series.map((s: { meterClass: string }) => s.meterClass)).not.toContain('graphql');

    const theirs = (await gql({ key: other.key }, usageQuery, { range: 'last_30_days' })).data.requestUsage;
    expect(theirs.totalRequests).toBe(1);
    expect(theirs.series.map((s: { meterClass: string }) => s.meterClass)).toEqual(['platform']);
  });

  it('is refused without credentials, and open to a viewer', async () => {
    const anonymous = await gql({}, usageQuery, { range: 'last_24_hours' });
    expect(anonymous.errors?.[0]?.extensions.code).toBe('missing_api_key');
    const viewer = await sessionToken(t, acme.orgId, `viewer.${Date.now()}@example.com`, false, 'viewer');
    const answer = await gql({ token: viewer }, usageQuery, { range: 'last_24_hours' });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.requestUsage.totalRequests).toBeGreaterThanOrEqual(6);
  });

  it('is an account read: one unit of the free platform class, whatever its cost', async () => {
    const answer = await gql({ key: acme.key }, usageQuery, { range: 'last_24_hours' });
    expect(answer.headers.get('service-meter-class')).toBe('platform');
    expect(answer.headers.get('service-token-count')).toBe('1');
    expect(answer.body.extensions.cost.requested).toBeGreaterThan(1);
  });
});

describe('Quota.used', () => {
  it('is what each window of the class counted so far', async () => {
    const { orgId, key } = await orgWithKey(t, 'Usage Gauges', 'personal');
    for (let i = 0; i < 4; i++) await call(t, 'GET', '/v1/me', { key });
    const answer = await gql({ key }, '{ limits { quotas { meterClass period limit used resetsAt } } }');
    expect(answer.errors).toBeUndefined();
    const quotas = answer.data.limits.quotas as { meterClass: string; period: string; limit: number; used: number; resetsAt: string }[];
    const platform = Object.fromEntries(quotas.filter((q) => q.meterClass === 'platform').map((q) => [q.period, q]));
    // the day window holds every request; a shorter one may have started again meanwhile
    expect(platform.day!.used).toBe(4);
    expect(platform.hour!.used).toBeLessThanOrEqual(4);
    expect(platform.minute!.used).toBeLessThanOrEqual(platform.hour!.used);
    for (const q of Object.values(platform)) expect(Date.parse(q.resetsAt)).toBeGreaterThan(Date.now() - 1000);
    expect(Date.parse(platform.day!.resetsAt) % 86_400_000).toBe(0);
    expect(quotas.find((q) => q.meterClass === 'data_read' && q.period === 'day')!.used).toBe(0);
    expect(orgId).toMatch(/^org_/);
  });
});

describe('recentRequests', () => {
  it('lists the organization\'s latest requests, newest first; errorsOnly keeps the failed ones', async () => {
    const all = await gql({ key: acme.key }, '{ recentRequests(first: 3) { id status createdAt path } }');
    expect(all.errors).toBeUndefined();
    expect(all.data.recentRequests).toHaveLength(3);
    const times = all.data.recentRequests.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const failed = await gql({ key: acme.key }, '{ recentRequests(errorsOnly: true) { status errorCode path meterClass } }');
    expect(failed.data.recentRequests).toEqual([{ status: 400, errorCode: 'invalid_query_parameter', path: '/v1/entities', meterClass: null }]);
    const theirs = await gql({ key: other.key }, '{ recentRequests(errorsOnly: true) { id } }');
    expect(theirs.data.recentRequests).toEqual([]);
  });

  it('takes 1 to 100', async () => {
    for (const first of [0, 101]) {
      const answer = await gql({ key: acme.key }, 'query R($first: Int) { recentRequests(first: $first) { id } }', { first });
      expect(answer.errors?.[0]?.extensions.code).toBe('invalid_query_parameter');
    }
  });
});

describe('apiKey', () => {
  it('is one key of the organization, null for another organization\'s', async () => {
    const mine = await gql({ key: acme.key }, 'query K($id: String!) { apiKey(id: $id) { id name scopes revokedAt } }', { id: acme.keyId });
    expect(mine.data.apiKey).toEqual({ id: acme.keyId, name: 'test key', scopes: ['organization'], revokedAt: null });
    const theirs = await gql({ key: acme.key }, 'query K($id: String!) { apiKey(id: $id) { id } }', { id: other.keyId });
    expect(theirs.errors).toBeUndefined();
    expect(theirs.data.apiKey).toBeNull();
  });
});
