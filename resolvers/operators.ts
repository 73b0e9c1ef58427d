// What the service's operators do across organizations: find one, see its plan, billing, credit,
// usage and members, change its plan or credit, suspend it, and read how the ingest went. An
// operator is a person (`ids operators:create`), in any organization or none; every action on an
// organization is written to that organization's audit log with the operator as its actor.
import { ApiError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { Prisma } from '../prisma/generated/client/client.ts';
import type { Db, PrismaClient } from '../prisma/db.ts';
import { publishAll } from '../subscriptions/events.ts';
import { actorOf, recordAudit, type AuditActor } from './accounts/audit.ts';
import { normalizedEmail } from './accounts/people.ts';
import { adjustCredits, setPlan } from './billing/account.ts';
import type { Context } from './context.ts';
import { assertCapabilities } from './roles.ts';

/** Makes the person (created if new) an operator; answers their user id. */
export async function createOperator(prisma: Db, rawEmail: string) {
  const email = normalizedEmail(rawEmail);
  return prisma.user.upsert({ where: { email }, create: { id: newId('usr'), email, isOperator: true }, update: { isOperator: true } });
}

/** The operator making this request, as the audit log names them. */
export function operatorActor(ctx: Context): AuditActor {
  assertCapabilities(ctx.principal, ['operator']);
  return { ...actorOf(ctx.principal), type: 'operator' };
}

/** Organizations whose id is `q`, whose name contains it, or that have a member whose address contains it. */
export function organizationSearch(q: string | null | undefined): Prisma.OrganizationWhereInput {
  const text = q?.trim();
  if (!text) return {};
  return {
    OR: [
      { id: text },
      { name: { contains: text, mode: 'insensitive' } },
      { memberships: { some: { user: { email: { contains: text.toLowerCase() } } } } },
    ],
  };
}

export async function operatorOrganization(ctx: Context, orgId: string) {
  operatorActor(ctx);
  const org = await ctx.prisma.organization.findUnique({ where: { id: orgId } });
  if (!org) throw new ApiError('organization_not_found', `No organization ${orgId}.`);
  return org;
}

export interface UsageWindow {
  since: Date;
  requests: number;
  errors: number;
  byMeterClass: { meterClass: string; requests: number; units: number }[];
}

/** Requests the organization made since `since`, from the request records (IDS_REQUEST_RECORDS). */
export async function organizationUsage(prisma: PrismaClient, orgId: string, since: Date): Promise<UsageWindow> {
  const where = { orgId, createdAt: { gte: since } };
  const [groups, errors] = await Promise.all([
    prisma.requestRecord.groupBy({ by: ['meterClass'], where, _count: { _all: true }, _sum: { cost: true } }),
    prisma.requestRecord.count({ where: { ...where, status: { gte: 400 } } }),
  ]);
  const byMeterClass = groups
    .map((g) => ({ meterClass: g.meterClass ?? 'none', requests: g._count._all, units: g._sum.cost ?? 0 }))
    .sort((a, b) => b.requests - a.requests || a.meterClass.localeCompare(b.meterClass));
  return { since, requests: byMeterClass.reduce((n, g) => n + g.requests, 0), errors, byMeterClass };
}

export async function creditBalanceMillicents(prisma: PrismaClient, orgId: string): Promise<bigint> {
  return (await prisma.billingAccount.findUnique({ where: { orgId }, select: { balanceMillicents: true } }))?.balanceMillicents ?? 0n;
}

export async function operatorSetPlan(ctx: Context, orgId: string, planKey: string, billingState?: string | null) {
  const actor = operatorActor(ctx);
  await operatorOrganization(ctx, orgId);
  await setPlan(ctx, orgId, planKey, billingState ?? undefined, { ctx, actor });
  ctx.cache.forgetOrg(orgId); // other instances forget it when the audit event reaches them
  return operatorOrganization(ctx, orgId);
}

export async function operatorAdjustCredits(ctx: Context, orgId: string, amountCents: number, reason: string) {
  const actor = operatorActor(ctx);
  await operatorOrganization(ctx, orgId);
  // credit an instance set aside but has not spent is counted before the balance is judged
  await ctx.admission.giveBack(orgId);
  return adjustCredits(ctx, orgId, amountCents, reason, { ctx, actor });
}

/**
 * Suspends an organization: from the next request its API keys and its members' sessions in it
 * are refused (403 organization_suspended) on every instance, through the audit event that drops
 * what the request caches hold. Suspending it again changes nothing.
 */
export async function suspendOrganization(ctx: Context, orgId: string, reason: string) {
  const actor = operatorActor(ctx);
  return changeSuspension(ctx, orgId, actor, reason);
}

export async function unsuspendOrganization(ctx: Context, orgId: string) {
  const actor = operatorActor(ctx);
  return changeSuspension(ctx, orgId, actor, null);
}

async function changeSuspension(ctx: Context, orgId: string, actor: AuditActor, reason: string | null) {
  const { org, events } = await ctx.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ suspendedAt: Date | null }[]>`SELECT "suspendedAt" FROM "Organization" WHERE "id" = ${orgId} FOR UPDATE`;
    if (!row) throw new ApiError('organization_not_found', `No organization ${orgId}.`);
    if ((reason !== null) === (row.suspendedAt !== null)) return { org: await tx.organization.findUniqueOrThrow({ where: { id: orgId } }), events: [] };
    const org = await tx.organization.update({ where: { id: orgId }, data: reason !== null ? { suspendedAt: new Date(), suspendedReason: reason } : { suspendedAt: null, suspendedReason: null } });
    const event = await recordAudit(tx, ctx, orgId, reason !== null ? 'organization.suspended' : 'organization.unsuspended', { type: 'organization', id: orgId }, reason !== null ? { reason } : {}, actor);
    return { org, events: [event] };
  });
  ctx.cache.forgetOrg(orgId);
  await publishAll(ctx.bus, events);
  return org;
}

/** The items the ingest could not load (failed) or loaded with parts left out (partial): `ingest:failures` and its route. */
export const ingestFailureWhere: Prisma.IngestItemWhereInput = { status: { in: ['failed', 'partial'] } };
export const ingestFailureOrder: Prisma.IngestItemOrderByWithRelationInput[] = [{ status: 'asc' }, { sourceKey: 'asc' }];
