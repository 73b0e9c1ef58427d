// What benchmarks share: the PostgreSQL database they run on (created if missing, dropped first
// with `fresh`), and service instances run as `npm start` runs them (compiled, dist/main.js).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import pg from 'pg';

/**
 * A port nothing listens on now (the system picks it). A random port could be one an earlier
 * instance holds: the new instance then fails to listen, and the old one answers in its place
 * (one bench:billing run measured the billed instance against itself that way).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function ensureDatabase(url: string, fresh = false): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    if (fresh) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** Starts dist/main.js with `env` (which names its PORT); resolves once it answers. */
export async function startInstance(root: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const url = `http://127.0.0.1:${env.PORT}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}`);
    // answered, and still running: the answer is this instance's, not another's on the same port
    if ((await fetch(`${url}/v1/billing/rates`).then((r) => r.ok, () => false)) && child.exitCode === null) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('instance did not start');
}

/** SIGTERM to each instance (they settle and close), resolved once all have exited. */
export async function stopInstances(instances: { child: ChildProcess }[]): Promise<void> {
  await Promise.all(
    instances.map(({ child }) => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      return exited;
    }),
  );
}
