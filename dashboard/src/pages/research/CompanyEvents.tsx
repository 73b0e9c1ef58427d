// The company's 8-K current reports, newest first: the items each reports and the events read from
// its document (officer and director changes, auditor changes, restatements, votes with each
// proposal's result, …). Each row opens its filing in the reader; each event and vote result opens
// it on the sentence it was read from, quoted beside it (or says why there is none). Events read
// from a document that names no filing (no accession number, no index naming it) are listed apart,
// as text with the reason they cannot be opened.
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { formatNumber, humanize } from '../../format.ts';
import { FilingSource } from './FilingSource.tsx';
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
            citationUrl
            documentHeld
            sourceSpan
            sourceSpanNullReason
            data
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      eventsWithoutFiling(first: $first) {
        nodes {
          type
          item
          eventDate
          citationNullReason
          sourceSpan
          sourceSpanNullReason
          data
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

/** A vote proposal's result as the 8-K prints it (the parser's `data.proposals`). */
interface ProposalResult {
  number: number;
  nominee?: string;
  proposalType: string;
  outcome: string | null;
  for: number | null;
  against: number | null;
  withheld: number | null;
  abstain: number | null;
  brokerNonVotes: number | null;
  sourceSpan?: string | null;
  sourceSpanNullReason?: string | null;
}

const tallies: [keyof ProposalResult, string][] = [
  ['for', 'for'],
  ['against', 'against'],
  ['withheld', 'withheld'],
  ['abstain', 'abstaining'],
  ['brokerNonVotes', 'broker non-votes'],
];

const proposalsOf = (data: unknown): ProposalResult[] => (data as { proposals?: ProposalResult[] } | null)?.proposals ?? [];

interface Cited {
  /** null for an event whose document names no filing: its label is then plain text */
  accessionNumber: string | null;
  citationUrl: string | null;
  documentHeld: boolean;
  sourceSpan?: string | null;
  sourceSpanNullReason?: string | null;
  children: string;
}

/** A label that opens the filing on its sentence, the sentence quoted under it; or, without one, why. */
function CitedLine({ accessionNumber, citationUrl, documentHeld, sourceSpan, sourceSpanNullReason, children }: Cited) {
  return (
    <>
      <FilingSource accessionNumber={accessionNumber} citationUrl={citationUrl} documentHeld={documentHeld} sentence={sourceSpan} title={sourceSpan ? 'Open the filing on this sentence' : undefined}>
        {children}
      </FilingSource>
      {sourceSpan ? <blockquote className="dilution-span">{sourceSpan}</blockquote> : <span className="research-sub muted">No source sentence: {sourceSpanNullReason ?? 'not stated'}</span>}
    </>
  );
}

interface EventRead {
  type: string;
  item?: string | null;
  eventDate?: string | null;
  sourceSpan?: string | null;
  sourceSpanNullReason?: string | null;
  data: unknown;
}

/**
 * An event's line, opening its filing on its sentence where there is one, and each vote proposal's
 * result under it; `notLinked`: why an event whose filing is not known opens nothing.
 */
function EventLines({ event: e, accessionNumber, citationUrl, documentHeld, notLinked }: { event: EventRead; accessionNumber: string | null; citationUrl: string | null; documentHeld: boolean; notLinked?: string }) {
  return (
    <>
      <CitedLine accessionNumber={accessionNumber} citationUrl={citationUrl} documentHeld={documentHeld} sourceSpan={e.sourceSpan} sourceSpanNullReason={e.sourceSpanNullReason}>
        {`${humanize(e.type)}${e.item ? ` (Item ${e.item})` : ''}${e.eventDate ? `, ${e.eventDate}` : ''}`}
      </CitedLine>
      {notLinked ? <span className="research-sub muted">Not linked: {notLinked}</span> : null}
      {proposalsOf(e.data).length ? (
        <ul className="research-event-list">
          {proposalsOf(e.data).map((p, j) => (
            <li key={j}>
              <CitedLine accessionNumber={accessionNumber} citationUrl={citationUrl} documentHeld={documentHeld} sourceSpan={p.sourceSpan} sourceSpanNullReason={p.sourceSpanNullReason}>
                {`Proposal ${p.number}${p.nominee ? `, ${p.nominee}` : ''}: ${p.outcome ? humanize(p.outcome) : 'outcome not stated'}`}
              </CitedLine>
              <span className="research-sub">
                {tallies
                  .filter(([key]) => typeof p[key] === 'number')
                  .map(([key, label]) => `${formatNumber(p[key] as number)} ${label}`)
                  .join(', ') || 'No vote counts printed'}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function CompanyEvents({ cik }: { cik: string }) {
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: CompanyEventsQuery, variables: { cik, first: pageSize, after } });
  const filings = result.data?.entity?.filings.nodes ?? [];
  // listed with the first page of reports only: they belong to no page of filings
  const unfiled = after ? [] : (result.data?.entity?.eventsWithoutFiling.nodes ?? []);
  return (
    <>
      <h2>Events</h2>
      <p className="muted">Current reports (8-K), newest first: the items each reports, and the events read from the documents the service holds, each with the sentence it was read from (a link opens the filing with that sentence marked).</p>
      {result.fetching && !result.data ? <Loading what="the events" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && filings.length === 0 ? <Empty>{after ? 'No older current reports.' : unfiled.length ? 'No current report (8-K) of this company is held under a known filing.' : 'No current reports (8-K) of this company are held.'}</Empty> : null}
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
                    {f.events.length ? (
                      <ul className="research-event-list">
                        {f.events.map((e, i) => (
                          <li key={`${e.item}-${e.type}-${i}`}>
                            <EventLines event={e} accessionNumber={f.accessionNumber} citationUrl={e.citationUrl ?? null} documentHeld={e.documentHeld} />
                          </li>
                        ))}
                      </ul>
                    ) : f.documentIngested ? (
                      'None'
                    ) : (
                      'Document not held'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      {unfiled.length ? (
        <section aria-labelledby="events-without-filing">
          <h3 id="events-without-filing">Events whose filing is not known</h3>
          <p className="muted">Read from documents that state no accession number, and no index or submissions file the service holds names their filing: they cannot be opened in the reader or cited.</p>
          <ul className="research-event-list research-events-unfiled">
            {unfiled.map((e, i) => (
              <li key={`${e.item}-${e.type}-${i}`}>
                <EventLines event={e} accessionNumber={null} citationUrl={null} documentHeld={false} notLinked={e.citationNullReason ?? 'its filing is not known'} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Pager label="Pages of current reports" after={after} pageInfo={result.data?.entity?.filings.pageInfo} first="Newest reports" next="Older reports" />
    </>
  );
}
