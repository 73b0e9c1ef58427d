// Reading a stream subscription's events from the canonical log: pages for polling and replay,
// and a live feed for graphql-ws. Both walk the log in its commit-safe (txid, seq) order
// (subscriptions/eventLog.ts), so a position names the same events for every reader and every
// replay, and the live feed can neither skip an event nor deliver one twice.
import type { PrismaClient } from '../prisma/db.ts';
import type { StreamSubscription } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { EventBus } from './bus.ts';
import { eventRetentionDays, logStart, maxLogValue, readEvents, type LogPosition, type LoggedEvent } from './eventLog.ts';
import { isPublicEventType } from './eventTypes.ts';

/** What a read needs of a subscription. */
export type StreamSpec = Pick<StreamSubscription, 'id' | 'orgId' | 'eventTypes' | 'tickers' | 'ciks' | 'forms' | 'startTxid' | 'startSeq' | 'createdAt'>;

/** Where a reader of one subscription has got to: after `position`, whose event was written at `at`. */
export interface StreamCursor {
  subscriptionId: string;
  position: LogPosition;
  /** the time of the last event read, the subscription's creation, or the read that reached the end of the log */
  at: Date;
}

const retentionMs = eventRetentionDays * 86_400_000;

function cursorError(message: string): ApiError {
  return new ApiError('invalid_query_parameter', `Query parameter \`cursor\`: ${message}`, { details: { parameter: 'cursor' } });
}

/** Opaque to clients: base64url of a small JSON record. */
export function encodeCursor(cursor: StreamCursor): string {
  const record = { v: 1, s: cursor.subscriptionId, t: cursor.position.txid.toString(), q: cursor.position.seq.toString(), a: cursor.at.getTime() };
  return Buffer.from(JSON.stringify(record)).toString('base64url');
}

/**
 * The cursor a client sent, checked: issued for this subscription, well formed, and not older
 * than the retention period (events after it may have been deleted, so reading on could skip some).
 */
export function decodeCursor(subscriptionId: string, value: string, now = new Date()): StreamCursor {
  let record: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(value)) throw new Error('not base64url');
    record = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw cursorError('not a cursor this service issued; pass the nextCursor of a previous page.');
  }
  const r = record as { v?: unknown; s?: unknown; t?: unknown; q?: unknown; a?: unknown };
  const digits = (x: unknown) => typeof x === 'string' && /^\d{1,19}$/.test(x) && BigInt(x) <= maxLogValue;
  if (!r || typeof r !== 'object' || r.v !== 1 || typeof r.s !== 'string' || !digits(r.t) || !digits(r.q) || typeof r.a !== 'number' || !Number.isSafeInteger(r.a) || r.a < 0) {
    throw cursorError('not a cursor this service issued; pass the nextCursor of a previous page.');
  }
  if (r.s !== subscriptionId) throw cursorError(`this cursor belongs to another stream subscription; a cursor is read only with the subscription that issued it.`);
  const at = new Date(r.a);
  if (at.getTime() < now.getTime() - retentionMs) {
    throw cursorError(`the cursor is older than the ${eventRetentionDays}-day event retention, so events after it may be gone; start again without a cursor (or with from=earliest).`);
  }
  return { subscriptionId, position: { txid: BigInt(r.t as string), seq: BigInt(r.q as string) }, at };
}

/** Where a read without a cursor starts: the subscription's creation, or the start of the log (`from=earliest`). */
export function startCursor(spec: StreamSpec, from: 'created' | 'earliest' = 'created'): StreamCursor {
  if (from === 'earliest') return { subscriptionId: spec.id, position: logStart, at: spec.createdAt };
  return { subscriptionId: spec.id, position: { txid: spec.startTxid, seq: spec.startSeq }, at: spec.createdAt };
}

/** The log filter of a subscription: its organization's events of its types, public types only when named. */
export function logFilter(spec: StreamSpec) {
  const publicTypes = spec.eventTypes.filter((type) => isPublicEventType(type));
  const own = spec.eventTypes.filter((type) => type === '*' || !isPublicEventType(type));
  return { orgId: spec.orgId, types: own.includes('*') ? ['*'] : own, publicTypes };
}

/** Whether an event read from the log passes the subscription's filters (they apply to public data events only). */
export function passesFilters(spec: Pick<StreamSpec, 'tickers' | 'ciks' | 'forms'>, event: Pick<LoggedEvent, 'orgId' | 'payload'>): boolean {
  if (event.orgId !== null) return true;
  const data = (event.payload ?? {}) as { cik?: unknown; form?: unknown; tickers?: unknown };
  if (spec.ciks.length && !(typeof data.cik === 'string' && spec.ciks.includes(data.cik))) return false;
  if (spec.forms.length && !(typeof data.form === 'string' && spec.forms.includes(data.form.toUpperCase()))) return false;
  if (spec.tickers.length) {
    const tickers = Array.isArray(data.tickers) ? data.tickers.filter((t): t is string => typeof t === 'string').map((t) => t.toUpperCase()) : [];
    if (!spec.tickers.some((t) => tickers.includes(t))) return false;
  }
  return true;
}

/**
 * Whether the subscription reads this event: written after the subscription's creation, of its
 * types, and passing its filters (what a read without a cursor returns, in order).
 */
export function readsEvent(spec: StreamSpec, event: Pick<LoggedEvent, 'orgId' | 'type' | 'payload' | 'position'>): boolean {
  const { txid, seq } = event.position;
  if (txid < spec.startTxid || (txid === spec.startTxid && seq <= spec.startSeq)) return false;
  const filter = logFilter(spec);
  const typed = event.orgId === spec.orgId ? filter.types.includes('*') || filter.types.includes(event.type) : event.orgId === null && filter.publicTypes.includes(event.type);
  return typed && passesFilters(spec, event);
}

export interface StreamPage {
  events: LoggedEvent[];
  /** more events may be read now */
  hasMore: boolean;
  /** where the next read continues */
  next: StreamCursor;
}

/** The most log rows one read examines (events filtered out count too): bounds the work of a request. */
export const scanBudget = 2000;
const chunk = 500;

/**
 * Up to `limit` events after `from`, oldest first. A page is fixed by its start and `limit` (the
 * first `limit` events that pass within the next `scanBudget` rows), so replaying a cursor gives
 * the same events; a page cut short by the budget says `hasMore` and continues where it stopped.
 */
export async function readStreamPage(prisma: PrismaClient, spec: StreamSpec, from: StreamCursor, limit: number, now = new Date()): Promise<StreamPage> {
  const filter = logFilter(spec);
  const events: LoggedEvent[] = [];
  let position = from.position;
  let at = from.at;
  let scanned = 0;
  for (;;) {
    const want = Math.min(chunk, scanBudget - scanned);
    const rows = await readEvents(prisma, filter, position, want);
    for (const row of rows) {
      if (passesFilters(spec, row)) {
        if (events.length === limit) return { events, hasMore: true, next: { subscriptionId: spec.id, position, at } };
        events.push(row);
      }
      position = row.position;
      at = new Date(row.createdAt);
    }
    scanned += rows.length;
    // the end of what is visible now: a later read resumes here, and nothing before now was skipped
    if (rows.length < want) return { events, hasMore: false, next: { subscriptionId: spec.id, position, at: now } };
    if (scanned >= scanBudget) return { events, hasMore: true, next: { subscriptionId: spec.id, position, at } };
  }
}

/** The cursor that resumes right after one event. */
export function cursorAfter(spec: Pick<StreamSpec, 'id'>, event: LoggedEvent): string {
  return encodeCursor({ subscriptionId: spec.id, position: event.position, at: new Date(event.createdAt) });
}

export interface LiveOptions {
  prisma: PrismaClient;
  bus: EventBus;
  logger: Logger;
  subscriptionId: string;
  from: StreamCursor;
  /** a read even without a wake-up from the bus (a bus message can be lost); ms */
  heartbeatMs?: number;
}

/**
 * The events of a subscription from `from` on, live: catches up by reading the log, then reads it
 * again whenever the bus announces an event the subscription wants. An announced event that the
 * read does not return yet (an older transaction is still open, so it is not visible in commit
 * order) is looked for again shortly. Ends when the subscription is disabled or deleted. A failed
 * read is retried, from the same position. Closing the iterator (return()) stops it at once.
 */
export function liveStream(options: LiveOptions): AsyncIterableIterator<LoggedEvent & { cursor: string }> {
  const { prisma, bus, logger, subscriptionId, heartbeatMs = 15_000 } = options;
  const abort = new AbortController();
  let woken = false;
  let wake: (() => void) | undefined;
  const announced = new Map<string, number>(); // event id -> when heard, until a read returns it
  const delivered = new Set<string>(); // the latest ids delivered: an announcement can arrive after its event was read
  let watched: StreamSpec | undefined;

  const rouse = () => {
    woken = true;
    wake?.();
  };
  abort.signal.addEventListener('abort', rouse);

  void (async () => {
    for await (const event of bus.subscribe(abort.signal)) {
      if (!watched) {
        rouse(); // before the first read knows what it wants: read again to be sure
        continue;
      }
      const filter = logFilter(watched);
      const ours = event.orgId === watched.orgId;
      const typed = ours ? filter.types.includes('*') || filter.types.includes(event.type) : event.orgId === null && filter.publicTypes.includes(event.type);
      const wanted = typed && passesFilters(watched, event);
      if (wanted && !delivered.has(event.id)) announced.set(event.id, Date.now());
      // a change of the subscription itself (disabled, deleted, other types) is read at once
      if (wanted || (ours && event.type.startsWith('stream_subscription.'))) rouse();
    }
  })().catch(() => {});

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || abort.signal.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = undefined;
      woken = false;
    });

  async function* run(): AsyncGenerator<LoggedEvent & { cursor: string }> {
    let cursor = options.from;
    let retry = 25;
    let failures = 0;
    while (!abort.signal.aborted) {
      woken = false;
      let page: StreamPage;
      let spec: StreamSubscription | null;
      try {
        spec = await prisma.streamSubscription.findFirst({ where: { id: subscriptionId, deletedAt: null } });
        if (!spec || spec.status !== 'enabled') return;
        watched = spec;
        page = await readStreamPage(prisma, spec, cursor, 100);
        failures = 0;
      } catch (error) {
        if (abort.signal.aborted) return;
        failures++;
        logger.warn({ err: (error as Error).message, subscriptionId, failures }, 'stream read failed; retrying');
        await pause(Math.min(250 * 2 ** failures, 10_000));
        continue;
      }
      for (const event of page.events) {
        if (abort.signal.aborted) return;
        announced.delete(event.id);
        delivered.add(event.id);
        if (delivered.size > 1000) delivered.delete(delivered.values().next().value!);
        yield { ...event, cursor: cursorAfter(spec, event) };
      }
      cursor = page.next;
      if (page.hasMore) continue;
      // An announced event the read has not returned is not visible yet: look again soon, for a while.
      const now = Date.now();
      for (const [id, heard] of announced) if (now - heard > 30_000) announced.delete(id);
      if (announced.size) {
        await pause(retry);
        retry = Math.min(retry * 2, 1000);
      } else {
        retry = 25;
        await pause(heartbeatMs);
      }
    }
  }

  const inner = run();
  return {
    next: () => inner.next(),
    async return(value?: unknown) {
      abort.abort();
      return inner.return(value as never);
    },
    async throw(error?: unknown) {
      abort.abort();
      return inner.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
