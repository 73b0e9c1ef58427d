// Real processes for the fault suites: the compiled service and CLI as `npm start` and `npm run ids`
// run them, and a private redis-server, each started by the test and killed the way a machine
// kills them (SIGKILL), so that what survives is only what was durable.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../harness.ts';

export const root = fileURLToPath(new URL('../..', import.meta.url));

const children = new Set<ChildProcess>();
const stateDirs: string[] = [];

/** dist/main.js and dist/cli.js from the current source (esbuild, about a second). */
export function buildOnce(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}

/** A child's database: a PostgreSQL URL, or the embedded database of a state folder. */
export type ChildDatabase = string | { stateDir: string };

const databaseEnv = (database: ChildDatabase): NodeJS.ProcessEnv => (typeof database === 'string' ? { DATABASE_URL: database } : { DATABASE_URL: '', IDS_STATE_DIR: database.stateDir });

/** The environment of a child: the database it is given, no Redis unless given, nothing started behind the test's back. */
export function childEnv(database: ChildDatabase, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...databaseEnv(database), IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...extra };
  if (!extra.REDIS_URL) delete env.REDIS_URL;
  return env;
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** what it wrote to stderr, for a failure message */
  stderr(): string;
}

/** `node dist/main.js` on `database` (on a server database, with a state folder of its own), answered once `/readyz` says 200. */
export async function startServiceProcess(database: ChildDatabase, extra: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  const port = await freePort();
  let stateDir = typeof database === 'string' ? undefined : database.stateDir;
  if (!stateDir) stateDirs.push((stateDir = await mkdtemp(path.join(tmpdir(), 'ids-fault-'))));
  const child = track(spawn(process.execPath, ['dist/main.js'], { cwd: root, env: childEnv(database, { IDS_STATE_DIR: stateDir, PORT: String(port), ...extra }), stdio: ['ignore', 'ignore', 'pipe'] }));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${stderr}`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return { child, url, stderr: () => stderr };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`service did not become ready within 60 s: ${stderr}`);
}

/** `node dist/cli.js …`, its stdout lines. */
export async function runCli(database: ChildDatabase, ...args: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli.js', ...args], { cwd: root, env: childEnv(database) });
  return stdout.trim().split('\n');
}

/** `node dist/cli.js …` left running, for a test that kills it. */
export function spawnCli(database: ChildDatabase, ...args: string[]): ChildProcess {
  return track(spawn(process.execPath, ['dist/cli.js', ...args], { cwd: root, env: childEnv(database), stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Sends `signal` and waits for the process to be gone. */
export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** A redis-server of the test's own on `port`, nothing persisted; resolves once it accepts connections. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = track(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }));
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      }).once('error', () => resolve(false));
    });
    if (open) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not listen within 10 s');
}

/** Every process a suite started and did not stop is killed, and their state folders removed (afterAll). */
export async function killAll(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child, 'SIGKILL')));
  await Promise.all(stateDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
