// Usage analytics (GET /v1/analytics/usage, GraphQL `usageAnalytics`, the MCP tool
// usage_analytics_get): real requests made with two keys and a session, some refused, counted back
// per key, operation, meter class, door and day, with what prepaid credit paid; bad parameters
// refused with the envelope; another organization never sees any of it, at every door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { adjustCredits } from '../../resolvers/billing/account.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

interface Group {
  day: string | null;
  meterClass: string | null;
  operation: string | null;
  apiKeyId: string | null;
  door: string | null;
  requests: number;
  errors4xx: number;
  errors5xx: number;
  units: number;
  chargedMillicents: number;
  durationP50Ms: number | null;
  durationP95Ms: number | null;
}

let t: TestService;
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let other: Awaited<ReturnType<typeof orgWithKey>>;
let second: { id: string; key: string };
let acmeSession: string;

const analytics = (query: Record<string, string>, credentials: { key?: string; token?: string } = { key: acme.key }) =>
  call(t, 'GET', `/v1/analytics/usage?${new URLSearchParams(query)}`, credentials);

/** The setup's requests only: every analytics read is itself recorded as usage_analytics_get. */
const setupRows = (rows: Group[]) => rows.filter((r) => r.operation !== 'usage_analytics_get');

async function expectStatus(answer: Promise<{ status: number }>, status: number) {
  expect((await answer).status).toBe(status);
}

beforeAll(async () => {
  t = await startTestService();
  acme = await orgWithKey(t, 'Usage analytics Acme', 'payg');
  await adjustCredits(t.service.services, acme.orgId, 100, 'test credit');
  other = await orgWithKey(t, 'Usage analytics Other');
  const issued = await issueApiKey(t.service.services, acme.orgId, 'second key');
  second = { id: issued.apiKey.id, key: issued.secret };
  acmeSession = await sessionToken(t, acme.orgId, `usage.${Date.now()}@example.com`, false, 'viewer');

  for (let i = 0; i < 3; i++) await expectStatus(call(t, 'GET', '/v1/me', { key: acme.key }), 200);
  for (let i = 0; i < 2; i++) await expectStatus(call(t, 'GET', '/v1/entities?q=a', { key: acme.key }), 200);
  await expectStatus(call(t, 'GET', '/v1/entities?limit=500', { key: acme.key }), 400);
  await expectStatus(call(t, 'GET', '/v1/diagnostics/requests/req_000000000000000000000000', { key: acme.key }), 404);
  await expectStatus(call(t, 'POST', '/graphql', { key: acme.key, body: { query: 'query WhoAmI { me { kind } }', operationName: 'WhoAmI' } }), 200);
  for (let i = 0; i < 2; i++) await expectStatus(call(t, 'GET', '/v1/limits', { key: second.key }), 200);
  await expectStatus(call(t, 'GET', '/v1/entities?limit=500', { key: second.key }), 400);
  await expectStatus(call(t, 'GET', '/v1/me', { token: acmeSession }), 200);
  await expectStatus(call(t, 'GET', '/v1/me', { key: other.key }), 200);
});
afterAll(() => t?.close());

describe('GET /v1/analytics/usage', () => {
  it('counts requests, 4xx and 5xx, units and spend per key and operation, with totals', async () => {
    const answer = await analytics({ group_by: 'api_key,operation' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body as { object: string; from: string; to: string; groupBy: string[]; rows: Group[]; totals: Omit<Group, 'day' | 'meterClass' | 'operation' | 'apiKeyId' | 'door'>; truncated: boolean; rules: string };
    const today = new Date().toISOString().slice(0, 10);
    expect(body).toMatchObject({ object: 'usage_analytics', groupBy: ['operation', 'api_key'], truncated: false });
    expect(body.to).toBe(today);
    expect((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000).toBe(29);
    expect(body.rules).toMatch(/UTC/);

    const counted = Object.fromEntries(setupRows(body.rows).map((r) => [`${r.apiKeyId ?? 'session'} ${r.operation}`, [r.requests, r.errors4xx, r.errors5xx]]));
    expect(counted).toEqual({
      [`${acme.keyId} me_get`]: [3, 0, 0],
      [`${acme.keyId} entities_search`]: [3, 1, 0],
      [`${acme.keyId} diagnostics_request_get`]: [1, 1, 0],
      [`${acme.keyId} WhoAmI`]: [1, 0, 0],
      [`${second.id} limits_get`]: [2, 0, 0],
      [`${second.id} entities_search`]: [1, 1, 0],
      'session me_get': [1, 0, 0],
    });
    for (const row of body.rows) expect(row).toMatchObject({ day: null, meterClass: null, door: null });

    // the two data reads paid with prepaid credit at the data_read rate (200 millicents each)
    const reads = body.rows.find((r) => r.apiKeyId === acme.keyId && r.operation === 'entities_search')!;
    expect(reads.chargedMillicents).toBe(400);
    expect(reads.durationP50Ms).toBeGreaterThanOrEqual(0);
    expect(reads.durationP95Ms).toBeGreaterThanOrEqual(reads.durationP50Ms!);
    expect(body.rows.find((r) => r.operation === 'me_get' && r.apiKeyId === acme.keyId)!.chargedMillicents).toBe(0);

    const sum = (pick: (r: Group) => number) => body.rows.reduce((total, r) => total + pick(r), 0);
    expect(body.totals).toMatchObject({ requests: sum((r) => r.requests), errors4xx: sum((r) => r.errors4xx), errors5xx: 0, units: sum((r) => r.units), chargedMillicents: 400 });
  });

  it('groups by meter class, door and day, as the records were written', async () => {
    const byClass = await analytics({ group_by: 'meter_class,door' });
    expect(byClass.status).toBe(200);
    const rows = byClass.body.rows as Group[];
    const of = (meterClass: string, door: string) => rows.find((r) => r.meterClass === meterClass && r.door === door);
    expect(of('data_read', 'rest')).toMatchObject({ requests: 2, errors4xx: 0, units: 2, chargedMillicents: 400 });
    // a read refused for its parameters was never metered
    expect(of('unmetered', 'rest')).toMatchObject({ requests: 2, errors4xx: 2, units: 0, chargedMillicents: 0 });
    expect(of('platform', 'graphql')).toMatchObject({ requests: 1 });

    // whatever the day each request fell on (a run across midnight UTC), every day's count is its records'
    const byDay = await analytics({ group_by: 'day,api_key', api_key_id: second.id });
    expect(byDay.status).toBe(200);
    expect(byDay.body.groupBy).toEqual(['day', 'api_key']);
    const records = await t.service.services.prisma.requestRecord.findMany({ where: { orgId: acme.orgId, apiKeyId: second.id } });
    const perDay: Record<string, number> = {};
    for (const r of records) perDay[r.createdAt.toISOString().slice(0, 10)] = (perDay[r.createdAt.toISOString().slice(0, 10)] ?? 0) + 1;
    expect(Object.fromEntries((byDay.body.rows as Group[]).map((r) => [r.day, r.requests]))).toEqual(perDay);
    expect(byDay.body.totals.requests).toBe(3);
    expect((byDay.body.rows as Group[]).every((r) => r.apiKeyId === second.id)).toBe(true);
  });

  it('filters by meter class, and a window before the requests counts none of them', async () => {
    const reads = await analytics({ meter_class: 'data_read', group_by: 'api_key' });
    expect(Object.fromEntries((reads.body.rows as Group[]).map((r) => [r.apiKeyId, r.requests]))).toEqual({ [acme.keyId]: 2 });
    const refused = await analytics({ meter_class: 'unmetered', group_by: 'api_key' });
    expect(Object.fromEntries((refused.body.rows as Group[]).map((r) => [r.apiKeyId, r.errors4xx]))).toEqual({ [acme.keyId]: 1, [second.id]: 1 });
    const earlier = await analytics({ from: '2024-01-01', to: '2024-03-31' });
    expect(earlier.status).toBe(200);
    expect(earlier.body).toMatchObject({ from: '2024-01-01', to: '2024-03-31', rows: [], totals: { requests: 0, errors4xx: 0, errors5xx: 0, units: 0, chargedMillicents: 0, durationP50Ms: null, durationP95Ms: null } });
  });

  it('answers the same over GraphQL and as an MCP tool, and to a viewer\'s session', async () => {
    const query = 'query Usage($groupBy: [UsageDimension!]) { usageAnalytics(groupBy: $groupBy) { groupBy rows { operation apiKeyId requests errors4xx apiKey { name } } totals { requests } } }';
    const gql = await call(t, 'POST', '/graphql', { token: acmeSession, body: { query, variables: { groupBy: ['api_key', 'operation'] } } });
    expect(gql.status, JSON.stringify(gql.body)).toBe(200);
    const limits = gql.body.data.usageAnalytics.rows.find((r: { operation: string; apiKeyId: string }) => r.operation === 'limits_get');
    expect(limits).toEqual({ operation: 'limits_get', apiKeyId: second.id, requests: 2, errors4xx: 0, apiKey: { name: 'second key' } });

    const mcp = await call(t, 'POST', '/mcp', {
      key: acme.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'usage_analytics_get', arguments: { group_by: 'api_key', api_key_id: second.id } } },
    });
    expect(mcp.status).toBe(200);
    expect(mcp.body.result.structuredContent.rows).toEqual([expect.objectContaining({ apiKeyId: second.id, requests: 3, errors4xx: 1 })]);
  });

  it('refuses bad parameters with the envelope', async () => {
    expectEnvelope(await analytics({ group_by: 'hour' }), 400, 'invalid_query_parameter');
    expectEnvelope(await analytics({ group_by: 'day,,door' }), 400, 'invalid_query_parameter');
    expectEnvelope(await analytics({ from: '2026-02-30' }), 400, 'invalid_request_parameter');
    expectEnvelope(await analytics({ from: '2025-03-02', to: '2025-03-01' }), 400, 'invalid_request_parameter');
    const tooLong = expectEnvelope(await analytics({ from: '2025-01-01', to: '2025-06-30' }), 400, 'invalid_request_parameter');
    expect(tooLong.message).toMatch(/at most 92/);
    expectEnvelope(await analytics({ api_key_id: 'nope' }), 400, 'invalid_query_parameter');
    expectEnvelope(await analytics({ period: 'month' }), 400, 'invalid_query_parameter');
    expectEnvelope(await call(t, 'GET', '/v1/analytics/usage'), 401, 'missing_api_key');
  });

  it('another organization sees only its own requests, through REST, GraphQL and MCP', async () => {
    const theirs = await analytics({ group_by: 'api_key,operation' }, { key: other.key });
    expect(theirs.status).toBe(200);
    expect(setupRows(theirs.body.rows)).toEqual([expect.objectContaining({ apiKeyId: other.keyId, operation: 'me_get', requests: 1 })]);
    // naming acme's key filters the other organization's records: none
    const named = await analytics({ api_key_id: second.id }, { key: other.key });
    expect(named.body).toMatchObject({ rows: [], totals: { requests: 0 } });

    const otherSession = await sessionToken(t, other.orgId, `usage.other.${Date.now()}@example.com`);
    const gql = await call(t, 'POST', '/graphql', { token: otherSession, body: { query: '{ usageAnalytics(groupBy: [api_key]) { rows { apiKeyId } } }' } });
    expect(gql.body.data.usageAnalytics.rows.map((r: { apiKeyId: string | null }) => r.apiKeyId).filter((id: string | null) => id === acme.keyId || id === second.id)).toEqual([]);

    const mcp = await call(t, 'POST', '/mcp', {
      key: other.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'usage_analytics_get', arguments: { meter_class: 'data_read' } } },
    });
    expect(mcp.body.result.structuredContent).toMatchObject({ rows: [], totals: { requests: 0 } });
  });
});
