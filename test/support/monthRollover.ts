// The month window's behaviour at a month's end, whichever limiter decides (in process, or Redis's script).
import { expect, it } from 'vitest';
import { rateLimitFields, type Limiter } from '../../core/limiter.ts';

export const day = 86_400;
export const at = (iso: string) => Date.parse(iso) / 1000;

/** The same behaviour, whichever limiter decides; `clock` is the time the limiter places windows by. */
export function rollsOverAtTheMonth(make: (clock: () => number) => Limiter, subject: () => string) {
  it('is full at its limit, says so until the 1st, and starts again at 00:00 UTC on the 1st', async () => {
    let now = Date.parse('2031-01-31T23:59:30Z');
    const limiter = make(() => now);
    const who = subject();
    const windows = [
      { period: 'day' as const, limit: 10 },
      { period: 'month' as const, limit: 2 },
    ];
    expect(await limiter.consume(who, windows, 'open')).toMatchObject({ allowed: true });
    expect(await limiter.consume(who, windows, 'open')).toEqual({
      allowed: true,
      windows: [
        { period: 'day', limit: 10, remaining: 8, resetSeconds: 30, windowSeconds: day },
        { period: 'month', limit: 2, remaining: 0, resetSeconds: 30, windowSeconds: 31 * day },
      ],
    });
    // the month refuses though the day has room: Retry-After is the seconds to February 1st
    const refused = await limiter.consume(who, windows, 'open');
    expect(refused).toEqual({
      allowed: false,
      period: 'month',
      limit: 2,
      retryAfterSeconds: 30,
      windows: [
        { period: 'day', limit: 10, remaining: 8, resetSeconds: 30, windowSeconds: day },
        { period: 'month', limit: 2, remaining: 0, resetSeconds: 30, windowSeconds: 31 * day },
      ],
    });
    expect(rateLimitFields('ai_query', refused.allowed === false ? refused.windows : [])).toEqual({
      'RateLimit-Policy': `"ai_query:day";q=10;w=86400, "ai_query:month";q=2;w=${31 * day}`,
      RateLimit: '"ai_query:day";r=8;t=30, "ai_query:month";r=0;t=30',
    });

    now = Date.parse('2031-01-31T23:59:59Z');
    expect(await limiter.consume(who, windows, 'open')).toMatchObject({ allowed: false, period: 'month', retryAfterSeconds: 1 });

    now = Date.parse('2031-02-01T00:00:00Z'); // February: a new, 28-day window
    expect(await limiter.consume(who, windows, 'open')).toEqual({
      allowed: true,
      windows: [
        { period: 'day', limit: 10, remaining: 9, resetSeconds: day, windowSeconds: day },
        { period: 'month', limit: 2, remaining: 1, resetSeconds: 28 * day, windowSeconds: 28 * day },
      ],
    });
    expect(await limiter.consume(who, windows, 'open')).toMatchObject({ allowed: true });
    expect(await limiter.consume(who, windows, 'open')).toMatchObject({ allowed: false, period: 'month', retryAfterSeconds: 28 * day });
    // another subject's month is its own
    expect(await limiter.consume(`${who}:other`, windows, 'open')).toMatchObject({ allowed: true });
  });
}
