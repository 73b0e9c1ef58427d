// The spans of one request as its record keeps them (GET /v1/traces/{request_id}): made from its
// trace (core/tracing.ts) when its own span ends. Spans that end after it (work the request left
// running) are not part of its record.
import { SpanKind } from '@opentelemetry/api';
import type { RequestTrace } from './tracing.ts';

export type SpanAttributeValue = string | number | boolean | Array<string | number | boolean | null | undefined>;

/** One finished span as a request's record keeps it: times in ms from the start of the request's span. */
export interface RecordedSpan {
  spanId: string;
  /** null for the request's own span (the door) */
  parentSpanId: string | null;
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  startMs: number;
  durationMs: number;
  status: 'unset' | 'ok' | 'error';
  attributes: Record<string, SpanAttributeValue>;
}

export interface RecordedTrace {
  traceId: string;
  spans: RecordedSpan[];
  /** spans past the most a request keeps */
  droppedSpans: number;
}

const kinds: Record<SpanKind, RecordedSpan['kind']> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

const rounded = (value: number) => Math.round(value * 1000) / 1000;

/** The request's finished spans, its own first (it ended: the request was answered), the others in the order they started. */
export function recordedTrace(trace: RequestTrace): RecordedTrace {
  const start = trace.spans[0]!.start;
  const spans: RecordedSpan[] = [];
  for (const s of trace.spans) {
    if (!s.end) continue;
    spans.push({
      spanId: s.spanId,
      parentSpanId: s.parentSpanId,
      name: s.name,
      kind: kinds[s.kind],
      startMs: rounded(s.start - start),
      durationMs: rounded(s.end - s.start),
      status: s.error === null ? 'unset' : 'error',
      attributes: s.attributes as Record<string, SpanAttributeValue>,
    });
  }
  return { traceId: trace.traceId, spans, droppedSpans: trace.dropped };
}
