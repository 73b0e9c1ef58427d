// Portfolio risk (POST /v1/portfolio/risk): the ex-ante tracking error against the benchmark and
// where its variance comes from, by factor group and by security.
import { BarChart } from './BarChart.tsx';
import { Figure } from './Figure.tsx';
import { FigureTable, Summary } from './FigureTable.tsx';
import { fixed, pct, type Manifest } from './figures.ts';

export interface RiskResult {
  window: { from: string; to: string; days: number };
  model: string;
  benchmark: string;
  trackingError: number;
  trackingVariance: number;
  contributionsByGroup: Record<string, number>;
  contributionsBySecurity: { ticker: string; activeWeight: number; contribution: number }[];
  beta: number | null;
  portfolio: { volatility: number; factor: number; idiosyncratic: number };
}

const share = (part: number, whole: number) => (whole ? pct(part / whole, 1) : '—');

export function RiskView({ result, manifest }: { result: RiskResult; manifest: Manifest }) {
  const groups = Object.entries(result.contributionsByGroup);
  return (
    <>
      <Summary
        pairs={[
          ['Window', `${result.window.from} to ${result.window.to} (${result.window.days} days)`],
          ['Model', result.model],
          [`Tracking error against ${result.benchmark}`, pct(result.trackingError)],
          ['Beta to the benchmark', result.beta === null ? 'none (the benchmark has no variance)' : fixed(result.beta)],
          ['Portfolio volatility, annualised', pct(result.portfolio.volatility)],
        ]}
      />
      <Figure title="Tracking variance by factor group" manifest={manifest}>
        <FigureTable
          caption="Contribution of each factor group to the tracking variance"
          className="portfolio-risk-groups"
          columns={['Group', 'Contribution', 'Share']}
          rows={groups.map(([group, value]) => ({ label: group, cells: [fixed(value, 6), share(value, result.trackingVariance)] }))}
        />
        <BarChart title="Contribution to tracking variance by group" bars={groups.map(([label, value]) => ({ label, value }))} format={(v) => fixed(v, 6)} />
      </Figure>
      <Figure title="Tracking variance by security" manifest={manifest}>
        <FigureTable
          caption="Active weight and contribution of each security to the tracking variance"
          className="portfolio-risk-securities"
          columns={['Security', 'Active weight', 'Contribution', 'Share']}
          rows={result.contributionsBySecurity.map((s) => ({ label: s.ticker, cells: [pct(s.activeWeight), fixed(s.contribution, 6), share(s.contribution, result.trackingVariance)] }))}
        />
      </Figure>
    </>
  );
}
