// What a client reads when a parameter is wrong: our own words, naming the parameter the same way
// whatever the door (a tool argument over MCP is no "query parameter"), never repeating more than
// 200 characters of what the client sent, and logged as the client's mistake (info), not ours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type Answer, type TestService } from './harness.ts';

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

const zodsWords = /Invalid input|Invalid option|Invalid string|Too big|Too small|expected \w+, received|Unrecognized key/;
const tool = (name: string, args: Record<string, unknown>) =>
  call(t, 'POST', '/mcp', { key, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, headers: { accept: 'application/json, text/event-stream' } });

describe('a parameter that fails its schema', () => {
  it('is told in our words, naming the parameter', async () => {
    const cases: [string, string, string][] = [
      ['/v1/facts?ticker=AAPL&limit=5', 'invalid_query_parameter', 'Parameter `tag` is required.'],
      ['/v1/api_keys?limit=101', 'invalid_query_parameter', 'Parameter `limit` is at most 100.'],
      ['/v1/api_keys?limit=0', 'invalid_query_parameter', 'Parameter `limit` is at least 1.'],
      ['/v1/api_keys?limit=2.5', 'invalid_query_parameter', 'Parameter `limit` must be a whole number.'],
      ['/v1/api_keys?limit=ten', 'invalid_query_parameter', 'Parameter `limit` must be a number.'],
      ['/v1/limits?view=verbose', 'invalid_query_parameter', 'Parameter `view` must be one of default, compact, agent.'],
      ['/v1/limits?view=agent&view=compact', 'invalid_query_parameter', 'Parameter `view` must be one of default, compact, agent.'],
      ['/v1/search?q=', 'invalid_query_parameter', 'Parameter `q` must not be empty.'],
      ['/v1/filings?filed_from=2024-02-30', 'invalid_request_parameter', 'Parameter `filed_from`: not a calendar date.'],
      ['/v1/api_keys?limt=5', 'invalid_query_parameter', 'Unknown parameter `limt`. Accepted parameters: limit, cursor, view.'],
    ];
    for (const [route, code, message] of cases) {
      const body = expectEnvelope(await call(t, 'GET', route, { key }), 400, code);
      expect(body.message, route).toBe(message);
    }
  });

  it('in a body: each issue in our words, the first one in the message', async () => {
    const missing = expectEnvelope(await call(t, 'POST', '/v1/monitors', { key, body: {} }), 400, 'validation_error');
    expect(missing.details.issues).toEqual([
      { path: 'name', message: '`name` is required.', code: 'invalid_type' },
      { path: 'query', message: '`query` is required.', code: 'invalid_type' },
    ]);
    expect(missing.message).toBe('`name` is required. And 1 more problem: see details.issues.');
    const tooLong = expectEnvelope(await call(t, 'POST', '/v1/stream_subscriptions', { token, body: { description: 'x'.repeat(501) } }), 400, 'validation_error');
    expect(tooLong.message).toBe('`description` is at most 500 characters long.');
    const extra = expectEnvelope(await call(t, 'POST', '/v1/monitors', { key, body: { name: 'n', query: { route: '/v1/filings', extra: 1 } } }), 400, 'validation_error');
    expect(extra.details.issues).toEqual([{ path: 'query.extra', message: '`query.extra` is not accepted here.', code: 'unrecognized_keys' }]);
    const notObject = expectEnvelope(await call(t, 'POST', '/v1/monitors', { key, body: [] }), 400, 'validation_error');
    expect(notObject.message).toBe('The body must be an object, not a list.');
  });

  it('reads the same over MCP, where parameters are tool arguments', async () => {
    const tooMany = await tool('search', { q: 'revenue', limit: 101 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: -32602, message: 'Parameter `limit` is at most 100.', data: { code: 'validation_error', parameter: 'limit' } });
    const unknown = await tool('search', { q: 'revenue', colour: 'red' });
    expect(unknown.body.error.message).toMatch(/^Unknown parameter `colour`\./);
    const required = await tool('search', {});
    expect(required.body.error.message).toBe('Parameter `q` is required.');
    for (const answer of [tooMany, unknown, required]) expect(answer.body.error.message).not.toMatch(/query parameter|path parameter/i);
  });

  it('never in zod\'s words, at any door', async () => {
    const answers: Answer[] = [
      await call(t, 'GET', '/v1/facts?ticker=AAPL', { key }),
      await call(t, 'GET', '/v1/api_keys?limit=101', { key }),
      await call(t, 'POST', '/v1/monitors', { key, body: { name: 5, query: { route: 7 } } }),
      await tool('facts', { ticker: 'AAPL' }),
    ];
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toMatch(zodsWords);
  });
});

describe('a long value the client sent', () => {
  const long = 'x'.repeat(5000);
  const echoes = (message: string) => {
    expect(message.length).toBeLessThan(400);
    expect(message).toMatch(/x{150,200}…/);
    expect(message).not.toContain('x'.repeat(201));
  };

  it('is repeated at most 200 characters long, with an ellipsis', async () => {
    const parameter = expectEnvelope(await call(t, 'GET', `/v1/api_keys?${long}=1`, { key }), 400, 'invalid_query_parameter');
    echoes(parameter.message);
    expect(parameter.details.parameter).toBe(`${'x'.repeat(200)}…`);
    echoes(expectEnvelope(await call(t, 'GET', '/v1/limits', { key, headers: { 'service-version': long } }), 400, 'invalid_request_parameter').message);
    echoes(expectEnvelope(await call(t, 'GET', `/v1/${long}`, { key }), 404, 'route_not_found').message);
    echoes((await tool(long, {})).body.error.message);
    echoes((await tool('search', { q: 'revenue', [long]: 1 })).body.error.message);
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: `{ monitor(id: "${long}") { id } }` } });
    echoes(graphql.body.errors[0].message);
  });
});

describe('client errors in the log', () => {
  it('are logged at info, with the request, never at error', async () => {
    const answers = [
      await call(t, 'GET', '/v1/api_keys?limit=101', { key }),
      await call(t, 'GET', '/v1/search?q=app%00le', { key }),
      await call(t, 'POST', '/v1/monitors', { key, rawBody: '['.repeat(10_000) + ']'.repeat(10_000) }),
      await call(t, 'POST', '/v1/monitors', { key, rawBody: '{"name":' }),
      await call(t, 'GET', '/v1/me'),
      await call(t, 'GET', '/v1/nowhere', { key }),
      await call(t, 'POST', '/graphql', { key, body: { query: '{ nothing }' } }),
      await call(t, 'POST', '/graphql', { key, body: { query: 'query($q: String!) { search(q: $q) { hasMore } }', variables: { q: 'a\u0000b' } } }),
      await call(t, 'POST', '/graphql', { key, body: { query: '{ monitor(id: "mon_nothere") { id } }' } }),
      await call(t, 'POST', '/graphql', { key, rawBody: '{"query": ' }),
      await tool('search', { q: 'a\u0000b' }),
      await tool('monitors_get', { monitor_id: 'mon_000000000000000000000000' }),
      await tool('no_such_tool', {}),
    ];
    await new Promise((resolve) => setTimeout(resolve, 100)); // the request line is written when the answer finishes
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBeGreaterThanOrEqual(200);
      expect(answer.status).toBeLessThan(500);
      const requestId = answer.headers.get('request-id')!;
      const lines = t.logs.filter((line) => line.includes(requestId)).map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(lines.some((line) => line.msg === 'request' && line.level === 30), requestId).toBe(true);
      expect(lines.filter((line) => line.level >= 40), `${requestId}: ${JSON.stringify(answer.body).slice(0, 200)}`).toEqual([]);
    }
    expect(t.logs.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
  });
});
