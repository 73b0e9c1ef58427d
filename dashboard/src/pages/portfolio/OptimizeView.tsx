// An optimization (POST /v1/portfolio/optimize): each holding's weight before and after and the
// bound it sits on, the factor exposures and the ex-ante risk before and after.
import { BarChart } from './BarChart.tsx';
import { Figure } from './Figure.tsx';
import { FigureTable, Summary } from './FigureTable.tsx';
import { fixed, pct, type Manifest } from './figures.ts';
import { humanize } from '../../format.ts';

type Variance = { volatility: number };

export interface OptimizeResult {
  window: { from: string; to: string; days: number };
  model: string;
  objective: { name: string; statement: string };
  weights: { ticker: string; before: number; after: number; change: number; bound: 'min' | 'max' | null }[];
  turnover: { value: number };
  exposures: { factors: string[]; before: Record<string, number>; after: Record<string, number> };
  risk: { before: Variance; after: Variance };
  maxDrawdown: { before: number; after: number };
  solver: { status: string; iterations: number };
}

export function OptimizeView({ result, manifest }: { result: OptimizeResult; manifest: Manifest }) {
  return (
    <>
      <Summary
        pairs={[
          ['Window', `${result.window.from} to ${result.window.to} (${result.window.days} days)`],
          ['Objective', `${humanize(result.objective.name)}: ${result.objective.statement}`],
          ['Turnover', pct(result.turnover.value)],
          ['Volatility, annualised', `${pct(result.risk.before.volatility)} before, ${pct(result.risk.after.volatility)} after`],
          ['Largest drawdown in the window', `${pct(result.maxDrawdown.before)} before, ${pct(result.maxDrawdown.after)} after`],
          ['Solver', `${result.solver.status} after ${result.solver.iterations} iterations`],
        ]}
      />
      <Figure title="Weights before and after" manifest={manifest}>
        <FigureTable
          caption="Each holding's weight before and after, and the bound it sits on"
          className="portfolio-weights"
          columns={['Holding', 'Before', 'After', 'Change', 'At bound']}
          rows={result.weights.map((w) => ({ label: w.ticker, cells: [pct(w.before), pct(w.after), pct(w.change), w.bound ?? ''] }))}
        />
        <BarChart title="Optimal weight per holding" bars={result.weights.map((w) => ({ label: w.ticker, value: w.after }))} format={(v) => pct(v)} />
      </Figure>
      <Figure title="Factor exposures before and after" manifest={manifest}>
        <FigureTable
          caption="The portfolio's exposure to each factor before and after"
          className="portfolio-exposures"
          columns={['Factor', 'Before', 'After']}
          rows={result.exposures.factors.map((f) => ({ label: f, cells: [fixed(result.exposures.before[f]!), fixed(result.exposures.after[f]!)] }))}
        />
      </Figure>
    </>
  );
}
