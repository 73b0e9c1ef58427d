// Webhook endpoints (SPEC 4.9) and the event type catalog (SPEC 6).
import { z } from 'zod';
import {
  CreateWebhookEndpointDocument,
  DeleteWebhookEndpointDocument,
  EventTypesDocument,
  ReplayWebhookDeliveryDocument,
  RotateWebhookSecretDocument,
  TestWebhookEndpointDocument,
  UpdateWebhookEndpointDocument,
  WebhookDeliveriesDocument,
  WebhookEndpointsDocument,
  type WebhookDeliveryFieldsFragment,
  type WebhookEndpointFieldsFragment,
} from '../operations/generated.ts';
import { eventRetentionDays } from '../../subscriptions/eventLog.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';

const signing =
  'Deliveries follow Standard Webhooks v1: headers `webhook-id` (the event id, the same on every retry and replay), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` keyed by the secret\'s base64 part; two space-separated signatures for 24 hours after a rotation). ' +
  'The body is the event: `{object: "event", id, type, createdAt, orgId, requestId, data}`. A 2xx within 15 s is success; 3xx is a failure (redirects are not followed); 410 disables the endpoint; 429 and 503 are retried no sooner than their Retry-After. ' +
  'Attempts at 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after each failure (about 3 days, ±10 % jitter), then `delivery.exhausted`; an endpoint without a success for 5 days is disabled (`webhook_endpoint.disabled`).';

const endpoint = z.object({
  object: z.literal('webhook_endpoint'),
  id: z.string().describe('`we_…`'),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
  status: z.enum(['enabled', 'disabled']),
  disabledReason: z.enum(['requested', 'gone', 'failing']).nullable(),
  secretRotatedUntil: z.iso.datetime().nullable().describe('Until then deliveries are also signed with the previous secret'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const delivery = z.object({
  object: z.literal('webhook_delivery'),
  id: z.string().describe('`del_…`'),
  webhookEndpointId: z.string(),
  eventId: z.string().describe('The webhook-id of every attempt of this event'),
  eventType: z.string(),
  attempt: z.number().int().describe('1 to 10'),
  status: z.enum(['pending', 'succeeded', 'failed', 'retrying']).describe('`retrying`: this attempt failed and the next one is scheduled; `failed`: final'),
  replayOf: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  responseExcerpt: z.string().nullable().describe('At most 1 KB of the receiver\'s answer'),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  attemptedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

const toEndpoint = (e: WebhookEndpointFieldsFragment) => ({ object: 'webhook_endpoint' as const, ...e, status: e.status as 'enabled' | 'disabled', disabledReason: e.disabledReason as 'requested' | 'gone' | 'failing' | null });
export const toDelivery = (d: WebhookDeliveryFieldsFragment) => ({ object: 'webhook_delivery' as const, ...d, status: d.status as 'pending' | 'succeeded' | 'failed' | 'retrying' });

const endpointId = z.string().regex(/^we_[0-9A-Za-z]{24}$/, 'expected a webhook endpoint id, we_ and 24 letters or digits');
const deliveryId = z.string().regex(/^del_[0-9A-Za-z]{24}$/, 'expected a delivery id, del_ and 24 letters or digits');
const endpointPath = z.strictObject({ webhook_id: endpointId });
const eventTypes = z.array(z.string().min(1).max(100)).min(1).max(50).describe('Event types from GET /v1/event_types, or ["*"] for every event of the organization. Public data events (filing.added) are delivered only when named.');
const fields = {
  url: z.string().max(2048).describe('https; its host must resolve only to public addresses (IDS_WEBHOOK_ALLOWED_HOSTS exempts hosts, for local receivers)'),
  description: z.string().max(500),
  eventTypes,
};
const withSecret = endpoint.extend({ secret: z.string().describe('`whsec_…`: shown only in this answer; store it now'), requestId: z.string() });
const common = { tag: 'Webhooks', access: 'org' as const, meter: 'platform' };
const endpointErrors = ['webhook_endpoint_not_found'];

export const webhookRoutes = [
  operationRoute({
    name: 'event_types_list',
    method: 'GET',
    path: '/v1/event_types',
    summary: 'The catalog of event types, each with the JSON Schema of its data',
    description: `Events are kept ${eventRetentionDays} days.`,
    ...common,
    mcp: true,
    params: { query: z.strictObject({ view: viewParam }) },
    response: z.object({
      object: z.literal('list'),
      data: z.array(z.object({ object: z.literal('event_type'), type: z.string(), description: z.string(), public: z.boolean(), dataSchema: z.record(z.string(), z.unknown()) })),
      retentionDays: z.number().int(),
      requestId: z.string(),
    }),
    operation: EventTypesDocument,
  }).reshape(({ eventTypes: types }, meta) => ({
    object: 'list',
    data: types.map((t) => ({ object: 'event_type', ...t, dataSchema: t.dataSchema as Record<string, unknown> })),
    retentionDays: eventRetentionDays,
    ...meta,
  })),
  operationRoute({
    name: 'webhook_endpoints_list',
    method: 'GET',
    path: '/v1/webhook_endpoints',
    summary: 'List the organization\'s webhook endpoints, newest first',
    ...common,
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(endpoint),
    operation: WebhookEndpointsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ webhookEndpoints: page }, meta) => ({
    object: 'list',
    data: page.nodes.map(toEndpoint),
    hasMore: page.pageInfo.hasNextPage,
    nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
    ...meta,
  })),
  operationRoute({
    name: 'webhook_endpoints_create',
    method: 'POST',
    path: '/v1/webhook_endpoints',
    summary: 'Create a signed endpoint; its signing secret is shown once',
    description: signing,
    ...common,
    params: { body: z.strictObject({ url: fields.url, description: fields.description.optional(), eventTypes: eventTypes.default(['*']) }) },
    response: withSecret,
    operation: CreateWebhookEndpointDocument,
    variables: ({ body }) => ({ input: { url: body.url, description: body.description ?? null, eventTypes: body.eventTypes } }),
  }).reshape(({ createWebhookEndpoint: r }, meta) => ({ ...toEndpoint(r.endpoint), secret: r.secret, ...meta })),
  operationRoute({
    name: 'webhook_endpoints_update',
    method: 'PATCH',
    path: '/v1/webhook_endpoints/{webhook_id}',
    summary: 'Update URL, description, event types or status',
    description: '`status: "disabled"` stops deliveries (pending attempts are not sent); `"enabled"` resumes them for new events.',
    ...common,
    params: { path: endpointPath, body: z.strictObject({ ...fields, status: z.enum(['enabled', 'disabled']) }).partial() },
    response: endpoint.extend({ requestId: z.string() }),
    errors: endpointErrors,
    operation: UpdateWebhookEndpointDocument,
    variables: ({ path, body }) => ({ id: path.webhook_id, input: { url: body.url ?? null, description: body.description ?? null, eventTypes: body.eventTypes ?? null, status: body.status ?? null } }),
  }).reshape(({ updateWebhookEndpoint: e }, meta) => ({ ...toEndpoint(e), ...meta })),
  operationRoute({
    name: 'webhook_endpoints_delete',
    method: 'DELETE',
    path: '/v1/webhook_endpoints/{webhook_id}',
    summary: 'Delete an endpoint, keeping its delivery history',
    description: 'Idempotent. A deleted endpoint receives nothing and is no longer listed; its deliveries stay in diagnostics and export.',
    ...common,
    params: { path: endpointPath },
    response: endpoint.extend({ deleted: z.literal(true), requestId: z.string() }),
    errors: endpointErrors,
    operation: DeleteWebhookEndpointDocument,
    variables: ({ path }) => ({ id: path.webhook_id }),
  }).reshape(({ deleteWebhookEndpoint: e }, meta) => ({ ...toEndpoint(e), deleted: true as const, ...meta })),
  operationRoute({
    name: 'webhook_deliveries_list',
    method: 'GET',
    path: '/v1/webhook_endpoints/{webhook_id}/deliveries',
    summary: 'List an endpoint\'s delivery attempts, newest first',
    ...common,
    mcp: true,
    params: {
      path: endpointPath,
      query: z.strictObject({ ...pageParams, status: z.enum(['pending', 'succeeded', 'failed', 'retrying']).optional().describe('Only attempts in this status'), view: viewParam }),
    },
    response: listEnvelope(delivery),
    errors: endpointErrors,
    operation: WebhookDeliveriesDocument,
    variables: ({ path, query }) => ({ endpointId: path.webhook_id, first: query.limit, after: query.cursor ?? null, status: query.status ?? null }),
  }).reshape(({ webhookDeliveries: page }, meta) => ({
    object: 'list',
    data: page.nodes.map(toDelivery),
    hasMore: page.pageInfo.hasNextPage,
    nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
    ...meta,
  })),
  operationRoute({
    name: 'webhook_deliveries_replay',
    method: 'POST',
    path: '/v1/webhook_endpoints/{webhook_id}/deliveries/{delivery_id}/replay',
    summary: 'Re-send the event of a stored attempt',
    description: 'Answers the new delivery (attempt 1, `replayOf` the source); it carries the same webhook-id, so receivers that deduplicate see it once.',
    ...common,
    params: { path: z.strictObject({ webhook_id: endpointId, delivery_id: deliveryId }) },
    response: delivery.extend({ requestId: z.string() }),
    errors: [...endpointErrors, 'delivery_not_found', 'event_not_found', 'webhook_endpoint_disabled'],
    operation: ReplayWebhookDeliveryDocument,
    variables: ({ path }) => ({ endpointId: path.webhook_id, deliveryId: path.delivery_id }),
  }).reshape(({ replayWebhookDelivery: d }, meta) => ({ ...toDelivery(d), ...meta })),
  ...(['disable', 'enable'] as const).map((action) =>
    operationRoute({
      name: `webhook_endpoints_${action}`,
      method: 'POST',
      path: `/v1/webhook_endpoints/{webhook_id}/${action}`,
      summary: action === 'disable' ? 'Disable an endpoint, keeping its delivery history' : 'Enable an endpoint',
      ...common,
      params: { path: endpointPath },
      response: endpoint.extend({ requestId: z.string() }),
      errors: endpointErrors,
      operation: UpdateWebhookEndpointDocument,
      variables: ({ path }) => ({ id: path.webhook_id, input: { url: null, description: null, eventTypes: null, status: action === 'disable' ? 'disabled' : 'enabled' } }),
    }).reshape(({ updateWebhookEndpoint: e }, meta) => ({ ...toEndpoint(e), ...meta })),
  ),
  operationRoute({
    name: 'webhook_endpoints_rotate_secret',
    method: 'POST',
    path: '/v1/webhook_endpoints/{webhook_id}/rotate_secret',
    summary: 'Rotate the signing secret; the new one is shown once',
    description: 'For 24 hours every delivery carries two signatures, with the old and the new secret, so receivers can roll over.',
    ...common,
    params: { path: endpointPath },
    response: withSecret,
    errors: endpointErrors,
    operation: RotateWebhookSecretDocument,
    variables: ({ path }) => ({ id: path.webhook_id }),
  }).reshape(({ rotateWebhookSecret: r }, meta) => ({ ...toEndpoint(r.endpoint), secret: r.secret, ...meta })),
  operationRoute({
    name: 'webhook_endpoints_test',
    method: 'POST',
    path: '/v1/webhook_endpoints/{webhook_id}/test',
    summary: 'Send a signed `webhook.test` event to this endpoint',
    description: 'The event goes through the same signing, delivery and retry path as every event; answers its delivery (pending).',
    ...common,
    params: { path: endpointPath },
    response: delivery.extend({ requestId: z.string() }),
    errors: [...endpointErrors, 'webhook_endpoint_disabled'],
    operation: TestWebhookEndpointDocument,
    variables: ({ path }) => ({ id: path.webhook_id }),
  }).reshape(({ testWebhookEndpoint: d }, meta) => ({ ...toDelivery(d), ...meta })),
];
