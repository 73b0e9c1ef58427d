// Search: one box for a ticker, CIK or name. The graph's resolveEntity answers the best match with
// its confidence, and every other company the identifier names when the sources disagree (BLK:
// the SEC's two ticker maps name two CIKs); `entities` adds the companies whose name or ticker
// contains the words. The query is in the address (?q=), so a search can be shared.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { humanize } from '../../format.ts';
import { companyPath, percent, sourceName } from './research.ts';

const otherMatchesShown = 10;

const SearchQuery = graphql(`
  query ResearchSearch($q: String!, $limit: Int!) {
    resolveEntity(identifier: $q) {
      confidence
      matchedBy
      reason
      lastFiledAt
      sources {
        source
        asOf
      }
      entity {
        cik
        name
        tickers
        exchanges
        sicDescription
      }
    }
    entities(query: $q, limit: $limit) {
      total
      items {
        cik
        name
        tickers
        kind
      }
    }
  }
`);

export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  useTitle(q ? `Search: ${q}` : 'Search');
  const [text, setText] = useState(q);
  const boxId = useId();
  const helpId = useId();
  useEffect(() => setText(q), [q]);
  const [result, refetch] = useQuery({ query: SearchQuery, variables: { q, limit: otherMatchesShown }, pause: !q });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    setParams(value ? { q: value } : {});
  };

  const matches = result.data?.resolveEntity ?? [];
  const [best, ...alternatives] = matches;
  const named = new Set(matches.map((m) => m.entity.cik));
  const others = (result.data?.entities.items ?? []).filter((e) => !named.has(e.cik));
  const disputed = alternatives.length > 0 && best !== undefined && best.confidence < 1;

  return (
    <>
      <h1>Search</h1>
      <form className="search research-search" role="search" onSubmit={submit}>
        <label htmlFor={boxId}>Company, ticker or CIK</label>
        <div className="search-row">
          <input id={boxId} type="search" value={text} onChange={(e) => setText(e.target.value)} aria-describedby={helpId} autoComplete="off" spellCheck={false} />
          <button type="submit">Search</button>
        </div>
        <p id={helpId} className="muted">
          A ticker (AAPL, BRK.B), a CIK (320193 or CIK0000320193) or a company's name.
        </p>
      </form>
      {q && result.fetching && !result.data ? <Loading what="the matches" /> : null}
      {result.error ? <ProblemNotice error={result.error} context="Searching" retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {q && result.data && !best && others.length === 0 ? <Empty>No company the service holds matches “{q}”.</Empty> : null}
      {best ? (
        <section aria-labelledby="best-match">
          <h2 id="best-match">Best match</h2>
          <div className="card research-match">
            <p className="research-match-name">
              <Link to={companyPath(best.entity.cik)}>{best.entity.name}</Link>
            </p>
            <dl className="pairs">
              <dt>Match confidence</dt>
              <dd>
                <strong>{percent(best.confidence)}</strong> by {humanize(best.matchedBy.replace('name_', 'name, '))}
              </dd>
              <dt>CIK</dt>
              <dd>{best.entity.cik}</dd>
              <dt>Tickers</dt>
              <dd>{best.entity.tickers.join(', ') || 'None held'}</dd>
              {best.sources.length ? (
                <>
                  <dt>Sources that name it</dt>
                  <dd>{best.sources.map((s) => sourceName(s.source)).join(', ')}</dd>
                </>
              ) : null}
              <dt>Latest filing held</dt>
              <dd>{best.lastFiledAt ?? 'None'}</dd>
            </dl>
            {best.reason ? <p className="note research-reason">{best.reason}</p> : null}
          </div>
        </section>
      ) : null}
      {alternatives.length ? (
        <section aria-labelledby="alternatives">
          <h2 id="alternatives">{disputed ? 'Alternatives: the sources disagree' : 'Other matches'}</h2>
          <ScrollingTable label="Alternative matches">
            <table className="research-alternatives">
              <thead>
                <tr>
                  <th scope="col">Company</th>
                  <th scope="col">CIK</th>
                  <th scope="col">Confidence</th>
                  <th scope="col">Named by</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {alternatives.map((m) => (
                  <tr key={m.entity.cik}>
                    <th scope="row">
                      <Link to={companyPath(m.entity.cik)}>{m.entity.name}</Link>
                    </th>
                    <td>{m.entity.cik}</td>
                    <td>{percent(m.confidence)}</td>
                    <td>{m.sources.map((s) => sourceName(s.source)).join(', ') || humanize(m.matchedBy)}</td>
                    <td>{m.reason ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
        </section>
      ) : null}
      {others.length ? (
        <section aria-labelledby="also-matching">
          <h2 id="also-matching">Also matching “{q}”</h2>
          <ul className="research-list">
            {others.map((e) => (
              <li key={e.cik}>
                <Link to={companyPath(e.cik)}>{e.name}</Link> <span className="muted">CIK {e.cik}{e.tickers.length ? ` · ${e.tickers.join(', ')}` : ''}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
