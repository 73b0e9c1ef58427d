// One webhook endpoint: its settings, sending a test event, rotating its signing secret,
// disabling, enabling or deleting it, and its deliveries, newest first, filtered by status and
// paged by cursor (both in the address). While a delivery is pending the page asks again, less
// and less often, so that its outcome appears without a reload.
import { Pager } from '../../components/Pager.tsx';
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { SecretOnce } from '../../components/SecretOnce.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { DeliveryRow, deliveryStatusNames } from '../../components/webhooks/DeliveryRow.tsx';
import { describeTypes } from '../../components/webhooks/EventTypePicker.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';
import { endpointStatus } from './WebhookList.tsx';
import { ConfirmAction } from '../../components/ConfirmAction.tsx';

// A delivery row is about fifteen priced fields (GraphQL cost, per row): 10 a page keeps the
// refreshes while a delivery is pending well within the smallest plan's minute window.
const pageSize = 10;
const statuses = ['pending', 'succeeded', 'failed', 'retrying'] as const;

const EndpointPageQuery = graphql(`
  query WebhookEndpointPage($id: String!, $first: Int!, $after: String, $status: String) {
    webhookEndpoint(id: $id) {
      id
      url
      description
      status
      disabledReason
      eventTypes
      secretRotatedUntil
      createdAt
      updatedAt
    }
    webhookDeliveries(endpointId: $id, first: $first, after: $after, status: $status) {
      nodes {
        id
        status
        nextAttemptAt
        ...WebhookDeliveryRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const TestWebhookEndpoint = graphql(`
  mutation TestWebhookEndpoint($id: String!) {
    testWebhookEndpoint(id: $id) {
      id
      status
    }
  }
`);

const RotateWebhookSecret = graphql(`
  mutation RotateWebhookSecret($id: String!) {
    rotateWebhookSecret(id: $id) {
      secret
      endpoint {
        id
        secretRotatedUntil
        updatedAt
      }
    }
  }
`);

const SetWebhookEndpointStatus = graphql(`
  mutation SetWebhookEndpointStatus($id: String!, $status: String!) {
    updateWebhookEndpoint(id: $id, input: { status: $status }) {
      id
      status
      disabledReason
      updatedAt
    }
  }
`);

const DeleteWebhookEndpoint = graphql(`
  mutation DeleteWebhookEndpoint($id: String!) {
    deleteWebhookEndpoint(id: $id) {
      id
    }
  }
`);

/** How long to wait before asking again about a pending delivery: soon, then less often. */
const pollDelay = (polls: number) => Math.min(1000 * 1.5 ** polls, 15_000);

export function EndpointPage() {
  const { endpointId = '' } = useParams();
  const { role } = useViewer();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const after = params.get('after');
  const filterId = useId();
  const [result, refetch] = useQuery({
    query: EndpointPageQuery,
    variables: { id: endpointId, first: pageSize, after, status: status || null },
    requestPolicy: 'cache-and-network',
  });
  const [tested, sendTest] = useMutation(TestWebhookEndpoint);
  const [rotated, rotate] = useMutation(RotateWebhookSecret);
  const [toggled, setStatus] = useMutation(SetWebhookEndpointStatus);
  const [deleted, remove] = useMutation(DeleteWebhookEndpoint);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [polls, setPolls] = useState(0);

  const endpoint = result.data?.webhookEndpoint;
  useTitle(endpoint ? `Webhook endpoint ${endpoint.url}` : 'Webhook endpoint');
  const deliveries = result.data?.webhookDeliveries;
  const nodes = deliveries?.nodes ?? [];
  const allowed = canManageIntegrations(role);
  const enabled = endpoint?.status === 'enabled';
  const blocked = !allowed ? 'Your role cannot send deliveries.' : !enabled ? 'Enable the endpoint to send deliveries.' : null;

  // A pending attempt due soon: its outcome is worth waiting for on this page.
  const waiting = nodes.some((d) => d.status === 'pending' && (!d.nextAttemptAt || Date.parse(d.nextAttemptAt) - Date.now() < 30_000));
  useEffect(() => {
    if (!waiting) {
      setPolls(0);
      return;
    }
    if (result.fetching) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      refetch({ requestPolicy: 'network-only' });
    }, pollDelay(polls));
    return () => clearTimeout(timer);
  }, [waiting, result.fetching, result.data]);

  const reload = () => refetch({ requestPolicy: 'network-only' });

  const onTest = async () => {
    const answer = await sendTest({ id: endpointId });
    if (answer.data) {
      setAnnouncement('Test event sent: its delivery is listed below.');
      reload();
    }
  };
  const onRotate = async () => {
    const answer = await rotate({ id: endpointId });
    if (answer.data) setAnnouncement('Signing secret rotated: copy the new one now.');
  };
  const onToggle = async () => {
    const answer = await setStatus({ id: endpointId, status: enabled ? 'disabled' : 'enabled' });
    if (answer.data) setAnnouncement(answer.data.updateWebhookEndpoint.status === 'enabled' ? 'Endpoint enabled.' : 'Endpoint disabled: it receives nothing until enabled.');
  };
  const onDelete = async () => {
    const answer = await remove({ id: endpointId });
    if (answer.data) navigate('/webhooks', { replace: true });
  };
  const setFilter = (value: string) => {
    const next = new URLSearchParams(params);
    next.delete('after');
    if (value) next.set('status', value);
    else next.delete('status');
    setParams(next);
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/webhooks">Webhooks</Link>
      </p>
      <h1>Webhook endpoint</h1>
      {result.fetching && !result.data ? <Loading what="the endpoint" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={reload} /> : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {endpoint ? (
        <>
          <p className="endpoint-url">
            <code>{endpoint.url}</code>
          </p>
          {allowed ? null : <IntegrationsRoleNote role={role} what="this endpoint" />}
          <section aria-labelledby={`${filterId}-settings`}>
            <h2 id={`${filterId}-settings`}>Settings</h2>
            <dl className="pairs">
              <dt>Status</dt>
              <dd>{endpointStatus(endpoint.status, endpoint.disabledReason)}</dd>
              <dt>Description</dt>
              <dd>{endpoint.description || <span className="muted">None</span>}</dd>
              <dt>Event types</dt>
              <dd className="wrap">{describeTypes(endpoint.eventTypes)}</dd>
              <dt>Signing secret</dt>
              <dd>
                Shown once, when made or rotated.
                {endpoint.secretRotatedUntil ? ` The previous secret also signs deliveries until ${formatDateTime(endpoint.secretRotatedUntil)}.` : ''}
              </dd>
              <dt>Created</dt>
              <dd>{formatDateTime(endpoint.createdAt)}</dd>
              <dt>Changed</dt>
              <dd>{formatDateTime(endpoint.updatedAt)}</dd>
            </dl>
            <div className="actions">
              <button type="button" className="primary" onClick={() => void onTest()} disabled={Boolean(blocked) || tested.fetching}>
                Send test event
              </button>
              <Link to={`/webhooks/${encodeURIComponent(endpoint.id)}/edit`}>Edit settings</Link>
              <button type="button" onClick={() => void onRotate()} disabled={!allowed || rotated.fetching}>
                Rotate secret
              </button>
              <button type="button" onClick={() => void onToggle()} disabled={!allowed || toggled.fetching}>
                {enabled ? 'Disable' : 'Enable'}
              </button>
              <button type="button" className="danger" onClick={() => setConfirmingDelete(true)} disabled={!allowed} aria-expanded={confirmingDelete}>
                Delete
              </button>
            </div>
            {allowed && !enabled ? <p className="note">The endpoint is disabled: it receives no events, and tests and replays wait until it is enabled.</p> : null}
            {tested.error ? <ProblemNotice error={tested.error} context="Sending the test event" /> : null}
            {rotated.error ? <ProblemNotice error={rotated.error} context="Rotating the secret" /> : null}
            {toggled.error ? <ProblemNotice error={toggled.error} context={enabled ? 'Disabling' : 'Enabling'} /> : null}
            {rotated.data ? (
              <>
                <SecretOnce
                  secret={rotated.data.rotateWebhookSecret.secret}
                  name={endpoint.url}
                  advice="Deliveries carry signatures with both the old and this new secret for 24 hours: update your receiver within that time."
                />
              </>
            ) : null}
            {confirmingDelete ? (
              <ConfirmAction
                label="Delete this endpoint"
                action="Delete endpoint"
                busy={deleted.fetching}
                onConfirm={() => void onDelete()}
                onCancel={() => setConfirmingDelete(false)}
                error={deleted.error}
                errorContext="Deleting"
              >
                Delete <strong className="wrap">{endpoint.url}</strong>? It receives nothing more and leaves the list; its delivery history stays in diagnostics and
                exports. This cannot be undone.
              </ConfirmAction>
            ) : null}
          </section>

          <section aria-labelledby={`${filterId}-deliveries`}>
            <h2 id={`${filterId}-deliveries`}>Deliveries</h2>
            <div className="filters">
              <label htmlFor={filterId}>Status</label>{' '}
              <select id={filterId} value={status ?? ''} onChange={(e) => setFilter(e.target.value)}>
                <option value="">All</option>
                {statuses.map((s) => (
                  <option key={s} value={s}>
                    {deliveryStatusNames[s]}
                  </option>
                ))}
              </select>{' '}
              <button type="button" onClick={reload} disabled={result.fetching}>
                Refresh
              </button>
            </div>
            {waiting ? (
              <p className="muted" role="status">
                Waiting for a pending delivery…
              </p>
            ) : null}
            {deliveries && nodes.length === 0 ? (
              <Empty>
                {status ? `No ${deliveryStatusNames[status]?.toLowerCase() ?? status} deliveries${after ? ' on this page' : ''}.` : after ? 'No more deliveries.' : 'No deliveries yet.'}{' '}
                {enabled && allowed && !status ? 'Send a test event to see one.' : ''}
              </Empty>
            ) : null}
            {nodes.length > 0 ? (
              <ScrollingTable label="Table of deliveries">
                <table className="deliveries">
                  <thead>
                    <tr>
                      <th scope="col">Status</th>
                      <th scope="col">Attempt</th>
                      <th scope="col">Response</th>
                      <th scope="col">Event type</th>
                      <th scope="col">Time</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {nodes.map((d) => (
                      <DeliveryRow
                        key={d.id}
                        delivery={d}
                        endpointId={endpoint.id}
                        columns={6}
                        replayBlocked={blocked}
                        onReplayed={() => {
                          setAnnouncement('Delivery replayed: the new attempt is listed below.');
                          reload();
                        }}
                      />
                    ))}
                  </tbody>
                </table>
              </ScrollingTable>
            ) : null}
            <Pager label="Pages of deliveries" after={after} pageInfo={deliveries?.pageInfo} first="Newest deliveries" next="Older deliveries" />
          </section>
        </>
      ) : null}
    </>
  );
}
