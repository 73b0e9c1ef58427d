// SPEC 2.1 and 7: every bad input gets the envelope, loses nothing, and leaks nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersion } from '../rest/version.ts';
import { call, expectEnvelope, orgWithKey, scratchDatabase, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
let org: Awaited<ReturnType<typeof orgWithKey>>;
let token: string;

beforeAll(async () => {
  t = await startTestService();
  org = await orgWithKey(t);
  token = await sessionToken(t, org.orgId);
});
afterAll(() => t?.close());

describe('request identity', () => {
  it('keeps the trace id of a valid traceparent and replaces an invalid one', async () => {
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const echoed = await call(t, 'GET', '/v1/me', { key: org.key, headers: { traceparent: incoming } });
    // the same trace; the parent id is the span that served the request (test/traces.test.ts)
    expect(echoed.headers.get('traceparent')).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(echoed.headers.get('request-id')).toMatch(/^req_/);
    for (const bad of ['garbage', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01']) {
      const replaced = await call(t, 'GET', '/v1/me', { key: org.key, headers: { traceparent: bad } });
      expect(replaced.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(replaced.headers.get('traceparent')).not.toBe(bad);
    }
  });
});

describe('the envelope for bad input', () => {
  it('404 route_not_found for an unknown path, 405 method_not_allowed with Allow for a wrong method', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/nothing-here', { key: org.key }), 404, 'route_not_found');
    expectEnvelope(await call(t, 'GET', '/favicon.ico'), 404, 'route_not_found');
    const wrong = await call(t, 'DELETE', '/v1/limits', { key: org.key });
    expectEnvelope(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET');
    const both = await call(t, 'PUT', '/v1/api_keys', { key: org.key });
    expect(both.headers.get('allow')).toBe('GET, POST');
  });

  it('400 invalid_json for a body that is not JSON, and nothing is written', async () => {
    for (const rawBody of ['{"name": ', 'name=x', '"just a string"']) {
      expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token, rawBody }), 400, 'invalid_json');
    }
    expect(await t.service.services.prisma.apiKey.count({ where: { orgId: org.orgId } })).toBe(1);
  });

  it('never a 500 for a URL with malformed percent-encoding', async () => {
    const answer = await call(t, 'GET', '/v1/limits?view=%E0%A4%A', { key: org.key });
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.object === 'error' ? answer.body.code : 'ok').not.toBe('internal_error');
    expect((await call(t, 'GET', '/v1/%ZZ', { key: org.key })).status).toBe(404);
  });

  it('415 unsupported_media_type for a body that is not sent as JSON', async () => {
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  });

  it('400 validation_error with details.issues for a body that fails its schema', async () => {
    const answer = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 42 } });
    const body = expectEnvelope(answer, 400, 'validation_error');
    expect(body.details.issues).toEqual([{ path: 'name', message: expect.any(String), code: 'invalid_type' }]);
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token, body: [] }), 400, 'validation_error');
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token }), 400, 'validation_error');
  });

  it('413 request_too_large for an oversized body', async () => {
    const answer = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'x'.repeat(2 * 1024 * 1024) } });
    const body = expectEnvelope(answer, 413, 'request_too_large');
    expect(body.details.maxBytes).toBe(1024 * 1024);
  });

  it('400 invalid_query_parameter naming the parameter and the accepted values', async () => {
    const misspelled = expectEnvelope(await call(t, 'GET', '/v1/api_keys?limt=5', { key: org.key }), 400, 'invalid_query_parameter');
    expect(misspelled.details).toEqual({ parameter: 'limt', acceptedValues: ['limit', 'cursor', 'view'] });
    for (const limit of ['0', '101', 'ten', '2.5']) {
      const out = expectEnvelope(await call(t, 'GET', `/v1/api_keys?limit=${limit}`, { key: org.key }), 400, 'invalid_query_parameter');
      expect(out.details.parameter).toBe('limit');
    }
    const view = expectEnvelope(await call(t, 'GET', '/v1/limits?view=verbose', { key: org.key }), 400, 'invalid_query_parameter');
    expect(view.details).toEqual({ parameter: 'view', acceptedValues: ['default', 'compact', 'agent'] });
    const repeated = expectEnvelope(await call(t, 'GET', '/v1/limits?view=agent&view=compact', { key: org.key }), 400, 'invalid_query_parameter');
    expect(repeated.details.parameter).toBe('view');
    const cursor = expectEnvelope(await call(t, 'GET', '/v1/api_keys?cursor=not-a-cursor', { key: org.key }), 400, 'invalid_query_parameter');
    expect(cursor.details).toEqual({ parameter: 'cursor' });
    const onParameterless = expectEnvelope(await call(t, 'GET', '/v1/billing/rates?plan=team'), 400, 'invalid_query_parameter');
    expect(onParameterless.details).toEqual({ parameter: 'plan', acceptedValues: ['view'] });
  });

  it('400 invalid_request_parameter for a syntactically bad path parameter', async () => {
    for (const id of ['nope', 'key_short', `org_${'a'.repeat(24)}`]) {
      const answer = expectEnvelope(await call(t, 'DELETE', `/v1/api_keys/${id}`, { token }), 400, 'invalid_request_parameter');
      expect(answer.details.parameter).toBe('key_id');
    }
  });

  it('400 invalid_request_parameter for an unknown service-version; the current one and none are accepted', async () => {
    const unknown = expectEnvelope(await call(t, 'GET', '/v1/limits', { key: org.key, headers: { 'service-version': '2024-01-01' } }), 400, 'invalid_request_parameter');
    expect(unknown.details).toEqual({ parameter: 'service-version', acceptedValues: [apiVersion] });
    expectEnvelope(await call(t, 'GET', '/v1/limits', { key: org.key, headers: { 'service-version': 'latest' } }), 400, 'invalid_request_parameter');
    const current = await call(t, 'GET', '/v1/limits', { key: org.key, headers: { 'service-version': apiVersion } });
    expect(current.status).toBe(200);
    expect(current.headers.get('service-version')).toBe(apiVersion);
  });
});

describe('an unexpected failure', () => {
  it('is a generic 500 for the client, the cause goes to the log, and the service keeps answering', async () => {
    const database = await scratchDatabase();
    const doomed = await startTestService({ database: database.target });
    try {
      const victim = await orgWithKey(doomed);
      // The API key table disappears under the running service.
      await doomed.service.services.prisma.$executeRawUnsafe('ALTER TABLE "ApiKey" RENAME TO "ApiKeyGone"');
      const answer = await call(doomed, 'GET', '/v1/me', { key: victim.key });
      const body = expectEnvelope(answer, 500, 'internal_error');
      expect(body.retryable).toBe(true);
      expect(JSON.stringify(body)).not.toMatch(/prisma|pglite|pg_|stack|\.ts/i);
      const logged = doomed.logs.find((line) => line.includes(body.requestId) && line.includes('"level":50'));
      expect(logged).toBeDefined();
      expect(logged).toMatch(/ApiKey/); // the cause: the table that is gone
      expect(doomed.logs.join('\n')).not.toMatch(/"stack"|\bat .+\.(ts|js):\d+/);
      expect((await call(doomed, 'GET', '/v1/billing/rates?view=oops')).status).toBe(400);
    } finally {
      await doomed.close();
      await database.drop();
    }
  });
});
