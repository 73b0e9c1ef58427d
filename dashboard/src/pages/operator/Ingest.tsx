// Operator: how the ingest went: its runs, newest first, and the items it could not load (or
// loaded in part), each list paged by cursor (?after=).
import { Pager } from '../../components/Pager.tsx';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { OperatorNav } from '../../components/operator/OperatorNav.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { formatDateTime, formatNumber } from '../../format.ts';
import { graphql } from '../../gql';

const pageSize = 25;

const RunsQuery = graphql(`
  query OperatorIngestRunsPage($first: Int!, $after: String) {
    operatorIngestRuns(first: $first, after: $after) {
      nodes {
        id
        source
        startedAt
        finishedAt
        read
        written
        skipped
        failed
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const FailuresQuery = graphql(`
  query OperatorIngestFailuresPage($first: Int!, $after: String) {
    operatorIngestFailures(first: $first, after: $after) {
      nodes {
        sourceKey
        kind
        status
        reason
        records
        runId
        updatedAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export function IngestRunsPage() {
  useTitle('Ingest runs');
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: RunsQuery, variables: { first: pageSize, after }, requestPolicy: 'cache-and-network' });
  const runs = result.data?.operatorIngestRuns.nodes ?? [];
  const pageInfo = result.data?.operatorIngestRuns.pageInfo;
  return (
    <>
      <p className="crumbs">
        <Link to="/operator">Operator</Link>
      </p>
      <h1>Ingest runs</h1>
      <OperatorNav />
      {result.fetching && !result.data ? <Loading what="ingest runs" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && runs.length === 0 ? <Empty>The ingest has not run yet.</Empty> : null}
      {runs.length > 0 ? (
        <ScrollingTable label="Table of ingest runs">
          <table>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Finished</th>
                <th scope="col">Source</th>
                <th scope="col">Read</th>
                <th scope="col">Written</th>
                <th scope="col">Skipped</th>
                <th scope="col">Failed</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <th scope="row">{formatDateTime(r.startedAt)}</th>
                  <td>{r.finishedAt ? formatDateTime(r.finishedAt) : 'Running, or cut short'}</td>
                  <td>
                    <code className="wrap">{r.source}</code>
                  </td>
                  <td>{formatNumber(r.read)}</td>
                  <td>{formatNumber(r.written)}</td>
                  <td>{formatNumber(r.skipped)}</td>
                  <td>{formatNumber(r.failed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of ingest runs" after={after} pageInfo={pageInfo} first="First page" next="Next page" />
    </>
  );
}

export function IngestFailuresPage() {
  useTitle('Ingest failures');
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: FailuresQuery, variables: { first: pageSize, after }, requestPolicy: 'cache-and-network' });
  const failures = result.data?.operatorIngestFailures.nodes ?? [];
  const pageInfo = result.data?.operatorIngestFailures.pageInfo;
  return (
    <>
      <p className="crumbs">
        <Link to="/operator">Operator</Link>
      </p>
      <h1>Ingest failures</h1>
      <OperatorNav />
      <p className="muted">Items the ingest could not load (failed) or loaded with parts left out (partial), as <code>ids ingest:failures</code> lists them.</p>
      {result.fetching && !result.data ? <Loading what="ingest failures" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && failures.length === 0 ? <Empty>Every item the ingest read loaded in full.</Empty> : null}
      {failures.length > 0 ? (
        <ScrollingTable label="Table of ingest failures">
          <table>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Records</th>
                <th scope="col">Run</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {failures.map((f) => (
                <tr key={f.sourceKey}>
                  <th scope="row">
                    <code className="wrap">{f.sourceKey}</code>
                  </th>
                  <td>{f.kind}</td>
                  <td>{f.status}</td>
                  <td className="wrap">{f.reason ?? '—'}</td>
                  <td>{formatNumber(f.records)}</td>
                  <td>
                    <code>{f.runId}</code>
                  </td>
                  <td>{formatDateTime(f.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of ingest failures" after={after} pageInfo={pageInfo} first="First page" next="Next page" />
    </>
  );
}
