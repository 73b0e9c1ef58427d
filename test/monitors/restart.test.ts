// A monitor's match survives restarts and reaches its webhook receiver exactly once. Services
// follow one another on one database (a PGlite folder, or a scratch database on the DATABASE_URL
// server), as an operator restarts an instance: A saves a webhook monitor and stops; B, its
// delivery worker off, ingests a filing the monitor watches and stops; C, worker on, delivers
// the match. Then C attempts a second match at a receiver answering 500 and stops; D sends it
// again under the same webhook-id, and the receiver takes it once.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import type { DatabaseTarget } from '../../prisma/adapter.ts';
import type { Config } from '../../core/config.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';

interface Received {
  webhookId: string;
  type: string;
  data: { monitorId: string; matchCount: number; items: { accessionNumber: string }[] };
  verified: boolean;
  /** what the receiver answered */
  status: number;
}

/** Companies only this suite files for (its database is its own anyway). */
const watched = { cik: 9100031, name: 'Restarted Holdings Inc.' };
const bystander = { cik: 9100032, name: 'Restart Bystander Corp' };
const accession = (cik: number, n: number) => `${String(cik).padStart(10, '0')}-25-${String(n).padStart(6, '0')}`;
const first = accession(watched.cik, 201);
const second = accession(watched.cik, 301);

/** verifies with the monitor's endpoint's secret; answers 500 while a test wants attempts to fail */
let receiver: WebhookReceiver;
/** the deliveries taken so far */
const received = (): Received[] =>
  receiver.received.map((d) => ({ webhookId: d.id, type: d.body.type, data: d.body.data, verified: d.verifiedWith.length > 0, status: d.status }));

let database: { target: DatabaseTarget; drop(): Promise<void> };
/** the one service running on the database, if any */
let running: TestService | undefined;
let org: { orgId: string; key: string };
let monitorId = '';
/** the webhook settings of the test services, for one with its worker off */
let webhooks: Config['webhooks'];

/**
 * One database that outlives the services on it: a scratch database on the server in server
 * mode, else a PGlite folder that each service opens in turn (one at a time: each stops before
 * the next starts), in memory-backed /dev/shm where there is one, since PGlite syncs every commit.
 */
async function durableDatabase(): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return scratchDatabase();
  const dir = await mkdtemp(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'ids-restart-'));
  return { target: { kind: 'pglite', dataDir: path.join(dir, 'pglite') }, drop: () => rm(dir, { recursive: true, force: true }) };
}

async function start(overrides: Partial<Config> = {}): Promise<TestService> {
  expect(running, 'the previous service is still running').toBeUndefined();
  running = await startTestService({ ...overrides, database: database.target });
  return running;
}

async function stop(t: TestService) {
  await t.close();
  running = undefined;
}

let indexCount = 0;
/** Ingests an EDGAR master index naming these filings (each ingest a new file, as each day's index is). */
async function ingestFilings(t: TestService, filings: { cik: number; name: string; form: string; date: string; accession: string }[]) {
  const lines = filings.map((f) => `${f.cik}|${f.name}|${f.form}|${f.date}|edgar/data/${f.cik}/${f.accession}.txt`);
  const text = ['Description: Master Index of EDGAR Dissemination Feed', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  await runIngest(t.service.services, fixtureSource({ [`index/daily/master.2026${String(++indexCount).padStart(4, '0')}.idx`]: { text } }));
}

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();

  // A: an organization, its endpoint at the receiver, a webhook monitor on the watched company's 8-Ks
  database = await durableDatabase();
  const a = await start();
  webhooks = a.service.services.config.webhooks;
  expect(webhooks.pollMs).toBeLessThanOrEqual(200);
  // the companies exist before a monitor names them; not by an 8-K: a monitor's start is the
  // oldest transaction still running when it is created (on a server, in any database), so a
  // filing ingested just before it may count as new
  await ingestFilings(a, [
    { ...watched, form: '10-Q', date: '2025-01-02', accession: accession(watched.cik, 1) },
    { ...bystander, form: '8-K', date: '2025-01-02', accession: accession(bystander.cik, 1) },
  ]);
  org = await orgWithKey(a);
  // subscribed to nothing that happens here: only its monitor's matches reach it
  const endpoint = await call(a, 'POST', '/v1/webhook_endpoints', { key: org.key, body: { url: receiver.url, eventTypes: ['api_key.revoked'] } });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
  receiver.secrets = [endpoint.body.secret];
  const monitor = await call(a, 'POST', '/v1/monitors', {
    key: org.key,
    body: { name: 'Restarted 8-Ks', query: { route: '/v1/filings', params: { cik: String(watched.cik), form: '8-K' } }, delivery: { type: 'webhook', webhookEndpointId: endpoint.body.id } },
  });
  expect(monitor.status, JSON.stringify(monitor.body)).toBe(200);
  monitorId = monitor.body.id;
  await a.service.webhookWorker!.drain();
  await stop(a);
  expect(received(), 'service A delivered something before any match').toEqual([]);
});

afterAll(async () => {
  await running?.close();
  await database?.drop();
  await receiver?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const accessions = (items: { accessionNumber: string }[]) => items.map((i) => i.accessionNumber);
const naming = (filing: string) => received().filter((r) => r.type === 'monitor.matched' && accessions(r.data.items).includes(filing));
const peek = async (t: TestService) => {
  const answer = await call(t, 'GET', `/v1/monitors/${monitorId}/matches?peek=true`, { key: org.key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.peek).toBe(true);
  return answer.body as { data: { accessionNumber: string }[]; since: string | null; last_checked_at: string | null; hasMore: boolean };
};

/** The monitor's monitor.matched events in the log, and the webhook attempts of each. */
async function matchRecords(t: TestService) {
  const { prisma } = t.service.services;
  const events = (await prisma.event.findMany({ where: { type: 'monitor.matched' } })).filter((e) => (e.payload as { monitorId?: string }).monitorId === monitorId);
  const attempts = await prisma.webhookDelivery.findMany({ where: { eventType: 'monitor.matched' }, orderBy: [{ eventId: 'asc' }, { attempt: 'asc' }] });
  return { events, attempts };
}

/**
 * With its worker on, `t` runs a few more poll cycles (and drains) after the deliveries; then
 * the receiver has taken each filing exactly once, in one signed monitor.matched naming it
 * alone, every attempt of a match carrying that match's webhook-id, and the database holds one
 * event per filing with one successful attempt and none still pending.
 */
async function expectEachTakenOnce(t: TestService, filings: string[]) {
  for (let cycle = 0; cycle < 3; cycle++) {
    await t.service.webhookWorker!.drain();
    await pause(2 * webhooks.pollMs);
  }
  expect(received().every((r) => r.type === 'monitor.matched' && r.verified && r.data.monitorId === monitorId), JSON.stringify(received())).toBe(true);
  const accepted = received().filter((r) => r.status === 200);
  expect(accepted.map((r) => accessions(r.data.items)), JSON.stringify(received())).toEqual(filings.map((f) => [f]));
  expect(accepted.every((r) => r.data.matchCount === 1)).toBe(true);
  const { events, attempts } = await matchRecords(t);
  expect(events).toHaveLength(filings.length);
  for (const delivery of accepted) {
    const filing = delivery.data.items[0]!.accessionNumber;
    expect(new Set(naming(filing).map((r) => r.webhookId))).toEqual(new Set([delivery.webhookId]));
    const event = events.find((e) => e.id === delivery.webhookId);
    expect(event, `no monitor.matched event ${delivery.webhookId}`).toBeDefined();
    const mine = attempts.filter((row) => row.eventId === event!.id);
    expect(mine.map((row) => row.status)).toEqual([...naming(filing).slice(0, -1).map(() => 'retrying'), 'succeeded']);
  }
  expect(attempts.filter((row) => row.status === 'pending')).toEqual([]);
}

describe("a monitor's match across restarts", { timeout: 60_000 }, () => {
  it('is delivered exactly once by the next instance when the one that ingested the filing had no worker', async () => {
    // B: the same database, its delivery worker off (IDS_WEBHOOK_WORKER=off): the filing is
    // logged and readable, but nothing matches it for delivery and nothing is sent
    const b = await start({ webhooks: { ...webhooks, worker: false } });
    expect(b.service.webhookWorker).toBeNull();
    await ingestFilings(b, [
      { ...watched, form: '8-K', date: '2025-03-03', accession: first },
      { ...watched, form: '10-Q', date: '2025-03-03', accession: accession(watched.cik, 202) },
      { ...bystander, form: '8-K', date: '2025-03-03', accession: accession(bystander.cik, 203) },
    ]);
    // log readers see an event once every transaction older than it has ended (on a server, in
    // any database: other suites' transactions can hold them back for a while); each peek is a
    // metered call, so asked every 250 ms
    await eventually('the filing readable from the log', async () => {
      if (accessions((await peek(b)).data).includes(first)) return true;
      await pause(250);
      return false;
    }, 30_000);
    expect(accessions((await peek(b)).data)).toEqual([first]);
    // with the filing readable, a few poll intervals in which a worker would have matched and sent it
    await pause(5 * webhooks.pollMs);
    expect(received()).toEqual([]);
    expect(await matchRecords(b)).toEqual({ events: [], attempts: [] });
    await stop(b);

    // C: worker on; it reads the log past the monitors checkpoint, finds the match, sends it once
    const c = await start();
    await eventually('the monitor.matched delivery', () => naming(first).length > 0, 30_000);
    await expectEachTakenOnce(c, [first]);
    expect(received()).toHaveLength(1);

    // the pull is independent of the delivery: peeking shows the filing, and keeps showing it,
    // since the monitor was never checked; a check takes it once
    const peeked = await peek(c);
    expect(accessions(peeked.data)).toEqual([first]);
    expect(peeked.since).toBeNull();
    expect(peeked.last_checked_at).toBeNull();
    expect(peeked.hasMore).toBe(false);
    expect(accessions((await peek(c)).data)).toEqual([first]);
    const checked = await call(c, 'GET', `/v1/monitors/${monitorId}/matches`, { key: org.key });
    expect(accessions(checked.body.data)).toEqual([first]);
    expect(checked.body.last_checked_at).not.toBeNull();
    expect((await peek(c)).data).toEqual([]);
  });

  it('attempted by an instance that stopped before the receiver took it, is sent again with the same webhook-id and taken once', async () => {
    // C (still running) matches a second filing and attempts it at a receiver answering 500, then stops
    const c = running!;
    receiver.status = 500;
    await ingestFilings(c, [{ ...watched, form: '8-K', date: '2025-03-04', accession: second }]);
    await eventually('a failed attempt at the receiver', () => naming(second).length > 0, 30_000);
    await stop(c);
    const failed = naming(second);
    expect(failed.every((r) => r.status === 500)).toBe(true);

    // D: the receiver answers again; the retry C scheduled goes out from D, under the same webhook-id
    receiver.status = 200;
    const d = await start();
    await eventually('the retried delivery', () => naming(second).some((r) => r.status === 200), 30_000);
    await expectEachTakenOnce(d, [first, second]);
    expect(naming(second).length).toBeGreaterThan(failed.length);
    expect(naming(first)).toHaveLength(1);

    const peeked = await peek(d);
    expect(accessions(peeked.data)).toEqual([second]);
    expect(peeked.since).not.toBeNull();
    await stop(d);
  });
});
