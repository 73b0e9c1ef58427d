// Saved portfolio strategies and their backtests (each backtest kept as an artifact, as every
// portfolio analytics result is: schema/portfolio.ts keep).
import { readScope, requireOrg } from '../resolvers/access.ts';
import { backtestCurves, backtestStrategy, type BacktestCurve } from '../resolvers/analytics/backtest.ts';
import { invalid } from '../resolvers/analytics/window.ts';
import { parseDefinition, type StrategyDefinition } from '../resolvers/strategies/definition.ts';
import { createStrategy, deleteStrategy, ownStrategy, updateStrategy } from '../resolvers/strategies/strategies.ts';
import { builder } from './builder.ts';
import { keep, storedResult } from './portfolio.ts';

const Strategy = builder.prismaObject('Strategy', {
  description: 'A saved portfolio strategy: holdings or a factor-tilt rule, a rebalance schedule and constraints.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `stg_…`' }),
    name: t.exposeString('name', { description: 'Unique in the organization' }),
    description: t.exposeString('description', { nullable: true }),
    kind: t.exposeString('kind', { description: 'holdings or factor_tilt' }),
    definition: t.expose('definition', { type: 'JSON', description: 'As POST /v1/strategies documents it, defaults filled in' }),
    version: t.exposeInt('version', { description: '1 when created, one more at each change; a backtest names the version it ran' }),
    createdBy: t.exposeString('createdBy', { description: 'The person (`usr_…`) or API key (`key_…`) that made it' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const BacktestResult = storedResult('StrategyBacktest', 'A strategy\'s backtest over the prices and factor returns held', '/v1/strategies/{strategy_id}/backtest');

/** A name as saved: trimmed, and not empty. */
function nameOf(value: string): string {
  const name = value.trim();
  if (!name || name.length > 200) throw invalid('name', 'give a name of 1 to 200 characters');
  return name;
}

builder.queryFields((t) => ({
  strategies: t.prismaConnection({
    type: Strategy,
    cursor: 'id',
    description: 'The organization\'s strategies, newest first.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _root, _args, ctx) => ctx.prisma.strategy.findMany({ ...query, where: { orgId: requireOrg(ctx) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
  strategy: t.prismaField({
    type: Strategy,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => ctx.prisma.strategy.findUniqueOrThrow({ ...query, where: { id: (await ownStrategy(ctx, id)).id } }),
  }),
}));

builder.mutationFields((t) => ({
  createStrategy: t.prismaField({
    type: Strategy,
    args: { name: t.arg.string({ required: true }), description: t.arg.string(), definition: t.arg({ type: 'JSON', required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const created = await createStrategy(ctx, { name: nameOf(args.name), description: args.description ?? null, definition: parseDefinition(args.definition) });
      return ctx.prisma.strategy.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
  updateStrategy: t.prismaField({
    type: Strategy,
    description: 'Changes what is given (a null description clears it) and makes the next version.',
    args: { id: t.arg.string({ required: true }), name: t.arg.string(), description: t.arg.string(), definition: t.arg({ type: 'JSON' }) },
    resolve: async (query, _root, args, ctx) => {
      const input: { name?: string; description?: string | null; definition?: StrategyDefinition } = {};
      if (args.name != null) input.name = nameOf(args.name);
      if (args.description !== undefined) input.description = args.description;
      if (args.definition != null) input.definition = parseDefinition(args.definition);
      const updated = await updateStrategy(ctx, args.id, input);
      return ctx.prisma.strategy.findUniqueOrThrow({ ...query, where: { id: updated.id } });
    },
  }),
  deleteStrategy: t.prismaField({
    type: Strategy,
    description: 'Deletes the strategy and answers it as it was; its backtests\' artifacts are kept.',
    args: { id: t.arg.string({ required: true }) },
    // the row is gone after the delete: answered from what was read before it
    resolve: async (_query, _root, { id }, ctx) => deleteStrategy(ctx, id),
  }),
  backtestStrategy: t.field({
    extensions: readScope,
    type: BacktestResult,
    args: {
      id: t.arg.string({ required: true }),
      start: t.arg({ type: 'Date', description: 'First date of the span at the earliest; default the first date the strategy can run' }),
      end: t.arg({ type: 'Date', description: 'Last date of the span at the latest; default the last date with every price and factor' }),
      initialValue: t.arg.float({ defaultValue: 10000 }),
      curve: t.arg.string({ defaultValue: 'daily', description: backtestCurves.join(' or ') }),
    },
    resolve: async (_root, args, ctx) => {
      const strategy = await ownStrategy(ctx, args.id);
      const curve = args.curve ?? 'daily';
      if (!(backtestCurves as readonly string[]).includes(curve)) throw invalid('curve', `must be one of ${backtestCurves.join(', ')}`, { acceptedValues: [...backtestCurves] });
      const initialValue = args.initialValue ?? 10000;
      if (!(initialValue > 0) || initialValue > 1e15) throw invalid('initialValue', 'must be a positive amount up to 1e15');
      const definition = parseDefinition(strategy.definition);
      const input = { start: args.start ?? undefined, end: args.end ?? undefined, initialValue, curve: curve as BacktestCurve };
      const { sources, result } = await backtestStrategy(ctx, definition, input);
      const cited = {
        strategy: { id: strategy.id, name: strategy.name, kind: strategy.kind, version: strategy.version, definition },
        ...result,
        sources: sources.map((s) => ({ sourceKey: s.sourceKey, kind: s.kind, subject: s.subject, vintage: s.vintage ?? null, vintageNote: s.vintageNote, firstDate: s.firstDate?.toISOString().slice(0, 10) ?? null, lastDate: s.lastDate?.toISOString().slice(0, 10) ?? null })),
      };
      const request = { strategyId: strategy.id, version: strategy.version, definition, ...input };
      const window = { from: result.span.from, to: result.span.to, days: result.span.days };
      return keep(ctx, { kind: 'strategy_backtest', route: `/v1/strategies/${strategy.id}/backtest`, title: `Backtest of ${strategy.name} (version ${strategy.version}), ${window.from} to ${window.to}`, request, window }, { sources, result: cited });
    },
  }),
}));
