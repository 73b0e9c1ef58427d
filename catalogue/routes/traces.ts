// Traces: the spans one request of the organization was traced with (door, executor, root fields,
// SQL, Redis, outgoing calls), nested as they ran (resolvers/traces.ts).
import { z } from 'zod';
import { RequestTraceDocument, type RequestTraceQuery } from '../operations/generated.ts';
import { requestDoors } from '../../resolvers/requests.ts';
import { operationRoute, viewParam } from '../route.ts';

type FlatSpan = RequestTraceQuery['requestTrace']['spans'][number];
type SpanAttributes = Record<string, string | number | boolean | Array<string | number | boolean | null>>;

const spanFields = {
  object: z.literal('span'),
  spanId: z.string(),
  name: z.string().describe('`rest requests_list`, `execute RequestsList`, `resolve Query.requests`, `SELECT RequestRecord`, `redis EVALSHA idsConsumeQuota`, `GET data.sec.gov`…'),
  kind: z.enum(['server', 'client', 'internal', 'producer', 'consumer']).describe('server: the door; client: SQL, Redis and outgoing calls; internal: the executor and root fields'),
  startMs: z.number().describe('When it started, in ms after the request\'s own span started'),
  durationMs: z.number(),
  status: z.enum(['unset', 'ok', 'error']),
  attributes: z.record(z.string(), z.unknown()).describe('What the span says about itself: an SQL statement\'s shape (`db.query.text`, literal values replaced by ?), an HTTP method and host, a status code. Never a parameter value or a secret.'),
};
const span = z.object({
  ...spanFields,
  children: z.array(z.record(z.string(), z.unknown())).describe('The spans started inside this one, each of this same shape (with its own `children`), in the order they started'),
});

// a type, not an interface: a child is documented as a plain object of this shape
type NestedSpan = {
  object: 'span';
  spanId: string;
  name: string;
  kind: z.infer<typeof spanFields.kind>;
  startMs: number;
  durationMs: number;
  status: z.infer<typeof spanFields.status>;
  attributes: SpanAttributes;
  children: NestedSpan[];
};

/** The flat spans (each naming its parent, in start order) as one tree under the request's own span. */
function nested(spans: FlatSpan[]): NestedSpan[] {
  const byId = new Map<string, NestedSpan>();
  const roots: NestedSpan[] = [];
  for (const s of spans) {
    byId.set(s.spanId, { object: 'span', spanId: s.spanId, name: s.name, kind: s.kind as NestedSpan['kind'], startMs: s.startMs, durationMs: s.durationMs, status: s.status as NestedSpan['status'], attributes: s.attributes as SpanAttributes, children: [] });
  }
  for (const s of spans) {
    const parent = s.parentSpanId ? byId.get(s.parentSpanId) : undefined;
    (parent ? parent.children : roots).push(byId.get(s.spanId)!);
  }
  return roots;
}

export const traceRoutes = [
  operationRoute({
    name: 'traces_get',
    method: 'GET',
    path: '/v1/traces/{request_id}',
    summary: 'The spans of one request, nested as they ran',
    description:
      'Every request to /v1, /graphql and /mcp is traced (unless the operator turned tracing off): its door, the executor, the root fields of its operation, each SQL statement (its shape, without literal values), Redis calls and outgoing calls (the SEC, the payment processor, webhooks), each with its start (ms after the request began), duration and status. The trace id is the one of the `traceparent` header the request was answered with (a valid incoming `traceparent` is its parent). The trace appears within a second of the answer. Another organization\'s request id, or one with no trace, is 404 trace_not_found.',
    tag: 'Diagnostics',
    access: 'org',
    meter: 'platform',
    mcp: true,
    params: { path: z.strictObject({ request_id: z.string().regex(/^req_[0-9A-Za-z]{24}$/, 'expected a request id, req_ and 24 letters or digits') }), query: z.strictObject({ view: viewParam }) },
    response: z.object({
      object: z.literal('trace'),
      traceId: z.string().describe('The W3C trace id'),
      request: z.object({
        id: z.string(),
        door: z.enum(requestDoors),
        operation: z.string().nullable(),
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        errorCode: z.string().nullable(),
        createdAt: z.iso.datetime(),
        durationMs: z.number(),
      }),
      spans: z.array(span).describe('The request\'s own span (its door), with every span it kept nested in it'),
      droppedSpans: z.number().int().describe('Spans past the most a request keeps (500)'),
      requestId: z.string(),
    }),
    errors: ['trace_not_found'],
    operation: RequestTraceDocument,
    variables: ({ path }) => ({ requestId: path.request_id }),
  }).reshape(({ requestTrace: t }, meta) => ({
    object: 'trace',
    traceId: t.traceId,
    request: { ...t.request, door: t.request.door as (typeof requestDoors)[number] },
    spans: nested(t.spans),
    droppedSpans: t.droppedSpans,
    ...meta,
  })),
];
