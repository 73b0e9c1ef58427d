// Stream subscriptions of an organization (SPEC 3, 4.8, 6.3): create, change, disable, delete,
// read their events by cursor (replay is safe), and tickets with which a browser opens one stream
// over graphql-ws without holding an API key. Reading the log is subscriptions/streams.ts.
import type { Prisma, StreamSubscription } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId, randomBase62, sha256Hex } from '../core/ids.ts';
import { currentPosition } from '../subscriptions/eventLog.ts';
import { isEventType, isPublicEventType } from '../subscriptions/eventTypes.ts';
import { publishAll, recordEvent } from '../subscriptions/events.ts';
import { cursorAfter, decodeCursor, encodeCursor, liveStream, readStreamPage, startCursor, type StreamCursor } from '../subscriptions/streams.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';
import { cikOf, tickerOf } from './entities.ts';

/** How long a stream ticket can be used, from its creation. */
export const ticketTtlMs = 60_000;

export type Transport = 'poll' | 'graphql_ws';

export interface StreamInput {
  description?: string;
  eventTypes?: string[];
  tickers?: string[];
  ciks?: string[];
  forms?: string[];
  transport?: Transport;
  status?: 'enabled' | 'disabled';
}

function notFound(id: string): ApiError {
  return new ApiError('stream_subscription_not_found', `No stream subscription ${id} in this organization.`);
}

/** The subscription of the caller's organization; another organization's, or a deleted one, is not found. */
export async function ownSubscription(ctx: Context, id: string): Promise<StreamSubscription> {
  const subscription = await ctx.prisma.streamSubscription.findFirst({ where: { id, orgId: requireOrg(ctx), deletedAt: null } });
  if (!subscription) throw notFound(id);
  return subscription;
}

function assertEnabled(subscription: StreamSubscription): void {
  if (subscription.status !== 'enabled') {
    throw new ApiError('stream_subscription_disabled', `The stream subscription ${subscription.id} is disabled; enable it (POST /v1/stream_subscriptions/${subscription.id}/enable) to read its events.`);
  }
}

function invalid(path: string, message: string): ApiError {
  return new ApiError('validation_error', `${path}: ${message}`, { details: { issues: [{ path, message }] } });
}

function checkedTypes(eventTypes: string[]): string[] {
  const unknown = eventTypes.filter((type) => type !== '*' && !isEventType(type));
  if (unknown.length) throw invalid('eventTypes', `unknown event type ${unknown.join(', ')}; GET /v1/event_types lists them`);
  if (!eventTypes.length) throw invalid('eventTypes', 'name at least one event type, or "*"');
  // `*` covers the organization's own events; public data events are read only when named
  const own = eventTypes.includes('*') ? ['*'] : [];
  return [...new Set([...own, ...eventTypes.filter((type) => (own.length ? isPublicEventType(type) : true))])];
}

function normalized(values: string[] | undefined, path: string, normalize: (value: string) => string | null): string[] | undefined {
  if (values === undefined) return undefined;
  return [
    ...new Set(
      values.map((value) => {
        const out = normalize(value);
        if (out === null) throw invalid(path, `${JSON.stringify(value)} is not a valid value`);
        return out;
      }),
    ),
  ];
}

const formOf = (value: string) => (/^[A-Za-z0-9][A-Za-z0-9\-/ ]{0,19}$/.test(value.trim()) ? value.trim().toUpperCase() : null);

/** Filters narrow public data events; without one named in eventTypes they would filter nothing, which is surely a mistake. */
function checkFilters(subscription: Pick<StreamSubscription, 'eventTypes' | 'tickers' | 'ciks' | 'forms'>): void {
  const filtered = subscription.tickers.length || subscription.ciks.length || subscription.forms.length;
  if (filtered && !subscription.eventTypes.some((type) => isPublicEventType(type))) {
    throw invalid('filters', 'filters apply to public data events; name one (filing.added) in eventTypes');
  }
}

const summary = (s: StreamSubscription) => ({ streamSubscriptionId: s.id, status: s.status, eventTypes: s.eventTypes });

export async function createSubscription(ctx: Context, input: StreamInput): Promise<StreamSubscription> {
  const orgId = requireOrg(ctx);
  const fields = {
    description: input.description ?? '',
    eventTypes: checkedTypes(input.eventTypes ?? ['*']),
    tickers: normalized(input.tickers, 'filters.tickers', tickerOf) ?? [],
    ciks: normalized(input.ciks, 'filters.ciks', cikOf) ?? [],
    forms: normalized(input.forms, 'filters.forms', formOf) ?? [],
    transport: input.transport ?? 'poll',
  };
  checkFilters(fields);
  // Reads without a cursor start here: every event committed from now on, this one's own `created` included.
  const start = await currentPosition(ctx.prisma);
  const [subscription, event] = await ctx.prisma.$transaction(async (tx) => {
    const row = await tx.streamSubscription.create({ data: { id: newId('ss'), orgId, ...fields, status: 'enabled', startTxid: start.txid, startSeq: start.seq } });
    return [row, await recordEvent(tx, 'stream_subscription.created', orgId, summary(row), ctx.requestId)] as const;
  });
  await publishAll(ctx.bus, [event]);
  return subscription;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Changes what is given; records `stream_subscription.updated` when anything changed. */
export async function updateSubscription(ctx: Context, id: string, input: StreamInput): Promise<StreamSubscription> {
  const current = await ownSubscription(ctx, id);
  const next = {
    description: input.description ?? current.description,
    eventTypes: input.eventTypes !== undefined ? checkedTypes(input.eventTypes) : current.eventTypes,
    tickers: normalized(input.tickers, 'filters.tickers', tickerOf) ?? current.tickers,
    ciks: normalized(input.ciks, 'filters.ciks', cikOf) ?? current.ciks,
    forms: normalized(input.forms, 'filters.forms', formOf) ?? current.forms,
    transport: input.transport ?? current.transport,
    status: input.status ?? current.status,
  };
  checkFilters(next);
  const data: Prisma.StreamSubscriptionUpdateInput = {};
  if (next.description !== current.description) data.description = next.description;
  if (next.transport !== current.transport) data.transport = next.transport;
  if (next.status !== current.status) data.status = next.status;
  for (const key of ['eventTypes', 'tickers', 'ciks', 'forms'] as const) if (!same(next[key], current[key])) data[key] = next[key];
  if (!Object.keys(data).length) return current;
  const [updated, event] = await ctx.prisma.$transaction(async (tx) => {
    const row = await tx.streamSubscription.update({ where: { id }, data });
    return [row, await recordEvent(tx, 'stream_subscription.updated', row.orgId, summary(row), ctx.requestId)] as const;
  });
  await publishAll(ctx.bus, [event]);
  return updated;
}

/** Marks the subscription deleted (its records are kept); from then on it is not found. */
export async function deleteSubscription(ctx: Context, id: string): Promise<StreamSubscription> {
  const current = await ownSubscription(ctx, id);
  const [deleted, event] = await ctx.prisma.$transaction(async (tx) => {
    const row = await tx.streamSubscription.update({ where: { id: current.id }, data: { status: 'deleted', deletedAt: new Date() } });
    await tx.streamTicket.updateMany({ where: { subscriptionId: current.id, usedAt: null }, data: { expiresAt: new Date() } });
    return [row, await recordEvent(tx, 'stream_subscription.deleted', row.orgId, summary(row), ctx.requestId)] as const;
  });
  await publishAll(ctx.bus, [event]);
  return deleted;
}

export interface EventsRead {
  cursor?: string | null;
  limit: number;
  from?: 'created' | 'earliest' | null;
}

/** One page of the subscription's events, oldest first, and the cursor to continue from. */
export async function readSubscriptionEvents(ctx: Context, id: string, read: EventsRead) {
  const subscription = await ownSubscription(ctx, id);
  assertEnabled(subscription);
  if (read.cursor && read.from) {
    throw new ApiError('invalid_query_parameter', 'Parameter `from`: a cursor already says where to continue; send `from` only without a cursor.', { details: { parameter: 'from', acceptedValues: ['created', 'earliest'] } });
  }
  const start = read.cursor ? decodeCursor(subscription.id, read.cursor) : startCursor(subscription, read.from ?? 'created');
  const page = await readStreamPage(ctx.prisma, subscription, start, Math.max(1, Math.min(read.limit, 100)));
  return { events: page.events.map((event) => ({ ...event, cursor: cursorAfter(subscription, event) })), hasMore: page.hasMore, nextCursor: encodeCursor(page.next) };
}

/** A ticket for one graphql-ws stream of this subscription: shown once, valid 60 s, used once. */
export async function createTicket(ctx: Context, id: string) {
  const subscription = await ownSubscription(ctx, id);
  assertEnabled(subscription);
  const ticket = `sst_${randomBase62(43)}`;
  const expiresAt = new Date(Date.now() + ticketTtlMs);
  await ctx.prisma.streamTicket.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 3_600_000) } } });
  await ctx.prisma.streamTicket.create({ data: { hash: sha256Hex(ticket), subscriptionId: subscription.id, orgId: subscription.orgId, expiresAt } });
  return { ticket, expiresAt, subscriptionId: subscription.id };
}

function ticketRejected(): ApiError {
  return new ApiError('authentication_failed', 'The stream ticket was not recognized, has expired, has been used, or is for another subscription; create a new one (POST /v1/stream_subscriptions/{stream_id}/tickets).');
}

/** Uses a ticket up (at most once, whoever races for it) and answers its subscription. */
async function redeemTicket(ctx: Context, ticket: string, subscriptionId: string): Promise<StreamSubscription> {
  if (!/^sst_[0-9A-Za-z]{43}$/.test(ticket)) throw ticketRejected();
  const now = new Date();
  const used = await ctx.prisma.streamTicket.updateMany({ where: { hash: sha256Hex(ticket), subscriptionId, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (used.count !== 1) throw ticketRejected();
  const subscription = await ctx.prisma.streamSubscription.findFirst({ where: { id: subscriptionId, deletedAt: null } });
  if (!subscription) throw ticketRejected();
  return subscription;
}

/**
 * The live events of a subscription over graphql-ws: from the cursor (or the subscription's
 * creation), then as they happen. Authenticated by the connection's key or session, or by a ticket.
 */
export async function openStream(ctx: Context, args: { subscriptionId: string; cursor?: string | null; ticket?: string | null }) {
  const subscription = args.ticket ? await redeemTicket(ctx, args.ticket, args.subscriptionId) : await ownSubscription(ctx, args.subscriptionId);
  assertEnabled(subscription);
  const from: StreamCursor = args.cursor ? decodeCursor(subscription.id, args.cursor) : startCursor(subscription);
  return liveStream({ prisma: ctx.prisma, bus: ctx.bus, logger: ctx.logger, subscriptionId: subscription.id, from });
}
