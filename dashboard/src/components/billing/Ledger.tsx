// The credit ledger, newest first, a page at a time by cursor; `?type=` narrows it to one kind of
// entry and `?after=` is the page, so either can be shared.
import { Pager } from '../Pager.tsx';
import { useEffect, useId } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { formatDateTime } from '../../format.ts';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../States.tsx';
import { formatMillicents } from './money.ts';

const LedgerQuery = graphql(`
  query BillingLedger($first: Int!, $after: String, $type: String) {
    creditTransactions(first: $first, after: $after, type: $type) {
      nodes {
        id
        type
        amountMillicents
        balanceAfterMillicents
        reference
        description
        createdAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const ledgerPageSize = 20;

/** The service's entry types (resolvers/billing/ledger.ts entryTypes), as the filter names them. */
export const entryTypeNames: Record<string, string> = { topup: 'Top-up', debit: 'Debit', refund: 'Refund', grant: 'Grant', adjustment: 'Adjustment' };
const filterNames: Record<string, string> = { topup: 'Top-ups', debit: 'Debits', refund: 'Refunds', grant: 'Grants and bonuses', adjustment: 'Adjustments' };

/** `version` changes when the page knows the ledger has new entries (a confirmed top-up). */
export function Ledger({ version }: { version: number }) {
  const [params, setParams] = useSearchParams();
  const type = params.get('type') && entryTypeNames[params.get('type')!] ? params.get('type') : null;
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: LedgerQuery, variables: { first: ledgerPageSize, after, type }, requestPolicy: 'cache-and-network' });
  const filterId = useId();

  useEffect(() => {
    if (version) refetch({ requestPolicy: 'network-only' });
  }, [version]);

  const setType = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('type', value);
    else next.delete('type');
    // another filter starts from the newest entry
    next.delete('after');
    setParams(next, { preventScrollReset: true });
  };

  const page = result.data?.creditTransactions;
  return (
    <section aria-labelledby="billing-ledger-heading">
      <h2 id="billing-ledger-heading">Credit ledger</h2>
      <div className="filters">
        <label htmlFor={filterId}>Type</label>{' '}
        <select id={filterId} value={type ?? ''} onChange={(e) => setType(e.target.value)}>
          <option value="">All entries</option>
          {Object.entries(filterNames).map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </div>
      {result.fetching && !page ? <Loading what="the credit ledger" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {page && page.nodes.length === 0 ? <Empty>{type ? `No ${filterNames[type]!.toLowerCase()} in the ledger${after ? ' past this point' : ''}.` : 'No credit has come in or gone out yet.'}</Empty> : null}
      {page && page.nodes.length > 0 ? (
        <ScrollingTable label="Credit ledger entries">
          <table className="stack ledger">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Balance after
                </th>
                <th scope="col">Reference</th>
              </tr>
            </thead>
            <tbody>
              {page.nodes.map((e) => (
                <tr key={e.id}>
                  <th scope="row">{formatDateTime(e.createdAt)}</th>
                  <td data-label="Type">{entryTypeNames[e.type] ?? e.type}</td>
                  <td data-label="Description">{e.description}</td>
                  <td data-label="Amount" className={`num ${e.amountMillicents < 0 ? 'debit' : 'credit'}`}>
                    {e.amountMillicents > 0 ? '+' : ''}
                    {formatMillicents(e.amountMillicents)}
                  </td>
                  <td data-label="Balance after" className="num">
                    {formatMillicents(e.balanceAfterMillicents)}
                  </td>
                  <td data-label="Reference">{e.reference ? <code>{e.reference}</code> : <span className="muted">None</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      {page ? <Pager label="Pages of the credit ledger" after={after} pageInfo={page.pageInfo} first="Newest entries" next="Older entries" /> : null}
    </section>
  );
}
