// The company's 8-K current reports, newest first: the items each reports and the events read from
// its document (officer and director changes, auditor changes, restatements, votes, …). Each row
// opens its filing in the reader.
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { humanize } from '../../format.ts';
import { filingPath } from './research.ts';

const pageSize = 25;

const CompanyEventsQuery = graphql(`
  query CompanyEvents($cik: String!, $first: Int!, $after: String) {
    entity(cik: $cik) {
      cik
      filings(first: $first, after: $after, form: "8-K") {
        nodes {
          accessionNumber
          filedAt
          reportDate
          items
          documentIngested
          events {
            type
            item
            eventDate
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

/** 8-K items by number, as Form 8-K names them (the ones the service reads events from first). */
const itemNames: Record<string, string> = {
  '1.01': 'Material agreement',
  '1.02': 'Agreement terminated',
  '2.01': 'Acquisition or disposition',
  '2.02': 'Results of operations',
  '2.03': 'Financial obligation',
  '2.05': 'Exit costs',
  '2.06': 'Impairment',
  '3.01': 'Listing notice',
  '3.02': 'Unregistered sale of equity',
  '3.03': 'Rights of holders modified',
  '4.01': 'Auditor change',
  '4.02': 'Restatement (non-reliance)',
  '5.01': 'Change in control',
  '5.02': 'Officer or director change',
  '5.03': 'Articles or bylaws amended',
  '5.07': 'Shareholder vote',
  '7.01': 'Regulation FD disclosure',
  '8.01': 'Other events',
  '9.01': 'Financial statements and exhibits',
};

export function CompanyEvents({ cik }: { cik: string }) {
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: CompanyEventsQuery, variables: { cik, first: pageSize, after } });
  const filings = result.data?.entity?.filings.nodes ?? [];
  return (
    <>
      <h2>Events</h2>
      <p className="muted">Current reports (8-K), newest first: the items each reports, and the events read from the documents the service holds.</p>
      {result.fetching && !result.data ? <Loading what="the events" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && filings.length === 0 ? <Empty>{after ? 'No older current reports.' : 'No current reports (8-K) of this company are held.'}</Empty> : null}
      {filings.length ? (
        <ScrollingTable label="Current reports, newest first">
          <table className="research-events">
            <thead>
              <tr>
                <th scope="col">Filed</th>
                <th scope="col">Filing</th>
                <th scope="col">Items</th>
                <th scope="col">Events read</th>
              </tr>
            </thead>
            <tbody>
              {filings.map((f) => (
                <tr key={f.accessionNumber}>
                  <td>{f.filedAt ?? 'Not stated'}</td>
                  <th scope="row">
                    <Link to={filingPath(f.accessionNumber)}>{f.accessionNumber}</Link>
                  </th>
                  <td>{f.items.length ? f.items.map((i) => `${i} ${itemNames[i] ?? ''}`.trim()).join('; ') : 'None stated'}</td>
                  <td>
                    {f.events.length
                      ? f.events.map((e) => `${humanize(e.type)}${e.eventDate ? ` (${e.eventDate})` : ''}`).join('; ')
                      : f.documentIngested
                        ? 'None'
                        : 'Document not held'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of current reports" after={after} pageInfo={result.data?.entity?.filings.pageInfo} first="Newest reports" next="Older reports" />
    </>
  );
}
