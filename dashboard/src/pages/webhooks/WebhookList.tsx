// Webhooks: the organization's endpoints, newest first, a page at a time (the cursor is in the
// address), each linking to its own page.
import { Pager } from '../../components/Pager.tsx';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { describeTypes } from '../../components/webhooks/EventTypePicker.tsx';
import { formatDateTime, humanize } from '../../format.ts';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

const pageSize = 20;

const WebhookListQuery = graphql(`
  query WebhookListPage($first: Int!, $after: String) {
    webhookEndpoints(first: $first, after: $after) {
      nodes {
        id
        url
        description
        status
        disabledReason
        eventTypes
        createdAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** `enabled`, or why not: the service's reason in words. */
export function endpointStatus(status: string, disabledReason: string | null): string {
  if (status === 'enabled') return 'Enabled';
  const why: Record<string, string> = { requested: 'by request', gone: 'the receiver answered 410 Gone', failing: 'no successful delivery for 5 days' };
  return disabledReason ? `Disabled: ${why[disabledReason] ?? humanize(disabledReason)}` : 'Disabled';
}

export function WebhookListPage() {
  useTitle('Webhooks');
  const { role } = useViewer();
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: WebhookListQuery, variables: { first: pageSize, after }, requestPolicy: 'cache-and-network' });
  const page = result.data?.webhookEndpoints;
  const endpoints = page?.nodes ?? [];

  return (
    <>
      <div className="page-head">
        <h1>Webhooks</h1>
        <Link className="button primary" to="/webhooks/new">
          Add endpoint
        </Link>
      </div>
      <p className="muted">
        The service sends the organization's events to your endpoints as signed HTTPS requests (Standard Webhooks), retrying for about three days. An endpoint's page shows
        its deliveries, and can send a test event or replay one.
      </p>
      {canManageIntegrations(role) ? null : <IntegrationsRoleNote role={role} what="webhook endpoints" />}
      {result.fetching && !result.data ? <Loading what="webhook endpoints" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {page && endpoints.length === 0 ? (
        <Empty>
          {after ? 'No more endpoints.' : 'This organization has no webhook endpoints yet.'} <Link to="/webhooks/new">Add endpoint</Link> to receive its events.
        </Empty>
      ) : null}
      {endpoints.length > 0 ? (
        <ScrollingTable label="Table of webhook endpoints">
          <table className="webhooks">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Event types</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id} className={endpoint.status === 'enabled' ? undefined : 'revoked'}>
                  <th scope="row">
                    <Link to={`/webhooks/${encodeURIComponent(endpoint.id)}`} className="wrap">
                      {endpoint.url}
                    </Link>
                    {endpoint.description ? <span className="int-note">{endpoint.description}</span> : null}
                  </th>
                  <td data-label="Status">{endpointStatus(endpoint.status, endpoint.disabledReason)}</td>
                  <td data-label="Event types" className="types-cell">
                    {describeTypes(endpoint.eventTypes)}
                  </td>
                  <td data-label="Created">{formatDateTime(endpoint.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of endpoints" after={after} pageInfo={page?.pageInfo} first="Newest endpoints" next="Older endpoints" />
    </>
  );
}
