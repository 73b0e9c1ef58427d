// The plan and where the organization stands with the payment processor: "Upgrade" opens the
// processor's hosted checkout for a subscription, "Manage billing" its billing portal (invoices,
// cards, cancelling). The service answers each with an address, and the browser goes there.
import { useId, useState } from 'react';
import { useMutation } from 'urql';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatDateTime, formatMoney, formatNumber, humanize } from '../../format.ts';
import { ProblemNotice } from '../States.tsx';

export const PlanPanelFragment = graphql(`
  fragment PlanPanel on BillingSnapshot {
    planKey
    billingState
    mode
    paygEnabled
    subscription {
      id
      status
    }
    starterGrant {
      calls
      used
      remaining
      nextResetEligibleAt
    }
  }
`);

export const PlanChoicesFragment = graphql(`
  fragment PlanChoices on PricingCatalog {
    plans {
      key
      name
      monthlyPriceCents
      currency
      selfServe
    }
  }
`);

const CreateCheckout = graphql(`
  mutation BillingCheckout($plan: String!, $successUrl: String!, $cancelUrl: String!) {
    createCheckoutSession(plan: $plan, successUrl: $successUrl, cancelUrl: $cancelUrl) {
      url
    }
  }
`);

const CreatePortal = graphql(`
  mutation BillingPortal($returnUrl: String!) {
    createPortalSession(returnUrl: $returnUrl) {
      url
    }
  }
`);

/** The plans the processor's checkout sells (resolvers/billing/processor.ts checkoutPlans). */
const checkoutPlans = new Set(['personal', 'team']);
/** A subscription in these states no longer stands in the way of a new checkout. */
const endedSubscription = new Set(['canceled', 'incomplete_expired']);

export function PlanPanel(props: { billing: FragmentType<typeof PlanPanelFragment>; catalog: FragmentType<typeof PlanChoicesFragment>; canManage: boolean; checkout: string | null }) {
  const billing = useFragment(PlanPanelFragment, props.billing);
  const catalog = useFragment(PlanChoicesFragment, props.catalog);
  const choices = catalog.plans.filter((p) => checkoutPlans.has(p.key) && p.key !== billing.planKey);
  const [plan, setPlan] = useState(choices[0]?.key ?? '');
  const [checkout, startCheckout] = useMutation(CreateCheckout);
  const [portal, openPortal] = useMutation(CreatePortal);
  const [leaving, setLeaving] = useState(false);
  const planId = useId();
  const subscribed = billing.subscription && !endedSubscription.has(billing.subscription.status);
  const disabledWhy = !props.canManage ? 'billing-role-note' : undefined;

  const upgrade = async () => {
    const here = `${location.origin}${location.pathname}`;
    const result = await startCheckout({ plan, successUrl: `${here}?checkout=done`, cancelUrl: `${here}?checkout=canceled` });
    if (result.data) {
      setLeaving(true);
      location.assign(result.data.createCheckoutSession.url);
    }
  };
  const manage = async () => {
    const result = await openPortal({ returnUrl: `${location.origin}${location.pathname}` });
    if (result.data) {
      setLeaving(true);
      location.assign(result.data.createPortalSession.url);
    }
  };

  return (
    <section className="card billing-plan" aria-labelledby="billing-plan-heading">
      <h2 id="billing-plan-heading">Plan</h2>
      <p className="big">
        {humanize(billing.planKey)} <span className="unit">{billing.mode === 'live' ? 'Live mode' : 'Test mode'}</span>
      </p>
      <dl className="pairs">
        <dt>Billing state</dt>
        <dd>{humanize(billing.billingState)}</dd>
        <dt>Subscription</dt>
        <dd>{billing.subscription ? humanize(billing.subscription.status) : 'None'}</dd>
        <dt>Pay-as-you-go</dt>
        <dd>{billing.paygEnabled ? 'On: past the starter grant, calls are paid with credit' : 'Off'}</dd>
        {billing.planKey === 'sandbox_grant' ? (
          <>
            <dt>Starter grant</dt>
            <dd>
              {formatNumber(billing.starterGrant.remaining)} of {formatNumber(billing.starterGrant.calls)} calls left
              {billing.starterGrant.nextResetEligibleAt ? `; can be renewed from ${formatDateTime(billing.starterGrant.nextResetEligibleAt)}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      {props.checkout === 'done' ? (
        <p className="success" role="status">
          Checkout finished. The plan changes as soon as the payment processor confirms the subscription.
        </p>
      ) : null}
      {props.checkout === 'canceled' ? <p className="muted">Checkout was cancelled; nothing changed.</p> : null}
      <div className="actions">
        {choices.length && !subscribed ? (
          <>
            <label htmlFor={planId}>Plan to upgrade to</label>
            <select id={planId} value={plan} onChange={(e) => setPlan(e.target.value)} disabled={!props.canManage}>
              {choices.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.name}, {formatMoney(p.monthlyPriceCents, p.currency.toUpperCase())} a month
                </option>
              ))}
            </select>
            <button type="button" className="primary" disabled={!props.canManage || checkout.fetching || leaving} aria-describedby={disabledWhy} onClick={() => void upgrade()}>
              Upgrade
            </button>
          </>
        ) : null}
        <button type="button" disabled={!props.canManage || portal.fetching || leaving} aria-describedby={disabledWhy} onClick={() => void manage()}>
          Manage billing
        </button>
      </div>
      {subscribed ? <p className="muted">Change or cancel the subscription in “Manage billing”, the payment processor's billing portal.</p> : null}
      {leaving ? (
        <p className="muted" role="status">
          Opening the payment processor's page…
        </p>
      ) : null}
      {checkout.error ? <ProblemNotice error={checkout.error} context="Starting checkout" /> : null}
      {portal.error ? <ProblemNotice error={portal.error} context="Opening the billing portal" /> : null}
    </section>
  );
}
