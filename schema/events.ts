// An event of the log, as GraphQL serves it: read back by diagnostics, and by stream subscriptions
// (whose events also carry a cursor). Both types implement one interface, so its fields are written once.
import type { LoggedEvent as LogRow } from '../subscriptions/eventLog.ts';
import { builder } from './builder.ts';

export type EventShape = Pick<LogRow, 'id' | 'type' | 'orgId' | 'requestId' | 'payload'> & { createdAt: Date | string };

export const EventInterface = builder.interfaceRef<EventShape>('LogEvent').implement({
  description: 'An event of the log: `{id, type, createdAt, orgId, requestId, data}`, as webhooks and streams deliver it.',
  fields: (t) => ({
    id: t.exposeString('id', { description: '`evt_…`' }),
    type: t.exposeString('type'),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.createdAt }),
    orgId: t.exposeString('orgId', { nullable: true, description: 'null for public data events' }),
    requestId: t.exposeString('requestId', { nullable: true, description: 'The request that caused it, when one did' }),
    data: t.field({ type: 'JSON', description: 'The event\'s data, shaped per type (GET /v1/event_types)', resolve: (e) => e.payload }),
  }),
});

export const LoggedEvent = builder.objectRef<EventShape>('LoggedEvent').implement({
  description: 'An event a request caused.',
  interfaces: [EventInterface],
  isTypeOf: (value) => !(value as { cursor?: unknown }).cursor,
});
