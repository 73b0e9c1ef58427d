// Webhook endpoints, their delivery attempts, and the event type catalog (SPEC 4.9, 6).
import { meteredAsPlatform } from '../resolvers/metering.ts';
import { ApiError } from '../core/errors.ts';
import { requireOrg } from '../resolvers/access.ts';
import { createEndpoint, deleteEndpoint, ownEndpoint, replayDelivery, rotateSecret, sendTest, updateEndpoint } from '../resolvers/webhooks.ts';
import { eventTypeCatalog } from '../subscriptions/eventTypes.ts';
import { builder } from './builder.ts';

const WebhookEndpoint = builder.prismaObject('WebhookEndpoint', {
  description: 'A receiver of signed event deliveries (Standard Webhooks v1: webhook-id, webhook-timestamp, webhook-signature).',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `we_…`' }),
    url: t.exposeString('url'),
    description: t.exposeString('description'),
    eventTypes: t.exposeStringList('eventTypes', { description: 'Event types delivered, or `*` for every event of the organization' }),
    status: t.exposeString('status', { description: 'enabled or disabled' }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'requested, gone (the receiver answered 410) or failing (no success for 5 days)' }),
    secretRotatedUntil: t.expose('previousSecretExpiresAt', { type: 'DateTime', nullable: true, description: 'Until then deliveries carry a signature with the previous secret as well' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const WebhookDelivery = builder.prismaObject('WebhookDelivery', {
  description: 'One attempt to deliver one event to one endpoint.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `del_…`' }),
    webhookEndpointId: t.exposeString('endpointId'),
    eventId: t.exposeString('eventId', { description: 'Also the webhook-id header: the same on every attempt and replay' }),
    eventType: t.exposeString('eventType'),
    attempt: t.exposeInt('attempt', { description: '1 to 10' }),
    status: t.exposeString('status', { description: 'pending, succeeded, failed (final) or retrying (failed; the next attempt is scheduled)' }),
    replayOf: t.exposeString('replayOf', { nullable: true, description: 'The delivery this one replays' }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'At most 1 KB of the receiver\'s answer' }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, description: 'When a pending attempt is due', resolve: (d) => (d.status === 'pending' ? d.nextAttemptAt : null) }),
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const EndpointWithSecret = builder.objectRef<{ endpoint: { id: string }; secret: string }>('WebhookEndpointWithSecret').implement({
  description: 'An endpoint and its signing secret, shown only in this answer.',
  fields: (t) => ({
    endpoint: t.prismaField({ type: WebhookEndpoint, resolve: (query, r, _args, ctx) => ctx.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: r.endpoint.id } }) }),
    secret: t.exposeString('secret', { description: '`whsec_` and base64 of 32 bytes: verify deliveries with it (any Standard Webhooks library)' }),
  }),
});

const EventType = builder.objectRef<ReturnType<typeof eventTypeCatalog>[number]>('EventType').implement({
  description: 'A type of event, and the JSON Schema of its data.',
  fields: (t) => ({
    type: t.exposeString('type'),
    description: t.exposeString('description'),
    public: t.exposeBoolean('public', { description: 'A public data event: delivered only where its type is named' }),
    dataSchema: t.expose('dataSchema', { type: 'JSON' }),
  }),
});

const EndpointInput = builder.inputType('WebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ description: 'https; the host must resolve to public addresses' }),
    description: t.string(),
    eventTypes: t.stringList(),
    status: t.string({ description: 'enabled or disabled' }),
  }),
});

const deliveryStatuses = ['pending', 'succeeded', 'failed', 'retrying'];

/** A status filter the service knows: an unknown one is a mistake, not an empty page. */
function checkedDeliveryStatus(status: string | null | undefined): string | undefined {
  if (!status) return undefined;
  if (!deliveryStatuses.includes(status)) {
    throw new ApiError('invalid_query_parameter', `\`status\` is one of ${deliveryStatuses.join(', ')}.`, { details: { parameter: 'status', acceptedValues: deliveryStatuses } });
  }
  return status;
}

builder.queryFields((t) => ({
  eventTypes: t.field({ type: [EventType], description: 'The catalog of event types.', resolve: () => eventTypeCatalog() }),
  webhookEndpoints: t.prismaConnection({
    type: WebhookEndpoint,
    cursor: 'id',
    description: 'The organization\'s webhook endpoints, newest first.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _root, _args, ctx) => ctx.prisma.webhookEndpoint.findMany({ ...query, where: { orgId: requireOrg(ctx), deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
  webhookDeliveries: t.prismaConnection({
    type: WebhookDelivery,
    cursor: 'id',
    description: 'Delivery attempts of an endpoint, newest first.',
    defaultSize: 25,
    maxSize: 100,
    args: { endpointId: t.arg.string({ required: true }), status: t.arg.string({ description: 'Only attempts in this status: pending, succeeded, failed or retrying' }) },
    resolve: async (query, _root, args, ctx) => {
      const endpoint = await ownEndpoint(ctx, args.endpointId);
      const status = checkedDeliveryStatus(args.status);
      return ctx.prisma.webhookDelivery.findMany({ ...query, where: { endpointId: endpoint.id, ...(status ? { status } : {}) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },
  }),
  webhookEndpoint: t.prismaField({
    extensions: meteredAsPlatform,
    type: WebhookEndpoint,
    description: 'One endpoint of the organization (a deleted one is not found).',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => ctx.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: (await ownEndpoint(ctx, id)).id } }),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: EndpointWithSecret,
    args: { input: t.arg({ type: EndpointInput, required: true }) },
    resolve: (_root, { input }, ctx) => createEndpoint(ctx, { url: input.url ?? '', description: input.description ?? undefined, eventTypes: input.eventTypes ?? undefined }),
  }),
  updateWebhookEndpoint: t.prismaField({
    type: WebhookEndpoint,
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: EndpointInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const status = input.status === 'enabled' || input.status === 'disabled' ? input.status : undefined;
      await updateEndpoint(ctx, id, { url: input.url ?? undefined, description: input.description ?? undefined, eventTypes: input.eventTypes ?? undefined, status });
      return ctx.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteWebhookEndpoint: t.prismaField({
    type: WebhookEndpoint,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      await deleteEndpoint(ctx, id);
      return ctx.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  rotateWebhookSecret: t.field({ type: EndpointWithSecret, args: { id: t.arg.string({ required: true }) }, resolve: (_root, { id }, ctx) => rotateSecret(ctx, id) }),
  testWebhookEndpoint: t.prismaField({
    type: WebhookDelivery,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => ctx.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: (await sendTest(ctx, id)).id } }),
  }),
  replayWebhookDelivery: t.prismaField({
    type: WebhookDelivery,
    args: { endpointId: t.arg.string({ required: true }), deliveryId: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => ctx.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: (await replayDelivery(ctx, args.endpointId, args.deliveryId)).id } }),
  }),
}));
