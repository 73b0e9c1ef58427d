// What every resolver receives, whichever door (GraphQL, REST, MCP, graphql-ws) the request came in by.
import type { PrismaClient } from '../prisma/db.ts';
import type { Config } from '../core/config.ts';
import type { Limiter } from '../core/limiter.ts';
import type { Logger } from '../core/logger.ts';
import type { RequestActivity } from '../core/requestActivity.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import type { RequestCache } from './requestCache.ts';
import type { SessionVerifier } from './sessions.ts';
import type { RequestLog } from './requestLog.ts';
import type { Admission } from './billing/admission.ts';
import type { Mailer } from '../subscriptions/email/mailer.ts';
import type { Principal } from './principal.ts';
import type { AnalyticsRunner } from './analytics/runner.ts';


/** Long-lived parts of one running service. */
export interface Services {
  config: Config;
  prisma: PrismaClient;
  logger: Logger;
  limiter: Limiter;
  bus: EventBus;
  sessions: SessionVerifier;
  /** signs the tokens of sessions this service starts (resolvers/accounts/sessions.ts) */
  sessionSecret: string;
  cache: RequestCache;
  webhooks: WebhookSettings;
  /** every request's diagnostics record, written in batches */
  requestLog: RequestLog;
  /** pays for metered requests before they run (billing gates, grant and credit) */
  admission: Admission;
  email: EmailSettings;
  /** runs the numerical part of portfolio analytics, on worker threads unless IDS_ANALYTICS_THREADS is 0 */
  analytics: AnalyticsRunner;
  /** the requests this process is answering (a background ingest on the embedded database lets them go first) */
  activity: RequestActivity;
}

/** What monitor email delivery needs: the SMTP client (null without IDS_SMTP_URL) and the key of unsubscribe links. */
export interface EmailSettings {
  mailer: Mailer | null;
  unsubscribeKey: Buffer;
}

/** What the webhook routes and worker need besides the database. */
export interface WebhookSettings {
  /** the server key that seals signing secrets (subscriptions/webhooks/signing.ts) */
  key: Buffer;
  /** IDS_WEBHOOK_ALLOWED_HOSTS: exempt from the address guard, and allowed plain http */
  allowedHosts: Set<string>;
  /** IDS_WEBHOOK_RETRY_SCALE: shrinks the retry schedule (tests only; 1 in production) */
  retryScale: number;
}

export interface Context extends Services {
  principal: Principal | null;
  requestId: string;
  /** the peer's address as the door saw it (`trust proxy` is off); absent for the service's own callers (monitors) */
  clientAddress?: string;
  /** the client's User-Agent, for the list of a person's signed-in devices */
  userAgent?: string;
}
