// The analyses the lab runs, each one the graph's mutation behind a portfolio route (catalogue
// routes portfolio.ts and optimize.ts), answering the artifact its result was kept as.
import type { Client, CombinedError } from 'urql';
import { graphql } from '../../gql';
import type { Holding } from './holdings.ts';

const Analyze = graphql(`
  mutation PortfolioLabAnalyze($holdings: [PortfolioHoldingInput!]!, $asOf: Date, $lookbackDays: Int, $model: String, $benchmark: String) {
    analyzePortfolio(holdings: $holdings, asOf: $asOf, lookbackDays: $lookbackDays, model: $model, benchmark: $benchmark) {
      artifactId
    }
  }
`);

const Risk = graphql(`
  mutation PortfolioLabRisk($holdings: [PortfolioHoldingInput!]!, $asOf: Date, $lookbackDays: Int, $model: String, $benchmark: String) {
    portfolioRisk(holdings: $holdings, asOf: $asOf, lookbackDays: $lookbackDays, model: $model, benchmark: $benchmark) {
      artifactId
    }
  }
`);

const Attribution = graphql(`
  mutation PortfolioLabAttribution($holdings: [PortfolioHoldingInput!]!, $from: Date!, $to: Date!, $lookbackDays: Int, $model: String) {
    portfolioAttribution(holdings: $holdings, from: $from, to: $to, lookbackDays: $lookbackDays, model: $model) {
      artifactId
    }
  }
`);

const Stress = graphql(`
  mutation PortfolioLabStress($holdings: [PortfolioHoldingInput!]!, $scenarios: [String!]!, $asOf: Date, $lookbackDays: Int, $model: String) {
    portfolioStressTest(holdings: $holdings, scenarios: $scenarios, asOf: $asOf, lookbackDays: $lookbackDays, model: $model) {
      artifactId
    }
  }
`);

const Optimize = graphql(`
  mutation PortfolioLabOptimize($holdings: [PortfolioHoldingInput!]!, $objective: String!, $asOf: Date, $lookbackDays: Int, $model: String, $benchmark: String) {
    portfolioOptimize(holdings: $holdings, objective: $objective, asOf: $asOf, lookbackDays: $lookbackDays, model: $model, benchmark: $benchmark) {
      artifactId
    }
  }
`);

export interface RunSettings {
  holdings: Holding[];
  asOf: string;
  lookbackDays: number;
  model: string;
  benchmark: string;
  from: string;
  to: string;
  objective: string;
  scenarios: string[];
}

export interface Outcome {
  artifactId: string | null;
  error: CombinedError | null;
}

export type AnalysisKey = 'analyze' | 'risk' | 'attribution' | 'stress' | 'optimize';

export const objectives = [
  { value: 'factor_neutral', label: 'Factor neutral' },
  { value: 'min_drawdown', label: 'Minimum drawdown' },
  { value: 'regime_aware', label: 'Regime aware' },
];

const common = (s: RunSettings) => ({ holdings: s.holdings, asOf: s.asOf || null, lookbackDays: s.lookbackDays, model: s.model || null });
function outcome<T>(answer: { data?: T; error?: CombinedError }, id: (data: T) => string): Outcome {
  return { artifactId: answer.data ? id(answer.data) : null, error: answer.error ?? null };
}

export const analyses: { key: AnalysisKey; label: string; run: (client: Client, s: RunSettings) => Promise<Outcome> }[] = [
  {
    key: 'analyze',
    label: 'Factor exposures',
    run: async (client, s) => outcome(await client.mutation(Analyze, { ...common(s), benchmark: s.benchmark }).toPromise(), (d) => d.analyzePortfolio.artifactId),
  },
  {
    key: 'risk',
    label: 'Risk',
    run: async (client, s) => outcome(await client.mutation(Risk, { ...common(s), benchmark: s.benchmark }).toPromise(), (d) => d.portfolioRisk.artifactId),
  },
  {
    key: 'attribution',
    label: 'Attribution',
    run: async (client, s) =>
      outcome(await client.mutation(Attribution, { holdings: s.holdings, from: s.from, to: s.to, lookbackDays: s.lookbackDays, model: s.model || null }).toPromise(), (d) => d.portfolioAttribution.artifactId),
  },
  {
    key: 'stress',
    label: 'Stress test',
    run: async (client, s) => outcome(await client.mutation(Stress, { ...common(s), scenarios: s.scenarios }).toPromise(), (d) => d.portfolioStressTest.artifactId),
  },
  {
    key: 'optimize',
    label: 'Optimize',
    run: async (client, s) => outcome(await client.mutation(Optimize, { ...common(s), objective: s.objective, benchmark: s.benchmark }).toPromise(), (d) => d.portfolioOptimize.artifactId),
  },
];

/** The service's validation issues of a refusal: `[{path, message}]` (e.g. `holdings[2].ticker`). */
export function issuesOf(error: CombinedError): { path: string; message: string }[] {
  const details = error.graphQLErrors[0]?.extensions?.details as { issues?: { path?: unknown; message?: unknown }[] } | undefined;
  return (details?.issues ?? []).flatMap((i) => (typeof i.path === 'string' && typeof i.message === 'string' ? [{ path: i.path, message: i.message }] : []));
}
