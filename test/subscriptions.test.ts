// A real graphql-ws client on /graphql: live events, with the same credentials as REST.
import { createClient, type Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, orgWithKey, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTestService();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});
afterAll(() => t?.close());

function connect(connectionParams: Record<string, string>) {
  const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: false });
  clients.push(client);
  return client;
}

/** Collects what a subscription delivers; `next()` waits for the next one (bounded). */
function collect(client: Client, query: string) {
  const received: any[] = [];
  const waiters: (() => void)[] = [];
  let failure: unknown;
  const started = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  client.subscribe(
    { query },
    {
      next: (value) => {
        received.push(value);
        waiters.splice(0).forEach((w) => w());
      },
      error: (error) => {
        failure = error;
        waiters.splice(0).forEach((w) => w());
      },
      complete: () => {},
    },
  );
  return {
    received,
    started,
    get failure() {
      return failure;
    },
    async next(count: number, withinMs = 5000) {
      const deadline = Date.now() + withinMs;
      while (received.length < count && !failure && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
  };
}

const keyAdded = 'subscription { keyAdded { eventId createdAt apiKey { id name hint } } }';

describe('keyAdded', () => {
  it('delivers a key created in the subscriber\'s organization, and nothing from another one', async () => {
    const acme = await orgWithKey(t);
    const globex = await orgWithKey(t);
    const acmeFeed = collect(connect({ 'x-api-key': acme.key }), keyAdded);
    const globexFeed = collect(connect({ 'x-api-key': globex.key }), keyAdded);
    await Promise.all([acmeFeed.started, globexFeed.started]);
    await new Promise((resolve) => setTimeout(resolve, 100)); // let both subscriptions register with the bus

    const created = await call(t, 'POST', '/v1/api_keys', { token: await sessionToken(t, acme.orgId), body: { name: 'live one' } });
    expect(created.status).toBe(200);

    const [event] = await acmeFeed.next(1);
    expect(event.data.keyAdded).toEqual({ eventId: expect.stringMatching(/^evt_/), createdAt: expect.any(String), apiKey: { id: created.body.id, name: 'live one', hint: created.body.hint } });
    await globexFeed.next(1, 300); // acme's event has arrived; globex's would have too
    expect(globexFeed.received).toEqual([]);

    const logged = await t.service.services.prisma.event.findUniqueOrThrow({ where: { id: event.data.keyAdded.eventId } });
    expect(logged).toMatchObject({ type: 'api_key.created', orgId: acme.orgId });
  });

  it('accepts a dashboard session in connectionParams', async () => {
    const org = await orgWithKey(t);
    const token = await sessionToken(t, org.orgId);
    const feed = collect(connect({ authorization: `Bearer ${token}` }), keyAdded);
    await feed.started;
    await new Promise((resolve) => setTimeout(resolve, 100));
    await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'via session' } });
    const [event] = await feed.next(1);
    expect(event.data.keyAdded.apiKey.name).toBe('via session');
  });

  it('answers missing_api_key to a subscription without a credential', async () => {
    for (const query of [keyAdded, 'subscription { filingAdded { filing { accessionNumber } } }']) {
      const feed = collect(connect({}), query);
      await feed.next(1);
      const errors = (feed.failure as { extensions?: { code?: string } }[] | undefined) ?? feed.received[0]?.errors;
      expect(errors?.[0]?.extensions?.code).toBe('missing_api_key');
    }
  });

  it('closes the connection (4403) for a rejected key', async () => {
    const closed = new Promise<number>((resolve) => {
      const client = createClient({
        url: `${t.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'x-api-key': `idsk_${'Z'.repeat(40)}` },
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => {}, // the close code is what this test reads
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      clients.push(client);
    });
    expect(await closed).toBe(4403);
  });
});
