// Diagnostics: every request is recorded, and a request's record shows what it caused (events and
// their webhook deliveries); the delivery summary counts, times and explains an org's deliveries.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, expectEnvelope, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let base: TestService;
let receiver: Server;
let receiverUrl: string;
let key: string;
let status = 200;

beforeAll(async () => {
  t = base = await startTestService();
  ({ key } = await orgWithKey(t));
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status).end(status === 200 ? 'ok' : 'broken'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await t?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});


const diagnostics = (requestId: string, as = key) => call(t, 'GET', `/v1/diagnostics/requests/${requestId}`, { key: as });

describe('diagnostics', () => {
  it('records a request with its route, status, meter class and units, and an error with its code', async () => {
    const ok = await call(t, 'GET', '/v1/limits', { key });
    const record = await diagnostics(ok.headers.get('request-id')!);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      object: 'request_diagnostics',
      request: { id: ok.headers.get('request-id'), door: 'rest', operation: 'limits_get', method: 'GET', path: '/v1/limits', status: 200, errorCode: null },
      usage: { meterClass: 'platform', units: 1 },
      events: [],
      deliveries: [],
    });
    expect(Math.abs(Date.parse(record.body.request.createdAt) - Date.now())).toBeLessThan(60_000); // recorded as UTC

    const bad = await call(t, 'PATCH', '/v1/webhook_endpoints/we_000000000000000000000000', { key, body: { description: 'x' } });
    const failed = await diagnostics(bad.headers.get('request-id')!);
    expect(failed.body.request).toMatchObject({ status: 404, errorCode: 'webhook_endpoint_not_found', operation: 'webhook_endpoints_update' });
  });

  it('records GraphQL operations by name and MCP tool calls by tool', async () => {
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: 'query WhoAmI { me { kind } }', operationName: 'WhoAmI' } });
    const recorded = (await diagnostics(graphql.headers.get('request-id')!)).body;
    expect(recorded.request).toMatchObject({ door: 'graphql', operation: 'WhoAmI', status: 200 });
    // a starter organization pays with its grant: nothing charged to credit
    // an account read: the platform class, one unit
    expect(recorded.usage).toEqual({ meterClass: 'platform', units: 1, chargedMillicents: null, ledgerEntryId: null });

    const mcp = await call(t, 'POST', '/mcp', {
      key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'event_types_list', arguments: {} } },
    });
    expect(mcp.status).toBe(200);
    expect((await diagnostics(mcp.headers.get('request-id')!)).body.request).toMatchObject({ door: 'mcp', operation: 'tools/call:event_types_list', status: 200 });
  });

  it('shows the events a request caused and their webhook deliveries', async () => {
    const endpoint = (await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { url: receiverUrl, eventTypes: ['webhook.test'] } })).body;
    const test = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/test`, { key });
    const requestId = test.headers.get('request-id')!;
    const shown = await eventually('the delivery to succeed', async () => {
      const answer = await diagnostics(requestId);
      return answer.body.deliveries?.[0]?.status === 'succeeded' ? answer.body : undefined;
    });
    expect(shown.events).toEqual([expect.objectContaining({ object: 'event', id: test.body.eventId, type: 'webhook.test', requestId, data: expect.objectContaining({ webhookEndpointId: endpoint.id }) })]);
    expect(shown.deliveries).toEqual([expect.objectContaining({ id: test.body.id, eventId: test.body.eventId, webhookEndpointId: endpoint.id, responseStatus: 200 })]);
  });

  it('summarizes deliveries by status and endpoint, with latency and the top failure reasons', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    // The real retry schedule (the failed delivery's next attempt stays pending for 5 s), in a
    // database of its own: other suites' instances, which retry faster, must not make its attempts.
    const database = await scratchDatabase();
    const t = await startTestService({ database: database.target, webhooks: { ...base.service.services.config.webhooks, retryScale: 1 } });
    const diagnostics = (requestId: string, as: string) => call(t, 'GET', `/v1/diagnostics/requests/${requestId}`, { key: as });
    const own = await orgWithKey(t);
    const endpoint = (await call(t, 'POST', '/v1/webhook_endpoints', { key: own.key, body: { url: receiverUrl, eventTypes: ['webhook.test'] } })).body;
    status = 200;
    const good = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/test`, { key: own.key });
    await eventually('the first delivery', async () => ((await diagnostics(good.headers.get('request-id')!, own.key)).body.deliveries?.[0]?.status === 'succeeded' ? true : undefined));
    status = 500;
    const bad = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/test`, { key: own.key });
    await eventually('the second delivery to fail', async () => ((await diagnostics(bad.headers.get('request-id')!, own.key)).body.deliveries?.[0]?.status === 'retrying' ? true : undefined));
    status = 200;

    const summary = await call(t, 'GET', `/v1/diagnostics/deliveries/summary?from=${encodeURIComponent(from)}`, { key: own.key });
    expect(summary.status).toBe(200);
    expect(summary.body.byStatus).toEqual({ succeeded: 1, retrying: 1, pending: 1, failed: 0 });
    expect(summary.body.total).toBe(3);
    expect(summary.body.byEndpoint).toEqual([{ webhookEndpointId: endpoint.id, succeeded: 1, retrying: 1, pending: 1, failed: 0 }]);
    expect(summary.body.latencyMs.attempted).toBeGreaterThanOrEqual(2);
    expect(summary.body.latencyMs.p50).toBeGreaterThanOrEqual(0);
    expect(summary.body.topFailureReasons).toEqual([{ reason: 'the receiver answered 500', count: 1 }]);

    // another organization's window holds none of it
    const empty = await call(t, 'GET', `/v1/diagnostics/deliveries/summary?from=${encodeURIComponent(from)}`, { key: (await orgWithKey(t)).key });
    expect(empty.body).toMatchObject({ total: 0, byEndpoint: [], topFailureReasons: [] });
    expectEnvelope(await call(t, 'GET', '/v1/diagnostics/deliveries/summary?from=yesterday', { key: own.key }), 400, 'invalid_request_parameter');
    await t.close();
    await database.drop();
  });

  it('another organization\'s request id is 404 request_not_found', async () => {
    const mine = await call(t, 'GET', '/v1/limits', { key });
    const other = await orgWithKey(t);
    expectEnvelope(await diagnostics(mine.headers.get('request-id')!, other.key), 404, 'request_not_found');
    expectEnvelope(await diagnostics('req_000000000000000000000000'), 404, 'request_not_found');
  });
});
