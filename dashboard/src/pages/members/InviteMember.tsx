// Invite member: an address and a role; the service emails a link that works once, for 7 days.
// Inviting an address with a pending invitation replaces it (only the newest link works).
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { roleChoices, roleName } from '../../components/members/roleChoices.ts';
import { ProblemNotice, useTitle } from '../../components/States.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';
import type { Role } from '../../gql/graphql.ts';
import { canManageMembers, canManageOwnership } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

const InviteMember = graphql(`
  mutation InviteMember($email: String!, $role: Role!) {
    inviteMember(email: $email, role: $role) {
      id
      email
      role
      status
      expiresAt
    }
  }
`);

export function InviteMemberPage() {
  useTitle('Invite member');
  const { role: viewerRole } = useViewer();
  const manage = canManageMembers(viewerRole);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const [emailError, setEmailError] = useState('');
  const [sent, send] = useMutation(InviteMember);
  const ids = { email: useId(), emailError: useId(), role: useId(), note: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setEmailError('Enter the email address of the person to invite, such as name@example.com.');
      return;
    }
    setEmailError('');
    await send({ email: email.trim(), role });
  };

  // the invitation just sent, until the person asks for the form again
  const [dismissed, setDismissed] = useState<string | null>(null);
  const done = sent.data?.inviteMember && sent.data.inviteMember.id !== dismissed ? sent.data.inviteMember : null;
  const again = () => {
    setEmail('');
    setDismissed(done?.id ?? null);
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/members">Members</Link>
      </p>
      <h1>Invite member</h1>
      {done ? (
        <>
          <p className="success" role="status">
            Invitation sent to <strong>{done.email}</strong> as {roleName(done.role)}. The link in the email works once, until {formatDateTime(done.expiresAt)}.
          </p>
          <div className="actions">
            <Link className="button" to="/members">
              Back to Members
            </Link>
            <button type="button" onClick={again}>
              Invite someone else
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <p className="muted">They get an email with a link; after signing in (with this address or any other) they accept it and join with the role you choose.</p>
          {manage ? null : (
            <p className="note" id={ids.note}>
              Your role ({roleName(viewerRole)}) cannot invite members: that needs owner or admin. Ask an owner or admin of this organization.
            </p>
          )}
          <div className="field">
            <label htmlFor={ids.email}>Email</label>
            <input
              id={ids.email}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="off"
              maxLength={254}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? ids.emailError : undefined}
            />
            {emailError ? (
              <p className="field-error" id={ids.emailError}>
                {emailError}
              </p>
            ) : null}
          </div>
          <fieldset>
            <legend>Role</legend>
            {roleChoices.map((choice) => {
              const ownerOnly = choice.value === 'owner' && !canManageOwnership(viewerRole);
              return (
                <div className="choice" key={choice.value}>
                  <input
                    type="radio"
                    id={`${ids.role}-${choice.value}`}
                    name="role"
                    value={choice.value}
                    checked={role === choice.value}
                    disabled={ownerOnly}
                    onChange={() => setRole(choice.value)}
                    aria-describedby={`${ids.role}-${choice.value}-about`}
                  />
                  <div>
                    <label htmlFor={`${ids.role}-${choice.value}`}>
                      <strong>{roleName(choice.value)}</strong>
                    </label>
                    <p className="muted choice-about" id={`${ids.role}-${choice.value}-about`}>
                      {choice.description}
                      {ownerOnly ? ' Only an owner invites an owner.' : ''}
                    </p>
                  </div>
                </div>
              );
            })}
          </fieldset>
          {sent.error ? <ProblemNotice error={sent.error} context="Inviting" /> : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={!manage || sent.fetching} aria-describedby={manage ? undefined : ids.note}>
              Send invitation
            </button>
            <Link to="/members">Cancel</Link>
          </div>
        </form>
      )}
    </>
  );
}
