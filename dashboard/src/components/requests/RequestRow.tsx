// One request in the request log: when, what was asked, the status, the key that asked, how long
// it took and what it counted against its meter class. The request's own page is one link away.
import { Link } from 'react-router';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatNumber } from '../../format.ts';

export const RequestRowFragment = graphql(`
  fragment RequestRow on RequestRecord {
    id
    createdAt
    door
    method
    path
    operation
    status
    errorCode
    meterClass
    cost
    durationMs
    apiKey {
      id
      name
      hint
    }
  }
`);

const toTheSecond = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A request's time to the second: a log's neighbours are often the same minute. */
export const formatRequestTime = (iso: string) => toTheSecond.format(new Date(iso));

/** What a request asked for, as a person reads it: a REST route by method and path, GraphQL and MCP by operation. */
export function requestLabel(r: { door: string; method: string; path: string; operation: string | null }): string {
  if (r.door === 'graphql') return `GraphQL ${r.operation ?? '(anonymous)'}`;
  if (r.door === 'mcp') return `MCP ${r.operation ?? r.method}`;
  return `${r.method} ${r.path}`;
}

/** The status as a colored badge; the color only repeats what the number says. */
export function StatusBadge({ status }: { status: number }) {
  const kind = status >= 500 ? 'server-error' : status >= 400 ? 'client-error' : status >= 300 ? 'redirect' : 'ok';
  return <span className={`status-badge status-${kind}`}>{status}</span>;
}

export function RequestRow(props: { request: FragmentType<typeof RequestRowFragment> }) {
  const r = useFragment(RequestRowFragment, props.request);
  return (
    <tr>
      <td data-label="Time">{formatRequestTime(r.createdAt)}</td>
      <th scope="row" className="wrap" data-label="Request">
        <Link to={`/requests/${encodeURIComponent(r.id)}`}>{requestLabel(r)}</Link>
        {r.door === 'rest' && r.operation ? <span className="request-operation muted">{r.operation}</span> : null}
      </th>
      <td data-label="Status">
        <StatusBadge status={r.status} />
        {r.errorCode ? <code className="request-error-code">{r.errorCode}</code> : null}
      </td>
      <td data-label="Key">
        {r.apiKey ? (
          <>
            {r.apiKey.name} <code>{r.apiKey.hint}</code>
          </>
        ) : (
          <span className="muted">No key</span>
        )}
      </td>
      <td data-label="Duration" className="request-numeric">
        {formatNumber(r.durationMs)} ms
      </td>
      <td data-label="Cost" className="request-numeric">
        {r.cost ?? '—'}
        {r.meterClass ? <span className="muted"> {r.meterClass}</span> : null}
      </td>
    </tr>
  );
}
