// Idempotency-Key on /v1 writes: a retry replays the first answer, per organization, for 24 hours;
// a key reused for another request, or still running, is refused; what did not start is not saved.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptMs, purgeIdempotencyRecords, staleClaimMs } from '../rest/idempotency.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const endpointBody = { url: 'http://127.0.0.1:9/x', eventTypes: ['*'] };
const withKey = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });
const record = (orgId: string, key: string) => t.service.services.prisma.idempotencyRecord.findUnique({ where: { orgId_key: { orgId, key } } });
const endpointCount = async (key: string) => (await call(t, 'GET', '/v1/webhook_endpoints?limit=100', { key })).body.data.length;
const ago = (ms: number) => new Date(Date.now() - ms);

describe('Idempotency-Key', () => {
  it('replays the first status and body for the same key and request, and creates one resource', async () => {
    const { key } = await orgWithKey(t);
    const idem = randomUUID();
    const first = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { eventTypes: ['*'], url: endpointBody.url }, headers: withKey(idem) });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body); // the same id, the same secret, the first requestId
    expect(again.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
    expect(await endpointCount(key)).toBe(1);
  });

  it('replays a new API key with its secret (shown to the same caller the first time)', async () => {
    const { orgId } = await orgWithKey(t);
    const token = await sessionToken(t, orgId);
    const idem = randomUUID();
    const first = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'ci' }, headers: withKey(idem) });
    expect(first.status).toBe(200);
    const again = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'ci' }, headers: withKey(idem) });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.secret).toBe(first.body.secret);
    const keys = (await call(t, 'GET', '/v1/api_keys', { token })).body.data;
    expect(keys.filter((k: { name: string }) => k.name === 'ci')).toHaveLength(1);
    // stored sealed: the secret is not in the database in clear
    expect(JSON.stringify(await record(orgId, idem))).not.toContain(first.body.secret);
  });

  it('refuses the same key with another request: 422 idempotency_key_reused', async () => {
    const { key } = await orgWithKey(t);
    const idem = randomUUID();
    expect((await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) })).status).toBe(200);
    const other = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { ...endpointBody, description: 'other' }, headers: withKey(idem) });
    expect(expectEnvelope(other, 422, 'idempotency_key_reused').details).toEqual({ parameter: 'Idempotency-Key' });
    const otherPath = await call(t, 'POST', '/v1/stream_subscriptions', { key, body: {}, headers: withKey(idem) });
    expectEnvelope(otherPath, 422, 'idempotency_key_reused');
    expect(await endpointCount(key)).toBe(1);
  });

  it('answers 409 idempotency_key_in_use with Retry-After while the first is still running', async () => {
    const { key, orgId } = await orgWithKey(t);
    const idem = randomUUID();
    const first = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) });
    await t.service.services.prisma.idempotencyRecord.update({ where: { orgId_key: { orgId, key: idem } }, data: { state: 'in_progress', status: null } });
    const busy = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) });
    const body = expectEnvelope(busy, 409, 'idempotency_key_in_use');
    expect(body.retryable).toBe(true);
    expect(busy.headers.get('retry-after')).toBe('1');
    // a claim left by an instance that died is taken over after 5 minutes: the request runs
    await t.service.services.prisma.idempotencyRecord.update({ where: { orgId_key: { orgId, key: idem } }, data: { createdAt: ago(staleClaimMs + 1000) } });
    const takenOver = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) });
    expect(takenOver.status).toBe(200);
    expect(takenOver.headers.get('idempotent-replayed')).toBeNull();
    expect(takenOver.body.id).not.toBe(first.body.id);
    expect((await record(orgId, idem))?.state).toBe('done');
  });

  it('runs two concurrent identical requests once: the other answer is a replay or 409', async () => {
    const { key } = await orgWithKey(t);
    const idem = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) })));
    const ran = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer === ran[0]) continue;
      if (answer.status === 409) expectEnvelope(answer, 409, 'idempotency_key_in_use');
      else expect(answer).toMatchObject({ status: 200, body: ran[0]!.body });
    }
    expect(await endpointCount(key)).toBe(1);
  });

  it('keeps keys per organization', async () => {
    const one = await orgWithKey(t);
    const two = await orgWithKey(t);
    const idem = randomUUID();
    const a = await call(t, 'POST', '/v1/webhook_endpoints', { key: one.key, body: endpointBody, headers: withKey(idem) });
    const b = await call(t, 'POST', '/v1/webhook_endpoints', { key: two.key, body: endpointBody, headers: withKey(idem) });
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    expect(await endpointCount(two.key)).toBe(1);
  });

  it('forgets a key after 24 hours, and the hourly purge deletes it', async () => {
    const { key, orgId } = await orgWithKey(t);
    const idem = randomUUID();
    const first = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) });
    await t.service.services.prisma.idempotencyRecord.update({ where: { orgId_key: { orgId, key: idem } }, data: { createdAt: ago(keptMs + 60_000) } });
    const later = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { ...endpointBody, description: 'a new request' }, headers: withKey(idem) });
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await endpointCount(key)).toBe(2);

    const old = randomUUID();
    await t.service.services.prisma.idempotencyRecord.create({ data: { orgId, key: old, fingerprint: 'x', state: 'done', status: 200, body: 'x', createdAt: ago(keptMs + 60_000) } });
    expect(await purgeIdempotencyRecords(t.service.services.prisma)).toBeGreaterThanOrEqual(1);
    expect(await record(orgId, old)).toBeNull();
    expect(await record(orgId, idem)).not.toBeNull();
  });

  it('saves nothing for a request whose params fail: a corrected retry with the same key runs', async () => {
    const { key, orgId } = await orgWithKey(t);
    const idem = randomUUID();
    const bad = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { ...endpointBody, colour: 'blue' }, headers: withKey(idem) });
    expectEnvelope(bad, 400, 'validation_error');
    expect(await record(orgId, idem)).toBeNull();
    const fixed = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) });
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('saves a 4xx the route answered, and replays it', async () => {
    const { key } = await orgWithKey(t);
    const idem = randomUUID();
    const path = '/v1/webhook_endpoints/we_000000000000000000000000';
    const first = await call(t, 'PATCH', path, { key, body: { description: 'x' }, headers: withKey(idem) });
    expectEnvelope(first, 404, 'webhook_endpoint_not_found');
    const again = await call(t, 'PATCH', path, { key, body: { description: 'x' }, headers: withKey(idem) });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('does not save a 429: the work did not start, so a retry after the window runs', async () => {
    const { key, orgId } = await orgWithKey(t);
    await t.service.services.prisma.orgQuota.create({ data: { orgId, meterClass: 'platform', period: 'day', limit: 1 } });
    expect((await call(t, 'GET', '/v1/me', { key })).status).toBe(200);
    const idem = randomUUID();
    const limited = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey(idem) });
    expectEnvelope(limited, 429, 'rate_limit_exceeded');
    expect(await record(orgId, idem)).toBeNull();
  });

  it('replays a DELETE', async () => {
    const { key } = await orgWithKey(t);
    const created = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody });
    const idem = randomUUID();
    const first = await call(t, 'DELETE', `/v1/webhook_endpoints/${created.body.id}`, { key, headers: withKey(idem) });
    expect(first.status).toBe(200);
    const again = await call(t, 'DELETE', `/v1/webhook_endpoints/${created.body.id}`, { key, headers: withKey(idem) });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('refuses a key over 255 characters or with control characters: 400 invalid_request_parameter', async () => {
    const { key } = await orgWithKey(t);
    const long = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey('k'.repeat(256)) });
    expect(expectEnvelope(long, 400, 'invalid_request_parameter').details).toEqual({ parameter: 'Idempotency-Key' });
    const tab = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey('a\tb') });
    expectEnvelope(tab, 400, 'invalid_request_parameter');
    expect(await endpointCount(key)).toBe(0);
    expect((await call(t, 'POST', '/v1/webhook_endpoints', { key, body: endpointBody, headers: withKey('k'.repeat(255)) })).status).toBe(200);
  });

  it('is ignored on reads', async () => {
    const { key } = await orgWithKey(t);
    const answer = await call(t, 'GET', '/v1/webhook_endpoints', { key, headers: withKey('k'.repeat(300)) });
    expect(answer.status).toBe(200);
  });

  it('lets browsers send the key and read the replay header', async () => {
    const cors = await startTestService({ corsOrigins: ['https://app.example'] });
    try {
      const preflight = await fetch(`${cors.url}/v1/webhook_endpoints`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
      expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
      const answer = await call(cors, 'GET', '/v1/me', { headers: { origin: 'https://app.example' } });
      expect(answer.headers.get('access-control-expose-headers')).toContain('idempotent-replayed');
    } finally {
      await cors.close();
    }
  });
});
