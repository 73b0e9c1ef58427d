// An endpoint's settings as a form: its URL, a description, and the event types it receives.
// Adding an endpoint and editing one share it; the service checks the URL again (https, public
// addresses) and its refusal is shown beside the form.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { FragmentType } from '../../gql';
import { EventTypePicker, EventTypePickerFragment } from './EventTypePicker.tsx';

export interface EndpointValues {
  url: string;
  description: string;
  eventTypes: string[];
}

export function EndpointForm(props: {
  initial: EndpointValues;
  eventTypes: readonly FragmentType<typeof EventTypePickerFragment>[];
  submitLabel: string;
  busy: boolean;
  /** the role may not make the change: the fields can be explored, not submitted */
  disabled: boolean;
  onSubmit: (values: EndpointValues) => void;
  /** the role note, the service's refusal, the cancel link */
  before?: ReactNode;
  after?: ReactNode;
}) {
  const [url, setUrl] = useState(props.initial.url);
  const [description, setDescription] = useState(props.initial.description);
  const [types, setTypes] = useState<string[]>(props.initial.eventTypes);
  const [errors, setErrors] = useState<{ url?: string; types?: string }>({});
  const urlId = useId();
  const urlErrorId = useId();
  const urlHintId = useId();
  const descriptionId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    let parsed: URL | null = null;
    try {
      parsed = new URL(url.trim());
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) next.url = 'Enter the full address of your receiver, such as https://example.com/webhooks.';
    if (!types.length) next.types = 'Choose at least one event type, or every event of this organization.';
    setErrors(next);
    if (next.url || next.types) return;
    props.onSubmit({ url: url.trim(), description: description.trim(), eventTypes: types });
  };

  return (
    <form onSubmit={submit} noValidate>
      {props.before}
      <div className="field">
        <label htmlFor={urlId}>Endpoint URL</label>
        <input
          id={urlId}
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          maxLength={2048}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={[urlHintId, errors.url ? urlErrorId : ''].filter(Boolean).join(' ')}
        />
        <p className="muted choice-about" id={urlHintId}>
          https, on a host that resolves to public addresses. Deliveries are signed (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature).
        </p>
        {errors.url ? (
          <p className="field-error" id={urlErrorId}>
            {errors.url}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={descriptionId}>Description</label>
        <input id={descriptionId} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} autoComplete="off" />
      </div>
      <EventTypePicker eventTypes={props.eventTypes} selected={types} onChange={setTypes} error={errors.types} />
      {props.after}
      <div className="actions">
        <button type="submit" className="primary" disabled={props.disabled || props.busy}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
