// Where a monitor's matches go: nowhere (they are read on its page or with the API), an email
// digest, or one of the organization's webhook endpoints.
import { useId } from 'react';
import { Link } from 'react-router';
import type { EndpointChoice, MonitorDeliveryShape } from './MonitorSpec.tsx';

export interface DeliveryDraft {
  type: 'none' | 'email' | 'webhook';
  address: string;
  webhookEndpointId: string;
}

export const draftOf = (delivery: MonitorDeliveryShape | null, endpoints: readonly EndpointChoice[]): DeliveryDraft => ({
  type: delivery ? delivery.type : 'none',
  address: delivery?.type === 'email' ? delivery.address : '',
  webhookEndpointId: delivery?.type === 'webhook' ? delivery.webhookEndpointId : (endpoints[0]?.id ?? ''),
});

/** The mutation's `delivery` argument, or a sentence saying what is missing. */
export function deliveryInput(draft: DeliveryDraft): { delivery: { type: string; address?: string; webhookEndpointId?: string } | null } | { missing: string } {
  if (draft.type === 'none') return { delivery: null };
  if (draft.type === 'email') return draft.address.trim() ? { delivery: { type: 'email', address: draft.address.trim() } } : { missing: 'Type the address the digests go to.' };
  return draft.webhookEndpointId ? { delivery: { type: 'webhook', webhookEndpointId: draft.webhookEndpointId } } : { missing: 'Choose a webhook endpoint, or add one on the Webhooks page.' };
}

export function DeliveryPicker(props: { value: DeliveryDraft; onChange(next: DeliveryDraft): void; endpoints: readonly EndpointChoice[]; disabled?: boolean; error?: string; legend?: string }) {
  const { value, onChange, endpoints, disabled } = props;
  const id = useId();
  const set = (patch: Partial<DeliveryDraft>) => onChange({ ...value, ...patch });
  const choices = [
    { type: 'none', label: 'Nowhere', about: 'Read the matches on the monitor\'s page or with GET /v1/monitors/{id}/matches.' },
    { type: 'email', label: 'Email', about: 'A digest of each batch of matches, with an unsubscribe link.' },
    { type: 'webhook', label: 'Webhook endpoint', about: 'A signed monitor.matched event to one of this organization\'s endpoints.' },
  ] as const;
  return (
    <fieldset disabled={disabled}>
      <legend>{props.legend ?? 'Destination'}</legend>
      {choices.map((choice) => (
        <div className="choice" key={choice.type}>
          <input
            type="radio"
            id={`${id}-${choice.type}`}
            name={`${id}-destination`}
            checked={value.type === choice.type}
            onChange={() => set({ type: choice.type })}
            aria-describedby={`${id}-${choice.type}-about`}
          />
          <div>
            <label htmlFor={`${id}-${choice.type}`}>
              <strong>{choice.label}</strong>
            </label>
            <p className="muted choice-about" id={`${id}-${choice.type}-about`}>
              {choice.about}
            </p>
          </div>
        </div>
      ))}
      {value.type === 'email' ? (
        <div className="field">
          <label htmlFor={`${id}-address`}>Email address</label>
          <input id={`${id}-address`} type="email" autoComplete="email" value={value.address} onChange={(e) => set({ address: e.target.value })} maxLength={254} />
        </div>
      ) : null}
      {value.type === 'webhook' ? (
        endpoints.length ? (
          <div className="field">
            <label htmlFor={`${id}-endpoint`}>Webhook endpoint</label>
            <select id={`${id}-endpoint`} value={value.webhookEndpointId} onChange={(e) => set({ webhookEndpointId: e.target.value })}>
              {endpoints.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.url}
                  {e.description ? ` (${e.description})` : ''}
                  {e.status !== 'enabled' ? ` [${e.status}]` : ''}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="note">
            This organization has no webhook endpoint yet. <Link to="/webhooks/new">Add an endpoint</Link> first, or choose email.
          </p>
        )
      ) : null}
      {props.error ? (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
