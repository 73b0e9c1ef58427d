// What every resolver receives, whichever door (GraphQL, REST, MCP, graphql-ws) the request came in by.
import type { PrismaClient } from '../prisma/db.ts';
import type { Config } from '../server/config.ts';
import type { Limiter } from '../server/limiter.ts';
import type { Logger } from '../server/logger.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import type { RequestCache } from './requestCache.ts';
import type { SessionVerifier } from './sessions.ts';

/** Long-lived parts of one running service. */
export interface Services {
  config: Config;
  prisma: PrismaClient;
  logger: Logger;
  limiter: Limiter;
  bus: EventBus;
  sessions: SessionVerifier;
  cache: RequestCache;
}

export type Principal =
  | { kind: 'api_key'; apiKeyId: string; orgId: string }
  | { kind: 'session'; userId: string; email: string; orgId: string | null; expiresAt: Date };

export interface Context extends Services {
  principal: Principal | null;
  requestId: string;
}
