// The Delivery family's canonical records (SPEC 6.6): events, webhook delivery attempts and
// stream records of the organization, oldest first, as Relay connections; REST lists and exports
// them under /v1/delivery.
import { deliveriesWhere, listOrgEvents, listStreamRecords, type RecordsPage, type StreamRecord } from '../resolvers/deliveryRecords.ts';
import { eventRetentionDays } from '../subscriptions/eventLog.ts';
import { builder } from './builder.ts';
import { LoggedEvent } from './events.ts';
import { WebhookDelivery } from './webhooks.ts';

const StreamRecordType = builder.objectRef<StreamRecord>('StreamRecord').implement({
  description: 'An event as one stream subscription reads it. Nothing is stored per read: the records are the subscription\'s event stream, computed from the log with its current types and filters.',
  fields: (t) => ({
    streamSubscriptionId: t.exposeString('subscriptionId', { description: '`ss_…`' }),
    event: t.field({ type: LoggedEvent, resolve: (r) => r.event }),
  }),
});

function connection<T>(page: RecordsPage<T>) {
  return {
    edges: page.records.map(({ record, cursor }) => ({ cursor, node: record })),
    pageInfo: { hasNextPage: page.hasMore, hasPreviousPage: false, startCursor: page.records[0]?.cursor ?? null, endCursor: page.endCursor },
  };
}

const kept = `Events are kept ${eventRetentionDays} days.`;

builder.queryFields((t) => ({
  eventRecords: t.connection({
    type: LoggedEvent,
    description: `The organization's own events, oldest first (log order), created in [from, to). ${kept}`,
    args: { type: t.arg.string({ description: 'Only events of this type' }), from: t.arg({ type: 'DateTime' }), to: t.arg({ type: 'DateTime' }) },
    resolve: async (_root, args, ctx) => connection(await listOrgEvents(ctx, args)),
  }),
  webhookDeliveryRecords: t.prismaConnection({
    type: WebhookDelivery,
    cursor: 'id',
    description: 'The organization\'s webhook delivery attempts, deleted endpoints\' included, oldest first, created in [from, to). Kept without a time limit.',
    defaultSize: 25,
    maxSize: 100,
    args: {
      endpointId: t.arg.string({ description: 'Only this endpoint\'s attempts (a deleted endpoint\'s too)' }),
      status: t.arg.string({ description: 'pending, succeeded, failed or retrying' }),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
    },
    resolve: async (query, _root, args, ctx) => ctx.prisma.webhookDelivery.findMany({ ...query, where: await deliveriesWhere(ctx, args), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  }),
  streamRecords: t.connection({
    type: StreamRecordType,
    description: `Stream records of the organization's subscriptions (deleted ones' included, up to their deletion): one per event and subscription that reads it, oldest event first, then by subscription id; events created in [from, to). ${kept}`,
    args: { subscriptionId: t.arg.string({ description: 'Only this subscription\'s records' }), from: t.arg({ type: 'DateTime' }), to: t.arg({ type: 'DateTime' }) },
    resolve: async (_root, args, ctx) => connection(await listStreamRecords(ctx, args)),
  }),
}));
