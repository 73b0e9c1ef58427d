// An invitation, as the link of its email opens it (/invitations/<id>?token=…), or from "Your
// invitations" (no token: the signed-in address is the one invited). The person sees which
// organization and role it is for, and accepts it: their session moves to that organization and
// the Overview shows it. An invitation that was used, withdrawn or not accepted in time says so,
// and what to do instead.
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { authApi } from '../../auth.ts';
import { useClientControl } from '../../client.tsx';
import { describeRole, roleName } from '../../components/members/roleChoices.ts';
import { Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';
import { describeProblem } from '../../problems.ts';

const InvitationQuery = graphql(`
  query InvitationPage($id: String!, $token: String) {
    me {
      user {
        email
      }
      organization {
        id
      }
      memberships {
        organization {
          id
        }
      }
    }
    invitation(id: $id, token: $token) {
      id
      email
      role
      status
      createdAt
      expiresAt
      acceptedAt
      revokedAt
      organization {
        id
        name
      }
      invitedBy {
        email
      }
    }
  }
`);

const AcceptInvitation = graphql(`
  mutation AcceptInvitation($id: String!, $token: String) {
    acceptInvitation(id: $id, token: $token) {
      role
      sessionMoved
      organization {
        id
        name
      }
    }
  }
`);

const SwitchToOrganization = graphql(`
  mutation SwitchToInvitedOrganization($organizationId: String!) {
    switchOrganization(organizationId: $organizationId) {
      role
    }
  }
`);

/** What a refused link means, in words a person can act on. */
function refusalAdvice(code: string): string {
  if (code === 'invitation_invalid') return 'Open the link from the latest invitation email, or ask whoever invited you to send a new one.';
  if (code === 'invitation_not_found') return 'The link may be incomplete: open it again from the email, or ask whoever invited you to send a new one.';
  return '';
}

export function InvitationPage() {
  useTitle('Invitation');
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token');
  const location = useLocation();
  const navigate = useNavigate();
  const { reset } = useClientControl();
  const [result, refetch] = useQuery({ query: InvitationQuery, variables: { id, token }, requestPolicy: 'network-only' });
  const [accepted, accept] = useMutation(AcceptInvitation);
  const [switched, switchTo] = useMutation(SwitchToOrganization);
  const [signOutError, setSignOutError] = useState<unknown>(null);

  const invitation = result.data?.invitation;
  const me = result.data?.me;
  const member = Boolean(invitation && me?.memberships.some((m) => m.organization.id === invitation.organization.id));
  const current = Boolean(invitation && me?.organization?.id === invitation.organization.id);
  const otherAddress = Boolean(invitation && me?.user && me.user.email.toLowerCase() !== invitation.email.toLowerCase());
  const inviter = invitation?.invitedBy?.email ?? 'whoever invited you';
  const joined = accepted.data?.acceptInvitation;

  const showOverview = () => {
    // every answer cached so far was another organization's
    reset();
    navigate('/', { replace: true });
  };

  const onAccept = async () => {
    const answer = await accept({ id, token });
    if (!answer.error && answer.data?.acceptInvitation.sessionMoved) showOverview();
  };

  const onSwitch = async (organizationId: string) => {
    const answer = await switchTo({ organizationId });
    if (!answer.error) showOverview();
  };

  const signInAsInvited = async () => {
    setSignOutError(null);
    try {
      await authApi.signOut();
      reset();
      navigate(`/sign-in?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`, { replace: true });
    } catch (e) {
      setSignOutError(e);
    }
  };

  const refused = result.error ? describeProblem(result.error) : null;

  return (
    <>
      <p className="crumbs">
        <Link to="/invitations">Your invitations</Link>
      </p>
      <h1>Invitation</h1>
      {result.fetching && !result.data ? <Loading what="the invitation" /> : null}
      {result.error ? (
        <>
          <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} />
          {refused && refusalAdvice(refused.code) ? <p>{refusalAdvice(refused.code)}</p> : null}
        </>
      ) : null}
      {invitation ? (
        <section className="invitation" aria-label={`Invitation to ${invitation.organization.name}`}>
          <p className="invitation-lead">
            {invitation.invitedBy ? <strong>{invitation.invitedBy.email}</strong> : 'Someone'} invited <strong>{invitation.email}</strong> to join{' '}
            <strong>{invitation.organization.name}</strong> as {roleName(invitation.role)}.
          </p>
          <dl className="pairs">
            <dt>Organization</dt>
            <dd>{invitation.organization.name}</dd>
            <dt>Role</dt>
            <dd>
              {roleName(invitation.role)}: {describeRole(invitation.role)}
            </dd>
            <dt>Sent</dt>
            <dd>{formatDateTime(invitation.createdAt)}</dd>
            {invitation.status === 'pending' || invitation.status === 'expired' ? (
              <>
                <dt>{invitation.status === 'expired' ? 'Expired' : 'Link works until'}</dt>
                <dd>{formatDateTime(invitation.expiresAt)}</dd>
              </>
            ) : null}
          </dl>

          {joined && !joined.sessionMoved ? (
            <>
              <p className="success" role="status">
                You joined {joined.organization.name} as {roleName(joined.role)}.
              </p>
              <button type="button" className="primary" disabled={switched.fetching} onClick={() => void onSwitch(joined.organization.id)}>
                Switch to {joined.organization.name}
              </button>
            </>
          ) : invitation.status === 'pending' ? (
            member ? (
              <>
                <p className="note">You are already a member of {invitation.organization.name}: there is nothing to accept.</p>
                {current ? (
                  <Link className="button" to="/">
                    Go to the Overview
                  </Link>
                ) : (
                  <button type="button" className="primary" disabled={switched.fetching} onClick={() => void onSwitch(invitation.organization.id)}>
                    Switch to {invitation.organization.name}
                  </button>
                )}
              </>
            ) : (
              <>
                {otherAddress ? (
                  <div className="note">
                    <p>
                      This invitation was sent to <strong>{invitation.email}</strong>, and you are signed in as <strong>{me?.user?.email}</strong>. Accepting it makes{' '}
                      <strong>{me?.user?.email}</strong> the member. To join as {invitation.email} instead, sign in with that address.
                    </p>
                    <button type="button" onClick={() => void signInAsInvited()}>
                      Sign in as {invitation.email}
                    </button>
                    {signOutError ? <ProblemNotice error={signOutError} context="Signing out" /> : null}
                  </div>
                ) : null}
                <div className="actions">
                  <button type="button" className="primary" disabled={accepted.fetching} onClick={() => void onAccept()}>
                    Accept invitation
                  </button>
                  <Link to={me?.organization ? '/' : '/invitations'}>Not now</Link>
                </div>
              </>
            )
          ) : invitation.status === 'accepted' ? (
            <>
              <p className="note">
                This invitation was accepted {formatDateTime(invitation.acceptedAt)}; its link works only once.{' '}
                {member ? `You are a member of ${invitation.organization.name}.` : `If you need to join ${invitation.organization.name}, ask ${inviter} for a new invitation.`}
              </p>
              {member && !current ? (
                <button type="button" className="primary" disabled={switched.fetching} onClick={() => void onSwitch(invitation.organization.id)}>
                  Switch to {invitation.organization.name}
                </button>
              ) : null}
            </>
          ) : invitation.status === 'revoked' ? (
            <p className="note">
              This invitation was withdrawn {formatDateTime(invitation.revokedAt)}, or replaced by a newer one to the same address. Open the link of the latest invitation email, or
              ask {inviter} to invite you again.
            </p>
          ) : (
            <p className="note">
              This invitation was not accepted in time: its link worked for 7 days, until {formatDateTime(invitation.expiresAt)}. Ask {inviter} to invite you again.
            </p>
          )}
          {accepted.error ? <ProblemNotice error={accepted.error} context="Accepting the invitation" /> : null}
          {switched.error ? <ProblemNotice error={switched.error} context="Switching organization" /> : null}
        </section>
      ) : null}
    </>
  );
}
