// Insider transactions (Forms 3, 4 and 5, in force) and Schedule 13D/G beneficial owners of the
// company, newest first; each row opens its filing in the reader.
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { formatNumber } from '../../format.ts';
import { filingPath } from './research.ts';

const pageSize = 25;
const ownersShown = 10;

const CompanyInsidersQuery = graphql(`
  query CompanyInsiders($cik: String!, $first: Int!, $after: String, $owners: Int!) {
    insiderTransactions(cik: $cik, table: "non_derivative", first: $first, after: $after) {
      nodes {
        id
        accessionNumber
        formType
        filedAt
        transactionDate
        transactionCode
        transactionCodeMeaning
        acquiredDisposed
        shares
        pricePerShare
        sharesOwnedFollowing
        owners {
          name
          officerTitle
          roles
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    beneficialOwners(cik: $cik, first: $owners) {
      nodes {
        id
        accessionNumber
        schedule
        ownerName
        percentOfClass
        aggregateAmountOwned
        filedAt
      }
    }
  }
`);

/** A figure the filing states, linked to that filing (a document without an accession number, unlinked). */
function Cited({ value, accession }: { value: string; accession: string | null | undefined }) {
  return accession ? <Link to={filingPath(accession)}>{value}</Link> : <>{value}</>;
}

export function CompanyInsiders({ cik }: { cik: string }) {
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: CompanyInsidersQuery, variables: { cik, first: pageSize, after, owners: ownersShown } });
  const transactions = result.data?.insiderTransactions.nodes ?? [];
  const owners = result.data?.beneficialOwners.nodes ?? [];
  return (
    <>
      <h2>Insiders and ownership</h2>
      {result.fetching && !result.data ? <Loading what="insider transactions" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data ? (
        <>
          <h3>Insider transactions</h3>
          {transactions.length === 0 ? <Empty>{after ? 'No older transactions.' : 'No Form 3, 4 or 5 transactions of this company are held.'}</Empty> : null}
          {transactions.length ? (
            <ScrollingTable label="Insider transactions, newest filed first">
              <table className="research-insiders">
                <thead>
                  <tr>
                    <th scope="col">Filed</th>
                    <th scope="col">Insider</th>
                    <th scope="col">Transaction</th>
                    <th scope="col" className="num">Shares</th>
                    <th scope="col" className="num">Price</th>
                    <th scope="col" className="num">Owned after</th>
                  </tr>
                </thead>
                <tbody>
                  {transactions.map((t) => (
                    <tr key={t.id}>
                      <td>
                        <Cited value={`${t.formType} ${t.filedAt ?? ''}`.trim()} accession={t.accessionNumber} />
                      </td>
                      <th scope="row">
                        {t.owners.map((o) => o.name).filter(Boolean).join(', ') || 'Not stated'}
                        {t.owners[0]?.officerTitle ? <span className="research-sub muted">{t.owners[0].officerTitle}</span> : null}
                      </th>
                      <td>
                        {t.transactionCode ? `${t.transactionCode}${t.transactionCodeMeaning ? ` (${t.transactionCodeMeaning})` : ''}` : 'Holding'}
                        {t.transactionDate ? <span className="research-sub muted">on {t.transactionDate}</span> : null}
                      </td>
                      <td className="num">{t.shares === null || t.shares === undefined ? '' : <Cited value={`${t.acquiredDisposed === 'disposed' ? '−' : ''}${formatNumber(t.shares)}`} accession={t.accessionNumber} />}</td>
                      <td className="num">{t.pricePerShare === null || t.pricePerShare === undefined ? '' : <Cited value={`$${t.pricePerShare}`} accession={t.accessionNumber} />}</td>
                      <td className="num">{t.sharesOwnedFollowing === null || t.sharesOwnedFollowing === undefined ? '' : <Cited value={formatNumber(t.sharesOwnedFollowing)} accession={t.accessionNumber} />}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollingTable>
          ) : null}
          <Pager label="Pages of insider transactions" after={after} pageInfo={result.data.insiderTransactions.pageInfo} first="Newest transactions" next="Older transactions" />
          <h3>Beneficial owners (Schedule 13D and 13G)</h3>
          {owners.length === 0 ? <Empty>No Schedule 13D or 13G of this company is held.</Empty> : null}
          {owners.length ? (
            <ScrollingTable label="Beneficial owners, largest first">
              <table className="research-owners">
                <thead>
                  <tr>
                    <th scope="col">Owner</th>
                    <th scope="col">Schedule</th>
                    <th scope="col" className="num">Shares</th>
                    <th scope="col" className="num">Of the class</th>
                    <th scope="col">Filed</th>
                  </tr>
                </thead>
                <tbody>
                  {owners.map((o) => (
                    <tr key={o.id}>
                      <th scope="row">{o.ownerName}</th>
                      <td>{o.schedule}</td>
                      <td className="num">{o.aggregateAmountOwned === null || o.aggregateAmountOwned === undefined ? '' : <Cited value={formatNumber(o.aggregateAmountOwned)} accession={o.accessionNumber} />}</td>
                      <td className="num">{o.percentOfClass === null || o.percentOfClass === undefined ? '' : <Cited value={`${o.percentOfClass}%`} accession={o.accessionNumber} />}</td>
                      <td>{o.accessionNumber ? <Link to={filingPath(o.accessionNumber)}>{o.filedAt ?? o.accessionNumber}</Link> : (o.filedAt ?? '')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollingTable>
          ) : null}
        </>
      ) : null}
    </>
  );
}
