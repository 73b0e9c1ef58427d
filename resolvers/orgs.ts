// Organizations, their members and their effective quotas.
import type { Db, PrismaClient } from '../prisma/db.ts';
import type { Period } from '../core/limiter.ts';
import { newId } from '../core/ids.ts';
import type { Role } from './roles.ts';

export const starterPlanKey = 'sandbox_grant';

export async function createOrganization(prisma: Db, name: string, options: { isDemo?: boolean; planKey?: string } = {}) {
  const planKey = options.planKey ?? starterPlanKey;
  return prisma.organization.create({
    data: { id: newId('org'), name, planKey, billingState: planKey === starterPlanKey ? 'sandbox_grant' : 'active', isDemo: options.isDemo ?? false },
  });
}

/** Makes the person (created if new) a member; an existing member keeps their role. */
export async function addMember(prisma: Db, orgId: string, email: string, role: Role) {
  const user = await prisma.user.upsert({ where: { email }, create: { id: newId('usr'), email }, update: {} });
  await prisma.membership.upsert({ where: { userId_orgId: { userId: user.id, orgId } }, create: { userId: user.id, orgId, role }, update: {} });
  return user;
}

export interface EffectiveQuota {
  meterClass: string;
  period: Period;
  limit: number;
  allowed: boolean;
  planKey: string;
  billingState: string;
  failMode: 'open' | 'closed';
}

const periodOrder: Record<Period, number> = { minute: 0, hour: 1, day: 2, month: 3 };

/** The organization's plan quotas, each replaced by the organization's own where it has one. */
export async function effectiveQuotas(prisma: PrismaClient, orgId: string, meterClass?: string) {
  const org = await prisma.organization.findUnique({
    where: { id: orgId },
    include: {
      plan: { include: { quotas: { where: meterClass ? { meterClass } : {}, include: { meter: true } } } },
      quotas: { where: meterClass ? { meterClass } : {}, include: { meter: true } },
    },
  });
  if (!org) return null;
  const byWindow = new Map<string, EffectiveQuota>();
  for (const q of [...org.plan.quotas, ...org.quotas]) {
    byWindow.set(`${q.meterClass}:${q.period}`, {
      meterClass: q.meterClass,
      period: q.period,
      limit: q.limit,
      allowed: q.allowed,
      planKey: org.planKey,
      billingState: org.billingState,
      failMode: q.meter.failMode,
    });
  }
  const quotas = [...byWindow.values()].sort((a, b) => a.meterClass.localeCompare(b.meterClass) || periodOrder[a.period] - periodOrder[b.period]);
  return { org, quotas };
}

export type OrgQuotas = NonNullable<Awaited<ReturnType<typeof effectiveQuotas>>>;
