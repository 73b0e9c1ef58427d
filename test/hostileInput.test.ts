// Input that is well-formed enough to pass the door but that PostgreSQL or a recursive walk
// cannot take: a NUL character in text, JSON nested thousands deep, a /graphql body past the
// size limit. Each is the client's to fix, so each is a 4xx naming what is wrong, at every door
// (REST, GraphQL, MCP), never a 500.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxJsonDepth } from '../core/json.ts';
import { maxBodyBytes } from '../rest/http.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
let token: string;
beforeAll(async () => {
  t = await startTestService();
  const org = await orgWithKey(t);
  key = org.key;
  token = await sessionToken(t, org.orgId);
});
afterAll(() => t?.close());

const accept = 'application/json, text/event-stream';
const mcp = (body: unknown) => call(t, 'POST', '/mcp', { key, rawBody: typeof body === 'string' ? body : JSON.stringify(body), headers: { accept } });
const graphql = (body: unknown) => call(t, 'POST', '/graphql', { key, rawBody: typeof body === 'string' ? body : JSON.stringify(body) });

describe('a NUL character in text', () => {
  it('in a query parameter is 400 invalid_request_parameter naming it', async () => {
    const answer = expectEnvelope(await call(t, 'GET', '/v1/search?q=app%00le', { key }), 400, 'invalid_request_parameter');
    expect(answer.details.parameter).toBe('q');
    expect(answer.message).toMatch(/`q`/);
  });

  it('in a path parameter is 400 invalid_request_parameter naming it', async () => {
    const answer = expectEnvelope(await call(t, 'GET', '/v1/monitors/mon_%00', { key }), 400, 'invalid_request_parameter');
    expect(answer.details.parameter).toBe('monitor_id');
    expect(answer.message).toMatch(/NUL/);
  });

  it('in a body field is 400 validation_error naming the field, and nothing is written', async () => {
    const { prisma } = t.service.services;
    const monitor = expectEnvelope(await call(t, 'POST', '/v1/monitors', { key, body: { name: 'nul\u0000name', query: { route: '/v1/filings' } } }), 400, 'validation_error');
    expect(monitor.details.issues).toEqual([expect.objectContaining({ path: 'name' })]);
    const saved = expectEnvelope(await call(t, 'POST', '/v1/monitors', { key, body: { name: 'fine', query: { route: '/v1/filings', params: { form: '10-K\u0000' } } } }), 400, 'validation_error');
    expect(saved.details.issues).toEqual([expect.objectContaining({ path: 'query.params.form' })]);
    const webhook = expectEnvelope(await call(t, 'POST', '/v1/webhook_endpoints', { token, body: { url: 'http://127.0.0.1:9/hook', description: 'a\u0000b' } }), 400, 'validation_error');
    expect(webhook.details.issues).toEqual([expect.objectContaining({ path: 'description' })]);
    const stream = expectEnvelope(await call(t, 'POST', '/v1/stream_subscriptions', { token, body: { description: '\u0000' } }), 400, 'validation_error');
    expect(stream.details.issues).toEqual([expect.objectContaining({ path: 'description' })]);
    expect(await prisma.monitor.count({ where: { name: { contains: 'nul' } } })).toBe(0);
  });

  it('in a GraphQL argument or variable is 400 with the same code in extensions', async () => {
    const literal = await graphql({ query: '{ search(q: "app\\u0000le") { hasMore } }' });
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].extensions).toMatchObject({ code: 'invalid_request_parameter', details: { parameter: 'q' } });
    const variable = await graphql({ query: 'query($q: String!) { search(q: $q) { hasMore } }', variables: { q: 'app\u0000le' } });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions).toMatchObject({ code: 'invalid_request_parameter', details: { parameter: 'q' } });
    const nested = await call(t, 'POST', '/graphql', { token, body: { query: 'mutation($i: StreamSubscriptionInput!) { createStreamSubscription(input: $i) { id } }', variables: { i: { description: 'x\u0000' } } } });
    expect(nested.status).toBe(400);
    expect(nested.body.errors[0].extensions).toMatchObject({ code: 'invalid_request_parameter', details: { parameter: 'i.description' } });
  });

  it('in an MCP tool argument is a -32602 error naming it, not -32603', async () => {
    const answer = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { q: 'app\u0000le' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: -32602, data: { code: 'validation_error', parameter: 'q' } });
    expect(answer.body.error.message).toMatch(/`q`/);
  });
});

describe('deeply nested JSON', () => {
  const deep = '['.repeat(10_000) + ']'.repeat(10_000);
  const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  const unclosed = '['.repeat(10_000);

  it('is 400 invalid_json at REST, before anything walks it', async () => {
    for (const rawBody of [deep, deepObject, unclosed, `{"name":${deep}}`]) {
      const answer = expectEnvelope(await call(t, 'POST', '/v1/monitors', { key, rawBody }), 400, 'invalid_json');
      expect(answer.message).toMatch(String(maxJsonDepth));
    }
  });

  it('is a -32700 parse error at MCP', async () => {
    for (const raw of [deep, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":${deep}}}}`]) {
      const answer = await mcp(raw);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: -32700, data: { code: 'invalid_json' } });
    }
  });

  it('is 400 invalid_json at /graphql, in the error envelope, before GraphQL reads it', async () => {
    // one level past the limit (the body and its variables are two), and a deep body that is not JSON at all
    const justPast = '['.repeat(maxJsonDepth - 1) + ']'.repeat(maxJsonDepth - 1);
    for (const raw of [deep, `{"query":"{ __typename }","variables":{"v":${deep}}}`, `{"query":"{ __typename }","variables":{"v":${justPast}}}`, unclosed]) {
      expectEnvelope(await graphql(raw), 400, 'invalid_json');
    }
    const viaGet = await call(t, 'GET', `/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent(`{"v":${'['.repeat(1000)}${']'.repeat(1000)}}`)}`, { key, headers: { accept: 'application/json' } });
    expectEnvelope(viaGet, 400, 'invalid_json');
  });

  it('nested as deep as the limit is still accepted', async () => {
    const value = '['.repeat(maxJsonDepth - 2) + ']'.repeat(maxJsonDepth - 2);
    const answer = await graphql(`{"query":"{ __typename }","variables":{"v":${value}}}`);
    expect(answer.status).toBe(200);
  });
});

describe('a /graphql body past the limit', () => {
  const big = JSON.stringify({ query: `{ __typename }`, variables: { pad: 'x'.repeat(maxBodyBytes) } });

  it('is 413 request_too_large in the error envelope, credentials or not', async () => {
    for (const headers of [{ 'x-api-key': key }, {}] as Record<string, string>[]) {
      const answer = await call(t, 'POST', '/graphql', { rawBody: big, headers });
      const body = expectEnvelope(answer, 413, 'request_too_large');
      expect(body.details.maxBytes).toBe(maxBodyBytes);
    }
  });

  it('is 413 also when sent chunked, without Content-Length', async () => {
    const answer = await new Promise<{ status: number; body: any; headers: Record<string, unknown> }>((resolve, reject) => {
      const url = new URL('/graphql', t.url);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), headers: res.headers }));
      });
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
      const chunk = 'x'.repeat(64 * 1024);
      req.write('{"query":"{ __typename }","variables":{"pad":"');
      const writeMore = (left: number) => {
        if (left <= 0 || req.destroyed) return void req.end('"}}');
        if (req.write(chunk)) setImmediate(() => writeMore(left - chunk.length));
        else req.once('drain', () => writeMore(left - chunk.length));
      };
      writeMore(2 * maxBodyBytes);
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ object: 'error', code: 'request_too_large', requestId: answer.headers['request-id'] });
  });

  it('a body under the limit is still served', async () => {
    const answer = await graphql({ query: '{ __typename }', variables: { pad: 'x'.repeat(maxBodyBytes / 2) } });
    expect(answer.status).toBe(200);
  });
});
