// Portfolio analytics (SPEC 4.6). Each result is kept as an artifact (resolvers/analytics/artifacts.ts).
import { analyzePortfolio, type Holding } from '../resolvers/analytics/analyze.ts';
import { storeArtifact, type ArtifactInput } from '../resolvers/analytics/artifacts.ts';
import { attributePortfolio } from '../resolvers/analytics/attribution.ts';
import { portfolioHedge } from '../resolvers/analytics/hedge.ts';
import { portfolioRiskOf } from '../resolvers/analytics/portfolioRisk.ts';
import { stressScenarios } from '../resolvers/analytics/scenarios.ts';
import { checkScenarioIds, stressTest } from '../resolvers/analytics/stress.ts';
import { invalid, type ModelName } from '../resolvers/analytics/window.ts';
import { readScope, requireOrg } from '../resolvers/access.ts';
import type { Context } from '../resolvers/context.ts';
import { builder } from './builder.ts';

export const HoldingInput = builder.inputType('PortfolioHoldingInput', {
  fields: (t) => ({ ticker: t.string({ required: true }), weight: t.float(), shares: t.float() }),
});

const HedgeBoundInput = builder.inputType('HedgeBoundInput', {
  description: 'The hedge ratios an instrument may take: a position worth min to max × the portfolio\'s value (negative sells)',
  fields: (t) => ({ instrument: t.string({ required: true }), min: t.float({ required: true }), max: t.float({ required: true }) }),
});

type Stored = { artifactId: string; contentHash: string; result: Record<string, unknown> };

/** A computed result as kept: its artifact and the body the route documents. */
export function storedResult(name: string, description: string, route: string) {
  return builder.objectRef<Stored>(name).implement({
    description: `${description}, kept as an artifact.`,
    fields: (t) => ({
      artifactId: t.exposeString('artifactId'),
      contentHash: t.exposeString('contentHash'),
      result: t.expose('result', { type: 'JSON', description: `As POST ${route} documents it` }),
    }),
  });
}

const AnalysisResult = storedResult('PortfolioAnalysis', 'Factor exposures, attribution and hedge summaries of a portfolio', '/v1/portfolio/analyze');
const RiskResult = storedResult('PortfolioRisk', 'Ex-ante tracking error of a portfolio against a benchmark under a factor model', '/v1/portfolio/risk');
const AttributionResult = storedResult('PortfolioAttribution', 'Factor attribution of a portfolio\'s return over a period', '/v1/portfolio/attribution');
const HedgeResult = storedResult('PortfolioHedge', 'Bounded hedge ratios in benchmark instruments that minimise a portfolio\'s residual factor variance', '/v1/portfolio/hedge');
const StressResult = storedResult('PortfolioStressTest', 'A portfolio\'s return under scenarios of the stress-test catalog', '/v1/portfolio/stress-test');

/**
 * Keeps a computed result as an artifact (with the files it read, its model and window) and
 * answers it. The model is the result's own unless the artifact names one (a result without a
 * model, such as the country report, names its method); a result over no window gives null.
 */
export async function keep(
  ctx: Context,
  artifact: Pick<ArtifactInput, 'kind' | 'route' | 'title' | 'request' | 'window'> & { model?: string },
  computed: { sources: ArtifactInput['sources']; result: { model?: string } & Record<string, unknown> },
): Promise<Stored> {
  const stored = await storeArtifact(ctx, { ...artifact, result: computed.result, sources: computed.sources, model: artifact.model ?? computed.result.model ?? null });
  return { artifactId: stored.id, contentHash: stored.contentHash, result: computed.result };
}

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

export function holdingsOf(input: { ticker: string; weight?: number | null; shares?: number | null }[]): Holding[] {
  if (!input.length) throw invalid('holdings', 'give at least one holding');
  return input.map((h, i) => {
    if ((h.weight == null) === (h.shares == null)) throw invalid(`holdings[${i}]`, 'give a weight or a share count');
    return h.weight != null ? { ticker: h.ticker, weight: h.weight } : { ticker: h.ticker, shares: h.shares! };
  });
}

builder.mutationFields((t) => ({
  analyzePortfolio: t.field({
    extensions: readScope,
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
      return keep(ctx, { kind: 'portfolio_analysis', route: '/v1/portfolio/analyze', title: `Portfolio analysis, ${result.window.from} to ${result.window.to} (${result.model})`, request, window: result.window }, { sources: sample.sources, result });
    },
  }),
  portfolioRisk: t.field({
    extensions: readScope,
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
      const request = { holdings: holdingsOf(args.holdings), asOf: args.asOf ?? undefined, lookbackDays: args.lookbackDays ?? 252, model: (args.model ?? undefined) as ModelName | undefined, benchmark: args.benchmark ?? 'SPY' };
      const { sample, result } = await portfolioRiskOf(ctx, request);
      return keep(ctx, { kind: 'portfolio_risk', route: '/v1/portfolio/risk', title: `Portfolio risk against ${result.benchmark}, ${result.window.from} to ${result.window.to} (${result.model})`, request, window: result.window }, { sources: sample.sources, result });
    },
  }),
  portfolioHedge: t.field({
    extensions: readScope,
    type: HedgeResult,
    args: {
      holdings: t.arg({ type: [HoldingInput], required: true }),
      asOf: t.arg({ type: 'Date' }),
      lookbackDays: t.arg.int({ defaultValue: 252 }),
      model: t.arg.string({ description: 'ff3, ff5 or ff5_mom; default ff5_mom where momentum covers the window, else ff5' }),
      instruments: t.arg.stringList({ description: 'Among SPY, QQQ, IWM and TLT; default every one whose prices are held' }),
      bounds: t.arg({ type: [HedgeBoundInput], description: 'Per instrument; default min −1, max 0' }),
    },
    resolve: async (_root, args, ctx) => {
      requireOrg(ctx);
      const request = {
        holdings: holdingsOf(args.holdings),
        asOf: args.asOf ?? undefined,
        lookbackDays: args.lookbackDays ?? 252,
        model: (args.model ?? undefined) as ModelName | undefined,
        instruments: args.instruments ?? undefined,
        bounds: args.bounds?.map((b) => ({ instrument: b.instrument, min: b.min, max: b.max })),
      };
      const { sample, result } = await portfolioHedge(ctx, request);
      const kept = { ...request, instruments: result.instruments.map((i) => i.instrument), bounds: result.instruments.map((i) => ({ instrument: i.instrument, ...i.bounds })) };
      return keep(ctx, { kind: 'portfolio_hedge', route: '/v1/portfolio/hedge', title: `Portfolio hedge in ${kept.instruments.join(', ')}, ${result.window.from} to ${result.window.to} (${result.model})`, request: kept, window: result.window }, { sources: sample.sources, result });
    },
  }),
  portfolioAttribution: t.field({
    extensions: readScope,
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
      const request = { holdings: holdingsOf(args.holdings), from: args.from, to: args.to, lookbackDays: args.lookbackDays ?? 252, model: (args.model ?? undefined) as ModelName | undefined };
      const computed = await attributePortfolio(ctx, request);
      const { from, to, days } = computed.result;
      return keep(ctx, { kind: 'portfolio_attribution', route: '/v1/portfolio/attribution', title: `Portfolio attribution, ${computed.result.from} to ${computed.result.to} (${computed.result.model})`, request, window: { from, to, days } }, computed);
    },
  }),
  portfolioStressTest: t.field({
    extensions: readScope,
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
      checkScenarioIds(args.scenarios);
      const request = { holdings: holdingsOf(args.holdings), scenarios: args.scenarios, asOf: args.asOf ?? undefined, lookbackDays: args.lookbackDays ?? 252, model: (args.model ?? undefined) as ModelName | undefined };
      const computed = await stressTest(ctx, request);
      const { window, model } = computed.result;
      return keep(ctx, { kind: 'portfolio_stress_test', route: '/v1/portfolio/stress-test', title: `Portfolio stress test (${request.scenarios.join(', ')}), exposures ${window.from} to ${window.to} (${model})`, request, window }, computed);
    },
  }),
}));
