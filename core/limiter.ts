// Fixed-window quotas: one counter per organization, meter class and period window. A request
// of N units (1 for most; a GraphQL operation's cost) is admitted only if every window of its
// class has room for all N, and then counts N in all of them. Minute, hour and day windows are
// aligned to the Unix epoch; a month window is the calendar month in UTC (it starts again at
// 00:00 UTC on the 1st).
// With Redis the check-and-count is one Lua script (one round trip, atomic across instances);
// without it, the same rule runs in process.
import { redisSpanAttributes, type Redis } from './redis.ts';
import { inSpan, SpanKind } from './tracing.ts';

export type Period = 'minute' | 'hour' | 'day' | 'month';

/** The periods of one length; a month is 28 to 31 days (windowAt). */
export type FixedPeriod = Exclude<Period, 'month'>;

export const periodSeconds: Record<FixedPeriod, number> = { minute: 60, hour: 3600, day: 86400 };

/** The window of `period` that holds the Unix time `seconds`: its first second and the first of the next. */
export function windowAt(period: Period, seconds: number): { start: number; end: number } {
  if (period === 'month') {
    const day = new Date(seconds * 1000);
    const [year, month] = [day.getUTCFullYear(), day.getUTCMonth()];
    return { start: Date.UTC(year, month, 1) / 1000, end: Date.UTC(year, month + 1, 1) / 1000 };
  }
  const start = seconds - (seconds % periodSeconds[period]);
  return { start, end: start + periodSeconds[period] };
}

/** What the Lua script calls a window: its length in seconds, 0 for the calendar month. */
const scriptLength = (period: Period) => (period === 'month' ? 0 : periodSeconds[period]);

export interface QuotaWindow {
  period: Period;
  limit: number;
}

/** One window as the decision left it: what is left of its limit and when it starts again. */
export interface WindowState extends QuotaWindow {
  remaining: number;
  resetSeconds: number;
  /** the length of the current window (a month's differs from month to month) */
  windowSeconds: number;
}

export type Decision =
  /** `windows`: every window of the class after this request was counted, in the order asked */
  | { allowed: true; windows: WindowState[] }
  | { allowed: false; period: Period; limit: number; retryAfterSeconds: number; windows: WindowState[] }
  /** the shared store did not answer and the class fails closed */
  | { allowed: 'unavailable' };

export interface Limiter {
  consume(subject: string, windows: QuotaWindow[], failMode: 'open' | 'closed', units?: number): Promise<Decision>;
  close(): void;
}

/**
 * ARGV: the Unix time to decide at (-1: Redis's own clock, the one every instance shares), units,
 * then (length, limit) per window, length 0 for the calendar month in UTC. Answers [index, used,
 * seconds left, window length, …]: index -1 when admitted (each window's use then counts this
 * request), else the index of the first full window (nothing counted). The windows' use comes back
 * in the same round trip, for the RateLimit header.
 */
const consumeScript = `
local seconds = tonumber(ARGV[1])
if seconds < 0 then
  seconds = tonumber(redis.call('TIME')[1])
end
local units = tonumber(ARGV[2])
-- a month window runs from 00:00 UTC on its 1st to the next month's (days from and to civil dates, proleptic Gregorian)
local function daysFromCivil(y, m)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = math.floor((153 * mp + 2) / 5)
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end
local function monthWindow()
  local z = math.floor(seconds / 86400) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400 + (m <= 2 and 1 or 0)
  local ny, nm = y, m + 1
  if nm > 12 then ny, nm = y + 1, 1 end
  return daysFromCivil(y, m) * 86400, daysFromCivil(ny, nm) * 86400
end
local keys = {}
local reply = { -1 }
for i = 3, #ARGV, 2 do
  local length = tonumber(ARGV[i])
  local start, finish, name
  if length == 0 then
    start, finish = monthWindow()
    name = 'month'
  else
    start = seconds - (seconds % length)
    finish = start + length
    name = length
  end
  local key = KEYS[1] .. ':' .. name .. ':' .. start
  keys[#keys + 1] = { key, finish }
  local used = tonumber(redis.call('GET', key) or '0')
  reply[#reply + 1] = used
  reply[#reply + 1] = finish - seconds
  reply[#reply + 1] = finish - start
  if reply[1] < 0 and used + units > tonumber(ARGV[i + 1]) then
    reply[1] = (i - 3) / 2
  end
end
if reply[1] >= 0 then
  return reply
end
for n, entry in ipairs(keys) do
  reply[3 * n - 1] = redis.call('INCRBY', entry[1], units)
  redis.call('EXPIREAT', entry[1], entry[2] + 1)
end
return reply
`;

const stateOf = (window: QuotaWindow, used: number, resetSeconds: number, windowSeconds: number): WindowState => ({
  ...window,
  remaining: Math.max(0, window.limit - used),
  resetSeconds,
  windowSeconds,
});

/** A Structured Field sf-string (RFC 9651 3.3.3): printable ASCII, quotes and backslashes escaped. */
const sfString = (value: string) => `"${value.replace(/[^\x20-\x7e]/g, '').replace(/[\\"]/g, '\\$&')}"`;

export interface RateLimitFields {
  'RateLimit-Policy': string;
  RateLimit: string;
}

/**
 * The quota fields of draft-ietf-httpapi-ratelimit-headers, one policy per window of the meter
 * class, named `<class>:<period>` (a class has a minute, an hour and a day window, the ai_query
 * class a month window too):
 * `RateLimit-Policy: "data_read:minute";q=100;w=60, …` (q: the limit, w: the current window's
 * length in seconds, for a month the days of this calendar month)
 * and `RateLimit: "data_read:minute";r=97;t=42, …` (r: what is left, t: seconds until the window
 * starts again). Quota units are requests, for the graphql class the operation's cost.
 */
export function rateLimitFields(meterClass: string, windows: WindowState[]): RateLimitFields {
  const name = (w: WindowState) => sfString(`${meterClass}:${w.period}`);
  return {
    'RateLimit-Policy': windows.map((w) => `${name(w)};q=${w.limit};w=${w.windowSeconds}`).join(', '),
    RateLimit: windows.map((w) => `${name(w)};r=${w.remaining};t=${Math.max(0, w.resetSeconds)}`).join(', '),
  };
}

export class InProcessLimiter implements Limiter {
  private readonly counters = new Map<string, { windowEnd: number; used: number }>();
  private readonly sweep = setInterval(() => this.dropExpired(), 60_000).unref();

  constructor(private readonly now: () => number = Date.now) {}

  async consume(subject: string, windows: QuotaWindow[], _failMode?: 'open' | 'closed', units = 1): Promise<Decision> {
    return this.consumeSync(subject, windows, units);
  }

  consumeSync(subject: string, windows: QuotaWindow[], units = 1): Decision {
    const seconds = Math.floor(this.now() / 1000);
    const slots = windows.map((window) => {
      const { start, end: windowEnd } = windowAt(window.period, seconds);
      const key = `${subject}:${window.period}`;
      let counter = this.counters.get(key);
      if (!counter || counter.windowEnd !== windowEnd) this.counters.set(key, (counter = { windowEnd, used: 0 }));
      return { window, counter, windowSeconds: windowEnd - start };
    });
    const full = slots.find(({ window, counter }) => counter.used + units > window.limit);
    const states = () => slots.map(({ window, counter, windowSeconds }) => stateOf(window, counter.used, counter.windowEnd - seconds, windowSeconds));
    if (full) return { allowed: false, period: full.window.period, limit: full.window.limit, retryAfterSeconds: full.counter.windowEnd - seconds, windows: states() };
    for (const { counter } of slots) counter.used += units;
    return { allowed: true, windows: states() };
  }

  private dropExpired() {
    const seconds = Math.floor(this.now() / 1000);
    for (const [key, counter] of this.counters) if (counter.windowEnd <= seconds) this.counters.delete(key);
  }

  close() {
    clearInterval(this.sweep);
  }
}

type ConsumeCommand = { idsConsumeQuota(key: string, ...args: number[]): Promise<number[]> };

/** after Redis fails to answer, how long fail-open decisions skip it before one request tries it again */
export const redisBackoffMs = 1000;

/** timeouts in a row (on a connection that is up) before fail-open decisions skip Redis for a moment */
const timeoutsBeforeBackoff = 3;

/**
 * How long a fail-closed decision waits for Redis while its connection is up. A healthy Redis
 * answers within it even on a busy event loop; only past it (a partition the connection has not
 * noticed) is the class refused as unavailable. The limiter's connection must allow this long.
 */
export const failClosedTimeoutMs = 2000;

class CommandTimeout extends Error {}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CommandTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class RedisLimiter implements Limiter {
  /** decides for fail-open classes while Redis is unreachable (the limit then holds per instance) */
  private readonly fallback: InProcessLimiter;
  /**
   * A partition after the connection is up costs each command its full timeout; after a few
   * timeouts in a row, fail-open decisions stay local for a moment instead of each paying it.
   * Fail-closed decisions never skip a connection that is up: a slow answer is not an outage.
   */
  private skipRedisUntil = 0;
  private timeoutsInARow = 0;

  /**
   * `openTimeoutMs`: how long a fail-open decision waits before deciding locally
   * (IDS_REDIS_COMMAND_TIMEOUT_MS). `now`: the clock windows are placed by (Unix milliseconds);
   * without it, Redis's own, which every instance shares.
   */
  constructor(
    private readonly redis: Redis,
    private readonly openTimeoutMs = 150,
    private readonly keyPrefix = 'ids:quota',
    private readonly now?: () => number,
  ) {
    this.fallback = new InProcessLimiter(now);
    // Sent by its SHA (EVALSHA), the script's text only when Redis does not hold it yet.
    redis.defineCommand('idsConsumeQuota', { numberOfKeys: 1, lua: consumeScript });
  }

  async consume(subject: string, windows: QuotaWindow[], failMode: 'open' | 'closed', units = 1): Promise<Decision> {
    const withoutRedis = (): Decision => (failMode === 'open' ? this.fallback.consumeSync(subject, windows, units) : { allowed: 'unavailable' });
    // Down (killed, restarting, unreachable): ioredis knows, and a command would fail at once.
    if (this.redis.status !== 'ready') return withoutRedis();
    if (failMode === 'open' && Date.now() < this.skipRedisUntil) return withoutRedis();
    const at = this.now ? Math.floor(this.now() / 1000) : -1;
    const args = [at, units, ...windows.flatMap((w) => [scriptLength(w.period), w.limit])];
    let reply: number[];
    try {
      reply = await inSpan(
        'redis EVALSHA idsConsumeQuota',
        redisSpanAttributes,
        () => within((this.redis as Redis & ConsumeCommand).idsConsumeQuota(`${this.keyPrefix}:${subject}`, ...args), failMode === 'open' ? this.openTimeoutMs : failClosedTimeoutMs),
        SpanKind.CLIENT,
      );
      this.timeoutsInARow = 0;
    } catch (error) {
      if (error instanceof CommandTimeout && ++this.timeoutsInARow >= timeoutsBeforeBackoff) {
        this.skipRedisUntil = Date.now() + redisBackoffMs;
        this.timeoutsInARow = 0;
      }
      return withoutRedis();
    }
    const [index] = reply as [number];
    const states = windows.map((window, i) => stateOf(window, reply[1 + 3 * i]!, reply[2 + 3 * i]!, reply[3 + 3 * i]!));
    if (index < 0) return { allowed: true, windows: states };
    const window = windows[index]!;
    return { allowed: false, period: window.period, limit: window.limit, retryAfterSeconds: Math.max(1, states[index]!.resetSeconds), windows: states };
  }

  close() {
    this.fallback.close();
  }
}
