// `npm run bench:limiter`: how long a quota decision takes, in process, with Redis, and while
// Redis is unreachable (connection refused; or a peer that accepts and never answers, as in a
// network partition). Prints median and p99 per case. Needs REDIS_URL (default 127.0.0.1:6379).
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { InProcessLimiter, RedisLimiter, type Limiter } from '../core/limiter.ts';
import { createLogger } from '../core/logger.ts';
import { connectRedis, readyWithin } from '../core/redis.ts';

const decisions = Number(process.env.BENCH_DECISIONS ?? 2000);
const windows = [
  { period: 'minute' as const, limit: 1_000_000 },
  { period: 'hour' as const, limit: 1_000_000 },
  { period: 'day' as const, limit: 1_000_000 },
];
const logger = createLogger('silent');

async function measure(name: string, limiter: Limiter, failMode: 'open' | 'closed', count = decisions) {
  const times: number[] = [];
  const outcomes = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    const decision = await limiter.consume(`bench:${i % 50}`, windows, failMode);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    const outcome = String(decision.allowed);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
  console.log(`${name.padEnd(44)} n=${String(count).padStart(5)}  median ${at(0.5).padStart(7)} ms  p99 ${at(0.99).padStart(7)} ms  max ${times.at(-1)!.toFixed(3).padStart(7)} ms  ${[...outcomes].map(([k, v]) => `${k}:${v}`).join(' ')}`);
}

const inProcess = new InProcessLimiter();
await measure('in-process', inProcess, 'open');
inProcess.close();

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const live = await connectRedis(redisUrl, logger, 'bench');
if (await readyWithin(live, 2000)) {
  const limiter = new RedisLimiter(live, undefined, `ids:bench:${Date.now()}`);
  await measure('redis (one Lua round trip)', limiter, 'open');
  limiter.close();
} else console.log(`redis at ${redisUrl} not reachable; skipping that case`);
live.disconnect();

const refused = await connectRedis('redis://127.0.0.1:1', logger, 'bench-refused');
const refusedLimiter = new RedisLimiter(refused);
await measure('redis refused, fail-open class', refusedLimiter, 'open');
await measure('redis refused, fail-closed class', refusedLimiter, 'closed');
refusedLimiter.close();
refused.disconnect();

// A peer that completes the TCP handshake and then says nothing.
const silent = createServer(() => {});
await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
const hole = await connectRedis(`redis://127.0.0.1:${(silent.address() as AddressInfo).port}`, logger, 'bench-silent');
const holeLimiter = new RedisLimiter(hole);
await measure('redis silent (partition), fail-open class', holeLimiter, 'open', 200);
await measure('redis silent (partition), fail-closed class', holeLimiter, 'closed', 200);
holeLimiter.close();
hole.disconnect();
silent.close();

// A partition after the connection is up: a proxy to the real Redis that stops forwarding.
// Commands are sent and never answered; the command timeout bounds the decision.
let cut = false;
const redisTarget = new URL(redisUrl);
const proxy = createServer((client: Socket) => {
  const upstream = connect(Number(redisTarget.port || 6379), redisTarget.hostname);
  client.on('data', (chunk) => void (cut || upstream.write(chunk)));
  upstream.on('data', (chunk) => void (cut || client.write(chunk)));
  const end = () => (client.destroy(), upstream.destroy());
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const partitioned = await connectRedis(`redis://127.0.0.1:${(proxy.address() as AddressInfo).port}`, logger, 'bench-partition');
if (await readyWithin(partitioned, 2000)) {
  const limiter = new RedisLimiter(partitioned, undefined, `ids:bench:${Date.now()}`);
  await measure('redis via proxy, before the cut', limiter, 'open', 200);
  cut = true;
  await measure('redis cut after ready, fail-open class', limiter, 'open', 100);
  await measure('redis cut after ready, fail-closed class', limiter, 'closed', 100);
  limiter.close();
}
partitioned.disconnect();
proxy.close();
