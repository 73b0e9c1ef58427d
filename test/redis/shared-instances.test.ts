// Several instances behind one Redis and one PostgreSQL (runs when REDIS_URL is set).
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RedisLimiter } from '../../core/limiter.ts';
import { createLogger } from '../../core/logger.ts';
import { connectRedis, readyWithin } from '../../core/redis.ts';
import { call, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  // What is tested here is the shared window. On a machine loaded by the whole suite a 150 ms
  // command can time out, and a fail-open class then falls back to per-instance windows by design
  // (test/quotas.test.ts covers that), so these instances wait longer for Redis.
  [a, b] = await Promise.all([startTestService({ redisCommandTimeoutMs: 2000 }), startTestService({ redisCommandTimeoutMs: 2000 })]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('two instances sharing Redis', () => {
  it('together admit no more than the limit', async () => {
    const org = await orgWithKey(a);
    await a.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'platform', period: 'day', limit: 5 } });
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => call(i % 2 ? a : b, 'GET', '/v1/me', { key: org.key })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
  });

  it('the limiter\'s check-and-count is atomic under concurrency', async () => {
    const redis = await connectRedis(process.env.REDIS_URL!, createLogger('silent'), 'test');
    const limiter = new RedisLimiter(redis);
    try {
      expect(await readyWithin(redis, 5000)).toBe(true);
      const subject = `atomic-${Date.now()}-${Math.random()}`;
      const decisions = await Promise.all(Array.from({ length: 60 }, () => limiter.consume(subject, [{ period: 'day', limit: 10 }, { period: 'hour', limit: 50 }], 'closed')));
      expect(decisions.filter((d) => d.allowed === true)).toHaveLength(10);
      expect(decisions.filter((d) => d.allowed === false)).toHaveLength(50);
    } finally {
      limiter.close();
      redis.disconnect();
    }
  });

  it('the limiter keeps counting in Redis after Redis forgets its script (a restart, SCRIPT FLUSH)', async () => {
    const redis = await connectRedis(process.env.REDIS_URL!, createLogger('silent'), 'test');
    const limiter = new RedisLimiter(redis);
    try {
      expect(await readyWithin(redis, 5000)).toBe(true);
      const subject = `flushed-${Date.now()}-${Math.random()}`;
      const window = [{ period: 'day' as const, limit: 2 }];
      expect(await limiter.consume(subject, window, 'closed')).toMatchObject({ allowed: true, windows: [{ period: 'day', limit: 2, remaining: 1 }] });
      await redis.script('FLUSH');
      // the script is sent again by its text: the count held in Redis goes on, no local fallback
      expect(await limiter.consume(subject, window, 'closed')).toMatchObject({ allowed: true, windows: [{ period: 'day', limit: 2, remaining: 0 }] });
      const refused = await limiter.consume(subject, window, 'closed');
      expect(refused).toMatchObject({ allowed: false, period: 'day', limit: 2, windows: [{ period: 'day', limit: 2, remaining: 0 }] });
      if (refused.allowed === false) expect(refused.windows[0]!.resetSeconds).toBe(refused.retryAfterSeconds);
    } finally {
      limiter.close();
      redis.disconnect();
    }
  });

  it('an event written through one instance reaches a subscriber on the other', async () => {
    const org = await orgWithKey(a);
    const client = createClient({ url: `${b.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': org.key }, retryAttempts: 0 });
    try {
      const first = new Promise<any>((resolve, reject) => {
        client.subscribe({ query: 'subscription { keyAdded { apiKey { name } } }' }, { next: resolve, error: reject, complete: () => {} });
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await call(a, 'POST', '/v1/api_keys', { token: await sessionToken(a, org.orgId), body: { name: 'across instances' } });
      const event = await Promise.race([first, new Promise((_, reject) => setTimeout(() => reject(new Error('no event within 5 s')), 5000))]);
      expect(event).toEqual({ data: { keyAdded: { apiKey: { name: 'across instances' } } } });
    } finally {
      await client.dispose();
    }
  });
});
