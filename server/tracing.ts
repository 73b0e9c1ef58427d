// The service's tracer (IDS_TRACING, on by default): every span of a request goes to its request
// record (core/requestSpans.ts) and, with OTEL_EXPORTER_OTLP_ENDPOINT, to the operator's OTLP/HTTP
// collector in batches. Each service has its own provider, so services in one process (tests,
// benchmarks) trace or export on their own terms; the tracer travels with the request's context.
import { AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Config } from '../core/config.ts';
import { RequestSpanProcessor } from '../core/requestSpans.ts';
import type { Tracer } from '../core/tracing.ts';
import { apiVersion } from '../rest/version.ts';

export interface Tracing {
  tracer: Tracer;
  /** sends what is still batched to the collector */
  close(): Promise<void>;
}

let contextInstalled = false;

/** Spans nest through AsyncLocalStorage: the context manager sdk-trace-node registers, once a process. */
function installContext(): void {
  if (contextInstalled) return;
  // a provider without processors: it only registers the context manager (our tracers are each service's own)
  new NodeTracerProvider().register({ propagator: null });
  contextInstalled = true;
}

/** null when IDS_TRACING=off. */
export function startTracing(config: Config['tracing']): Tracing | null {
  if (!config.enabled) return null;
  installContext();
  const spanProcessors: SpanProcessor[] = [new RequestSpanProcessor()];
  if (config.otlpEndpoint) spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` })));
  const provider = new NodeTracerProvider({
    // every request is traced: its record shows its spans whatever an incoming traceparent's flags say
    sampler: new AlwaysOnSampler(),
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'investor-data-service', [ATTR_SERVICE_VERSION]: apiVersion }),
    spanProcessors,
  });
  return { tracer: provider.getTracer('investor-data-service'), close: () => provider.shutdown() };
}
