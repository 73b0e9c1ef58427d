// Streams: the organization's stream subscriptions, newest first, a page at a time (the cursor
// is in the address): what each reads, whether it is enabled, where a reader without a cursor
// starts; enabling, disabling and deleting them; each links to its page with the live tail.
import { Pager } from '../../components/Pager.tsx';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { StreamActions } from '../../components/streams/StreamActions.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { describeTypes } from '../../components/webhooks/EventTypePicker.tsx';
import { formatDateTime, humanize } from '../../format.ts';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

const pageSize = 20;

const StreamListQuery = graphql(`
  query StreamListPage($first: Int!, $after: String) {
    streamSubscriptions(first: $first, after: $after) {
      nodes {
        id
        description
        eventTypes
        tickers
        ciks
        forms
        transport
        status
        createdAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** A subscription's name: its description, else its id. */
export const streamName = (s: { id: string; description: string }) => s.description || s.id;

/** The public-data filters in words, or null when there are none. */
export function describeFilters(s: { tickers: readonly string[]; ciks: readonly string[]; forms: readonly string[] }): string | null {
  const parts = [s.tickers.length ? `tickers ${s.tickers.join(', ')}` : '', s.ciks.length ? `CIKs ${s.ciks.join(', ')}` : '', s.forms.length ? `forms ${s.forms.join(', ')}` : ''].filter(Boolean);
  return parts.length ? parts.join('; ') : null;
}

export const transportNames: Record<string, string> = { poll: 'Polling', graphql_ws: 'Live (graphql-ws)' };

export function StreamListPage() {
  useTitle('Streams');
  const { role } = useViewer();
  const allowed = canManageIntegrations(role);
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: StreamListQuery, variables: { first: pageSize, after }, requestPolicy: 'cache-and-network' });
  const [announcement, setAnnouncement] = useState('');
  const page = result.data?.streamSubscriptions;
  const streams = page?.nodes ?? [];

  return (
    <>
      <div className="page-head">
        <h1>Streams</h1>
        <Link className="button primary" to="/streams/new">
          Create stream
        </Link>
      </div>
      <p className="muted">
        A stream is a saved reading of the event log: programs read it by cursor (GET /v1/stream_subscriptions/…/events) or live over graphql-ws, and resume from the last
        cursor they saw without missing an event. Without a cursor, a reader starts at the stream's creation (its position below). A stream's page has its events and a
        live tail.
      </p>
      {allowed ? null : <IntegrationsRoleNote role={role} what="streams" />}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {result.fetching && !result.data ? <Loading what="streams" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {page && streams.length === 0 ? (
        <Empty>
          {after ? 'No more streams.' : 'This organization has no streams yet.'} <Link to="/streams/new">Create stream</Link> to read its events by cursor or live.
        </Empty>
      ) : null}
      {streams.length > 0 ? (
        <ScrollingTable label="Table of streams">
          <table className="streams">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Reads</th>
                <th scope="col">Status</th>
                <th scope="col">Position</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {streams.map((s) => (
                <tr key={s.id} className={s.status === 'enabled' ? undefined : 'revoked'}>
                  <th scope="row">
                    <Link to={`/streams/${encodeURIComponent(s.id)}`}>{streamName(s)}</Link>
                    <span className="int-note">
                      <code>{s.id}</code>
                    </span>
                  </th>
                  <td data-label="Reads" className="types-cell">
                    {describeTypes(s.eventTypes)}
                    {describeFilters(s) ? <span className="int-note">Only {describeFilters(s)}</span> : null}
                  </td>
                  <td data-label="Status">
                    {humanize(s.status)}
                    <span className="int-note">{transportNames[s.transport] ?? s.transport}</span>
                  </td>
                  <td data-label="Position">
                    From creation, {formatDateTime(s.createdAt)}
                  </td>
                  <td data-label="Actions">
                    <StreamActions id={s.id} name={streamName(s)} status={s.status} allowed={allowed} onChanged={setAnnouncement} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of streams" after={after} pageInfo={page?.pageInfo} first="Newest streams" next="Older streams" />
    </>
  );
}
