// What every request needs before its own work (who is calling, what the plan allows) is read
// once and kept briefly, so that a metered request with a warm cache sends no SQL of its own.
//
// Entries live `ttlMs` at most (IDS_REQUEST_CACHE_TTL_MS; 0 turns the cache off). Anything that changes them also records an event about the
// organization (a key revoked, a plan changed), and every instance hears that event on the bus
// (Redis pub/sub across instances), dropping what it holds for that organization at once. The TTL
// bounds staleness only where no event reaches this process (for example a change written by
// another process without Redis).
import { LRUCache } from 'lru-cache';
import type { ApiKey } from '../prisma/generated/client/client.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import type { Principal } from './principal.ts';
import { createDataCache, dataChangedType, type DataCache } from '../derived/dataCache.ts';
import { effectiveQuotas, type OrgQuotas } from './orgs.ts';
import type { PrismaClient } from '../prisma/db.ts';

const maxEntries = 10_000;

/** a live key's row (its lastUsedAt kept current by this instance) */
export type CachedKey = ApiKey;

export interface RequestCache {
  /** API keys by the SHA-256 digest of their secret; only keys that exist and are not revoked */
  keys: LRUCache<string, CachedKey>;
  /** session principals by the SHA-256 digest of their token */
  sessions: LRUCache<string, Extract<Principal, { kind: 'session' }>>;
  /** per organization, its plan and effective quota windows */
  orgs: LRUCache<string, OrgQuotas>;
  /** reads of ingested data (derived/dataCache.ts), dropped whenever an ingest commits */
  data: DataCache;
  /** drops everything held for one organization */
  forgetOrg(orgId: string): void;
  close(): void;
}

export function createRequestCache(bus: EventBus, ttlMs: number): RequestCache {
  // lru-cache reads ttl 0 as "never expires"; here 0 means "keep nothing": nothing is stored at
  // all (a 1 ms life would keep an entry for whatever happens to read it within the millisecond,
  // so that what a request reads would depend on timing)
  const options = { max: maxEntries, ttl: Math.max(ttlMs, 1), ttlAutopurge: false } as const;
  const keeping = <T extends LRUCache<string, any>>(cache: T): T => {
    if (ttlMs === 0) cache.set = () => cache;
    return cache;
  };
  const keys = keeping(new LRUCache<string, CachedKey>(options));
  const sessions = keeping(new LRUCache<string, Extract<Principal, { kind: 'session' }>>(options));
  const orgs = keeping(new LRUCache<string, OrgQuotas>(options));
  const data = createDataCache(ttlMs);

  const forgetOrg = (orgId: string) => {
    orgs.delete(orgId);
    for (const [digest, key] of keys.entries()) if (key.orgId === orgId) keys.delete(digest);
    for (const [digest, session] of sessions.entries()) if (session.orgId === orgId) sessions.delete(digest);
  };

  // Any event about an organization (its keys, its plan, its billing) refreshes what is held of it.
  const stop = new AbortController();
  void (async () => {
    for await (const event of bus.subscribe(stop.signal)) {
      if (event.orgId) forgetOrg(event.orgId);
      if (event.type === dataChangedType) data.clear();
    }
  })();

  return {
    keys,
    sessions,
    orgs,
    data,
    forgetOrg,
    close() {
      stop.abort();
      keys.clear();
      sessions.clear();
      orgs.clear();
      data.clear();
    },
  };
}

/** effectiveQuotas of every meter class, from the request cache when it holds them (metering). */
export async function cachedQuotas(services: { prisma: PrismaClient; cache: RequestCache }, orgId: string): Promise<OrgQuotas | null> {
  const cached = services.cache.orgs.get(orgId);
  if (cached) return cached;
  const found = await effectiveQuotas(services.prisma, orgId);
  if (found) services.cache.orgs.set(orgId, found);
  return found;
}
