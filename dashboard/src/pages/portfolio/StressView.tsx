// A stress test (POST /v1/portfolio/stress-test): the portfolio's return in each scenario, and
// each holding's, with how it was found (buy and hold, factor-implied or a factor shock).
import { BarChart } from './BarChart.tsx';
import { Figure } from './Figure.tsx';
import { FigureTable, Summary } from './FigureTable.tsx';
import { pct, type Manifest } from './figures.ts';
import { humanize } from '../../format.ts';

export interface StressResult {
  window: { from: string; to: string; days: number };
  model: string;
  scenarios: { id: string; kind: string; title: string; portfolioReturn: number; holdings: { ticker: string; return: number; method: string }[] }[];
}

export function StressView({ result, manifest }: { result: StressResult; manifest: Manifest }) {
  const tickers = result.scenarios[0]?.holdings.map((h) => h.ticker) ?? [];
  return (
    <>
      <Summary
        pairs={[
          ['Exposures estimated', `${result.window.from} to ${result.window.to} (${result.window.days} days)`],
          ['Model', result.model],
        ]}
      />
      <Figure title="Portfolio return by scenario" manifest={manifest}>
        <FigureTable
          caption="The portfolio's and each holding's return in each scenario"
          className="portfolio-stress"
          columns={['Scenario', 'Kind', 'Portfolio', ...tickers]}
          rows={result.scenarios.map((s) => ({
            label: s.title,
            cells: [humanize(s.kind), pct(s.portfolioReturn), ...s.holdings.map((h) => `${pct(h.return)} (${h.method.replace(/_/g, ' ')})`)],
          }))}
        />
        <BarChart title="Portfolio return by scenario" bars={result.scenarios.map((s) => ({ label: s.id, value: s.portfolioReturn }))} format={(v) => pct(v)} />
      </Figure>
    </>
  );
}
