// One audit log entry: when, who (a person, a key, an operator, the service), what was done, to
// what, and the details the service recorded. The actor links to their entries alone.
import { Link } from 'react-router';
import { formatDateTime } from '../../format.ts';
import { graphql, useFragment, type FragmentType } from '../../gql';

export const AuditEntryRowFragment = graphql(`
  fragment AuditEntryRow on AuditEntry {
    id
    action
    createdAt
    actor {
      type
      id
      email
    }
    target {
      type
      id
    }
    details
    requestId
    ipAddress
  }
`);

const actorKinds: Record<string, string> = { user: 'Person', api_key: 'API key', operator: 'Operator', system: 'The service' };

function detailValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function AuditEntryRow(props: { entry: FragmentType<typeof AuditEntryRowFragment>; actorHref: (actorId: string) => string }) {
  const entry = useFragment(AuditEntryRowFragment, props.entry);
  const details = entry.details && typeof entry.details === 'object' ? Object.entries(entry.details as Record<string, unknown>) : [];
  const actorName = entry.actor.email ?? entry.actor.id ?? actorKinds[entry.actor.type] ?? entry.actor.type;
  return (
    <tr>
      <th scope="row">
        <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
      </th>
      <td data-label="Actor">
        {entry.actor.id ? (
          <Link to={props.actorHref(entry.actor.id)}>
            {actorName}
            <span className="visually-hidden">: show only their entries</span>
          </Link>
        ) : (
          actorName
        )}
        {entry.actor.type !== 'user' ? <span className="muted"> ({actorKinds[entry.actor.type] ?? entry.actor.type})</span> : null}
      </td>
      <td data-label="Action">
        <code>{entry.action}</code>
      </td>
      <td data-label="Target">
        {entry.target ? (
          <>
            {entry.target.type} <code className="wrap">{entry.target.id}</code>
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td data-label="Details">
        {details.length ? (
          <ul className="audit-details">
            {details.map(([name, value]) => (
              <li key={name}>
                <span className="muted">{name}:</span> {detailValue(value)}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">—</span>
        )}
        {entry.requestId || entry.ipAddress ? (
          <p className="muted audit-source">
            {entry.ipAddress ? <>From {entry.ipAddress}</> : null}
            {entry.ipAddress && entry.requestId ? ', ' : null}
            {entry.requestId ? (
              <>
                request <code className="wrap">{entry.requestId}</code>
              </>
            ) : null}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
