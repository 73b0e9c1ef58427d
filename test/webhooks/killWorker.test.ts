// kill -9 of the instance that is delivering loses nothing: the attempt it held is sent again, with
// the same webhook-id, by the next instance once its lease runs out. Real processes on one state
// folder, as `npm start` runs them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../harness.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children = new Set<ChildProcess>();
let stateDir: string;


async function startInstance() {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    IDS_STATE_DIR: stateDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    IDS_AUTO_INGEST: 'off',
    LOG_LEVEL: 'warn',
    IDS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    IDS_WEBHOOK_TIMEOUT_MS: '1500', // a lease of 3 s
    IDS_WEBHOOK_POLL_MS: '100',
  };
  delete env.DATABASE_URL; // the embedded database, whatever mode the suite runs in
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}`);
    if (await fetch(`${url}/v1/billing/rates`).then((r) => r.ok, () => false)) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('instance did not answer within 60 s');
}

const requests: Array<{ id: string; body: string }> = [];
const held: ServerResponse[] = [];
const receiver = createHttpServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    requests.push({ id: String(req.headers['webhook-id']), body });
    if (requests.length === 1) held.push(res); // the first delivery hangs until its sender dies
    else res.writeHead(200).end('ok');
  });
});

beforeAll(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'ids-kill-'));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const res of held) res.destroy();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await rm(stateDir, { recursive: true, force: true });
});


describe('the webhook worker', { timeout: 120_000 }, () => {
  it('after kill -9 mid-delivery, the next instance delivers the same event with the same webhook-id', async () => {
    const first = await startInstance();
    const key = (await readFile(path.join(stateDir, 'demo-api-key'), 'utf8')).trim();
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
    const endpoint = await (await fetch(`${first.url}/v1/webhook_endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiverUrl, eventTypes: ['api_key.created'] }) })).json();
    const test = await (await fetch(`${first.url}/v1/webhook_endpoints/${endpoint.id}/test`, { method: 'POST', headers })).json();
    await eventually('the first attempt to reach the receiver', () => requests.length === 1, 30_000);

    first.child.kill('SIGKILL'); // mid-delivery: the receiver has not answered
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startInstance();
    await eventually('the attempt to be sent again', () => requests.length >= 2, 30_000);
    expect(requests.map((r) => r.id)).toEqual([test.eventId, test.eventId]);
    expect(JSON.parse(requests[1]!.body)).toMatchObject({ id: test.eventId, type: 'webhook.test' });

    const delivered = await eventually('the attempt recorded as succeeded', async () => {
      const list = await (await fetch(`${second.url}/v1/webhook_endpoints/${endpoint.id}/deliveries`, { headers })).json();
      return list.data.find((d: { id: string; status: string }) => d.id === test.id && d.status === 'succeeded');
    }, 30_000);
    expect(delivered).toMatchObject({ attempt: 1, responseStatus: 200, eventId: test.eventId });
  });
});
