// One event of a stream, as its page lists it and as the live tail shows it arriving: when,
// its type and id, the request that caused it, and its data.
import { formatDateTime } from '../../format.ts';
import { graphql, useFragment, type FragmentType } from '../../gql';

export const StreamEventItemFragment = graphql(`
  fragment StreamEventItem on StreamEvent {
    id
    type
    createdAt
    requestId
    data
  }
`);

const dataLimit = 300;

export function StreamEventItem(props: { event: FragmentType<typeof StreamEventItemFragment> }) {
  const e = useFragment(StreamEventItemFragment, props.event);
  const data = JSON.stringify(e.data);
  return (
    <li className="stream-event">
      <p className="stream-event-head">
        <code className="stream-event-type">{e.type}</code> <span className="muted">{formatDateTime(e.createdAt)}</span>
      </p>
      <p className="stream-event-meta muted">
        <code>{e.id}</code>
        {e.requestId ? (
          <>
            {' '}
            · request <code>{e.requestId}</code>
          </>
        ) : null}
      </p>
      <p className="stream-event-data">
        <code>{data.length > dataLimit ? `${data.slice(0, dataLimit)}…` : data}</code>
      </p>
    </li>
  );
}
