// Portfolio analytics (SPEC 4.6): computed in process from the market data held, over a window
// the answer states, and kept as an artifact (GET /v1/artifacts/{artifact_id}).
import { z } from 'zod';
import { AnalyzePortfolioDocument } from '../operations/generated.ts';
import { dateParam } from '../dataParams.ts';
import { operationRoute } from '../route.ts';

const holding = z
  .strictObject({
    ticker: z.string().min(1).max(12).describe('A ticker whose prices are held (GET /v1/market/sources)'),
    weight: z.number().finite().min(0).optional().describe('Portfolio weight (scaled with the others to add up to 1)'),
    shares: z.number().finite().positive().optional().describe('A share count, valued at the close of the window\'s last date'),
  })
  .describe('{ticker, weight} or {ticker, shares}: every holding the same way');

const coefficient = z.object({ beta: z.number(), stdError: z.number(), tStat: z.number() });
const exposures = z.object({
  alpha: z.object({ daily: z.number(), annualized: z.number().describe('daily × 252'), stdError: z.number(), tStat: z.number() }),
  betas: z.record(z.string(), coefficient).describe('Per factor of the model'),
  rSquared: z.number(),
  adjustedRSquared: z.number(),
  residualVolatility: z.object({ daily: z.number(), annualized: z.number().describe('daily × √252') }),
  observations: z.number().int(),
});

export const portfolioRoutes = [
  operationRoute({
    name: 'portfolio_analyze',
    method: 'POST',
    path: '/v1/portfolio/analyze',
    summary: 'Factor exposures of a portfolio and its holdings, with attribution and hedge summaries',
    description:
      'Exposures are OLS with intercept of daily excess returns (return − RF) on the model\'s Fama-French factor returns: alpha, betas, standard errors, t-stats, R² and residual volatility, for each holding and for the portfolio (weights held constant). ' +
      'The window is the `lookbackDays` (default 252) most recent dates on or before `asOf` on which every holding and the benchmark have a close on that date and on their previous row, and every factor of the model has a value; a daily return is close_t / close_prev − 1 on the file\'s adjusted closes. `asOf` defaults to the latest such date. ' +
      '`model`: `ff3`, `ff5` or `ff5_mom`; by default `ff5_mom` where daily momentum covers the window, else `ff5`, and `modelReason` says which and why. ' +
      'Attribution (arithmetic over the window): each factor\'s portfolio beta × the sum of its returns, alpha × days and the residual. Hedge: the amount of the benchmark (default SPY) that neutralises the portfolio\'s beta to it, and the market beta left. ' +
      'Every answer is kept as an artifact (`artifactId`) with its inputs, the market files and vintages it used, the model and the window; the same request on the same data gives the same result. An unknown ticker, empty holdings, a negative or non-numeric weight, or a date outside the data is 400 `validation_error` naming the field.',
    tag: 'Portfolio analytics',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    params: {
      body: z.strictObject({
        holdings: z.array(holding).min(1).max(500),
        asOf: dateParam('The last date of the window at the latest'),
        lookbackDays: z.number().int().min(20).max(5000).default(252).describe('Dates in the window (default 252)'),
        model: z.enum(['ff3', 'ff5', 'ff5_mom']).optional(),
        benchmark: z.string().min(1).max(12).default('SPY'),
      }),
    },
    response: z.object({
      object: z.literal('portfolio_analysis'),
      artifactId: z.string().describe('`art_…`: GET /v1/artifacts/{artifact_id}'),
      contentHash: z.string().describe('sha256 of the result\'s canonical JSON'),
      asOf: z.string(),
      window: z.object({ from: z.string(), to: z.string(), days: z.number().int() }),
      model: z.enum(['ff3', 'ff5', 'ff5_mom']),
      modelReason: z.string(),
      benchmark: z.string(),
      weightBasis: z.string(),
      portfolio: exposures,
      holdings: z.array(z.object({ ticker: z.string(), weight: z.number(), exposures })),
      attribution: z.object({ method: z.string(), totalReturn: z.number(), excessReturn: z.number(), byFactor: z.record(z.string(), z.number()), alpha: z.number(), residual: z.number() }),
      hedge: z.object({ instrument: z.string(), method: z.string(), betaToBenchmark: z.number(), rSquared: z.number(), hedgeRatio: z.number(), explanation: z.string(), marketBetaBefore: z.number(), marketBetaAfter: z.number() }),
      requestId: z.string(),
    }),
    errors: ['validation_error'],
    operation: AnalyzePortfolioDocument,
    variables: ({ body }) => ({ holdings: body.holdings, asOf: body.asOf ?? null, lookbackDays: body.lookbackDays, model: body.model ?? null, benchmark: body.benchmark }),
  }).reshape(({ analyzePortfolio: a }, meta) => ({ object: 'portfolio_analysis', artifactId: a.artifactId, contentHash: a.contentHash, ...(a.result as object), ...meta }) as never),
];
