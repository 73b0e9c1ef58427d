// The identity, key, limit and billing routes, with the exact shapes SPEC 2.2–2.4 states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../catalogue/routes/index.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
let acme: Awaited<ReturnType<typeof orgWithKey>>;

beforeAll(async () => {
  t = await startTestService({ stripe: { publishableKeyTest: 'pk_test_51Example', publishableKeyLive: 'pk_live_51Example', prices: {} } });
  acme = await orgWithKey(t, 'Acme Research');
});
afterAll(() => t?.close());

/** every answer of a table route must match the response schema the OpenAPI document publishes */
function conformsToContract(name: string, body: unknown) {
  const route = routes.find((r) => r.name === name)!;
  const parsed = route.response.safeParse(body);
  if (!parsed.success) throw new Error(`${name} answer does not match its documented schema: ${parsed.error.message}`);
}

describe('GET /v1/me', () => {
  it('names the API key and its organization', async () => {
    const answer = await call(t, 'GET', '/v1/me', { key: acme.key });
    expect(answer.status).toBe(200);
    conformsToContract('me_get', answer.body);
    expect(answer.body).toMatchObject({
      object: 'principal',
      kind: 'api_key',
      organization: { object: 'organization', id: acme.orgId, name: 'Acme Research', planKey: 'sandbox_grant', billingState: 'sandbox_grant' },
      apiKey: { object: 'api_key', id: acme.keyId },
      user: null,
    });
    expect(answer.body.requestId).toBe(answer.headers.get('request-id'));
    expect(answer.headers.get('service-meter-class')).toBe('platform');
  });

  it('names the person and the session expiry for a dashboard session (30 days, 90 with remember-me)', async () => {
    const now = Date.now();
    const standard = await call(t, 'GET', '/v1/me', { token: await sessionToken(t, acme.orgId, 'ana@example.com') });
    expect(standard.status).toBe(200);
    expect(standard.body).toMatchObject({ kind: 'session', user: { object: 'user', email: 'ana@example.com' }, organization: { id: acme.orgId }, apiKey: null });
    const days = (iso: string) => Math.round((Date.parse(iso) - now) / 86_400_000);
    expect(days(standard.body.sessionExpiresAt)).toBe(30);
    const remembered = await call(t, 'GET', '/v1/me', { token: await sessionToken(t, acme.orgId, 'ana@example.com', true) });
    expect(days(remembered.body.sessionExpiresAt)).toBe(90);
  });
});

describe('GET /v1/org', () => {
  it('is the organization profile', async () => {
    const answer = await call(t, 'GET', '/v1/org', { key: acme.key });
    expect(answer.status).toBe(200);
    conformsToContract('org_get', answer.body);
    expect(answer.body).toMatchObject({ object: 'organization', id: acme.orgId, name: 'Acme Research', livemode: false });
  });
});

describe('GET /v1/limits', () => {
  it('has exactly the fields of SPEC 2.2 and every quota item has all six, and when its window starts again', async () => {
    const answer = await call(t, 'GET', '/v1/limits', { key: acme.key });
    expect(answer.status).toBe(200);
    conformsToContract('limits_get', answer.body);
    expect(Object.keys(answer.body).sort()).toEqual(['billingState', 'effectivePlanKey', 'object', 'orgId', 'quotas', 'recordedAt', 'requestId']);
    expect(answer.body).toMatchObject({ object: 'limits', orgId: acme.orgId, effectivePlanKey: 'sandbox_grant', billingState: 'sandbox_grant' });
    expect(Number.isNaN(Date.parse(answer.body.recordedAt))).toBe(false);
    expect(answer.body.quotas.length).toBeGreaterThan(0);
    for (const quota of answer.body.quotas) {
      expect(Object.keys(quota).sort()).toEqual(['allowed', 'billingState', 'limit', 'meterClass', 'period', 'planKey', 'resetsAt']);
      // SPEC 8.4's monthly AI-query quota is the month window
      expect(quota.period === 'month' ? quota.meterClass : quota.period).toMatch(/^(minute|hour|day|ai_query)$/);
      expect(Date.parse(quota.resetsAt)).toBeGreaterThan(Date.parse(answer.body.recordedAt) - 1000);
      expect(Number.isInteger(quota.limit)).toBe(true);
    }
    expect(answer.body.quotas).toContainEqual({ meterClass: 'platform', period: 'minute', limit: 60, allowed: true, planKey: 'sandbox_grant', billingState: 'sandbox_grant', resetsAt: expect.any(String) });
    expect(answer.body.quotas).toContainEqual(expect.objectContaining({ meterClass: 'ai_query', period: 'month', limit: 100 }));
    expect(answer.body.quotas).toContainEqual(expect.objectContaining({ meterClass: 'analytics', allowed: false }));
  });

  it('reports an organization\'s own quota in place of its plan\'s', async () => {
    const org = await orgWithKey(t);
    await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'data_read', period: 'hour', limit: 12345 } });
    const answer = await call(t, 'GET', '/v1/limits', { key: org.key });
    const hour = answer.body.quotas.filter((q: { meterClass: string; period: string }) => q.meterClass === 'data_read' && q.period === 'hour');
    expect(hour).toEqual([expect.objectContaining({ limit: 12345 })]);
  });
});

describe('API keys', () => {
  it('creates a key with a dashboard session, reveals the secret once, and the key works', async () => {
    const org = await orgWithKey(t);
    const token = await sessionToken(t, org.orgId);
    const created = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'production ingest' } });
    expect(created.status).toBe(200);
    conformsToContract('api_keys_create', created.body);
    expect(created.body.secret).toMatch(/^idsk_[0-9A-Za-z]{40}$/);
    expect(created.body.hint).toBe(`idsk_…${created.body.secret.slice(-4)}`);
    expect(created.body.name).toBe('production ingest');

    const me = await call(t, 'GET', '/v1/me', { key: created.body.secret });
    expect(me.body.organization.id).toBe(org.orgId);

    const listed = await call(t, 'GET', '/v1/api_keys', { key: org.key });
    expect(listed.status).toBe(200);
    conformsToContract('api_keys_list', listed.body);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual([created.body.id, org.keyId]);
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(created.body.secret);
    expect(text).not.toContain(org.key);
    expect(listed.body.data.every((k: Record<string, unknown>) => !('secret' in k) && String(k.hint).includes('…'))).toBe(true);
  });

  it('creates a read-scoped key that reads but cannot change the organization\'s configuration; the default scope is organization', async () => {
    const org = await orgWithKey(t);
    const token = await sessionToken(t, org.orgId);
    const full = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'ingest' } });
    expect(full.body.scopes).toEqual(['organization']);
    const reader = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'dashboard reader', scopes: ['read'] } });
    expect(reader.status).toBe(200);
    conformsToContract('api_keys_create', reader.body);
    expect(reader.body.scopes).toEqual(['read']);
    expect((await call(t, 'GET', '/v1/api_keys', { key: reader.body.secret })).body.data.map((k: { scopes: string[] }) => k.scopes)).toEqual([['read'], ['organization'], ['organization']]);
    const stream = { eventTypes: ['api_key.created'] };
    expectEnvelope(await call(t, 'POST', '/v1/stream_subscriptions', { key: reader.body.secret, body: stream }), 403, 'insufficient_scope');
    expect(await t.service.services.prisma.streamSubscription.count({ where: { orgId: org.orgId } })).toBe(0);
    expect((await call(t, 'POST', '/v1/stream_subscriptions', { key: full.body.secret, body: stream })).status).toBe(200);
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'x', scopes: ['admin'] } }), 400, 'validation_error');
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'x', scopes: [] } }), 400, 'validation_error');
  });

  it('stores only a digest of the key', async () => {
    const org = await orgWithKey(t);
    const row = await t.service.services.prisma.apiKey.findUniqueOrThrow({ where: { id: org.keyId } });
    expect(JSON.stringify(row)).not.toContain(org.key.slice(5));
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pages newest first with limit and cursor', async () => {
    const org = await orgWithKey(t);
    const token = await sessionToken(t, org.orgId);
    for (const name of ['b', 'c', 'd']) await call(t, 'POST', '/v1/api_keys', { token, body: { name } });
    const first = await call(t, 'GET', '/v1/api_keys?limit=3', { key: org.key });
    expect(first.body.data.map((k: { name: string }) => k.name)).toEqual(['d', 'c', 'b']);
    expect(first.body.hasMore).toBe(true);
    const second = await call(t, 'GET', `/v1/api_keys?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: org.key });
    expect(second.body.data.map((k: { name: string }) => k.name)).toEqual(['test key']);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('refuses a body that fails the schema and writes nothing', async () => {
    const org = await orgWithKey(t);
    const token = await sessionToken(t, org.orgId);
    const answer = await call(t, 'POST', '/v1/api_keys', { token, body: { name: '', extra: 1 } });
    const body = expectEnvelope(answer, 400, 'validation_error');
    expect(body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['extra', 'name']);
    expect(await t.service.services.prisma.apiKey.count({ where: { orgId: org.orgId } })).toBe(1);
  });
});

describe('key rotation (SPEC 5.10)', () => {
  it('create a replacement, verify it with /v1/limits, revoke the old key', async () => {
    const org = await orgWithKey(t);
    const token = await sessionToken(t, org.orgId);
    const replacement = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'replacement' } });
    expect((await call(t, 'GET', '/v1/limits', { key: replacement.body.secret })).status).toBe(200);

    const revoked = await call(t, 'DELETE', `/v1/api_keys/${org.keyId}`, { token });
    expect(revoked.status).toBe(200);
    conformsToContract('api_keys_revoke', revoked.body);
    expect(revoked.body).toMatchObject({ object: 'api_key', id: org.keyId, revokedAt: expect.any(String) });
    expectEnvelope(await call(t, 'GET', '/v1/limits', { key: org.key }), 401, 'authentication_failed');
    expect((await call(t, 'GET', '/v1/limits', { key: replacement.body.secret })).status).toBe(200);

    const again = await call(t, 'DELETE', `/v1/api_keys/${org.keyId}`, { token });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const listed = await call(t, 'GET', '/v1/api_keys', { key: replacement.body.secret });
    expect(listed.body.data.find((k: { id: string }) => k.id === org.keyId).revokedAt).toBe(revoked.body.revokedAt);
  });

  it('cannot revoke another organization\'s key, nor with an API key', async () => {
    const mine = await orgWithKey(t);
    const theirs = await orgWithKey(t);
    const token = await sessionToken(t, mine.orgId);
    expectEnvelope(await call(t, 'DELETE', `/v1/api_keys/${theirs.keyId}`, { token }), 404, 'api_key_not_found');
    expectEnvelope(await call(t, 'DELETE', `/v1/api_keys/${mine.keyId}`, { key: mine.key }), 403, 'browser_session_required');
    expect((await call(t, 'GET', '/v1/me', { key: theirs.key })).status).toBe(200);
    expect((await call(t, 'GET', '/v1/me', { key: mine.key })).status).toBe(200);
  });
});

describe('billing reads', () => {
  it('serves the public pricing catalog without a credential', async () => {
    const answer = await call(t, 'GET', '/v1/billing/rates');
    expect(answer.status).toBe(200);
    conformsToContract('billing_rates_get', answer.body);
    expect(answer.body).toMatchObject({ object: 'pricing_catalog', version: '2026-11-01' });
    expect(answer.body.starterGrant).toEqual({
      object: 'starter_grant',
      planKey: 'sandbox_grant',
      billingState: 'sandbox_grant',
      calls: 1000,
      renewable: true,
      period: 'rolling_30_days',
      overflowPlanKey: 'payg',
      note: expect.any(String),
    });
    expect(answer.body.plans.map((p: { key: string }) => p.key)).toEqual(['sandbox_grant', 'personal', 'team', 'payg', 'enterprise']);
    expect(answer.body.meterRates).toContainEqual({ meterClass: 'data_read', description: expect.any(String), ratePer1000CallsCents: 200, currency: 'usd' });
    expect(answer.headers.get('service-meter-class')).toBeNull();
  });

  it('gives the processor config with exactly four properties, by the organization\'s billing mode', async () => {
    const test = await call(t, 'GET', '/v1/billing/processor-config', { key: acme.key });
    expect(test.status).toBe(200);
    conformsToContract('billing_processor_config_get', test.body);
    expect(Object.keys(test.body).sort()).toEqual(['livemode', 'object', 'publishableKey', 'requestId']);
    expect(test.body).toMatchObject({ object: 'processor_config', publishableKey: 'pk_test_51Example', livemode: false });

    const live = await orgWithKey(t);
    await t.service.services.prisma.organization.update({ where: { id: live.orgId }, data: { livemode: true } });
    const liveAnswer = await call(t, 'GET', '/v1/billing/processor-config', { key: live.key });
    expect(liveAnswer.body).toMatchObject({ publishableKey: 'pk_live_51Example', livemode: true });
  });

  it('says null when browser payments are not configured', async () => {
    const bare = await startTestService({ stripe: { prices: {} } });
    try {
      const org = await orgWithKey(bare);
      const answer = await call(bare, 'GET', '/v1/billing/processor-config', { key: org.key });
      expect(answer.body).toMatchObject({ publishableKey: null, livemode: false });
    } finally {
      await bare.close();
    }
  });
});

describe('the same data over GraphQL', () => {
  it('answers limits and keys like REST', async () => {
    const rest = await call(t, 'GET', '/v1/limits', { key: acme.key });
    const graphql = await call(t, 'POST', '/graphql', {
      key: acme.key,
      body: { query: '{ limits { orgId effectivePlanKey quotas { meterClass period limit allowed planKey billingState } } apiKeys(first: 5) { nodes { id hint } } }' },
    });
    expect(graphql.status).toBe(200);
    // resetsAt aside: a minute window may start again between the two requests
    expect(graphql.body.data.limits.quotas).toEqual(rest.body.quotas.map(({ resetsAt: _resetsAt, ...quota }: { resetsAt: string }) => quota));
    expect(graphql.body.data.apiKeys.nodes).toEqual([{ id: acme.keyId, hint: expect.stringMatching(/^idsk_…/) }]);
  });
});
