// What a saved strategy is: its holdings or its factor-tilt rule, its rebalance schedule and its
// constraints. One schema checks a definition at every door: the REST route documents it, and the
// GraphQL mutations (which take the definition as JSON) parse with it, so both refuse alike.
import { z } from 'zod';
import { ApiError } from '../../core/errors.ts';
import { models } from '../analytics/window.ts';

export const strategyKinds = ['holdings', 'factor_tilt'] as const;
export type StrategyKind = (typeof strategyKinds)[number];
export const rebalanceSchedules = ['monthly', 'quarterly', 'annually', 'none'] as const;
export type Rebalance = (typeof rebalanceSchedules)[number];

const ticker = z.string().min(1).max(12).describe('A ticker whose prices are held (GET /v1/market/sources)');
const factorNames = [...new Set(Object.values(models).flat())] as [string, ...string[]];

const constraints = z
  .strictObject({
    maxWeight: z.number().finite().gt(0).max(1).default(1).describe('No holding above this weight at a rebalance (default 1); the excess goes to the others in proportion to their weights'),
    minHoldings: z.number().int().min(1).max(50).default(1).describe('At least this many holdings at every rebalance (default 1)'),
    longOnly: z
      .literal(true)
      .default(true)
      .describe('Always true: backtests are long-only, since the borrow costs a short position pays are not held'),
  })
  .default({ maxWeight: 1, minHoldings: 1, longOnly: true });

const rebalance = z.enum(rebalanceSchedules).default('monthly').describe('Back to the target weights at the close of the last date of each month, quarter or year in the data (default monthly); `none`: bought once and held');

const holdingsDefinition = z.strictObject({
  kind: z.literal('holdings'),
  holdings: z
    .array(z.strictObject({ ticker, weight: z.number().finite().gt(0).describe('Target weight (scaled with the others to add up to 1)') }))
    .min(1)
    .max(50)
    .describe('The target portfolio: every ticker once'),
  rebalance,
  constraints,
});

const factorTiltDefinition = z.strictObject({
  kind: z.literal('factor_tilt'),
  universe: z.array(ticker).min(2).max(50).describe('The tickers it may hold: every one once'),
  tilts: z
    .partialRecord(z.enum(factorNames), z.number().finite().min(-10).max(10))
    .refine((t) => Object.values(t).some((v) => v !== 0), 'give at least one factor a non-zero tilt')
    .describe('Per factor, its weight in the score: score = Σ tilt_f × β_f (e.g. {"HML": 1, "Mkt-RF": -0.5}: value, low market beta)'),
  select: z.number().int().min(1).max(50).describe('How many of the highest-scoring tickers it holds, equally weighted'),
  lookbackDays: z.number().int().min(60).max(1260).default(252).describe('Dates of daily returns each rebalance estimates betas over, ending on the rebalance date (default 252)'),
  model: z.enum(['ff3', 'ff5', 'ff5_mom']).default('ff5').describe('The factor model of the betas and of the exposures (default ff5)'),
  rebalance,
  constraints,
});

export const strategyDefinition = z
  .discriminatedUnion('kind', [holdingsDefinition, factorTiltDefinition])
  .superRefine((d, ctx) => {
    const tickers = d.kind === 'holdings' ? d.holdings.map((h) => h.ticker.toUpperCase()) : d.universe.map((t) => t.toUpperCase());
    const seen = new Set<string>();
    tickers.forEach((t, i) => {
      if (seen.has(t)) ctx.addIssue({ code: 'custom', path: d.kind === 'holdings' ? ['holdings', i, 'ticker'] : ['universe', i], message: `${t} is listed twice` });
      seen.add(t);
    });
    const held = d.kind === 'holdings' ? d.holdings.length : d.select;
    if (d.kind === 'factor_tilt') {
      if (d.select > d.universe.length) ctx.addIssue({ code: 'custom', path: ['select'], message: `select (${d.select}) is more than the universe's ${d.universe.length} tickers` });
      const unknown = Object.keys(d.tilts).filter((f) => !(models[d.model] as readonly string[]).includes(f));
      if (unknown.length) ctx.addIssue({ code: 'custom', path: ['tilts'], message: `${unknown.join(', ')} not in model ${d.model} (${models[d.model].join(', ')})` });
    }
    if (held < d.constraints.minHoldings) ctx.addIssue({ code: 'custom', path: ['constraints', 'minHoldings'], message: `the strategy holds ${held}, fewer than minHoldings ${d.constraints.minHoldings}` });
    if (held * d.constraints.maxWeight < 1 - 1e-12) ctx.addIssue({ code: 'custom', path: ['constraints', 'maxWeight'], message: `${held} holdings of at most ${d.constraints.maxWeight} cannot add up to 1` });
  })
  .describe('{kind: "holdings", holdings, rebalance?, constraints?} or {kind: "factor_tilt", universe, tilts, select, lookbackDays?, model?, rebalance?, constraints?}');

export type StrategyDefinition = z.output<typeof strategyDefinition>;

/**
 * A definition as the GraphQL door receives it (JSON), checked by the same schema as the REST
 * route's body: the same 400 `validation_error`, its issues' paths under `definition`.
 */
export function parseDefinition(value: unknown): StrategyDefinition {
  const parsed = strategyDefinition.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: ['definition', ...i.path].join('.'), message: i.message, code: i.code }));
  throw new ApiError('validation_error', `${issues[0]!.path}: ${issues[0]!.message}`, { details: { issues } });
}
