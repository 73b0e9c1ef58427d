// Operations endpoints against real services: liveness, readiness (a database with a migration
// missing, a Redis that does not answer), Prometheus metrics without organization data, and a
// shutdown that lets requests in flight finish.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, startIsolatedService, startTestService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
let orgId: string;
beforeAll(async () => {
  t = await startTestService();
  ({ key, orgId } = await orgWithKey(t));
});
afterAll(() => t?.close());

describe('GET /healthz', () => {
  it('answers 200 {status: "ok"} without a key', async () => {
    const answer = await call(t, 'GET', '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database is reachable and migrated', async () => {
    const answer = await call(t, 'GET', '/readyz');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.status).toBe('ok');
  });

  it('answers 503 with Retry-After naming the database when a migration is not applied', async () => {
    const isolated = await startIsolatedService();
    try {
      await isolated.service.services.prisma.$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)`;
      const answer = await call(isolated, 'GET', '/readyz');
      expectEnvelope(answer, 503, 'service_unavailable');
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body.details.down).toEqual(['database']);
      expect(answer.body.message).toMatch(/database migrations are pending/);
    } finally {
      await isolated.close();
    }
  });

  it('answers 503 naming redis when REDIS_URL is configured and Redis does not answer', async () => {
    // a port nothing listens on: the connection is refused
    const probe = http.createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const withRedis = await startTestService({ redisUrl: `redis://127.0.0.1:${port}` });
    try {
      const answer = await call(withRedis, 'GET', '/readyz');
      expectEnvelope(answer, 503, 'service_unavailable');
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body.details.down).toContain('redis');
      expect(answer.body.details.reasons.redis).toBe('unreachable');
    } finally {
      await withRedis.close();
    }
  }, 30_000);
});

describe('GET /metrics', () => {
  it('counts and times requests per route template and status, with no organization data', async () => {
    await call(t, 'GET', '/v1/macro/series/NOSUCHSERIES', { key });
    await call(t, 'GET', `/v1/no-such-route/${orgId}`, { key });
    const answer = await call(t, 'GET', '/metrics');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = answer.body as string;
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/macro\/series\/\{series_id\}",status="404"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/v1\/macro\/series\/\{series_id\}",status="404"\}/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^ids_webhook_deliveries_due \d+/m);
    expect(text).toMatch(/^ids_ingest_runs_unfinished \d+/m);
    // nothing that names an organization, a key or a raw URL
    expect(text).not.toContain(orgId);
    expect(text).not.toContain(key);
    expect(text).not.toContain('NOSUCHSERIES');
    expect(text).not.toMatch(/org_|idsk_/);
  });
});

describe('shutdown', () => {
  /** A POST whose body arrives in two parts: the request is in flight between them. */
  function slowPost(url: string, path: string, body: string, headers: Record<string, string>) {
    const target = new URL(path, url);
    const req = http.request(target, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    return { answered, finish: () => req.end(body.slice(half)), abandon: () => req.destroy() };
  }
  /** resolves when the service has the next request's headers */
  const arrival = (s: TestService) => new Promise((resolve) => s.service.httpServer.once('request', resolve));

  it('stops accepting, lets a request in flight finish, then closes', async () => {
    const s = await startTestService();
    const { key: sKey } = await orgWithKey(s);
    const arrived = arrival(s);
    const inFlight = slowPost(s.url, '/graphql', JSON.stringify({ query: '{ __typename }' }), { 'x-api-key': sKey });
    await arrived;
    const closing = s.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // new connections are refused at once
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
    inFlight.finish();
    const answer = await inFlight.answered;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ __typename: 'Query' });
    await closing;
  });

  it('closes after the grace period when a request never finishes', async () => {
    const s = await startTestService({ shutdownGraceMs: 300 });
    const arrived = arrival(s);
    const stuck = slowPost(s.url, '/graphql', JSON.stringify({ query: '{ __typename }' }), {});
    stuck.answered.catch(() => {}); // its connection is cut
    await arrived;
    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(3000);
    stuck.abandon();
  });
});
