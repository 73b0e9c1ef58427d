// POST /v1/portfolio/optimize (SPEC 4.6): bounded optimizer scenarios over the holdings' weights,
// solved by HiGHS and kept as an artifact (GET /v1/artifacts/{artifact_id}).
import { z } from 'zod';
import { PortfolioOptimizeDocument } from '../operations/generated.ts';
import { operationRoute } from '../route.ts';
import { defaultRiskAversion, objectives, regimePremia, tieBreak } from '../../resolvers/analytics/optimize.ts';
import { regimeRule } from '../../resolvers/analytics/macroPack.ts';
import { asStored, holdings, modelRule, models, sampleWindow, stored, windowParams, windowRule } from './portfolio.ts';

const weight = z.number().finite().min(-1).max(1);
const variance = z.object({ variance: z.number().describe('Annualised wᵀΣw'), volatility: z.number().describe('√variance'), factor: z.number().describe('The part the factors explain'), idiosyncratic: z.number().describe('Σ δ_i w_i²') });
const trend = z.object({
  seriesId: z.string(),
  direction: z.enum(['up', 'down']),
  last3MonthsMeanYoY: z.number(),
  previous3MonthsMeanYoY: z.number(),
  months: z.array(z.object({ month: z.string(), yoy: z.number() })),
});
const premiaTable = Object.entries(regimePremia)
  .map(([regime, premia]) => `${regime}: ${Object.entries(premia).map(([f, v]) => `${f} ${v >= 0 ? '+' : ''}${(v * 100).toFixed(0)} %`).join(', ')}`)
  .join('; ');

export const optimizeRoutes = [
  operationRoute({
    name: 'portfolio_optimize',
    method: 'POST',
    path: '/v1/portfolio/optimize',
    summary: 'Optimal weights of the holdings under a bounded optimizer scenario: factor-neutral, minimum drawdown or regime-aware',
    description:
      '`holdings` is the candidate universe with its current weights (or share counts): the optimizer chooses new weights for the same tickers. ' +
      windowRule +
      modelRule +
      'Covariance: the factor model of POST /v1/portfolio/risk, Σ = B F Bᵀ + Δ over the window (F the sample covariance of the factor returns, B each holding\'s OLS betas, Δ its residual variances), annualised × 252. ' +
      'Every scenario is a convex quadratic programme over the weights w: minimise its objective subject to Σ_i w_i = 1 and lo_i ≤ w_i ≤ hi_i, where the bounds are `bounds` (default {min: 0, max: 1}) or a holding\'s own `tickerBounds` entry. `longOnly` (default true) requires every lower bound to be at least 0 (a negative one is 400 `validation_error` naming it); with `longOnly: false` weights may go down to −1. ' +
      'Optionally `maxTurnover` T: Σ_i |w_i − w_current,i| ≤ T. The `objective` (required):\n' +
      `- \`factor_neutral\`: minimise (B_Sᵀw)ᵀ F_SS (B_Sᵀw) + ${tieBreak} · wᵀΣw, the variance the targeted factors S (\`neutralFactors\`, default every factor of the model but Mkt-RF) bring to the portfolio, plus ${tieBreak} × its total variance so that the least risky near-neutral portfolio is chosen and the optimum is unique. Exposures are driven toward 0 as far as the bounds allow, not forced to 0; the market beta is left free unless Mkt-RF is named.\n` +
      `- \`min_drawdown\`: a quadratic proxy, stated as one: minimise (252/|D|) Σ_{t∈D} (wᵀr_t)² + ${tieBreak} · wᵀΣw, D the window's dates on which \`benchmark\` (default SPY) fell, i.e. the second moment of the portfolio's returns on the market's down days (the losses that build drawdowns). Drawdown itself is not a quadratic function of the weights; \`maxDrawdown\` reports the realised in-sample drawdown before and after for comparison.\n` +
      `- \`regime_aware\`: minimise (γ/2) · wᵀΣw − μᵀw, γ = \`riskAversion\` (default ${defaultRiskAversion}), μ = Bπ with alphas taken as 0 and π the annual factor premia of the growth/inflation regime, stylised and chosen by judgment (not estimated): ${premiaTable}. ` +
      `The regime is the one of GET /v1/macro/high-signal-pack computed on the INDPRO and CPIAUCSL observations dated on or before the window's last date (${regimeRule}); \`regime\` states it with its trends. Without 18 months of both series it is 404 \`market_data_not_found\`.\n` +
      'Solver: HiGHS (the `highs` npm package, HiGHS compiled to WebAssembly; its QP solver is an active-set method), with the options `solver.options` states; `solver` gives the package and HiGHS versions, the status (`optimal`) and the iterations. The answer states per ticker the weight before and after and which bound binds (`bound`, and `bindingBounds`), the turnover, the factor exposures (Bᵀw) before and after, the ex-ante risk before and after (`risk`, annualised), the objective before and after, and the realised in-sample drawdown before and after. ' +
      'Infeasible constraints are 422 `optimization_infeasible`, never a fallback answer: upper bounds adding up to less than 1, lower bounds adding up to more than 1 or a lower bound above an upper one (`details.reason`, `sumMin`, `sumMax`), or a problem HiGHS reports infeasible (e.g. a `maxTurnover` too small to reach the bounds; `details.solverStatus`). A solve that ends without a proven optimum is 422 `optimization_failed` with `details.solverStatus`. ' +
      'Every answer is kept as an artifact (`artifactId`, kind `portfolio_optimization`) with the market and macro files it read; the same request on the same data gives the same result. An unknown objective, an unknown ticker (in `holdings` or `tickerBounds`), empty holdings, or a date outside the data is 400 `validation_error` naming the field.',
    tag: 'Portfolio analytics',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    params: {
      body: z.strictObject({
        holdings,
        objective: z.enum(objectives).describe('factor_neutral, min_drawdown or regime_aware'),
        ...windowParams,
        benchmark: z.string().min(1).max(12).default('SPY').describe('min_drawdown: the instrument whose down days define D'),
        bounds: z.strictObject({ min: weight, max: weight }).default({ min: 0, max: 1 }).describe('Every weight within [min, max] (default {min: 0, max: 1})'),
        longOnly: z.boolean().default(true).describe('Every lower bound at least 0 (default true)'),
        tickerBounds: z
          .array(z.strictObject({ ticker: z.string().min(1).max(12), min: weight.optional(), max: weight.optional() }))
          .max(500)
          .default([])
          .describe('A holding\'s own bounds, replacing `bounds` where given'),
        maxTurnover: z.number().finite().min(0).max(4).optional().describe('Σ |w − w_current| at most this'),
        riskAversion: z.number().finite().positive().max(1000).default(defaultRiskAversion).describe(`regime_aware: γ (default ${defaultRiskAversion})`),
        neutralFactors: z.array(z.string().min(1).max(12)).min(1).max(6).optional().describe('factor_neutral: the factors targeted (default every factor of the model but Mkt-RF)'),
      }),
    },
    response: z.object({
      ...stored('portfolio_optimization'),
      asOf: z.string(),
      window: sampleWindow,
      model: models,
      modelReason: z.string(),
      benchmark: z.string(),
      weightBasis: z.string().describe('How the current weights were read'),
      objective: z
        .object({ name: z.enum(objectives), statement: z.string().describe('The QP solved') })
        .catchall(z.unknown())
        .describe('factor_neutral adds `targetedFactors`; min_drawdown `proxy` and `downsideDays`; regime_aware `riskAversion`, `premia` (π of the regime), `premiaTable`, `premiaNote` and `expectedReturns` (μ per ticker)'),
      constraints: z.object({
        budget: z.string(),
        longOnly: z.boolean(),
        bounds: z.object({ min: z.number(), max: z.number() }),
        tickerBounds: z.array(z.object({ ticker: z.string(), min: z.number().nullable(), max: z.number().nullable() })),
        maxTurnover: z.number().nullable(),
      }),
      regime: z
        .object({ name: z.enum(['goldilocks', 'reflation', 'stagflation', 'deflation']), asOf: z.string(), rule: z.string(), asOfRule: z.string(), growth: trend, inflation: trend })
        .optional()
        .describe('regime_aware only: the regime as of the window\'s last date, and the rule'),
      weights: z.array(
        z.object({
          ticker: z.string(),
          before: z.number().describe('The current weight'),
          after: z.number().describe('The optimal weight'),
          change: z.number(),
          min: z.number(),
          max: z.number(),
          bound: z.enum(['min', 'max']).nullable().describe('The bound the optimal weight sits on (within 1e-7), if any'),
        }),
      ),
      bindingBounds: z.array(z.object({ ticker: z.string(), bound: z.enum(['min', 'max']), value: z.number() })),
      turnover: z.object({ value: z.number().describe('Σ |after − before|'), limit: z.number().nullable(), binding: z.boolean() }),
      exposures: z.object({ factors: z.array(z.string()), before: z.record(z.string(), z.number()).describe('Bᵀw per factor'), after: z.record(z.string(), z.number()) }),
      risk: z.object({ before: variance, after: variance }).describe('Ex-ante, annualised, under Σ'),
      objectiveValue: z.object({ before: z.number(), after: z.number(), note: z.string() }),
      maxDrawdown: z.object({ before: z.number(), after: z.number(), note: z.string() }).describe('Realised over the window, in-sample'),
      solver: z.object({
        library: z.literal('highs'),
        packageVersion: z.string(),
        highsVersion: z.string(),
        gitHash: z.string(),
        method: z.string(),
        status: z.literal('optimal'),
        iterations: z.number().int(),
        objective: z.number(),
        options: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
      }),
      requestId: z.string(),
    }),
    errors: ['validation_error', 'optimization_infeasible', 'optimization_failed', 'market_data_not_found'],
    operation: PortfolioOptimizeDocument,
    variables: ({ body }) => ({
      holdings: body.holdings,
      objective: body.objective,
      asOf: body.asOf ?? null,
      lookbackDays: body.lookbackDays,
      model: body.model ?? null,
      benchmark: body.benchmark,
      bounds: body.bounds,
      longOnly: body.longOnly,
      tickerBounds: body.tickerBounds.map((b) => ({ ticker: b.ticker, min: b.min ?? null, max: b.max ?? null })),
      maxTurnover: body.maxTurnover ?? null,
      riskAversion: body.riskAversion,
      neutralFactors: body.neutralFactors ?? null,
    }),
  }).reshape(({ portfolioOptimize }, meta) => asStored('portfolio_optimization', portfolioOptimize, meta)),
];
