// Reads of ingested data that every data request repeats before its own work (which CIKs a ticker
// names, a company's concept summaries and coverage, a concept's label, a filing's primary
// document) are kept, so that a warm data read sends only the statement for its answer: briefly,
// or (versioned values, such as a ticker's CIKs) for as long as the data they rest on holds.
//
// Everything is dropped when an ingest commits data (`data.changed` on the event bus, heard by
// every instance through Redis), and entries live IDS_REQUEST_CACHE_TTL_MS at most, which bounds
// what an instance can miss when no notice reaches it.
import { LRUCache } from 'lru-cache';
import { newId } from '../core/ids.ts';
import type { PrismaClient } from '../prisma/db.ts';
import type { BusEvent } from '../subscriptions/bus.ts';

const maxEntries = 20_000;

/** The bus notice an ingest publishes after committing data: never stored, never delivered to customers. */
export const dataChangedType = 'data.changed';

export function dataChangedNotice(): BusEvent {
  return { id: newId('evt'), seq: '0', type: dataChangedType, orgId: null, payload: {}, createdAt: new Date().toISOString() };
}

export interface DataCache {
  /** the value under `key`, loaded once by `load` while it is kept; a failed load is not kept */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** whether a versioned value (or its load) is kept under `key` at `version`: a read that can leave out what is kept asks first */
  holdsVersioned(key: string, version: string): boolean;
  /** memo for many keys at once: the ones not kept are loaded together, by one call of `loadMissing` */
  memoEach<T>(keys: readonly string[], loadMissing: (missing: string[]) => Promise<Map<string, T>>, absent: T): Promise<Map<string, T>>;
  /**
   * A whole answer of a data read (the same for every caller), kept like memo's values but
   * bounded by size: answers run to tens of kilobytes (a statement bundle is about 60 KB).
   */
  answer<T extends object>(key: string, load: () => Promise<T>): Promise<T>;
  /**
   * Values derived from ingested data, one per key, each kept under its version: a token the caller
   * reads from the database and that every write of what the value rests on changes. A kept value
   * serves while its version holds, past the TTL (no write can make it stale unseen); the keys whose
   * version is new are loaded together, by one call of `loadMissing`.
   */
  versionedEach<T>(versions: ReadonlyMap<string, string>, loadMissing: (missing: string[]) => Promise<Map<string, T>>, absent: T): Promise<Map<string, T>>;
  /** versionedEach for one value: the value under `key`, loaded again only when `version` is not the one it was kept under */
  versioned<T>(key: string, version: string, load: () => Promise<T>): Promise<T>;
  clear(): void;
}

/** What all kept answers may weigh together, in characters of their JSON. */
const maxAnswerChars = 64 * 1024 * 1024;

/** What a read of ingested data needs: the database and the cache in front of it (services and contexts are readers). */
export interface DataReader {
  prisma: PrismaClient;
  cache: { data: DataCache };
}

/**
 * A version of all ingested data (for versioned values), as every process sees it: the ingest
 * runs' rows, each written when its run starts, at most once a second while it works, and when it
 * finishes, after its last commit. It is read once and kept like memo's values: an ingest's notice
 * drops it with everything else, so this instance reads it again at once; an instance no notice
 * reaches (another process ingesting without Redis) reads it again within the TTL.
 */
export function dataVersion(reader: DataReader): Promise<string> {
  return reader.cache.data.memo('data-version', async () => {
    const [runs] = await reader.prisma.$queryRaw<{ count: number; latest: Date | null }[]>`SELECT count(*)::int AS "count", max("updatedAt") AS "latest" FROM "IngestRun"`;
    return `${runs!.count}@${runs!.latest?.toISOString() ?? ''}`;
  });
}

export function createDataCache(ttlMs: number): DataCache {
  // Promises are kept, so that concurrent requests for one company share one load.
  const entries = new LRUCache<string, { value: Promise<unknown> }>({ max: maxEntries, ttl: Math.max(ttlMs, 1), ttlAutopurge: false });
  const answers = new LRUCache<string, { value: object; chars: number }>({ maxSize: maxAnswerChars, sizeCalculation: (entry) => entry.chars, ttl: Math.max(ttlMs, 1), ttlAutopurge: false });
  const derived = new LRUCache<string, { version: string; value: Promise<unknown> }>({ max: maxEntries });
  /** Keeps a value being loaded; a failed load is forgotten. */
  const keep = <T>(key: string, value: Promise<T>): Promise<T> => {
    if (ttlMs <= 0) return value;
    const entry = { value };
    entries.set(key, entry);
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return value;
  };
  async function versionedEach<T>(versions: ReadonlyMap<string, string>, loadMissing: (missing: string[]) => Promise<Map<string, T>>, absent: T): Promise<Map<string, T>> {
    const values = new Map<string, Promise<T>>();
    const missing: string[] = [];
    for (const [key, version] of versions) {
      const held = ttlMs > 0 ? derived.get(key) : undefined;
      if (held?.version === version) values.set(key, held.value as Promise<T>);
      else missing.push(key);
    }
    const batch = missing.length ? loadMissing(missing) : null;
    for (const key of missing) {
      const entry = { version: versions.get(key)!, value: batch!.then((found) => found.get(key) ?? absent) };
      values.set(key, entry.value);
      if (ttlMs <= 0) continue;
      derived.set(key, entry);
      entry.value.catch(() => {
        if (derived.get(key) === entry) derived.delete(key);
      });
    }
    const keys = [...values.keys()];
    const settled = await Promise.all(keys.map((key) => values.get(key)!));
    return new Map(keys.map((key, i) => [key, settled[i]!]));
  }
  return {
    memo<T>(key: string, load: () => Promise<T>): Promise<T> {
      const held = ttlMs > 0 ? entries.get(key) : undefined;
      return held ? (held.value as Promise<T>) : keep(key, load());
    },
    holdsVersioned: (key, version) => ttlMs > 0 && derived.get(key)?.version === version,
    async memoEach<T>(keys: readonly string[], loadMissing: (missing: string[]) => Promise<Map<string, T>>, absent: T): Promise<Map<string, T>> {
      const unique = [...new Set(keys)];
      const missing = unique.filter((key) => ttlMs <= 0 || !entries.has(key));
      const batch = missing.length ? loadMissing(missing) : null;
      const values = await Promise.all(
        unique.map((key) => (missing.includes(key) ? keep(key, batch!.then((found) => found.get(key) ?? absent)) : (entries.get(key)!.value as Promise<T>))),
      );
      return new Map(unique.map((key, i) => [key, values[i]!]));
    },
    async answer<T extends object>(key: string, load: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0) return load();
      const held = answers.get(key);
      if (held) return held.value as T;
      const value = await load();
      const chars = JSON.stringify(value).length;
      if (chars <= maxAnswerChars / 64) answers.set(key, { value, chars });
      return value;
    },
    versionedEach,
    async versioned<T>(key: string, version: string, load: () => Promise<T>): Promise<T> {
      const kept = await versionedEach(new Map([[key, version]]), async () => new Map([[key, await load()]]), undefined as T);
      return kept.get(key)!;
    },
    clear: () => {
      entries.clear();
      answers.clear();
      derived.clear();
    },
  };
}
