// Composes one running service: database, Redis (optional), limiter, event bus, sessions,
// and the HTTP server with its doors (REST /v1, /graphql over HTTP and WebSocket).
import { hkdfSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { openDatabase, type Database } from '../prisma/db.ts';
import type { Services } from '../resolvers/context.ts';
import { createMailer } from '../subscriptions/email/mailer.ts';
import { createRequestCache } from '../resolvers/requestCache.ts';
import { localSessionSecret, sessionVerifier } from '../resolvers/sessions.ts';
import { errorHandler, keepRawBody, maxBodyBytes, mountRoutes, refuseDeepJsonBody, refuseKeysInBody, refuseKeysInUrl, serviceVersion } from '../rest/http.ts';
import { startIdempotencySweep } from '../rest/idempotency.ts';
import { startAuthSweep } from '../resolvers/accounts/sweep.ts';
import { mcpRouter } from '../rest/mcp/handler.ts';
import { oidcRouter } from '../rest/oidc.ts';
import { buildOpenApi } from '../rest/openapi.ts';
import { createOperations } from '../rest/health.ts';
import { requestContext, resumeTracedContext } from '../catalogue/requestContext.ts';
import { routes } from '../catalogue/routes/index.ts';
import { createEventBus } from '../subscriptions/bus.ts';
import { allowedHostsFromEnv } from '../subscriptions/webhooks/sender.ts';
import { webhookKey } from '../subscriptions/webhooks/signing.ts';
import { startWebhookWorker, type WebhookWorker } from '../workers/webhooks.ts';
import { startSecSyncWorker, type SecSyncWorker } from '../workers/secSync.ts';
import type { Config } from '../core/config.ts';
import { answerClientErrors } from './clientErrors.ts';
import { corsPolicy } from './cors.ts';
import { dashboardOptions, dashboardRouter } from './dashboard.ts';
import { graphiql, graphiqlAsset, graphiqlAssetsPath } from '../graphql/graphiql.ts';
import { publicCacheControl, securityHeaders } from '../rest/securityHeaders.ts';
import { attachGraphqlWs, createGraphqlHandler } from '../graphql/yoga.ts';
import { graphqlBody } from '../graphql/body.ts';
import { failClosedTimeoutMs, InProcessLimiter, RedisLimiter } from '../core/limiter.ts';
import { createLogger, type Logger } from '../core/logger.ts';
import { RequestActivity } from '../core/requestActivity.ts';
import { createRequestLog } from '../resolvers/requestLog.ts';
import { Admission } from '../resolvers/billing/admission.ts';
import { autoTopUp } from '../resolvers/billing/processor.ts';
import { connectRedis, readyWithin, type Redis } from '../core/redis.ts';
import { createAnalyticsRunner } from '../resolvers/analytics/pool.ts';
import { startTracing } from './tracing.ts';

export interface Service {
  services: Services;
  database: Database;
  /** null when IDS_WEBHOOK_WORKER=off */
  webhookWorker: WebhookWorker | null;
  secSyncWorker: SecSyncWorker | null;
  httpServer: Server;
  /** starts listening; resolves to the base URL */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export async function createService(config: Config, options: { logger?: Logger; onQuery?: (sql: string) => void; onStatement?: (sql: string) => void } = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = await openDatabase(config.database, { onQuery: options.onQuery, onStatement: options.onStatement });
  const redisConnections: Redis[] = [];
  const redis = async (role: string, commandTimeoutMs = config.redisCommandTimeoutMs) => {
    const connection = await connectRedis(config.redisUrl!, logger, role, commandTimeoutMs);
    redisConnections.push(connection);
    return connection;
  };
  // The limiter times its own decisions (fail-open ones at IDS_REDIS_COMMAND_TIMEOUT_MS), so its
  // connection lets a fail-closed one wait for a slow but healthy Redis.
  const limiter = config.redisUrl ? new RedisLimiter(await redis('limiter', failClosedTimeoutMs), config.redisCommandTimeoutMs) : new InProcessLimiter();
  const bus = createEventBus(config.redisUrl ? { publisher: await redis('bus-publisher'), subscriber: await redis('bus-subscriber') } : undefined, logger);
  // Give Redis a moment so the first requests use it; a Redis that is down does not stop the start.
  await Promise.all(redisConnections.map((connection) => readyWithin(connection, 2000)));
  const sessionSecret = await localSessionSecret(config.stateDir, config.sessionSecret);
  const sessions = sessionVerifier(sessionSecret, config.identityProvider);
  const cache = createRequestCache(bus, config.requestCacheTtlMs);
  const webhooks = { key: await webhookKey(config.stateDir, config.webhooks.secretKey), allowedHosts: allowedHostsFromEnv(config.webhooks.allowedHosts.join(',')), retryScale: config.webhooks.retryScale };
  const requestLog = createRequestLog(database.prisma, logger, config.recordRequests);
  const admission = new Admission({ config, prisma: database.prisma, logger, bus });
  // unsubscribe links are signed with a key derived from the server key, never the key itself
  const email = { mailer: await createMailer(config.email.smtpUrl, config.email.from), unsubscribeKey: Buffer.from(hkdfSync('sha256', webhooks.key, Buffer.alloc(0), 'ids monitor unsubscribe links', 32)) };
  const services: Services = { config, prisma: database.prisma, logger, limiter, bus, sessions, sessionSecret, cache, webhooks, requestLog, admission, email, analytics: createAnalyticsRunner({ threads: config.analyticsThreads, logger }), activity: new RequestActivity() };
  admission.hooks.lowBalance = (orgId) => void autoTopUp(services, orgId).catch((error) => logger.error({ err: error, orgId }, 'auto-top-up failed'));
  admission.start();
  const webhookWorker = config.webhooks.worker ? startWebhookWorker(services, config.webhooks.pollMs) : null;
  const secSyncWorker = config.sec.sync ? startSecSyncWorker(services) : null;
  const idempotencySweep = startIdempotencySweep(database.prisma, logger);
  const authSweep = startAuthSweep(database.prisma, logger);

  const app = express();
  app.disable('x-powered-by');
  // Every body carries its own requestId, so an ETag would never match a later response: hashing
  // each body for one is pure cost.
  app.set('etag', false);
  app.set('trust proxy', false);
  const operations = createOperations({ prisma: database.prisma, redis: redisConnections, logger, activity: services.activity });
  app.use(operations.track);
  const tracing = await startTracing(config.tracing);
  app.use(requestContext(logger, requestLog, tracing));
  app.use(securityHeaders);
  app.use(corsPolicy(config.corsOrigins));
  app.use(refuseKeysInUrl);
  app.use(operations.router);
  // the dashboard's pages and assets, under its own CSP and caching (server/dashboard.ts)
  app.use(dashboardRouter(dashboardOptions(config)));
  const graphql = createGraphqlHandler(services);
  app.get('/graphql', graphiql);
  app.get(`${graphiqlAssetsPath}/:name`, graphiqlAsset);
  // the same body limit as REST and MCP, enforced before Yoga reads or parses anything
  app.use('/graphql', graphqlBody(maxBodyBytes), resumeTracedContext, graphql);
  app.use(mcpRouter(services, routes));
  // routes that verify a sender's signature need the bytes it sent
  for (const route of routes.filter((r) => r.signedBody)) app.use(route.path, express.json({ limit: maxBodyBytes, verify: keepRawBody }));
  app.use(express.json({ limit: maxBodyBytes, verify: refuseDeepJsonBody }));
  app.use(resumeTracedContext);
  app.use(refuseKeysInBody);
  // built when first asked for, not at start: it is a few hundred milliseconds of JSON Schema work
  let openApi: ReturnType<typeof buildOpenApi> | undefined;
  app.get('/openapi/sec-api.v1.json', (_req, res) => void res.set('Cache-Control', publicCacheControl).json((openApi ??= buildOpenApi(routes))));
  app.use('/v1', serviceVersion);
  // OpenID sign-in's redirects, before the route table's catch-all 404
  app.use(oidcRouter(services));
  mountRoutes(app, services, routes);
  app.use(errorHandler(services));

  const httpServer = createServer(app);
  answerClientErrors(httpServer);
  const ws = attachGraphqlWs(httpServer, services);

  return {
    services,
    database,
    httpServer,
    webhookWorker,
    secSyncWorker,
    listen(port = config.port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const { port: bound } = httpServer.address() as AddressInfo;
          resolve(`http://${host}:${bound}`);
        });
      });
    },
    async close() {
      // Stop accepting at once; requests and webhook attempts in flight get the grace period to
      // finish (an attempt cut short keeps its lease and is sent again, same webhook-id, later).
      operations.beginShutdown();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      // a keep-alive connection is closed as soon as its request is answered
      const idleSweep = setInterval(() => httpServer.closeIdleConnections(), 50);
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, config.shutdownGraceMs)));
      await Promise.race([Promise.all([operations.idle(), webhookWorker?.stop(), secSyncWorker?.stop(), ws.close()]), grace]);
      clearTimeout(graceTimer);
      clearInterval(idleSweep);
      httpServer.closeAllConnections();
      await closed;
      await admission.close();
      await requestLog.close();
      await tracing?.close();
      // after the requests: a computation still running is one whose request was cut
      await services.analytics.close();
      email.mailer?.close();
      await idempotencySweep.stop();
      await authSweep.stop();
      cache.close();
      await bus.close();
      limiter.close();
      for (const connection of redisConnections) connection.disconnect();
      await database.close();
    },
  };
}
