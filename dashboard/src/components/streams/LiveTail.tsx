// The live tail of a stream: its events as they happen, over graphql-ws (Subscription.streamEvents),
// starting right after the events the page listed. "Pause" closes the stream; "Resume" opens it
// again from the cursor of the last event seen, so that the service sends what happened
// meanwhile, nothing twice and nothing skipped. When the service ends the stream (it was disabled
// or deleted, here or anywhere else), the tail says so and the page reads the stream again.
import { useEffect, useRef, useState } from 'react';
import { useClient, type CombinedError } from 'urql';
import { onEnd, pipe, subscribe } from 'wonka';
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

export function LiveTail({ subscriptionId, from, onEnded }: { subscriptionId: string; from: string; onEnded: () => void }) {
  const client = useClient();
  const [state, setState] = useState<'idle' | 'live' | 'paused' | 'ended'>('idle');
  // where the open stream started: changes only when it is (re)opened, never per event
  const [openedAt, setOpenedAt] = useState(from);
  const [events, setEvents] = useState<TailEvent[]>([]);
  const [error, setError] = useState<CombinedError | null>(null);
  const last = useRef<string | null>(null);

  useEffect(() => {
    if (state !== 'live') return;
    let closing = false;
    const subscription = pipe(
      client.subscription(StreamTail, { subscriptionId, cursor: openedAt }),
      // the service completed the stream, rather than this page closing it
      onEnd(() => {
        if (closing) return;
        setState((now) => (now === 'live' ? 'ended' : now));
        onEnded();
      }),
      subscribe((result) => {
        if (result.error) {
          setError(result.error);
          setState('paused');
          return;
        }
        const event = result.data?.streamEvents;
        if (!event) return;
        last.current = event.cursor;
        setEvents((shown) => (shown.some((e) => e.id === event.id) ? shown : [...shown, event].slice(-kept)));
      }),
    );
    return () => {
      closing = true;
      subscription.unsubscribe();
    };
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
        ) : state === 'paused' ? (
          <button type="button" className="primary" onClick={start}>
            Resume
          </button>
        ) : null}
      </div>
      <p className="tail-state" role="status">
        {state === 'idle'
          ? 'Starts right after the events listed above.'
          : state === 'live'
            ? `Live: ${events.length ? `${events.length} event${events.length === 1 ? '' : 's'} so far` : 'waiting for events'}…`
            : state === 'paused'
              ? `Paused after ${events.length} event${events.length === 1 ? '' : 's'}. Resume continues from the last one, with what happened meanwhile.`
              : `Ended after ${events.length} event${events.length === 1 ? '' : 's'}: the stream was disabled or deleted. Enabled again, it can be tailed from where it stopped.`}
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
