// Reads of ingested data that every data request repeats before its own work (which CIKs a ticker
// names, a company's concept summaries and coverage, a concept's label, a filing's primary
// document) are kept briefly, so that a warm data read sends only the statement for its answer.
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
  /** memo for many keys at once: the ones not kept are loaded together, by one call of `loadMissing` */
  memoEach<T>(keys: readonly string[], loadMissing: (missing: string[]) => Promise<Map<string, T>>, absent: T): Promise<Map<string, T>>;
  /**
   * A whole answer of a data read (the same for every caller), kept like memo's values but
   * bounded by size: answers run to tens of kilobytes (a statement bundle is about 60 KB).
   */
  answer<T extends object>(key: string, load: () => Promise<T>): Promise<T>;
  clear(): void;
}

/** What all kept answers may weigh together, in characters of their JSON. */
const maxAnswerChars = 64 * 1024 * 1024;

/** What a read of ingested data needs: the database and the cache in front of it (services and contexts are readers). */
export interface DataReader {
  prisma: PrismaClient;
  cache: { data: DataCache };
}

export function createDataCache(ttlMs: number): DataCache {
  // Promises are kept, so that concurrent requests for one company share one load.
  const entries = new LRUCache<string, { value: Promise<unknown> }>({ max: maxEntries, ttl: Math.max(ttlMs, 1), ttlAutopurge: false });
  const answers = new LRUCache<string, { value: object; chars: number }>({ maxSize: maxAnswerChars, sizeCalculation: (entry) => entry.chars, ttl: Math.max(ttlMs, 1), ttlAutopurge: false });
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
  return {
    memo<T>(key: string, load: () => Promise<T>): Promise<T> {
      const held = ttlMs > 0 ? entries.get(key) : undefined;
      return held ? (held.value as Promise<T>) : keep(key, load());
    },
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
    clear: () => {
      entries.clear();
      answers.clear();
    },
  };
}
