// Requests: the organization's request log, newest first, like a payment processor's logs. Filters
// (status, operation, key, time range), the page (a cursor) and "Live" are in the URL, so any view
// can be shared. The log and the keys to filter by come in one GraphQL request.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { RequestRow } from '../../components/requests/RequestRow.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { graphql } from '../../gql';

const pageSize = 25;
const liveEveryMs = 5000;

const RequestsQuery = graphql(`
  query RequestsPage($first: Int, $after: String, $last: Int, $before: String, $status: String, $operation: String, $apiKeyId: String, $from: DateTime) {
    requests(first: $first, after: $after, last: $last, before: $before, status: $status, operation: $operation, apiKeyId: $apiKeyId, from: $from) {
      nodes {
        id
        ...RequestRow
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
    apiKeys(first: 100) {
      nodes {
        id
        name
        hint
        revokedAt
      }
    }
  }
`);

const statusChoices = [
  { value: '', label: 'Any status' },
  { value: 'errors', label: 'Errors (4xx and 5xx)' },
  { value: '2xx', label: '2xx succeeded' },
  { value: '3xx', label: '3xx redirected' },
  { value: '4xx', label: '4xx client errors' },
  { value: '5xx', label: '5xx server errors' },
];

const ranges = [
  { value: '', label: 'Any time', ms: 0 },
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
];

/** Filters that narrow the log; changing one starts again at the newest page. */
const filterNames = ['status', 'route', 'key', 'range'] as const;

export function RequestsPage() {
  useTitle('Requests');
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const route = params.get('route') ?? '';
  const key = params.get('key') ?? '';
  const range = ranges.find((r) => r.value === params.get('range')) ?? ranges[0]!;
  const after = params.get('after');
  const before = params.get('before');
  const live = params.get('live') === 'on';
  const [routeDraft, setRouteDraft] = useState(route);
  useEffect(() => setRouteDraft(route), [route]);
  const ids = { status: useId(), route: useId(), key: useId(), range: useId(), routeHelp: useId() };

  // "Last hour" is measured from when the page was loaded or last refreshed, so the variables,
  // and the answer, stay put between renders.
  const [now, setNow] = useState(() => Date.now());
  const from = useMemo(() => (range.ms ? new Date(now - range.ms).toISOString() : null), [range.ms, now]);
  const variables = {
    ...(before ? { last: pageSize, before } : { first: pageSize, after }),
    status: status || null,
    operation: route || null,
    apiKeyId: key || null,
    from,
  };
  const [result, refetch] = useQuery({ query: RequestsQuery, variables, requestPolicy: 'cache-and-network' });
  // A relative range moves its start, which is a new query; otherwise the same one is asked again.
  const refresh = () => (range.ms ? setNow(Date.now()) : refetch({ requestPolicy: 'network-only' }));
  const latestRefresh = useRef(refresh);
  latestRefresh.current = refresh;

  // Live: the newest page again every few seconds, while the tab is shown.
  const onNewest = !after && !before;
  useEffect(() => {
    if (!live || !onNewest) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latestRefresh.current();
    }, liveEveryMs);
    return () => clearInterval(timer);
  }, [live, onNewest]);

  const change = (changes: Record<string, string | null>, keepPage = false) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    if (!keepPage) {
      next.delete('after');
      next.delete('before');
    }
    setNow(Date.now());
    setParams(next);
  };
  const applyRoute = (event: FormEvent) => {
    event.preventDefault();
    change({ route: routeDraft.trim() || null });
  };
  const pageLink = (cursor: { after?: string; before?: string }) => {
    const next = new URLSearchParams(params);
    next.delete('after');
    next.delete('before');
    for (const [name, value] of Object.entries(cursor)) if (value) next.set(name, value);
    const query = next.toString();
    return `/requests${query ? `?${query}` : ''}`;
  };

  const data = result.data;
  const requests = data?.requests.nodes ?? [];
  const pageInfo = data?.requests.pageInfo;
  const keys = data?.apiKeys.nodes ?? [];
  const filtered = filterNames.some((name) => params.get(name));
  const statusOptions = status && !statusChoices.some((c) => c.value === status) ? [...statusChoices, { value: status, label: `Status ${status}` }] : statusChoices;
  const keyOptions = key && data && !keys.some((k) => k.id === key) ? [...keys.map((k) => ({ id: k.id, label: keyLabel(k) })), { id: key, label: key }] : keys.map((k) => ({ id: k.id, label: keyLabel(k) }));
  const newerPage = pageInfo?.hasPreviousPage && pageInfo.startCursor ? pageLink({ before: pageInfo.startCursor }) : null;
  const olderPage = pageInfo?.hasNextPage && pageInfo.endCursor ? pageLink({ after: pageInfo.endCursor }) : null;

  return (
    <>
      <div className="page-head">
        <h1>Requests</h1>
        <div className="actions request-live">
          <label className="check">
            <input type="checkbox" checked={live} onChange={(e) => change({ live: e.target.checked ? 'on' : null }, !e.target.checked)} aria-describedby={`${ids.range}-live`} />
            Live
          </label>
          <span id={`${ids.range}-live`} className="muted">
            {live ? (onNewest ? 'Updates every 5 seconds' : 'Paused on an older page') : 'Off'}
          </span>
          <button type="button" onClick={refresh} disabled={result.fetching}>
            Refresh
          </button>
        </div>
      </div>
      <p className="muted">
        Every request of this organization to the API, GraphQL and MCP, newest first. A request appears within a second or so of its answer; open one to see what it used and caused.
      </p>

      <section aria-label="Filters" className="request-filters">
        <div className="field">
          <label htmlFor={ids.status}>Status</label>
          <select id={ids.status} value={status} onChange={(e) => change({ status: e.target.value || null })}>
            {statusOptions.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.key}>Key</label>
          <select id={ids.key} value={key} onChange={(e) => change({ key: e.target.value || null })}>
            <option value="">Any key or session</option>
            {keyOptions.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.range}>Time range</label>
          <select id={ids.range} value={range.value} onChange={(e) => change({ range: e.target.value || null })}>
            {ranges.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <form className="field request-route" onSubmit={applyRoute}>
          <label htmlFor={ids.route}>Operation</label>
          <div className="request-route-row">
            <input id={ids.route} value={routeDraft} onChange={(e) => setRouteDraft(e.target.value)} aria-describedby={ids.routeHelp} autoComplete="off" spellCheck={false} />
            <button type="submit">Apply</button>
          </div>
          <span id={ids.routeHelp} className="muted request-help">
            Exactly, e.g. <code>me_get</code> or a GraphQL operation name
          </span>
        </form>
        {filtered ? (
          <p className="request-clear">
            <Link to={live ? '/requests?live=on' : '/requests'}>Clear filters</Link>
          </p>
        ) : null}
      </section>

      {result.fetching && !data ? <Loading what="requests" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={refresh} /> : null}
      {data && requests.length === 0 ? (
        <Empty>
          {filtered ? 'No request matches these filters. ' : after || before ? 'No requests on this page. ' : 'No requests recorded for this organization yet. '}
          {filtered || after || before ? <Link to="/requests">Show every request</Link> : 'Call the API with a key and the request appears here.'}
        </Empty>
      ) : null}
      {requests.length > 0 ? (
        <ScrollingTable label="Table of requests">
          <table className="requests">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Key</th>
                <th scope="col" className="request-numeric">
                  Duration
                </th>
                <th scope="col" className="request-numeric">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <RequestRow key={r.id} request={r} />
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      {newerPage || olderPage ? (
        <nav className="pager" aria-label="Pages of requests">
          {newerPage ? <Link to={newerPage}>Previous</Link> : null}
          {olderPage ? <Link to={olderPage}>Next</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

function keyLabel(k: { name: string; hint: string; revokedAt: string | null }) {
  return `${k.name} (${k.hint})${k.revokedAt ? ', revoked' : ''}`;
}
