// Auto-top-up: when the balance falls below a threshold, the service charges the saved cards
// (primary first, then by fallback priority) for a fixed amount. Shown in dollars; the service
// counts cents.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatMoney } from '../../format.ts';
import { ProblemNotice } from '../States.tsx';
import { dollarsField, parseDollars } from './money.ts';

export const AutoTopupFragment = graphql(`
  fragment AutoTopupForm on CreditSummary {
    autoTopup {
      enabled
      thresholdCents
      amountCents
      inFlight
      paused
    }
  }
`);

const SetAutoTopup = graphql(`
  mutation BillingSetAutoTopup($enabled: Boolean!, $thresholdCents: Int, $amountCents: Int) {
    setAutoTopup(enabled: $enabled, thresholdCents: $thresholdCents, amountCents: $amountCents) {
      autoTopup {
        enabled
        thresholdCents
        amountCents
        inFlight
        paused
      }
    }
  }
`);

export function AutoTopupForm(props: { credits: FragmentType<typeof AutoTopupFragment>; canManage: boolean; hasPaymentMethod: boolean }) {
  const { autoTopup } = useFragment(AutoTopupFragment, props.credits);
  const [enabled, setEnabled] = useState(autoTopup.enabled);
  const [threshold, setThreshold] = useState(dollarsField(autoTopup.thresholdCents));
  const [amount, setAmount] = useState(dollarsField(autoTopup.amountCents));
  const [error, setError] = useState('');
  const [saved, save] = useMutation(SetAutoTopup);
  const [done, setDone] = useState(false);
  const ids = { enabled: useId(), threshold: useId(), amount: useId(), error: useId() };

  // what the service holds, once it answers again (another tab, a refresh)
  useEffect(() => {
    setEnabled(autoTopup.enabled);
    setThreshold(dollarsField(autoTopup.thresholdCents));
    setAmount(dollarsField(autoTopup.amountCents));
  }, [autoTopup.enabled, autoTopup.thresholdCents, autoTopup.amountCents]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const thresholdCents = threshold.trim() ? parseDollars(threshold) : null;
    const amountCents = amount.trim() ? parseDollars(amount) : null;
    if (enabled && (thresholdCents === null || amountCents === null)) {
      setError('Give both the balance that starts a top-up and the amount to add, in dollars.');
      return;
    }
    setError('');
    const result = await save({ enabled, thresholdCents: thresholdCents ?? undefined, amountCents: amountCents ?? undefined });
    if (!result.error) setDone(true);
  };

  const locked = !props.canManage;
  return (
    <section className="card" aria-labelledby="billing-auto-heading">
      <h2 id="billing-auto-heading">Auto-top-up</h2>
      {autoTopup.enabled && autoTopup.thresholdCents !== null && autoTopup.amountCents !== null ? (
        <p>
          On: below {formatMoney(autoTopup.thresholdCents)}, {formatMoney(autoTopup.amountCents)} is added from the saved cards.
        </p>
      ) : (
        <p>Off.</p>
      )}
      {autoTopup.inFlight ? <p className="muted">An automatic top-up is with the payment processor now.</p> : null}
      {autoTopup.paused ? <p className="note">Paused after a failed automatic top-up: it resumes with the next top-up or a change here.</p> : null}
      {!props.hasPaymentMethod ? <p className="muted">Auto-top-up charges a saved card: add one under “Payment methods”.</p> : null}
      <p className="muted">Charged requests that take the balance below the threshold also raise a low-balance alert (Alerts), with auto-top-up on or off.</p>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Auto-top-up settings">
        <div className="check">
          <input id={ids.enabled} type="checkbox" checked={enabled} disabled={locked} onChange={(e) => setEnabled(e.target.checked)} />
          <label htmlFor={ids.enabled}>Top up automatically</label>
        </div>
        <div className="field">
          <label htmlFor={ids.threshold}>When the balance falls below (USD)</label>
          <input id={ids.threshold} inputMode="decimal" value={threshold} disabled={locked} onChange={(e) => setThreshold(e.target.value)} autoComplete="off" aria-describedby={error ? ids.error : undefined} />
        </div>
        <div className="field">
          <label htmlFor={ids.amount}>Add (USD)</label>
          <input id={ids.amount} inputMode="decimal" value={amount} disabled={locked} onChange={(e) => setAmount(e.target.value)} autoComplete="off" aria-describedby={error ? ids.error : undefined} />
        </div>
        {error ? (
          <p className="field-error" id={ids.error}>
            {error}
          </p>
        ) : null}
        {saved.error ? <ProblemNotice error={saved.error} context="Saving auto-top-up" /> : null}
        <div className="actions">
          <button type="submit" disabled={locked || saved.fetching} aria-describedby={locked ? 'billing-role-note' : undefined}>
            Save auto-top-up
          </button>
          {done ? (
            <span className="muted" role="status">
              Auto-top-up saved.
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
