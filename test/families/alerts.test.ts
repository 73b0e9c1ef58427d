// Alerts (GET /v1/alerts, POST /v1/alerts/{alert_id}/acknowledge, GraphQL `alerts` and
// `acknowledgeAlert`, the MCP tools): real events of an organization (a receiver answering 410
// disables an endpoint, another failing every attempt exhausts a delivery, a monitor matches a new
// filing; the billing events written as the billing code writes them), listed newest first with
// severity, title and links, acknowledged once, filtered by status; a read key may list but not
// acknowledge; another organization can neither see nor acknowledge them, at any door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { recordEvent } from '../../subscriptions/events.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, expectEnvelope, orgWithKey, sessionToken, startIsolatedService, testWebhookKey, type Answer, type TestService } from '../harness.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';

interface Alert {
  object: 'alert';
  id: string;
  type: string;
  severity: string;
  title: string;
  createdAt: string;
  data: Record<string, unknown>;
  links: { monitorId: string | null; webhookEndpointId: string | null; deliveryId: string | null };
  acknowledged: { by: string; at: string } | null;
}

let t: TestService;
let receiver: WebhookReceiver;
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let other: Awaited<ReturnType<typeof orgWithKey>>;
let readKey: string;
let viewer: { token: string; userId: string };
let otherSession: string;
/** acme's alert ids by type */
const alertOf: Record<string, string> = {};
const ids: Record<string, string> = {};

const list = (query: Record<string, string | number> = {}, credentials: { key?: string; token?: string } = { key: acme.key }) =>
  call(t, 'GET', `/v1/alerts?${new URLSearchParams(Object.entries({ limit: 100, ...query }).map(([k, v]) => [k, String(v)]))}`, credentials);
const acknowledge = (id: string, credentials: { key?: string; token?: string } = { key: acme.key }) => call(t, 'POST', `/v1/alerts/${id}/acknowledge`, credentials);
const gql = (credentials: { key?: string; token?: string }, query: string, variables: Record<string, unknown> = {}) => call(t, 'POST', '/graphql', { ...credentials, body: { query, variables } });
const mcp = (key: string, name: string, args: Record<string, unknown>) =>
  call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
/** The code of an MCP refusal: a tool's own error result, or the JSON-RPC error of a refusal before it ran. */
const mcpCode = (answer: Answer): string | undefined => answer.body.error?.data?.code ?? (answer.body.result?.isError ? JSON.parse(answer.body.result.content[0].text).code : undefined);

const data = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Alert[];
};

async function ingestIndex(file: string, filings: { cik: number; name: string; accession: string; date: string }[]) {
  const lines = filings.map((f) => `${f.cik}|${f.name}|8-K|${f.date}|edgar/data/${f.cik}/${f.accession}.txt`);
  const text = ['Description: Master Index of EDGAR Dissemination Feed', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  await runIngest(t.service.services, fixtureSource({ [`index/daily/${file}`]: { text } }));
}

async function eventOf(type: string) {
  return eventually(type, async () => (await t.service.services.prisma.event.findFirst({ where: { orgId: acme.orgId, type } })) ?? undefined, 20_000);
}

beforeAll(async () => {
  // the whole retry schedule 100,000 times faster, in a database of its own (its worker is the only one)
  t = await startIsolatedService({ webhooks: { allowedHosts: ['127.0.0.1', 'localhost'], worker: true, pollMs: 100, timeoutMs: 15_000, retryScale: 0.00001, secretKey: testWebhookKey } });
  receiver = await new WebhookReceiver().start();
  acme = await orgWithKey(t, 'Alerts Acme');
  other = await orgWithKey(t, 'Alerts Other');
  readKey = (await issueApiKey(t.service.services, acme.orgId, 'read key', null, undefined, ['read'])).secret;
  const viewerEmail = `alerts.viewer.${Date.now()}@example.com`;
  viewer = { token: await sessionToken(t, acme.orgId, viewerEmail, false, 'viewer'), userId: '' };
  viewer.userId = (await t.service.services.prisma.user.findFirstOrThrow({ where: { email: viewerEmail } })).id;
  otherSession = await sessionToken(t, other.orgId, `alerts.other.${Date.now()}@example.com`);

  const endpoint = async (eventTypes: string[]) => {
    const created = await call(t, 'POST', '/v1/webhook_endpoints', { key: acme.key, body: { url: receiver.url, eventTypes } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id as string;
  };

  // a receiver answering 410 Gone: the service disables the endpoint
  receiver.script = [410];
  ids.goneEndpoint = await endpoint(['webhook.test']);
  await call(t, 'POST', `/v1/webhook_endpoints/${ids.goneEndpoint}/test`, { key: acme.key });
  alertOf['webhook_endpoint.disabled'] = (await eventOf('webhook_endpoint.disabled')).id;

  // every attempt failing: after the 10th, delivery.exhausted
  receiver.script = Array(10).fill(500);
  ids.failingEndpoint = await endpoint(['webhook.test']);
  await call(t, 'POST', `/v1/webhook_endpoints/${ids.failingEndpoint}/test`, { key: acme.key });
  alertOf['delivery.exhausted'] = (await eventOf('delivery.exhausted')).id;

  // a monitor of a company's filings, delivered to a webhook: a new filing matches
  const company = { cik: 9300001, name: 'Alerted Holdings Inc.' };
  await ingestIndex('master.20250101.idx', [{ ...company, accession: '0009300001-25-000001', date: '2025-01-02' }]);
  const hook = await endpoint(['api_key.created']);
  const monitor = await call(t, 'POST', '/v1/monitors', { key: acme.key, body: { name: 'Alerted 8-Ks', query: { route: '/v1/filings', params: { cik: String(company.cik) } }, delivery: { type: 'webhook', webhookEndpointId: hook } } });
  expect(monitor.status, JSON.stringify(monitor.body)).toBe(200);
  ids.monitor = monitor.body.id;
  await ingestIndex('master.20250102.idx', [{ ...company, accession: '0009300001-25-000002', date: '2025-01-03' }]);
  await t.service.webhookWorker!.drain();
  alertOf['monitor.matched'] = (await eventOf('monitor.matched')).id;

  // the billing events, written as resolvers/billing writes them
  const { prisma } = t.service.services;
  const softCap = await prisma.$transaction((tx) => recordEvent(tx, 'billing.soft_cap_reached', acme.orgId, { period: '2026-11', softCapCents: 5000, periodSpendMillicents: 5_000_200 }));
  alertOf['billing.soft_cap_reached'] = softCap.id;
  const autoTopUp = await prisma.$transaction((tx) => recordEvent(tx, 'billing.auto_topup_failed', acme.orgId, { failures: [{ paymentMethodId: 'pm_card_declined', code: 'card_declined' }], reason: 'card_declined' }));
  alertOf['billing.auto_topup_failed'] = autoTopUp.id;

  // the other organization's own alert
  alertOf.theirs = (await prisma.$transaction((tx) => recordEvent(tx, 'billing.soft_cap_reached', other.orgId, { period: '2026-11', softCapCents: 100, periodSpendMillicents: 100_000 }))).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const acmeAlertIds = () => Object.entries(alertOf).filter(([type]) => type !== 'theirs').map(([, id]) => id);

describe('GET /v1/alerts', () => {
  it('lists the organization\'s open alerts newest first, with severity, a title and links, and no other events', async () => {
    const alerts = data(await list());
    expect(alerts.map((a) => a.id).sort()).toEqual(acmeAlertIds().sort());
    const order = alerts.map((a) => `${a.createdAt} ${a.id}`);
    expect(order).toEqual([...order].sort().reverse());
    const byType = Object.fromEntries(alerts.map((a) => [a.type, a]));

    expect(byType['webhook_endpoint.disabled']).toMatchObject({
      object: 'alert',
      severity: 'critical',
      title: `Webhook endpoint ${ids.goneEndpoint} was disabled because its receiver answered 410 Gone`,
      data: { webhookEndpointId: ids.goneEndpoint, reason: 'gone' },
      links: { webhookEndpointId: ids.goneEndpoint, monitorId: null, deliveryId: null },
      acknowledged: null,
    });
    const exhausted = byType['delivery.exhausted']!;
    expect(exhausted).toMatchObject({ severity: 'warning', links: { webhookEndpointId: ids.failingEndpoint, deliveryId: expect.stringMatching(/^del_/) } });
    expect(exhausted.title).toMatch(/\(webhook\.test\) was not delivered to webhook endpoint .* after 10 attempts$/);
    // the delivery linked is the endpoint's last attempt
    const attempts = (await call(t, 'GET', `/v1/webhook_endpoints/${ids.failingEndpoint}/deliveries?limit=100`, { key: acme.key })).body.data;
    expect(attempts.find((d: { id: string }) => d.id === exhausted.links.deliveryId)).toMatchObject({ attempt: 10, status: 'failed' });

    expect(byType['monitor.matched']).toMatchObject({ severity: 'info', title: 'Monitor "Alerted 8-Ks" matched 1 new record of /v1/filings', links: { monitorId: ids.monitor } });
    expect(byType['billing.soft_cap_reached']).toMatchObject({ severity: 'warning', title: 'Prepaid spend for 2026-11 reached the soft cap of $50.00', links: { monitorId: null, webhookEndpointId: null, deliveryId: null } });
    expect(byType['billing.auto_topup_failed']).toMatchObject({ severity: 'critical', title: 'Auto-top-up failed (card_declined) and is paused until the next top-up or a change of its settings' });
  });

  it('narrows by type and time, and pages by cursor through every alert once', async () => {
    expect(data(await list({ type: 'monitor.matched' })).map((a) => a.id)).toEqual([alertOf['monitor.matched']]);
    const all = data(await list());
    const middle = all[2]!;
    expect(data(await list({ to: middle.createdAt })).every((a) => a.createdAt < middle.createdAt)).toBe(true);
    expect(data(await list({ from: middle.createdAt })).map((a) => a.id)).toContain(middle.id);
    expect(data(await list({ from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' }))).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...data(page).map((a) => a.id));
      cursor = page.body.nextCursor;
      expect(page.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(all.map((a) => a.id));
  });

  it('refuses bad parameters with the envelope', async () => {
    expectEnvelope(await list({ status: 'closed' }), 400, 'invalid_query_parameter');
    expectEnvelope(await list({ type: 'api_key.created' }), 400, 'invalid_query_parameter');
    expectEnvelope(await list({ cursor: 'not-a-cursor' }), 400, 'invalid_query_parameter');
    expectEnvelope(await list({ limit: 0 }), 400, 'invalid_query_parameter');
    expectEnvelope(await list({ from: 'yesterday' }), 400, 'invalid_request_parameter');
    expectEnvelope(await list({ from: '2026-02-02T00:00:00Z', to: '2026-02-01T00:00:00Z' }), 400, 'invalid_request_parameter');
    expectEnvelope(await acknowledge('evt_short'), 400, 'invalid_request_parameter');
    const unknownType = await gql({ key: acme.key }, '{ alerts(type: "filing.added") { nodes { id } } }');
    expect(unknownType.body.errors[0].extensions.code).toBe('invalid_query_parameter');
  });
});

describe('POST /v1/alerts/{alert_id}/acknowledge', () => {
  it('acknowledges once, by whoever did it first, and moves the alert out of the open list', async () => {
    const id = alertOf['billing.soft_cap_reached']!;
    const first = await acknowledge(id, { token: viewer.token }); // any member may
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ object: 'alert', id, acknowledged: { by: viewer.userId, at: expect.any(String) } });
    const again = await acknowledge(id, { key: acme.key });
    expect(again.status).toBe(200);
    expect(again.body.acknowledged).toEqual(first.body.acknowledged);

    expect(data(await list()).map((a) => a.id)).not.toContain(id);
    expect(data(await list({ status: 'acknowledged' })).map((a) => a.id)).toEqual([id]);
    const all = data(await list({ status: 'all' }));
    expect(all.map((a) => a.id).sort()).toEqual(acmeAlertIds().sort());
    expect(all.find((a) => a.id === id)!.acknowledged).toEqual(first.body.acknowledged);
  });

  it('acknowledges over GraphQL and as an MCP tool, with the key as acknowledger', async () => {
    const mutation = 'mutation Ack($id: String!) { acknowledgeAlert(alertId: $id) { id acknowledged { by } } }';
    const viaGraphql = await gql({ key: acme.key }, mutation, { id: alertOf['monitor.matched'] });
    expect(viaGraphql.body.data.acknowledgeAlert).toEqual({ id: alertOf['monitor.matched'], acknowledged: { by: acme.keyId } });
    const viaMcp = await mcp(acme.key, 'alerts_acknowledge', { alert_id: alertOf['delivery.exhausted'] });
    expect(viaMcp.body.result.structuredContent).toMatchObject({ id: alertOf['delivery.exhausted'], acknowledged: { by: acme.keyId } });

    const listed = await gql({ token: viewer.token }, '{ alerts(status: acknowledged, first: 10) { nodes { id type severity acknowledged { by } } } }');
    expect(listed.body.data.alerts.nodes.map((a: { id: string }) => a.id).sort()).toEqual([alertOf['monitor.matched'], alertOf['delivery.exhausted'], alertOf['billing.soft_cap_reached']].sort());
    const tool = await mcp(acme.key, 'alerts_list', { status: 'open' });
    expect(tool.body.result.structuredContent.data.map((a: Alert) => a.type).sort()).toEqual(['billing.auto_topup_failed', 'webhook_endpoint.disabled']);
  });

  it('a read key may list alerts but not acknowledge them, at every door', async () => {
    expect(data(await list({}, { key: readKey })).length).toBe(2);
    const id = alertOf['billing.auto_topup_failed']!;
    expectEnvelope(await acknowledge(id, { key: readKey }), 403, 'insufficient_scope');
    const viaGraphql = await gql({ key: readKey }, 'mutation Ack($id: String!) { acknowledgeAlert(alertId: $id) { id } }', { id });
    expect(viaGraphql.body.errors[0].extensions.code).toBe('insufficient_scope');
    expect(mcpCode(await mcp(readKey, 'alerts_acknowledge', { alert_id: id }))).toBe('insufficient_scope');
    expect(data(await list()).map((a) => a.id)).toContain(id);
  });

  it('an event that is not an alert, or not there, is 404 alert_not_found', async () => {
    const keyCreated = await t.service.services.prisma.event.findFirstOrThrow({ where: { orgId: acme.orgId, type: 'api_key.created' } });
    expectEnvelope(await acknowledge(keyCreated.id), 404, 'alert_not_found');
    expectEnvelope(await acknowledge('evt_000000000000000000000000'), 404, 'alert_not_found');
  });
});

describe('another organization', () => {
  it('never sees acme\'s alerts, and acknowledging one is the same 404 as an unknown id, at every door', async () => {
    const id = alertOf['webhook_endpoint.disabled']!;
    expect(data(await list({ status: 'all' }, { key: other.key })).map((a) => a.id)).toEqual([alertOf.theirs]);
    const cursor = (await list({ limit: 1 })).body.nextCursor as string;
    expect(data(await list({ cursor, status: 'all' }, { key: other.key })).map((a) => a.id)).not.toContain(id);

    const refused = expectEnvelope(await acknowledge(id, { key: other.key }), 404, 'alert_not_found');
    const unknown = expectEnvelope(await acknowledge('evt_000000000000000000000000', { key: other.key }), 404, 'alert_not_found');
    expect(refused.message.replace(id, '')).toBe(unknown.message.replace('evt_000000000000000000000000', ''));

    const viaGraphql = await gql({ token: otherSession }, 'mutation Ack($id: String!) { acknowledgeAlert(alertId: $id) { id } }', { id });
    expect(viaGraphql.body.errors[0].extensions.code).toBe('alert_not_found');
    const seen = await gql({ token: otherSession }, '{ alerts(status: all) { nodes { id } } }');
    expect(seen.body.data.alerts.nodes).toEqual([{ id: alertOf.theirs }]);
    expect(mcpCode(await mcp(other.key, 'alerts_acknowledge', { alert_id: id }))).toBe('alert_not_found');
    const tool = await mcp(other.key, 'alerts_list', { status: 'all' });
    expect(tool.body.result.structuredContent.data.map((a: Alert) => a.id)).toEqual([alertOf.theirs]);

    // still open for acme
    expect(data(await list()).find((a) => a.id === id)!.acknowledged).toBeNull();
  });
});
