// Webhook endpoints end to end: a real receiver on this machine verifies every delivery with the
// standardwebhooks package, as any customer's would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../subscriptions/events.ts';
import { call, eventually, expectEnvelope, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';

let t: TestService;
let receiver: WebhookReceiver;
let key: string;
let orgId: string;

beforeAll(async () => {
  t = await startTestService();
  ({ key, orgId } = await orgWithKey(t));
  receiver = new WebhookReceiver();
  await receiver.start();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function createEndpoint(eventTypes: string[] = ['*'], url = receiver.url) {
  const created = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { url, description: 'test receiver', eventTypes } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body as { id: string; secret: string; status: string };
}

async function deliveries(endpointId: string) {
  const answer = await call(t, 'GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`, { key });
  expect(answer.status).toBe(200);
  return answer.body.data as Array<{ id: string; eventId: string; attempt: number; status: string; responseStatus: number | null; replayOf: string | null }>;
}

/** An event of the organization, written as its cause would write it. */
async function emit(type = 'api_key.revoked') {
  const { prisma, bus } = t.service.services;
  const event = await prisma.$transaction((tx) => recordEvent(tx, type, orgId, { apiKeyId: 'key_x', hint: 'idsk_…abcd' }));
  await bus.publish(event);
  return event;
}

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret shown once, and the catalog lists the event types', async () => {
    const endpoint = await createEndpoint();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await call(t, 'GET', '/v1/webhook_endpoints', { key });
    const mine = listed.body.data.find((e: { id: string }) => e.id === endpoint.id);
    expect(mine).toMatchObject({ object: 'webhook_endpoint', status: 'enabled', eventTypes: ['*'] });
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);
    const stored = await t.service.services.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(stored.secretSealed).not.toContain(endpoint.secret.slice(6, 30)); // sealed, not stored as given

    const catalog = await call(t, 'GET', '/v1/event_types', { key });
    const types = catalog.body.data.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['filing.added', 'webhook.test', 'webhook_endpoint.disabled', 'delivery.exhausted', 'stream_subscription.created', 'stream_subscription.updated', 'stream_subscription.deleted']));
    expect(catalog.body.data.find((e: { type: string }) => e.type === 'delivery.exhausted').dataSchema).toMatchObject({ type: 'object', properties: { attempts: { type: 'integer' } } });
    await call(t, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key });
  });

  it('delivers an event signed per Standard Webhooks, and a receiver that is down for a while gets it later with the same webhook-id', async () => {
    const endpoint = await createEndpoint(['api_key.revoked']);
    receiver.secrets = [endpoint.secret];
    receiver.script = [503, 500]; // down for two attempts
    const event = await emit();
    const got = await eventually('a verified delivery', () => {
      const mine = receiver.received.filter((r) => r.id === event.id);
      return mine.length >= 3 ? mine : undefined;
    });
    expect(got.map((r) => r.verifiedWith.length)).toEqual([1, 1, 1]);
    expect(got[2]!.body).toMatchObject({ id: event.id, type: 'api_key.revoked', data: { apiKeyId: 'key_x' } });
    const attempts = await eventually('three recorded attempts', async () => {
      const list = await deliveries(endpoint.id);
      return list.filter((d) => d.eventId === event.id && d.status !== 'pending').length === 3 ? list : undefined;
    });
    expect(attempts.filter((d) => d.eventId === event.id).map((d) => [d.attempt, d.status, d.responseStatus])).toEqual([
      [3, 'succeeded', 200],
      [2, 'retrying', 500],
      [1, 'retrying', 503],
    ]);
    await call(t, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key });
  });

  it('sends webhook.test on request, replays a stored attempt with the same webhook-id, and rotation signs with both secrets', async () => {
    const endpoint = await createEndpoint(['api_key.created']);
    receiver.secrets = [endpoint.secret];
    const test = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/test`, { key });
    expect(test.body).toMatchObject({ object: 'webhook_delivery', eventType: 'webhook.test', attempt: 1, status: 'pending' });
    const first = await eventually('the test event', () => receiver.received.find((r) => r.id === test.body.eventId));
    expect(first.body).toMatchObject({ type: 'webhook.test', data: { webhookEndpointId: endpoint.id } });
    expect(first.verifiedWith).toEqual([endpoint.secret]);

    const rotated = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { key });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.secretRotatedUntil).not.toBeNull();
    receiver.secrets = [endpoint.secret, rotated.body.secret];

    const replay = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${test.body.id}/replay`, { key });
    expect(replay.body).toMatchObject({ eventId: test.body.eventId, replayOf: test.body.id, attempt: 1 });
    const again = await eventually('the replay', () => receiver.received.filter((r) => r.id === test.body.eventId)[1]);
    expect(again.signature.split(' ')).toHaveLength(2); // old and new secret, during the overlap
    expect(again.verifiedWith).toEqual([endpoint.secret, rotated.body.secret]);
    await call(t, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key });
  });

  it('a 410 disables the endpoint with webhook_endpoint.disabled, and a disabled endpoint receives nothing', async () => {
    const endpoint = await createEndpoint(['api_key.revoked']);
    receiver.secrets = [endpoint.secret];
    receiver.script = [410];
    const event = await emit();
    const disabled = await eventually('the endpoint disabled', async () => {
      const answer = await call(t, 'GET', '/v1/webhook_endpoints?limit=100', { key });
      const found = answer.body.data.find((e: { id: string }) => e.id === endpoint.id);
      return found.status === 'disabled' ? found : undefined;
    });
    expect(disabled.disabledReason).toBe('gone');
    const logged = await t.service.services.prisma.event.findFirst({ where: { orgId, type: 'webhook_endpoint.disabled' }, orderBy: { seq: 'desc' } });
    expect(logged?.payload).toMatchObject({ webhookEndpointId: endpoint.id, reason: 'gone' });

    const before = receiver.received.length;
    await emit();
    await t.service.webhookWorker!.drain();
    expect(receiver.received.length).toBe(before);
    expect(receiver.received.filter((r) => r.id === event.id)).toHaveLength(1);

    const enabled = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/enable`, { key });
    expect(enabled.body).toMatchObject({ status: 'enabled', disabledReason: null });
    await call(t, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key });
  });

  it('PATCH changes description, event types and status; DELETE keeps the deliveries and is idempotent', async () => {
    const endpoint = await createEndpoint(['api_key.created']);
    const patched = await call(t, 'PATCH', `/v1/webhook_endpoints/${endpoint.id}`, { key, body: { description: 'renamed', eventTypes: ['api_key.revoked', 'api_key.created'], status: 'disabled' } });
    expect(patched.body).toMatchObject({ description: 'renamed', eventTypes: ['api_key.revoked', 'api_key.created'], status: 'disabled', disabledReason: 'requested' });
    const deleted = await call(t, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key });
    expect(deleted.body).toMatchObject({ id: endpoint.id, deleted: true });
    expect((await call(t, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { key })).status).toBe(200);
    expectEnvelope(await call(t, 'PATCH', `/v1/webhook_endpoints/${endpoint.id}`, { key, body: { description: 'x' } }), 404, 'webhook_endpoint_not_found');
  });

  it('refuses URLs that reach private, loopback or metadata addresses, and plain http, naming the field', async () => {
    const guarded = await startTestService({ webhooks: { ...t.service.services.config.webhooks, allowedHosts: [] } });
    try {
      const { key: guardedKey, orgId: guardedOrg } = await orgWithKey(guarded);
      for (const url of ['http://127.0.0.1:9/x', 'https://127.0.0.1/x', 'https://[::1]/x', 'https://169.254.169.254/latest/meta-data', 'https://10.0.0.1/x', 'https://[::ffff:127.0.0.1]/x', 'https://100.64.0.1/x', 'https://198.18.0.1/x', 'https://192.0.0.170/x', 'https://240.0.0.1/x', 'https://[::ffff:0:7f00:1]/x', 'https://[2002:7f00:1::1]/x', 'https://[64:ff9b::a9fe:a9fe]/x', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x', 'https://user:pw@example.com/x', 'ftp://example.com/x']) {
        const answer = await call(guarded, 'POST', '/v1/webhook_endpoints', { key: guardedKey, body: { url } });
        expectEnvelope(answer, 400, 'validation_error');
        expect(answer.body.details.issues[0].path, url).toBe('url');
      }
      expect(await guarded.service.services.prisma.webhookEndpoint.count({ where: { orgId: guardedOrg } })).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it('an unknown event type is a validation error and writes nothing', async () => {
    const before = await t.service.services.prisma.webhookEndpoint.count({ where: { orgId } });
    const answer = await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { url: receiver.url, eventTypes: ['filing.deleted'] } });
    expectEnvelope(answer, 400, 'validation_error');
    expect(await t.service.services.prisma.webhookEndpoint.count({ where: { orgId } })).toBe(before);
  });

  it('another organization\'s endpoints and deliveries are 404 on every route', async () => {
    const endpoint = await createEndpoint(['api_key.created']);
    const test = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/test`, { key });
    const other = await orgWithKey(t);
    const id = endpoint.id;
    const routes: Array<[string, string, unknown?]> = [
      ['PATCH', `/v1/webhook_endpoints/${id}`, { description: 'mine now' }],
      ['DELETE', `/v1/webhook_endpoints/${id}`],
      ['GET', `/v1/webhook_endpoints/${id}/deliveries`],
      ['POST', `/v1/webhook_endpoints/${id}/deliveries/${test.body.id}/replay`],
      ['POST', `/v1/webhook_endpoints/${id}/disable`],
      ['POST', `/v1/webhook_endpoints/${id}/enable`],
      ['POST', `/v1/webhook_endpoints/${id}/rotate_secret`],
      ['POST', `/v1/webhook_endpoints/${id}/test`],
    ];
    for (const [method, path, body] of routes) expectEnvelope(await call(t, method as 'GET', path, { key: other.key, body }), 404, 'webhook_endpoint_not_found');
    const theirs = await call(t, 'GET', '/v1/webhook_endpoints', { key: other.key });
    expect(theirs.body.data).toEqual([]);
    // and nothing changed
    expect(await t.service.services.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'enabled', deletedAt: null, description: 'test receiver' });
    await call(t, 'DELETE', `/v1/webhook_endpoints/${id}`, { key });
  });

  it('after the last of 10 failed attempts emits delivery.exhausted; an endpoint failing for 5 days is disabled', async () => {
    // The whole 3-day schedule, run 100,000 times faster, in a database of its own: the instance
    // that makes an attempt schedules the next, and other suites' instances keep other schedules.
    const database = await scratchDatabase();
    const fast = await startTestService({ database: database.target, webhooks: { ...t.service.services.config.webhooks, retryScale: 0.00001 } });
    const failing = new WebhookReceiver();
    await failing.start();
    try {
      const own = await orgWithKey(fast);
      failing.script = Array(10).fill(500);
      const created = await call(fast, 'POST', '/v1/webhook_endpoints', { key: own.key, body: { url: failing.url, eventTypes: ['webhook.test'] } });
      const test = await call(fast, 'POST', `/v1/webhook_endpoints/${created.body.id}/test`, { key: own.key });
      const exhausted = await eventually('delivery.exhausted', async () => (await fast.service.services.prisma.event.findFirst({ where: { orgId: own.orgId, type: 'delivery.exhausted' } })) ?? undefined, 20_000);
      expect(exhausted.payload).toMatchObject({ webhookEndpointId: created.body.id, eventId: test.body.eventId, eventType: 'webhook.test', attempts: 10 });
      expect(failing.received.map((r) => r.id)).toEqual(Array(10).fill(test.body.eventId));
      const attempts = (await call(fast, 'GET', `/v1/webhook_endpoints/${created.body.id}/deliveries?limit=100`, { key: own.key })).body.data;
      expect(attempts.map((d: { attempt: number; status: string }) => `${d.attempt}:${d.status}`)).toEqual(['10:failed', ...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => `${n}:retrying`)]);

      // No success since six days ago: the next failure disables the endpoint.
      await fast.service.services.prisma.webhookEndpoint.update({ where: { id: created.body.id }, data: { failingSince: new Date(Date.now() - 6 * 86_400_000) } });
      failing.script = [500];
      await call(fast, 'POST', `/v1/webhook_endpoints/${created.body.id}/test`, { key: own.key });
      const disabled = await eventually('the endpoint disabled as failing', async () => {
        const list = (await call(fast, 'GET', '/v1/webhook_endpoints', { key: own.key })).body.data;
        return list.find((e: { id: string; status: string }) => e.id === created.body.id && e.status === 'disabled');
      });
      expect(disabled.disabledReason).toBe('failing');
    } finally {
      await fast.close();
      await failing.close();
      await database.drop();
    }
  });
});
