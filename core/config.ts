// Everything the service reads from its environment, read once and passed down explicitly.
import { availableParallelism } from 'node:os';
import path from 'node:path';

/** Which database the service uses: a PostgreSQL server, or embedded PGlite in a folder. */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /**
   * `dataDir` is a folder, or `memory://` for a throwaway database. `initialData`: a data
   * directory to start from (a tarball from PGlite's dumpDataDir) instead of an empty one, so a
   * throwaway database can begin already migrated without replaying every migration.
   */
  | { kind: 'pglite'; dataDir: string; initialData?: Blob };

export interface IdentityProviderConfig {
  /** the `iss` a session token must carry */
  issuer: string;
  /** verify RS256/ES256 tokens against this key set… */
  jwksUrl?: string;
  /** …or HS256 tokens against this shared secret */
  secret?: string;
  audience?: string;
  /** where the authorization server publishes its metadata (defaults to the issuer's well-known URL) */
  metadataUrl?: string;
  /** IDS_AUTH_CLIENT_ID: this service as an OpenID Connect client of the issuer; with it, people sign in there (resolvers/accounts/oidc.ts) */
  clientId?: string;
  /** IDS_AUTH_CLIENT_SECRET: the client's secret at the issuer */
  clientSecret?: string;
  /** IDS_AUTH_PROVIDER_NAME: what the sign-in page calls the provider ("Continue with …"); the issuer's host name if unset */
  displayName?: string;
}

export interface Config {
  port: number;
  /** the address to listen on; 127.0.0.1 unless HOST says otherwise (0.0.0.0 in a container) */
  host: string;
  stateDir: string;
  database: DatabaseTarget;
  redisUrl?: string;
  /** IDS_REDIS_COMMAND_TIMEOUT_MS: how long a Redis command may take; past it a fail-open quota decision is made locally (150) */
  redisCommandTimeoutMs: number;
  logLevel: string;
  /** an external identity provider; without one, sessions come from the local secret in the state folder */
  identityProvider?: IdentityProviderConfig;
  /** IDS_SESSION_SECRET: signs session tokens; instances sharing a database share it (else a file in the state folder) */
  sessionSecret?: string;
  /** IDS_SIGN_IN_PER_CLIENT_PER_HOUR: sign-in codes one client address may ask for in an hour (30); it may try twice as many codes */
  signInPerClientPerHour: number;
  /** the public address of this service, used in OAuth metadata (defaults to the address the server listens on, localAddress) */
  publicUrl: string;
  /** IDS_SHUTDOWN_GRACE_MS: how long a shutdown waits for requests and webhook attempts in flight (10 000) */
  shutdownGraceMs: number;
  stripe: {
    publishableKeyTest?: string;
    publishableKeyLive?: string;
    /** STRIPE_SECRET_KEY: without it the routes that need the processor answer 503 payment_processor_unavailable */
    secretKey?: string;
    /** STRIPE_WEBHOOK_SECRET: verifies POST /v1/billing/webhooks/processor */
    webhookSecret?: string;
    /** STRIPE_API_BASE: the address of a Stripe-speaking server (local development and tests) */
    apiBase?: string;
    /** STRIPE_PRICE_PERSONAL, STRIPE_PRICE_TEAM: the subscription prices checkout sells */
    prices: { personal?: string; team?: string };
  };
  billing: {
    /** IDS_BILLING: `off` serves metered requests without billing gates or debits (to measure what they cost) */
    enforced: boolean;
    /** IDS_BILLING_SETTLE_MS: how often an instance settles the credit it has admitted into the ledger */
    settleMs: number;
  };
  /** browser origins allowed to read answers cross-origin (IDS_CORS_ORIGINS); `*` for any; none by default */
  corsOrigins: string[];
  /** the most a single GraphQL operation may cost (IDS_GRAPHQL_MAX_COST; see graphql/cost.ts) */
  graphqlMaxCost: number;
  /** how long a request may reuse a key's principal and its organization's quotas (changes made through the service apply at once) */
  requestCacheTtlMs: number;
  email: {
    /** IDS_SMTP_URL (smtp://user:pass@host:port, or smtps://): where monitor digests are sent; without it email delivery answers 503 email_delivery_unavailable */
    smtpUrl?: string;
    /** IDS_EMAIL_FROM: the From of monitor digests */
    from: string;
  };
  webhooks: {
    /** IDS_WEBHOOK_ALLOWED_HOSTS: hosts exempt from the address guard, and allowed plain http (local receivers) */
    allowedHosts: string[];
    /** IDS_WEBHOOK_WORKER: deliver webhooks from this instance (on by default) */
    worker: boolean;
    /** IDS_WEBHOOK_POLL_MS: how often the worker looks for due attempts when no event wakes it */
    pollMs: number;
    /** IDS_WEBHOOK_TIMEOUT_MS: how long a receiver has to answer 2xx (15 s) */
    timeoutMs: number;
    /** IDS_WEBHOOK_RETRY_SCALE: multiplies the retry schedule; tests only */
    retryScale: number;
    /** IDS_WEBHOOK_SECRET_KEY: base64 of 32 bytes sealing signing secrets; else `<state dir>/webhook-key` */
    secretKey?: string;
  };
  /** IDS_REQUEST_RECORDS: record every request for diagnostics (on; `off` to measure what it costs) */
  recordRequests: boolean;
  tracing: {
    /** IDS_TRACING: trace every request (on; `off` to measure what tracing costs) */
    enabled: boolean;
    /** OTEL_EXPORTER_OTLP_ENDPOINT: an OTLP/HTTP collector that also receives every span (its /v1/traces) */
    otlpEndpoint?: string;
  };
  /**
   * IDS_ANALYTICS_THREADS: worker threads that run the numerical part of portfolio analytics off the
   * event loop (resolvers/analytics/pool.ts); one fewer than the cores by default, at least 1. `0`
   * runs it on the event loop, as before the pool.
   */
  analyticsThreads: number;
  /** create the demo organization on a fresh database */
  createDemoOrg: boolean;
  sec: {
    /** IDS_SEC_USER_AGENT: who fetches from the SEC, with a contact email (its fair-access rules) */
    userAgent?: string;
    /** IDS_SEC_BASE_URL: a server that plays both www.sec.gov and data.sec.gov (a mirror; tests); unset for the SEC */
    baseUrl?: string;
    /** IDS_SEC_SYNC=on: this instance keeps the database current with EDGAR's daily indexes */
    sync: boolean;
    /** IDS_SEC_SYNC_INTERVAL_MINUTES: how often the sync runs (60) */
    syncIntervalMs: number;
  };
  mcp: {
    /** a tool that has not answered by then is 504 mcp_tool_timeout */
    toolTimeoutMs: number;
    /** failures in a row that open a tool's circuit, and how long it stays open */
    circuitFailures: number;
    circuitCooldownMs: number;
    /** browser origins allowed to call /mcp besides this service's own and localhost */
    allowedOrigins: string[];
  };
}

/** the most one GraphQL operation may cost unless IDS_GRAPHQL_MAX_COST says otherwise */
export const defaultGraphqlMaxCost = 10_000;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not ${JSON.stringify(env.PORT)}`);
  const stateDir = path.resolve(env.IDS_STATE_DIR ?? '.data');
  const issuer = env.IDS_AUTH_ISSUER;
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    stateDir,
    database: env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dataDir: path.join(stateDir, 'pglite') },
    redisUrl: env.REDIS_URL || undefined,
    redisCommandTimeoutMs: nonNegativeInteger(env, 'IDS_REDIS_COMMAND_TIMEOUT_MS', 150) || 150,
    logLevel: env.LOG_LEVEL ?? 'info',
    identityProvider: issuer
      ? {
          issuer,
          jwksUrl: env.IDS_AUTH_JWKS_URL || undefined,
          secret: env.IDS_AUTH_SECRET || undefined,
          audience: env.IDS_AUTH_AUDIENCE || undefined,
          metadataUrl: env.IDS_AUTH_METADATA_URL || undefined,
          clientId: env.IDS_AUTH_CLIENT_ID || undefined,
          clientSecret: env.IDS_AUTH_CLIENT_SECRET || undefined,
          displayName: env.IDS_AUTH_PROVIDER_NAME || undefined,
        }
      : undefined,
    sessionSecret: env.IDS_SESSION_SECRET || undefined,
    signInPerClientPerHour: nonNegativeInteger(env, 'IDS_SIGN_IN_PER_CLIENT_PER_HOUR', 30) || 30,
    publicUrl: (env.IDS_PUBLIC_URL ?? localAddress(env.HOST ?? '127.0.0.1', port)).replace(/\/$/, ''),
    shutdownGraceMs: nonNegativeInteger(env, 'IDS_SHUTDOWN_GRACE_MS', 10_000),
    stripe: {
      publishableKeyTest: env.STRIPE_PUBLISHABLE_KEY_TEST || undefined,
      publishableKeyLive: env.STRIPE_PUBLISHABLE_KEY_LIVE || undefined,
      secretKey: env.STRIPE_SECRET_KEY || undefined,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
      apiBase: env.STRIPE_API_BASE || undefined,
      prices: { personal: env.STRIPE_PRICE_PERSONAL || undefined, team: env.STRIPE_PRICE_TEAM || undefined },
    },
    billing: {
      enforced: env.IDS_BILLING !== 'off',
      settleMs: nonNegativeInteger(env, 'IDS_BILLING_SETTLE_MS', 1000) || 1000,
    },
    corsOrigins: (env.IDS_CORS_ORIGINS ?? '').split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean),
    graphqlMaxCost: nonNegativeInteger(env, 'IDS_GRAPHQL_MAX_COST', defaultGraphqlMaxCost),
    requestCacheTtlMs: nonNegativeInteger(env, 'IDS_REQUEST_CACHE_TTL_MS', 10_000),
    email: { smtpUrl: env.IDS_SMTP_URL || undefined, from: env.IDS_EMAIL_FROM || 'IDS monitors <monitors@localhost>' },
    webhooks: {
      allowedHosts: (env.IDS_WEBHOOK_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
      worker: env.IDS_WEBHOOK_WORKER !== 'off',
      pollMs: nonNegativeInteger(env, 'IDS_WEBHOOK_POLL_MS', 1000) || 1000,
      timeoutMs: nonNegativeInteger(env, 'IDS_WEBHOOK_TIMEOUT_MS', 15_000) || 15_000,
      retryScale: env.IDS_WEBHOOK_RETRY_SCALE ? Number(env.IDS_WEBHOOK_RETRY_SCALE) : 1,
      secretKey: env.IDS_WEBHOOK_SECRET_KEY || undefined,
    },
    recordRequests: env.IDS_REQUEST_RECORDS !== 'off',
    tracing: { enabled: env.IDS_TRACING !== 'off', otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim().replace(/\/$/, '') || undefined },
    // one core stays with the event loop (requests, the embedded database)
    analyticsThreads: nonNegativeInteger(env, 'IDS_ANALYTICS_THREADS', Math.max(1, availableParallelism() - 1)),
    createDemoOrg: env.IDS_DEMO_ORG !== 'off',
    sec: secConfig(env),
    mcp: {
      toolTimeoutMs: Number(env.IDS_MCP_TOOL_TIMEOUT_MS ?? 15_000),
      circuitFailures: Number(env.IDS_MCP_CIRCUIT_FAILURES ?? 5),
      circuitCooldownMs: Number(env.IDS_MCP_CIRCUIT_COOLDOWN_MS ?? 30_000),
      allowedOrigins: (env.IDS_MCP_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    },
  };
}

/**
 * An address of this service that answers on this machine when it listens on `host`: a wildcard
 * bind (0.0.0.0, ::) answers on loopback, any other host on itself. Never `localhost`, which may
 * resolve to ::1 while the server listens on 127.0.0.1 only.
 */
export function localAddress(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let address = bare;
  if (bare === '0.0.0.0' || bare === '') address = '127.0.0.1';
  else if (bare === '::') address = '[::1]';
  else if (bare.includes(':')) address = `[${bare}]`;
  return `http://${address}:${port}`;
}

function secConfig(env: NodeJS.ProcessEnv): Config['sec'] {
  const sync = env.IDS_SEC_SYNC === 'on';
  const userAgent = env.IDS_SEC_USER_AGENT?.trim() || undefined;
  if (sync && !userAgent) throw new Error('IDS_SEC_SYNC=on needs IDS_SEC_USER_AGENT: the SEC asks every client to name itself with a contact email, e.g. "Example Co admin@example.com"');
  const baseUrl = env.IDS_SEC_BASE_URL?.trim() || undefined;
  if (baseUrl && !/^https?:\/\//.test(baseUrl)) throw new Error(`IDS_SEC_BASE_URL must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  return { userAgent, baseUrl, sync, syncIntervalMs: (nonNegativeInteger(env, 'IDS_SEC_SYNC_INTERVAL_MINUTES', 60) || 60) * 60_000 };
}

function nonNegativeInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${JSON.stringify(raw)}`);
  return value;
}
