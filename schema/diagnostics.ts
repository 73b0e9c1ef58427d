// Diagnostics (SPEC 4.4): a request with what it caused, and the delivery summary.
import { deliverySummary, requestDiagnostics } from '../resolvers/diagnostics.ts';
import { builder } from './builder.ts';
import { LoggedEvent } from './events.ts';
import { WebhookDelivery } from './webhooks.ts';

type Diagnostics = Awaited<ReturnType<typeof requestDiagnostics>>;
type Summary = Awaited<ReturnType<typeof deliverySummary>>;

export const RequestRecord = builder.objectRef<Diagnostics['record']>('RequestRecord').implement({
  description: 'A request as it was recorded.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The Request-Id, `req_…`' }),
    door: t.exposeString('door', { description: 'rest, graphql or mcp' }),
    operation: t.exposeString('operation', { nullable: true, description: 'The route\'s operationId, the GraphQL operation name, or the MCP method and tool' }),
    method: t.exposeString('method'),
    path: t.exposeString('path'),
    status: t.exposeInt('status'),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    meterClass: t.exposeString('meterClass', { nullable: true }),
    cost: t.exposeInt('cost', { nullable: true, description: 'Units charged to the meter class' }),
    durationMs: t.exposeFloat('durationMs'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const RequestChargeRef = builder.objectRef<NonNullable<Diagnostics['charge']>>('RequestCharge').implement({
  description: 'What a request paid with prepaid credit, and the ledger debit that settled it.',
  fields: (t) => ({
    millicents: t.expose('millicents', { type: 'Long' }),
    ledgerEntryId: t.exposeString('ledgerEntryId'),
  }),
});

const RequestDiagnostics = builder.objectRef<Diagnostics>('RequestDiagnostics').implement({
  fields: (t) => ({
    request: t.field({ type: RequestRecord, resolve: (d) => d.record }),
    charge: t.field({ type: RequestChargeRef, nullable: true, description: 'null unless the request was paid with prepaid credit', resolve: (d) => d.charge }),
    events: t.field({ type: [LoggedEvent], description: 'Events the request caused', resolve: (d) => d.events }),
    deliveries: t.field({ type: [WebhookDelivery], description: 'Webhook delivery attempts of those events', resolve: (d) => d.deliveries }),
  }),
});

const StatusCounts = builder.objectRef<Record<string, number>>('DeliveryStatusCounts').implement({
  fields: (t) => ({
    pending: t.int({ resolve: (c) => c.pending ?? 0 }),
    succeeded: t.int({ resolve: (c) => c.succeeded ?? 0 }),
    failed: t.int({ resolve: (c) => c.failed ?? 0 }),
    retrying: t.int({ resolve: (c) => c.retrying ?? 0 }),
  }),
});

const EndpointCounts = builder.objectRef<Summary['byEndpoint'][number]>('EndpointDeliveryCounts').implement({
  fields: (t) => ({
    webhookEndpointId: t.exposeString('webhookEndpointId'),
    counts: t.field({ type: StatusCounts, resolve: ({ webhookEndpointId: _, ...counts }) => counts }),
  }),
});

const FailureReason = builder.objectRef<Summary['topFailureReasons'][number]>('DeliveryFailureReason').implement({
  fields: (t) => ({ reason: t.exposeString('reason'), count: t.exposeInt('count') }),
});

const DeliverySummary = builder.objectRef<Summary>('DeliverySummary').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    total: t.exposeInt('total'),
    byStatus: t.field({ type: StatusCounts, resolve: (s) => s.byStatus }),
    byEndpoint: t.field({ type: [EndpointCounts], resolve: (s) => s.byEndpoint }),
    latencyP50Ms: t.float({ nullable: true, resolve: (s) => s.latencyMs.p50 }),
    latencyP95Ms: t.float({ nullable: true, resolve: (s) => s.latencyMs.p95 }),
    attempted: t.int({ description: 'Attempts that reached a receiver or failed trying', resolve: (s) => s.latencyMs.attempted }),
    topFailureReasons: t.field({ type: [FailureReason], resolve: (s) => s.topFailureReasons }),
  }),
});

builder.queryFields((t) => ({
  requestDiagnostics: t.field({
    type: RequestDiagnostics,
    description: 'One request of the organization and everything it caused.',
    args: { requestId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => requestDiagnostics(ctx, args.requestId),
  }),
  deliverySummary: t.field({
    type: DeliverySummary,
    description: 'Webhook deliveries of the organization created in [from, to).',
    args: { from: t.arg({ type: 'DateTime', required: true }), to: t.arg({ type: 'DateTime', required: true }) },
    resolve: (_root, args, ctx) => deliverySummary(ctx, args.from, args.to),
  }),
}));
