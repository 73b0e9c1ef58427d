// The Delivery family's canonical records (SPEC 6.6): events, webhook delivery attempts and stream
// records listed by cursor and exported as NDJSON or JSON through the real service, each
// organization seeing only its own; and the retention purge of events.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamExport } from '../../catalogue/export.ts';
import type { Route } from '../../catalogue/route.ts';
import type { Context } from '../../resolvers/context.ts';
import { recordEvent, recordEvents } from '../../subscriptions/events.ts';
import { purgeExpiredEvents } from '../../subscriptions/retention.ts';
import { newId } from '../../core/ids.ts';
import { call, expectEnvelope, orgWithKey, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let receiver: Server;
let receiverUrl: string;
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let other: Awaited<ReturnType<typeof orgWithKey>>;

beforeAll(async () => {
  t = await startTestService();
  receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  acme = await orgWithKey(t, 'Export Acme', 'team'); // its quota holds the many pages read here
  other = await orgWithKey(t, 'Export Other');
});
afterAll(async () => {
  await t?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Waits until every committed event of these organizations can be read (the log serves an event once older transactions have ended). */
async function settled(...orgIds: string[]) {
  const { prisma } = t.service.services;
  for (const deadline = Date.now() + 20_000; ; ) {
    const [row] = await prisma.$queryRaw<{ waiting: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM "Event" WHERE "orgId" = ANY(${orgIds}::text[]) AND "txid" >= (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint) AS "waiting"`;
    if (!row!.waiting) return;
    if (Date.now() > deadline) throw new Error('events did not become visible within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Many events of an organization at once, as an ingest writes them. */
async function emitMany(orgId: string, count: number, type = 'api_key.revoked') {
  const { prisma } = t.service.services;
  await prisma.$transaction((tx) => recordEvents(tx, Array.from({ length: count }, (_, i) => ({ type, orgId, payload: { apiKeyId: `key_${i}`, hint: `idsk_…${i}` } }))));
  await settled(orgId);
}

/** Every page of a list, following nextCursor. */
async function listAll(key: string, path: string, limit = 100) {
  const records: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; ; pages++) {
    const answer = await call(t, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.object).toBe('list');
    records.push(...answer.body.data);
    cursor = answer.body.nextCursor;
    expect(cursor !== null).toBe(answer.body.hasMore);
    if (!cursor) return records;
    if (pages > 1000) throw new Error('the list does not end');
  }
}

async function download(key: string, path: string) {
  const response = await fetch(`${t.url}${path}`, { headers: { 'x-api-key': key } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const ndjsonRecords = (text: string) => {
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
};
const ids = (records: { id: string }[]) => records.map((r) => r.id);

describe('GET /v1/delivery/events', () => {
  beforeAll(async () => {
    await emitMany(acme.orgId, 280);
    await emitMany(other.orgId, 30);
  });

  it('pages through every event of the organization once, oldest first, and only its own', async () => {
    const listed = await listAll(acme.key, '/v1/delivery/events');
    const { prisma } = t.service.services;
    const stored = await prisma.event.findMany({ where: { orgId: acme.orgId }, orderBy: [{ txid: 'asc' }, { seq: 'asc' }], select: { id: true } });
    expect(listed.length).toBeGreaterThan(280);
    expect(ids(listed)).toEqual(stored.map((e) => e.id));
    expect(listed.every((e) => e.object === 'event' && e.orgId === acme.orgId)).toBe(true);
    const theirs = await listAll(other.key, '/v1/delivery/events');
    expect(theirs.some((e) => e.orgId !== other.orgId)).toBe(false);
    expect(theirs.length).toBeGreaterThanOrEqual(30);
  });

  it('filters by type and by creation time [from, to)', async () => {
    const { prisma } = t.service.services;
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3600_000);
    const written = [];
    for (const hoursAgo of [3, 2, 1]) {
      written.push(await prisma.event.create({ data: { id: newId('evt'), type: 'webhook.test', orgId: acme.orgId, payload: { webhookEndpointId: 'we_x', message: 'm' }, createdAt: at(hoursAgo) } }));
    }
    await settled(acme.orgId);
    const typed = await listAll(acme.key, '/v1/delivery/events?type=webhook.test');
    expect(typed.every((e) => e.type === 'webhook.test')).toBe(true);
    expect(ids(typed)).toEqual(expect.arrayContaining(written.map((e) => e.id)));
    const window = await listAll(acme.key, `/v1/delivery/events?from=${at(2.5).toISOString()}&to=${at(1.5).toISOString()}`);
    expect(ids(window)).toEqual([written[1]!.id]);
    const from = await listAll(acme.key, `/v1/delivery/events?type=webhook.test&from=${at(2).toISOString()}`);
    expect(ids(from)).toEqual(expect.arrayContaining([written[1]!.id, written[2]!.id]));
    expect(ids(from)).not.toContain(written[0]!.id);
  });

  it('exports every event exactly once as NDJSON, the same records as the list, and as one JSON array', async () => {
    const listed = await listAll(acme.key, '/v1/delivery/events');
    const answer = await download(acme.key, '/v1/delivery/events/export');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="events-\d{4}-\d{2}-\d{2}\.ndjson"$/);
    expect(answer.headers.get('request-id')).toMatch(/^req_/);
    const lines = ndjsonRecords(answer.text);
    expect(lines.length).toBeGreaterThan(250);
    expect(new Set(ids(lines)).size).toBe(lines.length);
    expect(lines).toEqual(listed);

    const json = await download(acme.key, '/v1/delivery/events/export?format=json');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.headers.get('content-disposition')).toMatch(/filename="events-.*\.json"$/);
    expect(JSON.parse(json.text)).toEqual(lines);

    const filtered = ndjsonRecords((await download(acme.key, '/v1/delivery/events/export?type=webhook.test')).text);
    expect(filtered).toEqual(await listAll(acme.key, '/v1/delivery/events?type=webhook.test'));
  });

  it('exports only the organization\'s own events', async () => {
    const theirs = ndjsonRecords((await download(other.key, '/v1/delivery/events/export')).text);
    expect(theirs.length).toBeGreaterThanOrEqual(30);
    expect(theirs.every((e) => e.orgId === other.orgId)).toBe(true);
  });

  it('answers bad parameters with the error envelope before any byte of a download', async () => {
    const format = expectEnvelope(await call(t, 'GET', '/v1/delivery/events/export?format=xml', { key: acme.key }), 400, 'invalid_query_parameter');
    expect(format.details).toMatchObject({ parameter: 'format', acceptedValues: ['ndjson', 'json'] });
    for (const path of ['/v1/delivery/events', '/v1/delivery/events/export']) {
      expect(expectEnvelope(await call(t, 'GET', `${path}?from=yesterday`, { key: acme.key }), 400, 'invalid_request_parameter').details.parameter).toBe('from');
      expect(expectEnvelope(await call(t, 'GET', `${path}?to=2026-02-30T00:00:00Z`, { key: acme.key }), 400, 'invalid_request_parameter').details.parameter).toBe('to');
      expect(expectEnvelope(await call(t, 'GET', `${path}?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`, { key: acme.key }), 400, 'invalid_request_parameter').details.parameter).toBe('from');
      expect(expectEnvelope(await call(t, 'GET', `${path}?type=no.such.type`, { key: acme.key }), 400, 'invalid_query_parameter').details.parameter).toBe('type');
      expectEnvelope(await call(t, 'GET', path), 401, 'missing_api_key');
    }
    expect(expectEnvelope(await call(t, 'GET', '/v1/delivery/events?cursor=bm90IGEgY3Vyc29y', { key: acme.key }), 400, 'invalid_query_parameter').details.parameter).toBe('cursor');
    expect(expectEnvelope(await call(t, 'GET', '/v1/delivery/events/export?limit=5', { key: acme.key }), 400, 'invalid_query_parameter').details.parameter).toBe('limit');
  });
});

describe('GET /v1/delivery/webhook_deliveries', () => {
  let kept: string;
  let deleted: string;
  beforeAll(async () => {
    const endpoint = async () => (await call(t, 'POST', '/v1/webhook_endpoints', { key: acme.key, body: { url: receiverUrl, eventTypes: ['webhook.test'] } })).body.id as string;
    kept = await endpoint();
    deleted = await endpoint();
    for (const id of [kept, deleted, kept, deleted, kept]) expect((await call(t, 'POST', `/v1/webhook_endpoints/${id}/test`, { key: acme.key })).status).toBe(200);
    expect((await call(t, 'DELETE', `/v1/webhook_endpoints/${deleted}`, { key: acme.key })).status).toBe(200);
  });

  it('lists every attempt of the organization, a deleted endpoint\'s included, oldest first, and exports the same', async () => {
    const { prisma } = t.service.services;
    const listed = await listAll(acme.key, '/v1/delivery/webhook_deliveries', 2);
    const stored = await prisma.webhookDelivery.findMany({ where: { orgId: acme.orgId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } });
    expect(ids(listed)).toEqual(stored.map((d) => d.id));
    expect(new Set(listed.map((d) => d.webhookEndpointId))).toEqual(new Set([kept, deleted]));
    expect(listed.every((d) => d.object === 'webhook_delivery')).toBe(true);

    const ofDeleted = await listAll(acme.key, `/v1/delivery/webhook_deliveries?endpoint_id=${deleted}`);
    expect(ofDeleted.length).toBeGreaterThanOrEqual(2);
    expect(ofDeleted.every((d) => d.webhookEndpointId === deleted)).toBe(true);

    const exported = ndjsonRecords((await download(acme.key, '/v1/delivery/webhook_deliveries/export')).text);
    expect(ids(exported)).toEqual(ids(listed));
    const json = JSON.parse((await download(acme.key, `/v1/delivery/webhook_deliveries/export?format=json&endpoint_id=${kept}`)).text);
    expect(ids(json)).toEqual(ids(listed.filter((d) => d.webhookEndpointId === kept)));
  });

  it('filters by status', async () => {
    const all = await listAll(acme.key, '/v1/delivery/webhook_deliveries');
    for (const status of ['pending', 'succeeded', 'failed', 'retrying']) {
      const listed = await listAll(acme.key, `/v1/delivery/webhook_deliveries?status=${status}`);
      expect(listed.every((d) => d.status === status)).toBe(true);
    }
    expect(all.length).toBeGreaterThanOrEqual(5);
    expectEnvelope(await call(t, 'GET', '/v1/delivery/webhook_deliveries?status=lost', { key: acme.key }), 400, 'invalid_query_parameter');
  });

  it('keeps another organization\'s attempts out: its endpoint id is not found, its list is empty', async () => {
    for (const path of [`/v1/delivery/webhook_deliveries?endpoint_id=${kept}`, `/v1/delivery/webhook_deliveries/export?endpoint_id=${kept}`]) {
      expectEnvelope(await call(t, 'GET', path, { key: other.key }), 404, 'webhook_endpoint_not_found');
    }
    expect(await listAll(other.key, '/v1/delivery/webhook_deliveries')).toEqual([]);
    expect((await download(other.key, '/v1/delivery/webhook_deliveries/export?format=json')).text).toBe('[]');
    expect((await download(other.key, '/v1/delivery/webhook_deliveries/export')).text).toBe('');
  });
});

describe('GET /v1/delivery/stream_records', () => {
  let all: string;
  let tests: string;
  let gone: string;
  beforeAll(async () => {
    const create = async (eventTypes: string[]) => (await call(t, 'POST', '/v1/stream_subscriptions', { key: acme.key, body: { eventTypes } })).body.id as string;
    all = await create(['*']);
    tests = await create(['webhook.test']);
    gone = await create(['api_key.revoked']);
    const { prisma, bus } = t.service.services;
    for (let i = 0; i < 3; i++) {
      for (const type of ['webhook.test', 'api_key.revoked']) await bus.publish(await prisma.$transaction((tx) => recordEvent(tx, type, acme.orgId, { n: i })));
    }
    expect((await call(t, 'DELETE', `/v1/stream_subscriptions/${gone}`, { key: acme.key })).status).toBe(200);
    await emitMany(acme.orgId, 2); // after the deletion: not records of `gone`
    await settled(acme.orgId);
  });

  /** What polling the subscription from its creation reads. */
  async function polled(id: string) {
    const events: any[] = [];
    let cursor = '';
    for (;;) {
      const page = await call(t, 'GET', `/v1/stream_subscriptions/${id}/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key: acme.key });
      events.push(...page.body.data);
      cursor = page.body.nextCursor;
      if (!page.body.hasMore) return events;
    }
  }

  it('are the events each subscription reads, one record per event and subscription, in log order', async () => {
    for (const id of [all, tests]) {
      const records = await listAll(acme.key, `/v1/delivery/stream_records?subscription_id=${id}`);
      expect(records.every((r) => r.object === 'stream_record' && r.streamSubscriptionId === id)).toBe(true);
      expect(records.map((r) => r.event)).toEqual(await polled(id));
    }
    const ofGone = await listAll(acme.key, `/v1/delivery/stream_records?subscription_id=${gone}`);
    expect(ofGone.map((r) => r.event.type)).toEqual(['api_key.revoked', 'api_key.revoked', 'api_key.revoked']);

    const union = await listAll(acme.key, '/v1/delivery/stream_records');
    const key = (r: any) => `${r.event.id}/${r.streamSubscriptionId}`;
    expect(new Set(union.map(key)).size).toBe(union.length);
    for (const id of [all, tests, gone]) expect(union.filter((r) => r.streamSubscriptionId === id).length).toBeGreaterThan(0);
    // one page at a time, cut inside the records of one event, gives the same records
    expect((await listAll(acme.key, '/v1/delivery/stream_records', 1)).map(key)).toEqual(union.map(key));

    const exported = ndjsonRecords((await download(acme.key, '/v1/delivery/stream_records/export')).text);
    expect(exported).toEqual(union);
    expect(JSON.parse((await download(acme.key, `/v1/delivery/stream_records/export?format=json&subscription_id=${tests}`)).text)).toEqual(union.filter((r) => r.streamSubscriptionId === tests));
  });

  it('keeps another organization\'s records out: its subscription id is not found', async () => {
    for (const path of [`/v1/delivery/stream_records?subscription_id=${all}`, `/v1/delivery/stream_records/export?subscription_id=${all}`]) {
      expectEnvelope(await call(t, 'GET', path, { key: other.key }), 404, 'stream_subscription_not_found');
    }
    expect(await listAll(other.key, '/v1/delivery/stream_records')).toEqual([]);
  });
});

describe('an export', () => {
  /** A list route of `pages` pages that fails (or counts reads) as told, served by streamExport on a server of its own. */
  async function serve(pages: number, failAt?: number) {
    let reads = 0;
    const list = {
      path: '/v1/things',
      run: async (params: { query: { cursor?: string } }) => {
        reads++;
        const n = Number(params.query.cursor ?? 0);
        if (n === failAt) throw new Error('the database went away');
        const data = Array.from({ length: 100 }, (_, i) => ({ object: 'thing', n: n * 100 + i, pad: 'x'.repeat(1000) }));
        return { object: 'list', data, hasMore: n + 1 < pages, nextCursor: n + 1 < pages ? String(n + 1) : null };
      },
    } as unknown as Route;
    const errors: unknown[] = [];
    const ctx = { requestId: 'req_test', logger: { error: (o: unknown) => errors.push(o) } } as unknown as Context;
    const server = createServer((_req, res) => void streamExport(list, { path: {}, query: { format: 'ndjson' } }, ctx, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return {
      url,
      reads: () => reads,
      errors,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('that fails after its first byte is cut short, not completed, and the failure is logged', async () => {
    const s = await serve(5, 3);
    const response = await fetch(s.url);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(s.errors.length).toBe(1);
    await s.close();
  });

  it('stops reading when the client goes away', async () => {
    const s = await serve(10_000);
    const abort = new AbortController();
    const response = await fetch(s.url, { signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = s.reads();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(s.reads()).toBe(after);
    expect(after).toBeLessThan(10_000);
    await s.close();
  });
});

describe('event retention', () => {
  it('purges events older than 30 days, keeps newer ones and every delivery attempt', async () => {
    const { prisma } = t.service.services;
    const day = 86_400_000;
    const event = (daysAgo: number) =>
      prisma.event.create({ data: { id: newId('evt'), type: 'webhook.test', orgId: other.orgId, payload: {}, createdAt: new Date(Date.now() - daysAgo * day) } });
    const old = await event(31);
    const recent = await event(29);
    const endpoint = (await call(t, 'POST', '/v1/webhook_endpoints', { key: other.key, body: { url: receiverUrl, eventTypes: ['webhook.test'] } })).body.id as string;
    const delivery = await prisma.webhookDelivery.create({
      data: { id: newId('del'), endpointId: endpoint, orgId: other.orgId, eventId: old.id, eventType: old.type, attempt: 1, status: 'succeeded', nextAttemptAt: old.createdAt, createdAt: old.createdAt },
    });
    await purgeExpiredEvents(prisma);
    expect(await prisma.event.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await prisma.event.findUnique({ where: { id: recent.id } })).not.toBeNull();
    expect(await prisma.webhookDelivery.findUnique({ where: { id: delivery.id } })).not.toBeNull();
    expect(await prisma.event.count({ where: { orgId: other.orgId, createdAt: { lt: new Date(Date.now() - 30 * day) } } })).toBe(0);
    expect(ids(await listAll(other.key, `/v1/delivery/webhook_deliveries?endpoint_id=${endpoint}`))).toContain(delivery.id);
  });
});
