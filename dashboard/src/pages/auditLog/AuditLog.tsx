// Audit log: what people, keys and operators did to the organization, newest first, a page at a
// time, narrowed to one action or one actor. The filters and the page are in the address
// (?action=, ?actor=, ?after=), so a view can be shared. One GraphQL request: the entries, the
// audited actions (from the event type catalog) and the members, to filter by.
import { Pager } from '../../components/Pager.tsx';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { AuditEntryRow } from '../../components/auditLog/AuditEntryRow.tsx';
import { roleName } from '../../components/members/roleChoices.ts';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { canReadAuditLog } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

export const auditPageSize = 25;
/** the members offered as actors to filter by; any other actor is reached from an entry's link */
const actorChoices = 100;
const auditEventPrefix = 'org.audit.';

const AuditLogQuery = graphql(`
  query AuditLogPage($first: Int!, $after: String, $action: String, $actorId: String, $actors: Int!) {
    auditLog(first: $first, after: $after, action: $action, actorId: $actorId) {
      nodes {
        id
        ...AuditEntryRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    eventTypes {
      type
      description
    }
    members(first: $actors) {
      nodes {
        id
        email
      }
    }
  }
`);

export function AuditLogPage() {
  useTitle('Audit log');
  const { role } = useViewer();
  const allowed = canReadAuditLog(role);
  const [params, setParams] = useSearchParams();
  const action = params.get('action');
  const actor = params.get('actor');
  const after = params.get('after');
  const [result, refetch] = useQuery({
    query: AuditLogQuery,
    variables: { first: auditPageSize, after, action, actorId: actor, actors: actorChoices },
    requestPolicy: 'cache-and-network',
    pause: !allowed,
  });
  const [chosenAction, setChosenAction] = useState(action ?? '');
  const [chosenActor, setChosenActor] = useState(actor ?? '');
  const ids = { action: useId(), actor: useId() };

  // back and forward change the address: the form follows it
  useEffect(() => {
    setChosenAction(action ?? '');
    setChosenActor(actor ?? '');
  }, [action, actor]);

  const data = result.data;
  const actions = (data?.eventTypes ?? []).filter((e) => e.type.startsWith(auditEventPrefix)).map((e) => ({ action: e.type.slice(auditEventPrefix.length), description: e.description }));
  const members = data?.members.nodes ?? [];
  const entries = data?.auditLog.nodes ?? [];
  const filtered = Boolean(action || actor);

  const href = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    const query = next.toString();
    return `/audit-log${query ? `?${query}` : ''}`;
  };

  const applyFilters = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (chosenAction) next.set('action', chosenAction);
    if (chosenActor) next.set('actor', chosenActor);
    // a new filter starts from the newest entry
    setParams(next);
  };

  return (
    <>
      <h1>Audit log</h1>
      <p className="muted">What people, API keys and the service's operators did to this organization, newest first.</p>
      {!allowed ? (
        <p className="note">
          Your role ({roleName(role)}) cannot read the audit log: that needs owner or admin. Ask an owner or admin of this organization.
        </p>
      ) : (
        <>
          <form className="filters audit-filters" onSubmit={applyFilters} aria-label="Filter the audit log">
            <div className="field">
              <label htmlFor={ids.action}>Action</label>
              <select id={ids.action} value={chosenAction} onChange={(e) => setChosenAction(e.target.value)}>
                <option value="">Every action</option>
                {action && !actions.some((a) => a.action === action) ? <option value={action}>{action}</option> : null}
                {actions.map((a) => (
                  <option key={a.action} value={a.action}>
                    {a.action}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={ids.actor}>Actor</label>
              <select id={ids.actor} value={chosenActor} onChange={(e) => setChosenActor(e.target.value)}>
                <option value="">Anyone</option>
                {actor && !members.some((m) => m.id === actor) ? <option value={actor}>{actor}</option> : null}
                {members.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.email}
                  </option>
                ))}
              </select>
            </div>
            <div className="actions">
              <button type="submit">Filter</button>
              {filtered ? <Link to="/audit-log">Clear filters</Link> : null}
            </div>
          </form>
          {action ? <p className="muted">{actions.find((a) => a.action === action)?.description}</p> : null}
          {result.fetching && !data ? <Loading what="the audit log" /> : null}
          {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
          {data && entries.length === 0 ? (
            <Empty>
              {after ? 'No older entries.' : filtered ? 'No entries match these filters.' : 'Nothing has been recorded yet.'}{' '}
              {filtered || after ? <Link to={filtered ? '/audit-log' : href({ after: null })}>{filtered ? 'Clear filters' : 'Newest entries'}</Link> : null}
            </Empty>
          ) : null}
          {entries.length > 0 ? (
            <ScrollingTable label="Table of audit log entries">
              <table className="audit-table">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Actor</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Details</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e) => (
                    <AuditEntryRow key={e.id} entry={e} actorHref={(actorId) => href({ actor: actorId, after: null })} />
                  ))}
                </tbody>
              </table>
            </ScrollingTable>
          ) : null}
          <Pager label="Pages of the audit log" after={after} pageInfo={data?.auditLog.pageInfo} first="Newest entries" next="Older entries" />
        </>
      )}
    </>
  );
}
