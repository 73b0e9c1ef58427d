// One API key in the list: its name, prefix, scopes, when it was made and last used, and
// revoking it (after a confirmation) or rotating it.
import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { graphql, useFragment, type FragmentType } from '../gql';
import { formatDateTime } from '../format.ts';
import { ConfirmAction } from './ConfirmAction.tsx';

export const ApiKeyRowFragment = graphql(`
  fragment ApiKeyRow on ApiKey {
    id
    name
    hint
    scopes
    createdAt
    lastUsedAt
    revokedAt
  }
`);

export const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: String!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`);

export const scopeNames: Record<string, string> = { organization: 'Full access', read: 'Read only' };

export function ApiKeyRow(props: { apiKey: FragmentType<typeof ApiKeyRowFragment>; columns: number }) {
  const key = useFragment(ApiKeyRowFragment, props.apiKey);
  const [confirming, setConfirming] = useState(false);
  const [revoked, revoke] = useMutation(RevokeApiKey);
  return (
    <>
      <tr className={key.revokedAt ? 'revoked' : undefined}>
        <th scope="row">{key.name}</th>
        <td data-label="Prefix">
          <code>{key.hint}</code>
        </td>
        <td data-label="Scopes">{key.scopes.map((s) => scopeNames[s] ?? s).join(', ')}</td>
        <td data-label="Created">{formatDateTime(key.createdAt)}</td>
        <td data-label="Last used">{formatDateTime(key.lastUsedAt)}</td>
        <td data-label="Actions">
          {key.revokedAt ? (
            <span className="muted">Revoked {formatDateTime(key.revokedAt)}</span>
          ) : (
            <div className="actions">
              <Link to={`/keys/${encodeURIComponent(key.id)}/rotate`}>Rotate</Link>
              <button type="button" className="danger" onClick={() => setConfirming(true)} aria-expanded={confirming}>
                Revoke
              </button>
            </div>
          )}
        </td>
      </tr>
      {confirming && !key.revokedAt ? (
        <tr className="confirm-row">
          <td colSpan={props.columns}>
            <ConfirmAction
              label={`Revoke ${key.name}`}
              action="Revoke key"
              busy={revoked.fetching}
              onConfirm={() => void revoke({ id: key.id })}
              onCancel={() => setConfirming(false)}
              error={revoked.error}
              errorContext="Revoking"
            >
              Revoke <strong>{key.name}</strong>? Every program using it is refused from the next request, on every instance. This cannot be undone.
            </ConfirmAction>
          </td>
        </tr>
      ) : null}
    </>
  );
}
