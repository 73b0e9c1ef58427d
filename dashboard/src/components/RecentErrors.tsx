// The organization's latest failed requests: when, what, and the code the service answered.
import { graphql, useFragment, type FragmentType } from '../gql';
import { formatDateTime } from '../format.ts';
import { Empty, ScrollingTable } from './States.tsx';

export const RecentErrorFragment = graphql(`
  fragment RecentError on RequestRecord {
    id
    createdAt
    door
    method
    path
    operation
    status
    errorCode
  }
`);

export function RecentErrors(props: { requests: ReadonlyArray<FragmentType<typeof RecentErrorFragment>> }) {
  const requests = useFragment(RecentErrorFragment, props.requests);
  if (requests.length === 0) return <Empty>No failed requests recorded for this organization.</Empty>;
  return (
    <ScrollingTable label="Table of latest errors">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col">Code</th>
            <th scope="col">Request</th>
            <th scope="col">Request id</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((r) => (
            <tr key={r.id}>
              <td>{formatDateTime(r.createdAt)}</td>
              <td>{r.status}</td>
              <td>{r.errorCode ? <code>{r.errorCode}</code> : '—'}</td>
              <td className="wrap">
                {r.door === 'graphql' ? `GraphQL ${r.operation ?? '(anonymous)'}` : `${r.method} ${r.path}`}
              </td>
              <td>
                <code>{r.id}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollingTable>
  );
}
