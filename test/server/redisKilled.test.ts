// Redis killed (SIGKILL) under load, then started again on the same port: two instances sharing it
// keep answering data reads (a fail-open class, decided by each instance's own windows), refuse
// analytics (the fail-closed class) with 503 rate_limiter_unavailable and Retry-After, never a 500
// nor a hang, and sessions and /v1/me go on. Once Redis is back every class answers 200 again
// within seconds, and no request was refused while Redis was up. The redis-server is the test's
// own, so the Redis other suites share is never touched.
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import { runCommand } from '../../server/commands.ts';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { call, freePort, orgWithKey, scratchDatabase, sessionToken, startTestService, type TestService } from '../harness.ts';
import { killAll, startRedisServer, stop } from '../support/processes.ts';

type Kind = 'data' | 'analytics' | 'me';

interface Sample {
  kind: Kind;
  instance: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  started: number;
  ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(hasCorpus)('Redis killed under load, then back', { timeout: 60_000 }, () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let corpus: string;
  let redisPort: number;
  let redis: ChildProcess;
  let instances: TestService[] = [];
  let key: string;
  let token: string;

  beforeAll(async () => {
    database = await scratchDatabase();
    redisPort = await freePort();
    redis = await startRedisServer(redisPort);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    instances = await Promise.all([0, 1].map(() => startTestService({ database: database.target, redisUrl })));
    const [a] = instances as [TestService];
    // the FRED series and the monthly Fama-French factors: what the analytics read regresses
    corpus = await mkdtemp(path.join(tmpdir(), 'ids-macro-'));
    const files = [...(await readdir(path.join(corpusDir, 'market/macro'))).map((file) => `market/macro/${file}`), 'market/factors/F-F_Research_Data_Factors.CSV'];
    for (const file of files) {
      await mkdir(path.dirname(path.join(corpus, file)), { recursive: true });
      await symlink(path.join(corpusDir, file), path.join(corpus, file));
    }
    const summary = await runIngest(a.service.services, folderSource(corpus));
    expect(summary.failed).toBe(0);
    const org = await orgWithKey(a, 'Redis outage', 'enterprise');
    key = org.key;
    token = await sessionToken(a, org.orgId);
    // What is tested is Redis going away, not the quota windows: room for all the traffic.
    await a.service.services.prisma.orgQuota.createMany({
      data: ['data_read', 'analytics', 'platform'].flatMap((meterClass) => (['minute', 'hour', 'day'] as const).map((period) => ({ orgId: org.orgId, meterClass, period, limit: 1_000_000 }))),
    });
    for (const t of instances) t.service.services.cache.forgetOrg(org.orgId);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((t) => t.close()));
    await killAll();
    await database?.drop();
    if (corpus) await rm(corpus, { recursive: true, force: true });
  });

  const samples: Sample[] = [];

  async function request(kind: Kind, instance: number): Promise<void> {
    const t = instances[instance]!;
    const route = kind === 'data' ? '/v1/entities?q=a' : kind === 'analytics' ? '/v1/factors/macro-sensitivity?model=ff3&from=2020-01-01&to=2023-12-31' : '/v1/me';
    const started = Date.now();
    // a hang is a failure too: no answer within 10 s is recorded as status 0
    const answer = await Promise.race([call(t, 'GET', route, kind === 'me' ? { token } : { key }), sleep(10_000).then(() => null)]);
    samples.push({ kind, instance, started, ms: Date.now() - started, status: answer?.status ?? 0, code: answer?.body?.code, retryAfter: answer?.headers.get('retry-after') ?? null });
  }

  /** A few clients, each sending a data read, an analytics read and /v1/me in turn, to both instances. */
  function load(clients: number): { stop(): Promise<void> } {
    let running = true;
    const loops = Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; running; i++) {
        const kind = (['data', 'analytics', 'me'] as const)[(client + i) % 3]!;
        await request(kind, (client + i) % 2);
        await sleep(20);
      }
    });
    return {
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  /** Both instances say Redis answers (GET /readyz checks each of their connections). */
  async function bothReady(): Promise<boolean> {
    const answers = await Promise.all(instances.map((t) => call(t, 'GET', '/readyz')));
    return answers.every((a) => a.status === 200);
  }

  it('fail-open classes keep answering, the fail-closed class is refused with 503 and Retry-After, and all recover', async () => {
    expect(await bothReady()).toBe(true);
    // the first analytics request of an instance starts its worker thread: not part of what is measured
    for (const [instance] of instances.entries()) await request('analytics', instance);
    samples.length = 0;
    const traffic = load(4);
    await sleep(3000);

    const killedAt = Date.now();
    await stop(redis, 'SIGKILL');
    await sleep(1000);
    // Signing in, reading and ending a session while Redis is away.
    const said: string[] = [];
    const [a] = instances as [TestService];
    const { prisma, bus, logger } = a.service.services;
    const email = `outage${Date.now()}@example.com`;
    await runCommand(['sign-in-link', '--email', email], { config: a.service.services.config, say: (line) => said.push(line), note: () => {}, progress: false, database: async () => ({ prisma, bus, logger, appliedMigrations: [] }) });
    const signedIn = await call(instances[1]!, 'POST', '/v1/auth/link/verify', { body: { token: new URL(said.join('').trim()).searchParams.get('token'), tokenDelivery: 'bearer' } });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const session = signedIn.body.token as string;
    expect((await call(a, 'GET', '/v1/me', { token: session })).body.user.email).toBe(email);
    expect((await call(instances[1]!, 'GET', '/v1/auth/sessions', { token: session })).status).toBe(200);
    expect((await call(a, 'POST', '/v1/auth/sign-out', { token: session })).status).toBe(200);
    // ended on the other instance too, from its next request, with no bus to tell it
    expect((await call(instances[1]!, 'GET', '/v1/me', { token: session })).status).toBe(401);
    await sleep(1000);

    const restartedAt = Date.now();
    redis = await startRedisServer(redisPort);
    // the instances reconnect by themselves (ioredis retries at most every 2 s)
    for (const deadline = Date.now() + 10_000; !(await bothReady()) && Date.now() < deadline; ) await sleep(50);
    const healthyAt = Date.now();
    await sleep(3000);
    await traffic.stop();

    const before = samples.filter((s) => s.started + s.ms < killedAt);
    const away = samples.filter((s) => s.started > killedAt + 500 && s.started + s.ms < restartedAt);
    const after = samples.filter((s) => s.started > healthyAt);
    const summary = (list: Sample[]) => list.map((s) => `${s.kind}@${s.instance} ${s.status}${s.code ? ` ${s.code}` : ''} ${s.ms}ms`).join('\n');

    // never a 500, never a hang: every answer is a 200 (an analytics one computes for up to a
    // second or so on a loaded machine), or the fail-closed class's 503, which waits for nothing
    for (const s of samples) {
      expect(s.ms, summary([s])).toBeLessThan(5000);
      if (s.status === 200) continue;
      expect(s.ms, summary([s])).toBeLessThan(2500);
      expect(s, summary([s])).toMatchObject({ kind: 'analytics', status: 503, code: 'rate_limiter_unavailable' });
      expect(Number(s.retryAfter), summary([s])).toBeGreaterThan(0);
    }
    // Redis up, before the kill and once it is back: everything answered
    expect(healthyAt - restartedAt, 'the instances found Redis again').toBeLessThan(5000);
    for (const list of [before, after]) {
      expect(list.filter((s) => s.status !== 200), summary(list)).toEqual([]);
      for (const kind of ['data', 'analytics', 'me'] as const) expect(list.filter((s) => s.kind === kind).length).toBeGreaterThan(2);
    }
    // Redis away: data reads and /v1/me answered, analytics refused
    expect(away.filter((s) => s.kind !== 'analytics' && s.status !== 200), summary(away)).toEqual([]);
    expect(away.filter((s) => s.kind === 'data').length).toBeGreaterThan(2);
    expect(away.filter((s) => s.kind === 'me').length).toBeGreaterThan(2);
    const analytics = away.filter((s) => s.kind === 'analytics');
    expect(analytics.length).toBeGreaterThan(2);
    expect(analytics.filter((s) => s.status !== 503), summary(analytics)).toEqual([]);
    console.log(`${samples.length} requests; Redis away ${restartedAt - killedAt} ms; both instances found it again ${healthyAt - restartedAt} ms after its restart; slowest answer ${Math.max(...samples.map((s) => s.ms))} ms`);
  });
});
