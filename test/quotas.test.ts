// SPEC 8: quota windows per organization and meter class, 429 with Retry-After past them,
// and decisions that still come while the shared store (Redis) is unreachable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeQuota } from '../resolvers/metering.ts';
import { InProcessLimiter, RedisLimiter } from '../core/limiter.ts';
import { createLogger } from '../core/logger.ts';
import { connectRedis } from '../core/redis.ts';
import { call, expectEnvelope, orgWithKey, startTestService, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

/** a day window, so that no window boundary falls inside a test */
async function orgWithDailyLimit(service: TestService, meterClass: string, limit: number) {
  const org = await orgWithKey(service);
  await service.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass, period: 'day', limit } });
  return org;
}

describe('quota windows', () => {
  it('admits the limit, then answers 429 rate_limit_exceeded with Retry-After', async () => {
    const org = await orgWithDailyLimit(t, 'platform', 3);
    for (let i = 0; i < 3; i++) {
      const ok = await call(t, 'GET', '/v1/me', { key: org.key });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('service-meter-class')).toBe('platform');
    }
    const refused = await call(t, 'GET', '/v1/limits', { key: org.key });
    const body = expectEnvelope(refused, 429, 'rate_limit_exceeded');
    expect(body.details).toEqual({ meterClass: 'platform', period: 'day', limit: 3 });
    expect(body.retryable).toBe(true);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(refused.headers.get('service-meter-class')).toBe('platform');
  });

  it('counts per organization: one organization\'s full window does not touch another\'s', async () => {
    const busy = await orgWithDailyLimit(t, 'platform', 1);
    const quiet = await orgWithKey(t);
    await call(t, 'GET', '/v1/me', { key: busy.key });
    expect((await call(t, 'GET', '/v1/me', { key: busy.key })).status).toBe(429);
    expect((await call(t, 'GET', '/v1/me', { key: quiet.key })).status).toBe(200);
  });

  it('does not meter public routes', async () => {
    for (let i = 0; i < 5; i++) expect((await call(t, 'GET', '/v1/billing/rates')).status).toBe(200);
  });

  it('meters /graphql under its own class', async () => {
    const org = await orgWithDailyLimit(t, 'graphql', 4); // cost units: this operation costs 2
    const ask = () => call(t, 'POST', '/graphql', { key: org.key, body: { query: '{ entity(ticker: "AAPL") { cik } }' } });
    const first = await ask();
    expect(first.status).toBe(200);
    expect(first.headers.get('service-token-count')).toBe('2');
    expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(t, 'GET', '/v1/me', { key: org.key })).status).toBe(200); // platform class untouched
    // and so is the account over GraphQL: it is the platform class there too
    expect((await call(t, 'POST', '/graphql', { key: org.key, body: { query: '{ organization { id } }' } })).status).toBe(200);
  });

  it('refuses a class the plan does not include with 402 billing_required', async () => {
    const org = await orgWithKey(t);
    await expect(chargeQuota(t.service.services, org.orgId, 'analytics')).rejects.toMatchObject({ code: 'billing_required', status: 402 });
  });
});

describe('the in-process limiter', () => {
  it('needs room in every window, counts only admitted requests, and resets when a window ends', async () => {
    let now = Date.UTC(2026, 0, 1, 10, 0, 30);
    const limiter = new InProcessLimiter(() => now);
    const windows = [
      { period: 'minute' as const, limit: 2 },
      { period: 'hour' as const, limit: 3 },
    ];
    expect(await limiter.consume('o:c', windows)).toMatchObject({ allowed: true });
    // each decision tells what is left of every window, for the RateLimit header
    expect(await limiter.consume('o:c', windows)).toEqual({
      allowed: true,
      windows: [
        { period: 'minute', limit: 2, remaining: 0, resetSeconds: 30, windowSeconds: 60 },
        { period: 'hour', limit: 3, remaining: 1, resetSeconds: 3570, windowSeconds: 3600 },
      ],
    });
    expect(await limiter.consume('o:c', windows)).toEqual({
      allowed: false,
      period: 'minute',
      limit: 2,
      retryAfterSeconds: 30,
      windows: [
        { period: 'minute', limit: 2, remaining: 0, resetSeconds: 30, windowSeconds: 60 },
        { period: 'hour', limit: 3, remaining: 1, resetSeconds: 3570, windowSeconds: 3600 },
      ],
    });
    now += 30_000; // next minute: the minute window is empty, the hour has one left
    expect(await limiter.consume('o:c', windows)).toMatchObject({ allowed: true });
    expect(await limiter.consume('o:c', windows)).toMatchObject({ allowed: false, period: 'hour', retryAfterSeconds: 3540 });
    expect(await limiter.consume('other:c', windows)).toMatchObject({ allowed: true });
    limiter.close();
  });
});

describe('while Redis is unreachable', () => {
  const logger = createLogger('silent');

  it('a fail-open class is decided in process and a fail-closed class is refused, without waiting', async () => {
    const redis = await connectRedis('redis://127.0.0.1:1', logger, 'test');
    const limiter = new RedisLimiter(redis);
    try {
      const windows = [{ period: 'day' as const, limit: 2 }];
      const open = [await limiter.consume('o:open', windows, 'open'), await limiter.consume('o:open', windows, 'open'), await limiter.consume('o:open', windows, 'open')];
      expect(open.map((d) => d.allowed)).toEqual([true, true, false]);
      expect(await limiter.consume('o:closed', windows, 'closed')).toEqual({ allowed: 'unavailable' });
    } finally {
      limiter.close();
      redis.disconnect();
    }
  });

  it('the service keeps answering fail-open routes', async () => {
    const cut = await startTestService({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const org = await orgWithKey(cut);
      const answer = await call(cut, 'GET', '/v1/me', { key: org.key });
      expect(answer.status).toBe(200);
      await cut.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'platform', period: 'day', limit: 1 } });
      cut.service.services.cache.forgetOrg(org.orgId); // written behind the service's back, as the service itself would announce it
      expect((await call(cut, 'GET', '/v1/me', { key: org.key })).status).toBe(429); // the per-instance window still holds
      await cut.service.services.prisma.organization.update({ where: { id: org.orgId }, data: { planKey: 'personal', billingState: 'active' } });
      cut.service.services.cache.forgetOrg(org.orgId);
      await expect(chargeQuota(cut.service.services, org.orgId, 'analytics')).rejects.toMatchObject({ code: 'rate_limiter_unavailable', status: 503 });
    } finally {
      await cut.close();
    }
  });
});
