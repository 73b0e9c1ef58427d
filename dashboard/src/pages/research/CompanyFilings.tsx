// The company's filings, newest first, a page at a time, narrowed to one form (?form=); each opens
// in the filing reader.
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { filingPath } from './research.ts';

const pageSize = 25;

const CompanyFilingsQuery = graphql(`
  query CompanyFilings($cik: String!, $form: String, $first: Int!, $after: String) {
    entity(cik: $cik) {
      cik
      filings(first: $first, after: $after, form: $form) {
        nodes {
          accessionNumber
          form
          filedAt
          reportDate
          primaryDocDescription
          documentIngested
          items
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

export function CompanyFilings({ cik, forms }: { cik: string; forms: string[] }) {
  const [params, setParams] = useSearchParams();
  const form = params.get('form');
  const after = params.get('after');
  const selectId = useId();
  const [result, refetch] = useQuery({ query: CompanyFilingsQuery, variables: { cik, form, first: pageSize, after } });
  const filings = result.data?.entity?.filings.nodes ?? [];
  const choices = [...forms].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

  const chooseForm = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('form', value);
    else next.delete('form');
    // a new filter starts from the newest filing
    next.delete('after');
    setParams(next);
  };

  return (
    <>
      <h2>Filings</h2>
      <div className="filters research-filters">
        <div className="field">
          <label htmlFor={selectId}>Form</label>
          <select id={selectId} value={form ?? ''} onChange={(e) => chooseForm(e.target.value)}>
            <option value="">Every form</option>
            {form && !choices.includes(form) ? <option value={form}>{form}</option> : null}
            {choices.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
      </div>
      {result.fetching && !result.data ? <Loading what="the filings" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && filings.length === 0 ? <Empty>{after ? 'No older filings.' : form ? `No ${form} filings are held.` : 'No filings are held.'}</Empty> : null}
      {filings.length ? (
        <ScrollingTable label="Filings, newest first">
          <table className="research-filings">
            <thead>
              <tr>
                <th scope="col">Filed</th>
                <th scope="col">Form</th>
                <th scope="col">Filing</th>
                <th scope="col">Period or event</th>
                <th scope="col">Document</th>
              </tr>
            </thead>
            <tbody>
              {filings.map((f) => (
                <tr key={f.accessionNumber}>
                  <td>{f.filedAt ?? 'Not stated'}</td>
                  <td>{f.form}</td>
                  <th scope="row">
                    <Link to={filingPath(f.accessionNumber)}>{f.accessionNumber}</Link>
                    {f.primaryDocDescription || f.items.length ? (
                      <span className="muted research-sub">
                        {f.primaryDocDescription ?? ''}
                        {f.items.length ? `${f.primaryDocDescription ? ' · ' : ''}Items ${f.items.join(', ')}` : ''}
                      </span>
                    ) : null}
                  </th>
                  <td>{f.reportDate ?? ''}</td>
                  <td>{f.documentIngested ? 'Held' : 'Index entry only'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of filings" after={after} pageInfo={result.data?.entity?.filings.pageInfo} first="Newest filings" next="Older filings" />
    </>
  );
}
