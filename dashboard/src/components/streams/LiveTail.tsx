// The live tail of a stream: its events as they happen, over graphql-ws (Subscription.streamEvents),
// starting right after the events the page listed. "Pause" closes the stream; "Resume" opens it
// again from the cursor of the last event seen, so that the service sends what happened
// meanwhile, nothing twice and nothing skipped.
import { useEffect, useRef, useState } from 'react';
import { useClient, type CombinedError } from 'urql';
import { graphql } from '../../gql';
import type { StreamTailSubscription } from '../../gql/graphql.ts';
import { ProblemNotice } from '../States.tsx';
import { StreamEventItem } from './StreamEventItem.tsx';

const StreamTail = graphql(`
  subscription StreamTail($subscriptionId: String!, $cursor: String) {
    streamEvents(subscriptionId: $subscriptionId, cursor: $cursor) {
      id
      cursor
      ...StreamEventItem
    }
  }
`);

type TailEvent = StreamTailSubscription['streamEvents'];

/** The tail keeps this many events on screen, the latest. */
const kept = 200;

export function LiveTail({ subscriptionId, from }: { subscriptionId: string; from: string }) {
  const client = useClient();
  const [state, setState] = useState<'idle' | 'live' | 'paused'>('idle');
  // where the open stream started: changes only when it is (re)opened, never per event
  const [openedAt, setOpenedAt] = useState(from);
  const [events, setEvents] = useState<TailEvent[]>([]);
  const [error, setError] = useState<CombinedError | null>(null);
  const last = useRef<string | null>(null);

  useEffect(() => {
    if (state !== 'live') return;
    const subscription = client.subscription(StreamTail, { subscriptionId, cursor: openedAt }).subscribe((result) => {
      if (result.error) {
        setError(result.error);
        setState('paused');
        return;
      }
      const event = result.data?.streamEvents;
      if (!event) return;
      last.current = event.cursor;
      setEvents((shown) => (shown.some((e) => e.id === event.id) ? shown : [...shown, event].slice(-kept)));
    });
    return () => subscription.unsubscribe();
  }, [state, openedAt, subscriptionId, client]);

  const start = () => {
    setError(null);
    setOpenedAt(last.current ?? from);
    setState('live');
  };

  return (
    <div className="live-tail">
      <div className="actions">
        {state === 'idle' ? (
          <button type="button" className="primary" onClick={start}>
            Live tail
          </button>
        ) : state === 'live' ? (
          <button type="button" onClick={() => setState('paused')}>
            Pause
          </button>
        ) : (
          <button type="button" className="primary" onClick={start}>
            Resume
          </button>
        )}
      </div>
      <p className="tail-state" role="status">
        {state === 'idle'
          ? 'Starts right after the events listed above.'
          : state === 'live'
            ? `Live: ${events.length ? `${events.length} event${events.length === 1 ? '' : 's'} so far` : 'waiting for events'}…`
            : `Paused after ${events.length} event${events.length === 1 ? '' : 's'}. Resume continues from the last one, with what happened meanwhile.`}
      </p>
      {error ? <ProblemNotice error={error} context="The live tail" /> : null}
      {last.current ? (
        <p className="muted tail-cursor">
          Last cursor: <code>{last.current}</code>
        </p>
      ) : null}
      {events.length ? (
        <ol className="stream-events" aria-label="Live events">
          {events.map((event) => (
            <StreamEventItem key={event.id} event={event} />
          ))}
        </ol>
      ) : null}
    </div>
  );
}
