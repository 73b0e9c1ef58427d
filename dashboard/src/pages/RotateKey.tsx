// Rotating a key, step by step: make a replacement with the same scopes, put its secret where
// the old one is used, see the replacement being used, then revoke the old key. The replacement's
// id (never its secret) is kept in the URL, so that the page can be reloaded or shared mid-way.
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useViewer } from '../viewer.tsx';
import { RevokeApiKey, scopeNames } from '../components/ApiKeyRow.tsx';
import { SecretOnce } from '../components/SecretOnce.tsx';
import { Loading, ProblemNotice, useTitle } from '../components/States.tsx';
import { formatDateTime } from '../format.ts';
import { graphql } from '../gql';
import { canManageKeys, RoleNote } from '../roles.tsx';
import { CreateApiKey } from './CreateKey.tsx';

const RotateKeyQuery = graphql(`
  query RotateKeyPage($id: String!, $replacementId: String!, $withReplacement: Boolean!) {
    old: apiKey(id: $id) {
      id
      name
      hint
      scopes
      lastUsedAt
      revokedAt
    }
    replacement: apiKey(id: $replacementId) @include(if: $withReplacement) {
      id
      name
      hint
      lastUsedAt
      revokedAt
    }
  }
`);

const today = () => new Date().toISOString().slice(0, 10);

export function RotateKeyPage() {
  useTitle('Rotate key');
  const { role } = useViewer();
  const { keyId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const replacementId = params.get('replacement') ?? '';
  const [result, refetch] = useQuery({
    query: RotateKeyQuery,
    variables: { id: keyId, replacementId, withReplacement: Boolean(replacementId) },
    requestPolicy: 'cache-and-network',
  });
  const [created, create] = useMutation(CreateApiKey);
  const [revoked, revoke] = useMutation(RevokeApiKey);

  const madeId = created.data?.createApiKey.apiKey.id;
  useEffect(() => {
    if (madeId && madeId !== replacementId) setParams({ replacement: madeId }, { replace: true });
  }, [madeId, replacementId, setParams]);

  const old = result.data?.old;
  const replacement = result.data?.replacement ?? null;
  const inUse = Boolean(replacement?.lastUsedAt);
  const finished = Boolean(old?.revokedAt && replacement);
  const step = !replacement ? 1 : finished ? 5 : inUse ? 4 : 2;
  const stepClass = (n: number) => (n < step ? 'step done' : n === step ? 'step current' : 'step');

  return (
    <>
      <p className="crumbs">
        <Link to="/keys">API keys</Link>
      </p>
      <h1>Rotate key</h1>
      {result.fetching && !result.data ? <Loading what="the key" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && !old ? (
        <div className="problem" role="alert">
          <p className="problem-title">
            <strong>Key not found</strong>
          </p>
          <p>
            This organization has no key <code>{keyId}</code>. <Link to="/keys">Back to API keys</Link>
          </p>
        </div>
      ) : null}
      {old ? (
        <>
          <p>
            Replacing <strong>{old.name}</strong> (<code>{old.hint}</code>, {old.scopes.map((s) => scopeNames[s] ?? s).join(', ')}) without downtime: both keys work until the
            last step.
          </p>
          {canManageKeys(role) ? null : <RoleNote role={role} />}
          {old.revokedAt && !replacement ? <p className="note">This key is already revoked: create a new key instead.</p> : null}
          <ol className="steps">
            <li className={stepClass(1)}>
              <h2>Create the replacement</h2>
              {replacement ? (
                <p>
                  Created <strong>{replacement.name}</strong> (<code>{replacement.hint}</code>) with the same scopes.
                </p>
              ) : (
                <>
                  <p>A new key with the same scopes, named after the old one.</p>
                  <button
                    type="button"
                    className="primary"
                    disabled={created.fetching || Boolean(old.revokedAt)}
                    onClick={() => void create({ name: `${old.name} (rotated ${today()})`, scopes: old.scopes })}
                  >
                    Create replacement key
                  </button>
                  {created.error ? <ProblemNotice error={created.error} context="Creating the replacement" /> : null}
                </>
              )}
              {created.data ? <SecretOnce secret={created.data.createApiKey.secret} name={created.data.createApiKey.apiKey.name} /> : null}
            </li>
            <li className={stepClass(2)}>
              <h2>Deploy it</h2>
              <p>
                Put the new secret wherever <strong>{old.name}</strong> is used (environment variables, secret stores, CI) and restart what reads it. The old key keeps working
                meanwhile.
              </p>
            </li>
            <li className={stepClass(3)}>
              <h2>Check the replacement is in use</h2>
              {replacement ? (
                <>
                  <dl className="pairs">
                    <dt>Replacement last used</dt>
                    <dd>{formatDateTime(replacement.lastUsedAt)}</dd>
                    <dt>Old key last used</dt>
                    <dd>{formatDateTime(old.lastUsedAt)}</dd>
                  </dl>
                  {inUse ? null : (
                    <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })} disabled={result.fetching}>
                      Check again
                    </button>
                  )}
                </>
              ) : (
                <p className="muted">After the replacement exists.</p>
              )}
            </li>
            <li className={stepClass(4)}>
              <h2>Revoke the old key</h2>
              {old.revokedAt ? (
                <p>Revoked {formatDateTime(old.revokedAt)}.</p>
              ) : (
                <>
                  <p>
                    {inUse || !replacement
                      ? 'Programs still using the old key are refused from then on.'
                      : 'The replacement has not been used yet: revoking now stops whatever still uses the old key.'}
                  </p>
                  <button type="button" className="danger" disabled={!replacement || revoked.fetching} onClick={() => void revoke({ id: old.id })}>
                    Revoke old key
                  </button>
                  {revoked.error ? <ProblemNotice error={revoked.error} context="Revoking" /> : null}
                </>
              )}
            </li>
          </ol>
          {finished ? (
            <p className="success" role="status">
              Rotation complete. <Link to="/keys">Back to API keys</Link>
            </p>
          ) : null}
        </>
      ) : null}
    </>
  );
}
