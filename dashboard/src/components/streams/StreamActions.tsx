// Enabling, disabling and deleting one stream subscription (after a confirmation), from the list
// and from its page alike.
import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { ProblemNotice } from '../States.tsx';
import { ConfirmAction } from '../ConfirmAction.tsx';

const SetStreamSubscriptionStatus = graphql(`
  mutation SetStreamSubscriptionStatus($id: String!, $status: String!) {
    updateStreamSubscription(id: $id, input: { status: $status }) {
      id
      status
      updatedAt
    }
  }
`);

const DeleteStreamSubscription = graphql(`
  mutation DeleteStreamSubscription($id: String!) {
    deleteStreamSubscription(id: $id) {
      id
      status
    }
  }
`);

export function StreamActions(props: { id: string; name: string; status: string; allowed: boolean; onChanged?: (message: string) => void; onDeleted?: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [toggled, setStatus] = useMutation(SetStreamSubscriptionStatus);
  const [deleted, remove] = useMutation(DeleteStreamSubscription);
  const enabled = props.status === 'enabled';

  const toggle = async () => {
    const answer = await setStatus({ id: props.id, status: enabled ? 'disabled' : 'enabled' });
    if (answer.data) props.onChanged?.(answer.data.updateStreamSubscription.status === 'enabled' ? `“${props.name}” enabled.` : `“${props.name}” disabled.`);
  };
  const doDelete = async () => {
    const answer = await remove({ id: props.id });
    if (answer.data) {
      props.onChanged?.(`“${props.name}” deleted.`);
      props.onDeleted?.();
    }
  };

  return (
    <div className="stream-actions">
      <div className="actions">
        <button type="button" onClick={() => void toggle()} disabled={!props.allowed || toggled.fetching}>
          {enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="danger" onClick={() => setConfirming(true)} disabled={!props.allowed} aria-expanded={confirming}>
          Delete
        </button>
      </div>
      {toggled.error ? <ProblemNotice error={toggled.error} context={enabled ? 'Disabling' : 'Enabling'} /> : null}
      {confirming ? (
        <ConfirmAction
          label={`Delete ${props.name}`}
          action="Delete stream"
          busy={deleted.fetching}
          onConfirm={() => void doDelete()}
          onCancel={() => setConfirming(false)}
          error={deleted.error}
          errorContext="Deleting"
        >
          Delete <strong>{props.name}</strong>? Its readers (polling or live) stop being served, and it leaves the list; its records stay in exports. This cannot be undone.
        </ConfirmAction>
      ) : null}
    </div>
  );
}
