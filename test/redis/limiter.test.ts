// A healthy Redis that answers late (a busy event loop, a loaded machine) is not an outage: the
// fail-closed classes wait for its answer instead of refusing with 503, and late fail-open
// answers never make a fail-closed class skip Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failClosedTimeoutMs, RedisLimiter } from '../../core/limiter.ts';
import { createLogger } from '../../core/logger.ts';
import { connectRedis, readyWithin, type Redis } from '../../core/redis.ts';

/** Holds the event loop, as a burst of synchronous work does, so that a reply is read late. */
function busy(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('a slow but healthy Redis', () => {
  let redis: Redis;
  let limiter: RedisLimiter;
  const windows = [{ period: 'minute' as const, limit: 1000 }];

  beforeAll(async () => {
    redis = await connectRedis(process.env.REDIS_URL!, createLogger('silent'), 'test', failClosedTimeoutMs);
    expect(await readyWithin(redis, 5000)).toBe(true);
    limiter = new RedisLimiter(redis, 150, `ids:test:slow:${Date.now()}`);
  });
  afterAll(() => {
    limiter.close();
    redis.disconnect();
  });

  it('answers a fail-closed class when the reply comes after the fail-open timeout', async () => {
    const decision = limiter.consume('closed', windows, 'closed');
    busy(400);
    expect(await decision).toMatchObject({ allowed: true });
  });

  it('keeps asking Redis for fail-closed classes after fail-open decisions timed out in a row', async () => {
    for (let i = 0; i < 4; i++) {
      const decision = limiter.consume('open', windows, 'open');
      busy(400);
      expect((await decision).allowed).toBe(true); // decided in process, the window is far from full
    }
    expect(await limiter.consume('closed', windows, 'closed')).toMatchObject({ allowed: true });
  });
});
