// The public pricing catalog and the browser payment configuration (SPEC 2.3, 2.4).
import type { PrismaClient } from '../../prisma/db.ts';
import type { Config } from '../../core/config.ts';
import { starterPlanKey } from '../orgs.ts';

export const pricingCatalogVersion = '2026-11-01';

export const starterGrant = {
  planKey: starterPlanKey,
  billingState: 'sandbox_grant',
  calls: 1000,
  renewable: true,
  period: 'rolling_30_days',
  overflowPlanKey: 'payg',
  note: 'Free calls for evaluation. Re-grant once per rolling 30 days with POST /v1/billing/grant/reset; past the grant, usage moves to pay-as-you-go credits.',
} as const;

export async function pricingCatalog(prisma: PrismaClient) {
  const [plans, meters] = await Promise.all([
    prisma.plan.findMany({ orderBy: { sortOrder: 'asc' }, include: { quotas: { orderBy: [{ meterClass: 'asc' }] } } }),
    prisma.meterClass.findMany({ orderBy: { key: 'asc' } }),
  ]);
  return { version: pricingCatalogVersion, starterGrant, plans, meters };
}

export function processorConfig(config: Config, livemode: boolean) {
  const publishableKey = (livemode ? config.stripe.publishableKeyLive : config.stripe.publishableKeyTest) ?? null;
  return { publishableKey, livemode: publishableKey ? publishableKey.startsWith('pk_live_') : livemode };
}
