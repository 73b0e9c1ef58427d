// The newcomer path, on the real server process: `npm start` on an empty state folder (and an
// empty database) migrates, creates the demo organization, prints its API key once and saves it
// to <state dir>/demo-api-key; a restart reuses both and prints nothing secret. The server is the
// compiled bundle `npm start` builds and runs (`node dist/main.js`), built once for these tests.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { freePort, scratchDatabase } from './harness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const startupLimitMs = 60_000;
const stopLimitMs = 20_000;

interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const children = new Set<Running>();


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(env: NodeJS.ProcessEnv): Promise<Running> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  // The demo organization is what is under test; an ambient IDS_DEMO_ORG=off would hide it.
  delete childEnv.IDS_DEMO_ORG;
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const running: Running = { child, url: `http://127.0.0.1:${port}`, stdout: () => out, stderr: () => err, exited };
  children.add(running);

  const deadline = Date.now() + startupLimitMs;
  while (true) {
    if (exitCode !== undefined) throw new Error(`server exited (${exitCode}) before answering\n--- stdout\n${out}\n--- stderr\n${err}`);
    try {
      const response = await fetch(`${running.url}/v1/billing/rates`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return running;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer within ${startupLimitMs / 1000} s\n--- stdout\n${out}\n--- stderr\n${err}`);
    await sleep(250);
  }
}

/** SIGTERM, and wait for the exit; SIGKILL if it does not come. Resolves to the exit code. */
async function stopServer(running: Running): Promise<number | null> {
  const { child } = running;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), stopLimitMs);
  try {
    return await running.exited;
  } finally {
    clearTimeout(timer);
    children.delete(running);
  }
}

async function get(running: Running, route: string, key?: string) {
  const response = await fetch(`${running.url}${route}`, { headers: key ? { 'x-api-key': key } : {} });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

// Server mode (DATABASE_URL set): a newcomer's database is empty, so this suite makes its own
// and drops it afterwards. Embedded mode: the child opens PGlite under the state folder.
let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
let stateDir: string;

let dataDir: string;

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  stateDir = await mkdtemp(path.join(tmpdir(), 'ids-newcomer-'));
  // IDS_DATA_DIR: a small folder laid out like ../shared/data, from our own fixtures, which the
  // first start ingests by itself (the full corpus would take a minute).
  dataDir = await mkdtemp(path.join(tmpdir(), 'ids-newcomer-data-'));
  for (const [to, from] of [
    ['submissions/CIK0000320193.json', 'sec/CIK0000320193.json'],
    ['filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html', 'sections/10-K_example.html'],
  ]) {
    await mkdir(path.join(dataDir, path.dirname(to)), { recursive: true });
    await copyFile(fileURLToPath(new URL(`./fixtures/${from}`, import.meta.url)), path.join(dataDir, to));
  }
  if (process.env.DATABASE_URL) database = await scratchDatabase({ empty: true });
});

afterEach(async () => {
  // A failed test must not leave a server behind (and holding the embedded database).
  await Promise.all([...children].map(stopServer));
});

afterAll(async () => {
  await Promise.all([...children].map(stopServer));
  await database?.drop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const childEnv = (): NodeJS.ProcessEnv => ({ IDS_STATE_DIR: stateDir, IDS_DATA_DIR: dataDir, ...(database?.url ? { DATABASE_URL: database.url } : {}) });

describe(`newcomer: npm start on an empty ${process.env.DATABASE_URL ? 'PostgreSQL database' : 'state folder (embedded PGlite)'}`, () => {
  let firstStart: { key: string; orgId: string; keyFile: string } | undefined;

  it('first start creates the demo organization, prints its key once and saves it (0600)', { timeout: 120_000 }, async () => {
    const server = await startServer(childEnv());

    const keyFile = path.join(stateDir, 'demo-api-key');
    const info = await stat(keyFile);
    expect(info.isFile()).toBe(true);
    expect((info.mode & 0o777).toString(8)).toBe('600');
    const content = await readFile(keyFile, 'utf8');
    expect(content).toMatch(/^idsk_[0-9A-Za-z]{40}\n?$/);
    const key = content.trim();

    expect(occurrences(server.stdout(), key)).toBe(1);
    expect(server.stderr()).not.toContain(key);

    const me = await get(server, '/v1/me', key);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.kind).toBe('api_key');
    expect(me.body.organization.id).toMatch(/^org_/);

    const keys = await get(server, '/v1/api_keys', key);
    expect(keys.status, JSON.stringify(keys.body)).toBe(200);
    expect(keys.body.data).toHaveLength(1);

    // The one-time link signs the demo organization's owner in, once.
    const link = new RegExp(`${server.url}/dashboard/sign-in\\?token=(\\w+)`).exec(server.stdout());
    expect(link, server.stdout()).not.toBeNull();
    const signIn = () => fetch(`${server.url}/v1/auth/link/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: link![1] }) });
    const signedIn = await signIn();
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const owner = await fetch(`${server.url}/v1/me`, { headers: { cookie } }).then((r) => r.json());
    expect(owner).toMatchObject({ kind: 'session', role: 'owner', organization: { id: me.body.organization.id }, user: { email: 'owner@demo.example' } });
    expect((await signIn()).status).toBe(401);

    // The empty database was filled from IDS_DATA_DIR in the background.
    // (the filing is listed from the submissions file first, its document a moment later)
    let latest = await get(server, '/v1/filings/latest?ticker=AAPL&form=10-K', key);
    for (let wait = 0; (latest.status !== 200 || !latest.body.documentIngested) && wait < 120; wait++) {
      await sleep(250);
      latest = await get(server, '/v1/filings/latest?ticker=AAPL&form=10-K', key);
    }
    expect(latest.body).toMatchObject({ accessionNumber: '0000320193-24-000123', documentIngested: true });
    // The run's summary is printed when the run ends, a moment after its last item is readable.
    for (let wait = 0; !/ingest run_\w+: read 2/.test(server.stdout()) && wait < 40; wait++) await sleep(250);
    expect(server.stdout()).toMatch(/ingest run_\w+: read 2, written 2/);

    expect(await stopServer(server)).toBe(0);
    // …and no other key-shaped string (the logs redact secrets).
    expect(server.stdout().match(/idsk_[0-9A-Za-z]{20,}/g)).toEqual([key]);
    firstStart = { key, orgId: me.body.organization.id, keyFile: content };
  });

  it('a restart on the same state reuses the organization and key and prints no key', { timeout: 120_000 }, async () => {
    if (!firstStart) throw new Error('the first start did not complete; nothing to restart');
    const server = await startServer(childEnv());

    const me = await get(server, '/v1/me', firstStart.key);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.kind).toBe('api_key');
    expect(me.body.organization.id).toBe(firstStart.orgId);

    const keys = await get(server, '/v1/api_keys', firstStart.key);
    expect(keys.status, JSON.stringify(keys.body)).toBe(200);
    expect(keys.body.data).toHaveLength(1);
    expect(keys.body.hasMore).toBe(false);

    expect(server.stdout()).not.toContain(firstStart.key);
    expect(server.stdout()).not.toMatch(/idsk_[0-9A-Za-z]{20,}/);
    expect(server.stdout()).not.toContain('/dashboard/sign-in?token=');
    expect(server.stderr()).not.toMatch(/idsk_[0-9A-Za-z]{20,}/);
    expect(await readFile(path.join(stateDir, 'demo-api-key'), 'utf8')).toBe(firstStart.keyFile);
    const info = await stat(path.join(stateDir, 'demo-api-key'));
    expect((info.mode & 0o777).toString(8)).toBe('600');

    expect(await stopServer(server)).toBe(0);
  });

  // The bundle carries most packages (scripts/build.mjs): each door runs code of its own from it.
  it('answers at every door from the compiled bundle: GraphQL over HTTP and graphql-ws, MCP, GraphiQL', { timeout: 120_000 }, async () => {
    if (!firstStart) throw new Error('the first start did not complete; nothing to restart');
    const server = await startServer(childEnv());
    const headers = { 'x-api-key': firstStart.key, 'content-type': 'application/json' };

    const overHttp = await fetch(`${server.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ me { organization { id } } }' }) }).then((r) => r.json());
    expect(overHttp).toMatchObject({ data: { me: { organization: { id: firstStart.orgId } } } });

    const ws = createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': firstStart.key }, retryAttempts: 0 });
    try {
      const overWs = await ws.iterate({ query: '{ me { organization { id } } }' }).next();
      expect(overWs.value).toMatchObject({ data: { me: { organization: { id: firstStart.orgId } } } });
    } finally {
      await ws.dispose();
    }

    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'newcomer', version: '1' } } }),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toContain('"serverInfo":{"name":"investor-data-service"');

    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } }).then((r) => r.text());
    const script = /src="(\/graphql\/assets\/[^"]+\.js)"/.exec(page);
    expect(script, page).not.toBeNull();
    const asset = await fetch(`${server.url}${script![1]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);

    expect(await stopServer(server)).toBe(0);
  });
});
