// Insider transactions (Forms 3, 4 and 5, in force), Form 144 notices of proposed sales, Schedule
// 13D/G beneficial owners and the institutional managers whose held 13F information tables list the
// company; each row opens its filing (in the reader, or the SEC's copy for a form the reader lacks).
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { formatNumber } from '../../format.ts';
import { FilingSource } from './FilingSource.tsx';
import { filingPath, formatFiled } from './research.ts';

const pageSize = 25;
const ownersShown = 10;
const holdersShown = 25;
const noticesShown = 10;

const CompanyInsidersQuery = graphql(`
  query CompanyInsiders($cik: String!, $first: Int!, $after: String, $owners: Int!, $holders: Int!, $notices: Int!) {
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
    institutionalHolders(cik: $cik, first: $holders) {
      managersRead
      matchRule
      nodes {
        id
        accessionNumber
        citationUrl
        managerName
        managerCik
        period
        classTitle
        valueUsd
        sharesOrPrincipalAmount
        sharesOrPrincipalType
        putCall
        matchedBy
      }
    }
    forms(family: "144", cik: $cik, first: $notices) {
      nodes {
        id
        accessionNumber
        formType
        filedAt
        citationUrl
        citationNullReason
        data
      }
    }
  }
`);

/** What a Form 144 notice states (ingest/parsers/ownership/form144.ts: Form144Data), as far as shown. */
interface Form144 {
  personForWhoseAccount: string | null;
  relationshipsToIssuer: string[];
  noticeDate: string | null;
  securitiesToBeSold: { securitiesClass: string | null; numberOfUnits: number | null; aggregateMarketValue: number | null; approximateSaleDate: string | null; exchange: string | null }[];
}

/** A figure the filing states, linked to that filing (a document without an accession number, unlinked). */
function Cited({ value, accession }: { value: string; accession: string | null | undefined }) {
  return accession ? <Link to={filingPath(accession)}>{value}</Link> : <>{value}</>;
}

export function CompanyInsiders({ cik }: { cik: string }) {
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: CompanyInsidersQuery, variables: { cik, first: pageSize, after, owners: ownersShown, holders: holdersShown, notices: noticesShown } });
  const transactions = result.data?.insiderTransactions.nodes ?? [];
  const owners = result.data?.beneficialOwners.nodes ?? [];
  const holders = result.data?.institutionalHolders.nodes ?? [];
  const notices = result.data?.forms.nodes ?? [];
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
          <h3>Proposed sales (Form 144)</h3>
          {notices.length === 0 ? <Empty>No Form 144 notice of this company is held. A notice would list who proposes to sell, how many securities, their market value and the approximate sale date, from the Form 144 filed by the seller.</Empty> : null}
          {notices.length ? (
            <ScrollingTable label="Form 144 notices, newest filed first">
              <table className="research-notices">
                <caption className="visually-hidden">Form 144 notices of proposed sales, newest filed first</caption>
                <thead>
                  <tr>
                    <th scope="col">Filed</th>
                    <th scope="col">Seller</th>
                    <th scope="col">Securities</th>
                    <th scope="col" className="num">Units to sell</th>
                    <th scope="col" className="num">Market value</th>
                    <th scope="col">Approximate sale</th>
                  </tr>
                </thead>
                <tbody>
                  {notices.flatMap((n) => {
                    const data = n.data as Form144;
                    const source = (value: string) => (
                      <FilingSource accessionNumber={n.accessionNumber} citationUrl={n.citationUrl} documentHeld={null}>
                        {value}
                      </FilingSource>
                    );
                    return data.securitiesToBeSold.map((sale, i) => (
                      <tr key={`${n.id}-${i}`}>
                        <td>
                          {source(`${n.formType} ${n.filedAt ?? data.noticeDate ?? ''}`.trim())}
                          {n.citationNullReason ? <span className="research-sub muted">{n.citationNullReason}</span> : null}
                        </td>
                        <th scope="row">
                          {data.personForWhoseAccount ?? 'Not stated'}
                          {data.relationshipsToIssuer.length ? <span className="research-sub muted">{data.relationshipsToIssuer.join(', ')}</span> : null}
                        </th>
                        <td>{sale.securitiesClass ?? ''}</td>
                        <td className="num">{sale.numberOfUnits === null ? '' : source(formatFiled(sale.numberOfUnits))}</td>
                        <td className="num">{sale.aggregateMarketValue === null ? '' : source(`$${formatFiled(sale.aggregateMarketValue)}`)}</td>
                        <td>
                          {sale.approximateSaleDate ?? ''}
                          {sale.exchange ? <span className="research-sub muted">on {sale.exchange}</span> : null}
                        </td>
                      </tr>
                    ));
                  })}
                </tbody>
              </table>
            </ScrollingTable>
          ) : null}
          <h3>Institutional holders (Form 13F)</h3>
          {holders.length === 0 ? (
            <Empty>
              {result.data.institutionalHolders.managersRead
                ? `None of the ${result.data.institutionalHolders.managersRead.toLocaleString('en-US')} institutional managers whose Form 13F reports the service holds lists this company in its latest information table.`
                : 'The service holds no Form 13F information table of any manager.'}{' '}
              A holder would appear with its position’s value and shares, from that manager’s 13F-HR.
            </Empty>
          ) : (
            <ScrollingTable label="Institutional holders, largest value first">
              <table className="research-holders">
                <caption className="visually-hidden">Institutional holders from Form 13F information tables, largest value first</caption>
                <thead>
                  <tr>
                    <th scope="col">Manager</th>
                    <th scope="col">Quarter</th>
                    <th scope="col">Class</th>
                    <th scope="col" className="num">Value</th>
                    <th scope="col" className="num">Shares or principal</th>
                  </tr>
                </thead>
                <tbody>
                  {holders.map((h) => {
                    const source = (value: string) => (
                      <FilingSource accessionNumber={h.accessionNumber} citationUrl={h.citationUrl} documentHeld={null}>
                        {value}
                      </FilingSource>
                    );
                    return (
                      <tr key={h.id}>
                        <th scope="row">{h.managerName ?? h.managerCik ?? 'Not stated'}</th>
                        <td>{h.period ?? ''}</td>
                        <td>
                          {h.classTitle ?? ''}
                          {h.putCall ? ` (${h.putCall})` : ''}
                        </td>
                        <td className="num">{h.valueUsd === null ? '' : source(`$${formatFiled(h.valueUsd)}`)}</td>
                        <td className="num">{h.sharesOrPrincipalAmount === null ? '' : `${formatFiled(h.sharesOrPrincipalAmount)} ${h.sharesOrPrincipalType ?? ''}`.trim()}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollingTable>
          )}
          {holders.length ? <p className="muted">{result.data.institutionalHolders.matchRule}</p> : null}
        </>
      ) : null}
    </>
  );
}
