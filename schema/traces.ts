// A request's trace (resolvers/traces.ts): the request as recorded and its spans, each naming its
// parent, in the order they started (GET /v1/traces/{request_id} nests them).
import type { RecordedSpan } from '../core/requestSpans.ts';
import { requestTrace } from '../resolvers/traces.ts';
import { builder } from './builder.ts';
import { RequestRecord } from './diagnostics.ts';

type Trace = Awaited<ReturnType<typeof requestTrace>>;

const TraceSpan = builder.objectRef<RecordedSpan>('TraceSpan').implement({
  description: 'One span of a request: a door, the executor, a root field, an SQL statement, a Redis call or an outgoing call.',
  fields: (t) => ({
    spanId: t.exposeString('spanId'),
    parentSpanId: t.exposeString('parentSpanId', { nullable: true, description: 'null for the request\'s own span (its door)' }),
    name: t.exposeString('name'),
    kind: t.exposeString('kind', { description: 'server (the door), client (SQL, Redis, an outgoing call) or internal' }),
    startMs: t.exposeFloat('startMs', { description: 'When it started, in ms after the request\'s own span started' }),
    durationMs: t.exposeFloat('durationMs'),
    status: t.exposeString('status', { description: 'unset, ok or error' }),
    attributes: t.field({ type: 'JSON', description: 'What the span says about itself: an SQL statement\'s shape (no literal values), an HTTP method and host…', resolve: (s) => s.attributes }),
  }),
});

const RequestTrace = builder.objectRef<Trace>('RequestTrace').implement({
  description: 'A request of the organization and the spans it was traced with.',
  fields: (t) => ({
    request: t.field({ type: RequestRecord, resolve: (tr) => tr.record }),
    traceId: t.string({ description: 'The W3C trace id (the trace id of the response\'s traceparent header)', resolve: (tr) => tr.trace.traceId }),
    spans: t.field({ type: [TraceSpan], description: 'The request\'s own span first, the others in the order they started', resolve: (tr) => tr.trace.spans }),
    droppedSpans: t.int({ description: 'Spans past the most a request keeps (500)', resolve: (tr) => tr.trace.droppedSpans }),
  }),
});

builder.queryFields((t) => ({
  requestTrace: t.field({
    type: RequestTrace,
    description: 'The spans of one request of the organization.',
    args: { requestId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => requestTrace(ctx, args.requestId),
  }),
}));
