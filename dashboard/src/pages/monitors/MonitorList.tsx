// Monitors: the organization's saved reads, newest first, each with what it watches, where its
// matches go, when it was created and last checked, and how many matches wait. Pages by cursor
// (?after=) like every list.
import { Pager } from '../../components/Pager.tsx';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { asDelivery, asQuery, deliveryText, paramsText, thresholdText } from '../../components/monitors/MonitorSpec.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

// each row counts its waiting matches (a scan of what was ingested since its check): 20 a page
const pageSize = 20;

const MonitorsQuery = graphql(`
  query MonitorsPage($first: Int!, $after: String) {
    monitors(first: $first, after: $after) {
      nodes {
        id
        name
        query
        delivery
        isActive
        createdAt
        lastCheckedAt
        deactivatedAt
        waitingMatches(upTo: 10) {
          count
          hasMore
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    webhookEndpoints(first: 25) {
      nodes {
        id
        url
      }
    }
  }
`);

export function MonitorListPage() {
  useTitle('Monitors');
  const { role } = useViewer();
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: MonitorsQuery, variables: { first: pageSize, after }, requestPolicy: 'cache-and-network' });
  const monitors = result.data?.monitors.nodes ?? [];
  const endpoints = result.data?.webhookEndpoints.nodes ?? [];
  const pageInfo = result.data?.monitors.pageInfo;

  return (
    <>
      <div className="page-head">
        <h1>Monitors</h1>
        <Link className="button primary" to="/monitors/new">
          New monitor
        </Link>
      </div>
      <p className="muted">A monitor saves one list read and watches for records ingested after it last looked: filings, forms, 8-K events or facts past a threshold.</p>
      {canManageIntegrations(role) ? null : <IntegrationsRoleNote role={role} what="monitors" />}
      {result.fetching && !result.data ? <Loading what="monitors" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && monitors.length === 0 ? (
        <Empty>
          {after ? 'There are no older monitors.' : 'This organization has no monitors yet.'} <Link to="/monitors/new">New monitor</Link> turns a sentence such as “Alert me
          when Apple files an 8-K” into one.
        </Empty>
      ) : null}
      {monitors.length > 0 ? (
        <ScrollingTable label="Table of monitors">
          <table className="monitors">
            <thead>
              <tr>
                <th scope="col">Monitor</th>
                <th scope="col">Watches</th>
                <th scope="col">Destination</th>
                <th scope="col">Created</th>
                <th scope="col">Last checked</th>
                <th scope="col">Matches waiting</th>
              </tr>
            </thead>
            <tbody>
              {monitors.map((m) => {
                const query = asQuery(m.query);
                const threshold = thresholdText(query);
                return (
                  <tr key={m.id} className={m.isActive ? undefined : 'revoked'}>
                    <th scope="row">
                      <Link to={`/monitors/${encodeURIComponent(m.id)}`}>{m.name}</Link>
                      {m.isActive ? null : <span className="muted"> (deleted {formatDateTime(m.deactivatedAt)})</span>}
                    </th>
                    <td data-label="Watches">
                      <code className="wrap">{query.route}</code> <span className="wrap">{paramsText(query)}</span>
                      {threshold ? <span> ({threshold})</span> : null}
                    </td>
                    <td data-label="Destination">{deliveryText(asDelivery(m.delivery), endpoints)}</td>
                    <td data-label="Created">{formatDateTime(m.createdAt)}</td>
                    <td data-label="Last checked">{formatDateTime(m.lastCheckedAt)}</td>
                    <td data-label="Matches waiting">{m.waitingMatches ? `${m.waitingMatches.count}${m.waitingMatches.hasMore ? '+' : ''}` : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of monitors" after={after} pageInfo={pageInfo} first="Newest monitors" next="Older monitors" />
    </>
  );
}
