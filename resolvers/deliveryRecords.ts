// Canonical records of the Delivery family (SPEC 6.6), listed oldest first for listing and export:
// the organization's events, its webhook delivery attempts (deleted endpoints' included) and its
// stream records. Nothing is recorded when a stream is read, so a stream record is an event as a
// subscription reads it: one record per (event, subscription), computed from the log.
import type { Prisma, StreamSubscription } from '../prisma/generated/client/client.ts';
import { z } from 'zod';
import { ApiError } from '../core/errors.ts';
import { pageCursor } from '../core/cursor.ts';
import { readEvents, type LogPosition, type LoggedEvent } from '../subscriptions/eventLog.ts';
import { logFilter, readsEvent, scanBudget } from '../subscriptions/streams.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';

export interface Window {
  from?: Date | null;
  to?: Date | null;
}

export interface RecordsPage<T> {
  /** each with the cursor that continues right after it */
  records: { record: T; cursor: string }[];
  hasMore: boolean;
  /** where the next page starts; null on the last page */
  endCursor: string | null;
}

const page = <T>(records: RecordsPage<T>['records'], hasMore: boolean, endCursor = records.at(-1)?.cursor ?? null): RecordsPage<T> => ({ records, hasMore, endCursor: hasMore ? endCursor : null });

/** [from, to) as the log reader takes it; an empty or inverted window is the client's mistake. */
function checkedWindow({ from, to }: Window) {
  if (from && to && from >= to) throw new ApiError('invalid_request_parameter', 'Parameter `from` must be before `to`.', { details: { parameter: 'from' } });
  return { createdFrom: from ?? undefined, createdBefore: to ?? undefined };
}

const pageSize = (first: number | null | undefined) => Math.max(1, Math.min(first ?? 25, 100));

/** A place in the log (and, for stream records, the last subscription served there), opaque to clients. */
interface RecordCursor {
  position: LogPosition;
  subscriptionId?: string;
}

const logDigits = z.string().regex(/^\d{1,19}$/).transform(BigInt);
const recordPlace = z.object({ t: logDigits, q: logDigits, s: z.string().optional() }).transform(({ t, q, s }): RecordCursor => ({ position: { txid: t, seq: q }, subscriptionId: s }));
const cursors = { events: pageCursor('events', recordPlace), stream_records: pageCursor('stream_records', recordPlace) };
type RecordList = keyof typeof cursors;

function encodeCursor(list: RecordList, { position, subscriptionId }: RecordCursor): string {
  return cursors[list].encode({ t: position.txid.toString(), q: position.seq.toString(), ...(subscriptionId ? { s: subscriptionId } : {}) });
}

const decodeCursor = (list: RecordList, value: string) => cursors[list].decode(value);

/** The organization's own events (not public data events), in log order. */
export async function listOrgEvents(ctx: Context, args: Window & { type?: string | null; after?: string | null; first?: number | null }): Promise<RecordsPage<LoggedEvent>> {
  const orgId = requireOrg(ctx);
  const limit = pageSize(args.first);
  const after = args.after ? decodeCursor('events', args.after).position : { txid: 0n, seq: 0n };
  const rows = await readEvents(ctx.prisma, { orgId, types: args.type ? [args.type] : ['*'], publicTypes: [], ...checkedWindow(args) }, after, limit + 1);
  return page(rows.slice(0, limit).map((event) => ({ record: event, cursor: encodeCursor('events', { position: event.position }) })), rows.length > limit);
}

/** The organization's delivery attempts, deleted endpoints' included; another organization's endpoint is not found. */
export async function deliveriesWhere(ctx: Context, args: Window & { endpointId?: string | null; status?: string | null }): Promise<Prisma.WebhookDeliveryWhereInput> {
  const orgId = requireOrg(ctx);
  const { createdFrom, createdBefore } = checkedWindow(args);
  if (args.endpointId && !(await ctx.prisma.webhookEndpoint.findFirst({ where: { id: args.endpointId, orgId }, select: { id: true } }))) {
    throw new ApiError('webhook_endpoint_not_found', `No webhook endpoint ${args.endpointId} in this organization.`);
  }
  return {
    orgId,
    ...(args.endpointId ? { endpointId: args.endpointId } : {}),
    ...(args.status ? { status: args.status } : {}),
    ...(createdFrom || createdBefore ? { createdAt: { ...(createdFrom ? { gte: createdFrom } : {}), ...(createdBefore ? { lt: createdBefore } : {}) } } : {}),
  };
}

export interface StreamRecord {
  subscriptionId: string;
  event: LoggedEvent;
}

/** The subscriptions whose records are read, by id (the order of records of one event); deleted ones keep their records. */
async function recordedSubscriptions(ctx: Context, subscriptionId: string | null | undefined): Promise<StreamSubscription[]> {
  const orgId = requireOrg(ctx);
  const subscriptions = await ctx.prisma.streamSubscription.findMany({ where: { orgId, ...(subscriptionId ? { id: subscriptionId } : {}) }, orderBy: { id: 'asc' } });
  if (subscriptionId && !subscriptions.length) throw new ApiError('stream_subscription_not_found', `No stream subscription ${subscriptionId} in this organization.`);
  return subscriptions;
}

/** Where the oldest of them started: nothing before it is read by any. */
function earliestStart(subscriptions: StreamSubscription[]): LogPosition {
  const starts = subscriptions.map((s) => ({ txid: s.startTxid, seq: s.startSeq }));
  return starts.reduce((a, b) => (b.txid < a.txid || (b.txid === a.txid && b.seq < a.seq) ? b : a));
}

const readsUntilDeleted = (subscription: StreamSubscription, event: LoggedEvent) =>
  readsEvent(subscription, event) && (!subscription.deletedAt || new Date(event.createdAt) <= subscription.deletedAt);

/**
 * Stream records in log order, and for one event by subscription id. A page examines at most
 * `scanBudget` events of the log (like a stream read); one cut short says `hasMore`.
 */
export async function listStreamRecords(ctx: Context, args: Window & { subscriptionId?: string | null; after?: string | null; first?: number | null }): Promise<RecordsPage<StreamRecord>> {
  const subscriptions = await recordedSubscriptions(ctx, args.subscriptionId);
  const window = checkedWindow(args);
  if (!subscriptions.length) return page([], false);
  const limit = pageSize(args.first);
  // one read of the log for all of them: the union of what each reads
  const filters = subscriptions.map(logFilter);
  const types = filters.some((f) => f.types.includes('*')) ? ['*'] : [...new Set(filters.flatMap((f) => f.types))];
  const filter = { orgId: subscriptions[0]!.orgId, types, publicTypes: [...new Set(filters.flatMap((f) => f.publicTypes))], ...window };
  const cursor = args.after ? decodeCursor('stream_records', args.after) : undefined;
  // a cursor in the middle of an event's records reads that event again, past the subscriptions it has served
  let position = cursor ? (cursor.subscriptionId ? { txid: cursor.position.txid, seq: cursor.position.seq - 1n } : cursor.position) : earliestStart(subscriptions);
  const records: RecordsPage<StreamRecord>['records'] = [];
  for (let scanned = 0; ; ) {
    const want = Math.min(500, scanBudget - scanned);
    const rows = await readEvents(ctx.prisma, filter, position, want);
    for (const event of rows) {
      const resumed = cursor?.subscriptionId && event.position.txid === cursor.position.txid && event.position.seq === cursor.position.seq;
      for (const subscription of subscriptions) {
        if (resumed && subscription.id <= cursor.subscriptionId!) continue;
        if (!readsUntilDeleted(subscription, event)) continue;
        if (records.length === limit) return page(records, true);
        records.push({ record: { subscriptionId: subscription.id, event }, cursor: encodeCursor('stream_records', { position: event.position, subscriptionId: subscription.id }) });
      }
      position = event.position;
    }
    scanned += rows.length;
    if (rows.length < want) return page(records, false);
    // cut short: continue after the last event examined, whose records are all in this page
    if (scanned >= scanBudget) return page(records, true, encodeCursor('stream_records', { position }));
  }
}
