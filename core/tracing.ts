// Spans of a request. A traced request carries its service's tracer in the active context (its
// door starts it, catalogue/requestContext.ts); whatever runs on its behalf (the executor, root
// fields, SQL, Redis, outgoing calls) opens a child span with `inSpan`. Outside a traced request
// (workers, ingest, a service with IDS_TRACING=off) there is no tracer in the context, and `inSpan`
// only runs its function: nothing is started, nothing is kept.
import { context, createContextKey, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';

export { SpanKind, type Attributes, type Span, type Tracer };

const tracerKey = createContextKey('ids tracer');

/** `parent` with `tracer` as the tracer of every span started under it. */
export function withTracer(parent: Context, tracer: Tracer): Context {
  return parent.setValue(tracerKey, tracer);
}

/** Marks a span failed, with the error's class only: a message may quote a value or a secret. */
function failSpan(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
}

/**
 * Runs `run` inside a child span of the active traced request, ended when it settles (a rejected
 * promise or a throw marks it failed); outside a traced request, just runs it. A name or attributes
 * that cost something to work out are given as functions, called only when traced.
 */
export function inSpan<T>(name: string | (() => string), attributes: Attributes | (() => Attributes), run: () => T, kind: SpanKind = SpanKind.INTERNAL): T {
  const active = context.active();
  const tracer = active.getValue(tracerKey) as Tracer | undefined;
  if (!tracer) return run();
  const span = tracer.startSpan(typeof name === 'function' ? name() : name, { kind, attributes: typeof attributes === 'function' ? attributes() : attributes }, active);
  let result: T;
  try {
    result = context.with(trace.setSpan(active, span), run);
  } catch (error) {
    failSpan(span, error);
    span.end();
    throw error;
  }
  if (result instanceof Promise) {
    return result.then(
      (value) => (span.end(), value),
      (error: unknown) => {
        failSpan(span, error);
        span.end();
        throw error;
      },
    ) as T;
  }
  span.end();
  return result;
}

const traceparentShape = /^00-((?!0{32})[0-9a-f]{32})-((?!0{16})[0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C traceparent's trace id, parent span id and flags; null for anything else. */
export function parseTraceparent(value: string | undefined): { traceId: string; spanId: string; traceFlags: number } | null {
  const match = value ? traceparentShape.exec(value) : null;
  return match ? { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16) } : null;
}

/** The traceparent naming `span` (its trace and its own id), sampled. */
export function traceparentOf(span: Span): string {
  const { traceId, spanId } = span.spanContext();
  return `00-${traceId}-${spanId}-01`;
}
