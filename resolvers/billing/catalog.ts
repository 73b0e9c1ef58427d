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

/** Named workflows a quote can price as a whole: a run is priced as its steps. */
export const workflows: Record<string, { name: string; description: string; steps: { meterClass: string; calls: number }[] }> = {
  company_snapshot: { name: 'Company snapshot', description: 'Entity, latest filings, facts and statements of one company', steps: [{ meterClass: 'data_read', calls: 5 }] },
  agent_research_session: { name: 'Agent research session', description: 'An agent researching one company over MCP', steps: [{ meterClass: 'mcp', calls: 20 }] },
  portfolio_review: { name: 'Portfolio review', description: 'Analyze a portfolio and stress-test it', steps: [{ meterClass: 'analytics', calls: 2 }, { meterClass: 'data_read', calls: 10 }] },
};

/** The amounts one credit top-up may be, in cents. */
export const minTopUpCents = 500;
export const maxTopUpCents = 1_000_000;

export async function pricingCatalog(prisma: PrismaClient) {
  const [plans, meters] = await Promise.all([
    prisma.plan.findMany({ orderBy: { sortOrder: 'asc' }, include: { quotas: { orderBy: [{ meterClass: 'asc' }] } } }),
    prisma.meterClass.findMany({ orderBy: { key: 'asc' } }),
  ]);
  return {
    version: pricingCatalogVersion,
    starterGrant,
    plans,
    meters,
    workflows: Object.entries(workflows).map(([key, w]) => ({ key, ...w })),
    topUp: { minCents: minTopUpCents, maxCents: maxTopUpCents },
  };
}

export function processorConfig(config: Config, livemode: boolean) {
  const publishableKey = (livemode ? config.stripe.publishableKeyLive : config.stripe.publishableKeyTest) ?? null;
  return { publishableKey, livemode: publishableKey ? publishableKey.startsWith('pk_live_') : livemode };
}
