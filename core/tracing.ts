// Spans of a request. A traced request's door opens its span (catalogue/requestContext.ts) and runs
// the request inside it; whatever runs on its behalf (the executor, root fields, SQL, Redis,
// outgoing calls) opens a child span with `inSpan`. Outside a traced request (workers, ingest, a
// service with IDS_TRACING=off) no span is active, and `inSpan` only runs its function: nothing is
// started, nothing is kept.
//
// A span is a plain record kept in its request's trace, and the active span travels in one
// AsyncLocalStorage: the SDK's span objects, its processors and its context (a map copied for every
// span) cost a request of four spans about ten times what these records do. An operator's OTLP
// collector still gets every span, converted once the request is answered (server/tracing.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { SpanKind, type Attributes } from '@opentelemetry/api';
import { randomHex } from './ids.ts';

export { SpanKind, type Attributes };

/** what one request keeps at most: a GraphQL operation over a long list must not make its record huge */
export const maxSpans = 500;

/** Takes a request's finished spans to the operator's collector; null when none is configured. */
export type SpanExport = (spans: readonly RecordingSpan[]) => void;

export interface RecordingSpan {
  readonly trace: RequestTrace;
  readonly spanId: string;
  /** null for the request's own span (the door); its remote parent, if any, is the trace's */
  readonly parentSpanId: string | null;
  name: string;
  readonly kind: SpanKind;
  /** performance.now() when it started */
  readonly start: number;
  /** performance.now() when it ended; 0 while it runs */
  end: number;
  /** the error's class when it failed (never its message: it may quote a value or a secret); '' for a failure without one */
  error: string | null;
  attributes: Attributes;
  /** in its request's record: false past the most a request keeps (the collector still gets it) */
  readonly kept: boolean;
}

export class RequestTrace {
  /** the spans kept, in the order they started: the request's own first */
  readonly spans: RecordingSpan[] = [];
  /** spans past the most a request keeps */
  dropped = 0;
  /** set once the request's own span ended: a span ending later is only exported */
  answered = false;

  constructor(
    readonly traceId: string,
    /** the incoming traceparent's span, parent of the door span */
    readonly remoteParentSpanId: string | null,
    readonly exportSpans: SpanExport | null,
  ) {}
}

const active = new AsyncLocalStorage<RecordingSpan>();

/** A new span of `trace` under `parent` (null: the request's own), running from now. */
export function openSpan(trace: RequestTrace, parent: RecordingSpan | null, name: string, kind: SpanKind, attributes: Attributes): RecordingSpan {
  const kept = trace.spans.length < maxSpans;
  const span: RecordingSpan = { trace, spanId: randomHex(8), parentSpanId: parent?.spanId ?? null, name, kind, start: performance.now(), end: 0, error: null, attributes, kept };
  if (kept) trace.spans.push(span);
  else trace.dropped++;
  return span;
}

export function endSpan(span: RecordingSpan): void {
  span.end = performance.now();
  // The request's kept spans go to the collector when it is answered; a span it does not keep,
  // or one still running then (work the request left behind), goes on its own.
  if (span.trace.answered || !span.kept) span.trace.exportSpans?.([span]);
}

/** Runs `run` with `span` as the active span: the spans opened meanwhile are its children. */
export function runInSpan<T>(span: RecordingSpan, run: () => T): T {
  return active.run(span, run);
}

function failed(span: RecordingSpan, error: unknown): void {
  span.error = error instanceof Error ? error.name : '';
  endSpan(span);
}

/**
 * Runs `run` inside a child span of the active traced request, ended when it settles (a rejected
 * promise or a throw marks it failed); outside a traced request, just runs it. A name or attributes
 * that cost something to work out are given as functions, called only when traced.
 */
export function inSpan<T>(name: string | (() => string), attributes: Attributes | (() => Attributes), run: () => T, kind: SpanKind = SpanKind.INTERNAL): T {
  const parent = active.getStore();
  if (!parent) return run();
  const span = openSpan(parent.trace, parent, typeof name === 'function' ? name() : name, kind, typeof attributes === 'function' ? attributes() : attributes);
  let result: T;
  try {
    result = active.run(span, run);
  } catch (error) {
    failed(span, error);
    throw error;
  }
  if (result instanceof Promise) {
    return result.then(
      (value) => (endSpan(span), value),
      (error: unknown) => {
        failed(span, error);
        throw error;
      },
    ) as T;
  }
  endSpan(span);
  return result;
}

const traceparentShape = /^00-((?!0{32})[0-9a-f]{32})-((?!0{16})[0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C traceparent's trace id, parent span id and flags; null for anything else. */
export function parseTraceparent(value: string | undefined): { traceId: string; spanId: string; traceFlags: number } | null {
  const match = value ? traceparentShape.exec(value) : null;
  return match ? { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16) } : null;
}

/** The traceparent naming `span` (its trace and its own id), sampled: every request is traced whatever an incoming traceparent's flags say. */
export function traceparentOf(span: RecordingSpan): string {
  return `00-${span.trace.traceId}-${span.spanId}-01`;
}
