// What a security review asks of every answer: no MIME sniffing, a restrictive CSP (GraphiQL's
// allows its own scripts by hash and nothing else), no caching of anything that depends on who
// asked, and an explicit CORS policy that never trusts an origin it was not told to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgWithKey, startTestService, type TestService } from './harness.ts';

let t: TestService;
let withDashboard: TestService;
let key: string;
beforeAll(async () => {
  [t, withDashboard] = await Promise.all([startTestService(), startTestService({ corsOrigins: ['https://dashboard.example'] })]);
  ({ key } = await orgWithKey(t));
});
afterAll(async () => {
  await Promise.all([t?.close(), withDashboard?.close()]);
});

const mcpInit = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

describe('every answer', () => {
  it('says nosniff, allows no content, and is not stored when it depends on the caller', async () => {
    const answers = {
      'org-scoped read': await call(t, 'GET', '/v1/me', { key }),
      'error': await call(t, 'GET', '/v1/no-such-route', { key }),
      'unauthenticated': await call(t, 'GET', '/v1/me'),
      'graphql': await call(t, 'POST', '/graphql', { key, body: { query: '{ me { kind } }' } }),
      'mcp': await call(t, 'POST', '/mcp', { key, body: mcpInit, headers: { accept: 'application/json, text/event-stream' } }),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
      expect(answer.headers.get('cache-control'), what).toBe('no-store');
      expect(answer.headers.get('content-security-policy'), what).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('public reads may be cached for five minutes', async () => {
    for (const route of ['/v1/billing/rates', '/openapi/sec-api.v1.json']) {
      const answer = await call(t, 'GET', route);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control'), route).toBe('public, max-age=300');
      expect(answer.headers.get('x-content-type-options'), route).toBe('nosniff');
    }
  });
});

describe('GraphiQL', () => {
  it('is a small page under a CSP of this origin\'s scripts only, its code in assets cached for a year', async () => {
    const response = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await response.text();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    // the package's page is about 9 MB, nearly all inline code
    expect(Buffer.byteLength(html)).toBeLessThan(100_000);
    expect(html).not.toMatch(/<script>[^<]/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');

    const assets = [...html.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    let bytes = 0;
    for (const asset of assets) {
      const answer = await fetch(`${t.url}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      bytes += (await answer.arrayBuffer()).byteLength;
    }
    // every script and style the page had inline is in them
    expect(bytes).toBeGreaterThan(5_000_000);
    expect((await fetch(`${t.url}/graphql/assets/graphiql-0000000000000000.js`)).status).toBe(404);
  });
});

describe('CORS', () => {
  const preflight = (service: TestService, origin: string, headers = 'content-type, authorization') =>
    fetch(`${service.url}/graphql`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });

  it('by default no origin may read answers from a browser', async () => {
    const read = await call(t, 'POST', '/graphql', { key, body: { query: '{ me { kind } }' }, headers: { origin: 'https://evil.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const asked = await preflight(t, 'https://evil.example');
    expect(asked.status).toBe(204);
    expect(asked.headers.get('access-control-allow-origin')).toBeNull();
    expect(asked.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('a configured origin may, with a session but never with an API key, and never with credentials', async () => {
    const asked = await preflight(withDashboard, 'https://dashboard.example', 'content-type, authorization, x-api-key');
    expect(asked.status).toBe(204);
    expect(asked.headers.get('access-control-allow-origin')).toBe('https://dashboard.example');
    const allowed = asked.headers.get('access-control-allow-headers')!.split(/,\s*/);
    expect(allowed).toContain('authorization');
    expect(allowed).not.toContain('x-api-key');
    expect(asked.headers.get('access-control-allow-credentials')).toBeNull();

    const read = await call(withDashboard, 'GET', '/v1/billing/rates', { headers: { origin: 'https://dashboard.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBe('https://dashboard.example');
    expect(read.headers.get('vary')).toMatch(/origin/i);
    expect(read.headers.get('access-control-expose-headers')).toMatch(/request-id/);
    const other = await call(withDashboard, 'GET', '/v1/billing/rates', { headers: { origin: 'https://other.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
