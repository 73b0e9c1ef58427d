// The Streamable HTTP transport rules of the MCP specification (2025-11-25), checked on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgWithKey, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startTestService();
  ({ key } = await orgWithKey(t));
});
afterAll(() => t?.close());

const accept = 'application/json, text/event-stream';
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, 'x-api-key': key, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : null };
}

describe('initialize', () => {
  it('answers with the client\'s version when supported, else the latest, and hands out a session id', async () => {
    const current = await post(initialize);
    expect(current.status).toBe(200);
    expect(current.headers.get('content-type')).toMatch(/application\/json/);
    expect(current.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'investor-data-service' } } });
    expect(current.headers.get('mcp-session-id')).toMatch(/^mcp_/);
    const previous = await post({ ...initialize, params: { ...initialize.params, protocolVersion: '2025-06-18' } });
    expect(previous.json.result.protocolVersion).toBe('2025-06-18');
    const future = await post({ ...initialize, params: { ...initialize.params, protocolVersion: '2099-01-01' } });
    expect(future.json.result.protocolVersion).toBe('2025-11-25');
  });

  it('honours its session id, refuses one it did not issue (404), and works without one', async () => {
    const session = (await post(initialize)).headers.get('mcp-session-id')!;
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': session })).json).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect((await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': `${session.slice(0, -2)}xx` })).status).toBe(404);
    const other = await orgWithKey(t);
    expect((await post({ jsonrpc: '2.0', id: 4, method: 'ping' }, { 'mcp-session-id': session, 'x-api-key': other.key })).status).toBe(404);
    expect((await post({ jsonrpc: '2.0', id: 5, method: 'tools/list' })).status).toBe(200);
  });
});

describe('the transport rules', () => {
  it('202 with no body for a notification or a response', async () => {
    const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).toBe(202);
    expect(notification.text).toBe('');
    const response = await post({ jsonrpc: '2.0', id: 'server-1', result: {} });
    expect(response.status).toBe(202);
    expect(response.text).toBe('');
  });

  it('400 for an unsupported MCP-Protocol-Version; a supported one is honoured', async () => {
    const unsupported = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.error.data.acceptedValues).toContain('2025-11-25');
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
  });

  it('406 unless Accept lists both application/json and text/event-stream', async () => {
    expect((await post(initialize, { accept: 'application/json' })).status).toBe(406);
    expect((await post(initialize, { accept: 'text/event-stream' })).status).toBe(406);
  });

  it('405 for GET (no server stream) and DELETE', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${t.url}/mcp`, { method, headers: { accept: 'text/event-stream', 'x-api-key': key } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('403 for a browser Origin that is not allowed; localhost and none are fine', async () => {
    expect((await post(initialize, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(initialize, { origin: 'http://localhost:5173' })).status).toBe(200);
  });

  it('-32700 for malformed JSON and -32600 for what is not a request', async () => {
    const malformed = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    for (const notRequest of [[initialize], { jsonrpc: '1.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }, 'null']) {
      const answer = await post(notRequest);
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe(-32600);
    }
  });

  it('404 -32601 for an unknown method; 401 with the resource metadata for a missing key', async () => {
    const unknown = await post({ jsonrpc: '2.0', id: 9, method: 'sampling/createMessage', params: {} });
    expect(unknown).toMatchObject({ status: 404, json: { id: 9, error: { code: -32601, data: { code: 'invalid_request' } } } });
    const anonymous = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(initialize) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/resource_metadata=".*\/\.well-known\/oauth-protected-resource"/);
    expect((await anonymous.json()).error.data.code).toBe('missing_api_key');
  });

  it('accepts a dashboard session as a bearer token', async () => {
    const { sessionToken } = await import('../harness.ts');
    const org = await orgWithKey(t);
    const answer = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'x-api-key': '', authorization: `Bearer ${await sessionToken(t, org.orgId)}` });
    expect(answer.status).toBe(200);
    expect(answer.json.result.tools.length).toBeGreaterThan(10);
  });
});
