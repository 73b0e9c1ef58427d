// Alerts: the organization's events that need a person, and acknowledging them
// (resolvers/alerts.ts). An alert's id is its event's id.
import { z } from 'zod';
import { AcknowledgeAlertDocument, AlertsDocument, type AlertFieldsFragment } from '../operations/generated.ts';
import { alertSeverities, alertStatuses, alertTypes, severityRules } from '../../resolvers/alerts.ts';
import { eventRetentionDays } from '../../subscriptions/eventLog.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';
import { instant } from './diagnostics.ts';

const alert = z.object({
  object: z.literal('alert'),
  id: z.string().describe('The event, `evt_…` (the same id webhooks and streams deliver it with)'),
  type: z.enum(alertTypes as [string, ...string[]]).describe('The event type'),
  severity: z.enum(alertSeverities).describe(severityRules),
  title: z.string().describe('One line for a person, built from the event\'s data'),
  createdAt: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()).describe('The event\'s data, shaped per type (GET /v1/event_types)'),
  links: z
    .object({
      monitorId: z.string().nullable().describe('`mon_…` (monitor.matched)'),
      webhookEndpointId: z.string().nullable().describe('`we_…` (webhook_endpoint.disabled, delivery.exhausted)'),
      deliveryId: z.string().nullable().describe('The last attempt, `del_…` (delivery.exhausted; replayable)'),
    })
    .describe('What the alert is about; null where it does not concern one'),
  acknowledged: z.object({ by: z.string().describe('The person (`usr_…`) or API key (`key_…`)'), at: z.iso.datetime() }).nullable().describe('null while open'),
});

const toAlert = (a: AlertFieldsFragment) => ({ object: 'alert' as const, ...a, data: a.data as Record<string, unknown> });

const common = { tag: 'Alerts', access: 'org' as const, meter: 'platform', mcp: true };
const kinds =
  'An alert is an event of the organization that needs a person: `monitor.matched`, `webhook_endpoint.disabled`, `delivery.exhausted`, `billing.soft_cap_reached`, `billing.balance_low` (charged requests or a refund took the prepaid balance below the low-balance threshold of PUT /v1/billing/credits/auto-topup; once per fall) and `billing.auto_topup_failed`. ' +
  `Its id is the event's; it is kept as long as the event (${eventRetentionDays} days).`;

export const alertRoutes = [
  operationRoute({
    name: 'alerts_list',
    method: 'GET',
    path: '/v1/alerts',
    summary: 'The organization\'s alerts, newest first: open ones unless told',
    description: `${kinds} Each has a severity, a one-line title, the event's data, links to what it concerns and who acknowledged it. ${severityRules}`,
    ...common,
    params: {
      query: z.strictObject({
        ...pageParams,
        type: z.enum(alertTypes as [string, ...string[]]).optional().describe('Only alerts of this event type'),
        status: z.enum(alertStatuses).default('open').describe('`open` (default: not acknowledged), `acknowledged` or `all`'),
        from: instant.optional().describe('Only alerts at or after this time (ISO-8601)'),
        to: instant.optional().describe('Only alerts before this time (ISO-8601)'),
        view: viewParam,
      }),
    },
    response: listEnvelope(alert),
    operation: AlertsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, type: query.type ?? null, status: query.status, from: query.from ?? null, to: query.to ?? null }),
  }).reshape(({ alerts: page }, meta) => ({
    object: 'list',
    data: page.nodes.map(toAlert),
    hasMore: page.pageInfo.hasNextPage,
    nextCursor: page.pageInfo.hasNextPage ? (page.pageInfo.endCursor ?? null) : null,
    ...meta,
  })),
  operationRoute({
    name: 'alerts_acknowledge',
    method: 'POST',
    path: '/v1/alerts/{alert_id}/acknowledge',
    summary: 'Acknowledge an alert',
    description:
      'Any member may acknowledge; an API key needs the organization scope (a read key is 403 insufficient_scope). Idempotent: acknowledging again answers the first acknowledgement, unchanged. An id that is not an alert of this organization (unknown, purged, of another type or of another organization) is 404 alert_not_found.',
    ...common,
    params: { path: z.strictObject({ alert_id: z.string().regex(/^evt_[0-9A-Za-z]{24}$/, 'expected an alert id, evt_ and 24 letters or digits') }) },
    response: alert.extend({ requestId: z.string() }),
    errors: ['alert_not_found'],
    operation: AcknowledgeAlertDocument,
    variables: ({ path }) => ({ alertId: path.alert_id }),
  }).reshape(({ acknowledgeAlert: a }, meta) => ({ ...toAlert(a), ...meta })),
];
