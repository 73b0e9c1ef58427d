// Billing: the plan and the processor's checkout and portal, prepaid credit and topping it up,
// auto-top-up, the monthly budget, saved cards, the credit ledger and a quote calculator. Two
// GraphQL requests: the account (one query) and the ledger page. Every field here is an account
// field, so an organization refused 402 for data can still open this page and pay.
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { AutoTopupForm } from '../../components/billing/AutoTopupForm.tsx';
import { BudgetForm } from '../../components/billing/BudgetForm.tsx';
import { CreditsPanel, type TopUpStarted } from '../../components/billing/CreditsPanel.tsx';
import { Ledger } from '../../components/billing/Ledger.tsx';
import { formatMillicents } from '../../components/billing/money.ts';
import { PaymentMethods } from '../../components/billing/PaymentMethods.tsx';
import { PlanPanel } from '../../components/billing/PlanPanel.tsx';
import { QuoteCalculator } from '../../components/billing/QuoteCalculator.tsx';
import { useBillingWatch, type WatchState } from '../../components/billing/useBillingWatch.tsx';
import { Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { formatMoney } from '../../format.ts';
import { graphql } from '../../gql';
import { BillingRoleNote, canManageBilling } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

const BillingQuery = graphql(`
  query BillingPage {
    billing {
      planKey
      billingState
      paygEnabled
      starterGrant {
        remaining
      }
      ...PlanPanel
      ...BudgetForm
    }
    credits {
      balanceMillicents
      ...CreditsPanel
      ...AutoTopupForm
    }
    paymentMethods {
      id
      ...PaymentMethodRow
    }
    processorConfig {
      publishableKey
    }
    pricingCatalog {
      ...PlanChoices
      ...QuoteChoices
      topUp {
        minCents
        maxCents
      }
    }
  }
`);

type Watching = { what: 'credit'; sinceMillicents: number; topUp: TopUpStarted } | { what: 'card'; known: string[] };

/** Why priced calls are refused now (402), as the service's gates decide it (resolvers/billing/gates.ts), or null. */
function refusal(b: { planKey: string; billingState: string; paygEnabled: boolean; starterGrant: { remaining: number } }, balanceMillicents: number): string | null {
  if (b.billingState === 'past_due' || b.billingState === 'canceled') {
    return `The organization's billing state is ${b.billingState.replace('_', ' ')}: priced calls are paused until it is settled. Settle it in “Manage billing”, or top up and move to pay-as-you-go.`;
  }
  if (b.planKey === 'sandbox_grant' && b.starterGrant.remaining <= 0 && !b.paygEnabled) {
    return 'The starter grant is used up: priced calls are refused until the organization adds credit (“Top up”) or chooses a plan (“Upgrade”).';
  }
  if ((b.planKey === 'payg' || (b.planKey === 'sandbox_grant' && b.starterGrant.remaining <= 0)) && balanceMillicents <= 0) {
    return 'The credit is used up: priced calls are refused until the organization tops up.';
  }
  return null;
}

export function BillingPage() {
  useTitle('Billing');
  const { role } = useViewer();
  const canManage = canManageBilling(role);
  const [params] = useSearchParams();
  const [result, refetch] = useQuery({ query: BillingQuery, requestPolicy: 'cache-and-network' });
  const [watching, setWatching] = useState<Watching | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [ledgerVersion, setLedgerVersion] = useState(0);
  const [confirmedTopUps, setConfirmedTopUps] = useState(0);
  const [confirmedCards, setConfirmedCards] = useState(0);

  const until = useCallback(
    (now: WatchState) => (watching?.what === 'credit' ? now.balanceMillicents > watching.sinceMillicents : watching?.what === 'card' ? now.paymentMethodIds.some((id) => !watching.known.includes(id)) : false),
    [watching],
  );
  useBillingWatch(
    watching ? until : null,
    (now) => {
      setAnnouncement(
        watching?.what === 'credit'
          ? `The payment processor confirmed the top-up: ${formatMoney(watching.topUp.creditCents)} of credit added. The balance is ${formatMillicents(now.balanceMillicents)}.`
          : 'The payment processor confirmed the card: it is saved.',
      );
      if (watching?.what === 'credit') setConfirmedTopUps((n) => n + 1);
      else setConfirmedCards((n) => n + 1);
      setWatching(null);
      refetch({ requestPolicy: 'network-only' });
      setLedgerVersion((v) => v + 1);
    },
    () => {
      setAnnouncement('The payment processor has not confirmed yet. Its confirmation can take a while; refresh the page later to see it.');
      setWatching(null);
    },
  );

  const data = result.data;
  const blocked = data ? refusal(data.billing, data.credits.balanceMillicents) : null;
  const publishableKey = data?.processorConfig.publishableKey ?? null;

  return (
    <div className="billing-page">
      <div className="page-head">
        <h1>Billing</h1>
        {data ? (
          <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })} disabled={result.fetching}>
            Refresh
          </button>
        ) : null}
      </div>
      {canManage ? null : <BillingRoleNote role={role} />}
      <p className={announcement ? 'success' : 'visually-hidden'} role="status">
        {announcement}
      </p>
      {watching ? (
        <p className="state state-loading" role="status">
          {watching.what === 'credit'
            ? `Waiting for the payment processor to confirm the payment of ${formatMoney(watching.topUp.chargedCents)}; the credit appears here when it does.`
            : 'Waiting for the payment processor to confirm the card.'}
        </p>
      ) : null}
      {result.fetching && !data ? <Loading what="billing" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {data ? (
        <>
          {blocked ? (
            <div className="problem billing-refused" role="note" aria-label="Payment needed">
              <p className="problem-title">
                <strong>Payment needed</strong> <span className="problem-status">(402 for priced calls)</span>
              </p>
              <p>{blocked}</p>
            </div>
          ) : null}
          <div className="billing-grid">
            <PlanPanel billing={data.billing} catalog={data.pricingCatalog} canManage={canManage} checkout={params.get('checkout')} />
            <CreditsPanel
              credits={data.credits}
              topUpLimits={data.pricingCatalog.topUp}
              canManage={canManage}
              publishableKey={publishableKey}
              confirmed={confirmedTopUps}
              onPaying={(topUp) => {
                setAnnouncement('');
                setWatching({ what: 'credit', sinceMillicents: data.credits.balanceMillicents, topUp });
              }}
            />
            <AutoTopupForm credits={data.credits} canManage={canManage} hasPaymentMethod={data.paymentMethods.length > 0} />
            <BudgetForm billing={data.billing} canManage={canManage} />
          </div>
          <PaymentMethods
            methods={data.paymentMethods}
            canManage={canManage}
            publishableKey={publishableKey}
            confirmed={confirmedCards}
            onSaving={() => {
              setAnnouncement('');
              setWatching({ what: 'card', known: data.paymentMethods.map((m) => m.id) });
            }}
          />
          <Ledger version={ledgerVersion} />
          <QuoteCalculator catalog={data.pricingCatalog} />
        </>
      ) : null}
    </div>
  );
}
