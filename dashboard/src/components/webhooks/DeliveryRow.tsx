// One delivery attempt in an endpoint's list: its status, attempt number, the receiver's answer,
// the event's type and when it was made; "Replay" sends the same event again (same webhook-id).
import { useMutation } from 'urql';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatDateTime } from '../../format.ts';
import { ProblemNotice } from '../States.tsx';

export const WebhookDeliveryRowFragment = graphql(`
  fragment WebhookDeliveryRow on WebhookDelivery {
    id
    status
    attempt
    responseStatus
    error
    durationMs
    eventType
    eventId
    replayOf
    createdAt
    attemptedAt
    nextAttemptAt
  }
`);

const ReplayWebhookDelivery = graphql(`
  mutation ReplayWebhookDelivery($endpointId: String!, $deliveryId: String!) {
    replayWebhookDelivery(endpointId: $endpointId, deliveryId: $deliveryId) {
      id
      status
    }
  }
`);

export const deliveryStatusNames: Record<string, string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  retrying: 'Failed, will retry',
};

export function DeliveryRow(props: {
  delivery: FragmentType<typeof WebhookDeliveryRowFragment>;
  endpointId: string;
  columns: number;
  /** why "Replay" is not possible now, if it is not */
  replayBlocked: string | null;
  onReplayed: (deliveryId: string) => void;
}) {
  const d = useFragment(WebhookDeliveryRowFragment, props.delivery);
  const [replayed, replay] = useMutation(ReplayWebhookDelivery);
  const answer = d.responseStatus !== null ? String(d.responseStatus) : d.error ? 'No answer' : '—';
  const run = async () => {
    const result = await replay({ endpointId: props.endpointId, deliveryId: d.id });
    if (result.data) props.onReplayed(result.data.replayWebhookDelivery.id);
  };
  return (
    <>
      <tr>
        <th scope="row" className={`delivery-status status-${d.status}`}>
          {deliveryStatusNames[d.status] ?? d.status}
        </th>
        <td data-label="Attempt">
          {d.attempt}
          {d.replayOf ? <span className="int-note">replay</span> : null}
        </td>
        <td data-label="Response">
          {answer}
          {d.error ? <span className="int-note wrap">{d.error}</span> : null}
          {d.durationMs !== null ? <span className="int-note">{d.durationMs} ms</span> : null}
        </td>
        <td data-label="Event type">
          <code>{d.eventType}</code>
          <span className="int-note">
            <code>{d.eventId}</code>
          </span>
        </td>
        <td data-label="Time">
          {formatDateTime(d.attemptedAt ?? d.createdAt)}
          {d.status === 'pending' && d.nextAttemptAt ? <span className="int-note">due {formatDateTime(d.nextAttemptAt)}</span> : null}
        </td>
        <td data-label="Actions">
          <button type="button" onClick={() => void run()} disabled={Boolean(props.replayBlocked) || replayed.fetching} title={props.replayBlocked ?? undefined}>
            Replay
          </button>
        </td>
      </tr>
      {replayed.error ? (
        <tr className="confirm-row">
          <td colSpan={props.columns}>
            <ProblemNotice error={replayed.error} context="Replaying" />
          </td>
        </tr>
      ) : null}
    </>
  );
}
