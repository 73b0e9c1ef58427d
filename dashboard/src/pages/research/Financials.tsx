// A company's income statement, balance sheet and cash flow, annual or quarterly (?period=), as
// tables of the latest values: a restated value shows what was first reported and both filings; a
// quarter computed from other reported values (Q4 = FY − Q1 − Q2 − Q3) shows its formula with
// each term's filing. Every value links to the filing it was read from: in the reader, marked as
// the document prints it (scaled by the fact's decimals), when the service holds the document,
// else the SEC's copy. A small chart follows one line (?line=) over time, latest against first
// reported.
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { humanize } from '../../format.ts';
import { FilingSource } from './FilingSource.tsx';
import { LineChart, type ChartPoint } from './LineChart.tsx';
import { asPrinted, filingPath, formatDecimal, plural } from './research.ts';

/** enough annual periods to reach back a decade, and three years of quarters */
const periodsShown = { annual: 10, quarterly: 12 } as const;

export const StatementLineFields = graphql(`
  fragment StatementLineFields on StatementLine {
    key
    label
    value
    unit
    derived
    derivation
    missing
    note
    fact {
      accessionNumber
      filedAt
      form
      decimals
      documentHeld
      citationUrl
    }
    restatedFrom {
      accessionNumber
      filedAt
      form
      value
      decimals
      documentHeld
      citationUrl
    }
  }
`);

const FinancialsQuery = graphql(`
  query CompanyFinancials($cik: String!, $period: String!, $limit: Int!) {
    statements(cik: $cik, period: $period, limit: $limit, asReported: latest) {
      period
      currency
      factsCovered
      emptyReason
      periods {
        fiscalYear
        fiscalPeriod
        periodStart
        periodEnd
        income {
          ...StatementLineFields
        }
        balanceSheet {
          ...StatementLineFields
        }
        cashFlow {
          ...StatementLineFields
        }
      }
    }
  }
`);

type LineData = FragmentType<typeof StatementLineFields>;
type Line = ReturnType<typeof useLines>[number];
const useLines = (lines: LineData[]) => useFragment(StatementLineFields, lines);

interface DerivationTerm {
  sign: '+' | '-';
  term: string;
  fact: { accessionNumber: string; value: string; form?: string | null; filedAt?: string | null };
}

function derivationTerms(derivation: unknown): DerivationTerm[] {
  const terms = (derivation as { terms?: unknown } | null)?.terms;
  return Array.isArray(terms) ? (terms as DerivationTerm[]).filter((t) => typeof t?.fact?.accessionNumber === 'string') : [];
}

const statements = [
  { key: 'income', title: 'Income statement' },
  { key: 'balanceSheet', title: 'Balance sheet' },
  { key: 'cashFlow', title: 'Cash flow' },
] as const;

const periodName = (p: { fiscalYear: number; fiscalPeriod: string }) => (p.fiscalPeriod === 'FY' ? `FY${p.fiscalYear}` : `${p.fiscalPeriod} FY${p.fiscalYear}`);

const filedIn = (f: { form?: string | null; filedAt?: string | null; accessionNumber: string }) => `${f.form ?? 'Filing'} ${f.accessionNumber}${f.filedAt ? `, filed ${f.filedAt}` : ''}`;

function Cell({ line }: { line: Line | undefined }) {
  if (!line || line.value === null || line.value === undefined) {
    return (
      <td className="research-missing">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">{line?.missing ? humanize(line.missing) : 'Not reported'}</span>
      </td>
    );
  }
  const value = formatDecimal(line.value);
  if (line.derived) {
    const terms = derivationTerms(line.derivation);
    const formula = (line.derivation as { formula?: string } | null)?.formula;
    return (
      <td className="num research-derived">
        {terms[0] ? (
          <Link to={filingPath(terms[0].fact.accessionNumber)} title={`Derived from ${filedIn(terms[0].fact)} and the filings of its other terms`}>
            {value}
          </Link>
        ) : (
          value
        )}
        <span className="research-badge">Derived</span>
        <span className="research-formula">
          {formula ? <span className="visually-hidden">{`${formula}: `}</span> : null}
          {terms.map((t, i) => (
            <span key={`${t.term}-${i}`}>
              {i > 0 ? (t.sign === '-' ? ' − ' : ' + ') : ''}
              <Link to={filingPath(t.fact.accessionNumber)} title={`${t.term}: ${formatDecimal(t.fact.value)} in ${filedIn(t.fact)}`}>
                {t.term}
              </Link>
            </span>
          ))}
        </span>
      </td>
    );
  }
  return (
    <td className="num">
      {line.fact ? <FactLink fact={line.fact} value={line.value} title={`From ${filedIn(line.fact)}`} /> : value}
      {line.restatedFrom ? (
        <span className="research-restated">
          <span className="research-badge">Restated</span> first reported{' '}
          <FactLink fact={line.restatedFrom} value={line.restatedFrom.value} title={`First reported in ${filedIn(line.restatedFrom)}`} />
        </span>
      ) : null}
    </td>
  );
}

type Source = NonNullable<Line['fact']>;

/** A value linked to its filing: in the reader with the value marked as the document prints it, when the document is held. */
function FactLink({ fact, value, title }: { fact: Source; value: string; title: string }) {
  return (
    <FilingSource accessionNumber={fact.accessionNumber} citationUrl={fact.citationUrl} documentHeld={fact.documentHeld} sentence={asPrinted(value, fact.decimals)} title={title} compact>
      {formatDecimal(value)}
    </FilingSource>
  );
}

interface Period {
  fiscalYear: number;
  fiscalPeriod: string;
  periodEnd: string;
  lines: Map<string, Line>;
}

function StatementTable({ title, periods, order }: { title: string; periods: Period[]; order: { key: string; label: string; unit: string | null | undefined }[] }) {
  const id = useId();
  if (!order.length) return null;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <ScrollingTable label={title}>
        <table className="research-statement">
          <thead>
            <tr>
              <th scope="col">Line</th>
              {periods.map((p) => (
                <th scope="col" key={`${p.fiscalYear}-${p.fiscalPeriod}`} className="num">
                  {periodName(p)}
                  <span className="research-sub muted">ended {p.periodEnd}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {order.map((row) => (
              <tr key={row.key}>
                <th scope="row">
                  {row.label}
                  {row.unit && row.unit !== 'USD' ? <span className="research-sub muted">{row.unit}</span> : null}
                </th>
                {periods.map((p) => (
                  <Cell key={`${p.fiscalYear}-${p.fiscalPeriod}`} line={p.lines.get(row.key)} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollingTable>
    </section>
  );
}

/** One statement's lines across the periods: the rows (in the statement's order) any period has a value for. */
function useStatement(periods: { fiscalYear: number; fiscalPeriod: string; periodEnd: string; lines: LineData[] }[]) {
  const all = useLines(periods.flatMap((p) => p.lines));
  let at = 0;
  const resolved: Period[] = periods.map((p) => {
    const lines = all.slice(at, at + p.lines.length);
    at += p.lines.length;
    return { fiscalYear: p.fiscalYear, fiscalPeriod: p.fiscalPeriod, periodEnd: p.periodEnd, lines: new Map(lines.map((l) => [l.key, l])) };
  });
  const order: { key: string; label: string; unit: string | null | undefined }[] = [];
  const seen = new Set<string>();
  for (const line of all) {
    if (seen.has(line.key) || line.value === null || line.value === undefined) continue;
    seen.add(line.key);
    order.push({ key: line.key, label: line.label, unit: line.unit });
  }
  // the statement's own order, as the first period lists its lines
  const position = new Map(all.map((l, i) => [l.key, i] as const).reverse());
  order.sort((a, b) => (position.get(a.key) ?? 0) - (position.get(b.key) ?? 0));
  return { periods: resolved, order };
}

export function Financials({ cik }: { cik: string }) {
  const [params, setParams] = useSearchParams();
  const period = params.get('period') === 'quarterly' ? 'quarterly' : 'annual';
  const chosenLine = params.get('line') ?? 'revenue';
  const ids = { periods: useId(), line: useId() };
  const [result, refetch] = useQuery({ query: FinancialsQuery, variables: { cik, period, limit: periodsShown[period] } });
  const bundle = result.data?.statements;
  const raw = bundle?.periods ?? [];
  const income = useStatement(raw.map((p) => ({ ...p, lines: p.income })));
  const balance = useStatement(raw.map((p) => ({ ...p, lines: p.balanceSheet })));
  const cash = useStatement(raw.map((p) => ({ ...p, lines: p.cashFlow })));
  const built = { income, balanceSheet: balance, cashFlow: cash };

  const change = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: name === 'line' });
  };

  // the chart: oldest first, the latest value against the one first reported
  const chartable = income.order;
  const line = chartable.find((r) => r.key === chosenLine) ?? chartable[0];
  const points: ChartPoint[] = line
    ? [...income.periods].reverse().flatMap((p) => {
        const l = p.lines.get(line.key);
        if (!l?.value) return [];
        return [{ label: periodName(p), latest: Number(l.value), first: Number(l.restatedFrom?.value ?? l.value) }];
      })
    : [];

  return (
    <>
      <h2>Financials</h2>
      <fieldset className="research-switch">
        <legend id={ids.periods}>Periods</legend>
        {(['annual', 'quarterly'] as const).map((p) => (
          <label key={p} className="choice">
            <input type="radio" name="statement-period" value={p} checked={period === p} onChange={() => change('period', p === 'annual' ? null : p)} />
            {humanize(p)}
          </label>
        ))}
      </fieldset>
      {result.fetching && !result.data ? <Loading what="the statements" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {bundle && !raw.length ? <Empty>No {period} statements: {bundle.emptyReason ?? 'none are held'}.</Empty> : null}
      {raw.length ? (
        <>
          <p className="muted">
            The latest {plural(raw.length, `${period} period`)} held, from {plural(bundle!.factsCovered, 'XBRL fact')}, in {bundle!.currency ?? 'the currency filed'} as filed unless a line says otherwise.
            Each value links to its filing: in the reader, the value marked where the document prints it, when the service holds the document; else the SEC’s copy, marked ↗.
            A restated value also shows what was first reported, and a derived quarter its formula.
          </p>
          {statements.map((s) => (
            <StatementTable key={s.key} title={s.title} periods={built[s.key].periods} order={built[s.key].order} />
          ))}
          {line && points.length > 1 ? (
            <section aria-labelledby={ids.line} className="research-chart">
              <h3 id={ids.line}>Over time</h3>
              <div className="field">
                <label htmlFor={`${ids.line}-select`}>Line to chart</label>
                <select id={`${ids.line}-select`} value={line.key} onChange={(e) => change('line', e.target.value)}>
                  {chartable.map((r) => (
                    <option key={r.key} value={r.key}>
                      {r.label}
                    </option>
                  ))}
                </select>
              </div>
              <LineChart title={`${line.label}, ${points[0]!.label} to ${points[points.length - 1]!.label}: latest values and values as first reported`} points={points} />
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}
