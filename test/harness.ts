// Test services are the real thing: createService on a real port, with an in-memory PGlite or
// the PostgreSQL of DATABASE_URL, and the Redis of REDIS_URL when set.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseTarget } from '../prisma/adapter.ts';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { addMember, createOrganization } from '../resolvers/orgs.ts';
import type { Role } from '../resolvers/roles.ts';
import { startSession } from '../resolvers/accounts/sessions.ts';
import { createService, type Service } from '../server/app.ts';
import { loadConfig, type Config } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';

let schemaSnapshot: Promise<Blob> | undefined;

/**
 * An in-memory PGlite that starts from the migrated, seeded data directory globalSetup dumped,
 * instead of replaying every migration itself.
 */
export async function migratedPglite(): Promise<DatabaseTarget> {
  schemaSnapshot ??= readFile(inject('pgliteSnapshot')).then((bytes) => new Blob([bytes]));
  return { kind: 'pglite', dataDir: 'memory://', initialData: await schemaSnapshot };
}

/**
 * A database of a test's own, for what must not touch the shared one (one that is broken on
 * purpose, data no other suite may see): a new database on the DATABASE_URL server, else
 * in-memory PGlite. It starts migrated and seeded, a copy of the schema globalSetup applied;
 * `empty` gives a database with nothing in it, for what must apply the migrations itself.
 */
export async function scratchDatabase(options: { empty?: boolean } = {}): Promise<{ target: DatabaseTarget; url?: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { target: options.empty ? { kind: 'pglite', dataDir: 'memory://' } : await migratedPglite(), drop: async () => {} };
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const name = `ids_scratch_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  // Copying a template needs it to have no other session for a moment; another copy being made
  // (suites start services side by side) or autovacuum visiting it is such a session, briefly.
  const create = options.empty ? `CREATE DATABASE "${name}"` : `CREATE DATABASE "${name}" TEMPLATE "${inject('templateDatabase')}"`;
  for (let attempt = 1; ; attempt++) {
    try {
      await run(create);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt === 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const own = new URL(serverUrl);
  own.pathname = `/${name}`;
  return { target: { kind: 'postgres', url: own.toString() }, url: own.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export interface TestService {
  url: string;
  service: Service;
  /** every log line the service wrote */
  logs: string[];
  close(): Promise<void>;
}

/** The session-signing secret every test service uses. */
export const testSessionSecret = 'test-session-secret-shared-by-every-test-service';

/** The webhook key every test service uses (base64 of 32 bytes). */
export const testWebhookKey = Buffer.alloc(32, 7).toString('base64');

/**
 * `countingStatements`: the suite counts the SQL a request sends (onQuery, or onStatement: every
 * statement the driver adapter sends, transaction control included), so nothing else may send any
 * meanwhile: no webhook worker polling, no request records written in the background.
 */
export async function startTestService(
  overrides: Partial<Config> = {},
  options: { onQuery?: (sql: string) => void; onStatement?: (sql: string) => void; countingStatements?: boolean; port?: number } = {},
): Promise<TestService> {
  const stateDir = await mkdtemp(path.join(tmpdir(), 'ids-test-'));
  const base = loadConfig({
    ...process.env,
    IDS_STATE_DIR: stateDir,
    PORT: '0',
    // Test services may share one database, so any instance's worker may deliver any endpoint's
    // events: they share a webhook key, receivers on this machine are allowed, retries come fast.
    IDS_WEBHOOK_SECRET_KEY: testWebhookKey,
    // ...and sign their sessions alike, so that a session started on one works on another
    IDS_SESSION_SECRET: testSessionSecret,
    // Every suite signs people in from 127.0.0.1, and in server mode they share Redis's counters
    // (across runs within the hour too): the per-client limit is a suite's own to test.
    IDS_SIGN_IN_PER_CLIENT_PER_HOUR: process.env.IDS_SIGN_IN_PER_CLIENT_PER_HOUR ?? '100000',
    IDS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    IDS_WEBHOOK_POLL_MS: '100',
    IDS_WEBHOOK_RETRY_SCALE: '0.001',
    // A suite closes its services with connections it no longer reads (streams, sockets): a second
    // of draining is plenty for a request a test still waits on.
    IDS_SHUTDOWN_GRACE_MS: '1000',
  });
  const config: Config = {
    ...base,
    database: process.env.DATABASE_URL ? { kind: 'postgres', url: process.env.DATABASE_URL } : await migratedPglite(),
    identityProvider: undefined,
    ...(options.countingStatements ? { webhooks: { ...base.webhooks, worker: false }, recordRequests: false } : {}),
    ...overrides,
  };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const service = await createService(config, { logger: createLogger('debug', sink), onQuery: options.onQuery, onStatement: options.onStatement });
  // a fixed port, for a suite that must tell another server this service's address before it starts
  const url = await service.listen(options.port ?? 0);
  return { url, service, logs, close: () => service.close() };
}

/**
 * A service on a database of its own (scratchDatabase), for suites whose data other suites must
 * not see or change while they run in parallel (server mode shares one database).
 */
export async function startIsolatedService(overrides: Partial<Config> = {}): Promise<TestService> {
  const database = await scratchDatabase();
  const t = await startTestService({ ...overrides, database: database.target });
  return {
    ...t,
    async close() {
      await t.close();
      await database.drop();
    },
  };
}

let orgCounter = 0;

/** A fresh organization with one API key, made the way the operator CLI makes them. */
export async function orgWithKey(t: TestService, name = `Test org ${++orgCounter}`, planKey?: string) {
  const { prisma, bus } = t.service.services;
  const org = await createOrganization(prisma, name, { planKey });
  const { apiKey, secret } = await issueApiKey({ prisma, bus }, org.id, 'test key');
  return { orgId: org.id, keyId: apiKey.id, key: secret };
}

/** A dashboard session token of a member with `role` (owner unless told), as `ids session` starts it. */
export async function sessionToken(t: TestService, orgId: string, email = `person${++orgCounter}@example.com`, rememberMe = false, role: Role = 'owner') {
  const user = await addMember(t.service.services.prisma, orgId, email, role);
  return (await startSession(t.service.services, { userId: user.id, email, orgId, rememberMe, method: 'cli' })).token;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function call(
  t: { url: string },
  method: string,
  route: string,
  options: { key?: string; token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${t.url}${route}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The envelope of SPEC 2.1, whatever the error. */
export function expectEnvelope(answer: Answer, status: number, code: string) {
  const problems: string[] = [];
  if (answer.status !== status) problems.push(`status ${answer.status}, expected ${status}`);
  const b = answer.body;
  if (!b || typeof b !== 'object') problems.push('body is not JSON');
  else {
    if (b.object !== 'error') problems.push('object is not "error"');
    if (b.code !== code) problems.push(`code ${b.code}, expected ${code}`);
    if (typeof b.id !== 'string' || !b.id.startsWith('err_')) problems.push('id is not err_…');
    if (typeof b.message !== 'string' || !b.message) problems.push('no message');
    if (b.requestId !== answer.headers.get('request-id')) problems.push('requestId differs from the Request-Id header');
    if (b.traceparent !== answer.headers.get('traceparent')) problems.push('traceparent differs from the header');
    if (/\bat .+\.(ts|js):\d+/.test(JSON.stringify(b))) problems.push('a stack trace leaked');
  }
  if (problems.length) throw new Error(`${problems.join('; ')}\n${JSON.stringify(b, null, 2)}`);
  return b;
}

/** A port nothing listens on now, for a process the test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Asks `check` every 25 ms until it answers something, for at most `ms`; what happens in the background (deliveries, ingests) is waited for this way. */
export async function eventually<T>(what: string, check: () => T | null | undefined | false | Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; ) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
