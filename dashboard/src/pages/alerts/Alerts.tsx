// Alerts: what needs a person (a monitor matched, a webhook endpoint disabled, a delivery given up,
// the budget's soft cap, a failed auto-top-up), newest first. Open ones by default; "Acknowledge"
// moves one to the acknowledged list with who did it and when. The list and page are in the
// address (?status=, ?after=).
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';
import type { AlertStatus } from '../../gql/graphql.ts';

const pageSize = 25;
const statuses: { status: AlertStatus; label: string }[] = [
  { status: 'open', label: 'Open' },
  { status: 'acknowledged', label: 'Acknowledged' },
  { status: 'all', label: 'All' },
];

/** the request log's status colours: info blue, warning amber, critical red */
const severityStyle: Record<string, string> = { info: 'status-redirect', warning: 'status-client-error', critical: 'status-server-error' };

const AlertsQuery = graphql(`
  query AlertsPage($first: Int!, $after: String, $status: AlertStatus) {
    alerts(first: $first, after: $after, status: $status) {
      nodes {
        id
        type
        severity
        title
        createdAt
        links {
          monitorId
          webhookEndpointId
        }
        acknowledged {
          by
          byName
          at
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const AcknowledgeAlert = graphql(`
  mutation AcknowledgeAlertPage($alertId: String!) {
    acknowledgeAlert(alertId: $alertId) {
      id
      acknowledged {
        by
        at
      }
    }
  }
`);

export function AlertsPage() {
  useTitle('Alerts');
  const [params] = useSearchParams();
  const status: AlertStatus = statuses.find((s) => s.status === params.get('status'))?.status ?? 'open';
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: AlertsQuery, variables: { first: pageSize, after, status }, requestPolicy: 'cache-and-network' });
  const [acknowledging, acknowledge] = useMutation(AcknowledgeAlert);
  const alerts = result.data?.alerts.nodes ?? [];

  const onAcknowledge = async (alertId: string) => {
    const done = await acknowledge({ alertId });
    if (!done.error) refetch({ requestPolicy: 'network-only' });
  };

  return (
    <>
      <h1>Alerts</h1>
      <p className="muted">What needs a person in this organization: monitor matches, webhook endpoints the service disabled, deliveries it gave up, the budget's soft cap and failed auto-top-ups. Alerts are kept as long as their events (30 days).</p>
      <nav aria-label="Which alerts" className="subnav">
        {statuses.map((s) => (
          <Link key={s.status} to={s.status === 'open' ? '/alerts' : `/alerts?status=${s.status}`} aria-current={s.status === status ? 'page' : undefined}>
            {s.label}
          </Link>
        ))}
      </nav>
      {result.fetching && !result.data ? <Loading what="the alerts" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {acknowledging.error ? <ProblemNotice error={acknowledging.error} context="Acknowledging the alert" /> : null}
      {result.data && alerts.length === 0 ? <Empty>{after ? 'No older alerts.' : status === 'open' ? 'Nothing needs you: no open alerts.' : 'No alerts.'}</Empty> : null}
      {alerts.length > 0 ? (
        <ScrollingTable label="Table of alerts">
          <table className="alerts-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Severity</th>
                <th scope="col">Alert</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((a) => (
                <tr key={a.id}>
                  <td>{formatDateTime(a.createdAt)}</td>
                  <td>
                    <span className={`status-badge ${severityStyle[a.severity]}`}>{a.severity}</span>
                  </td>
                  <th scope="row">
                    {a.title}
                    {a.links.monitorId ? (
                      <>
                        {' '}
                        <Link to={`/monitors/${a.links.monitorId}`}>Open the monitor</Link>
                      </>
                    ) : null}
                    {a.links.webhookEndpointId ? (
                      <>
                        {' '}
                        <Link to={`/webhooks/${a.links.webhookEndpointId}`}>Open the endpoint</Link>
                      </>
                    ) : null}
                  </th>
                  <td>
                    {a.acknowledged ? (
                      <span>
                        Acknowledged {formatDateTime(a.acknowledged.at)} by {a.acknowledged.byName ?? <code>{a.acknowledged.by}</code>}
                      </span>
                    ) : (
                      <button type="button" onClick={() => void onAcknowledge(a.id)} disabled={acknowledging.fetching} aria-label={`Acknowledge: ${a.title}`}>
                        Acknowledge
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of alerts" after={after} pageInfo={result.data?.alerts.pageInfo} first="Newest alerts" next="Older alerts" />
    </>
  );
}
