// A hedge (POST /v1/portfolio/hedge): the ratio in each instrument and the residual factor risk
// before and after.
import { BarChart } from './BarChart.tsx';
import { Figure } from './Figure.tsx';
import { FigureTable, Summary } from './FigureTable.tsx';
import { fixed, pct, type Manifest } from './figures.ts';

export interface HedgeResult {
  window: { from: string; to: string; days: number };
  model: string;
  instruments: { instrument: string; ratio: number; boundHit: 'min' | 'max' | null }[];
  residualFactorRisk: { before: { volatility: number }; after: { volatility: number }; reduction: number };
  explanation: string;
}

export function HedgeView({ result, manifest }: { result: HedgeResult; manifest: Manifest }) {
  const risk = result.residualFactorRisk;
  return (
    <>
      <Summary
        pairs={[
          ['Window', `${result.window.from} to ${result.window.to} (${result.window.days} days)`],
          ['Model', result.model],
          ['Residual factor volatility', `${pct(risk.before.volatility)} before, ${pct(risk.after.volatility)} after (variance ${pct(risk.reduction)} lower)`],
        ]}
      />
      <Figure title="Hedge ratio per instrument" manifest={manifest}>
        <FigureTable
          caption="The hedge ratio in each instrument, and the bound it sits on"
          className="portfolio-hedge"
          columns={['Instrument', 'Ratio', 'At bound']}
          rows={result.instruments.map((i) => ({ label: i.instrument, cells: [fixed(i.ratio), i.boundHit ?? ''] }))}
        />
        <BarChart title="Hedge ratio per instrument" bars={result.instruments.map((i) => ({ label: i.instrument, value: i.ratio }))} format={(v) => fixed(v)} />
      </Figure>
      <p className="note">{result.explanation}</p>
    </>
  );
}
