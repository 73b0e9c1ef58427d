// The month window in Redis's script (SPEC 8.4): a calendar month in UTC, decided with the clock
// the limiter is given, and placed where the in-process limiter places it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLimiter, windowAt } from '../../core/limiter.ts';
import { createLogger } from '../../core/logger.ts';
import { connectRedis, readyWithin, type Redis } from '../../core/redis.ts';
import { at, rollsOverAtTheMonth } from '../support/monthRollover.ts';

describe('the Redis limiter\'s month window', () => {
  let redis: Redis;
  const prefix = `ids:test:month:${Date.now()}`;
  const limiters: RedisLimiter[] = [];
  let subjects = 0;

  beforeAll(async () => {
    redis = await connectRedis(process.env.REDIS_URL!, createLogger('silent'), 'test');
    expect(await readyWithin(redis, 5000)).toBe(true);
  });
  afterAll(async () => {
    limiters.forEach((l) => l.close());
    // the windows of a clock set in the future would stay until then
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const make = (clock: () => number) => {
    const limiter = new RedisLimiter(redis, 2000, prefix, clock);
    limiters.push(limiter);
    return limiter;
  };

  rollsOverAtTheMonth(make, () => `org${++subjects}:ai_query`);

  it('places month windows where the in-process limiter does, across years, leap days and century years', async () => {
    const instants = ['1999-12-31T23:59:59Z', '2000-01-01T00:00:00Z', '2000-02-29T12:00:00Z', '2000-03-01T00:00:00Z', '2024-02-28T23:59:59Z', '2026-11-27T06:00:00Z', '2027-02-15T00:00:00Z', '2031-12-31T23:59:59Z', '2100-02-28T23:59:59Z', '2100-03-01T00:00:00Z', '2400-02-29T00:00:00Z'];
    for (const instant of instants) {
      const seconds = at(instant);
      const decision = await make(() => seconds * 1000).consume(`org${++subjects}:ai_query`, [{ period: 'month', limit: 5 }], 'closed');
      const { start, end } = windowAt('month', seconds);
      expect(decision, instant).toMatchObject({ allowed: true, windows: [{ resetSeconds: end - seconds, windowSeconds: end - start }] });
    }
  });
});
