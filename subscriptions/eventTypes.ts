// The catalog of event types: what each means and the shape of its `data`. Served at
// GET /v1/event_types and listed in the OpenAPI document; webhook endpoints and stream
// subscriptions may name only these types (or `*`).
import { z } from 'zod';

export interface EventType {
  type: string;
  description: string;
  /** public data events (orgId null) reach an organization only when it names their type */
  public: boolean;
  data: z.ZodType;
}

const webhookEndpointId = z.string().describe('The endpoint, `we_…`');

/** What the audit log records (GET /v1/org/audit-log); each is also the event `org.audit.<action>`. */
export const auditActions = {
  'session.signed_in': 'A person signed in to the organization.',
  'api_key.created': 'An API key was created.',
  'api_key.revoked': 'An API key was revoked.',
  'member.invited': 'A person was invited to the organization.',
  'member.invitation_revoked': 'A pending invitation was withdrawn.',
  'member.joined': 'A person accepted an invitation and joined.',
  'member.removed': 'A member was removed, or left.',
  'member.role_changed': 'A member\'s role was changed.',
  'ownership.transferred': 'An owner handed ownership to another member.',
  'budget.changed': 'The monthly budget controls or auto-top-up settings were changed.',
  'plan.changed': 'The organization\'s plan was changed.',
  'payment_method.changed': 'A payment method was saved, changed or removed.',
  'webhook.secret_rotated': 'A webhook endpoint\'s signing secret was rotated.',
  'organization.suspended': 'An operator suspended the organization.',
  'organization.unsuspended': 'An operator lifted the organization\'s suspension.',
  'credits.adjusted': 'An operator adjusted the credit balance.',
} as const;
export type AuditAction = keyof typeof auditActions;

export const eventTypes: EventType[] = [
  {
    type: 'filing.added',
    public: true,
    description: 'A filing the service did not hold was ingested (from the EDGAR index, submissions or a document).',
    data: z.object({
      accessionNumber: z.string(),
      cik: z.string().describe('10 digits'),
      form: z.string(),
      filedAt: z.string().nullable().describe('YYYY-MM-DD'),
      tickers: z.array(z.string()),
    }),
  },
  {
    type: 'form.added',
    public: true,
    description: 'A structured form record (Form D, 144, C, N-CEN, N-PX, 13F, 3/4/5, 13D/G, N-PORT, offering cover pages) the service did not hold was ingested.',
    data: z.object({
      id: z.string().describe('The record id: its accession number, or `doc_…`'),
      accessionNumber: z.string().nullable(),
      family: z.string().describe('D, 144, C, NCEN, NPX, …'),
      formType: z.string(),
      cik: z.string().nullable(),
      filedAt: z.string().nullable().describe('YYYY-MM-DD'),
    }),
  },
  {
    type: 'filing_event.added',
    public: true,
    description: 'An event a filing discloses (an 8-K item, an offering or M&A signal) was ingested: from the filing index, or from its document (which supersedes the index\'s event under a new id).',
    data: z.object({
      id: z.string(),
      accessionNumber: z.string().nullable(),
      cik: z.string().nullable(),
      item: z.string().nullable().describe('8-K item number'),
      eventType: z.string().describe('officer_change, auditor_change, restatement, voting_results, offering, ma_signal, …'),
      filedAt: z.string().nullable(),
    }),
  },
  {
    type: 'facts.added',
    public: true,
    description: 'XBRL facts the service did not hold were ingested for a company, from the filings named.',
    data: z.object({ cik: z.string(), accessionNumbers: z.array(z.string()), source: z.string().describe('companyfacts, xbrl_instance or inline_xbrl') }),
  },
  {
    type: 'signal.added',
    public: true,
    description: 'An ingest added evidence that makes a signal (GET /v1/signals) the service had not announced: a new 8-K item, late-filing notice, 13D or Form 4 in the transaction that wrote it. Announced once per signal id.',
    data: z.object({
      id: z.string().describe('`sig_…`, as GET /v1/signals lists it'),
      type: z.string().describe('officer_departure, auditor_change, non_reliance, failed_vote, late_filing, activist_stake, insider_cluster_buying, insider_cluster_selling'),
      strength: z.number().describe('0 to 1'),
      asOf: z.string().describe('YYYY-MM-DD'),
      cik: z.string(),
      accessionNumbers: z.array(z.string()).describe('The evidence'),
    }),
  },
  {
    type: 'monitor.matched',
    public: false,
    description: 'A monitor found records its saved read shows that were ingested since it last looked. Delivered to the monitor\'s webhook endpoint only (whatever event types the endpoint names), or sent as an email digest; never twice for the same records.',
    data: z.object({
      monitorId: z.string(),
      name: z.string(),
      route: z.string(),
      delivery: z.enum(['webhook', 'email']),
      matchCount: z.number().int(),
      items: z.array(z.unknown()).describe('The matched items as the route lists them (its default view), at most 25; matchCount says how many there were'),
    }),
  },
  {
    type: 'artifact.created',
    public: false,
    description: 'An analytics or intelligence result was stored as an artifact of the organization (GET /v1/artifacts/{artifact_id}, and its export).',
    data: z.object({
      artifactId: z.string().describe('`art_…`'),
      kind: z.string().describe('What made it, e.g. portfolio_analysis, portfolio_risk'),
      route: z.string().describe('The POST path that made it'),
      contentHash: z.string().describe('sha256 hex of the canonical JSON of the result'),
    }),
  },
  {
    type: 'api_key.created',
    public: false,
    description: 'An API key of the organization was created.',
    data: z.object({ apiKeyId: z.string(), name: z.string(), hint: z.string(), scopes: z.array(z.string()).optional().describe('What the key may do (absent on events from before scopes existed: organization)') }),
  },
  {
    type: 'api_key.revoked',
    public: false,
    description: 'An API key of the organization was revoked.',
    data: z.object({ apiKeyId: z.string(), hint: z.string() }),
  },
  {
    type: 'webhook.test',
    public: false,
    description: 'Sent by POST /v1/webhook_endpoints/{webhook_id}/test to that endpoint only, through the same signing and retry path as every delivery.',
    data: z.object({ webhookEndpointId, message: z.string() }),
  },
  {
    type: 'webhook_endpoint.disabled',
    public: false,
    description: 'An endpoint was disabled: by a request, by its receiver answering 410 Gone, or after failing without a success for 5 days.',
    data: z.object({ webhookEndpointId, reason: z.enum(['requested', 'gone', 'failing']), detail: z.string() }),
  },
  {
    type: 'delivery.exhausted',
    public: false,
    description: 'A delivery failed its last attempt; the event will not be sent to that endpoint again unless replayed.',
    data: z.object({ webhookEndpointId, deliveryId: z.string(), eventId: z.string(), eventType: z.string(), attempts: z.number().int() }),
  },
  ...(['created', 'updated', 'deleted'] as const).map((change) => ({
    type: `stream_subscription.${change}`,
    public: false,
    description: `A stream subscription of the organization was ${change}.`,
    data: z.object({ streamSubscriptionId: z.string(), status: z.string(), eventTypes: z.array(z.string()) }),
  })),
  ...billingEventTypes(),
  ...auditEventTypes(),
];


function auditEventTypes(): EventType[] {
  const data = z.object({
    id: z.string().describe('The audit entry, `aud_…`'),
    action: z.string(),
    actor: z.object({ type: z.enum(['user', 'api_key', 'operator', 'system']), id: z.string().nullable(), email: z.string().nullable() }),
    target: z.object({ type: z.string(), id: z.string().nullable() }).nullable(),
    details: z.record(z.string(), z.unknown()),
    requestId: z.string().nullable(),
    ipAddress: z.string().nullable(),
    createdAt: z.string(),
  });
  return Object.entries(auditActions).map(([action, description]) => ({ type: `org.audit.${action}`, public: false, description: `${description} (an audit log entry)`, data }));
}

function billingEventTypes(): EventType[] {
  const cents = z.number().int();
  const billing = (type: string, description: string, data: z.ZodType) => ({ type: `billing.${type}`, public: false, description, data });
  return [
    billing('plan_changed', 'The organization\'s plan or billing state changed: a subscription notice from the processor, the starter grant running out into pay-as-you-go, or an operator.', z.object({ planKey: z.string().nullable(), billingState: z.string(), reason: z.string() })),
    billing('soft_cap_reached', 'The month\'s credit spend reached the soft cap; sent once per month.', z.object({ period: z.string().describe('YYYY-MM'), softCapCents: cents, periodSpendMillicents: cents })),
    billing('budget_updated', 'The budget controls were changed.', z.object({ hardCapCents: cents.nullable(), softCapCents: cents.nullable(), approvalThresholdCents: cents.nullable() })),
    billing('grant_reset', 'The starter grant was re-granted.', z.object({ calls: cents })),
    billing('credits_topped_up', 'A top-up was confirmed by the processor and its credit added.', z.object({ paymentIntentId: z.string(), creditCents: cents, auto: z.boolean() })),
    billing('credits_refunded', 'Unspent credit of a top-up was refunded.', z.object({ paymentIntentId: z.string(), refundId: z.string(), amountCents: cents })),
    billing('credits_adjusted', 'An operator adjusted the credit balance.', z.object({ amountCents: cents, reason: z.string(), balanceAfterMillicents: cents })),
    billing('topup_failed', 'A top-up payment failed at the processor.', z.object({ paymentIntentId: z.string(), code: z.string(), auto: z.boolean() })),
    billing(
      'balance_low',
      'Charged requests, or a refund of credit, took the prepaid credit balance below the low-balance threshold (`thresholdCents` of PUT /v1/billing/credits/auto-topup, whether auto-top-up is on or not); written in the transaction of the debit or refund that crossed it, once per fall: again only after the balance has been back at or above the threshold (a top-up re-arms it).',
      z.object({
        thresholdCents: cents,
        balanceMillicents: cents.describe('The balance the debit or refund left'),
        autoTopup: z.boolean().describe('Whether auto-top-up was enabled, and so refills the balance'),
      }),
    ),
    billing('auto_topup_failed', 'An auto-top-up could not be paid with any saved method; auto-top-up pauses until the next top-up or settings change.', z.object({ failures: z.array(z.object({ paymentMethodId: z.string(), code: z.string() })), reason: z.string() })),
  ];
}

const byType = new Map(eventTypes.map((t) => [t.type, t]));

export function isEventType(type: string): boolean {
  return byType.has(type);
}

export function isPublicEventType(type: string): boolean {
  return byType.get(type)?.public ?? false;
}

/** The catalog as served: each type with the JSON Schema of its data. */
export function eventTypeCatalog() {
  return eventTypes.map((t) => ({ object: 'event_type' as const, type: t.type, description: t.description, public: t.public, dataSchema: z.toJSONSchema(t.data) as Record<string, unknown> }));
}
