// Monitors end to end: saved reads, matches since the last check, and deliveries that arrive by
// themselves, once, at a real signed-webhook receiver and a real SMTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { fixtureCorpus, fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, expectEnvelope, orgWithKey, startTestService, type TestService } from '../harness.ts';
import { startSmtpServer, type SmtpServer } from '../support/smtpServer.ts';

interface Delivered {
  id: string;
  type: string;
  data: { monitorId: string; matchCount: number; items: { accessionNumber: string }[] };
  verified: boolean;
}

let t: TestService;
let smtp: SmtpServer;
let receiver: Server;
let receiverUrl = '';
let secret = '';
const delivered: Delivered[] = [];
let org: { orgId: string; key: string };
/** Companies only this suite files for: suites share one database in server mode. */
const watched = { cik: 9100001, name: 'Monitored Holdings Inc.' };
const bystander = { cik: 9100002, name: 'Bystander Corp' };

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestService({ email: { smtpUrl: smtp.url, from: 'IDS monitors <monitors@ids.test>' } });
  await runIngest(t.service.services, fixtureSource(fixtureCorpus));
  org = await orgWithKey(t);
  // the companies exist before any monitor names them
  await ingestFilings([
    { ...watched, form: '8-K', date: '2024-01-02', accession: accession(watched.cik, 1) },
    { ...bystander, form: '8-K', date: '2024-01-02', accession: accession(bystander.cik, 1) },
  ]);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      let verified = false;
      try {
        new Webhook(secret).verify(body, headers);
        verified = true;
      } catch {}
      const event = JSON.parse(body);
      delivered.push({ id: event.id, type: event.type, data: event.data, verified });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

let indexCount = 0;
/** Ingests an EDGAR master index naming these filings (each ingest a new file, as each day's index is). */
async function ingestFilings(filings: { cik: number; name: string; form: string; date: string; accession: string }[]) {
  const lines = filings.map((f) => `${f.cik}|${f.name}|${f.form}|${f.date}|edgar/data/${f.cik}/${f.accession}.txt`);
  const text = ['Description: Master Index of EDGAR Dissemination Feed', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  await runIngest(t.service.services, fixtureSource({ [`index/daily/master.2025${String(++indexCount).padStart(4, '0')}.idx`]: { text } }));
}

const accession = (cik: number, n: number) => `${String(cik).padStart(10, '0')}-25-${String(n).padStart(6, '0')}`;
const drain = () => t.service.webhookWorker!.drain();

async function createMonitor(body: unknown, key = org.key) {
  const answer = await call(t, 'POST', '/v1/monitors', { key, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { id: string; monitor_id: string; is_active: boolean; last_checked_at: string | null; delivery: unknown };
}

const matches = (id: string, query = '', key = org.key) => call(t, 'GET', `/v1/monitors/${id}/matches${query}`, { key });

describe('a monitor delivers by itself, once', () => {
  it('sends a signed webhook and an email digest for a new filing, each exactly once', async () => {
    const endpoint = await call(t, 'POST', '/v1/webhook_endpoints', { key: org.key, body: { url: receiverUrl, eventTypes: ['api_key.created'] } });
    expect(endpoint.status).toBe(200);
    secret = endpoint.body.secret;
    const saved = { route: '/v1/filings', params: { cik: String(watched.cik), form: '8-K' } };
    const hooked = await createMonitor({ name: 'Monitored 8-Ks', query: saved, delivery: { type: 'webhook', webhookEndpointId: endpoint.body.id } });
    const mailed = await createMonitor({ name: 'Monitored 8-Ks by mail', query: saved, delivery: { type: 'email', address: 'analyst@example.com' } });
    expect(hooked.monitor_id).toBe(hooked.id);
    expect(hooked.is_active).toBe(true);

    await ingestFilings([
      { ...watched, form: '8-K', date: '2025-03-03', accession: accession(watched.cik, 101) },
      { ...watched, form: '10-Q', date: '2025-03-03', accession: accession(watched.cik, 102) },
      { ...bystander, form: '8-K', date: '2025-03-03', accession: accession(bystander.cik, 103) },
    ]);
    await drain();
    await eventually('the webhook delivery', () => delivered.some((d) => d.type === 'monitor.matched'));
    await smtp.waitFor(1, 10_000);
    // nothing more arrives on later cycles: the matches were delivered with the checkpoint's move
    await drain();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await drain();

    const hooks = delivered.filter((d) => d.type === 'monitor.matched');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.verified).toBe(true);
    expect(hooks[0]!.data.monitorId).toBe(hooked.id);
    expect(hooks[0]!.data.items.map((i) => i.accessionNumber)).toEqual([accession(watched.cik, 101)]);

    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to).toContain('analyst@example.com');
    expect(mail.subject).toContain('Monitored 8-Ks by mail');
    expect(mail.text).toContain(accession(watched.cik, 101));
    expect(mail.text).toContain(`https://www.sec.gov/Archives/edgar/data/${watched.cik}/`);
    expect(mail.text).not.toContain(accession(watched.cik, 102));
    expect(mail.headers.get('list-unsubscribe')).toMatch(/\/v1\/delivery\/unsubscribe\?token=/);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // deliveries and reading matches are independent: the pull still has the filing, once
    const pulled = await matches(mailed.id);
    expect(pulled.body.data.map((i: { accessionNumber: string }) => i.accessionNumber)).toEqual([accession(watched.cik, 101)]);
    expect((await matches(mailed.id)).body.data).toEqual([]);
  });

  it('unsubscribes by the signed link: valid, replayed, tampered; and then sends no more email', async () => {
    const mail = smtp.messages[0]!;
    const link = String(mail.headers.get('list-unsubscribe')).replace(/^<|>$/g, '');
    const path = new URL(link).pathname + new URL(link).search;
    const token = new URL(link).searchParams.get('token')!;
    // flip the signature's second-to-last character (the last one carries padding bits)
    const tampered = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.slice(-1)}`;
    expectEnvelope(await call(t, 'GET', `/v1/delivery/unsubscribe?token=${tampered}`), 400, 'unsubscribe_link_invalid');
    expectEnvelope(await call(t, 'GET', '/v1/delivery/unsubscribe?token=garbage'), 400, 'unsubscribe_link_invalid');

    const page = await call(t, 'GET', path, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('Monitored 8-Ks by mail');
    expect(page.body).not.toContain('analyst@example.com');
    const again = await call(t, 'POST', path, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(again.status).toBe(200);
    expect(again.body.alreadyUnsubscribed).toBe(true);

    await ingestFilings([{ ...watched, form: '8-K', date: '2025-03-04', accession: accession(watched.cik, 104) }]);
    await drain();
    await eventually('the second webhook delivery', () => delivered.filter((d) => d.type === 'monitor.matched').length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toHaveLength(1);
  });
});

describe('matches since the last check', () => {
  it('never returns an item twice or skips one under concurrent checks, and counts a late-ingested old filing as new', async () => {
    // every company's transition reports: a form no other suite ingests
    const watcher = await createMonitor({ name: 'every 10-KT', query: { route: '/v1/filings', params: { form: '10-KT' } } });
    const filings = Array.from({ length: 30 }, (_, i) => ({ ...(i % 2 ? watched : bystander), form: '10-KT', date: i === 0 ? '2019-11-01' : '2025-05-01', accession: accession(i % 2 ? watched.cik : bystander.cik, 300 + i) }));
    await ingestFilings(filings.slice(0, 12));
    await ingestFilings(filings.slice(12));
    const peeked = await matches(watcher.id, '?peek=true&limit=100');
    expect(peeked.body.peek).toBe(true);
    expect(peeked.body.data).toHaveLength(30);

    const seen: string[] = [];
    for (let round = 0; round < 10 && seen.length < 30; round++) {
      const answers = await Promise.all(Array.from({ length: 5 }, () => matches(watcher.id, '?limit=4')));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        seen.push(...answer.body.data.map((i: { accessionNumber: string }) => i.accessionNumber));
      }
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen)).toEqual(new Set(filings.map((f) => f.accession)));
    expect(seen).toContain(accession(bystander.cik, 300)); // filed 2019, ingested now
    const after = await matches(watcher.id);
    expect(after.body.data).toEqual([]);
    expect(after.body.hasMore).toBe(false);
    expect(after.body.since).not.toBeNull();
  });

  it('matches a fact threshold on newly reported facts only', async () => {
    const file = JSON.parse(await (await import('node:fs/promises')).readFile(new URL('../fixtures/xbrl/companyfacts-exact.json', import.meta.url), 'utf8'));
    file.cik = 9100003;
    const key = 'companyfacts/CIK0009100003.json';
    await runIngest(t.service.services, fixtureSource({ [key]: { text: JSON.stringify(file) } }));
    const watcher = await createMonitor({ name: 'revenue above zero', query: { route: '/v1/facts', params: { cik: '9100003', tag: 'Revenues' }, threshold: { above: '0' } } });
    expect((await matches(watcher.id)).body.data).toEqual([]);
    const revenues = file.facts['us-gaap'].Revenues.units.USD as { accn: string; val: number; end: string; fy: number; fp: string; form: string; filed: string }[];
    const newOne = { ...revenues[revenues.length - 1]!, accn: '0009100003-25-000777', end: '2099-12-31', filed: '2099-01-30', val: 5 };
    const negative = { ...newOne, accn: '0009100003-25-000778', end: '2099-09-30', val: -5 };
    file.facts['us-gaap'].Revenues.units.USD = [...revenues, newOne, negative];
    await runIngest(t.service.services, fixtureSource({ [key]: { text: JSON.stringify(file) } }));
    const found = await matches(watcher.id);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.data.map((f: { accessionNumber: string; value: string }) => [f.accessionNumber, f.value])).toEqual([['0009100003-25-000777', '5']]);
  });
});

describe('monitor lifecycle and validation', () => {
  it('DELETE deactivates, idempotently; an inactive monitor has no matches', async () => {
    const m = await createMonitor({ name: 'short-lived', query: { route: '/v1/events/officer-changes', params: { ticker: 'AAPL' } } });
    const first = await call(t, 'DELETE', `/v1/monitors/${m.id}`, { key: org.key });
    const second = await call(t, 'DELETE', `/v1/monitors/${m.id}`, { key: org.key });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.is_active, second.body.is_active]).toEqual([false, false]);
    expect(second.body.deactivatedAt).toBe(first.body.deactivatedAt);
    expectEnvelope(await matches(m.id), 409, 'monitor_inactive');
    expect((await call(t, 'GET', `/v1/monitors/${m.id}`, { key: org.key })).body.is_active).toBe(false);
  });

  it.each([
    [{ name: 'x', query: { route: '/v1/statements/all', params: {} } }, 'query.route'],
    [{ name: 'x', query: { route: '/v1/filings', params: { tickr: 'AAPL' } } }, 'query.params.tickr'],
    [{ name: 'x', query: { route: '/v1/filings', params: { filed_from: '2024-02-30' } } }, 'query.params.filed_from'],
    [{ name: 'x', query: { route: '/v1/filings', params: { limit: 5 } } }, 'query.params.limit'],
    [{ name: 'x', query: { route: '/v1/filings', params: { ticker: 'NOSUCHCO' } } }, 'query.params.ticker'],
    [{ name: 'x', query: { route: '/v1/filings', params: {} , threshold: { below: '1' } } }, 'query.threshold'],
    [{ name: 'x', query: { route: '/v1/facts', params: { ticker: 'AAPL', tag: 'Revenues' }, threshold: { below: '1e9' } } }, 'query.threshold.below'],
    [{ name: 'x', query: { route: '/v1/filings' }, delivery: { type: 'email', address: 'not an address' } }, 'delivery.address'],
    [{ name: 'x', query: { route: '/v1/filings' }, delivery: { type: 'sms', to: '555' } }, 'delivery.type'],
  ])('refuses %j with validation_error naming %s, writing nothing', async (body, path) => {
    const before = await t.service.services.prisma.monitor.count({ where: { orgId: org.orgId } });
    const answer = await call(t, 'POST', '/v1/monitors', { key: org.key, body });
    expectEnvelope(answer, 400, 'validation_error');
    expect(JSON.stringify(answer.body)).toContain(path);
    expect(await t.service.services.prisma.monitor.count({ where: { orgId: org.orgId } })).toBe(before);
  });

  it('answers 503 email_delivery_unavailable for an email delivery without SMTP', async () => {
    const bare = await startTestService();
    try {
      const other = await orgWithKey(bare);
      expectEnvelope(await call(bare, 'POST', '/v1/monitors', { key: other.key, body: { name: 'x', query: { route: '/v1/filings' }, delivery: { type: 'email', address: 'a@example.com' } } }), 503, 'email_delivery_unavailable');
    } finally {
      await bare.close();
    }
  });

  it('compiles plain English into a spec POST /v1/monitors accepts', async () => {
    const compiled = await call(t, 'POST', '/v1/monitors/compile', { key: org.key, body: { text: 'email me at ops@example.com when Apple files an 8-K' } });
    expect(compiled.status, JSON.stringify(compiled.body)).toBe(200);
    expect(compiled.body.query).toEqual({ route: '/v1/filings', params: { ticker: 'AAPL', form: '8-K' } });
    expect(compiled.body.delivery).toEqual({ type: 'email', address: 'ops@example.com' });
    const created = await createMonitor({ name: 'compiled', query: compiled.body.query, delivery: compiled.body.delivery });
    expect(created.delivery).toEqual({ type: 'email', address: 'ops@example.com' });
    expectEnvelope(await call(t, 'POST', '/v1/monitors/compile', { key: org.key, body: { text: 'hello there, how are you' } }), 400, 'validation_error');
  });
});

describe('cross-organization isolation', () => {
  it('answers 404 for another organization\'s monitor on every route, and lists only its own', async () => {
    const mine = await createMonitor({ name: 'mine', query: { route: '/v1/filings', params: { form: '8-K' } } });
    const other = await orgWithKey(t);
    for (const [method, path, body] of [
      ['GET', `/v1/monitors/${mine.id}`, undefined],
      ['GET', `/v1/monitors/${mine.id}/matches`, undefined],
      ['DELETE', `/v1/monitors/${mine.id}`, undefined],
      ['POST', `/v1/monitors/${mine.id}/delivery`, { delivery: null }],
    ] as const) {
      expectEnvelope(await call(t, method, path, { key: other.key, body }), 404, 'monitor_not_found');
    }
    const ownEndpoint = (await call(t, 'GET', '/v1/webhook_endpoints', { key: org.key })).body.data[0].id;
    expectEnvelope(
      await call(t, 'POST', '/v1/monitors', { key: other.key, body: { name: 'x', query: { route: '/v1/filings' }, delivery: { type: 'webhook', webhookEndpointId: ownEndpoint } } }),
      404,
      'webhook_endpoint_not_found',
    );
    expect((await call(t, 'GET', '/v1/monitors', { key: other.key })).body.data).toEqual([]);
    expect((await call(t, 'GET', `/v1/monitors/${mine.id}`, { key: org.key })).body.is_active).toBe(true);
  });
});

describe('MCP', () => {
  it('lists the monitor reads and the compiler as tools, and answers them as REST does', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'ids-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { 'x-api-key': org.key } } }));
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['monitors_list', 'monitors_get', 'monitors_matches', 'monitors_compile']));
      expect(tools.find((tool) => tool.name === 'monitors_matches')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
      const compiled = await client.callTool({ name: 'monitors_compile', arguments: { text: 'officer changes at Apple' } });
      expect(compiled.isError).toBeFalsy();
      expect((compiled.structuredContent as { query: unknown }).query).toEqual({ route: '/v1/events/officer-changes', params: { ticker: 'AAPL' } });
      const watcher = await createMonitor({ name: 'via mcp', query: { route: '/v1/filings', params: { cik: String(watched.cik) } } });
      await ingestFilings([{ ...watched, form: '8-K', date: '2025-06-02', accession: accession(watched.cik, 600) }]);
      const found = await client.callTool({ name: 'monitors_matches', arguments: { monitor_id: watcher.id } });
      expect(JSON.stringify(found.structuredContent)).toContain(accession(watched.cik, 600));
      const again = await client.callTool({ name: 'monitors_matches', arguments: { monitor_id: watcher.id } });
      expect(JSON.stringify(again.structuredContent)).not.toContain(accession(watched.cik, 600));
    } finally {
      await client.close();
    }
  });
});
