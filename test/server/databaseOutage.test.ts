// The database goes away under a running service (stopped, restarted, the network cut): requests
// are answered 503 database_unavailable with Retry-After, never a 500, and the service recovers
// by itself once the database is back. The outage is made real with a TCP relay between the
// service and PostgreSQL that the test cuts and restores, so other suites keep their database.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';

class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Every connection dropped, new ones refused: what the service sees of a stopped database. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

describe('PostgreSQL unreachable, then back', { timeout: 60_000 }, () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let relay: Relay;
  let t: TestService;
  let key: string;

  beforeAll(async () => {
    database = await scratchDatabase();
    const url = new URL(database.url!);
    relay = new Relay({ host: url.hostname, port: Number(url.port || 5432) });
    await relay.open();
    url.host = `127.0.0.1:${relay.port}`;
    // nothing remembered between requests, so every request needs the database
    t = await startTestService({ database: { kind: 'postgres', url: url.toString() }, requestCacheTtlMs: 0 });
    ({ key } = await orgWithKey(t, 'Outage', 'team'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('answers 503 database_unavailable with Retry-After while it is away, and recovers by itself', async () => {
    const before = await call(t, 'GET', '/v1/me', { key });
    expect(before.status).toBe(200);
    const traced = before.headers.get('request-id');
    expect(traced).toBeTruthy();
    await relay.cut();
    // facts, statements and a ticker are read past the client's query engine (prisma/directRead.ts), statements without executing GraphQL
    for (const route of ['/v1/me', '/v1/filings?cik=320193', '/v1/facts?ticker=AAPL&tag=Revenues', '/v1/statements/all?cik=320193', `/v1/traces/${traced}`]) {
      const answer = await call(t, 'GET', route, { key });
      expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      expect(answer.body).toMatchObject({ object: 'error', code: 'database_unavailable', retryable: true });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.stringify(answer.body)).not.toMatch(/prisma|postgres|ECONN|at \w+ \(/i);
    }
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: '{ me { kind } }' } });
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('database_unavailable');
    expect(graphql.status).not.toBe(500);

    await relay.open();
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      status = (await call(t, 'GET', '/v1/me', { key })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });
});
