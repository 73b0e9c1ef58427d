// Saved portfolio strategies of an organization: made, changed (each change a new version),
// deleted, and backtested. Another organization's strategy is not found, the same as none.
import type { Prisma, Strategy } from '../../prisma/generated/client/client.ts';
import { ApiError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { requireOrg } from '../access.ts';
import type { Context } from '../context.ts';
import { marketFiles } from '../analytics/window.ts';
import { strategyTickers } from '../analytics/backtest.ts';
import type { StrategyDefinition } from './definition.ts';

export async function ownStrategy(ctx: Context, id: string): Promise<Strategy> {
  const strategy = await ctx.prisma.strategy.findFirst({ where: { id, orgId: requireOrg(ctx) } });
  if (!strategy) throw new ApiError('strategy_not_found', `No strategy ${id} in this organization.`);
  return strategy;
}

/** Every ticker of the definition must have prices held: refused when saved, not at its first backtest. */
async function checkHeld(ctx: Context, definition: StrategyDefinition): Promise<void> {
  const held = new Set((await marketFiles(ctx)).filter((f) => f.kind === 'market_prices').map((f) => f.subject.toUpperCase()));
  const field = definition.kind === 'holdings' ? (i: number) => `definition.holdings.${i}.ticker` : (i: number) => `definition.universe.${i}`;
  const issues = strategyTickers(definition).flatMap((ticker, i) => (held.has(ticker) ? [] : [{ path: field(i), message: `no prices of ${ticker} are held`, code: 'invalid_value' }]));
  if (issues.length) throw new ApiError('validation_error', `${issues[0]!.path}: ${issues[0]!.message}`, { details: { issues, acceptedValues: [...held].sort() } });
}

const nameTaken = (name: string) => new ApiError('strategy_name_taken', `This organization already has a strategy named ${JSON.stringify(name)}.`, { details: { parameter: 'name' }, hint: 'Choose another name, or change that strategy (PATCH /v1/strategies/{strategy_id}).' });
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === 'P2002';

/** Who made it: the person of a session, else the API key. */
function creator(ctx: Context): string {
  const p = ctx.principal!;
  return p.kind === 'session' ? p.userId : p.apiKeyId;
}

export async function createStrategy(ctx: Context, input: { name: string; description: string | null; definition: StrategyDefinition }): Promise<Strategy> {
  const orgId = requireOrg(ctx);
  await checkHeld(ctx, input.definition);
  try {
    return await ctx.prisma.strategy.create({
      data: { id: newId('stg'), orgId, name: input.name, description: input.description, kind: input.definition.kind, definition: input.definition as unknown as Prisma.InputJsonObject, createdBy: creator(ctx) },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function updateStrategy(ctx: Context, id: string, input: { name?: string; description?: string | null; definition?: StrategyDefinition }): Promise<Strategy> {
  const existing = await ownStrategy(ctx, id);
  if (input.name === undefined && input.description === undefined && input.definition === undefined) {
    throw new ApiError('validation_error', '(body): give name, description or definition to change', { details: { issues: [{ path: '(body)', message: 'give name, description or definition to change', code: 'custom' }] } });
  }
  if (input.definition) await checkHeld(ctx, input.definition);
  try {
    return await ctx.prisma.strategy.update({
      where: { id: existing.id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.definition ? { kind: input.definition.kind, definition: input.definition as unknown as Prisma.InputJsonObject } : {}),
        version: { increment: 1 },
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name!);
    throw error;
  }
}

export async function deleteStrategy(ctx: Context, id: string): Promise<Strategy> {
  const existing = await ownStrategy(ctx, id);
  await ctx.prisma.strategy.delete({ where: { id: existing.id } });
  return existing;
}
