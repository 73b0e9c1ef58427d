// The Portfolio lab (/dashboard/portfolio): paste holdings, read line by line before anything is
// sent; run the portfolio analytics the graph has (exposures, risk, attribution, stress test,
// optimization), each kept by the service as an artifact; see each run's figures with the files
// they were computed from, and every earlier run, reopened or downloaded. The runs just made are
// in the address (?runs=), so they can be shared.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useClient, useQuery } from 'urql';
import { ProblemNotice, useTitle } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { analyses, issuesOf, objectives, type AnalysisKey, type Outcome } from './analyses.tsx';
import { ArtifactView } from './ArtifactView.tsx';
import { HoldingsInput } from './HoldingsInput.tsx';
import { lineOfIssue, readHoldings } from './holdings.ts';
import { RunList } from './RunList.tsx';

const pageSize = 20;

const LabQuery = graphql(`
  query PortfolioLab($first: Int!, $after: String) {
    stressScenarios
    artifacts(first: $first, after: $after) {
      ...PortfolioRunList
    }
  }
`);

const models = [
  { value: '', label: 'The service’s choice' },
  { value: 'ff3', label: 'ff3' },
  { value: 'ff5', label: 'ff5' },
  { value: 'ff5_mom', label: 'ff5_mom' },
];

interface Failure {
  key: AnalysisKey;
  label: string;
  error: NonNullable<Outcome['error']>;
}

export function PortfolioLabPage() {
  useTitle('Portfolio lab');
  const [params, setParams] = useSearchParams();
  const after = params.get('after');
  const runs = (params.get('runs') ?? '').split(',').filter(Boolean);
  const [lab, refetchLab] = useQuery({ query: LabQuery, variables: { first: pageSize, after } });
  const client = useClient();
  const id = useId();

  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<Set<AnalysisKey>>(() => new Set(['analyze', 'risk']));
  const [asOf, setAsOf] = useState('');
  const [lookbackDays, setLookbackDays] = useState('252');
  const [model, setModel] = useState('');
  const [benchmark, setBenchmark] = useState('SPY');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [objective, setObjective] = useState(objectives[0]!.value);
  const [tried, setTried] = useState(false);
  const [running, setRunning] = useState(false);
  const [failures, setFailures] = useState<Failure[]>([]);
  const [formProblem, setFormProblem] = useState<string | null>(null);

  const read = useMemo(() => readHoldings(text), [text]);
  // the service's refusals that name a holding (`holdings[i]…`), on that holding's line
  const serviceProblems = useMemo(() => {
    const found = new Map<number, string>();
    for (const f of failures)
      for (const issue of issuesOf(f.error)) {
        const line = lineOfIssue(issue.path, read);
        if (line !== null && !found.has(line)) found.set(line, issue.message);
      }
    return found;
  }, [failures, read]);

  const scenarios = Array.isArray(lab.data?.stressScenarios) ? (lab.data.stressScenarios as { id: string }[]).map((s) => s.id) : [];

  const toggle = (key: AnalysisKey, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  /** What the form lacks besides the holdings, in words; null when it can be sent. */
  const settingsProblem = (): string | null => {
    if (!chosen.size) return 'Choose at least one analysis.';
    const days = Number(lookbackDays);
    if (!Number.isInteger(days) || days < 20 || days > 5000) return 'Lookback days must be a whole number from 20 to 5,000.';
    if (chosen.has('attribution') && (!from || !to)) return 'Attribution needs the first and last date of its period.';
    if (chosen.has('stress') && !scenarios.length) return 'The stress scenarios are not loaded yet.';
    return null;
  };

  const run = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setFailures([]);
    const problem = settingsProblem();
    setFormProblem(problem);
    if (!read.holdings || problem) return;
    setRunning(true);
    const settings = { holdings: read.holdings, asOf, lookbackDays: Number(lookbackDays), model, benchmark: benchmark.trim().toUpperCase() || 'SPY', from, to, objective, scenarios };
    const chosenAnalyses = analyses.filter((a) => chosen.has(a.key));
    const outcomes = await Promise.all(chosenAnalyses.map(async (a) => ({ analysis: a, outcome: await a.run(client, settings) })));
    setFailures(outcomes.flatMap(({ analysis, outcome }) => (outcome.error ? [{ key: analysis.key, label: analysis.label, error: outcome.error }] : [])));
    const made = outcomes.flatMap(({ outcome }) => (outcome.artifactId ? [outcome.artifactId] : []));
    if (made.length) setParams({ runs: made.join(',') });
    refetchLab({ requestPolicy: 'network-only' });
    setRunning(false);
  };

  return (
    <>
      <h1>Portfolio lab</h1>
      <p className="muted">
        Paste a portfolio and run the service’s analytics on the market data it holds. Every run is kept as an artifact with the files and vintages it was computed from.
      </p>
      <form className="portfolio-form" onSubmit={(e) => void run(e)} noValidate>
        <HoldingsInput text={text} onChange={setText} read={read} serviceProblems={serviceProblems} showProblems={tried} />
        <fieldset>
          <legend>Analyses</legend>
          {analyses.map((a) => (
            <div className="check" key={a.key}>
              <input type="checkbox" id={`${id}-${a.key}`} checked={chosen.has(a.key)} onChange={(e) => toggle(a.key, e.target.checked)} />
              <label htmlFor={`${id}-${a.key}`}>{a.label}</label>
            </div>
          ))}
          {chosen.has('stress') ? <p className="muted">The stress test runs every scenario of the catalog ({scenarios.length}).</p> : null}
          {chosen.has('optimize') ? (
            <div className="field">
              <label htmlFor={`${id}-objective`}>Objective</label>
              <select id={`${id}-objective`} value={objective} onChange={(e) => setObjective(e.target.value)}>
                {objectives.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {chosen.has('attribution') ? (
            <div className="portfolio-dates">
              <div className="field">
                <label htmlFor={`${id}-from`}>Attribution from</label>
                <input id={`${id}-from`} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
              </div>
              <div className="field">
                <label htmlFor={`${id}-to`}>Attribution to</label>
                <input id={`${id}-to`} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
              </div>
            </div>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>Window and model</legend>
          <div className="portfolio-dates">
            <div className="field">
              <label htmlFor={`${id}-asof`}>As of</label>
              <input id={`${id}-asof`} type="date" value={asOf} onChange={(e) => setAsOf(e.target.value)} aria-describedby={`${id}-asof-help`} />
              <span id={`${id}-asof-help`} className="muted">
                Empty: the latest date with data
              </span>
            </div>
            <div className="field">
              <label htmlFor={`${id}-lookback`}>Lookback days</label>
              <input id={`${id}-lookback`} type="number" inputMode="numeric" min={20} max={5000} value={lookbackDays} onChange={(e) => setLookbackDays(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-model`}>Model</label>
              <select id={`${id}-model`} value={model} onChange={(e) => setModel(e.target.value)}>
                {models.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-benchmark`}>Benchmark</label>
              <input id={`${id}-benchmark`} type="text" value={benchmark} onChange={(e) => setBenchmark(e.target.value)} autoComplete="off" spellCheck={false} />
            </div>
          </div>
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={running}>
            {running ? 'Running…' : 'Run analyses'}
          </button>
        </div>
        {tried && formProblem ? (
          <p className="problem" role="alert">
            {formProblem}
          </p>
        ) : null}
        {failures.map((f) => (
          <ProblemNotice key={f.key} error={f.error} context={f.label} />
        ))}
      </form>

      {runs.length ? (
        <section aria-labelledby="latest-runs" className="portfolio-results">
          <h2 id="latest-runs">This run</h2>
          {runs.map((artifactId) => (
            <ArtifactView key={artifactId} id={artifactId} heading="h2" />
          ))}
        </section>
      ) : null}

      <section aria-labelledby="all-runs">
        <h2 id="all-runs">Runs</h2>
        {lab.error ? <ProblemNotice error={lab.error} context="Listing the runs" retry={() => refetchLab({ requestPolicy: 'network-only' })} /> : null}
        <RunList artifacts={lab.data?.artifacts ?? null} fetching={lab.fetching} after={after} />
      </section>
    </>
  );
}
