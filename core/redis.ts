// Redis connections tuned for a service that must answer while Redis is away: no offline
// queue and a short command timeout, so a call fails fast instead of waiting for a reconnect.
import type { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

export type { Redis };

/** what a span of one of our Redis calls says about it (core/tracing.ts); never a key, an argument or a value */
export const redisSpanAttributes = { 'db.system.name': 'redis' } as const;

// Long enough that a Redis busy with several instances' traffic on a loaded machine is still
// answered (at 40 ms the limiter fell back to per-instance windows under CI's own load, and two
// instances admitted more than the limit together); short enough that a partition costs one
// request this much, after which the limiter stays local for a second (core/limiter.ts).
export const redisCommandTimeoutMs = 150;

/**
 * `commandTimeoutMs`: IDS_REDIS_COMMAND_TIMEOUT_MS, when the operator knows better for their Redis.
 * The client library is loaded on the first connection: a service without Redis (the embedded
 * default) starts without reading it.
 */
export async function connectRedis(url: string, logger: Logger, role: string, commandTimeoutMs = redisCommandTimeoutMs): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    // commands issued in the same tick (the quota checks of requests that arrived together) go in one write
    enableAutoPipelining: true,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 250, 2000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (!down) logger.warn({ role, err: error.message }, 'redis unreachable; retrying in the background');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info({ role }, 'redis reachable again');
    down = false;
  });
  return redis;
}

/** Resolves when the connection is ready, or after `ms` (a Redis that is down must not block a start). */
export function readyWithin(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    redis.once('ready', onReady);
  });
}
