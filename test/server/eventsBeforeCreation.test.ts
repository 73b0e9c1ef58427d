// A webhook endpoint or a monitor takes only what happens after it was made, even when the log's
// reader is held back by a transaction open elsewhere on the server. Log readers see events once
// every older transaction has ended (pg_snapshot_xmin, which is cluster-wide: a transaction in ANY
// database holds it back), so a new monitor's start position, and the webhook dispatcher's next
// read, can include events written shortly before the monitor or endpoint existed. Here a client
// of the server's `postgres` database holds a transaction (with an xid) open while an event is
// written, then the endpoint or monitor is made, then a second event: once the transaction ends,
// only the second may be delivered or matched. Two sessions at once need a database server, so
// this suite runs with DATABASE_URL.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, orgWithKey, scratchDatabase, sessionToken, startTestService, type TestService } from '../harness.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';

interface Received {
  webhookId: string;
  type: string;
  data: Record<string, any>;
  /** the signing secrets (of the endpoints made here) the delivery verifies with */
  verifiedWith: string[];
}

/** a company only this suite files for */
const company = { cik: 9100041, name: 'Held Back Holdings Inc.' };
const accession = (n: number) => `${String(company.cik).padStart(10, '0')}-25-${String(n).padStart(6, '0')}`;

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
/** verifies each delivery with the secrets of the endpoints made here */
let receiver: WebhookReceiver;
const received = (): Received[] => receiver.received.map((d) => ({ webhookId: d.id, type: d.body.type, data: d.body.data, verifiedWith: d.verifiedWith }));
let org: { orgId: string; key: string };
let token: string;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();

  database = await scratchDatabase();
  t = await startTestService({ database: database.target });
  expect(t.service.services.config.webhooks.pollMs).toBeLessThanOrEqual(200);
  org = await orgWithKey(t);
  token = await sessionToken(t, org.orgId);
  // the org's first key's api_key.created is read and passed before anything here begins
  await t.service.webhookWorker!.drain();
});

afterAll(async () => {
  await t?.close();
  await database?.drop();
  await receiver?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A transaction with an xid, open in another database of the same server (`postgres`), which
 * holds back every log reader of the test's database until it ends.
 */
async function holdXmin() {
  const admin = new URL(process.env.DATABASE_URL!);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query('BEGIN');
  const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  const xid = BigInt(rows[0]!.xid);
  // the scenario holds only if the service's snapshots do see it as running
  const [seen] = await t.service.services.prisma.$queryRaw<{ xmin: bigint }[]>`SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint AS "xmin"`;
  expect(BigInt(seen!.xmin)).toBeLessThanOrEqual(xid);
  return {
    async release() {
      try {
        await client.query('ROLLBACK');
      } finally {
        await client.end();
      }
    },
  };
}

/** With the worker on, a few more poll cycles (each drained), in which anything pending would go out. */
async function settle() {
  const { pollMs } = t.service.services.config.webhooks;
  for (let cycle = 0; cycle < 4; cycle++) {
    await t.service.webhookWorker!.drain();
    await pause(2 * pollMs);
  }
}

async function createEndpoint(eventTypes: string[]) {
  const created = await call(t, 'POST', '/v1/webhook_endpoints', { key: org.key, body: { url: receiver.url, description: 'events before creation', eventTypes } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  receiver.secrets.push(created.body.secret);
  return created.body as { id: string; secret: string };
}

async function createKey(name: string) {
  const created = await call(t, 'POST', '/v1/api_keys', { token, body: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body as { id: string };
}

let indexCount = 0;
/** Ingests an EDGAR master index naming this filing (each ingest a new file, as each day's index is). */
async function ingestFiling(form: string, date: string, accessionNumber: string) {
  const line = `${company.cik}|${company.name}|${form}|${date}|edgar/data/${company.cik}/${accessionNumber}.txt`;
  const text = ['Description: Master Index of EDGAR Dissemination Feed', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), line, ''].join('\n');
  await runIngest(t.service.services, fixtureSource({ [`index/daily/master.2027${String(++indexCount).padStart(4, '0')}.idx`]: { text } }));
}

describe('events written just before an endpoint or a monitor was made', { timeout: 40_000 }, () => {
  it('are not delivered to a webhook endpoint, though the dispatcher reads them after it exists', async () => {
    const hold = await holdXmin();
    let endpoint: { id: string; secret: string };
    let before: { id: string };
    let after: { id: string };
    try {
      before = await createKey('written before the endpoint');
      endpoint = await createEndpoint(['api_key.created']);
      after = await createKey('written after the endpoint');
      // held back: nothing of either key is readable yet
      await t.service.webhookWorker!.drain();
      expect(received()).toEqual([]);
    } finally {
      await hold.release();
    }
    const mine = () => received().filter((r) => r.verifiedWith.includes(endpoint.secret));
    await eventually('the second key delivered', () => mine().some((r) => r.data.apiKeyId === after.id), 20_000);
    await settle();

    expect(mine().map((r) => [r.type, r.data.apiKeyId])).toEqual([['api_key.created', after.id]]);
    expect(mine().some((r) => r.data.apiKeyId === before.id)).toBe(false);
    expect(received().every((r) => r.verifiedWith.length === 1)).toBe(true);
    const deliveries = await call(t, 'GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=100`, { key: org.key });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data.map((d: { eventId: string; status: string }) => [d.eventId, d.status])).toEqual([[mine()[0]!.webhookId, 'succeeded']]);
  });

  it('are not matched by a monitor, by its pull or its webhook, though its start position lies before them', async () => {
    receiver.received.length = 0;
    const first = accession(1);
    const second = accession(2);
    // the monitor's destination, subscribed to nothing that happens here: only its matches reach it
    const endpoint = await createEndpoint(['api_key.revoked']);
    const hold = await holdXmin();
    let monitorId: string;
    try {
      await ingestFiling('8-K', '2025-05-01', first); // also the company's first filing: it exists from here on
      const monitor = await call(t, 'POST', '/v1/monitors', {
        key: org.key,
        body: { name: 'Held back 8-Ks', query: { route: '/v1/filings', params: { cik: String(company.cik), form: '8-K' } }, delivery: { type: 'webhook', webhookEndpointId: endpoint.id } },
      });
      expect(monitor.status, JSON.stringify(monitor.body)).toBe(200);
      monitorId = monitor.body.id;
      await ingestFiling('8-K', '2025-05-02', second);
    } finally {
      await hold.release();
    }

    const peek = async () => {
      const answer = await call(t, 'GET', `/v1/monitors/${monitorId}/matches?peek=true`, { key: org.key });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return (answer.body.data as { accessionNumber: string }[]).map((i) => i.accessionNumber);
    };
    // each peek is a metered call: asked every 100 ms
    await eventually('the second filing readable from the log', async () => {
      if ((await peek()).includes(second)) return true;
      await pause(100);
      return false;
    }, 20_000);
    // soft: a failure here still lets the webhook's part be checked (and reported) too
    expect.soft(await peek()).toEqual([second]);

    const matched = () => received().filter((r) => r.type === 'monitor.matched' && r.data.monitorId === monitorId);
    await eventually('the monitor.matched delivery', () => matched().length > 0, 20_000);
    await settle();
    expect(matched().map((r) => (r.data.items as { accessionNumber: string }[]).map((i) => i.accessionNumber))).toEqual([[second]]);
    expect(matched()[0]!.data.matchCount).toBe(1);
    expect(matched()[0]!.verifiedWith).toEqual([endpoint.secret]);
    expect(received()).toHaveLength(1);
    expect(await peek()).toEqual([second]);
  });
});
