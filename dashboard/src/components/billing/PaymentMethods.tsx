// Saved cards (at most 3): the primary one pays automatic top-ups first, the others follow by
// fallback priority, lowest first. A card is added through a setup intent, confirmed in the
// processor's own form; it is listed once the processor's notice reaches the service.
import { useEffect, useId, useState } from 'react';
import { useMutation } from 'urql';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatDateTime, humanize } from '../../format.ts';
import { Empty, ProblemNotice, ScrollingTable } from '../States.tsx';
import { ProcessorForm } from './ProcessorForm.tsx';
import { ConfirmAction } from '../ConfirmAction.tsx';

export const PaymentMethodFragment = graphql(`
  fragment PaymentMethodRow on PaymentMethod {
    id
    brand
    last4
    expMonth
    expYear
    isPrimary
    fallbackPriority
    createdAt
  }
`);

const UpdateMethod = graphql(`
  mutation BillingUpdatePaymentMethod($id: String!, $primary: Boolean, $fallbackPriority: Int) {
    updatePaymentMethod(id: $id, primary: $primary, fallbackPriority: $fallbackPriority) {
      id
      isPrimary
      fallbackPriority
    }
  }
`);

const RemoveMethod = graphql(`
  mutation BillingRemovePaymentMethod($id: String!) {
    removePaymentMethod(id: $id) {
      id
    }
  }
`);

const CreateSetupIntent = graphql(`
  mutation BillingSetupIntent {
    createSetupIntent {
      clientSecret
      savedMethods
      maxMethods
    }
  }
`);

const cardName = (m: { brand: string; last4: string }) => `${humanize(m.brand)} ending ${m.last4}`;

function MethodRow(props: { method: FragmentType<typeof PaymentMethodFragment>; canManage: boolean }) {
  const method = useFragment(PaymentMethodFragment, props.method);
  const [priority, setPriority] = useState(String(method.fallbackPriority));
  const [confirming, setConfirming] = useState(false);
  const [updated, update] = useMutation(UpdateMethod);
  const [removed, remove] = useMutation(RemoveMethod);
  const priorityId = useId();
  const why = props.canManage ? undefined : 'billing-role-note';
  const name = cardName(method);
  useEffect(() => setPriority(String(method.fallbackPriority)), [method.fallbackPriority]);

  const savePriority = () => {
    const value = Number(priority);
    if (Number.isInteger(value) && value >= 0 && value <= 100) void update({ id: method.id, fallbackPriority: value });
  };

  return (
    <>
      <tr>
        <th scope="row">{name}</th>
        <td data-label="Expires">
          {String(method.expMonth).padStart(2, '0')}/{method.expYear}
        </td>
        <td data-label="Primary">{method.isPrimary ? 'Primary' : 'No'}</td>
        <td data-label="Priority">
          <div className="priority">
            <label className="visually-hidden" htmlFor={priorityId}>
              Fallback priority of {name}
            </label>
            <input id={priorityId} type="number" min={0} max={100} value={priority} disabled={!props.canManage} onChange={(e) => setPriority(e.target.value)} />
            <button
              type="button"
              aria-label={`Set priority of ${name}`}
              disabled={!props.canManage || updated.fetching || priority === String(method.fallbackPriority)}
              aria-describedby={why}
              onClick={savePriority}
            >
              Set
            </button>
          </div>
        </td>
        <td data-label="Added">{formatDateTime(method.createdAt)}</td>
        <td data-label="Actions">
          <div className="actions">
            {method.isPrimary ? null : (
              <button type="button" aria-label={`Make primary ${name}`} disabled={!props.canManage || updated.fetching} aria-describedby={why} onClick={() => void update({ id: method.id, primary: true })}>
                Make primary
              </button>
            )}
            <button type="button" className="danger" aria-label={`Remove ${name}`} disabled={!props.canManage} aria-describedby={why} aria-expanded={confirming} onClick={() => setConfirming(true)}>
              Remove
            </button>
          </div>
        </td>
      </tr>
      {confirming || updated.error ? (
        <tr className="confirm-row">
          <td colSpan={6}>
            {confirming ? (
              <ConfirmAction
                label={`Remove ${name}`}
                action="Remove card"
                busy={removed.fetching}
                onConfirm={() => void remove({ id: method.id })}
                onCancel={() => setConfirming(false)}
                error={removed.error}
                errorContext="Removing the card"
              >
                Remove <strong>{name}</strong>? It is detached at the payment processor{method.isPrimary ? ' and the next card becomes primary' : ''}.
              </ConfirmAction>
            ) : null}
            {updated.error ? <ProblemNotice error={updated.error} context="Changing the card" /> : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}

export function PaymentMethods(props: {
  methods: ({ id: string } & FragmentType<typeof PaymentMethodFragment>)[];
  canManage: boolean;
  publishableKey: string | null;
  /** the card is with the processor: watch for it */
  onSaving: () => void;
  /** counts the cards the processor has confirmed while the page was open */
  confirmed: number;
}) {
  const [setup, createSetup] = useMutation(CreateSetupIntent);
  const [adding, setAdding] = useState(false);
  const [sent, setSent] = useState(false);
  const full = props.methods.length >= 3;

  // the card is in: the form and its note have done their work
  useEffect(() => {
    if (!props.confirmed) return;
    setAdding(false);
    setSent(false);
  }, [props.confirmed]);

  const add = async () => {
    setSent(false);
    const result = await createSetup({});
    if (!result.data) return;
    setAdding(true);
    if (!props.publishableKey) {
      setSent(true);
      props.onSaving();
    }
  };

  return (
    <section aria-labelledby="billing-methods-heading">
      <h2 id="billing-methods-heading">Payment methods</h2>
      {props.methods.length === 0 ? <Empty>No saved cards. A saved card pays automatic top-ups.</Empty> : null}
      {props.methods.length > 0 ? (
        <ScrollingTable label="Saved payment methods">
          <table className="stack methods">
            <thead>
              <tr>
                <th scope="col">Card</th>
                <th scope="col">Expires</th>
                <th scope="col">Primary</th>
                <th scope="col">Fallback priority</th>
                <th scope="col">Added</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.methods.map((m) => (
                <MethodRow key={m.id} method={m} canManage={props.canManage} />
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <div className="actions">
        <button type="button" disabled={!props.canManage || full || setup.fetching} aria-describedby={props.canManage ? undefined : 'billing-role-note'} onClick={() => void add()}>
          Add payment method
        </button>
        {full ? <span className="muted">At most 3 cards can be saved: remove one to add another.</span> : null}
      </div>
      {setup.error ? <ProblemNotice error={setup.error} context="Adding a card" /> : null}
      {adding && setup.data && props.publishableKey && !sent ? (
        <ProcessorForm
          publishableKey={props.publishableKey}
          clientSecret={setup.data.createSetupIntent.clientSecret}
          kind="setup"
          submitLabel="Save card"
          onConfirmed={() => {
            setSent(true);
            props.onSaving();
          }}
        />
      ) : null}
      {adding && sent ? <p className="muted">The card is listed here, by itself, once the payment processor confirms it.</p> : null}
    </section>
  );
}
