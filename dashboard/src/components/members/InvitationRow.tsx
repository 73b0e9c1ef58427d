// One pending invitation of the organization: the address and role invited, who sent it, until
// when its link works, and withdrawing it (after a confirmation).
import { useState } from 'react';
import { useMutation } from 'urql';
import { formatDateTime } from '../../format.ts';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { roleName } from './roleChoices.ts';
import { ConfirmAction } from '../ConfirmAction.tsx';

export const InvitationRowFragment = graphql(`
  fragment InvitationRow on Invitation {
    id
    email
    role
    createdAt
    expiresAt
    invitedBy {
      id
      email
    }
  }
`);

const RevokeInvitation = graphql(`
  mutation RevokeInvitation($id: String!) {
    revokeInvitation(id: $id) {
      id
      status
      revokedAt
    }
  }
`);

export function InvitationRow(props: { invitation: FragmentType<typeof InvitationRowFragment>; columns: number }) {
  const invitation = useFragment(InvitationRowFragment, props.invitation);
  const [confirming, setConfirming] = useState(false);
  const [revoked, revoke] = useMutation(RevokeInvitation);
  return (
    <>
      <tr>
        <th scope="row">{invitation.email}</th>
        <td data-label="Role">{roleName(invitation.role)}</td>
        <td data-label="Invited by">{invitation.invitedBy?.email ?? <span className="muted">A former member</span>}</td>
        <td data-label="Sent">{formatDateTime(invitation.createdAt)}</td>
        <td data-label="Link works until">{formatDateTime(invitation.expiresAt)}</td>
        <td data-label="Actions">
          <button type="button" className="danger" aria-expanded={confirming} onClick={() => setConfirming(true)}>
            Revoke
          </button>
        </td>
      </tr>
      {confirming ? (
        <tr className="confirm-row">
          <td colSpan={props.columns}>
            <ConfirmAction
              label={`Revoke the invitation of ${invitation.email}`}
              action="Revoke invitation"
              busy={revoked.fetching}
              onConfirm={() => void revoke({ id: invitation.id })}
              onCancel={() => setConfirming(false)}
              error={revoked.error}
              errorContext="Revoking the invitation"
            >
              Revoke the invitation of <strong>{invitation.email}</strong>? Its link stops working at once; you can invite the address again later.
            </ConfirmAction>
          </td>
        </tr>
      ) : null}
    </>
  );
}
