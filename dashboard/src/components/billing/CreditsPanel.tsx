// Prepaid credit: the balance, what has come in and gone out, and "Top up". A top-up is a payment
// the service starts (createTopUp); the card is confirmed in the processor's own form when the
// service has a publishable key, and the credit is added when the processor's signed notice
// reaches the service, which the page then shows by itself.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatMoney } from '../../format.ts';
import { ProblemNotice } from '../States.tsx';
import { formatMillicents, parseDollars } from './money.ts';
import { ProcessorForm } from './ProcessorForm.tsx';

export const CreditsPanelFragment = graphql(`
  fragment CreditsPanel on CreditSummary {
    balanceMillicents
    heldMillicents
    lowBalance
    lifetime {
      toppedUpCents
      grantedCents
      spentMillicents
      refundedCents
      adjustedMillicents
    }
  }
`);

const CreateTopUp = graphql(`
  mutation BillingTopUp($amountCents: Int!) {
    createTopUp(amountCents: $amountCents) {
      paymentIntentId
      clientSecret
      amountCents
      bonusCents
      creditCents
      feeCents
      chargedCents
    }
  }
`);

export interface TopUpStarted {
  creditCents: number;
  chargedCents: number;
}

export function CreditsPanel(props: {
  credits: FragmentType<typeof CreditsPanelFragment>;
  /** the amounts one top-up may be (the pricing catalog's) */
  topUpLimits: { minCents: number; maxCents: number };
  canManage: boolean;
  publishableKey: string | null;
  /** the payment is with the processor: watch for the credit */
  onPaying: (topUp: TopUpStarted) => void;
  /** counts the top-ups the processor has confirmed while the page was open */
  confirmed: number;
}) {
  const credits = useFragment(CreditsPanelFragment, props.credits);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('25.00');
  const [amountError, setAmountError] = useState('');
  const [created, create] = useMutation(CreateTopUp);
  const [intent, setIntent] = useState<NonNullable<typeof created.data>['createTopUp'] | null>(null);
  const [paid, setPaid] = useState(false);
  const amountId = useId();
  const amountErrorId = useId();
  const formId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const cents = parseDollars(amount);
    const { minCents, maxCents } = props.topUpLimits;
    if (cents === null || cents < minCents || cents > maxCents) {
      setAmountError(`Enter an amount in dollars from ${formatMoney(minCents)} to ${formatMoney(maxCents)}.`);
      return;
    }
    setAmountError('');
    const result = await create({ amountCents: cents });
    const topUp = result.data?.createTopUp;
    if (!topUp) return;
    setIntent(topUp);
    setPaid(false);
    // without the processor's form here, the payment is completed with the processor directly
    if (!props.publishableKey) paying(topUp);
  };

  const paying = (topUp: TopUpStarted) => {
    setPaid(true);
    props.onPaying(topUp);
  };

  const close = () => {
    setOpen(false);
    setIntent(null);
  };

  // the credit is in: the payment's form has done its work
  useEffect(() => {
    if (props.confirmed) close();
  }, [props.confirmed]);

  return (
    <section className="card billing-credits" aria-labelledby="billing-credits-heading">
      <h2 id="billing-credits-heading">Credits</h2>
      <p className="big" aria-live="polite">
        <span className="visually-hidden">Balance: </span>
        <span className="credit-balance">{formatMillicents(credits.balanceMillicents)}</span>
      </p>
      <p className="muted">{credits.lowBalance ? 'Low: below the auto-top-up threshold.' : 'Prepaid credit pays for calls past the starter grant.'}</p>
      <dl className="pairs">
        <dt>Held for calls in flight</dt>
        <dd>{formatMillicents(credits.heldMillicents)}</dd>
        <dt>Topped up</dt>
        <dd>{formatMoney(credits.lifetime.toppedUpCents)}</dd>
        <dt>Bonus and grants</dt>
        <dd>{formatMoney(credits.lifetime.grantedCents)}</dd>
        <dt>Spent</dt>
        <dd>{formatMillicents(credits.lifetime.spentMillicents)}</dd>
        <dt>Refunded</dt>
        <dd>{formatMoney(credits.lifetime.refundedCents)}</dd>
        {credits.lifetime.adjustedMillicents ? (
          <>
            <dt>Adjusted by the service</dt>
            <dd>{formatMillicents(credits.lifetime.adjustedMillicents)}</dd>
          </>
        ) : null}
      </dl>
      <div className="actions">
        <button
          type="button"
          className="primary"
          aria-expanded={open}
          aria-controls={formId}
          disabled={!props.canManage}
          aria-describedby={props.canManage ? undefined : 'billing-role-note'}
          onClick={() => (open ? close() : setOpen(true))}
        >
          Top up
        </button>
      </div>
      <div id={formId} hidden={!open}>
        {open && !intent ? (
          <form className="inline-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Top up credit">
            <div className="field">
              <label htmlFor={amountId}>Amount (USD)</label>
              <input
                id={amountId}
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                autoComplete="off"
                aria-invalid={amountError ? true : undefined}
                aria-describedby={amountError ? amountErrorId : undefined}
              />
              {amountError ? (
                <p className="field-error" id={amountErrorId}>
                  {amountError}
                </p>
              ) : null}
            </div>
            <p className="muted">A 2.9 % + 30 ¢ payment fee is added to the charge; from $100 a bonus of 2 % (5 % from $500) is added to the credit.</p>
            {created.error ? <ProblemNotice error={created.error} context="Starting the top-up" /> : null}
            <div className="actions">
              <button type="submit" className="primary" disabled={created.fetching}>
                Continue
              </button>
              <button type="button" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        ) : null}
        {open && intent ? (
          <div className="inline-form">
            <p>
              <strong>{formatMoney(intent.creditCents)}</strong> of credit{intent.bonusCents ? ` (${formatMoney(intent.bonusCents)} of it bonus)` : ''}; the card is charged{' '}
              <strong>{formatMoney(intent.chargedCents)}</strong> ({formatMoney(intent.feeCents)} fee).
            </p>
            {props.publishableKey && !paid ? (
              <ProcessorForm publishableKey={props.publishableKey} clientSecret={intent.clientSecret} kind="payment" submitLabel={`Pay ${formatMoney(intent.chargedCents)}`} onConfirmed={() => paying(intent)} />
            ) : null}
            {props.publishableKey && paid ? <p className="muted">The card was accepted; the credit appears here, by itself, once the payment processor confirms the payment.</p> : null}
            {!props.publishableKey ? (
              <p className="note">
                This service takes no card details in the browser. The payment <code>{intent.paymentIntentId}</code> is with the payment processor; the credit appears
                here, by itself, once the processor confirms it.
              </p>
            ) : null}
            <div className="actions">
              <button type="button" onClick={close}>
                {paid ? 'Close' : 'Cancel'}
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
