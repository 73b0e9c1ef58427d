// The spans of one request, kept with its record (GET /v1/traces/{request_id}). Its door puts a
// RequestSpans in the context it starts the request's span in; the processor hands every span
// started under that context to it when the span ends. Spans that end after the request's own span
// (work the request left running) are not part of its record.
import { createContextKey, SpanKind, SpanStatusCode, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** what one request keeps at most: a GraphQL operation over a long list must not make its record huge */
const maxSpans = 500;

export class RequestSpans {
  readonly finished: ReadableSpan[] = [];
  dropped = 0;
}

const requestSpansKey = createContextKey('ids request spans');

export function withRequestSpans(parent: Context, spans: RequestSpans): Context {
  return parent.setValue(requestSpansKey, spans);
}

const collectorOf = new WeakMap<Span | ReadableSpan, RequestSpans>();

export class RequestSpanProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const spans = parentContext.getValue(requestSpansKey) as RequestSpans | undefined;
    if (spans) collectorOf.set(span, spans);
  }

  onEnd(span: ReadableSpan): void {
    const spans = collectorOf.get(span);
    if (!spans) return;
    if (spans.finished.length < maxSpans) spans.finished.push(span);
    else spans.dropped++;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

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
const statuses: Record<SpanStatusCode, RecordedSpan['status']> = { [SpanStatusCode.UNSET]: 'unset', [SpanStatusCode.OK]: 'ok', [SpanStatusCode.ERROR]: 'error' };

const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
const rounded = (value: number) => Math.round(value * 1000) / 1000;

/** The request's finished spans, its own (`root`) first, the others in the order they started. */
export function recordedTrace(root: ReadableSpan, spans: RequestSpans): RecordedTrace {
  const start = ms(root.startTime);
  const rootId = root.spanContext().spanId;
  const others = spans.finished.filter((s) => s !== root).sort((a, b) => ms(a.startTime) - ms(b.startTime));
  return {
    traceId: root.spanContext().traceId,
    spans: [root, ...others].map((s) => {
      const spanId = s.spanContext().spanId;
      return {
        spanId,
        parentSpanId: spanId === rootId ? null : (s.parentSpanContext?.spanId ?? rootId),
        name: s.name,
        kind: kinds[s.kind],
        startMs: rounded(ms(s.startTime) - start),
        durationMs: rounded(ms(s.duration)),
        status: statuses[s.status.code],
        attributes: s.attributes as Record<string, SpanAttributeValue>,
      };
    }),
    droppedSpans: spans.dropped,
  };
}
