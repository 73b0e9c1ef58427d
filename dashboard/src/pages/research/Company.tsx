// A company's page (/dashboard/companies/{cik}): its profile, what the service holds of it and
// what it does not ("Coverage"), and tabs, each a URL (?tab=): its filings, its financial
// statements, its revenue by segment, its 8-K events, its dilution score and records, and insider
// transactions, proposed sales and owners. Every figure links to the filing it was read from, opened in the reader.
import { useRef, type KeyboardEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { CompanyDilution } from './CompanyDilution.tsx';
import { CompanyEvents } from './CompanyEvents.tsx';
import { CompanyFilings } from './CompanyFilings.tsx';
import { CompanyInsiders } from './CompanyInsiders.tsx';
import { CompanySegments } from './CompanySegments.tsx';
import { Financials } from './Financials.tsx';
import { companyPath, countByFamily, monthDay, plural } from './research.ts';

const CompanyQuery = graphql(`
  query CompanyProfile($cik: String!) {
    entity(cik: $cik) {
      cik
      name
      kind
      entityType
      sic
      sicDescription
      stateOfIncorporation
      fiscalYearEnd
      tickers
      exchanges
      filingsCovered
      filingCounts {
        form
        count
        documentsIngested
      }
    }
  }
`);

// The ticker's profile adds what the entity alone does not carry: former names, each source's
// listing with its exchange, and the counts of facts and statement periods held.
const CompanyStockQuery = graphql(`
  query CompanyStock($ticker: String!) {
    stock(ticker: $ticker) {
      entity {
        cik
      }
      formerNames {
        name
        from
        to
      }
      listings {
        ticker
        exchange
        source
      }
      coverage {
        facts {
          count
          latestFiledAt
        }
        statements {
          annualPeriods
          quarterlyPeriods
          firstPeriodEnd
          lastPeriodEnd
        }
        notHeld
      }
    }
  }
`);

export const tabs = [
  { key: 'filings', label: 'Filings' },
  { key: 'financials', label: 'Financials' },
  { key: 'segments', label: 'Segments' },
  { key: 'events', label: 'Events' },
  { key: 'dilution', label: 'Dilution' },
  { key: 'insiders', label: 'Insiders and ownership' },
] as const;
export type TabKey = (typeof tabs)[number]['key'];

export function CompanyPage() {
  const { cik: raw = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tab: TabKey = tabs.find((t) => t.key === params.get('tab'))?.key ?? 'filings';
  const [result, refetch] = useQuery({ query: CompanyQuery, variables: { cik: raw } });
  const entity = result.data?.entity ?? null;
  const ticker = entity?.tickers[0] ?? null;
  const [stockResult] = useQuery({ query: CompanyStockQuery, variables: { ticker: ticker ?? '' }, pause: !ticker });
  // a ticker the sources disagree on may name another company best: its profile is not this one's
  const stock = stockResult.data?.stock.entity?.cik === entity?.cik ? (stockResult.data?.stock ?? null) : null;
  useTitle(entity ? entity.name : 'Company');
  const tabRefs = useRef<(HTMLAnchorElement | null)[]>([]);

  if (result.fetching && !result.data) return <Loading what="the company" />;
  if (result.error) return <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} />;
  if (!entity) {
    return (
      <>
        <h1>Company not found</h1>
        <p>
          The service holds no entity with CIK {raw}. <Link to={`/search?q=${encodeURIComponent(raw)}`}>Search for it</Link>.
        </p>
      </>
    );
  }

  const tabHref = (key: TabKey) => companyPath(entity.cik, `?tab=${key}`);
  // arrow keys move between tabs, as a tab list does; each tab is also a link to its address
  const onTabKey = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const to = event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : step ? (index + step + tabs.length) % tabs.length : null;
    if (to === null) return;
    event.preventDefault();
    tabRefs.current[to]?.focus();
    navigate(tabHref(tabs[to]!.key));
  };

  const exchanges = [...new Set([...entity.exchanges, ...(stock?.listings.map((l) => l.exchange).filter((e): e is string => Boolean(e)) ?? [])])];
  const families = countByFamily(entity.filingCounts);
  const filings = families.reduce((n, f) => n + f.count, 0);
  const documents = families.reduce((n, f) => n + f.documentsIngested, 0);
  const facts = stock?.coverage.facts;
  const statements = stock?.coverage.statements;

  return (
    <>
      <p className="crumbs">
        <Link to="/search">Search</Link>
      </p>
      <h1>{entity.name}</h1>
      <section aria-labelledby="profile">
        <h2 id="profile">Profile</h2>
        <dl className="pairs research-profile">
          <dt>CIK</dt>
          <dd>{entity.cik}</dd>
          <dt>Names</dt>
          <dd>
            {entity.name} (current)
            {stock?.formerNames.length ? (
              <ul className="research-former">
                {stock.formerNames.map((n) => (
                  <li key={`${n.name}-${n.from ?? ''}`}>
                    Formerly {n.name}
                    {n.from || n.to ? ` (${n.from ?? '?'} to ${n.to ?? '?'})` : ''}
                  </li>
                ))}
              </ul>
            ) : null}
          </dd>
          <dt>Tickers</dt>
          <dd>{entity.tickers.join(', ') || 'None held'}</dd>
          <dt>Exchange</dt>
          <dd>{exchanges.join(', ') || 'None held'}</dd>
          <dt>SIC</dt>
          <dd>{entity.sic ? `${entity.sic}${entity.sicDescription ? ` — ${entity.sicDescription}` : ''}` : 'Not held'}</dd>
          <dt>Fiscal year end</dt>
          <dd>{monthDay(entity.fiscalYearEnd) ?? 'Not held'}</dd>
          <dt>State of incorporation</dt>
          <dd>{entity.stateOfIncorporation ?? 'Not held'}</dd>
          <dt>Kind</dt>
          <dd>
            {entity.kind}
            {entity.entityType ? ` (${entity.entityType})` : ''}
          </dd>
        </dl>
      </section>
      <section aria-labelledby="coverage" className="research-coverage" aria-busy={stockResult.fetching}>
        <h2 id="coverage">Coverage</h2>
        <p>
          {filings
            ? `The service holds ${plural(filings, 'filing')} of ${entity.name}: ${families.map((f) => `${plural(f.count, f.one, f.family)} (${f.forms.slice(0, 4).join(', ')}${f.forms.length > 4 ? ', …' : ''})`).join('; ')}.`
            : `The service holds no filings of ${entity.name}.`}{' '}
          {filings ? (documents ? `It holds the documents of ${plural(documents, 'filing')}: their sections and items can be read and searched; of the other ${plural(filings - documents, 'filing')} only the index entry is held.` : 'It holds none of their documents: only index entries, so no sections or items are read.') : null}
        </p>
        <p>
          {facts
            ? facts.count
              ? `${plural(facts.count, 'XBRL fact')} (latest filed ${facts.latestFiledAt ?? 'unknown'}), built into ${plural(statements?.annualPeriods ?? 0, 'annual statement period')} and ${plural(statements?.quarterlyPeriods ?? 0, 'quarterly statement period')}${statements?.firstPeriodEnd ? ` (fiscal periods ending ${statements.firstPeriodEnd} to ${statements.lastPeriodEnd})` : ''}.`
              : 'No XBRL facts are held, so no financial statements can be shown.'
            : stockResult.fetching
              ? 'Counting facts and statement periods…'
              : 'The counts of facts and statement periods are kept by ticker, and no ticker of this company is held: the Financials tab shows what is held.'}
        </p>
        <ul className="research-not-held" aria-label="Not held">
          {entity.filingsCovered ? null : <li>EDGAR’s filing index of this company is not held: the filings listed are only those other sources named.</li>}
          {(stock?.coverage.notHeld ?? []).map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
        {stockResult.error ? <ProblemNotice error={stockResult.error} context="Reading coverage" /> : null}
      </section>
      <div className="research-tabs" role="tablist" aria-label={`${entity.name}: data`}>
        {tabs.map((t, i) => (
          <Link
            key={t.key}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            role="tab"
            id={`company-tab-${t.key}`}
            aria-selected={t.key === tab}
            aria-controls="company-tabpanel"
            tabIndex={t.key === tab ? 0 : -1}
            to={tabHref(t.key)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {t.label}
          </Link>
        ))}
      </div>
      <div className="research-tabpanel" role="tabpanel" id="company-tabpanel" aria-labelledby={`company-tab-${tab}`}>
        {tab === 'filings' ? <CompanyFilings cik={entity.cik} forms={entity.filingCounts.map((c) => c.form)} /> : null}
        {tab === 'financials' ? <Financials cik={entity.cik} /> : null}
        {tab === 'segments' ? <CompanySegments cik={entity.cik} /> : null}
        {tab === 'events' ? <CompanyEvents cik={entity.cik} /> : null}
        {tab === 'dilution' ? <CompanyDilution cik={entity.cik} /> : null}
        {tab === 'insiders' ? <CompanyInsiders cik={entity.cik} /> : null}
      </div>
    </>
  );
}
