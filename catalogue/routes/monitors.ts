// Monitors (SPEC 4.7): saved list reads that watch for new records, their delivery, their
// matches since the last check, and the plain-English compiler.
import { z } from 'zod';
import {
  CheckMonitorMatchesDocument,
  CompileMonitorDocument,
  CreateMonitorDocument,
  DeleteMonitorDocument,
  MonitorDocument,
  MonitorsDocument,
  SetMonitorDeliveryDocument,
  type MonitorFieldsFragment,
} from '../operations/generated.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';

const what =
  'A monitor saves one list read: `query.route` is its path (`/v1/filings`, `/v1/forms/{d,144,c,1-a,ncen,npx}`, `/v1/events/{officer-changes,auditor-changes,restatements,voting-results,ipo,ma,enforcement}` or `/v1/facts`) and `query.params` its query parameters, checked by that route\'s own schema (`limit`, `cursor` and `view` are left out: a monitor pages by itself). A fact read may add `query.threshold: {below?, above?}` (decimal strings): only facts past it match. ' +
  'Its matches are the records the read shows that were ingested after the monitor last looked, in the order the service ingested them: a filing accepted long ago but ingested today is new today. ' +
  'Records are announced by public events (`filing.added`, `form.added`, `filing_event.added`, `facts.added`), kept 30 days: a monitor not checked for longer than that misses what was announced before. ' +
  'With a `delivery`, each batch of matches is also sent by itself as a `monitor.matched` event, to that webhook endpoint only (whatever event types it names), or as an email digest with a signed unsubscribe link; never twice. GET …/matches has its own position: reading matches and receiving them are independent. ' +
  'Field names: `monitor_id`, `is_active` and `last_checked_at` are as SPEC names them; the rest follow the API\'s camelCase.';

const monitorId = z.string().regex(/^mon_[0-9A-Za-z]{24}$/, 'expected a monitor id, mon_ and 24 letters or digits');
const monitorPath = z.strictObject({ monitor_id: monitorId });
const decimal = z.string().regex(/^-?\d{1,30}(\.\d{1,12})?$/, 'expected a decimal number as a string, e.g. "1000000000"');

const querySchema = z.strictObject({
  route: z.string().min(1).max(100).describe('The path of a list read, e.g. /v1/events/officer-changes'),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}).describe('Its query parameters, as in a query string'),
  threshold: z.strictObject({ below: decimal.optional(), above: decimal.optional() }).optional().describe('/v1/facts only: a fact matches when its value is below and/or above these'),
});

const deliverySchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('webhook'), webhookEndpointId: z.string().min(1).max(100).describe('An endpoint of the organization, `we_…`') }),
    z.strictObject({ type: z.literal('email'), address: z.string().min(3).max(254).describe('Where digests go; each carries a signed unsubscribe link') }),
  ])
  .describe('{type: "webhook", webhookEndpointId} or {type: "email", address}');

const monitor = z.object({
  object: z.literal('monitor'),
  id: z.string().describe('`mon_…`'),
  monitor_id: z.string().describe('The same id, by the name SPEC gives it'),
  name: z.string(),
  query: z.object({ route: z.string(), params: z.record(z.string(), z.string()), threshold: z.object({ below: z.string().optional(), above: z.string().optional() }).optional() }),
  delivery: z.union([z.object({ type: z.literal('webhook'), webhookEndpointId: z.string() }), z.object({ type: z.literal('email'), address: z.string() })]).nullable(),
  emailUnsubscribedAt: z.iso.datetime().nullable().describe('When the email delivery was turned off by its unsubscribe link; setting the delivery again turns it back on'),
  is_active: z.boolean(),
  last_checked_at: z.iso.datetime().nullable().describe('When GET …/matches last moved on'),
  deactivatedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

type MonitorBody = z.input<typeof monitor>;
const toMonitor = (m: MonitorFieldsFragment): MonitorBody => ({
  object: 'monitor',
  id: m.id,
  monitor_id: m.id,
  name: m.name,
  query: m.query as MonitorBody['query'],
  delivery: (m.delivery ?? null) as MonitorBody['delivery'],
  emailUnsubscribedAt: m.emailUnsubscribedAt,
  is_active: m.isActive,
  last_checked_at: m.lastCheckedAt,
  deactivatedAt: m.deactivatedAt,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

const common = { tag: 'Monitors', access: 'org' as const, meter: 'platform' };

export const monitorRoutes = [
  operationRoute({
    name: 'monitors_list',
    method: 'GET',
    path: '/v1/monitors',
    summary: 'List the organization\'s monitors, newest first',
    description: what,
    ...common,
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(monitor),
    operation: MonitorsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ monitors: page }, meta) => ({
    object: 'list',
    data: page.nodes.map(toMonitor),
    hasMore: page.pageInfo.hasNextPage,
    nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
    ...meta,
  })),
  operationRoute({
    name: 'monitors_create',
    method: 'POST',
    path: '/v1/monitors',
    summary: 'Create a monitor, with an optional webhook or email delivery',
    description: `${what} An email delivery needs the service's SMTP (503 \`email_delivery_unavailable\` without it).`,
    ...common,
    params: { body: z.strictObject({ name: z.string().min(1).max(200), query: querySchema, delivery: deliverySchema.optional() }) },
    response: monitor.extend({ requestId: z.string() }),
    errors: ['webhook_endpoint_not_found', 'email_delivery_unavailable'],
    operation: CreateMonitorDocument,
    variables: ({ body }) => ({ name: body.name, query: body.query, delivery: body.delivery ?? null }),
  }).reshape(({ createMonitor: m }, meta) => ({ ...toMonitor(m), ...meta })),
  operationRoute({
    name: 'monitors_compile',
    method: 'POST',
    path: '/v1/monitors/compile',
    summary: 'Compile a plain-English alert request into a monitor spec',
    description:
      'Deterministic and offline: a grammar over companies (ticker or name, resolved against the entities the service holds), form types, 8-K items by number or name, fact thresholds ("revenue below 1B", "net loss"), date windows and a delivery ("email me at …", "to my webhook"). The `query` it returns is one the route accepts; what it could not place is in `unparsed`. Text with nothing usable is 400 `validation_error`. Pass `query` and `delivery` to POST /v1/monitors.',
    ...common,
    mcp: true,
    params: { body: z.strictObject({ text: z.string().min(1).max(1000).describe('e.g. "email me at ops@example.com when Apple reports an officer change"') }) },
    response: z.object({
      object: z.literal('monitor_spec'),
      query: querySchema.extend({ params: z.record(z.string(), z.string()) }),
      delivery: deliverySchema.nullable(),
      confidence: z.number().min(0).max(1),
      unparsed: z.array(z.string()),
      explanation: z.string(),
      requestId: z.string(),
    }),
    operation: CompileMonitorDocument,
    variables: ({ body }) => ({ text: body.text }),
  }).reshape(({ compileMonitor: c }, meta) => ({ object: 'monitor_spec', ...c, query: c.query as never, delivery: (c.delivery ?? null) as never, ...meta })),
  operationRoute({
    name: 'monitors_get',
    method: 'GET',
    path: '/v1/monitors/{monitor_id}',
    summary: 'Retrieve a monitor',
    ...common,
    mcp: true,
    params: { path: monitorPath, query: z.strictObject({ view: viewParam }) },
    response: monitor.extend({ requestId: z.string() }),
    errors: ['monitor_not_found'],
    operation: MonitorDocument,
    variables: ({ path }) => ({ id: path.monitor_id }),
  }).reshape(({ monitor: m }, meta) => ({ ...toMonitor(m), ...meta })),
  operationRoute({
    name: 'monitors_delete',
    method: 'DELETE',
    path: '/v1/monitors/{monitor_id}',
    summary: 'Deactivate a monitor (idempotent)',
    description: 'The monitor stops watching (`is_active: false`) and is kept; deleting it again answers the same.',
    ...common,
    params: { path: monitorPath },
    response: monitor.extend({ requestId: z.string() }),
    errors: ['monitor_not_found'],
    operation: DeleteMonitorDocument,
    variables: ({ path }) => ({ id: path.monitor_id }),
  }).reshape(({ deleteMonitor: m }, meta) => ({ ...toMonitor(m), ...meta })),
  operationRoute({
    name: 'monitors_delivery_set',
    method: 'POST',
    path: '/v1/monitors/{monitor_id}/delivery',
    summary: 'Set or replace where a monitor\'s matches are delivered',
    description: '`{delivery: {type: "webhook", webhookEndpointId}}`, `{delivery: {type: "email", address}}`, or `{delivery: null}` to deliver nowhere. Setting an email delivery again turns it back on after an unsubscribe.',
    ...common,
    params: { path: monitorPath, body: z.strictObject({ delivery: deliverySchema.nullable() }) },
    response: monitor.extend({ requestId: z.string() }),
    errors: ['monitor_not_found', 'webhook_endpoint_not_found', 'email_delivery_unavailable'],
    operation: SetMonitorDeliveryDocument,
    variables: ({ path, body }) => ({ id: path.monitor_id, delivery: body.delivery }),
  }).reshape(({ setMonitorDelivery: m }, meta) => ({ ...toMonitor(m), ...meta })),
  operationRoute({
    name: 'monitors_matches',
    method: 'GET',
    path: '/v1/monitors/{monitor_id}/matches',
    summary: 'Run the saved read over what was ingested since the last check, and move the check on',
    description:
      'Returns the items (as the saved read lists them) of records ingested since `last_checked_at`, oldest first, and moves the check past them in the same transaction: consecutive and concurrent calls never return an item twice or skip one. `peek=true` reads without moving. `hasMore: true`: more are waiting; call again. A page ends at a record boundary (a fact read returns every fact of a filing together). A deactivated monitor answers 409 `monitor_inactive`.',
    tag: 'Monitors',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      path: monitorPath,
      query: z.strictObject({
        peek: z.enum(['true', 'false']).default('false').describe('Read without moving the check on'),
        limit: pageParams.limit,
        view: viewParam,
      }),
    },
    response: z.object({
      object: z.literal('monitor_matches'),
      monitorId: z.string(),
      data: z.array(z.record(z.string(), z.unknown())),
      hasMore: z.boolean(),
      since: z.iso.datetime().nullable().describe('The check these matches follow; null: since the monitor was created'),
      checkedAt: z.iso.datetime(),
      peek: z.boolean(),
      last_checked_at: z.iso.datetime().nullable(),
      requestId: z.string(),
    }),
    errors: ['monitor_not_found', 'monitor_inactive'],
    operation: CheckMonitorMatchesDocument,
    variables: ({ path, query }) => ({ id: path.monitor_id, peek: query.peek === 'true', limit: query.limit }),
  }).reshape(({ checkMonitorMatches: m }, meta) => ({
    object: 'monitor_matches',
    monitorId: m.monitor.id,
    data: m.items as Record<string, unknown>[],
    hasMore: m.hasMore,
    since: m.since,
    checkedAt: m.checkedAt,
    peek: m.peek,
    last_checked_at: m.monitor.lastCheckedAt,
    ...meta,
  })),
];
