// Diagnostics (SPEC 4.4).
import { z } from 'zod';
import { DeliverySummaryDocument, RequestDiagnosticsDocument } from '../operations/generated.ts';
import { operationRoute, viewParam } from '../route.ts';
import { event } from './streams.ts';
import { delivery, toDelivery } from './webhooks.ts';

const common = { tag: 'Diagnostics', access: 'org' as const, meter: 'platform', mcp: true };
const counts = z.object({ pending: z.number().int(), succeeded: z.number().int(), failed: z.number().int(), retrying: z.number().int() });
export const instant = z.iso.datetime({ offset: true }).describe('ISO-8601 time, e.g. 2026-11-24T00:00:00Z');

export const diagnosticsRoutes = [
  operationRoute({
    name: 'diagnostics_request_get',
    method: 'GET',
    path: '/v1/diagnostics/requests/{request_id}',
    summary: 'One request and everything it caused',
    description:
      'Every request to /v1, /graphql and /mcp is recorded (within a second of its answer): door, operation, status, error code, meter class and units charged, duration; what it paid with prepaid credit and the ledger debit that settled it. With it come the events it caused and their webhook delivery attempts. Another organization\'s request id is 404 request_not_found.',
    ...common,
    params: { path: z.strictObject({ request_id: z.string().regex(/^req_[0-9A-Za-z]{24}$/, 'expected a request id, req_ and 24 letters or digits') }), query: z.strictObject({ view: viewParam }) },
    response: z.object({
      object: z.literal('request_diagnostics'),
      request: z.object({
        id: z.string(),
        door: z.enum(['rest', 'graphql', 'mcp']),
        operation: z.string().nullable(),
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        errorCode: z.string().nullable(),
        createdAt: z.iso.datetime(),
        durationMs: z.number(),
      }),
      usage: z.object({
        meterClass: z.string().nullable(),
        units: z.number().int().nullable(),
        chargedMillicents: z.number().int().nullable().describe('What the request paid with prepaid credit (null: paid by the plan or the starter grant, free, or refused)'),
        ledgerEntryId: z.string().nullable().describe('The debit that settled it (settled within a second or so of the answer)'),
      }),
      events: z.array(event),
      deliveries: z.array(delivery),
      requestId: z.string(),
    }),
    errors: ['request_not_found'],
    operation: RequestDiagnosticsDocument,
    variables: ({ path }) => ({ requestId: path.request_id }),
  }).reshape(({ requestDiagnostics: d }, meta) => {
    const { meterClass, cost, ...request } = d.request;
    return {
      object: 'request_diagnostics',
      request: { ...request, door: request.door as 'rest' | 'graphql' | 'mcp' },
      usage: { meterClass: meterClass ?? null, units: cost ?? null, chargedMillicents: d.charge?.millicents ?? null, ledgerEntryId: d.charge?.ledgerEntryId ?? null },
      events: d.events.map((e) => ({ object: 'event' as const, ...e })),
      deliveries: d.deliveries.map(toDelivery),
      ...meta,
    };
  }),
  operationRoute({
    name: 'diagnostics_deliveries_summary',
    method: 'GET',
    path: '/v1/diagnostics/deliveries/summary',
    summary: 'Webhook deliveries over a time window: counts by status and endpoint, latency, top failure reasons',
    description: 'Counts the delivery attempts created in [from, to) (default: the last 24 hours). Latency is the time to the receiver\'s answer (or failure), p50 and p95 over attempted deliveries.',
    ...common,
    params: { query: z.strictObject({ from: instant.optional(), to: instant.optional(), view: viewParam }) },
    response: z.object({
      object: z.literal('delivery_summary'),
      from: z.iso.datetime(),
      to: z.iso.datetime(),
      total: z.number().int(),
      byStatus: counts,
      byEndpoint: z.array(counts.extend({ webhookEndpointId: z.string() })),
      latencyMs: z.object({ p50: z.number().nullable(), p95: z.number().nullable(), attempted: z.number().int() }),
      topFailureReasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
      requestId: z.string(),
    }),
    operation: DeliverySummaryDocument,
    variables: ({ query }) => {
      const to = query.to ? new Date(query.to) : new Date();
      return { from: query.from ?? new Date(to.getTime() - 86_400_000).toISOString(), to: to.toISOString() };
    },
  }).reshape(({ deliverySummary: s }, meta) => ({
    object: 'delivery_summary',
    from: new Date(s.from).toISOString(),
    to: new Date(s.to).toISOString(),
    total: s.total,
    byStatus: s.byStatus,
    byEndpoint: s.byEndpoint.map((e) => ({ webhookEndpointId: e.webhookEndpointId, ...e.counts })),
    latencyMs: { p50: s.latencyP50Ms ?? null, p95: s.latencyP95Ms ?? null, attempted: s.attempted },
    topFailureReasons: s.topFailureReasons,
    ...meta,
  })),
];
