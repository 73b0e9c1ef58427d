// Return attribution over a period (POST /v1/portfolio/attribution): each factor's part of the
// portfolio's excess return, and the residual, arithmetic.
import { BarChart } from './BarChart.tsx';
import { Figure } from './Figure.tsx';
import { FigureTable, Summary } from './FigureTable.tsx';
import { fixed, pct, type Manifest } from './figures.ts';

export interface AttributionResult {
  from: string;
  to: string;
  days: number;
  model: string;
  betas: Record<string, number>;
  totalReturn: number;
  excessReturn: number;
  byFactor: Record<string, number>;
  residual: number;
  note: string;
}

export function AttributionView({ result, manifest }: { result: AttributionResult; manifest: Manifest }) {
  const factors = Object.keys(result.byFactor);
  return (
    <>
      <Summary
        pairs={[
          ['Period', `${result.from} to ${result.to} (${result.days} days)`],
          ['Model', result.model],
          ['Total return', pct(result.totalReturn)],
          ['Excess return', pct(result.excessReturn)],
        ]}
      />
      <Figure title="Excess return by factor" manifest={manifest}>
        <FigureTable
          caption="Each factor's beta and part of the excess return, and the residual"
          className="portfolio-attribution-period"
          columns={['Factor', 'Beta', 'Return']}
          rows={[...factors.map((f) => ({ label: f, cells: [fixed(result.betas[f] ?? 0), pct(result.byFactor[f]!)] })), { label: 'Residual', cells: ['', pct(result.residual)] }]}
        />
        <BarChart title="Excess return by factor" bars={[...factors.map((f) => ({ label: f, value: result.byFactor[f]! })), { label: 'Residual', value: result.residual }]} format={(v) => pct(v)} />
      </Figure>
      <p className="note">{result.note}</p>
    </>
  );
}
