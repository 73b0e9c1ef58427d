// The Delivery family's canonical records (SPEC 6.6): the organization's events, webhook delivery
// attempts and stream records, each listed by cursor (oldest first) and exported as NDJSON or JSON.
import { z } from 'zod';
import { DeliveryEventsDocument, DeliveryStreamRecordsDocument, DeliveryWebhookDeliveriesDocument, UnsubscribeMonitorEmailDocument } from '../operations/generated.ts';
import { eventRetentionDays } from '../../subscriptions/eventLog.ts';
import { eventTypes } from '../../subscriptions/eventTypes.ts';
import { scanBudget } from '../../subscriptions/streams.ts';
import { exportPageSize } from '../export.ts';
import { listEnvelope, operationRoute, pageParams, viewParam, type Route } from '../route.ts';
import { exportRoute } from '../export.ts';
import { instant } from './diagnostics.ts';
import { event } from './streams.ts';
import { delivery, toDelivery } from './webhooks.ts';

const common = { tag: 'Delivery', access: 'org' as const, meter: 'platform' };
const createdWindow = {
  from: instant.optional().describe('Only records created at or after this time (ISO-8601, e.g. 2026-11-24T00:00:00Z)'),
  to: instant.optional().describe('Only records created before this time (ISO-8601)'),
};
const eventType = z.enum(eventTypes.map((t) => t.type) as [string, ...string[]]).optional().describe('Only events of this type (GET /v1/event_types)');
const endpointId = z.string().regex(/^we_[0-9A-Za-z]{24}$/, 'expected a webhook endpoint id, we_ and 24 letters or digits').optional().describe('Only this endpoint\'s attempts (a deleted endpoint\'s too)');
const deliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'retrying']).optional().describe('Only attempts in this status');
const subscriptionId = z.string().regex(/^ss_[0-9A-Za-z]{24}$/, 'expected a stream subscription id, ss_ and 24 letters or digits').optional().describe('Only this subscription\'s records (a deleted subscription\'s too)');

const streamRecord = z.object({
  object: z.literal('stream_record'),
  streamSubscriptionId: z.string().describe('`ss_…`'),
  event,
});

const retention = `Events are kept ${eventRetentionDays} days (older ones are purged, in every listing and export alike); webhook delivery attempts are kept without a time limit.`;
const windowNote = '`from` and `to` select records created in [from, to); a malformed time is `400 invalid_request_parameter`, as is `from` not before `to`; an unknown parameter or value is `400 invalid_query_parameter` (`details.parameter`).';
const listed = (what: string) => `${what} ${windowNote} ${retention} The same records, every one in one download: GET …/export.`;
const exported = (list: string) =>
  `Every record of ${list}, with the same filters and in the same order, as a download: \`format=ndjson\` (default, \`application/x-ndjson\`, one record a line) or \`format=json\` (one array). ` +
  `It is read ${exportPageSize} records at a time through the list's own operation and written as it is read, at the pace the client takes it, so any size is exported in constant memory; it is charged as one request. ` +
  `Errors found before the first byte are the error envelope; a failure after it ends the download abruptly (no final newline or \`]\`), so an incomplete file never looks complete. ${retention}`;

const pageOf = <T>(page: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: T[] }) => ({
  object: 'list' as const,
  hasMore: page.pageInfo.hasNextPage,
  nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
});

const eventsList = operationRoute({
  name: 'delivery_events_list',
  method: 'GET',
  path: '/v1/delivery/events',
  summary: 'List the organization\'s canonical events, oldest first',
  description: listed(
    'The organization\'s own events (not public data events such as `filing.added`), in the order of the log (commit order, oldest first), each as `{object: "event", id, type, createdAt, orgId, requestId, data}`: what webhooks deliver and streams read.',
  ),
  ...common,
  mcp: true,
  params: { query: z.strictObject({ ...pageParams, type: eventType, ...createdWindow, view: viewParam }) },
  response: listEnvelope(event),
  operation: DeliveryEventsDocument,
  variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, type: query.type ?? null, from: query.from ?? null, to: query.to ?? null }),
}).reshape(({ eventRecords: page }, meta) => ({ ...pageOf(page), data: page.nodes.map((e) => ({ object: 'event' as const, ...e })), ...meta }));

const deliveriesList = operationRoute({
  name: 'delivery_webhook_deliveries_list',
  method: 'GET',
  path: '/v1/delivery/webhook_deliveries',
  summary: 'List the organization\'s webhook delivery attempts, oldest first',
  description: listed(
    'Every delivery attempt of every endpoint of the organization, deleted endpoints\' included (their audit history is kept), ordered by creation time. Another organization\'s `endpoint_id` is `404 webhook_endpoint_not_found`.',
  ),
  ...common,
  mcp: true,
  params: { query: z.strictObject({ ...pageParams, endpoint_id: endpointId, status: deliveryStatus, ...createdWindow, view: viewParam }) },
  response: listEnvelope(delivery),
  errors: ['webhook_endpoint_not_found'],
  operation: DeliveryWebhookDeliveriesDocument,
  variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, endpointId: query.endpoint_id ?? null, status: query.status ?? null, from: query.from ?? null, to: query.to ?? null }),
}).reshape(({ webhookDeliveryRecords: page }, meta) => ({ ...pageOf(page), data: page.nodes.map(toDelivery), ...meta }));

const streamRecordsList = operationRoute({
  name: 'delivery_stream_records_list',
  method: 'GET',
  path: '/v1/delivery/stream_records',
  summary: 'List the stream records of the organization\'s subscriptions, oldest first',
  description: listed(
    'Nothing is stored when a stream is read, so a stream record is an event as a subscription reads it: one `{object: "stream_record", streamSubscriptionId, event}` for each event and each subscription that reads it (from its creation, of its event types and filters as they are now; a deleted subscription\'s up to its deletion). ' +
      'Ordered by the log (oldest event first), then by subscription id; `from` and `to` apply to the event\'s creation. ' +
      `One page examines at most ${scanBudget} events of the log, so a page can be short with \`hasMore\` true. Another organization's \`subscription_id\` is \`404 stream_subscription_not_found\`.`,
  ),
  ...common,
  mcp: true,
  params: { query: z.strictObject({ ...pageParams, subscription_id: subscriptionId, ...createdWindow, view: viewParam }) },
  response: listEnvelope(streamRecord),
  errors: ['stream_subscription_not_found'],
  operation: DeliveryStreamRecordsDocument,
  variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, subscriptionId: query.subscription_id ?? null, from: query.from ?? null, to: query.to ?? null }),
}).reshape(({ streamRecords: page }, meta) => ({
  ...pageOf(page),
  data: page.nodes.map((r) => ({ object: 'stream_record' as const, streamSubscriptionId: r.streamSubscriptionId, event: { object: 'event' as const, ...r.event } })),
  ...meta,
}));

export const deliveryRoutes = [
  eventsList,
  exportRoute(eventsList, { name: 'delivery_events_export', summary: 'Export the organization\'s canonical events as NDJSON or JSON', description: exported('GET /v1/delivery/events') }),
  deliveriesList,
  exportRoute(deliveriesList, { name: 'delivery_webhook_deliveries_export', summary: 'Export the organization\'s webhook delivery attempts as NDJSON or JSON', description: exported('GET /v1/delivery/webhook_deliveries') }),
  streamRecordsList,
  exportRoute(streamRecordsList, { name: 'delivery_stream_records_export', summary: 'Export the stream records of the organization\'s subscriptions as NDJSON or JSON', description: exported('GET /v1/delivery/stream_records') }),
];

/** The page a person sees after following the link; everything shown is escaped. */
function unsubscribedPage(body: { monitorName: string; address: string; alreadyUnsubscribed: boolean }): string {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const said = body.alreadyUnsubscribed ? 'was already unsubscribed' : 'is unsubscribed';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unsubscribed</title></head><body><h1>Unsubscribed</h1><p>${escape(body.address)} ${said} from the monitor &ldquo;${escape(body.monitorName)}&rdquo;. No more match emails will be sent for it.</p><p>To receive them again, set the monitor's email delivery (POST /v1/monitors/{monitor_id}/delivery).</p></body></html>`;
}

const unsubscribeResponse = z.object({
  object: z.literal('monitor_email_unsubscribe'),
  monitorId: z.string(),
  monitorName: z.string(),
  address: z.string().describe('Masked'),
  unsubscribedAt: z.iso.datetime(),
  alreadyUnsubscribed: z.boolean().describe('Nothing changed: the link was used before, or the monitor no longer emails that address'),
  requestId: z.string(),
});

const unsubscribeRoute = (method: 'GET' | 'POST', name: string, summary: string): Route => ({
  ...operationRoute({
    name,
    method,
    path: '/v1/delivery/unsubscribe',
    summary,
    description:
      'Public: the HMAC-signed `token` of a monitor digest\'s link is the credential (it names the monitor and the address, and does not expire). Turns that monitor\'s email delivery off; the same link again answers the same (`alreadyUnsubscribed: true`). A browser (Accept: text/html) gets a short confirmation page, other clients this JSON. An altered or truncated token is `400 unsubscribe_link_invalid`. Not an MCP tool: it is a link for people.',
    tag: 'Delivery',
    access: 'public',
    meter: null,
    params: { query: z.strictObject({ token: z.string().min(1).max(512).describe('From the link') }) },
    response: unsubscribeResponse,
    errors: ['unsubscribe_link_invalid'],
    operation: UnsubscribeMonitorEmailDocument,
    variables: ({ query }) => ({ token: query.token }),
  }).reshape(({ unsubscribeMonitorEmail: u }, meta) => ({ object: 'monitor_email_unsubscribe', ...u, ...meta })),
  page: unsubscribedPage,
});

export const unsubscribeRoutes: Route[] = [
  unsubscribeRoute('GET', 'delivery_unsubscribe', 'Unsubscribe a monitor\'s email delivery (the link in its digests)'),
  unsubscribeRoute('POST', 'delivery_unsubscribe_one_click', 'One-click unsubscribe (RFC 8058 List-Unsubscribe-Post), the same as the GET'),
];
