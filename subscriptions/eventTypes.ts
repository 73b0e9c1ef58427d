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
    type: 'api_key.created',
    public: false,
    description: 'An API key of the organization was created.',
    data: z.object({ apiKeyId: z.string(), name: z.string(), hint: z.string() }),
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
];

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
