// One request: what was asked and answered, what it used (meter class, units, what it paid with
// prepaid credit), the events it caused and their webhook deliveries. One GraphQL request
// (requestDiagnostics, as GET /v1/diagnostics/requests/{request_id} answers it).
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { formatRequestTime, requestLabel, StatusBadge } from '../../components/requests/RequestRow.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { formatDateTime, formatNumber, humanize } from '../../format.ts';
import { graphql } from '../../gql';
import { describeProblem } from '../../problems.ts';

const RequestQuery = graphql(`
  query RequestPage($requestId: String!) {
    requestDiagnostics(requestId: $requestId) {
      request {
        id
        createdAt
        door
        method
        path
        operation
        status
        errorCode
        meterClass
        cost
        durationMs
        apiKey {
          id
          name
          hint
          revokedAt
        }
      }
      charge {
        millicents
        ledgerEntryId
      }
      events {
        id
        type
        createdAt
      }
      deliveries {
        id
        eventId
        eventType
        webhookEndpointId
        attempt
        status
        responseStatus
        error
        createdAt
      }
    }
  }
`);

const doors: Record<string, string> = { rest: 'REST API (/v1)', graphql: 'GraphQL (/graphql)', mcp: 'MCP (/mcp)' };

/** Prepaid credit is kept in millicents: a request often costs a fraction of a cent. */
const price = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 5 });
const formatMillicents = (millicents: number) => price.format(millicents / 100_000);

export function RequestPage() {
  const { requestId = '' } = useParams();
  useTitle(`Request ${requestId}`);
  const [result, refetch] = useQuery({ query: RequestQuery, variables: { requestId }, requestPolicy: 'cache-and-network' });
  const d = result.data?.requestDiagnostics;
  const notFound = result.error && describeProblem(result.error).code === 'request_not_found';

  return (
    <>
      <p className="crumbs">
        <Link to="/requests">Requests</Link>
      </p>
      <h1 className="request-title">
        Request <code>{requestId}</code>
      </h1>
      {result.fetching && !d ? <Loading what="the request" /> : null}
      {notFound ? (
        <>
          <Empty>This organization has no request {requestId} recorded. A request appears within a second or so of its answer; another organization's requests are not shown.</Empty>
          <div className="actions">
            <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })}>
              Try again
            </button>
            <Link to="/requests">All requests</Link>
          </div>
        </>
      ) : result.error ? (
        <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} />
      ) : null}
      {d ? (
        <>
          <section aria-labelledby="request-summary">
            <h2 id="request-summary">Summary</h2>
            <dl className="pairs">
              <dt>Request</dt>
              <dd>{requestLabel(d.request)}</dd>
              <dt>Time</dt>
              <dd>{formatRequestTime(d.request.createdAt)}</dd>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={d.request.status} />
                {d.request.errorCode ? <code className="request-error-code">{d.request.errorCode}</code> : null}
              </dd>
              <dt>Door</dt>
              <dd>{doors[d.request.door] ?? d.request.door}</dd>
              <dt>Method and path</dt>
              <dd>
                <code>
                  {d.request.method} {d.request.path}
                </code>
              </dd>
              <dt>Operation</dt>
              <dd>{d.request.operation ? <code>{d.request.operation}</code> : <span className="muted">None recorded</span>}</dd>
              <dt>Key</dt>
              <dd>
                {d.request.apiKey ? (
                  <>
                    {d.request.apiKey.name} <code>{d.request.apiKey.hint}</code>
                    {d.request.apiKey.revokedAt ? <span className="muted"> (revoked)</span> : null}{' '}
                    <Link to={`/requests?key=${encodeURIComponent(d.request.apiKey.id)}`}>Requests of this key</Link>
                  </>
                ) : (
                  <span className="muted">No key: a dashboard session, or no credential</span>
                )}
              </dd>
              <dt>Duration</dt>
              <dd>{formatNumber(d.request.durationMs)} ms</dd>
            </dl>
          </section>

          <section aria-labelledby="request-usage">
            <h2 id="request-usage">Usage</h2>
            <dl className="pairs">
              <dt>Meter class</dt>
              <dd>{d.request.meterClass ? humanize(d.request.meterClass) : <span className="muted">Not metered (refused before it counted, or free)</span>}</dd>
              <dt>Units counted</dt>
              <dd>{d.request.cost != null ? formatNumber(d.request.cost) : '—'}</dd>
              <dt>Price</dt>
              <dd>
                {d.charge ? (
                  formatMillicents(d.charge.millicents)
                ) : (
                  <span className="muted">Nothing charged to prepaid credit (covered by the plan or the starter grant, free, or refused)</span>
                )}
              </dd>
              {d.charge ? (
                <>
                  <dt>Ledger entry</dt>
                  <dd>
                    <code>{d.charge.ledgerEntryId}</code>
                  </dd>
                </>
              ) : null}
            </dl>
          </section>

          <section aria-labelledby="request-events">
            <h2 id="request-events">Events</h2>
            {d.events.length === 0 ? (
              <Empty>This request caused no events.</Empty>
            ) : (
              <ScrollingTable label="Table of events the request caused">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Type</th>
                      <th scope="col">Time</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.events.map((e) => (
                      <tr key={e.id}>
                        <th scope="row">
                          <code>{e.id}</code>
                        </th>
                        <td>{e.type}</td>
                        <td>{formatDateTime(e.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollingTable>
            )}
          </section>

          <section aria-labelledby="request-deliveries">
            <h2 id="request-deliveries">Webhook deliveries</h2>
            {d.deliveries.length === 0 ? (
              <Empty>No webhook deliveries: {d.events.length ? 'no endpoint receives these events.' : 'the request caused no events to deliver.'}</Empty>
            ) : (
              <ScrollingTable label="Table of webhook deliveries of those events">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Delivery</th>
                      <th scope="col">Event</th>
                      <th scope="col">Endpoint</th>
                      <th scope="col">Attempt</th>
                      <th scope="col">Status</th>
                      <th scope="col">Answer</th>
                      <th scope="col">Time</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.deliveries.map((del) => (
                      <tr key={del.id}>
                        <th scope="row">
                          <code>{del.id}</code>
                        </th>
                        <td>{del.eventType}</td>
                        <td>
                          <code>{del.webhookEndpointId}</code>
                        </td>
                        <td>{del.attempt}</td>
                        <td>{humanize(del.status)}</td>
                        <td className="wrap">{del.responseStatus ?? del.error ?? '—'}</td>
                        <td>{formatDateTime(del.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollingTable>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
