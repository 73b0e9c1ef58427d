// Portfolio analytics (SPEC 4.6). Each result is kept as an artifact (resolvers/analytics/artifacts.ts).
import { analyzePortfolio, type Holding } from '../resolvers/analytics/analyze.ts';
import { storeArtifact } from '../resolvers/analytics/artifacts.ts';
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
}));
