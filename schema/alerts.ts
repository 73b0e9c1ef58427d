// Alerts (resolvers/alerts.ts): the organization's events that need a person, newest first, and
// their acknowledgement.
import { acknowledgeAlert, alertStatuses, listAlerts, alertTypes, severityRules, type Alert as AlertShape } from '../resolvers/alerts.ts';
import { needs } from '../resolvers/roles.ts';
import { eventRetentionDays } from '../subscriptions/eventLog.ts';
import { builder } from './builder.ts';

const AlertSeverity = builder.enumType('AlertSeverity', { values: ['info', 'warning', 'critical'] as const, description: severityRules });

const AlertStatus = builder.enumType('AlertStatus', {
  values: { open: { description: 'Not acknowledged yet' }, acknowledged: { description: 'Acknowledged by someone' }, all: { description: 'Both' } } satisfies Record<(typeof alertStatuses)[number], unknown>,
});

const AlertLinks = builder.objectRef<AlertShape['links']>('AlertLinks').implement({
  description: 'What the alert is about; null where it does not concern one.',
  fields: (t) => ({
    monitorId: t.exposeString('monitorId', { nullable: true, description: '`mon_…` (GET /v1/monitors/{monitor_id})' }),
    webhookEndpointId: t.exposeString('webhookEndpointId', { nullable: true, description: '`we_…` (GET /v1/webhook_endpoints)' }),
    deliveryId: t.exposeString('deliveryId', { nullable: true, description: 'The last attempt, `del_…` (its endpoint\'s deliveries; replayable)' }),
  }),
});

const AlertAcknowledgement = builder.objectRef<NonNullable<AlertShape['acknowledged']>>('AlertAcknowledgement').implement({
  fields: (t) => ({
    by: t.exposeString('by', { description: 'The person (`usr_…`) or API key (`key_…`) that acknowledged it' }),
    byName: t.string({
      nullable: true,
      description: 'The person\'s email or the key\'s name, for showing; null once the person or key is gone',
      // findUnique calls of one tick go to the database as one query (Prisma batches them)
      resolve: async (a, _args, ctx) =>
        a.by.startsWith('key_')
          ? ((await ctx.prisma.apiKey.findUnique({ where: { id: a.by }, select: { name: true } }))?.name ?? null)
          : ((await ctx.prisma.user.findUnique({ where: { id: a.by }, select: { email: true } }))?.email ?? null),
    }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const Alert = builder.objectRef<AlertShape>('Alert').implement({
  description: 'An event of the organization that needs a person; its id is the event id.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The event, `evt_…`' }),
    type: t.exposeString('type', { description: `The event type: ${alertTypes.join(', ')}` }),
    severity: t.field({ type: AlertSeverity, resolve: (a) => a.severity }),
    title: t.exposeString('title', { description: 'One line for a person, built from the event\'s data' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    data: t.field({ type: 'JSON', description: 'The event\'s data, shaped per type (GET /v1/event_types)', resolve: (a) => a.data }),
    links: t.field({ type: AlertLinks, resolve: (a) => a.links }),
    acknowledged: t.field({ type: AlertAcknowledgement, nullable: true, description: 'null while open', resolve: (a) => a.acknowledged }),
  }),
});

builder.queryFields((t) => ({
  alerts: t.connection({
    extensions: needs('read'),
    type: Alert,
    description: `The organization's alerts, newest first (kept as long as their events, ${eventRetentionDays} days). Page forward with \`first\`/\`after\` (at most 100 a page).`,
    args: {
      type: t.arg.string({ description: `Only alerts of this type: ${alertTypes.join(', ')}` }),
      status: t.arg({ type: AlertStatus, defaultValue: 'open', description: 'open (default), acknowledged or all' }),
      from: t.arg({ type: 'DateTime', description: 'Only alerts at or after this time' }),
      to: t.arg({ type: 'DateTime', description: 'Only alerts before this time' }),
    },
    resolve: (_root, args, ctx) => listAlerts(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  acknowledgeAlert: t.field({
    // any member may; an API key needs the organization scope (it is a mutation)
    extensions: needs('read'),
    type: Alert,
    description: 'Acknowledge an alert of the organization. Idempotent: acknowledging again answers the first acknowledgement.',
    args: { alertId: t.arg.string({ required: true, description: '`evt_…`' }) },
    resolve: (_root, args, ctx) => acknowledgeAlert(ctx, args.alertId),
  }),
}));
