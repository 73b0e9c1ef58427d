// What a monitor watches and where its matches go, in words: the saved read (route, parameters,
// threshold) and its destination. The graph hands both over as JSON, shaped as the REST door does.
import { Fragment } from 'react';

export interface MonitorQueryShape {
  route: string;
  params?: Record<string, string>;
  threshold?: { below?: string; above?: string };
}

export type MonitorDeliveryShape = { type: 'webhook'; webhookEndpointId: string } | { type: 'email'; address: string };

export interface EndpointChoice {
  id: string;
  url: string;
  description: string;
  status: string;
}

export const asQuery = (value: unknown): MonitorQueryShape => (value ?? { route: '' }) as MonitorQueryShape;
export const asDelivery = (value: unknown): MonitorDeliveryShape | null => (value ?? null) as MonitorDeliveryShape | null;

/** "form=8-K, cik=0000320193": the parameters as a query string would carry them. */
export function paramsText(query: MonitorQueryShape): string {
  const entries = Object.entries(query.params ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(', ') : 'none: every record the read lists';
}

export function thresholdText(query: MonitorQueryShape): string | null {
  const t = query.threshold;
  if (!t || (t.below === undefined && t.above === undefined)) return null;
  return [t.above !== undefined ? `above ${t.above}` : null, t.below !== undefined ? `below ${t.below}` : null].filter(Boolean).join(' and ');
}

/** The compiled or saved read as a definition list: route, parameters and threshold. */
export function QuerySummary({ query }: { query: MonitorQueryShape }) {
  const threshold = thresholdText(query);
  const params = Object.entries(query.params ?? {});
  return (
    <dl className="pairs monitor-spec">
      <dt>Route</dt>
      <dd>
        <code>{query.route}</code>
      </dd>
      <dt>Parameters</dt>
      <dd>
        {params.length ? (
          params.map(([k, v], i) => (
            <Fragment key={k}>
              {i ? ', ' : null}
              <code>
                {k}={v}
              </code>
            </Fragment>
          ))
        ) : (
          <span className="muted">None: every record the read lists</span>
        )}
      </dd>
      <dt>Threshold</dt>
      <dd>{threshold ?? <span className="muted">None</span>}</dd>
    </dl>
  );
}

/** Where matches go, naming the endpoint by its address when the page knows it. */
export function deliveryText(delivery: MonitorDeliveryShape | null, endpoints: readonly { id: string; url: string }[] = []): string {
  if (!delivery) return 'Nowhere: matches are read here';
  if (delivery.type === 'email') return `Email to ${delivery.address}`;
  const endpoint = endpoints.find((e) => e.id === delivery.webhookEndpointId);
  return `Webhook ${endpoint ? endpoint.url : delivery.webhookEndpointId}`;
}
