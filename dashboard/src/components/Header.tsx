// The header of every signed-in page: where you are, which organization you work in (switch it
// here), and signing out.
import { useId, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { authApi } from '../auth.ts';
import { useClientControl } from '../client.tsx';
import { graphql, useFragment, type FragmentType } from '../gql';
import { humanize } from '../format.ts';
import { ProblemNotice } from './States.tsx';

export const HeaderFragment = graphql(`
  fragment HeaderMe on Principal {
    role
    operator
    user {
      email
    }
    organization {
      id
      name
    }
    memberships {
      role
      organization {
        id
        name
      }
    }
  }
`);

const SwitchOrganization = graphql(`
  mutation SwitchOrganization($organizationId: String!) {
    switchOrganization(organizationId: $organizationId) {
      role
    }
  }
`);

/** Ends the session (and clears its cookie) through POST /v1/auth/sign-out, then shows "Sign in". */
export function SignOutButton() {
  const navigate = useNavigate();
  const { reset } = useClientControl();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    setError(null);
    try {
      await authApi.signOut();
      reset();
      navigate('/sign-in', { replace: true });
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void signOut()} disabled={busy}>
        Sign out
      </button>
      {error ? <ProblemNotice error={error} context="Signing out" /> : null}
    </>
  );
}

export function Header(props: { me: FragmentType<typeof HeaderFragment> }) {
  const me = useFragment(HeaderFragment, props.me);
  const { reset } = useClientControl();
  const [switched, switchOrganization] = useMutation(SwitchOrganization);
  const selectId = useId();

  const onSwitch = async (organizationId: string) => {
    const result = await switchOrganization({ organizationId });
    // every answer cached so far was the other organization's
    if (!result.error) reset();
  };

  return (
    <header className="top">
      <div className="top-row">
        <Link to="/" className="brand">
          Investor Data Service
        </Link>
        <nav aria-label="Main">
          <NavLink to="/" end>
            Overview
          </NavLink>
          <NavLink to="/keys">API keys</NavLink>
          <NavLink to="/requests">Requests</NavLink>
          <NavLink to="/webhooks">Webhooks</NavLink>
          <NavLink to="/streams">Streams</NavLink>
          <NavLink to="/monitors">Monitors</NavLink>
          <NavLink to="/search">Search</NavLink>
          <NavLink to="/filings">Filings</NavLink>
          <NavLink to="/portfolio">Portfolio lab</NavLink>
          <NavLink to="/billing">Billing</NavLink>
          <NavLink to="/members">Members</NavLink>
          <NavLink to="/alerts">Alerts</NavLink>
          <NavLink to="/audit-log">Audit log</NavLink>
          {me.operator ? <NavLink to="/operator">Operator</NavLink> : null}
          {/* the service's GraphiQL, outside the app: it runs signed in with this session */}
          <a href="/graphql">GraphiQL</a>
        </nav>
      </div>
      <div className="top-row account">
        <div className="org-switcher">
          <label htmlFor={selectId}>Organization</label>
          <select id={selectId} value={me.organization?.id ?? ''} disabled={switched.fetching} onChange={(e) => void onSwitch(e.target.value)}>
            {me.organization ? null : <option value="">None</option>}
            {me.memberships.map((m) => (
              <option key={m.organization.id} value={m.organization.id}>
                {m.organization.name} ({humanize(m.role)})
              </option>
            ))}
          </select>
        </div>
        <span className="who">{me.user?.email}</span>
        <SignOutButton />
      </div>
      {switched.error ? <ProblemNotice error={switched.error} context="Switching organization" /> : null}
    </header>
  );
}

/** The header while the account could not be read (a refusal, an outage): signing out still works. */
export function BareHeader() {
  return (
    <header className="top">
      <div className="top-row">
        <span className="brand">Investor Data Service</span>
      </div>
      <div className="top-row account">
        <SignOutButton />
      </div>
    </header>
  );
}
