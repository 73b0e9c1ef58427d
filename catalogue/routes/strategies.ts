// Saved portfolio strategies and their deterministic backtests over the prices and factor returns
// held; each backtest is kept as an artifact (GET /v1/artifacts/{artifact_id}, kind strategy_backtest).
import { z } from 'zod';
import { BacktestStrategyDocument, CreateStrategyDocument, DeleteStrategyDocument, StrategiesDocument, StrategyDocument, UpdateStrategyDocument, type StrategyFieldsFragment } from '../operations/generated.ts';
import { backtestCurves, backtestMethod } from '../../resolvers/analytics/backtest.ts';
import { rebalanceSchedules, strategyDefinition, strategyKinds } from '../../resolvers/strategies/definition.ts';
import { dateParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';
import { asStored, exposures, stored } from './portfolio.ts';

const what =
  'A strategy is saved as `{name, description?, definition}`. `definition` is `{kind: "holdings", holdings: [{ticker, weight}], rebalance?, constraints?}` (a target portfolio) or ' +
  '`{kind: "factor_tilt", universe: [ticker], tilts: {factor: tilt}, select, lookbackDays?, model?, rebalance?, constraints?}` (at each rebalance, the `select` tickers of the universe with the highest Σ tilt × beta, equally weighted). ' +
  `\`rebalance\`: ${rebalanceSchedules.join(', ')} (default monthly). \`constraints\`: \`maxWeight\` (default 1), \`minHoldings\` (default 1), \`longOnly\` (always true: the borrow costs of a short position are not held). ` +
  'Every ticker must have prices held (GET /v1/market/sources), or the definition is 400 `validation_error` naming it; so are a ticker listed twice, a tilt on a factor outside the model, `select` above the universe, and constraints no portfolio of the strategy can meet. ' +
  'Names are unique in the organization (`409 strategy_name_taken`). Each change makes a new `version`; a backtest names the version it ran. Another organization\'s strategy id is `404 strategy_not_found`, the same as an id that names none. ' +
  'Reading is for every member; creating, changing and deleting for the roles that manage integrations (owner, admin, developer) and for keys of the organization scope.';

const strategyId = z.string().regex(/^stg_[0-9A-Za-z]{24}$/, 'expected a strategy id, stg_ and 24 letters or digits');
const strategyPath = z.strictObject({ strategy_id: strategyId });
const name = z.string().trim().min(1).max(200).describe('Unique in the organization');
const description = z.string().max(2000);

const strategy = z.object({
  object: z.literal('strategy'),
  id: z.string().describe('`stg_…`'),
  name: z.string(),
  description: z.string().nullable(),
  kind: z.enum(strategyKinds),
  definition: z.record(z.string(), z.unknown()).describe('As saved, defaults filled in'),
  version: z.number().int().describe('1 when created, one more at each change'),
  createdBy: z.string().describe('The person (`usr_…`) or API key (`key_…`) that made it'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

type StrategyBody = z.input<typeof strategy>;
const toStrategy = (s: StrategyFieldsFragment): StrategyBody => ({
  object: 'strategy',
  id: s.id,
  name: s.name,
  description: s.description ?? null,
  kind: s.kind as StrategyBody['kind'],
  definition: s.definition as Record<string, unknown>,
  version: s.version,
  createdBy: s.createdBy,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

const source = z.object({
  sourceKey: z.string().describe('The market file, e.g. market/prices/AAPL.daily.csv'),
  kind: z.string(),
  subject: z.string().describe('A ticker or a factor dataset'),
  vintage: z.string().nullable().describe('The vintage the file states; null when it states none, and `vintageNote` says why'),
  vintageNote: z.string(),
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
});
const weightChange = z.object({ ticker: z.string(), before: z.number().describe('Drifted weight before the rebalance (0 from cash)'), after: z.number().describe('Target weight') });
const reason = z.object({ code: z.string(), message: z.string() });

const common = { tag: 'Strategies', access: 'org' as const, meter: 'platform', mcp: true };

export const strategyRoutes = [
  operationRoute({
    name: 'strategies_list',
    method: 'GET',
    path: '/v1/strategies',
    summary: 'List the organization\'s saved strategies, newest first',
    description: what,
    ...common,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(strategy),
    operation: StrategiesDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ strategies: page }, meta) => ({
    object: 'list',
    data: page.nodes.map(toStrategy),
    hasMore: page.pageInfo.hasNextPage,
    nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
    ...meta,
  })),
  operationRoute({
    name: 'strategies_create',
    method: 'POST',
    path: '/v1/strategies',
    summary: 'Save a strategy: holdings or a factor-tilt rule, a rebalance schedule and constraints',
    description: what,
    ...common,
    params: { body: z.strictObject({ name, description: description.optional(), definition: strategyDefinition }) },
    response: strategy.extend({ requestId: z.string() }),
    errors: ['strategy_name_taken'],
    operation: CreateStrategyDocument,
    variables: ({ body }) => ({ name: body.name, description: body.description ?? null, definition: body.definition }),
  }).reshape(({ createStrategy: s }, meta) => ({ ...toStrategy(s), ...meta })),
  operationRoute({
    name: 'strategies_get',
    method: 'GET',
    path: '/v1/strategies/{strategy_id}',
    summary: 'Retrieve a strategy',
    description: what,
    ...common,
    params: { path: strategyPath, query: z.strictObject({ view: viewParam }) },
    response: strategy.extend({ requestId: z.string() }),
    errors: ['strategy_not_found'],
    operation: StrategyDocument,
    variables: ({ path }) => ({ id: path.strategy_id }),
  }).reshape(({ strategy: s }, meta) => ({ ...toStrategy(s), ...meta })),
  operationRoute({
    name: 'strategies_update',
    method: 'PATCH',
    path: '/v1/strategies/{strategy_id}',
    summary: 'Change a strategy\'s name, description or definition, making its next version',
    description: `${what} Give any of \`name\`, \`description\` (null clears it) and \`definition\` (replaced whole); an empty body is 400 \`validation_error\`. Every change adds 1 to \`version\`.`,
    ...common,
    params: { path: strategyPath, body: z.strictObject({ name: name.optional(), description: description.nullable().optional(), definition: strategyDefinition.optional() }) },
    response: strategy.extend({ requestId: z.string() }),
    errors: ['strategy_not_found', 'strategy_name_taken'],
    operation: UpdateStrategyDocument,
    variables: ({ path, body }) => ({ id: path.strategy_id, name: body.name ?? null, definition: body.definition ?? null, ...(body.description !== undefined ? { description: body.description } : {}) }),
  }).reshape(({ updateStrategy: s }, meta) => ({ ...toStrategy(s), ...meta })),
  operationRoute({
    name: 'strategies_delete',
    method: 'DELETE',
    path: '/v1/strategies/{strategy_id}',
    summary: 'Delete a strategy (its backtests\' artifacts are kept)',
    description: 'Answers the strategy as it was. Deleting it again is 404 `strategy_not_found`.',
    ...common,
    params: { path: strategyPath },
    response: strategy.extend({ requestId: z.string() }),
    errors: ['strategy_not_found'],
    operation: DeleteStrategyDocument,
    variables: ({ path }) => ({ id: path.strategy_id }),
  }).reshape(({ deleteStrategy: s }, meta) => ({ ...toStrategy(s), ...meta })),
  operationRoute({
    name: 'strategies_backtest',
    method: 'POST',
    path: '/v1/strategies/{strategy_id}/backtest',
    summary: 'Backtest a saved strategy over the prices and factor returns held: returns, drawdown, turnover and factor exposures over time',
    description:
      'The dates are those of the portfolio analytics\' window rule over every ticker the strategy may hold: a date on which each has a close (and one on its previous row) and every factor of the model has a value, from `start` to `end` (inclusive, defaults the first and last such dates; a factor tilt first needs `lookbackDays` of them for its betas). ' +
      'The model is the factor tilt\'s own; for holdings the portfolio analytics\' default (ff5_mom where daily momentum covers the span, else ff5), stated in `modelReason`. ' +
      backtestMethod +
      ' The answer names the strategy `version` it ran and cites the market files read (`sources`, with their vintages; also the artifact\'s manifest). Every answer is kept as an artifact (`artifactId`, kind `strategy_backtest`, listed by GET /v1/artifacts); the same request on the same version and data gives the same `contentHash`. ' +
      'A `start` after `end`, a span without two dates, or a `start` too early for the first betas is 400 `validation_error` naming it.',
    tag: 'Strategies',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    params: {
      path: strategyPath,
      // an absent body is {} (catalogue/params.ts): every field has a default
      body: z.strictObject({
        start: dateParam('First date of the span at the earliest'),
        end: dateParam('Last date of the span at the latest'),
        initialValue: z.number().finite().positive().max(1e15).default(10000).describe('The value invested at the close of the first date (default 10,000)'),
        curve: z.enum(backtestCurves).default('daily').describe('The equity curve\'s points: every date (`daily`, default) or each month\'s last date and the span\'s first (`monthly`)'),
      }),
    },
    response: z.object({
      ...stored('strategy_backtest'),
      strategy: z.object({ id: z.string(), name: z.string(), kind: z.enum(strategyKinds), version: z.number().int().describe('The version it ran'), definition: z.record(z.string(), z.unknown()) }),
      span: z.object({ from: z.string(), to: z.string(), days: z.number().int().describe('Dates, the first included'), returns: z.number().int().describe('Daily returns: days − 1') }),
      model: z.enum(['ff3', 'ff5', 'ff5_mom']),
      modelReason: z.string(),
      initialValue: z.number(),
      finalValue: z.number(),
      performance: z.object({
        totalReturn: z.number(),
        annualizedReturn: z.number(),
        riskFreeReturn: z.number().describe('Π (1 + RF_t) − 1 over the span'),
        volatility: z.object({ daily: z.number(), annualized: z.number() }).nullable(),
        sharpeRatio: z.number().nullable(),
        reason: z.string().nullable().describe('Why volatility or the Sharpe ratio is null'),
      }),
      maxDrawdown: z.object({
        value: z.number().describe('The lowest V_t / running peak − 1 (0 or negative)'),
        peakDate: z.string().nullable(),
        troughDate: z.string().nullable(),
        recoveryDate: z.string().nullable().describe('The first date back at the peak\'s value'),
        recovered: z.boolean().nullable(),
        reason: z.string().nullable().describe('Why a date is null'),
      }),
      turnover: z.object({ rebalances: z.number().int(), total: z.number(), annualized: z.number(), note: z.string() }),
      rebalances: z.array(
        z.object({
          date: z.string().describe('At its close'),
          initial: z.boolean(),
          turnover: z.number().describe('½ Σ |after − before|; 1 for the first'),
          weights: z.array(weightChange),
          selection: z
            .array(z.object({ ticker: z.string(), score: z.number(), betas: z.record(z.string(), z.number()), selected: z.boolean() }))
            .optional()
            .describe('factor_tilt: every universe ticker\'s betas over the lookback ending on the date, its score and whether it was held'),
        }),
      ),
      exposures: z.array(
        z.object({
          from: z.string(),
          to: z.string(),
          days: z.number().int(),
          afterRebalance: z.string().nullable().describe('The rebalance the period follows; null for a strategy that never rebalances (calendar quarters)'),
          exposures: exposures.nullable(),
          reason: reason.nullable().describe('Why `exposures` is null: the regression\'s refusal'),
        }),
      ),
      curve: z.object({ frequency: z.enum(backtestCurves), points: z.array(z.object({ date: z.string(), value: z.number(), drawdown: z.number() })) }),
      method: z.string(),
      sources: z.array(source),
      requestId: z.string(),
    }),
    errors: ['strategy_not_found', 'validation_error'],
    operation: BacktestStrategyDocument,
    variables: ({ path, body }) => ({ id: path.strategy_id, start: body.start ?? null, end: body.end ?? null, initialValue: body.initialValue, curve: body.curve }),
  }).reshape(({ backtestStrategy }, meta) => asStored('strategy_backtest', backtestStrategy, meta)),
];
