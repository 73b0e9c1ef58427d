// API keys: the organization's keys (revoked ones on request), creating, rotating and revoking
// them. A key created elsewhere (another tab, the CLI) appears at once: the page subscribes to
// keyAdded over graphql-ws.
import { Pager } from '../components/Pager.tsx';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { useViewer } from '../viewer.tsx';
import { ApiKeyRow } from '../components/ApiKeyRow.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../components/States.tsx';
import { graphql } from '../gql';
import { canManageKeys, RoleNote } from '../roles.tsx';

// Every field of a page is priced per key (GraphQL cost): 20 keys a page keeps a visit cheap.
export const pageSize = 20;

export const ApiKeysQuery = graphql(`
  query ApiKeysPage($first: Int!, $after: String) {
    apiKeys(first: $first, after: $after) {
      nodes {
        id
        revokedAt
        ...ApiKeyRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const KeyAddedSubscription = graphql(`
  subscription KeyAdded {
    keyAdded {
      eventId
      apiKey {
        id
        name
      }
    }
  }
`);

const columns = 6;

export function ApiKeysPage() {
  useTitle('API keys');
  const { role } = useViewer();
  const [params, setParams] = useSearchParams();
  const showRevoked = params.get('revoked') === 'show';
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: ApiKeysQuery, variables: { first: pageSize, after }, requestPolicy: 'cache-and-network' });
  const [added] = useSubscription({ query: KeyAddedSubscription });
  const [announcement, setAnnouncement] = useState('');

  const addedEvent = added.data?.keyAdded;
  useEffect(() => {
    if (!addedEvent) return;
    setAnnouncement(`Key “${addedEvent.apiKey.name}” was created.`);
    refetch({ requestPolicy: 'network-only' });
  }, [addedEvent?.eventId]);

  const keys = result.data?.apiKeys.nodes ?? [];
  const shown = showRevoked ? keys : keys.filter((k) => !k.revokedAt);
  const revokedCount = keys.length - keys.filter((k) => !k.revokedAt).length;

  const setFilter = (show: boolean) => {
    const next = new URLSearchParams(params);
    if (show) next.set('revoked', 'show');
    else next.delete('revoked');
    setParams(next);
  };

  return (
    <>
      <div className="page-head">
        <h1>API keys</h1>
        {canManageKeys(role) ? (
          <Link className="button primary" to="/keys/new">
            Create key
          </Link>
        ) : (
          // the role may not: disabled, and the note below says why
          <button type="button" className="primary" disabled aria-describedby="keys-role-note">
            Create key
          </button>
        )}
      </div>
      <p className="muted">Programs call the API with a key in the <code>x-api-key</code> header. A key's secret is shown once, when it is created.</p>
      {canManageKeys(role) ? null : (
        <div id="keys-role-note">
          <RoleNote role={role} />
        </div>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <div className="filters">
        <label className="check">
          <input type="checkbox" checked={showRevoked} onChange={(e) => setFilter(e.target.checked)} />
          Show revoked keys{revokedCount ? ` (${revokedCount})` : ''}
        </label>
      </div>
      {result.fetching && !result.data ? <Loading what="API keys" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && shown.length === 0 ? (
        <Empty>
          {keys.length === 0 ? 'This organization has no API keys yet.' : 'Every key on this page is revoked.'} <Link to="/keys/new">Create key</Link> to call the API from a
          program.
        </Empty>
      ) : null}
      {shown.length > 0 ? (
        <ScrollingTable label="Table of API keys">
          <table className="keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((k) => (
                <ApiKeyRow key={k.id} apiKey={k} columns={columns} />
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of keys" after={after} pageInfo={result.data?.apiKeys.pageInfo} first="Newest keys" next="Older keys" />
    </>
  );
}
