// One stream: what it reads, enabling, disabling or deleting it, its events a page at a time
// (oldest first from its creation, the cursor in the address), and the live tail, which picks up
// right after the page shown. A disabled stream's events cannot be read: the page then asks for
// the stream alone.
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { LiveTail } from '../../components/streams/LiveTail.tsx';
import { StreamActions } from '../../components/streams/StreamActions.tsx';
import { StreamEventItem } from '../../components/streams/StreamEventItem.tsx';
import { Empty, Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { describeTypes } from '../../components/webhooks/EventTypePicker.tsx';
import { formatDateTime, humanize } from '../../format.ts';
import { graphql } from '../../gql';
import { describeProblem } from '../../problems.ts';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';
import { describeFilters, streamName, transportNames } from './StreamList.tsx';

const pageSize = 20;

const StreamPageQuery = graphql(`
  query StreamPage($id: String!, $cursor: String, $limit: Int!, $withEvents: Boolean!) {
    streamSubscription(id: $id) {
      id
      description
      eventTypes
      tickers
      ciks
      forms
      transport
      status
      createdAt
      updatedAt
    }
    streamSubscriptionEvents(id: $id, cursor: $cursor, limit: $limit) @include(if: $withEvents) {
      hasMore
      nextCursor
      events {
        id
        ...StreamEventItem
      }
    }
  }
`);

export function StreamPage() {
  const { streamId = '' } = useParams();
  const { role } = useViewer();
  const allowed = canManageIntegrations(role);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const cursor = params.get('cursor');
  const headingId = useId();
  // a disabled stream refuses reads of its events: then the page asks for the stream alone
  const [withEvents, setWithEvents] = useState(true);
  const [result, refetch] = useQuery({ query: StreamPageQuery, variables: { id: streamId, cursor, limit: pageSize, withEvents }, requestPolicy: 'cache-and-network' });
  const [announcement, setAnnouncement] = useState('');
  const stream = result.data?.streamSubscription;
  const page = result.data?.streamSubscriptionEvents;
  useTitle(stream ? `Stream ${streamName(stream)}` : 'Stream');

  const disabledRefusal = result.error && describeProblem(result.error).code === 'stream_subscription_disabled';
  useEffect(() => {
    if (disabledRefusal && withEvents) setWithEvents(false);
    else if (stream?.status === 'enabled' && !withEvents) setWithEvents(true);
  }, [disabledRefusal, stream?.status, withEvents]);

  const base = `/streams/${encodeURIComponent(streamId)}`;
  const filters = stream ? describeFilters(stream) : null;

  return (
    <>
      <p className="crumbs">
        <Link to="/streams">Streams</Link>
      </p>
      <h1>Stream</h1>
      {result.fetching && !result.data ? <Loading what="the stream" /> : null}
      {result.error && !disabledRefusal ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {stream ? (
        <>
          <p className="stream-name">
            <strong>{streamName(stream)}</strong> <code>{stream.id}</code>
          </p>
          {allowed ? null : <IntegrationsRoleNote role={role} what="this stream" />}
          <dl className="pairs">
            <dt>Status</dt>
            <dd>{humanize(stream.status)}</dd>
            <dt>Event types</dt>
            <dd className="wrap">{describeTypes(stream.eventTypes)}</dd>
            <dt>Filters</dt>
            <dd>{filters ?? <span className="muted">None</span>}</dd>
            <dt>Read by</dt>
            <dd>{transportNames[stream.transport] ?? stream.transport}</dd>
            <dt>Position</dt>
            <dd>Readers without a cursor start at its creation, {formatDateTime(stream.createdAt)}</dd>
          </dl>
          <StreamActions
            id={stream.id}
            name={streamName(stream)}
            status={stream.status}
            allowed={allowed}
            onChanged={setAnnouncement}
            onDeleted={() => navigate('/streams', { replace: true })}
          />

          <section aria-labelledby={`${headingId}-events`}>
            <h2 id={`${headingId}-events`}>Events</h2>
            {stream.status !== 'enabled' ? (
              <p className="note">This stream is disabled: its events cannot be read, and the live tail is closed, until it is enabled.</p>
            ) : null}
            {page ? (
              <>
                <p className="muted">Oldest first{cursor ? ', from the cursor in the address' : ', from its creation'}.</p>
                {page.events.length ? (
                  <ol className="stream-events" aria-label="Events">
                    {page.events.map((event) => (
                      <StreamEventItem key={event.id} event={event} />
                    ))}
                  </ol>
                ) : (
                  <Empty>{cursor ? 'No events after this cursor yet.' : 'No events since the stream was created.'}</Empty>
                )}
                <nav className="pager" aria-label="Pages of events">
                  {cursor ? <Link to={base}>First events</Link> : null}
                  {page.hasMore ? <Link to={`${base}?${new URLSearchParams({ cursor: page.nextCursor })}`}>Later events</Link> : null}
                </nav>
              </>
            ) : null}
          </section>

          {page && stream.status === 'enabled' ? (
            <section aria-labelledby={`${headingId}-tail`}>
              <h2 id={`${headingId}-tail`}>Live tail</h2>
              <p className="muted">Events as they happen, over a WebSocket. Pausing keeps your place: resuming sends what happened meanwhile.</p>
              <LiveTail key={stream.id} subscriptionId={stream.id} from={page.nextCursor} onEnded={() => refetch({ requestPolicy: 'network-only' })} />
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}
