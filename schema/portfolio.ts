// Portfolio analytics (SPEC 4.6). Each result is kept as an artifact (resolvers/analytics/artifacts.ts).
import { analyzePortfolio, type Holding } from '../resolvers/analytics/analyze.ts';
import { storeArtifact } from '../resolvers/analytics/artifacts.ts';
import { attributePortfolio } from '../resolvers/analytics/attribution.ts';
import { portfolioRiskOf } from '../resolvers/analytics/portfolioRisk.ts';
import { stressScenarios } from '../resolvers/analytics/scenarios.ts';
import { checkScenarioIds, stressTest } from '../resolvers/analytics/stress.ts';
import { invalid, type ModelName } from '../resolvers/analytics/window.ts';
import { requireOrg } from '../resolvers/access.ts';
import { builder } from './builder.ts';

const HoldingInput = builder.inputType('PortfolioHoldingInput', {
  fields: (t) => ({ ticker: t.string({ required: true }), weight: t.float(), shares: t.float() }),
});

const AnalysisResult = builder.objectRef<{ artifactId: string; contentHash: string; result: Record<string, unknown> }>('PortfolioAnalysis').implement({
  description: 'Factor exposures, attribution and hedge summaries of a portfolio, kept as an artifact.',
  fields: (t) => ({
    artifactId: t.exposeString('artifactId'),
    contentHash: t.exposeString('contentHash'),
    result: t.expose('result', { type: 'JSON', description: 'As POST /v1/portfolio/analyze documents it' }),
  }),
});

type Stored = { artifactId: string; contentHash: string; result: Record<string, unknown> };

const RiskResult = builder.objectRef<Stored>('PortfolioRisk').implement({
  description: 'Ex-ante tracking error of a portfolio against a benchmark under a factor model, kept as an artifact.',
  fields: (t) => ({
    artifactId: t.exposeString('artifactId'),
    contentHash: t.exposeString('contentHash'),
    result: t.expose('result', { type: 'JSON', description: 'As POST /v1/portfolio/risk documents it' }),
  }),
});

const AttributionResult = builder.objectRef<Stored>('PortfolioAttribution').implement({
  description: 'Factor attribution of a portfolio\'s return over a period, kept as an artifact.',
  fields: (t) => ({
    artifactId: t.exposeString('artifactId'),
    contentHash: t.exposeString('contentHash'),
    result: t.expose('result', { type: 'JSON', description: 'As POST /v1/portfolio/attribution documents it' }),
  }),
});

const StressResult = builder.objectRef<Stored>('PortfolioStressTest').implement({
  description: 'A portfolio\'s return under scenarios of the stress-test catalog, kept as an artifact.',
  fields: (t) => ({
    artifactId: t.exposeString('artifactId'),
    contentHash: t.exposeString('contentHash'),
    result: t.expose('result', { type: 'JSON', description: 'As POST /v1/portfolio/stress-test documents it' }),
  }),
});

builder.queryFields((t) => ({
  stressScenarios: t.field({
    type: 'JSON',
    description: 'The stress-test scenario catalog: historical windows and hypothetical factor shocks (as GET /v1/portfolio/stress-test/scenarios documents it)',
    resolve: (_root, _args, ctx) => {
      requireOrg(ctx);
      return stressScenarios;
    },
  }),
}));

function holdingsOf(input: { ticker: string; weight?: number | null; shares?: number | null }[]): Holding[] {
  return input.map((h, i) => {
    if ((h.weight == null) === (h.shares == null)) throw invalid(`holdings[${i}]`, 'give a weight or a share count');
    return h.weight != null ? { ticker: h.ticker, weight: h.weight } : { ticker: h.ticker, shares: h.shares! };
  });
}

builder.mutationFields((t) => ({
  analyzePortfolio: t.field({
    type: AnalysisResult,
    args: {
      holdings: t.arg({ type: [HoldingInput], required: true }),
      asOf: t.arg({ type: 'Date' }),
      lookbackDays: t.arg.int({ defaultValue: 252 }),
      model: t.arg.string({ description: 'ff3, ff5 or ff5_mom; default ff5_mom where momentum covers the window, else ff5' }),
      benchmark: t.arg.string({ defaultValue: 'SPY' }),
    },
    resolve: async (_root, args, ctx) => {
      requireOrg(ctx);
      const request = { holdings: holdingsOf(args.holdings), asOf: args.asOf ?? undefined, lookbackDays: args.lookbackDays ?? 252, model: (args.model ?? undefined) as ModelName | undefined, benchmark: args.benchmark ?? 'SPY' };
      const { sample, result } = await analyzePortfolio(ctx, request);
      const stored = await storeArtifact(ctx, {
        kind: 'portfolio_analysis',
        route: '/v1/portfolio/analyze',
        title: `Portfolio analysis, ${result.window.from} to ${result.window.to} (${result.model})`,
        request,
        result,
        sources: sample.sources,
        model: result.model,
        window: result.window,
      });
      return { artifactId: stored.id, contentHash: stored.contentHash, result };
    },
  }),
  portfolioRisk: t.field({
    type: RiskResult,
    args: {
      holdings: t.arg({ type: [HoldingInput], required: true }),
      asOf: t.arg({ type: 'Date' }),
      lookbackDays: t.arg.int({ defaultValue: 252 }),
      model: t.arg.string({ description: 'ff3, ff5 or ff5_mom; default ff5_mom where momentum covers the window, else ff5' }),
      benchmark: t.arg.string({ defaultValue: 'SPY' }),
    },
    resolve: async (_root, args, ctx) => {
      requireOrg(ctx);
      if (!args.holdings.length) throw invalid('holdings', 'give at least one holding');
      const request = { holdings: holdingsOf(args.holdings), asOf: args.asOf ?? undefined, lookbackDays: args.lookbackDays ?? 252, model: (args.model ?? undefined) as ModelName | undefined, benchmark: args.benchmark ?? 'SPY' };
      const { sample, result } = await portfolioRiskOf(ctx, request);
      const stored = await storeArtifact(ctx, {
        kind: 'portfolio_risk',
        route: '/v1/portfolio/risk',
        title: `Portfolio risk against ${result.benchmark}, ${result.window.from} to ${result.window.to} (${result.model})`,
        request,
        result,
        sources: sample.sources,
        model: result.model,
        window: result.window,
      });
      return { artifactId: stored.id, contentHash: stored.contentHash, result };
    },
  }),
  portfolioAttribution: t.field({
    type: AttributionResult,
    args: {
      holdings: t.arg({ type: [HoldingInput], required: true }),
      from: t.arg({ type: 'Date', required: true }),
      to: t.arg({ type: 'Date', required: true }),
      lookbackDays: t.arg.int({ defaultValue: 252, description: 'Dates in the exposure estimation window, which ends at `to`' }),
      model: t.arg.string({ description: 'ff3, ff5 or ff5_mom; default ff5_mom where momentum covers the estimation window, else ff5' }),
    },
    resolve: async (_root, args, ctx) => {
      requireOrg(ctx);
      if (!args.holdings.length) throw invalid('holdings', 'give at least one holding');
      const request = { holdings: holdingsOf(args.holdings), from: args.from, to: args.to, lookbackDays: args.lookbackDays ?? 252, model: (args.model ?? undefined) as ModelName | undefined };
      const { sources, result } = await attributePortfolio(ctx, request);
      const stored = await storeArtifact(ctx, {
        kind: 'portfolio_attribution',
        route: '/v1/portfolio/attribution',
        title: `Portfolio attribution, ${result.from} to ${result.to} (${result.model})`,
        request,
        result,
        sources,
        model: result.model,
        window: { from: result.from, to: result.to, days: result.days },
      });
      return { artifactId: stored.id, contentHash: stored.contentHash, result };
    },
  }),
  portfolioStressTest: t.field({
    type: StressResult,
    args: {
      holdings: t.arg({ type: [HoldingInput], required: true }),
      scenarios: t.arg.stringList({ required: true, description: 'Scenario ids of the catalog (Query.stressScenarios)' }),
      asOf: t.arg({ type: 'Date' }),
      lookbackDays: t.arg.int({ defaultValue: 252, description: 'Dates in the exposure estimation window' }),
      model: t.arg.string({ description: 'ff3, ff5 or ff5_mom; default ff5_mom where momentum covers the estimation window, else ff5' }),
    },
    resolve: async (_root, args, ctx) => {
      requireOrg(ctx);
      if (!args.holdings.length) throw invalid('holdings', 'give at least one holding');
      checkScenarioIds(args.scenarios);
      const request = { holdings: holdingsOf(args.holdings), scenarios: args.scenarios, asOf: args.asOf ?? undefined, lookbackDays: args.lookbackDays ?? 252, model: (args.model ?? undefined) as ModelName | undefined };
      const { sources, result } = await stressTest(ctx, request);
      const stored = await storeArtifact(ctx, {
        kind: 'portfolio_stress_test',
        route: '/v1/portfolio/stress-test',
        title: `Portfolio stress test (${request.scenarios.join(', ')}), exposures ${result.window.from} to ${result.window.to} (${result.model})`,
        request,
        result,
        sources,
        model: result.model,
        window: result.window,
      });
      return { artifactId: stored.id, contentHash: stored.contentHash, result };
    },
  }),
}));
