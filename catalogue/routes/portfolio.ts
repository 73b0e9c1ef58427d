// Portfolio analytics (SPEC 4.6): computed in process from the market data held, over a window
// the answer states, and kept as an artifact (GET /v1/artifacts/{artifact_id}).
import { z } from 'zod';
import { AnalyzePortfolioDocument, PortfolioAttributionDocument, PortfolioHedgeDocument, PortfolioRiskDocument, PortfolioStressTestDocument, StressScenariosDocument } from '../operations/generated.ts';
import { boundLimit, defaultBound, hedgeInstruments } from '../../resolvers/analytics/hedge.ts';
import { dateParam } from '../dataParams.ts';
import { operationRoute } from '../route.ts';

/** A period's returns: sums of daily returns, and the same compounded (resolvers/analytics/analyze.ts periodReturns). */
const periodReturns = {
  totalReturn: z.number().describe('Arithmetic: Σ_t r_p,t'),
  riskFreeReturn: z.number().describe('Arithmetic: Σ_t RF_t'),
  excessReturn: z.number().describe('Arithmetic: Σ_t (r_p,t − RF_t) = totalReturn − riskFreeReturn = Σ_k byFactor[k] (+ alpha) + residual'),
  compounded: z
    .object({ totalReturn: z.number().describe('Π_t (1 + r_p,t) − 1'), riskFreeReturn: z.number().describe('Π_t (1 + RF_t) − 1'), excessReturn: z.number().describe('(1 + totalReturn) / (1 + riskFreeReturn) − 1') })
    .describe('The same returns compounded day by day'),
};

const holding = z
  .strictObject({
    ticker: z.string().min(1).max(12).describe('A ticker whose prices are held (GET /v1/market/sources)'),
    weight: z.number().finite().min(0).optional().describe('Portfolio weight (scaled with the others to add up to 1)'),
    shares: z.number().finite().positive().optional().describe('A share count, valued at the close of the window\'s last date'),
  })
  .describe('{ticker, weight} or {ticker, shares}: every holding the same way');

const coefficient = z.object({ beta: z.number(), stdError: z.number(), tStat: z.number() });
export const exposures = z.object({
  alpha: z.object({ daily: z.number(), annualized: z.number().describe('daily × 252'), stdError: z.number(), tStat: z.number() }),
  betas: z.record(z.string(), coefficient).describe('Per factor of the model'),
  rSquared: z.number(),
  adjustedRSquared: z.number(),
  residualVolatility: z.object({ daily: z.number(), annualized: z.number().describe('daily × √252') }),
  observations: z.number().int(),
});

export const windowRule =
  'The window is the `lookbackDays` (default 252) most recent dates on or before `asOf` on which every holding and the benchmark have a close on that date and on their previous row, and every factor of the model has a value (the rule of POST /v1/portfolio/analyze); a daily return is close_t / close_prev − 1 on the file\'s adjusted closes. ';
export const modelRule = '`model`: `ff3`, `ff5` or `ff5_mom`; by default `ff5_mom` where daily momentum covers the window, else `ff5`, and `modelReason` says which and why. ';
export const models = z.enum(['ff3', 'ff5', 'ff5_mom']);
export const holdings = z.array(holding).min(1).max(500);
export const lookbackDays = (what: string) => z.number().int().min(20).max(5000).default(252).describe(`Dates in ${what} (default 252)`);
/** The window a computation over one is asked for: its last date at the latest, its length, the model. */
export const windowParams = { asOf: dateParam('The last date of the window at the latest'), lookbackDays: lookbackDays('the window'), model: models.optional() };
/** The window an answer states. */
export const sampleWindow = z.object({ from: z.string(), to: z.string(), days: z.number().int() });

/** What every stored result answers first: its artifact. */
export const stored = <T extends string>(object: T) => ({
  object: z.literal(object),
  artifactId: z.string().describe('`art_…`: GET /v1/artifacts/{artifact_id}'),
  contentHash: z.string().describe('sha256 of the result\'s canonical JSON'),
});
/** The body of a stored result: its artifact, then the result as computed. */
export const asStored = (object: string, a: { artifactId: string; contentHash: string; result: unknown }, meta: { requestId: string }) =>
  ({ object, artifactId: a.artifactId, contentHash: a.contentHash, ...(a.result as object), ...meta }) as never;
const variance = z.object({ variance: z.number().describe('Annualised (daily × 252)'), volatility: z.number().describe('√variance'), factor: z.number().describe('The part the factors explain'), idiosyncratic: z.number().describe('The specific part: Σ δ_i w_i² × 252') });

const hedgeInstrument = z.enum(hedgeInstruments);
const hedgeRatio = z.number().finite().min(-boundLimit).max(boundLimit);
const hedgeBound = z
  .strictObject({ min: hedgeRatio.describe('The lowest ratio'), max: hedgeRatio.describe('The highest ratio') })
  .refine((b) => b.min <= b.max, 'min is greater than max')
  .describe(`The ratios the instrument may take (default {min: ${defaultBound.min}, max: ${defaultBound.max}})`);
const risk = z.object({ variance: z.number().describe('Annualised residual factor variance: (b + Bh)ᵀ F (b + Bh) × 252'), volatility: z.number().describe('√variance') });

const scenarioEntry = z.object({
  id: z.string(),
  kind: z.enum(['historical', 'hypothetical']),
  title: z.string(),
  window: z.object({ from: z.string(), to: z.string() }).optional().describe('Historical: the episode, inclusive dates'),
  shocks: z.record(z.string(), z.number()).optional().describe('Hypothetical: per factor, its return in the scenario (a fraction: −0.2 is −20 %)'),
  description: z.string(),
});
const stressMethod = z.enum(['buy_and_hold', 'factor_implied', 'factor_shock']);

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
        holdings,
        ...windowParams,
        benchmark: z.string().min(1).max(12).default('SPY'),
      }),
    },
    response: z.object({
      ...stored('portfolio_analysis'),
      asOf: z.string(),
      window: sampleWindow,
      model: models,
      modelReason: z.string(),
      benchmark: z.string(),
      weightBasis: z.string(),
      portfolio: exposures,
      holdings: z.array(z.object({ ticker: z.string(), weight: z.number(), exposures })),
      attribution: z.object({ method: z.string(), ...periodReturns, byFactor: z.record(z.string(), z.number()), alpha: z.number(), residual: z.number() }),
      hedge: z.object({ instrument: z.string(), method: z.string(), betaToBenchmark: z.number(), rSquared: z.number(), hedgeRatio: z.number(), explanation: z.string(), marketBetaBefore: z.number(), marketBetaAfter: z.number() }),
      requestId: z.string(),
    }),
    errors: ['validation_error'],
    operation: AnalyzePortfolioDocument,
    variables: ({ body }) => ({ holdings: body.holdings, asOf: body.asOf ?? null, lookbackDays: body.lookbackDays, model: body.model ?? null, benchmark: body.benchmark }),
  }).reshape(({ analyzePortfolio }, meta) => asStored('portfolio_analysis', analyzePortfolio, meta)),
  operationRoute({
    name: 'portfolio_risk',
    method: 'POST',
    path: '/v1/portfolio/risk',
    summary: 'Ex-ante tracking error of a portfolio against a benchmark, with its contributions by factor group and by security',
    description:
      windowRule +
      modelRule +
      'Over the window: F is the sample covariance (divisor n − 1) of the model\'s daily factor returns; each holding and the benchmark gets exposures B (the betas of its OLS with intercept of daily excess returns on the factors) and a specific variance δ (that OLS\'s residual variance s² = e\'e / (n − k − 1)). Benchmark weights are 1 on the benchmark ticker (default SPY); active weights a = w − w_b over the union of holdings and the benchmark. ' +
      'Tracking error is √(252 · aᵀ(B F Bᵀ + Δ)a). `contributionsByGroup` (market, size, value, profitability, investment, momentum: the groups whose factors the model has, plus `idiosyncratic`) and `contributionsBySecurity` are Euler contributions to the annualised tracking variance: each set adds up to `trackingVariance`, and a contribution can be negative. `beta` is the ex-ante beta wᵀΣw_b / w_bᵀΣw_b; `portfolio` splits the portfolio\'s own variance into factor and idiosyncratic parts; `factorCovariance` is F × 252. ' +
      'Every security has `coverage: full`: it has a return on every date of the window, because a holding without data is refused with 400 `validation_error` naming it (the window rule), never silently dropped. ' +
      'Every answer is kept as an artifact (`artifactId`, kind `portfolio_risk`). An unknown ticker, empty holdings, a negative or non-numeric weight, or a date outside the data is 400 `validation_error` naming the field.',
    tag: 'Portfolio analytics',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    params: {
      body: z.strictObject({
        holdings,
        ...windowParams,
        benchmark: z.string().min(1).max(12).default('SPY'),
      }),
    },
    response: z.object({
      ...stored('portfolio_risk'),
      asOf: z.string(),
      window: sampleWindow,
      model: models,
      modelReason: z.string(),
      benchmark: z.string(),
      trackingError: z.number().describe('Annualised ex-ante tracking error, √trackingVariance'),
      trackingVariance: z.number().describe('Annualised: 252 · aᵀΣa'),
      contributionsByGroup: z.record(z.string(), z.number()).describe('Per factor group, and `idiosyncratic`: adds up to trackingVariance'),
      contributionsBySecurity: z
        .array(z.object({ ticker: z.string(), activeWeight: z.number().describe('w − w_b'), contribution: z.number().describe('a_i (Σa)_i × 252'), coverage: z.literal('full').describe('A return on every date of the window') }))
        .describe('The holdings, then the benchmark if it is not held: adds up to trackingVariance'),
      beta: z.number().nullable().describe('Ex-ante beta to the benchmark; null when the benchmark has no variance'),
      portfolio: variance,
      factorCovariance: z.object({ factors: z.array(z.string()), annualized: z.array(z.array(z.number())).describe('F × 252, rows and columns in the order of `factors`') }),
      requestId: z.string(),
    }),
    errors: ['validation_error'],
    operation: PortfolioRiskDocument,
    variables: ({ body }) => ({ holdings: body.holdings, asOf: body.asOf ?? null, lookbackDays: body.lookbackDays, model: body.model ?? null, benchmark: body.benchmark }),
  }).reshape(({ portfolioRisk }, meta) => asStored('portfolio_risk', portfolioRisk, meta)),
  operationRoute({
    name: 'portfolio_attribution',
    method: 'POST',
    path: '/v1/portfolio/attribution',
    summary: 'Factor attribution of a portfolio\'s return over a period',
    description:
      'The period is every date from `from` to `to` on which every holding has a close on that date and on its previous row and every factor of the model has a value; the return of a date is close_t / close_prev − 1, so the first one runs from the close before `from`. `from` and `to` in the answer are the first and last such dates. Weights are held constant. ' +
      'Exposures are estimated on the window ending at `to` (`estimationWindow`: the `lookbackDays`, default 252, latest such dates on or before `to`): each holding\'s betas from its OLS with intercept of daily excess returns on the factors; the portfolio\'s beta is their weighted sum. ' +
      modelRule.replace('the window', 'the estimation window') +
      'Method `arithmetic` (cumulative sum, no linking): `excessReturn` = Σ_t (r_p,t − RF_t); `byFactor[k]` = β_p,k Σ_t f_k,t; `residual` = excessReturn − Σ_k byFactor[k] (alpha included), so they add up to excessReturn. Each row is w_i β_i,k Σ_t f_k,t and a factor\'s rows add up to byFactor[k]. `totalReturn` = Σ_t r_p,t and `riskFreeReturn` = Σ_t RF_t are sums too, so totalReturn − riskFreeReturn = excessReturn; `compounded` gives the same three grown day by day (Π_t (1 + r) − 1; the excess as (1 + total) / (1 + risk-free) − 1), never mixed with the arithmetic ones. ' +
      'Every answer is kept as an artifact (`artifactId`, kind `portfolio_attribution`). `from` after `to`, or no date with data in the period, is 400 `validation_error` naming `from`; an unknown ticker, empty holdings or a `to` before the data is 400 naming the field.',
    tag: 'Portfolio analytics',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    params: {
      body: z.strictObject({
        holdings,
        from: dateParam('The first date of the period').unwrap().describe('The first date of the period (YYYY-MM-DD, inclusive)'),
        to: dateParam('The last date of the period').unwrap().describe('The last date of the period (YYYY-MM-DD, inclusive); the exposure estimation window ends there'),
        lookbackDays: lookbackDays('the exposure estimation window ending at `to`'),
        model: models.optional(),
      }),
    },
    response: z.object({
      ...stored('portfolio_attribution'),
      from: z.string().describe('The first date of the period with data'),
      to: z.string().describe('The last date of the period with data'),
      days: z.number().int(),
      estimationWindow: z.object({ from: z.string(), to: z.string(), days: z.number().int() }),
      model: models,
      modelReason: z.string(),
      weightBasis: z.string(),
      betas: z.record(z.string(), z.number()).describe('The portfolio\'s beta per factor: Σ_i w_i β_i,k'),
      ...periodReturns,
      byFactor: z.record(z.string(), z.number()).describe('β_p,k Σ_t f_k,t per factor'),
      residual: z.number().describe('excessReturn − Σ_k byFactor[k], alpha included'),
      rows: z.array(z.object({ ticker: z.string(), factor: z.string(), contribution: z.number().describe('w_i β_i,k Σ_t f_k,t') })).describe('Per holding and factor; a factor\'s rows add up to byFactor'),
      method: z.literal('arithmetic'),
      note: z.string(),
      requestId: z.string(),
    }),
    errors: ['validation_error'],
    operation: PortfolioAttributionDocument,
    variables: ({ body }) => ({ holdings: body.holdings, from: body.from, to: body.to, lookbackDays: body.lookbackDays, model: body.model ?? null }),
  }).reshape(({ portfolioAttribution }, meta) => asStored('portfolio_attribution', portfolioAttribution, meta)),
  operationRoute({
    name: 'portfolio_hedge',
    method: 'POST',
    path: '/v1/portfolio/hedge',
    summary: 'Bounded hedge ratios in benchmark instruments (SPY, QQQ, IWM, TLT) that minimise a portfolio\'s residual factor exposure',
    description:
      'The window is the `lookbackDays` (default 252) most recent dates on or before `asOf` on which every holding and every instrument have a close on that date and on their previous row, and every factor of the model has a value (the rule of POST /v1/portfolio/analyze, with the instruments in place of the benchmark); a daily return is close_t / close_prev − 1 on the file\'s adjusted closes. ' +
      modelRule +
      '`instruments`: among SPY, QQQ, IWM and TLT, by default every one of them whose price file covers the holdings\' own window (the window the rule gives without the instruments; QQQ and IWM start in 2019, so an earlier window is hedged with the others). A hedge ratio h_j is a position in instrument j worth h_j × the portfolio\'s value, negative to sell it; `bounds` gives per instrument the ratios it may take, by default ' +
      `{min: ${defaultBound.min}, max: ${defaultBound.max}} (sell up to 100 % of the portfolio\'s value, never buy). ` +
      'Over the window: b is the portfolio\'s betas and B_j instrument j\'s, each from its OLS with intercept of daily excess returns on the model\'s factors (as analyze fits them); F is the sample covariance (divisor n − 1) of the daily factor returns. ' +
      'The hedge minimises the residual factor variance (b + Σ_j h_j B_j)ᵀ F (b + Σ_j h_j B_j), the variance of the hedged book\'s factor part (a norm of the exposures weighted by the factor covariance, not the plain sum of squared betas), within the bounds. ' +
      'It is solved exactly: every active set of the bounds (each ratio free, at its min or at its max: at most 3⁴ = 81 cases) is solved as an equality-constrained system, and the best candidate within the bounds is kept. When the minimum is not unique (more instruments than the model\'s factors tell apart, e.g. four instruments under `ff3`), the candidate with the smallest gross Σ_j |h_j| among those within 1e-12 × the unhedged variance of the minimum is kept; the same request on the same data gives the same ratios. ' +
      '`instruments[j]` states the ratio, its bounds, whether it is at one (`atBound`, `boundHit`) and the instrument\'s exposures, R² and residual volatility (how far its factor model can be trusted); `exposures` is the portfolio\'s betas before and after, `residualFactorRisk` the annualised (× 252) variance and volatility before and after. ' +
      'The residual factor variance leaves out the specific (idiosyncratic) risk of the portfolio and of the instruments, and the hedge is as good as the portfolio\'s and the instruments\' R²: a low R² means the factors explain little of what is hedged. ' +
      '`candidates` are the single-instrument hedges: each instrument alone at its own minimiser −(B_jᵀ F b)/(B_jᵀ F B_j), clamped to its bounds, ranked by the residual factor variance they leave. ' +
      'Every answer is kept as an artifact (`artifactId`, kind `portfolio_hedge`). An instrument outside the four or without prices held, a bound with min greater than max or for an instrument not asked for, an unknown ticker, empty holdings, a negative or non-numeric weight, or a date outside the data is 400 `validation_error` naming the field.',
    tag: 'Portfolio analytics',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    params: {
      body: z.strictObject({
        holdings,
        ...windowParams,
        instruments: z
          .array(hedgeInstrument)
          .min(1)
          .max(hedgeInstruments.length)
          .refine((list) => new Set(list).size === list.length, 'an instrument is named twice')
          .meta({ uniqueItems: true })
          .optional()
          .describe('The instruments to hedge with (default: each of SPY, QQQ, IWM and TLT whose prices cover the holdings\' window)'),
        bounds: z
          .strictObject(Object.fromEntries(hedgeInstruments.map((t) => [t, hedgeBound.optional()])) as Record<(typeof hedgeInstruments)[number], z.ZodOptional<typeof hedgeBound>>)
          .optional()
          .describe(`Per instrument, {min, max} of its hedge ratio; an instrument left out gets {min: ${defaultBound.min}, max: ${defaultBound.max}}`),
      }),
    },
    response: z.object({
      ...stored('portfolio_hedge'),
      asOf: z.string(),
      window: sampleWindow,
      model: models,
      modelReason: z.string(),
      weightBasis: z.string(),
      objective: z.string(),
      portfolio: exposures.describe('The portfolio\'s own factor model over the window'),
      instruments: z.array(
        z.object({
          instrument: hedgeInstrument,
          ratio: z.number().describe('h_j: a position worth h_j × the portfolio\'s value (negative sells)'),
          bounds: z.object({ min: z.number(), max: z.number() }),
          atBound: z.boolean().describe('The ratio is at its min or its max'),
          boundHit: z.enum(['min', 'max']).nullable(),
          exposures: exposures.describe('The instrument\'s factor model over the window: betas B_j, R², residual volatility'),
        }),
      ),
      exposures: z.object({ before: z.record(z.string(), z.number()).describe('b, per factor'), after: z.record(z.string(), z.number()).describe('b + Σ_j h_j B_j, per factor') }),
      residualFactorRisk: z.object({ before: risk, after: risk, reduction: z.number().describe('1 − after / before, of the variance') }),
      grossHedge: z.number().describe('Σ_j |h_j|'),
      explanation: z.string(),
      candidates: z
        .array(
          z.object({
            rank: z.number().int(),
            instrument: hedgeInstrument,
            ratio: z.number().describe('The instrument\'s own minimiser, clamped to its bounds'),
            unconstrainedRatio: z.number().nullable().describe('−(B_jᵀ F b)/(B_jᵀ F B_j); null when the instrument has no factor variance'),
            atBound: z.boolean(),
            exposuresAfter: z.record(z.string(), z.number()),
            residual: risk,
            reduction: z.number().describe('1 − residual / before, of the variance'),
          }),
        )
        .describe('Single-instrument hedges, the lowest residual factor variance first'),
      factorCovariance: z.object({ factors: z.array(z.string()), annualized: z.array(z.array(z.number())).describe('F × 252, rows and columns in the order of `factors`') }),
      requestId: z.string(),
    }),
    errors: ['validation_error'],
    operation: PortfolioHedgeDocument,
    variables: ({ body }) => ({
      holdings: body.holdings,
      asOf: body.asOf ?? null,
      lookbackDays: body.lookbackDays,
      model: body.model ?? null,
      instruments: body.instruments ?? null,
      bounds: body.bounds ? Object.entries(body.bounds).flatMap(([instrument, b]) => (b ? [{ instrument, min: b.min, max: b.max }] : [])) : null,
    }),
  }).reshape(({ portfolioHedge }, meta) => asStored('portfolio_hedge', portfolioHedge, meta)),
  operationRoute({
    name: 'portfolio_stress_scenarios',
    method: 'GET',
    path: '/v1/portfolio/stress-test/scenarios',
    summary: 'The stress-test scenario catalog',
    description:
      'Every scenario POST /v1/portfolio/stress-test can run, by `id`. `historical` scenarios are windows of real dates (`window`, inclusive): gfc_2008, lehman_2008, covid_2020 and rates_2022. `hypothetical` scenarios are instantaneous factor shocks (`shocks`: per Fama-French factor, its return as a fraction): ' +
      'market_down_20, rates_up_100bp, value_rotation, small_cap_selloff and quality_flight. The shocks are stylised, chosen by judgment rather than estimated, and each `description` says what they stand for. Computes nothing.',
    tag: 'Portfolio analytics',
    access: 'org',
    meter: 'platform',
    mcp: true,
    response: z.object({ object: z.literal('stress_scenario_catalog'), data: z.array(scenarioEntry), requestId: z.string() }),
    operation: StressScenariosDocument,
  }).reshape(({ stressScenarios }, meta) => ({ object: 'stress_scenario_catalog', data: stressScenarios as z.input<typeof scenarioEntry>[], ...meta })),
  operationRoute({
    name: 'portfolio_stress_test',
    method: 'POST',
    path: '/v1/portfolio/stress-test',
    summary: 'A portfolio\'s return under historical and hypothetical stress scenarios',
    description:
      'Runs each scenario of `scenarios` (ids of GET /v1/portfolio/stress-test/scenarios) on the holdings. ' +
      'Exposures: each holding\'s betas (`exposures`) of its OLS with intercept of daily excess returns on the model\'s factors over the estimation `window`: the `lookbackDays` (default 252) most recent dates on or before `asOf` on which every holding has a close on that date and on its previous row and every factor of the model has a value (the rule of POST /v1/portfolio/analyze). ' +
      modelRule.replace('the window', 'the estimation window') +
      'Historical scenario: where the holding\'s price file covers the window (a close on or before its start, and a row on or after its end), its return is buy and hold, close(latest row on or before `to`) / close(latest row on or before `from`) − 1 on the file\'s adjusted closes, `method: buy_and_hold` with the two dates used as `from` and `to`; ' +
      'otherwise it is factor-implied, Σ_k β_k × (Π_t (1 + f_k,t) − 1) over the dates after the window\'s start up to its end on which every factor of the model has a value (the span buy and hold covers), `method: factor_implied`; the scenario then states those compounded `factorReturns` and `factorDays`. Factor-implied returns leave out alpha and the risk-free rate. ' +
      'Hypothetical scenario: Σ_k β_k × shock_k, `method: factor_shock`; a shocked factor the model lacks contributes 0 and is listed in `notModelled`. ' +
      'The portfolio\'s return is Σ_i w_i × return_i (weights scaled to add up to 1, or share counts valued at the close of the estimation window\'s last date). ' +
      'Every answer is kept as an artifact (`artifactId`, kind `portfolio_stress_test`). An unknown scenario id is 400 `validation_error` naming `scenarios[i]`; empty `scenarios` or holdings, an unknown ticker or a date outside the data is 400 naming the field.',
    tag: 'Portfolio analytics',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    params: {
      body: z.strictObject({
        holdings,
        scenarios: z.array(z.string().min(1).max(64)).min(1).max(50).describe('Scenario ids (GET /v1/portfolio/stress-test/scenarios)'),
        asOf: dateParam('The last date of the exposure estimation window at the latest'),
        lookbackDays: lookbackDays('the exposure estimation window'),
        model: models.optional(),
      }),
    },
    response: z.object({
      ...stored('portfolio_stress_test'),
      asOf: z.string(),
      window: sampleWindow.describe('The exposure estimation window'),
      model: models,
      modelReason: z.string(),
      weightBasis: z.string(),
      exposures: z.array(z.object({ ticker: z.string(), weight: z.number(), betas: z.record(z.string(), z.number()).describe('Per factor of the model') })),
      scenarios: z.array(
        z.object({
          id: z.string(),
          kind: z.enum(['historical', 'hypothetical']),
          title: z.string(),
          window: z.object({ from: z.string(), to: z.string() }).optional(),
          shocks: z.record(z.string(), z.number()).optional(),
          notModelled: z.array(z.string()).optional().describe('Shocked factors the model lacks: they contribute 0'),
          factorReturns: z.record(z.string(), z.number()).optional().describe('Historical, when a holding is factor-implied: each factor\'s compounded return over the window'),
          factorDays: z.number().int().optional(),
          portfolioReturn: z.number().describe('Σ_i w_i × return_i'),
          holdings: z.array(z.object({ ticker: z.string(), weight: z.number(), return: z.number(), method: stressMethod, from: z.string().optional().describe('buy_and_hold: the date of the first close'), to: z.string().optional().describe('buy_and_hold: the date of the last close') })),
        }),
      ),
      requestId: z.string(),
    }),
    errors: ['validation_error'],
    operation: PortfolioStressTestDocument,
    variables: ({ body }) => ({ holdings: body.holdings, scenarios: body.scenarios, asOf: body.asOf ?? null, lookbackDays: body.lookbackDays, model: body.model ?? null }),
  }).reshape(({ portfolioStressTest }, meta) => asStored('portfolio_stress_test', portfolioStressTest, meta)),
];
