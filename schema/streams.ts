// Stream subscriptions and their events (SPEC 4.8, 6.3): polled by cursor, or live over graphql-ws.
import { meteredAsPlatform } from '../resolvers/metering.ts';
import { readScope, requireOrg } from '../resolvers/access.ts';
import { createSubscription, createTicket, deleteSubscription, openStream, ownSubscription, readSubscriptionEvents, updateSubscription, type Transport } from '../resolvers/streams.ts';
import { ApiError } from '../core/errors.ts';
import type { LoggedEvent } from '../subscriptions/eventLog.ts';
import { builder } from './builder.ts';
import { EventInterface } from './events.ts';

const StreamSubscription = builder.prismaObject('StreamSubscription', {
  description: 'A saved reading of the event log: the organization\'s events of the given types, and public data events named explicitly that pass the filters.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `ss_…`' }),
    description: t.exposeString('description'),
    eventTypes: t.exposeStringList('eventTypes', { description: 'Event types read, or `*` for every event of the organization; public data events (filing.added) only when named' }),
    tickers: t.exposeStringList('tickers', { description: 'Public data events only of these tickers (any of them); empty: any' }),
    ciks: t.exposeStringList('ciks', { description: 'Public data events only of these CIKs (10 digits); empty: any' }),
    forms: t.exposeStringList('forms', { description: 'Public data events only of these forms (exact, upper case); empty: any' }),
    transport: t.exposeString('transport', { description: 'poll or graphql_ws: how the subscription is meant to be read (both ways work)' }),
    status: t.exposeString('status', { description: 'enabled, disabled or deleted' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

type StreamEventShape = LoggedEvent & { cursor: string };

const StreamEvent = builder.objectRef<StreamEventShape>('StreamEvent').implement({
  description: 'A canonical event, as a stream subscription reads it.',
  interfaces: [EventInterface],
  isTypeOf: (value) => typeof (value as { cursor?: unknown }).cursor === 'string',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Resume right after this event: pass it as `cursor`' }),
  }),
});

const StreamEventPage = builder.objectRef<{ events: StreamEventShape[]; hasMore: boolean; nextCursor: string }>('StreamEventPage').implement({
  description: 'A page of a subscription\'s events, oldest first.',
  fields: (t) => ({
    events: t.field({ type: [StreamEvent], resolve: (p) => p.events }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More events can be read now' }),
    nextCursor: t.exposeString('nextCursor', { description: 'Always set: continue (or poll again later) from here' }),
  }),
});

const StreamTicket = builder.objectRef<{ ticket: string; expiresAt: Date; subscriptionId: string }>('StreamTicket').implement({
  description: 'A single-use ticket that opens one graphql-ws stream of one subscription, for 60 seconds.',
  fields: (t) => ({
    ticket: t.exposeString('ticket', { description: '`sst_…`: shown only in this answer' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    streamSubscriptionId: t.exposeString('subscriptionId'),
  }),
});

const StreamSubscriptionInput = builder.inputType('StreamSubscriptionInput', {
  fields: (t) => ({
    description: t.string(),
    eventTypes: t.stringList(),
    tickers: t.stringList(),
    ciks: t.stringList(),
    forms: t.stringList(),
    transport: t.string({ description: 'poll or graphql_ws' }),
    status: t.string({ description: 'enabled or disabled' }),
  }),
});

const transportOf = (value: string | null | undefined): Transport | undefined => (value === 'poll' || value === 'graphql_ws' ? value : undefined);
const statusOf = (value: string | null | undefined) => (value === 'enabled' || value === 'disabled' ? value : undefined);

builder.queryFields((t) => ({
  streamSubscriptions: t.prismaConnection({
    type: StreamSubscription,
    cursor: 'id',
    description: 'The organization\'s stream subscriptions (deleted ones are not listed), newest first.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _root, _args, ctx) => ctx.prisma.streamSubscription.findMany({ ...query, where: { orgId: requireOrg(ctx), deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
  streamSubscriptionEvents: t.field({
    type: StreamEventPage,
    description: 'A page of a subscription\'s events, oldest first: from `cursor`, else from the subscription\'s creation (or the start of the log with `from: "earliest"`).',
    args: { id: t.arg.string({ required: true }), cursor: t.arg.string(), limit: t.arg.int({ required: true }), from: t.arg.string({ description: 'created (default) or earliest' }) },
    resolve: (_root, args, ctx) => {
      if (args.from && args.from !== 'created' && args.from !== 'earliest') {
        throw new ApiError('invalid_query_parameter', '`from` is created or earliest.', { details: { parameter: 'from', acceptedValues: ['created', 'earliest'] } });
      }
      return readSubscriptionEvents(ctx, args.id, { cursor: args.cursor, limit: args.limit, from: args.from as 'created' | 'earliest' | null | undefined });
    },
  }),
  streamSubscription: t.prismaField({
    extensions: meteredAsPlatform,
    type: StreamSubscription,
    description: 'One stream subscription of the organization (a deleted one is not found).',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => ctx.prisma.streamSubscription.findUniqueOrThrow({ ...query, where: { id: (await ownSubscription(ctx, id)).id } }),
  }),
}));

builder.mutationFields((t) => ({
  createStreamSubscription: t.prismaField({
    type: StreamSubscription,
    args: { input: t.arg({ type: StreamSubscriptionInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const created = await createSubscription(ctx, {
        description: input.description ?? undefined,
        eventTypes: input.eventTypes ?? undefined,
        tickers: input.tickers ?? undefined,
        ciks: input.ciks ?? undefined,
        forms: input.forms ?? undefined,
        transport: transportOf(input.transport),
      });
      return ctx.prisma.streamSubscription.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
  updateStreamSubscription: t.prismaField({
    type: StreamSubscription,
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: StreamSubscriptionInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      await updateSubscription(ctx, id, {
        description: input.description ?? undefined,
        eventTypes: input.eventTypes ?? undefined,
        tickers: input.tickers ?? undefined,
        ciks: input.ciks ?? undefined,
        forms: input.forms ?? undefined,
        transport: transportOf(input.transport),
        status: statusOf(input.status),
      });
      return ctx.prisma.streamSubscription.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteStreamSubscription: t.prismaField({
    type: StreamSubscription,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      await deleteSubscription(ctx, id);
      return ctx.prisma.streamSubscription.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  createStreamTicket: t.field({ extensions: readScope, type: StreamTicket, args: { id: t.arg.string({ required: true }) }, resolve: (_root, { id }, ctx) => createTicket(ctx, id) }),
}));

builder.subscriptionFields((t) => ({
  streamEvents: t.field({
    // as GET /v1/stream_subscriptions/{stream_id}/events: the organization's own stream
    extensions: meteredAsPlatform,
    type: StreamEvent,
    description:
      'A stream subscription\'s events live: first those after `cursor` (or since the subscription was created), then each as it happens, in log order, none twice and none skipped. ' +
      'Authenticated by the connection\'s API key or session, or by `ticket` (POST /v1/stream_subscriptions/{stream_id}/tickets: single use, 60 s), so that a browser never holds a key. ' +
      'Completes when the subscription is disabled or deleted.',
    args: { subscriptionId: t.arg.string({ required: true }), cursor: t.arg.string(), ticket: t.arg.string() },
    // not a generator: a refusal (bad ticket, unknown subscription, bad cursor) is the operation's error before any event
    subscribe: (_root, args, ctx) => openStream(ctx, args),
    resolve: (event) => event,
  }),
}));
