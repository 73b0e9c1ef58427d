// The service's tracing (IDS_TRACING, on by default): every span of a request goes to its request
// record (core/requestSpans.ts) and, with OTEL_EXPORTER_OTLP_ENDPOINT, to the operator's OTLP/HTTP
// collector in batches (the SDK's batch processor and exporter, with their OTEL_BSP_* and
// OTEL_EXPORTER_OTLP_* settings). Spans are recorded by core/tracing.ts; they become the SDK's
// span shape only here, once finished, and only when there is a collector to send them to. Each
// service has its own exporter, so services in one process (tests, benchmarks) export on their own
// terms; a request's trace carries its service's.
import { SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Resource } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Config } from '../core/config.ts';
import type { RecordingSpan, SpanExport } from '../core/tracing.ts';
import { apiVersion } from '../rest/version.ts';

export interface Tracing {
  /** null without a collector: spans are only kept with their requests */
  exportSpans: SpanExport | null;
  /** sends what is still batched to the collector */
  close(): Promise<void>;
}

const scope = { name: 'investor-data-service' };

/** performance.now() milliseconds as the epoch time the OTLP encoding wants. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function readable(span: RecordingSpan, resource: Resource): ReadableSpan {
  const { traceId } = span.trace;
  const parentSpanId = span.parentSpanId ?? span.trace.remoteParentSpanId;
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => ({ traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED }),
    parentSpanContext: parentSpanId ? { traceId, spanId: parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: span.parentSpanId === null } : undefined,
    startTime: hrTime(performance.timeOrigin + span.start),
    endTime: hrTime(performance.timeOrigin + span.end),
    duration: hrTime(span.end - span.start),
    status: span.error === null ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, ...(span.error ? { message: span.error } : {}) },
    attributes: span.attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** null when IDS_TRACING=off. The SDK's exporter is read only when there is a collector to send to. */
export async function startTracing(config: Config['tracing']): Promise<Tracing | null> {
  if (!config.enabled) return null;
  if (!config.otlpEndpoint) return { exportSpans: null, close: () => Promise.resolve() };
  const [{ BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'investor-data-service', [ATTR_SERVICE_VERSION]: apiVersion });
  const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` }));
  return {
    exportSpans: (spans) => {
      for (const span of spans) processor.onEnd(readable(span, resource));
    },
    close: () => processor.shutdown(),
  };
}
