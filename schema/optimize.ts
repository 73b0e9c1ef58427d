// Portfolio optimizer scenarios (SPEC 4.6, POST /v1/portfolio/optimize). The result is kept as an
// artifact like every portfolio analytics result (schema/portfolio.ts).
import { defaultRiskAversion, objectives, optimizePortfolio, type Objective } from '../resolvers/analytics/optimize.ts';
import { invalid, type ModelName } from '../resolvers/analytics/window.ts';
import { readScope, requireOrg } from '../resolvers/access.ts';
import { builder } from './builder.ts';
import { HoldingInput, holdingsOf, keep, storedResult } from './portfolio.ts';

const WeightBoundsInput = builder.inputType('OptimizeWeightBoundsInput', {
  description: 'Bounds on every weight: min ≤ w ≤ max (fractions of the portfolio)',
  fields: (t) => ({ min: t.float({ required: true }), max: t.float({ required: true }) }),
});

const TickerBoundsInput = builder.inputType('OptimizeTickerBoundsInput', {
  description: 'One holding\'s own bounds, replacing the common ones where given',
  fields: (t) => ({ ticker: t.string({ required: true }), min: t.float(), max: t.float() }),
});

const OptimizeResult = storedResult('PortfolioOptimization', 'Optimal weights of a bounded optimizer scenario (factor_neutral, min_drawdown or regime_aware)', '/v1/portfolio/optimize');

builder.mutationFields((t) => ({
  portfolioOptimize: t.field({
    extensions: readScope,
    type: OptimizeResult,
    args: {
      holdings: t.arg({ type: [HoldingInput], required: true, description: 'The candidate universe, with current weights or share counts' }),
      objective: t.arg.string({ required: true, description: objectives.join(', ') }),
      asOf: t.arg({ type: 'Date' }),
      lookbackDays: t.arg.int({ defaultValue: 252 }),
      model: t.arg.string({ description: 'ff3, ff5 or ff5_mom; default ff5_mom where momentum covers the window, else ff5' }),
      benchmark: t.arg.string({ defaultValue: 'SPY' }),
      bounds: t.arg({ type: WeightBoundsInput, description: 'Default {min: 0, max: 1}' }),
      longOnly: t.arg.boolean({ defaultValue: true }),
      tickerBounds: t.arg({ type: [TickerBoundsInput] }),
      maxTurnover: t.arg.float({ description: 'Σ |w − w_current| at most this' }),
      riskAversion: t.arg.float({ description: `regime_aware: γ (default ${defaultRiskAversion})` }),
      neutralFactors: t.arg.stringList({ description: 'factor_neutral: the factors targeted (default every factor of the model but Mkt-RF)' }),
    },
    resolve: async (_root, args, ctx) => {
      requireOrg(ctx);
      if (!(objectives as readonly string[]).includes(args.objective)) throw invalid('objective', `must be one of ${objectives.join(', ')}`, { acceptedValues: [...objectives] });
      const request = {
        holdings: holdingsOf(args.holdings),
        objective: args.objective as Objective,
        asOf: args.asOf ?? undefined,
        lookbackDays: args.lookbackDays ?? 252,
        model: (args.model ?? undefined) as ModelName | undefined,
        benchmark: args.benchmark ?? 'SPY',
        bounds: args.bounds ? { min: args.bounds.min, max: args.bounds.max } : { min: 0, max: 1 },
        longOnly: args.longOnly ?? true,
        tickerBounds: (args.tickerBounds ?? []).map((b) => ({ ticker: b.ticker, min: b.min ?? null, max: b.max ?? null })),
        maxTurnover: args.maxTurnover ?? null,
        riskAversion: args.riskAversion ?? defaultRiskAversion,
        neutralFactors: args.neutralFactors ?? null,
      };
      const { sources, result } = await optimizePortfolio(ctx, request);
      return keep(ctx, { kind: 'portfolio_optimization', route: '/v1/portfolio/optimize', title: `Portfolio optimization (${request.objective}), ${result.window.from} to ${result.window.to} (${result.model})`, request, window: result.window }, { sources, result });
    },
  }),
}));
