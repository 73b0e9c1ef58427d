// Operator: one organization as the service's operators see it: plan, billing state, credit,
// usage, members and suspension, and what an operator changes: the plan, the credit (with a
// reason, for its audit log) and the suspension.
import { useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { OperatorNav } from '../../components/operator/OperatorNav.tsx';
import { Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { formatDateTime, formatMoney, formatNumber, humanize } from '../../format.ts';
import { graphql } from '../../gql';

const OrganizationQuery = graphql(`
  query OperatorOrganizationPage($id: String!) {
    operatorOrganization(id: $id) {
      id
      name
      planKey
      billingState
      livemode
      isDemo
      createdAt
      suspendedAt
      suspendedReason
      memberCount
      creditBalanceMillicents
      usageLast24h {
        requests
        errors
      }
      usageLast30d {
        requests
        errors
      }
      members {
        id
        email
        role
        joinedAt
        lastSignInAt
      }
    }
    pricingCatalog {
      plans {
        key
        name
      }
    }
  }
`);

const SetPlan = graphql(`
  mutation OperatorSetPlanFromPage($organizationId: String!, $planKey: String!, $billingState: String) {
    operatorSetPlan(organizationId: $organizationId, planKey: $planKey, billingState: $billingState) {
      id
      planKey
      billingState
    }
  }
`);

const AdjustCredits = graphql(`
  mutation OperatorAdjustCreditsFromPage($organizationId: String!, $amountCents: Int!, $reason: String!) {
    operatorAdjustCredits(organizationId: $organizationId, amountCents: $amountCents, reason: $reason) {
      ledgerEntryId
      amountMillicents
      balanceAfterMillicents
      organization {
        id
        creditBalanceMillicents
      }
    }
  }
`);

const Suspend = graphql(`
  mutation OperatorSuspendFromPage($organizationId: String!, $reason: String!) {
    suspendOrganization(organizationId: $organizationId, reason: $reason) {
      id
      suspendedAt
      suspendedReason
    }
  }
`);

const Unsuspend = graphql(`
  mutation OperatorUnsuspendFromPage($organizationId: String!) {
    unsuspendOrganization(organizationId: $organizationId) {
      id
      suspendedAt
      suspendedReason
    }
  }
`);

const billingStates = ['sandbox_grant', 'active', 'past_due', 'canceled'] as const;
const money = (millicents: number) => formatMoney(millicents / 1000);

/** "12.50" or "-3" dollars → whole cents; null when it is not an amount. */
function centsOf(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, '');
  if (!/^-?\d{1,7}(\.\d{1,2})?$/.test(trimmed)) return null;
  const cents = Math.round(Number(trimmed) * 100);
  return cents === 0 ? null : cents;
}

export function OperatorOrganizationPage() {
  const { orgId = '' } = useParams();
  const [result, refetch] = useQuery({ query: OrganizationQuery, variables: { id: orgId }, requestPolicy: 'cache-and-network' });
  const org = result.data?.operatorOrganization;
  useTitle(org?.name ?? 'Organization');
  const ids = { plan: useId(), state: useId(), amount: useId(), amountHint: useId(), reason: useId(), suspendReason: useId() };

  const [planKey, setPlanKey] = useState('');
  const [billingState, setBillingState] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [creditError, setCreditError] = useState('');
  const [suspendReason, setSuspendReason] = useState('');
  const [suspendError, setSuspendError] = useState('');
  const [planned, setPlan] = useMutation(SetPlan);
  const [adjusted, adjust] = useMutation(AdjustCredits);
  const [suspended, suspend] = useMutation(Suspend);
  const [unsuspended, unsuspend] = useMutation(Unsuspend);

  if (result.fetching && !result.data) return <Loading what="the organization" />;
  if (!org) {
    return (
      <>
        <p className="crumbs">
          <Link to="/operator">Operator</Link>
        </p>
        <h1>Organization</h1>
        {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      </>
    );
  }

  const plans = result.data?.pricingCatalog.plans ?? [];
  const chosenPlan = planKey || org.planKey;
  const submitPlan = async (event: FormEvent) => {
    event.preventDefault();
    await setPlan({ organizationId: org.id, planKey: chosenPlan, billingState: billingState || null });
  };
  const submitCredits = async (event: FormEvent) => {
    event.preventDefault();
    setCreditError('');
    const cents = centsOf(amount);
    if (cents === null) return setCreditError('Type an amount in dollars other than zero, such as 25 or -10.50 (negative removes credit).');
    if (!reason.trim()) return setCreditError('Say why: the reason is written to the organization\'s audit log.');
    const answer = await adjust({ organizationId: org.id, amountCents: cents, reason: reason.trim() });
    if (!answer.error) {
      setAmount('');
      setReason('');
    }
  };
  const submitSuspend = async (event: FormEvent) => {
    event.preventDefault();
    setSuspendError('');
    if (!suspendReason.trim()) return setSuspendError('Say why: the reason is kept with the suspension and written to the audit log.');
    const answer = await suspend({ organizationId: org.id, reason: suspendReason.trim() });
    if (!answer.error) setSuspendReason('');
  };

  const done = adjusted.data?.operatorAdjustCredits;
  return (
    <>
      <p className="crumbs">
        <Link to="/operator">Operator</Link>
      </p>
      <h1>{org.name}</h1>
      <OperatorNav />
      {org.suspendedAt ? (
        <p className="note">
          Suspended {formatDateTime(org.suspendedAt)}: {org.suspendedReason}. Its API keys and its members' sessions in it are refused.
        </p>
      ) : null}
      <dl className="pairs">
        <dt>Id</dt>
        <dd>
          <code>{org.id}</code>
        </dd>
        <dt>Plan</dt>
        <dd>{humanize(org.planKey)}</dd>
        <dt>Billing state</dt>
        <dd>{humanize(org.billingState)}</dd>
        <dt>Credit balance</dt>
        <dd className="credit-balance">{money(org.creditBalanceMillicents)}</dd>
        <dt>Suspended</dt>
        <dd>{org.suspendedAt ? `Since ${formatDateTime(org.suspendedAt)}` : 'No'}</dd>
        <dt>Mode</dt>
        <dd>
          {org.livemode ? 'Live' : 'Test'}
          {org.isDemo ? ', demo' : ''}
        </dd>
        <dt>Requests</dt>
        <dd>
          {formatNumber(org.usageLast24h.requests)} in 24 hours ({formatNumber(org.usageLast24h.errors)} failed), {formatNumber(org.usageLast30d.requests)} in 30 days (
          {formatNumber(org.usageLast30d.errors)} failed)
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(org.createdAt)}</dd>
      </dl>

      <h2>Members ({org.memberCount})</h2>
      <ScrollingTable label="Table of members">
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">Last sign-in</th>
            </tr>
          </thead>
          <tbody>
            {org.members.map((m) => (
              <tr key={m.id}>
                <th scope="row">{m.email}</th>
                <td>{humanize(m.role)}</td>
                <td>{formatDateTime(m.joinedAt)}</td>
                <td>{formatDateTime(m.lastSignInAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollingTable>
      {org.memberCount > org.members.length ? <p className="muted">The first {org.members.length} members, in the order they joined.</p> : null}

      <h2>Set plan</h2>
      <form onSubmit={(e) => void submitPlan(e)} className="operator-form">
        <div className="field">
          <label htmlFor={ids.plan}>Plan</label>
          <select id={ids.plan} value={chosenPlan} onChange={(e) => setPlanKey(e.target.value)}>
            {plans.some((p) => p.key === org.planKey) ? null : <option value={org.planKey}>{humanize(org.planKey)}</option>}
            {plans.map((p) => (
              <option key={p.key} value={p.key}>
                {p.name} ({p.key})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.state}>Billing state</label>
          <select id={ids.state} value={billingState} onChange={(e) => setBillingState(e.target.value)}>
            <option value="">The plan's usual state (sandbox grant for the starter plan, else active)</option>
            {billingStates.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </div>
        {planned.error ? <ProblemNotice error={planned.error} context="Setting the plan" /> : null}
        <div className="actions">
          <button type="submit" disabled={planned.fetching}>
            Set plan
          </button>
          <span role="status">{planned.data ? `Now on ${humanize(planned.data.operatorSetPlan.planKey)}, ${humanize(planned.data.operatorSetPlan.billingState)}.` : ''}</span>
        </div>
      </form>

      <h2>Adjust credits</h2>
      <form onSubmit={(e) => void submitCredits(e)} noValidate className="operator-form">
        <div className="field">
          <label htmlFor={ids.amount}>Amount in dollars</label>
          <input id={ids.amount} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} autoComplete="off" aria-describedby={ids.amountHint} />
          <p className="muted" id={ids.amountHint}>
            Negative removes credit; the balance never goes below zero.
          </p>
        </div>
        <div className="field">
          <label htmlFor={ids.reason}>Reason</label>
          <input id={ids.reason} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} autoComplete="off" />
        </div>
        {creditError ? (
          <p className="field-error" role="alert">
            {creditError}
          </p>
        ) : null}
        {adjusted.error ? <ProblemNotice error={adjusted.error} context="Adjusting credits" /> : null}
        <div className="actions">
          <button type="submit" disabled={adjusted.fetching}>
            Adjust credits
          </button>
          <span role="status">{done ? `Adjusted by ${money(done.amountMillicents)}: the balance is now ${money(done.balanceAfterMillicents)}.` : ''}</span>
        </div>
      </form>

      <h2>Suspension</h2>
      {org.suspendedAt ? (
        <>
          <p>Suspended for: {org.suspendedReason}</p>
          {unsuspended.error ? <ProblemNotice error={unsuspended.error} context="Unsuspending" /> : null}
          <div className="actions">
            <button type="button" disabled={unsuspended.fetching} onClick={() => void unsuspend({ organizationId: org.id })}>
              Unsuspend
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={(e) => void submitSuspend(e)} noValidate className="operator-form">
          <p className="muted">A suspended organization's API keys and its members' sessions in it are refused at once, until it is unsuspended.</p>
          <div className="field">
            <label htmlFor={ids.suspendReason}>Reason for suspending</label>
            <input id={ids.suspendReason} value={suspendReason} onChange={(e) => setSuspendReason(e.target.value)} maxLength={500} autoComplete="off" />
          </div>
          {suspendError ? (
            <p className="field-error" role="alert">
              {suspendError}
            </p>
          ) : null}
          {suspended.error ? <ProblemNotice error={suspended.error} context="Suspending" /> : null}
          <div className="actions">
            <button type="submit" className="danger" disabled={suspended.fetching}>
              Suspend
            </button>
          </div>
        </form>
      )}
    </>
  );
}
