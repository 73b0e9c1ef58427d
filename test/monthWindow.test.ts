// The month window (SPEC 8.4, the AI query's monthly quota): a calendar month in UTC, full at its
// limit, starting again at 00:00 UTC on the 1st, in the in-process limiter (Redis's script:
// test/redis/monthWindow.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessLimiter, windowAt } from '../core/limiter.ts';
import { at, day, rollsOverAtTheMonth } from './support/monthRollover.ts';

describe('windowAt', () => {
  it('places a month window on the calendar month in UTC, leap Februaries included', () => {
    expect(windowAt('month', at('2026-11-27T06:00:00Z'))).toEqual({ start: at('2026-11-01T00:00:00Z'), end: at('2026-12-01T00:00:00Z') });
    expect(windowAt('month', at('2026-12-31T23:59:59Z'))).toEqual({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
    expect(windowAt('month', at('2027-01-01T00:00:00Z')).start).toBe(at('2027-01-01T00:00:00Z'));
    const february = (year: number) => windowAt('month', at(`${year}-02-10T12:00:00Z`));
    expect((february(2028).end - february(2028).start) / day).toBe(29);
    expect((february(2027).end - february(2027).start) / day).toBe(28);
    expect((february(2100).end - february(2100).start) / day).toBe(28);
    expect((february(2000).end - february(2000).start) / day).toBe(29);
    // the other periods stay aligned to the Unix epoch
    expect(windowAt('day', at('2026-11-27T06:00:00Z'))).toEqual({ start: at('2026-11-27T00:00:00Z'), end: at('2026-11-28T00:00:00Z') });
  });
});

describe('the in-process limiter', () => {
  const limiters: InProcessLimiter[] = [];
  afterAll(() => limiters.forEach((l) => l.close()));
  rollsOverAtTheMonth(
    (clock) => {
      const limiter = new InProcessLimiter(clock);
      limiters.push(limiter);
      return limiter;
    },
    () => 'org:ai_query',
  );
});
