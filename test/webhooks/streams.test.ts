// Stream subscriptions end to end through the real service: the REST routes of SPEC 4.8, polling
// and replay by cursor, filters on public data events, and the live graphql-ws stream with its
// browser tickets.
import { randomInt } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { recordEvent } from '../../subscriptions/events.ts';
import { call, expectEnvelope, orgWithKey, startTestService, type TestService } from '../harness.ts';

let t: TestService;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTestService();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});
afterAll(() => t?.close());

interface Sub {
  id: string;
  status: string;
  eventTypes: string[];
  filters: { tickers: string[]; ciks: string[]; forms: string[] };
}

async function create(key: string, body: Record<string, unknown>): Promise<Sub> {
  const answer = await call(t, 'POST', '/v1/stream_subscriptions', { key, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/**
 * Waits until the committed events of an organization (or the given ones) can be read: the log
 * serves an event once every transaction older than its own has ended, and on a shared database
 * server another suite's transaction can hold that back for a while.
 */
async function settled(orgId: string | null, ids: string[] = []) {
  const { prisma } = t.service.services;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [row] = await prisma.$queryRaw<{ waiting: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM "Event" WHERE ("orgId" = ${orgId} OR "id" = ANY(${ids}::text[]))
        AND "txid" >= (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint) AS "waiting"`;
    if (!row!.waiting) return;
    if (Date.now() > deadline) throw new Error('events did not become visible within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An event of the organization, written as its cause would write it, and announced on the bus. */
async function emit(orgId: string, type = 'api_key.revoked', hint = 'idsk_…abcd') {
  const { prisma, bus } = t.service.services;
  const event = await prisma.$transaction((tx) => recordEvent(tx, type, orgId, { apiKeyId: 'key_x', hint }));
  await bus.publish(event);
  await settled(null, [event.id]);
  return event.id;
}

async function filing(cik: string, form: string, tickers: string[]) {
  const { prisma, bus } = t.service.services;
  const accessionNumber = `${cik}-26-${String(randomInt(1e6)).padStart(6, '0')}`;
  const event = await prisma.$transaction((tx) => recordEvent(tx, 'filing.added', null, { accessionNumber, cik, form, filedAt: '2026-11-20', tickers }));
  await bus.publish(event);
  await settled(null, [event.id]);
  return event.id;
}

async function page(key: string, id: string, query = '') {
  const answer = await call(t, 'GET', `/v1/stream_subscriptions/${id}/events${query ? `?${query}` : ''}`, { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { object: 'list'; data: Array<{ object: string; id: string; type: string; orgId: string | null; data: any }>; hasMore: boolean; nextCursor: string };
}

/** Every event from a start (query) on, page by page; also the pages as read. */
async function readAll(key: string, id: string, limit: number, start = '') {
  const pages: Awaited<ReturnType<typeof page>>[] = [];
  let query = `limit=${limit}${start ? `&${start}` : ''}`;
  for (let i = 0; i < 200; i++) {
    const p = await page(key, id, query);
    pages.push(p);
    if (!p.hasMore) break;
    query = `limit=${limit}&cursor=${p.nextCursor}`;
  }
  return { ids: pages.flatMap((p) => p.data.map((e) => e.id)), events: pages.flatMap((p) => p.data), pages, last: pages.at(-1)! };
}

const uniqueCik = () => String(randomInt(1e9, 1e10 - 1)).padStart(10, '0');
const uniqueTicker = () => `Q${Array.from({ length: 4 }, () => String.fromCharCode(65 + randomInt(26))).join('')}`;

describe('stream subscriptions', () => {
  it('create, list, PATCH, disable, enable and DELETE, each recorded as a stream_subscription.* event', async () => {
    const { key, orgId } = await orgWithKey(t);
    const watcher = await create(key, { eventTypes: ['stream_subscription.created', 'stream_subscription.updated', 'stream_subscription.deleted'] });
    const sub = await create(key, { description: 'filings of two companies', eventTypes: ['api_key.created', 'filing.added'], filters: { tickers: ['brk.b', 'aapl'], ciks: ['320193'], forms: ['10-k'] }, transport: 'graphql_ws' });
    expect(sub).toMatchObject({
      object: 'stream_subscription',
      id: expect.stringMatching(/^ss_[0-9A-Za-z]{24}$/),
      description: 'filings of two companies',
      eventTypes: ['api_key.created', 'filing.added'],
      filters: { tickers: ['BRK-B', 'AAPL'], ciks: ['0000320193'], forms: ['10-K'] },
      transport: 'graphql_ws',
      status: 'enabled',
      requestId: expect.stringMatching(/^req_/),
    });

    const listed = await call(t, 'GET', '/v1/stream_subscriptions', { key });
    expect(listed.body.data.map((s: Sub) => s.id)).toEqual([sub.id, watcher.id]); // newest first

    const patched = await call(t, 'PATCH', `/v1/stream_subscriptions/${sub.id}`, { key, body: { description: 'renamed', filters: { tickers: [] }, transport: 'poll' } });
    expect(patched.body).toMatchObject({ description: 'renamed', filters: { tickers: [], ciks: ['0000320193'], forms: ['10-K'] }, transport: 'poll', status: 'enabled' });
    const unchanged = await call(t, 'PATCH', `/v1/stream_subscriptions/${sub.id}`, { key, body: { description: 'renamed' } });
    expect(unchanged.status).toBe(200); // changes nothing, records nothing

    const disabled = await call(t, 'POST', `/v1/stream_subscriptions/${sub.id}/disable`, { key });
    expect(disabled.body.status).toBe('disabled');
    expectEnvelope(await call(t, 'GET', `/v1/stream_subscriptions/${sub.id}/events`, { key }), 409, 'stream_subscription_disabled');
    expectEnvelope(await call(t, 'POST', `/v1/stream_subscriptions/${sub.id}/tickets`, { key }), 409, 'stream_subscription_disabled');
    expect((await call(t, 'POST', `/v1/stream_subscriptions/${sub.id}/enable`, { key })).body.status).toBe('enabled');
    expect((await call(t, 'PATCH', `/v1/stream_subscriptions/${sub.id}`, { key, body: { status: 'disabled' } })).body.status).toBe('disabled');

    const deleted = await call(t, 'DELETE', `/v1/stream_subscriptions/${sub.id}`, { key });
    expect(deleted.body).toMatchObject({ id: sub.id, status: 'deleted', deleted: true });
    for (const [method, path] of [
      ['DELETE', `/v1/stream_subscriptions/${sub.id}`],
      ['PATCH', `/v1/stream_subscriptions/${sub.id}`],
      ['POST', `/v1/stream_subscriptions/${sub.id}/enable`],
      ['GET', `/v1/stream_subscriptions/${sub.id}/events`],
    ] as const) {
      expectEnvelope(await call(t, method, path, { key, body: method === 'PATCH' ? { description: 'x' } : undefined }), 404, 'stream_subscription_not_found');
    }
    expect((await call(t, 'GET', '/v1/stream_subscriptions', { key })).body.data.map((s: Sub) => s.id)).toEqual([watcher.id]);
    // the record is kept
    expect(await t.service.services.prisma.streamSubscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ status: 'deleted', deletedAt: expect.any(Date) });

    await settled(orgId);
    // The watcher read every change, in order, itself first (its own creation), each with the request that made it.
    const { events } = await readAll(key, watcher.id, 100);
    expect(events.map((e) => [e.type, e.data.streamSubscriptionId, e.data.status])).toEqual([
      ['stream_subscription.created', watcher.id, 'enabled'],
      ['stream_subscription.created', sub.id, 'enabled'],
      ['stream_subscription.updated', sub.id, 'enabled'],
      ['stream_subscription.updated', sub.id, 'disabled'],
      ['stream_subscription.updated', sub.id, 'enabled'],
      ['stream_subscription.updated', sub.id, 'disabled'],
      ['stream_subscription.deleted', sub.id, 'deleted'],
    ]);
    expect(events[1]).toMatchObject({ object: 'event', orgId, requestId: expect.stringMatching(/^req_/), data: { eventTypes: ['api_key.created', 'filing.added'] } });
  });

  it('refuses unknown event types, filters without a public type to filter, and bad filter values', async () => {
    const { key } = await orgWithKey(t);
    for (const body of [{ eventTypes: ['filing.deleted'] }, { eventTypes: ['api_key.created'], filters: { forms: ['10-K'] } }, { eventTypes: ['filing.added'], filters: { ciks: ['12345678901'] } }, { eventTypes: [] }, { transport: 'email' }]) {
      const answer = await call(t, 'POST', '/v1/stream_subscriptions', { key, body });
      expectEnvelope(answer, 400, 'validation_error');
    }
    expect((await call(t, 'GET', '/v1/stream_subscriptions', { key })).body.data).toEqual([]);
  });

  it('polls its events oldest first page by page, and replaying any cursor returns exactly the same events', async () => {
    const { key, orgId } = await orgWithKey(t);
    const before = await emit(orgId); // before the subscription: not read without from=earliest
    const sub = await create(key, { eventTypes: ['api_key.revoked'] });
    const emitted: string[] = [];
    for (let i = 0; i < 7; i++) {
      emitted.push(await emit(orgId, 'api_key.revoked', `idsk_…${i}`));
      if (i % 3 === 0) await emit(orgId, 'api_key.created'); // another type: not read
    }
    const first = await readAll(key, sub.id, 3);
    expect(first.pages.map((p) => [p.data.length, p.hasMore])).toEqual([
      [3, true],
      [3, true],
      [1, false],
    ]);
    expect(first.ids).toEqual(emitted);
    expect(first.events[0]).toMatchObject({ object: 'event', type: 'api_key.revoked', orgId, data: { hint: 'idsk_…0' } });

    // replay from the start and from a saved cursor: the same events, in the same order, on the same pages
    const again = await readAll(key, sub.id, 3);
    expect(again.pages.map((p) => p.data)).toEqual(first.pages.map((p) => p.data));
    const saved = first.pages[0]!.nextCursor;
    for (let i = 0; i < 2; i++) expect((await readAll(key, sub.id, 3, `cursor=${saved}`)).ids).toEqual(emitted.slice(3));

    // at the end the cursor polls for what comes next
    const later = await emit(orgId);
    const polled = await page(key, sub.id, `cursor=${first.last.nextCursor}`);
    expect(polled.data.map((e) => e.id)).toEqual([later]);
    expect(polled.hasMore).toBe(false);
    const quiet = await page(key, sub.id, `cursor=${polled.nextCursor}`);
    expect(quiet.data).toEqual([]);

    // from=earliest starts at the oldest event kept, so it has the one before the subscription too
    const earliest = await readAll(key, sub.id, 100, 'from=earliest');
    expect(earliest.ids).toEqual([before, ...emitted, later]);
    expectEnvelope(await call(t, 'GET', `/v1/stream_subscriptions/${sub.id}/events?from=earliest&cursor=${saved}`, { key }), 400, 'invalid_query_parameter');
  });

  it('refuses a cursor of another subscription, a malformed one and one older than the retention period', async () => {
    const { key, orgId } = await orgWithKey(t);
    const mine = await create(key, { eventTypes: ['api_key.revoked'] });
    const other = await create(key, { eventTypes: ['api_key.revoked'] });
    await emit(orgId);
    const theirs = (await page(key, other.id)).nextCursor;
    const record = JSON.parse(Buffer.from((await page(key, mine.id)).nextCursor, 'base64url').toString());
    const stale = Buffer.from(JSON.stringify({ ...record, a: Date.now() - 31 * 86_400_000 })).toString('base64url');
    const fresh = Buffer.from(JSON.stringify({ ...record, a: Date.now() - 29 * 86_400_000 })).toString('base64url');
    for (const cursor of [theirs, stale, 'Zm9v', 'not a cursor!', Buffer.from('{"v":1}').toString('base64url')]) {
      const answer = await call(t, 'GET', `/v1/stream_subscriptions/${mine.id}/events?cursor=${encodeURIComponent(cursor)}`, { key });
      expect(expectEnvelope(answer, 400, 'invalid_query_parameter').details.parameter).toBe('cursor');
    }
    expect((await call(t, 'GET', `/v1/stream_subscriptions/${mine.id}/events?cursor=${fresh}`, { key })).status).toBe(200);
  });

  it('reads public filing.added events only when named, and only those that pass its filters, on stable pages', async () => {
    const { key, orgId } = await orgWithKey(t);
    const [cikA, cikB] = [uniqueCik(), uniqueCik()];
    const [tickerA, tickerB] = [uniqueTicker(), uniqueTicker()];
    const byCikAndForm = await create(key, { eventTypes: ['filing.added'], filters: { ciks: [cikA.replace(/^0+/, '')], forms: ['10-K'] } });
    const byTicker = await create(key, { eventTypes: ['api_key.revoked', 'filing.added'], filters: { tickers: [tickerB] } });
    const everything = await create(key, { eventTypes: ['*'] }); // `*`: own events only, never public data events

    const a10k = await filing(cikA, '10-K', [tickerA]);
    const a8k = await filing(cikA, '8-K', [tickerA]);
    const b10k = await filing(cikB, '10-K', [tickerB]);
    const own = await emit(orgId);
    const a10k2 = await filing(cikA, '10-K', [tickerA, tickerB]);
    const a10ka = await filing(cikA, '10-K/A', [tickerA]);

    expect((await readAll(key, byCikAndForm.id, 100)).ids).toEqual([a10k, a10k2]);
    const tickerRead = await readAll(key, byTicker.id, 100);
    expect(tickerRead.ids).toEqual([b10k, own, a10k2]); // own events are not filtered
    expect(tickerRead.events[0]).toMatchObject({ type: 'filing.added', orgId: null, data: { cik: cikB, form: '10-K', tickers: [tickerB] } });
    expect((await readAll(key, everything.id, 100)).ids).not.toContain(a10k);
    expect((await readAll(key, everything.id, 100)).ids).toContain(own);
    // one at a time, filtered events in between: the same events, and the same again on replay
    const single = await readAll(key, byTicker.id, 1);
    expect(single.ids).toEqual(tickerRead.ids);
    const replay = await readAll(key, byTicker.id, 1);
    expect(replay.pages.map((p) => p.data)).toEqual(single.pages.map((p) => p.data));
    expect(replay.pages.slice(0, -1).map((p) => p.nextCursor)).toEqual(single.pages.slice(0, -1).map((p) => p.nextCursor));
    expect([a8k, a10ka].filter((id) => single.ids.includes(id) || tickerRead.ids.includes(id))).toEqual([]);
  });

  it('another organization\'s subscriptions are 404 on every route, and left as they were', async () => {
    const owner = await orgWithKey(t);
    const sub = await create(owner.key, { description: 'mine', eventTypes: ['api_key.revoked'] });
    const other = await orgWithKey(t);
    const id = sub.id;
    const routes: Array<[string, string, unknown?]> = [
      ['PATCH', `/v1/stream_subscriptions/${id}`, { description: 'theirs now' }],
      ['DELETE', `/v1/stream_subscriptions/${id}`],
      ['POST', `/v1/stream_subscriptions/${id}/disable`],
      ['POST', `/v1/stream_subscriptions/${id}/enable`],
      ['GET', `/v1/stream_subscriptions/${id}/events`],
      ['POST', `/v1/stream_subscriptions/${id}/tickets`],
    ];
    for (const [method, path, body] of routes) expectEnvelope(await call(t, method, path, { key: other.key, body }), 404, 'stream_subscription_not_found');
    expect((await call(t, 'GET', '/v1/stream_subscriptions', { key: other.key })).body.data).toEqual([]);
    const feed = collect(connect({ 'x-api-key': other.key }), { subscriptionId: id });
    await feed.next(1);
    expect(feed.errorCode()).toBe('stream_subscription_not_found');
    expect(await t.service.services.prisma.streamSubscription.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'enabled', deletedAt: null, description: 'mine' });
    expect(await t.service.services.prisma.event.count({ where: { orgId: other.orgId, type: { startsWith: 'stream_subscription.' } } })).toBe(0);
  });
});

function connect(connectionParams: Record<string, string> = {}) {
  const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: false });
  clients.push(client);
  return client;
}

const streamEvents = `subscription ($subscriptionId: String!, $cursor: String, $ticket: String) {
  streamEvents(subscriptionId: $subscriptionId, cursor: $cursor, ticket: $ticket) { id type orgId data cursor }
}`;

/** Collects what a stream delivers; `next(n)` waits (bounded) until n have arrived, it fails or it completes. */
function collect(client: Client, variables: Record<string, string>) {
  const received: any[] = [];
  const waiters: (() => void)[] = [];
  let failure: unknown;
  let completed = false;
  const notify = () => waiters.splice(0).forEach((w) => w());
  const unsubscribe = client.subscribe(
    { query: streamEvents, variables },
    {
      next: (value) => {
        received.push(value);
        notify();
      },
      error: (error) => {
        failure = error;
        notify();
      },
      complete: () => {
        completed = true;
        notify();
      },
    },
  );
  return {
    unsubscribe,
    get completed() {
      return completed;
    },
    /** the events delivered so far */
    get events() {
      return received.filter((r) => r.data?.streamEvents).map((r) => r.data.streamEvents as { id: string; type: string; cursor: string });
    },
    errorCode(): string | undefined {
      const errors = (failure as { extensions?: { code?: string } }[] | undefined) ?? received.find((r) => r.errors)?.errors;
      return errors?.[0]?.extensions?.code;
    },
    async next(count: number, withinMs = 8000) {
      const deadline = Date.now() + withinMs;
      while (received.length < count && !failure && !completed && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return this.events;
    },
  };
}

describe('streamEvents over graphql-ws', () => {
  it('catches up from a cursor, then delivers live, and resumes from an event\'s cursor without a gap or a duplicate', async () => {
    const { key, orgId } = await orgWithKey(t);
    const sub = await create(key, { eventTypes: ['api_key.revoked'], transport: 'graphql_ws' });
    const emitted = [await emit(orgId), await emit(orgId), await emit(orgId)];
    const saved = (await page(key, sub.id, 'limit=2')).nextCursor;

    const live = collect(connect({ 'x-api-key': key }), { subscriptionId: sub.id, cursor: saved });
    expect((await live.next(1)).map((e) => e.id)).toEqual([emitted[2]]); // caught up
    emitted.push(await emit(orgId));
    await emit(orgId, 'api_key.created'); // not its type
    emitted.push(await emit(orgId));
    const got = await live.next(3);
    expect(got.map((e) => e.id)).toEqual(emitted.slice(2));
    expect(got[1]).toMatchObject({ type: 'api_key.revoked', orgId, data: { apiKeyId: 'key_x' } });
    const resumeAt = got[1]!.cursor; // after emitted[3]
    live.unsubscribe();

    emitted.push(await emit(orgId), await emit(orgId)); // while nobody listens
    const resumed = collect(connect({ 'x-api-key': key }), { subscriptionId: sub.id, cursor: resumeAt });
    expect((await resumed.next(3)).map((e) => e.id)).toEqual(emitted.slice(4));
    // the same events as polling reads, in the same order
    expect((await readAll(key, sub.id, 100)).ids).toEqual(emitted);

    // disabling ends the stream
    await call(t, 'POST', `/v1/stream_subscriptions/${sub.id}/disable`, { key });
    await resumed.next(99, 5000);
    expect(resumed.completed).toBe(true);
  });

  it('delivers an event announced before its transaction committed, once it is visible, soon and exactly once', async () => {
    const { key, orgId } = await orgWithKey(t);
    const sub = await create(key, { eventTypes: ['api_key.revoked'] });
    const live = collect(connect({ 'x-api-key': key }), { subscriptionId: sub.id });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { prisma, bus } = t.service.services;
    const early = await prisma.$transaction(async (tx) => {
      const event = await recordEvent(tx, 'api_key.revoked', orgId, { apiKeyId: 'key_early', hint: 'idsk_…e' });
      await bus.publish(event); // heard before anyone can read it
      await new Promise((resolve) => setTimeout(resolve, 400));
      return event.id;
    });
    await settled(orgId);
    const started = Date.now();
    expect((await live.next(1, 5000)).map((e) => e.id)).toEqual([early]);
    expect(Date.now() - started).toBeLessThan(3000); // once visible, not left for the next heartbeat (15 s)
    const next = await emit(orgId);
    expect((await live.next(2)).map((e) => e.id)).toEqual([early, next]);
  });

  it('a ticket opens the stream without a key once; a used, garbage or foreign ticket is authentication_failed', async () => {
    const { key, orgId } = await orgWithKey(t);
    const sub = await create(key, { eventTypes: ['api_key.revoked'] });
    const other = await create(key, { eventTypes: ['api_key.revoked'] });
    const issued = await call(t, 'POST', `/v1/stream_subscriptions/${sub.id}/tickets`, { key });
    expect(issued.body).toMatchObject({ object: 'stream_ticket', ticket: expect.stringMatching(/^sst_/), streamSubscriptionId: sub.id });
    const expiresIn = Date.parse(issued.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(50_000);
    expect(expiresIn).toBeLessThanOrEqual(60_000);
    const ticket = issued.body.ticket as string;
    const stored = await t.service.services.prisma.streamTicket.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(stored.hash).not.toContain(ticket.slice(4)); // kept as a hash

    const browser = collect(connect(), { subscriptionId: sub.id, ticket }); // no credential at all
    await new Promise((resolve) => setTimeout(resolve, 200));
    const first = await emit(orgId);
    expect((await browser.next(1)).map((e) => e.id)).toEqual([first]);

    const reused = collect(connect(), { subscriptionId: sub.id, ticket });
    await reused.next(1);
    expect(reused.errorCode()).toBe('authentication_failed');
    for (const bad of [`sst_${'A'.repeat(43)}`, 'garbage']) {
      const feed = collect(connect(), { subscriptionId: sub.id, ticket: bad });
      await feed.next(1);
      expect(feed.errorCode(), bad).toBe('authentication_failed');
    }
    const foreign = (await call(t, 'POST', `/v1/stream_subscriptions/${other.id}/tickets`, { key })).body.ticket as string;
    const wrong = collect(connect(), { subscriptionId: sub.id, ticket: foreign });
    await wrong.next(1);
    expect(wrong.errorCode()).toBe('authentication_failed');
    // without a ticket or a credential there is no organization to read
    const anonymous = collect(connect(), { subscriptionId: sub.id });
    await anonymous.next(1);
    expect(anonymous.errorCode()).toBe('missing_api_key');
    // the first stream still runs
    const second = await emit(orgId);
    expect((await browser.next(2)).map((e) => e.id)).toEqual([first, second]);
  });
});
