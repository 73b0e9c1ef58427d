// Traces (GET /v1/traces/{request_id}, GraphQL `requestTrace`, the MCP tool traces_get): a request
// through each door is traced door → executor → root field → SQL, its trace id is the one of the
// response's traceparent (an incoming one is honoured as its parent), SQL spans carry the
// statement's shape and never a value or a secret, another organization's request is the same 404
// as an unknown one at every door, and with OTEL_EXPORTER_OTLP_ENDPOINT the same spans reach an
// OTLP/HTTP collector.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, expectEnvelope, orgWithKey, startTestService, type Answer, type TestService } from './harness.ts';

interface Span {
  object: 'span';
  spanId: string;
  name: string;
  kind: string;
  startMs: number;
  durationMs: number;
  status: string;
  attributes: Record<string, unknown>;
  children: Span[];
}

/** What an OTLP/HTTP collector received: every span of every export (OTLP/JSON). */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

let t: TestService;
let collector: Server;
const exported: ExportedSpan[] = [];
const exportPaths: string[] = [];
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let other: Awaited<ReturnType<typeof orgWithKey>>;

/** A collector speaking OTLP/HTTP with JSON bodies, as the exporter sends them. */
function startCollector(): Promise<string> {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      exportPaths.push(`${req.method} ${req.url}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] };
      for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) exported.push(...scope.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => collector.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(collector.address() as AddressInfo).port}`)));
}

const mcp = (key: string, name: string, args: Record<string, unknown>) =>
  call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });

const gqlTrace = `query Trace($requestId: String!) { requestTrace(requestId: $requestId) { traceId spans { spanId parentSpanId name kind } } }`;

/** The trace of a request answered before, read through REST as its organization. */
const readTrace = (requestId: string, key = acme.key) =>
  eventually(`the trace of ${requestId}`, async () => {
    const answer = await call(t, 'GET', `/v1/traces/${requestId}`, { key });
    return answer.status === 200 ? answer : null;
  });

const traceIdOf = (answer: Answer) => answer.headers.get('traceparent')!.split('-')[1]!;

/** Every span of a tree, depth first. */
const flat = (spans: Span[]): Span[] => spans.flatMap((s) => [s, ...flat(s.children)]);

/** door → execute → resolve → SQL: the path the request's spans must nest along. */
function expectDoorToSql(spans: Span[], door: string, operation: string, rootField: string) {
  expect(spans).toHaveLength(1);
  const [root] = spans as [Span];
  expect(root).toMatchObject({ kind: 'server', name: `${door} ${operation}`, startMs: 0, attributes: { 'ids.door': door, 'http.response.status_code': 200 } });
  const execute = flat(root.children).find((s) => s.name.startsWith('execute '));
  expect(execute, 'an executor span').toBeDefined();
  const resolve = execute!.children.find((s) => s.name === `resolve Query.${rootField}`);
  expect(resolve, 'a root field span in the executor').toBeDefined();
  const sql = flat(resolve!.children).filter((s) => s.attributes['db.system.name'] === 'postgresql');
  // the page itself (the read flushes this instance's unwritten records first, an INSERT, when it holds any)
  expect(sql.map((s) => s.name)).toContain('SELECT RequestRecord');
  for (const s of sql) {
    expect(s.kind).toBe('client');
    expect(typeof s.attributes['db.query.text']).toBe('string');
    expect(s.startMs).toBeGreaterThanOrEqual(execute!.startMs);
    expect(s.durationMs).toBeGreaterThanOrEqual(0);
  }
  return { root, sql };
}

beforeAll(async () => {
  const endpoint = await startCollector();
  // the service reads its environment as it starts (modules are shared across suites: put it back)
  const saved = { endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT, delay: process.env.OTEL_BSP_SCHEDULE_DELAY };
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
  try {
    t = await startTestService();
  } finally {
    for (const [name, value] of [['OTEL_EXPORTER_OTLP_ENDPOINT', saved.endpoint], ['OTEL_BSP_SCHEDULE_DELAY', saved.delay]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  acme = await orgWithKey(t, 'Traces Acme');
  other = await orgWithKey(t, 'Traces Other');
});
afterAll(async () => {
  await t?.close();
  collector?.close();
});

describe('a request through each door is traced from its door to its SQL', () => {
  it('REST: the route, its persisted operation, its root field and each statement', async () => {
    const read = await call(t, 'GET', '/v1/requests?limit=5', { key: acme.key });
    expect(read.status).toBe(200);
    const trace = await readTrace(read.headers.get('request-id')!);
    expect(trace.body).toMatchObject({ object: 'trace', traceId: traceIdOf(read), request: { id: read.headers.get('request-id'), door: 'rest', operation: 'requests_list', status: 200 }, droppedSpans: 0 });
    expect(trace.body.request.durationMs).toBeGreaterThan(0);
    const { root, sql } = expectDoorToSql(trace.body.spans, 'rest', 'requests_list', 'requests');
    // the response's traceparent names the door span
    expect(read.headers.get('traceparent')).toBe(`00-${trace.body.traceId}-${root.spanId}-01`);
    // a statement's shape, never a value: not the organization the query was narrowed to, nor the key
    const texts = sql.map((s) => String(s.attributes['db.query.text'])).join('\n');
    expect(texts).toContain('FROM "RequestRecord" WHERE "RequestRecord"."orgId" = $1');
    expect(texts).not.toContain(acme.orgId);
    expect(JSON.stringify(trace.body)).not.toContain(acme.key);
  });

  it('GraphQL: the operation, its root field and each statement', async () => {
    const query = await call(t, 'POST', '/graphql', { key: acme.key, body: { query: 'query RecentRequests { requests(first: 3) { nodes { id status } } }', operationName: 'RecentRequests' } });
    expect(query.status).toBe(200);
    expect(query.body.errors).toBeUndefined();
    const trace = await readTrace(query.headers.get('request-id')!);
    expect(trace.body).toMatchObject({ traceId: traceIdOf(query), request: { door: 'graphql', operation: 'RecentRequests' } });
    expectDoorToSql(trace.body.spans, 'graphql', 'RecentRequests', 'requests');
  });

  it('MCP: the tool call, its route\'s operation, its root field and each statement', async () => {
    const tool = await mcp(acme.key, 'requests_list', { limit: 3 });
    expect(tool.status).toBe(200);
    expect(tool.body.result.isError).toBe(false);
    const trace = await readTrace(tool.headers.get('request-id')!);
    expect(trace.body).toMatchObject({ traceId: traceIdOf(tool), request: { door: 'mcp', operation: 'tools/call:requests_list' } });
    expectDoorToSql(trace.body.spans, 'mcp', 'tools/call:requests_list', 'requests');
  });

  it('the same trace through GraphQL and MCP as through REST', async () => {
    const read = await call(t, 'GET', '/v1/limits', { key: acme.key });
    const requestId = read.headers.get('request-id')!;
    const rest = await readTrace(requestId);
    const gql = await call(t, 'POST', '/graphql', { key: acme.key, body: { query: gqlTrace, variables: { requestId } } });
    expect(gql.body.data.requestTrace.traceId).toBe(rest.body.traceId);
    expect(gql.body.data.requestTrace.spans.map((s: { spanId: string }) => s.spanId).sort()).toEqual(flat(rest.body.spans).map((s) => s.spanId).sort());
    const tool = await mcp(acme.key, 'traces_get', { request_id: requestId });
    expect(tool.body.result.structuredContent).toMatchObject({ object: 'trace', traceId: rest.body.traceId, request: { id: requestId } });
  });
});

describe('trace context', () => {
  it('honours an incoming traceparent as the parent: same trace id, the door span its child', async () => {
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const read = await call(t, 'GET', '/v1/me', { key: acme.key, headers: { traceparent: incoming } });
    expect(read.headers.get('traceparent')).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(read.headers.get('traceparent')).not.toBe(incoming);
    const trace = await readTrace(read.headers.get('request-id')!);
    expect(trace.body.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    const door = await eventually('the door span at the collector', () => exported.find((s) => s.spanId === trace.body.spans[0].spanId));
    expect(door).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7' });
  });

  it('an error is traced too, and its envelope carries the same traceparent', async () => {
    const refused = await call(t, 'GET', '/v1/requests?status=nonsense', { key: acme.key });
    const body = expectEnvelope(refused, 400, 'invalid_query_parameter');
    const trace = await readTrace(refused.headers.get('request-id')!);
    expect(body.traceparent).toBe(`00-${trace.body.traceId}-${trace.body.spans[0].spanId}-01`);
    expect(trace.body.spans[0].attributes).toMatchObject({ 'http.response.status_code': 400, 'ids.error_code': 'invalid_query_parameter' });
  });
});

describe('another organization\'s trace', () => {
  it('is the same 404 as an unknown request, at every door', async () => {
    const theirs = await call(t, 'GET', '/v1/requests?limit=1', { key: acme.key });
    const theirId = theirs.headers.get('request-id')!;
    await readTrace(theirId); // recorded, and readable by its own organization
    const unknown = 'req_000000000000000000000000';
    for (const requestId of [theirId, unknown]) {
      const rest = expectEnvelope(await call(t, 'GET', `/v1/traces/${requestId}`, { key: other.key }), 404, 'trace_not_found');
      expect(rest.message).not.toContain('Traces Acme');
      const gql = await call(t, 'POST', '/graphql', { key: other.key, body: { query: gqlTrace, variables: { requestId } } });
      expect(gql.body.data).toBeNull();
      expect(gql.body.errors[0].extensions.code).toBe('trace_not_found');
      const tool = await mcp(other.key, 'traces_get', { request_id: requestId });
      expect(tool.body.result.isError).toBe(true);
      expect(JSON.parse(tool.body.result.content[0].text)).toMatchObject({ object: 'error', code: 'trace_not_found' });
    }
  });

  it('is refused without credentials and for a malformed id, as every org route is', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/traces/req_000000000000000000000000'), 401, 'missing_api_key');
    expectEnvelope(await call(t, 'GET', '/v1/traces/not-a-request', { key: acme.key }), 400, 'invalid_request_parameter');
  });
});

describe('export to the operator\'s OTLP collector', () => {
  it('receives every span of a request, under the trace id of the response\'s traceparent', async () => {
    const read = await call(t, 'GET', '/v1/requests?limit=2', { key: acme.key });
    const traceId = traceIdOf(read);
    const trace = await readTrace(read.headers.get('request-id')!);
    const kept = flat(trace.body.spans).map((s) => s.spanId);
    const arrived = await eventually('the spans at the collector', () => {
      const ofTrace = exported.filter((s) => s.traceId === traceId);
      return kept.every((id) => ofTrace.some((s) => s.spanId === id)) && ofTrace;
    });
    expect(exportPaths.every((p) => p === 'POST /v1/traces')).toBe(true);
    const door = arrived.find((s) => s.spanId === kept[0])!;
    expect(door.name).toBe('rest requests_list');
    expect(door.parentSpanId ?? '').toBe('');
    expect(arrived.some((s) => s.name === 'execute RequestsList' && s.parentSpanId)).toBe(true);
  });
});
