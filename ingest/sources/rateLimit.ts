// Request spacing for the SEC's fair-access limit (10 requests per second). Requests are spread
// evenly rather than sent in bursts, and each start is reserved at once, so concurrent callers
// sharing a limiter still queue behind one another.

export interface RateLimiter {
  /** resolves when the caller may start its request */
  acquire(): Promise<void>;
}

/**
 * Timers may fire a little late and a server sees arrivals with network jitter, so the spacing
 * carries a small margin: 10 per second spaces starts 105 ms apart, and no 1-second window
 * anywhere along the way sees an 11th request.
 */
const safetyMargin = 1.05;

export function spacedRateLimiter(maxPerSecond: number, now: () => number = () => performance.now()): RateLimiter {
  if (!(maxPerSecond > 0)) throw new Error(`rate limit must be a positive number of requests per second, got ${maxPerSecond}`);
  const intervalMs = (1000 / maxPerSecond) * safetyMargin;
  let nextStart = -Infinity;
  return {
    async acquire() {
      const start = Math.max(now(), nextStart);
      nextStart = start + intervalMs;
      // setTimeout can wake a millisecond early; wait again until the reserved start has passed.
      for (let wait = start - now(); wait > 0; wait = start - now()) await sleep(wait);
      // A busy event loop can wake this caller late; the next one keeps its distance from the
      // actual start, not from the reserved one, so a late start never crowds the next.
      nextStart = Math.max(nextStart, now() + intervalMs);
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
