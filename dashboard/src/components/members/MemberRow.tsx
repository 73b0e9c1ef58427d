// One member in the list: their address, role (changed with the select beside it), when they
// joined and last signed in, and removing them after a confirmation (or leaving, on your own row).
// What the signed-in role may not do is disabled, and the note it points to says why.
import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { useClientControl } from '../../client.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql, useFragment, type FragmentType } from '../../gql';
import type { Role } from '../../gql/graphql.ts';
import { canManageMembers, canManageOwnership } from '../../roles.tsx';
import { ProblemNotice } from '../States.tsx';
import { roleChoices, roleName } from './roleChoices.ts';
import { ConfirmAction } from '../ConfirmAction.tsx';

export const MemberRowFragment = graphql(`
  fragment MemberRow on Member {
    id
    email
    role
    joinedAt
    lastSignInAt
  }
`);

const UpdateMemberRole = graphql(`
  mutation UpdateMemberRole($memberId: String!, $role: Role!) {
    updateMemberRole(memberId: $memberId, role: $role) {
      id
      role
    }
  }
`);

const RemoveMember = graphql(`
  mutation RemoveMember($memberId: String!) {
    removeMember(memberId: $memberId) {
      left
      member {
        id
      }
    }
  }
`);

export function MemberRow(props: {
  member: FragmentType<typeof MemberRowFragment>;
  /** the signed-in person's role and id */
  viewerRole: Role | null;
  viewerId: string | null;
  /** the note saying what the signed-in role may not do */
  roleNoteId: string;
  columns: number;
}) {
  const member = useFragment(MemberRowFragment, props.member);
  const { reset } = useClientControl();
  const navigate = useNavigate();
  const [role, setRole] = useState<Role>(member.role);
  const [confirming, setConfirming] = useState(false);
  const [changed, change] = useMutation(UpdateMemberRole);
  const [removed, remove] = useMutation(RemoveMember);
  const ids = { select: useId(), reason: useId(), confirm: useId() };
  const yourself = member.id === props.viewerId;
  // the role as the service now has it, after a change here or elsewhere
  useEffect(() => setRole(member.role), [member.role]);

  // An owner's role is an owner's to change; anyone else's, an owner's or an admin's.
  const ownerOnly = member.role === 'owner' && !canManageOwnership(props.viewerRole);
  const reason = !canManageMembers(props.viewerRole)
    ? props.roleNoteId
    : ownerOnly
      ? ids.reason
      : undefined;
  const mayChange = reason === undefined;
  const mayRemove = yourself || mayChange;

  const saveRole = async () => {
    const result = await change({ memberId: member.id, role });
    // your own role changed: every page's answer (and what it allows) is now another
    if (!result.error && yourself) reset();
  };

  const confirmRemove = async () => {
    const result = await remove({ memberId: member.id });
    if (!result.error && yourself) {
      reset();
      navigate('/', { replace: true });
    }
  };

  return (
    <>
      <tr>
        <th scope="row">
          {member.email}
          {yourself ? <span className="muted"> (you)</span> : null}
        </th>
        <td data-label="Role">
          <div className="member-role">
            <label htmlFor={ids.select} className="visually-hidden">
              Role of {member.email}
            </label>
            <select id={ids.select} value={role} disabled={!mayChange || changed.fetching} aria-describedby={reason} onChange={(e) => setRole(e.target.value as Role)}>
              {roleChoices.map((choice) => (
                <option key={choice.value} value={choice.value} disabled={choice.value === 'owner' && !canManageOwnership(props.viewerRole) && member.role !== 'owner'}>
                  {roleName(choice.value)}
                </option>
              ))}
            </select>
            {mayChange ? (
              <button type="button" disabled={role === member.role || changed.fetching} onClick={() => void saveRole()}>
                Change role<span className="visually-hidden"> of {member.email}</span>
              </button>
            ) : null}
          </div>
          {ownerOnly && canManageMembers(props.viewerRole) ? (
            <p className="muted member-reason" id={ids.reason}>
              Only an owner changes or removes an owner.
            </p>
          ) : null}
          {changed.error ? <ProblemNotice error={changed.error} context="Changing the role" /> : null}
        </td>
        <td data-label="Joined">{formatDateTime(member.joinedAt)}</td>
        <td data-label="Last sign-in">{formatDateTime(member.lastSignInAt)}</td>
        <td data-label="Actions">
          <button type="button" className="danger" disabled={!mayRemove} aria-describedby={mayRemove ? undefined : reason} aria-expanded={confirming} onClick={() => setConfirming(true)}>
            {yourself ? 'Leave' : 'Remove'}
          </button>
        </td>
      </tr>
      {confirming ? (
        <tr className="confirm-row">
          <td colSpan={props.columns}>
            <ConfirmAction
              label={yourself ? 'Leave the organization' : `Remove ${member.email}`}
              action={yourself ? 'Leave organization' : 'Remove member'}
              busy={removed.fetching}
              onConfirm={() => void confirmRemove()}
              onCancel={() => setConfirming(false)}
              error={removed.error}
              errorContext={yourself ? 'Leaving' : 'Removing'}
            >
              {yourself ? (
                <>Leave this organization? You lose access to it at once; only an invitation brings you back.</>
              ) : (
                <>
                  Remove <strong>{member.email}</strong> ({roleName(member.role)})? They lose access to this organization from their next request; the organization's API keys keep
                  working.
                </>
              )}
            </ConfirmAction>
          </td>
        </tr>
      ) : null}
    </>
  );
}
