// The company's dilution: its score by the documented method (derived/dilution/score.ts) with
// each sub-rating's band, weight and reasons, every input with the filing it was read from, and its
// dilution records (offerings, shelves, ATM programs, warrants, convertibles, splits, notices…),
// newest first, each with the sentence or tag it was read from and a link to its filing: the
// reader when the service holds the document, else the SEC's copy.
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { humanize } from '../../format.ts';
import { FilingSource } from './FilingSource.tsx';
import { formatFiled } from './research.ts';

const pageSize = 25;

const CompanyDilutionQuery = graphql(`
  query CompanyDilution($cik: String!, $first: Int!, $after: String) {
    dilutionScore(cik: $cik) {
      asOf
      methodology
      result
      documentsHeld
    }
    dilutionRecords(cik: $cik, first: $first, after: $after) {
      nodes {
        id
        kind
        date
        form
        filedAt
        fromIndexOnly
        values
        documentHeld
        verification {
          accessionNumber
          citationUrl
          sourceSpan
          confidence
          method
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** The score's JSON as the method writes it (derived/dilution/score.ts: DilutionScore). */
interface InputSource {
  accessionNumber: string | null;
  citationUrl: string | null;
  sourceSpan: string;
  method?: string;
}
type ListedInput = { value: number; asOf: string; source: InputSource; possible?: number; daysToNearestDeadline?: number | null } | { missing: true; reason?: string; optional?: true };
interface SubRating {
  label: string;
  score: number | null;
  band: string;
  weight: number;
  reasons: string[];
  missing: string[];
  lowerBound: boolean | null;
}
interface ScoreResult {
  methodologyVersion: string;
  score: number | null;
  band: string;
  confidence: string;
  coverage: number;
  weightsApplied: Record<string, number | null>;
  ratings: Record<string, SubRating>;
  inputs: Record<string, ListedInput>;
  reasons: string[];
}
interface Methodology {
  subRatings: Record<string, { question: string; metric: string }>;
}

/** Inputs counted in US dollars; the others are counts, months or shares. */
const dollarInputs = new Set(['cash', 'monthlyBurn', 'publicFloat', 'shelfCapacityRemaining', 'atmCapacityRemaining']);

/** "cashRunwayMonths" → "Cash runway months". */
const words = (camel: string) => humanize(camel.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([a-z])([0-9])/g, '$1_$2').toLowerCase());

/** The sentence to mark in the reader: the first part of a span read from a document (an XBRL tag is not in the text). */
const sentenceOf = (span: string, method: string | undefined) => (method === 'offering_document' ? span.split(' … ')[0] : undefined);

const inputValue = (name: string, value: number) => (dollarInputs.has(name) ? `$${formatFiled(value)}` : formatFiled(value));

/** A record's terms: its scalar values as filed, and the baby-shelf limit's own label. */
function Terms({ values }: { values: Record<string, unknown> }) {
  const entries = Object.entries(values).filter(([, v]) => v !== null && (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean'));
  const babyShelf = (values.babyShelf as { label?: string } | undefined)?.label;
  if (!entries.length && !babyShelf) return <span className="muted">No terms read</span>;
  return (
    <dl className="dilution-terms">
      {entries.map(([key, v]) => (
        <div key={key}>
          <dt>{words(key)}</dt>
          <dd>{typeof v === 'number' ? formatFiled(v) : String(v)}</dd>
        </div>
      ))}
      {babyShelf ? (
        <div>
          <dt>Baby shelf</dt>
          <dd>{babyShelf}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function ScoreSummary({ result, asOf }: { result: ScoreResult; asOf: string | null }) {
  return (
    <p className="dilution-score">
      <strong className="dilution-score-value">{result.score === null ? 'No score' : `${result.score} of 100`}</strong> <span className={`status-badge dilution-band-${result.band}`}>{humanize(result.band)}</span>{' '}
      <span className="muted">
        Confidence {result.confidence} (coverage {Math.round(result.coverage * 100)}% of the weight), as of {asOf ?? 'no date held'}; method {result.methodologyVersion}: the weighted mean of the components below that have a score. Higher means more dilution risk.
      </span>
    </p>
  );
}

function Components({ result, methodology }: { result: ScoreResult; methodology: Methodology }) {
  return (
    <ScrollingTable label="Components of the dilution score">
      <table className="dilution-components">
        <caption className="visually-hidden">Components of the dilution score</caption>
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">What it measures</th>
            <th scope="col">Band</th>
            <th scope="col" className="num">Score</th>
            <th scope="col" className="num">Weight applied</th>
            <th scope="col">Why (the numbers used and the rule each met)</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(result.ratings).map(([key, r]) => (
            <tr key={key}>
              <th scope="row">{r.label}</th>
              <td>
                {methodology.subRatings[key]?.question}
                <span className="research-sub muted">{methodology.subRatings[key]?.metric}</span>
              </td>
              <td>
                {humanize(r.band)}
                {r.lowerBound ? <span className="research-sub muted">at least: inputs are missing</span> : null}
              </td>
              <td className="num">{r.score ?? '—'}</td>
              <td className="num">{result.weightsApplied[key] ?? `none (weight ${r.weight}; no score)`}</td>
              <td>
                <ul className="dilution-reasons">
                  {r.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                  {r.missing.length ? <li>Missing: {r.missing.map(words).join(', ')}</li> : null}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollingTable>
  );
}

function Inputs({ inputs, documentsHeld }: { inputs: Record<string, ListedInput>; documentsHeld: string[] }) {
  return (
    <ScrollingTable label="Inputs of the dilution score, each with its source">
      <table className="dilution-inputs">
        <caption className="visually-hidden">Inputs of the dilution score, each with its source</caption>
        <thead>
          <tr>
            <th scope="col">Input</th>
            <th scope="col" className="num">Value</th>
            <th scope="col">As of</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(inputs).map(([name, input]) => (
            <tr key={name}>
              <th scope="row">{words(name)}</th>
              {'missing' in input ? (
                <td colSpan={3} className="muted">
                  Not held{input.optional ? ' (optional)' : ''}
                  {input.reason ? `: ${input.reason}` : ''}
                </td>
              ) : (
                <>
                  <td className="num">
                    {inputValue(name, input.value)}
                    {input.possible ? <span className="research-sub muted">{formatFiled(input.possible)} more possible</span> : null}
                  </td>
                  <td>{input.asOf}</td>
                  <td>
                    <FilingSource
                      accessionNumber={input.source.accessionNumber}
                      citationUrl={input.source.citationUrl}
                      documentHeld={documentsHeld.includes(input.source.accessionNumber ?? '')}
                      sentence={sentenceOf(input.source.sourceSpan, input.source.method)}
                    >
                      {input.source.accessionNumber ?? 'The filing'}
                    </FilingSource>
                    <span className="research-sub">{input.source.sourceSpan}</span>
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollingTable>
  );
}

export function CompanyDilution({ cik }: { cik: string }) {
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: CompanyDilutionQuery, variables: { cik, first: pageSize, after } });
  if (result.fetching && !result.data) return <Loading what="the dilution score and records" />;
  if (result.error) return <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} />;
  if (!result.data) return null;
  const { dilutionScore, dilutionRecords } = result.data;
  const score = dilutionScore.result as ScoreResult;
  const records = dilutionRecords.nodes;
  return (
    <>
      <h2>Dilution</h2>
      <section aria-labelledby="dilution-score">
        <h3 id="dilution-score">Dilution score</h3>
        <ScoreSummary result={score} asOf={dilutionScore.asOf ?? null} />
        <Components result={score} methodology={dilutionScore.methodology as Methodology} />
        <h4>Inputs</h4>
        <p className="muted">Each number the score reads, from the filing named (an XBRL fact, or a sentence of an offering document or 8-K). A missing input lowers the confidence; it is never read as zero.</p>
        <Inputs inputs={score.inputs} documentsHeld={dilutionScore.documentsHeld} />
      </section>
      <section aria-labelledby="dilution-records">
        <h3 id="dilution-records">Dilution records</h3>
        {records.length === 0 ? (
          <Empty>
            {after
              ? 'No older records.'
              : 'The service holds no dilution records of this company. They would list its shares outstanding and public float, cash and runway, warrants, convertibles, offerings, shelf registrations, ATM programs, splits and exchange notices, read from its XBRL facts, offering documents and 8-Ks.'}
          </Empty>
        ) : (
          <ScrollingTable label="Dilution records, newest first">
            <table className="dilution-records">
              <caption className="visually-hidden">Dilution records, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Record</th>
                  <th scope="col">Terms</th>
                  <th scope="col">Read from</th>
                  <th scope="col">Filing</th>
                </tr>
              </thead>
              <tbody>
                {records.map((r) => (
                  <tr key={r.id}>
                    <td>{r.date ?? r.filedAt ?? 'Not stated'}</td>
                    <th scope="row">
                      {humanize(r.kind)}
                      <span className="research-sub muted">
                        {humanize(r.verification.method)}, confidence {r.verification.confidence}
                      </span>
                    </th>
                    <td>{r.fromIndexOnly ? <span className="muted">Known from EDGAR’s index only: no terms</span> : <Terms values={r.values as Record<string, unknown>} />}</td>
                    <td>
                      <blockquote className="dilution-span">{r.verification.sourceSpan}</blockquote>
                    </td>
                    <td>
                      <FilingSource
                        accessionNumber={r.verification.accessionNumber}
                        citationUrl={r.verification.citationUrl}
                        documentHeld={r.documentHeld}
                        sentence={sentenceOf(r.verification.sourceSpan, r.verification.method)}
                      >
                        {`${r.form ?? 'Filing'} ${r.verification.accessionNumber ?? ''}`.trim()}
                      </FilingSource>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
        )}
        <Pager label="Pages of dilution records" after={after} pageInfo={dilutionRecords.pageInfo} first="Newest records" next="Older records" />
      </section>
    </>
  );
}
