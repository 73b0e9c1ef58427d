// A portfolio analysis (POST /v1/portfolio/analyze): the portfolio's factor betas with their 95%
// confidence intervals (from the answer's standard errors) beside each holding's, the return over
// the window split by factor, and the benchmark hedge.
import { BarChart } from './BarChart.tsx';
import { Figure } from './Figure.tsx';
import { FigureTable, Summary } from './FigureTable.tsx';
import { fixed, pct, type Manifest } from './figures.ts';

interface Coefficient {
  beta: number;
  stdError: number;
  tStat: number;
}

interface Exposures {
  alpha: { annualized: number; tStat: number };
  betas: Record<string, Coefficient>;
  rSquared: number;
  residualVolatility: { annualized: number };
}

export interface AnalysisResult {
  asOf: string;
  window: { from: string; to: string; days: number };
  model: string;
  modelReason: string;
  benchmark: string;
  portfolio: Exposures;
  holdings: { ticker: string; weight: number; exposures: Exposures }[];
  attribution: { totalReturn: number; riskFreeReturn: number; excessReturn: number; byFactor: Record<string, number>; alpha: number; residual: number };
  hedge: { instrument: string; hedgeRatio: number; marketBetaBefore: number; marketBetaAfter: number; explanation: string };
}

/** The two-sided 95% quantile of the normal distribution: the interval is beta ± 1.96 × standard error. */
const z95 = 1.96;
const intervalDefinition = 'beta ± 1.96 × its standard error (classical OLS standard errors, normal approximation)';

const interval95 = (c: Coefficient): [number, number] => [c.beta - z95 * c.stdError, c.beta + z95 * c.stdError];

export function AnalysisView({ result, manifest }: { result: AnalysisResult; manifest: Manifest }) {
  const factors = Object.keys(result.portfolio.betas);
  const { attribution, hedge, portfolio } = result;
  return (
    <>
      <Summary
        pairs={[
          ['Window', `${result.window.from} to ${result.window.to} (${result.window.days} days)`],
          ['Model', `${result.model}: ${result.modelReason}`],
          ['Alpha, annualised', pct(portfolio.alpha.annualized)],
          ['R²', fixed(portfolio.rSquared)],
          ['Residual volatility, annualised', pct(portfolio.residualVolatility.annualized)],
          [`Hedge ratio in ${hedge.instrument}`, fixed(hedge.hedgeRatio)],
        ]}
      />
      <Figure title={`Factor betas; the portfolio’s 95% confidence interval is ${intervalDefinition}`} manifest={manifest}>
        <FigureTable
          caption={`Factor betas of the portfolio, with its 95% confidence interval (${intervalDefinition}), and of each holding`}
          className="portfolio-betas"
          columns={['Factor', 'Portfolio', '95% low', '95% high', 't-stat', ...result.holdings.map((h) => `${h.ticker} (${pct(h.weight)})`)]}
          rows={factors.map((f) => {
            const [low, high] = interval95(portfolio.betas[f]!);
            return {
              label: f,
              cells: [fixed(portfolio.betas[f]!.beta), fixed(low), fixed(high), fixed(portfolio.betas[f]!.tStat, 2), ...result.holdings.map((h) => (h.exposures.betas[f] ? fixed(h.exposures.betas[f].beta) : '—'))],
            };
          })}
        />
        <BarChart title="Portfolio beta per factor, whiskers at the 95% interval" bars={factors.map((f) => ({ label: f, value: portfolio.betas[f]!.beta, interval: interval95(portfolio.betas[f]!) }))} format={(v) => fixed(v)} />
      </Figure>
      <Figure title="Return over the window by factor (arithmetic)" manifest={manifest}>
        <FigureTable
          caption="Excess return attributed to each factor, alpha and residual"
          className="portfolio-attribution"
          columns={['Part', 'Return']}
          rows={[
            ...factors.map((f) => ({ label: f, cells: [pct(attribution.byFactor[f] ?? 0)] })),
            { label: 'Alpha', cells: [pct(attribution.alpha)] },
            { label: 'Residual', cells: [pct(attribution.residual)] },
            { label: 'Excess return', cells: [pct(attribution.excessReturn)] },
            { label: 'Total return', cells: [pct(attribution.totalReturn)] },
          ]}
        />
        <BarChart title="Excess return by factor" bars={[...factors.map((f) => ({ label: f, value: attribution.byFactor[f] ?? 0 })), { label: 'Alpha', value: attribution.alpha }, { label: 'Residual', value: attribution.residual }]} format={(v) => pct(v)} />
      </Figure>
      <p className="note">
        {hedge.explanation} Market beta {fixed(hedge.marketBetaBefore)} before, {fixed(hedge.marketBetaAfter)} after.
      </p>
    </>
  );
}
