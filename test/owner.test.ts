// The embedded database has one owner: the CLI's writes while the server runs reach the server's
// database (they used to be overwritten by it), a second server refuses at once naming the owner,
// and after kill -9 the next start takes the stale lock over with nothing lost. Real processes:
// the compiled server and CLI that `npm start` and `npm run ids` run.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './harness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = new Set<ChildProcess>();
let stateDir: string;

/** the embedded database, whatever mode the suite runs in */
function embeddedEnv(port?: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, IDS_STATE_DIR: stateDir, IDS_AUTO_INGEST: 'off', LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  if (port) env.PORT = String(port);
  return env;
}


async function startServer() {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: root, env: embeddedEnv(port), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/v1/billing/rates`).then((r) => r.ok, () => false);
    if (up && existsSync(path.join(stateDir, 'owner.sock'))) return { child, port, url };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not answer within 60 s');
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

const ids = async (...args: string[]) => (await promisify(execFile)(process.execPath, ['dist/cli.js', ...args], { cwd: root, env: embeddedEnv() })).stdout.trim().split('\n');
const me = (url: string, key: string) => fetch(`${url}/v1/me`, { headers: { 'x-api-key': key } }).then((r) => r.status);

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  stateDir = await mkdtemp(path.join(tmpdir(), 'ids-owner-'));
}, 60_000);
afterAll(async () => {
  await Promise.all([...children].map((child) => stop(child, 'SIGKILL')));
  await rm(stateDir, { recursive: true, force: true });
});

describe('the embedded database has one owner', { timeout: 180_000 }, () => {
  let org: string;
  let key: string;

  it('writes made by the CLI while the server runs reach the server, and survive its restart', async () => {
    const server = await startServer();
    [org] = await ids('orgs:create', 'Other');
    key = (await ids('keys:create', '--org', org!)).at(-1)!;
    expect(await me(server.url, key)).toBe(200);
    await stop(server.child);
    expect(existsSync(path.join(stateDir, 'owner.lock'))).toBe(false);
    const again = await startServer();
    expect(await me(again.url, key)).toBe(200);
    await stop(again.child);
  });

  it('a second server on the same folder refuses at once, naming the owner\'s PID and port', async () => {
    const server = await startServer();
    const second = spawn(process.execPath, ['dist/main.js'], { cwd: root, env: embeddedEnv(await freePort()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    second.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`PID ${server.child.pid}`);
    expect(stderr).toContain(`port ${server.port}`);
    expect(await me(server.url, key)).toBe(200); // the owner is untouched
    await stop(server.child);
  });

  it('after kill -9 of the owner, the next start takes the stale lock over and nothing is lost', async () => {
    const server = await startServer();
    const [other] = await ids('orgs:create', 'Written before the crash');
    const late = (await ids('keys:create', '--org', other!)).at(-1)!;
    await stop(server.child, 'SIGKILL');
    expect(existsSync(path.join(stateDir, 'owner.lock'))).toBe(true); // left behind by the crash
    const again = await startServer();
    expect(await me(again.url, key)).toBe(200);
    expect(await me(again.url, late)).toBe(200);
    await stop(again.child);
  });

  it('with no server running the CLI owns the folder while it works, and lets go after', async () => {
    const [alone] = await ids('orgs:create', 'Made without a server');
    const lateKey = (await ids('keys:create', '--org', alone!)).at(-1)!;
    const readKey = (await ids('keys:create', '--org', alone!, '--scopes', 'read')).at(-1)!;
    expect(existsSync(path.join(stateDir, 'owner.lock'))).toBe(false);
    const server = await startServer();
    expect(await me(server.url, lateKey)).toBe(200);
    const keys = await (await fetch(`${server.url}/v1/api_keys`, { headers: { 'x-api-key': readKey } })).json();
    expect(keys.data.map((k: { scopes: string[] }) => k.scopes)).toEqual([['read'], ['organization']]);
    await stop(server.child);
  });
});
