// Monitors: saved list reads that watch for new records (SPEC 4.7).
import { needs } from '../resolvers/roles.ts';
import { readScope, requireOrg } from '../resolvers/access.ts';
import { compileMonitor, prismaCompileEnv } from '../resolvers/monitors/compile.ts';
import { checkMatches, createMonitor, deactivateMonitor, deliveryOf, ownMonitor, setMonitorDelivery, waitingMatches, type Matches, type MonitorDelivery } from '../resolvers/monitors/monitors.ts';
import { previewQuery, type Preview } from '../resolvers/monitors/preview.ts';
import { unsubscribe, type Unsubscribed } from '../resolvers/monitors/email.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';

const Monitor = builder.prismaObject('Monitor', {
  description: 'A saved list read that watches for records ingested after it last looked.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `mon_…`' }),
    name: t.exposeString('name'),
    query: t.field({
      type: 'JSON',
      description: '{route, params, threshold?}: the saved read',
      resolve: (m) => ({ route: m.route, params: m.params, ...(m.threshold ? { threshold: m.threshold } : {}) }),
    }),
    delivery: t.field({ type: 'JSON', nullable: true, description: '{type: "webhook", webhookEndpointId} or {type: "email", address}; null: matches are only read', resolve: (m) => deliveryOf(m) }),
    emailUnsubscribedAt: t.expose('emailOptedOutAt', { type: 'DateTime', nullable: true, description: 'When the email delivery was turned off by its unsubscribe link' }),
    isActive: t.exposeBoolean('isActive'),
    lastCheckedAt: t.expose('lastCheckedAt', { type: 'DateTime', nullable: true, description: 'When matches were last read (and moved past)' }),
    deactivatedAt: t.expose('deactivatedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    waitingMatches: t.field({
      type: MonitorWaitingMatches,
      nullable: true,
      description: 'Matches since the last check, counted up to `upTo` (1 to 25), without moving the check; null for a deactivated monitor',
      args: { upTo: t.arg.int({ defaultValue: 10 }) },
      resolve: (m, args, ctx) => waitingMatches(ctx, m, Math.min(Math.max(args.upTo ?? 10, 1), 25)),
    }),
  }),
});

const MonitorWaitingMatches = builder.objectRef<{ count: number; hasMore: boolean }>('MonitorWaitingMatches').implement({
  description: 'Matches waiting since a monitor\'s last check.',
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'Counted up to the number asked for' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More than `count` are waiting' }),
  }),
});

const MonitorPreview = builder.objectRef<Preview>('MonitorPreview').implement({
  description: 'What a monitor\'s read lists now (its first page, default view, past its threshold): the kind of record it will match once records are ingested after it.',
  fields: (t) => ({
    items: t.field({ type: ['JSON'], resolve: (p) => p.items }),
    hasMore: t.exposeBoolean('hasMore', { description: 'The read lists more than these' }),
  }),
});

const MonitorMatches = builder.objectRef<Matches>('MonitorMatches').implement({
  description: 'The records the monitor\'s read shows that were ingested since its last check.',
  fields: (t) => ({
    monitor: t.prismaField({ type: Monitor, resolve: (query, m, _args, ctx) => ctx.prisma.monitor.findUniqueOrThrow({ ...query, where: { id: m.monitor.id } }) }),
    items: t.field({ type: ['JSON'], description: 'As the read lists them (its default view)', resolve: (m) => m.items }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More matches are waiting: check again' }),
    since: t.expose('since', { type: 'DateTime', nullable: true, description: 'The check these matches follow (null: since the monitor was created)' }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime' }),
    peek: t.exposeBoolean('peek', { description: 'True when the check was not moved past these matches' }),
  }),
});

const CompiledMonitor = builder.objectRef<Awaited<ReturnType<typeof compileMonitor>>>('CompiledMonitor').implement({
  description: 'A monitor spec compiled from plain English, deterministically (a grammar and the entities the service holds).',
  fields: (t) => ({
    query: t.field({ type: 'JSON', resolve: (c) => c.query }),
    delivery: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.delivery ?? null }),
    confidence: t.exposeFloat('confidence', { description: '0 to 1' }),
    unparsed: t.exposeStringList('unparsed', { description: 'Words it could not place' }),
    explanation: t.exposeString('explanation'),
    preview: t.field({
      type: MonitorPreview,
      // a read that fails now (an outage, a refusal) leaves the compiled query readable
      nullable: true,
      description: 'The compiled read run now, its first `first` items (1 to 25): what kind of record it would match',
      args: { first: t.arg.int({ defaultValue: 5 }) },
      resolve: (c, args, ctx) => previewQuery(ctx, c.query, Math.min(Math.max(args.first ?? 5, 1), 25)),
    }),
  }),
});

const UnsubscribedType = builder.objectRef<Unsubscribed>('MonitorEmailUnsubscribed').implement({
  description: 'A monitor\'s email delivery turned off by the signed link of one of its digests.',
  fields: (t) => ({
    monitorId: t.exposeString('monitorId'),
    monitorName: t.exposeString('monitorName'),
    address: t.exposeString('address', { description: 'Masked' }),
    unsubscribedAt: t.expose('unsubscribedAt', { type: 'DateTime' }),
    alreadyUnsubscribed: t.exposeBoolean('alreadyUnsubscribed', { description: 'Nothing changed: the link was used before, or the monitor no longer emails that address' }),
  }),
});

const ThresholdInput = builder.inputType('MonitorThresholdInput', { fields: (t) => ({ below: t.string(), above: t.string() }) });
const QueryInput = builder.inputType('MonitorQueryInput', {
  fields: (t) => ({ route: t.string({ required: true }), params: t.field({ type: 'JSON' }), threshold: t.field({ type: ThresholdInput }) }),
});
const DeliveryInput = builder.inputType('MonitorDeliveryInput', {
  fields: (t) => ({ type: t.string({ required: true, description: 'webhook or email' }), webhookEndpointId: t.string(), address: t.string() }),
});

function delivery(input: { type: string; webhookEndpointId?: string | null; address?: string | null } | null | undefined): MonitorDelivery | null {
  if (!input) return null;
  const invalid = (path: string, message: string) => new ApiError('validation_error', `${path}: ${message}`, { details: { issues: [{ path, message, code: 'invalid_value' }] } });
  if (input.type === 'webhook') {
    if (!input.webhookEndpointId) throw invalid('delivery.webhookEndpointId', 'required for a webhook delivery');
    return { type: 'webhook', webhookEndpointId: input.webhookEndpointId };
  }
  if (input.type === 'email') {
    if (!input.address) throw invalid('delivery.address', 'required for an email delivery');
    return { type: 'email', address: input.address };
  }
  throw invalid('delivery.type', 'webhook or email');
}

function params(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('validation_error', 'query.params: expected an object', { details: { issues: [{ path: 'query.params', message: 'expected an object', code: 'invalid_type' }] } });
  return value as Record<string, unknown>;
}

builder.queryFields((t) => ({
  monitors: t.prismaConnection({
    type: Monitor,
    cursor: 'id',
    description: 'The organization\'s monitors, newest first (inactive ones too).',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _root, _args, ctx) => ctx.prisma.monitor.findMany({ ...query, where: { orgId: requireOrg(ctx) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
  monitor: t.prismaField({
    type: Monitor,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => ctx.prisma.monitor.findUniqueOrThrow({ ...query, where: { id: (await ownMonitor(ctx, id)).id } }),
  }),
  compileMonitor: t.field({
    type: CompiledMonitor,
    description: 'Plain English to a monitor spec; what it cannot place is listed in `unparsed`.',
    args: { text: t.arg.string({ required: true }) },
    resolve: (_root, { text }, ctx) => compileMonitor(text, prismaCompileEnv(ctx.prisma, requireOrg(ctx))),
  }),
}));

builder.mutationFields((t) => ({
  unsubscribeMonitorEmail: t.field({ extensions: needs('read'),
    type: UnsubscribedType,
    description: 'Public: the token of a digest\'s unsubscribe link is the credential.',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => unsubscribe(ctx, token),
  }),
  createMonitor: t.prismaField({
    type: Monitor,
    args: { name: t.arg.string({ required: true }), query: t.arg({ type: QueryInput, required: true }), delivery: t.arg({ type: DeliveryInput }) },
    resolve: async (query, _root, args, ctx) => {
      const created = await createMonitor(ctx, { name: args.name, query: { route: args.query.route, params: params(args.query.params) as Record<string, string>, threshold: args.query.threshold as never }, delivery: delivery(args.delivery) });
      return ctx.prisma.monitor.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
  deleteMonitor: t.prismaField({
    type: Monitor,
    description: 'Deactivates the monitor; idempotent.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => ctx.prisma.monitor.findUniqueOrThrow({ ...query, where: { id: (await deactivateMonitor(ctx, id)).id } }),
  }),
  setMonitorDelivery: t.prismaField({
    type: Monitor,
    description: 'Sets or replaces where matches are delivered (null: nowhere; they are read with checkMonitorMatches).',
    args: { id: t.arg.string({ required: true }), delivery: t.arg({ type: DeliveryInput }) },
    resolve: async (query, _root, args, ctx) => ctx.prisma.monitor.findUniqueOrThrow({ ...query, where: { id: (await setMonitorDelivery(ctx, args.id, delivery(args.delivery))).id } }),
  }),
  checkMonitorMatches: t.field({
    extensions: readScope,
    type: MonitorMatches,
    description: 'Runs the saved read over the records ingested since the last check and (unless peek) moves the check past those it returns.',
    args: { id: t.arg.string({ required: true }), peek: t.arg.boolean({ defaultValue: false }), limit: t.arg.int({ defaultValue: 25 }) },
    resolve: (_root, args, ctx) => checkMatches(ctx, args.id, { peek: args.peek ?? false, limit: Math.min(Math.max(args.limit ?? 25, 1), 100) }),
  }),
}));
