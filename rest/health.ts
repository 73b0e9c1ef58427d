// Health and metrics endpoints for operators, outside /v1 and unauthenticated: GET /healthz (the process answers),
// GET /readyz (the database is reachable with every migration applied, and Redis when one is
// configured) and GET /metrics (Prometheus text). Metrics carry no organization, key or raw
// URL: requests are labelled by the route's path template, so their number of series is bounded.
// The module also counts requests in flight, so that a shutdown can wait for them.
import type { NextFunction, Request, Response } from 'express';
import { Router } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ApiError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { RequestActivity } from '../core/requestActivity.ts';
import type { Redis } from '../core/redis.ts';
import { hasPendingMigrations, type PrismaClient } from '../prisma/db.ts';

export interface OperationsDeps {
  prisma: PrismaClient;
  /** the service's Redis connections; empty when REDIS_URL is not set */
  redis: Redis[];
  logger: Logger;
  /** the service's count of requests being answered, which `track` keeps */
  activity: RequestActivity;
}

export interface Operations {
  /** counts and times every request; mount first */
  track(req: Request, res: Response, next: NextFunction): void;
  router: Router;
  /** /readyz answers 503 from now on, so that a balancer stops sending before the server closes */
  beginShutdown(): void;
  /** resolves when no request is in flight */
  idle(): Promise<void>;
}

/** A check that takes longer than this counts as down: a probe must answer in its own timeout. */
const checkTimeoutMs = 5000;
/** Paths answered outside the route table, labelled as themselves; anything else unmatched is `unmatched`. */
const fixedPaths = new Set(['/graphql', '/mcp', '/healthz', '/readyz', '/metrics', '/openapi/sec-api.v1.json']);

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The route's template in the table's own spelling (/v1/macro/series/{series_id}), never the URL the client sent. */
function routeLabel(req: Request, path: string): string {
  const template = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof template === 'string') return template.replace(/:(\w+)/g, '{$1}');
  return fixedPaths.has(path) ? path : 'unmatched';
}

export function createOperations(deps: OperationsDeps): Operations {
  const { prisma, redis, logger, activity } = deps;
  // A registry per service: tests run several services in one process.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry }); // includes nodejs_eventloop_lag_* (event-loop delay)
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const inFlightGauge = new Gauge({ name: 'http_requests_in_flight', help: 'HTTP requests being answered', registers: [registry] });
  // Read from the database on each scrape: the queue is shared by every instance.
  new Gauge({
    name: 'ids_webhook_deliveries_due',
    help: 'Webhook delivery attempts that are due and not being sent (the queue depth, all instances)',
    registers: [registry],
    async collect() {
      try {
        const [row] = await within(
          prisma.$queryRaw<{ due: bigint }[]>`SELECT count(*) AS due FROM "WebhookDelivery" WHERE "status" = 'pending' AND "nextAttemptAt" <= (now() AT TIME ZONE 'UTC') AND ("lockedUntil" IS NULL OR "lockedUntil" < (now() AT TIME ZONE 'UTC'))`,
          checkTimeoutMs,
        );
        this.set(Number(row?.due ?? 0));
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'metrics: could not count due webhook deliveries');
      }
    },
  });
  new Gauge({
    name: 'ids_ingest_items',
    help: 'Source items the ingest has recorded, by status (ingested, failed, skipped)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      try {
        const counts = await within(prisma.ingestItem.groupBy({ by: ['status'], _count: { _all: true } }), checkTimeoutMs);
        this.reset();
        for (const count of counts) this.set({ status: count.status }, count._count._all);
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'metrics: could not count ingest items');
      }
    },
  });
  new Gauge({
    name: 'ids_ingest_runs_unfinished',
    help: 'Ingest runs started and not finished (running, or stopped before the end)',
    registers: [registry],
    async collect() {
      try {
        this.set(await within(prisma.ingestRun.count({ where: { finishedAt: null } }), checkTimeoutMs));
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'metrics: could not count ingest runs');
      }
    },
  });

  let shuttingDown = false;

  const track = (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // read now: a router mounted on a path (/graphql) rewrites req.path while it answers
    const { path, method } = req;
    activity.begin();
    inFlightGauge.inc();
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      activity.end();
      inFlightGauge.dec();
      const labels = { method, route: routeLabel(req, path), status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', end);
    res.once('close', end);
    next();
  };

  async function downList(): Promise<{ name: string; reason: string }[]> {
    const down: { name: string; reason: string }[] = [];
    if (shuttingDown) down.push({ name: 'server', reason: 'shutting down' });
    try {
      await within(prisma.$queryRaw`SELECT 1`, checkTimeoutMs);
      if (await within(hasPendingMigrations(prisma), checkTimeoutMs)) down.push({ name: 'database', reason: 'migrations are pending' });
    } catch (error) {
      // the cause goes to the log only: it may name internal hosts, and this answer is public
      logger.warn({ err: (error as Error).message }, 'readiness: database check failed');
      down.push({ name: 'database', reason: 'unreachable' });
    }
    if (redis.length) {
      const unready = redis.filter((connection) => connection.status !== 'ready');
      try {
        if (unready.length) throw new Error(`connection ${unready[0]!.status}`);
        await within(redis[0]!.ping(), checkTimeoutMs);
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'readiness: redis check failed');
        down.push({ name: 'redis', reason: 'unreachable' });
      }
    }
    return down;
  }

  const router = Router();
  router.get('/healthz', (_req, res) => void res.set('Cache-Control', 'no-store').json({ status: 'ok' }));
  router.get('/readyz', async (_req, res, next) => {
    const down = await downList();
    res.set('Cache-Control', 'no-store');
    if (!down.length) return void res.json({ status: 'ok', checks: { database: 'ok', redis: redis.length ? 'ok' : 'not configured' } });
    next(
      new ApiError('service_unavailable', `Not ready: ${down.map((d) => `${d.name} ${d.reason}`).join('; ')}.`, {
        retryAfter: 5,
        details: { down: down.map((d) => d.name), reasons: Object.fromEntries(down.map((d) => [d.name, d.reason])) },
      }),
    );
  });
  router.get('/metrics', async (_req, res, next) => {
    try {
      const text = await registry.metrics();
      res.set({ 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).send(text);
    } catch (error) {
      next(error);
    }
  });

  return {
    track,
    router,
    beginShutdown: () => void (shuttingDown = true),
    idle: () => activity.idle(),
  };
}
