// The embedded database has one owner: the CLI's writes while the server runs reach the server's
// database (they used to be overwritten by it), a second server refuses at once naming the owner,
// and after kill -9 the next start takes the stale lock over with nothing lost. Real processes:
// the compiled server and CLI that `npm start` and `npm run ids` run.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './harness.ts';
import { corpusDir } from './corpus.ts';
import { startSecServer } from './support/secServer.ts';
import { archivePath, fullReport, fundSubmissions, type ListedFiling } from './support/ncsrDocuments.ts';

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

const idsWith = async (extra: NodeJS.ProcessEnv, ...args: string[]) => (await promisify(execFile)(process.execPath, ['dist/cli.js', ...args], { cwd: root, env: { ...embeddedEnv(), ...extra } })).stdout.trim().split('\n');
const ids = (...args: string[]) => idsWith({}, ...args);
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

  it('commands run through the running server with the SEC settings and folders of the CLI (sync, fund-letters:fetch, ingest from a relative folder), and it answers with what they fetched', async () => {
    const fund = { cik: '0001410368', name: 'AB ACTIVE ETFS, INC.', fileNumber: '811-23799' };
    const report: ListedFiling = { accessionNumber: '0001193125-24-051234', form: 'N-CSR', filingDate: '2024-02-28', reportDate: '2023-11-30', primaryDocument: 'd512345dncsr.htm' };
    const letter = fullReport(fund, {
      periodEnd: 'November 30, 2023',
      periodLabel: 'November 30, 2023',
      fund: 'AB Conservative Buffer ETF',
      letter: { heading: 'Letter to Shareholders', paragraphs: ['Your Fund returned 11.2%, helped by its semiconductor holdings.'], signers: [{ name: 'Onur Erzan', title: 'President' }] },
      discussion: ['The Fund outperformed its benchmark because of its overweight in information technology.'],
    });
    const header = `${'Form Type'.padEnd(12)}${'Company Name'.padEnd(62)}${'CIK'.padEnd(12)}${'Date Filed'.padEnd(12)}File Name`;
    const row = `${'8-K'.padEnd(12)}${'EXAMPLE HOLDINGS INC'.padEnd(62)}${'9999999'.padEnd(12)}${'20250801'.padEnd(12)}edgar/data/9999999/0009999999-25-000001.txt`;
    const sec = await startSecServer({
      files: {
        [`/submissions/CIK${fund.cik}.json`]: fundSubmissions(fund, [report]),
        [archivePath(fund.cik, report)]: letter,
        '/Archives/edgar/daily-index/2025/QTR3/form.20250801.idx': ['Description:           Daily Index of EDGAR Dissemination Feed by Form Type', 'Last Data Received:    2025-08-01', '', header, '-'.repeat(120), row, ''].join('\n'),
      },
    });
    const server = await startServer();
    try {
      const [reader] = await ids('orgs:create', 'Reads what the CLI fetched');
      const readerKey = (await ids('keys:create', '--org', reader!)).at(-1)!;
      const secEnv = { IDS_SEC_USER_AGENT: 'Owner Test admin@example.com', IDS_SEC_BASE_URL: sec.url };
      const fetched = await idsWith(secEnv, 'fund-letters:fetch', '--ciks', fund.cik, '--latest', '1');
      expect(fetched.at(-1)).toMatch(/^fund-letters:fetch: 1 registrant; \d+ items written, 0 failed/);
      const synced = await idsWith(secEnv, 'sync', '--since', '2025-08-01', '--today', '2025-08-01');
      expect(synced.at(-1)).toMatch(/^sync: 2025-08-01 synced \(1 filings/);
      expect(existsSync(path.join(stateDir, 'owner.lock'))).toBe(true); // the server still owns the folder
      const get = (route: string) => fetch(`${server.url}${route}`, { headers: { 'x-api-key': readerKey } }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const letters = await get(`/v1/funds/letters?cik=${fund.cik}`);
      expect(letters.status).toBe(200);
      expect(letters.body.data.map((l: { accessionNumber: string }) => l.accessionNumber)).toEqual([report.accessionNumber]);
      // a folder named relative to where the CLI runs, not to where the server runs
      const elsewhere = await mkdtemp(path.join(tmpdir(), 'ids-cli-cwd-'));
      await mkdir(path.join(elsewhere, 'feed', 'submissions'), { recursive: true });
      await copyFile(path.join(corpusDir, 'submissions', 'CIK0001045810.json'), path.join(elsewhere, 'feed', 'submissions', 'CIK0001045810.json'));
      const ingested = (await promisify(execFile)(process.execPath, [path.join(root, 'dist/cli.js'), 'ingest', '--source', 'feed'], { cwd: elsewhere, env: embeddedEnv() })).stdout;
      expect(ingested).toMatch(/read 1, written 1, .*failed 0/);
      expect((await get('/v1/filings?cik=0001045810&limit=1')).body.data).toHaveLength(1);
      await rm(elsewhere, { recursive: true, force: true });
      const filing = await get('/v1/filings/0009999999-25-000001');
      expect(filing.status).toBe(200);
      expect(filing.body).toMatchObject({ accessionNumber: '0009999999-25-000001', form: '8-K' });
    } finally {
      await stop(server.child);
      await sec.close();
    }
  });
});

