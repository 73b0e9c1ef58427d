// The fixed costs of a request (who is calling, what the plan allows) are read once and then kept
// briefly: a warm request sends only the SQL of its own work, and a change made through the
// service (a key revoked) applies to the very next request all the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, scratchDatabase, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let sent: string[] = [];

beforeAll(async () => {
  database = await scratchDatabase(); // a database of its own, so that every statement counted is ours
  t = await startTestService({ database: database.target, requestCacheTtlMs: 600_000 }, { onQuery: (sql) => void sent.push(sql), countingStatements: true });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

async function statementsOf(route: string, key: string) {
  sent = [];
  const answer = await call(t, 'GET', route, { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return sent;
}

describe('the request path', () => {
  it('reads the key, the organization and its quotas once, not on every request', async () => {
    const { key } = await orgWithKey(t);
    const cold = await statementsOf('/v1/me', key);
    const warm = await statementsOf('/v1/me', key);
    console.log(`/v1/me: ${cold.length} statements cold, ${warm.length} warm`);
    const fixed = (sql: string) => /"secretHash" = \$|"OrgQuota"|"PlanQuota"|"MeterClass"/.test(sql);
    expect(cold.filter(fixed).length).toBeGreaterThan(0);
    expect(warm.filter(fixed)).toEqual([]);
    expect(warm.length).toBeLessThan(cold.length);
  });

  it('a revoked key is refused on the next request', async () => {
    const org = await orgWithKey(t);
    expect((await call(t, 'GET', '/v1/me', { key: org.key })).status).toBe(200);
    const revoked = await call(t, 'DELETE', `/v1/api_keys/${org.keyId}`, { token: await sessionToken(t, org.orgId) });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expectEnvelope(await call(t, 'GET', '/v1/me', { key: org.key }), 401, 'authentication_failed');
  });
});
