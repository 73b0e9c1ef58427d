// Per-request identity (SPEC 7): every response carries Request-Id and traceparent, and every
// request is logged once, without its query string. A traced request's traceparent names its door
// span (a valid incoming W3C traceparent is its parent, so the trace id is the caller's); its
// record keeps its spans (core/requestSpans.ts).
import type { NextFunction, Request, Response } from 'express';
import { newId, randomHex } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { recordedTrace } from '../core/requestSpans.ts';
import { endSpan, openSpan, parseTraceparent, RequestTrace, runInSpan, SpanKind, traceparentOf, type RecordingSpan, type SpanExport } from '../core/tracing.ts';
import type { Principal } from '../resolvers/principal.ts';
import type { RequestLog } from '../resolvers/requestLog.ts';

export function traceparentFor(incoming: string | undefined): string {
  if (parseTraceparent(incoming)) return incoming!;
  return `00-${randomHex(16)}-${randomHex(8)}-01`;
}

export interface RequestLocals {
  requestId: string;
  traceparent: string;
  orgId?: string;
  /** the API key that made the request (none for a session) */
  apiKeyId?: string;
  /** the route's operationId, the GraphQL operation name, or the MCP method and tool */
  operation?: string;
  errorCode?: string;
}

export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** Who made the request, for its record: the organization, and the key when it was one. */
export function noteCaller(res: Response, principal: Principal | null): void {
  Object.assign(locals(res), { orgId: principal?.orgId ?? undefined, apiKeyId: principal?.kind === 'api_key' ? principal.apiKeyId : undefined });
}

/** Which door a path belongs to; requests outside the three doors are not recorded. */
function doorOf(path: string): 'rest' | 'graphql' | 'mcp' | null {
  if (path.startsWith('/v1/') || path === '/v1') return 'rest';
  if (path === '/graphql') return 'graphql';
  if (path === '/mcp') return 'mcp';
  return null;
}

type Door = NonNullable<ReturnType<typeof doorOf>>;

interface TracedRequest {
  door: Door;
  span: RecordingSpan;
}

/** The request's door span, child of a valid incoming traceparent; what runs inside it nests in it. */
function startRequestSpan(exportSpans: SpanExport | null, door: Door, method: string, path: string, requestId: string, incoming: string | undefined): TracedRequest {
  const remote = parseTraceparent(incoming);
  const trace = new RequestTrace(remote?.traceId ?? randomHex(16), remote?.spanId ?? null, exportSpans);
  const span = openSpan(trace, null, `${door} ${method}`, SpanKind.SERVER, { 'ids.door': door, 'ids.request_id': requestId, 'http.request.method': method, 'url.path': path.slice(0, 500) });
  return { door, span };
}

/** Ends the door span with what the answer was, and gives the request's finished spans. */
function endRequestSpan(traced: TracedRequest, status: number, found: RequestLocals) {
  const { span } = traced;
  // named by what ran (a route, a GraphQL operation, an MCP tool), known only once it ran
  if (found.operation) span.name = `${traced.door} ${found.operation}`;
  span.attributes['http.response.status_code'] = status;
  if (found.operation) span.attributes['ids.operation'] = found.operation;
  if (found.orgId) span.attributes['ids.org_id'] = found.orgId;
  if (found.errorCode) span.attributes['ids.error_code'] = found.errorCode;
  if (status >= 500) span.error = '';
  endSpan(span);
  const { trace } = span;
  trace.answered = true;
  trace.exportSpans?.(trace.spans.filter((s) => s.end));
  return recordedTrace(trace);
}

/** `tracing`: null when tracing is off (else where finished spans are exported, if anywhere); only requests to the three doors are traced. */
export function requestContext(logger: Logger, requestLog: RequestLog, tracing: { exportSpans: SpanExport | null } | null = null) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const requestId = newId('req');
    // read now: a router mounted on a path (/graphql) rewrites req.path while it answers
    const { path, method } = req;
    const door = doorOf(path);
    const incoming = req.get('traceparent');
    const traced = tracing && door ? startRequestSpan(tracing.exportSpans, door, method, path, requestId, incoming) : null;
    const traceparent = traced ? traceparentOf(traced.span) : traceparentFor(incoming);
    Object.assign(res.locals, { requestId, traceparent });
    res.set({ 'Request-Id': requestId, traceparent });
    res.on('finish', () => {
      const ms = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      const found = locals(res);
      const { orgId, apiKeyId, operation, errorCode } = found;
      const spans = traced ? endRequestSpan(traced, res.statusCode, found) : null;
      if (door) {
        const meterClass = res.getHeader('service-meter-class');
        const cost = Number(res.getHeader('service-token-count') ?? (meterClass ? 1 : NaN));
        requestLog.record({
          id: requestId,
          orgId: orgId ?? null,
          apiKeyId: apiKeyId ?? null,
          door,
          operation: operation ?? null,
          method,
          path: path.slice(0, 500),
          status: res.statusCode,
          errorCode: errorCode ?? null,
          meterClass: typeof meterClass === 'string' ? meterClass : null,
          cost: Number.isFinite(cost) ? cost : null,
          durationMs: ms,
          createdAt: new Date(),
          spans,
        });
      }
      logger.info(
        {
          requestId,
          traceparent,
          method,
          path,
          status: res.statusCode,
          orgId,
          ms,
        },
        'request',
      );
    });
    if (!traced) return next();
    tracedRequests.set(req, traced.span);
    runInSpan(traced.span, next);
  };
}

/** The door span of each traced request in flight, for resumeTracedContext. */
const tracedRequests = new WeakMap<object, RecordingSpan>();

/**
 * Put after a body parser: a body is read in the request stream's callbacks, which run outside
 * the request's context, so what follows the parser enters it again. (Binding the request and
 * response emitters to the context instead would wrap every listener of every request.)
 */
export function resumeTracedContext(req: Request, _res: Response, next: NextFunction): void {
  const traced = tracedRequests.get(req);
  if (traced) runInSpan(traced, next);
  else next();
}
