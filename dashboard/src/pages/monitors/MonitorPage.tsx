// One monitor: what it watches, where its matches go (changed here), the matches waiting since its
// last check ("Check now" reads them and moves the check on), and deleting it, after a
// confirmation. A deleted monitor is kept, inactive, and says so.
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Empty, Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { DeliveryPicker, deliveryInput, draftOf, type DeliveryDraft } from '../../components/monitors/DeliveryPicker.tsx';
import { MatchItems } from '../../components/monitors/MatchItems.tsx';
import { asDelivery, asQuery, deliveryText, QuerySummary } from '../../components/monitors/MonitorSpec.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';
import { ConfirmAction } from '../../components/ConfirmAction.tsx';

const MonitorQuery = graphql(`
  query MonitorPage($id: String!) {
    monitor(id: $id) {
      id
      name
      query
      delivery
      emailUnsubscribedAt
      isActive
      createdAt
      lastCheckedAt
      deactivatedAt
      waitingMatches(upTo: 25) {
        count
        hasMore
      }
    }
    webhookEndpoints(first: 50) {
      nodes {
        id
        url
        description
        status
      }
    }
  }
`);

const SetDelivery = graphql(`
  mutation SetMonitorDeliveryFromPage($id: String!, $delivery: MonitorDeliveryInput) {
    setMonitorDelivery(id: $id, delivery: $delivery) {
      id
      delivery
      emailUnsubscribedAt
    }
  }
`);

const CheckNow = graphql(`
  mutation CheckMonitorNow($id: String!) {
    checkMonitorMatches(id: $id, limit: 25) {
      monitor {
        id
        lastCheckedAt
      }
      items
      hasMore
      since
      checkedAt
    }
  }
`);

const DeleteMonitor = graphql(`
  mutation DeleteMonitorFromPage($id: String!) {
    deleteMonitor(id: $id) {
      id
      isActive
      deactivatedAt
    }
  }
`);

export function MonitorPage() {
  const { monitorId = '' } = useParams();
  const { role } = useViewer();
  const allowed = canManageIntegrations(role);
  const [result, refetch] = useQuery({ query: MonitorQuery, variables: { id: monitorId }, requestPolicy: 'cache-and-network' });
  const monitor = result.data?.monitor;
  const endpoints = result.data?.webhookEndpoints.nodes ?? [];
  useTitle(monitor?.name ?? 'Monitor');

  const [saved, setDelivery] = useMutation(SetDelivery);
  const [checked, check] = useMutation(CheckNow);
  const [deleted, remove] = useMutation(DeleteMonitor);
  const [draft, setDraft] = useState<DeliveryDraft | null>(null);
  const [deliveryError, setDeliveryError] = useState('');
  const [deliverySaved, setDeliverySaved] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const current = asDelivery(monitor?.delivery);
  // the picker starts from the saved destination, and again after it changes
  useEffect(() => {
    if (monitor) setDraft(draftOf(current, endpoints));
  }, [monitor?.id, JSON.stringify(current), endpoints.length]);

  if (result.fetching && !result.data) return <Loading what="the monitor" />;
  if (!monitor) {
    return (
      <>
        <p className="crumbs">
          <Link to="/monitors">Monitors</Link>
        </p>
        <h1>Monitor</h1>
        {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : <Empty>There is no such monitor.</Empty>}
      </>
    );
  }

  const changeDelivery = async (event: FormEvent) => {
    event.preventDefault();
    setDeliveryError('');
    setDeliverySaved(false);
    if (!draft) return;
    const chosen = deliveryInput(draft);
    if ('missing' in chosen) {
      setDeliveryError(chosen.missing);
      return;
    }
    const answer = await setDelivery({ id: monitor.id, delivery: chosen.delivery });
    if (!answer.error) setDeliverySaved(true);
  };

  const found = checked.data?.checkMonitorMatches;
  const waiting = monitor.waitingMatches;
  const query = asQuery(monitor.query);
  return (
    <>
      <p className="crumbs">
        <Link to="/monitors">Monitors</Link>
      </p>
      <h1>{monitor.name}</h1>
      {allowed ? null : <IntegrationsRoleNote role={role} what="monitors" />}
      {monitor.isActive ? null : <p className="note">Deleted {formatDateTime(monitor.deactivatedAt)}: this monitor no longer watches. Create another one to watch again.</p>}
      <h2>Watches</h2>
      <QuerySummary query={query} />
      <dl className="pairs">
        <dt>Created</dt>
        <dd>{formatDateTime(monitor.createdAt)}</dd>
        <dt>Last checked</dt>
        <dd>{formatDateTime(monitor.lastCheckedAt)}</dd>
      </dl>

      <h2>Destination</h2>
      <p>
        {deliveryText(current, endpoints)}
        {current?.type === 'email' && monitor.emailUnsubscribedAt ? ` (unsubscribed by its link ${formatDateTime(monitor.emailUnsubscribedAt)}; set it again to resume)` : ''}
      </p>
      {draft ? (
        <form onSubmit={(e) => void changeDelivery(e)} noValidate>
          <DeliveryPicker
            value={draft}
            legend="New destination"
            endpoints={endpoints}
            disabled={!allowed || !monitor.isActive}
            error={deliveryError}
            onChange={(next) => {
              setDeliverySaved(false);
              setDraft(next);
            }}
          />
          {saved.error ? <ProblemNotice error={saved.error} context="Changing the destination" /> : null}
          <div className="actions">
            <button type="submit" disabled={!allowed || !monitor.isActive || saved.fetching}>
              Change destination
            </button>
            <span role="status">{deliverySaved ? 'Destination changed.' : ''}</span>
          </div>
        </form>
      ) : null}

      <h2>Matches since the last check</h2>
      <p>
        {waiting
          ? `${waiting.count}${waiting.hasMore ? ' or more' : ''} match${waiting.count === 1 && !waiting.hasMore ? '' : 'es'} waiting since ${monitor.lastCheckedAt ? formatDateTime(monitor.lastCheckedAt) : 'the monitor was created'}.`
          : 'A deleted monitor has no matches.'}
      </p>
      <div className="actions">
        <button type="button" className="primary" disabled={!monitor.isActive || checked.fetching} onClick={() => void check({ id: monitor.id })}>
          Check now
        </button>
      </div>
      {checked.error ? <ProblemNotice error={checked.error} context="Checking" /> : null}
      <div role="status" className="check-result">
        {found ? (
          <p>
            Checked {formatDateTime(found.checkedAt)}: {found.items.length} new match{found.items.length === 1 ? '' : 'es'} since {found.since ? formatDateTime(found.since) : 'the monitor was created'}.
            {found.hasMore ? ' More are waiting: check again.' : ''}
          </p>
        ) : null}
      </div>
      {found && found.items.length ? <MatchItems items={found.items} label="Matches of this check" /> : null}

      <h2>Delete</h2>
      {monitor.isActive ? (
        <>
          <p className="muted">The monitor stops watching and delivering; it stays listed as deleted.</p>
          <div className="actions">
            <button type="button" className="danger" disabled={!allowed} aria-expanded={confirming} onClick={() => setConfirming(true)}>
              Delete
            </button>
          </div>
          {confirming ? (
            <ConfirmAction
              label={`Delete ${monitor.name}`}
              action="Delete monitor"
              busy={deleted.fetching}
              onConfirm={() => void remove({ id: monitor.id })}
              onCancel={() => setConfirming(false)}
              error={deleted.error}
              errorContext="Deleting"
            >
              Delete <strong>{monitor.name}</strong>? It stops watching at once, and matches no longer arrive at its destination. This cannot be undone.
            </ConfirmAction>
          ) : null}
        </>
      ) : (
        <p className="muted">Deleted {formatDateTime(monitor.deactivatedAt)}.</p>
      )}
    </>
  );
}
