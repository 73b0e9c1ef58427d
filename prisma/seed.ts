// Reference data every database needs: plans, meter classes and the plans' quota windows.
// Applied after migrations on every start; upserts, so changing a number here and restarting
// updates it. Quota values are ours to choose (SPEC 8.11 leaves them open).
import type { PrismaClient } from './generated/client/client.ts';
import type { FailMode, QuotaPeriod } from './generated/client/enums.ts';

export const meterClasses: { key: string; description: string; failMode: FailMode; ratePer1000CallsCents: number }[] = [
  { key: 'platform', description: 'Identity, keys, limits and billing reads', failMode: 'open', ratePer1000CallsCents: 0 },
  { key: 'data_read', description: 'Filing, fact, statement, form and event reads', failMode: 'open', ratePer1000CallsCents: 200 },
  // counted in cost units (graphql/cost.ts), a small query about 20, a facts page about 300
  { key: 'graphql', description: 'Requests to /graphql, counted in query cost units', failMode: 'open', ratePer1000CallsCents: 2 },
  { key: 'mcp', description: 'Hosted MCP tool calls', failMode: 'open', ratePer1000CallsCents: 300 },
  { key: 'analytics', description: 'Portfolio, factor and macro computations', failMode: 'closed', ratePer1000CallsCents: 1000 },
  // a window of its own (SPEC 8.10): one render reads and cleans a whole document of megabytes
  { key: 'render', description: 'Filing documents rendered for reading', failMode: 'open', ratePer1000CallsCents: 500 },
  // capped windows of its own, a calendar month's among them on every plan (SPEC 8.4); the reads
  // a question runs are charged as their own classes too
  { key: 'ai_query', description: 'Plain-English questions answered from held data (POST /v1/agent/query)', failMode: 'open', ratePer1000CallsCents: 1000 },
];

type Windows = Partial<Record<QuotaPeriod, number>>;

export const plans: {
  key: string;
  name: string;
  description: string;
  monthlyPriceCents: number;
  selfServe: boolean;
  quotas: Record<string, Windows | 'not_allowed'>;
}[] = [
  {
    key: 'sandbox_grant',
    name: 'Starter grant',
    description: 'Free starter allowance for evaluation; re-grantable once per rolling 30 days.',
    monthlyPriceCents: 0,
    selfServe: true,
    quotas: {
      platform: { minute: 60, hour: 1000, day: 5000 },
      data_read: { minute: 30, hour: 300, day: 1000 },
      graphql: { minute: 3000, hour: 30000, day: 100000 },
      mcp: { minute: 20, hour: 200, day: 1000 },
      analytics: 'not_allowed',
      render: { minute: 30, hour: 300, day: 1000 },
      ai_query: { minute: 5, day: 5, month: 100 },
    },
  },
  {
    key: 'personal',
    name: 'Personal',
    description: 'One developer or analyst.',
    monthlyPriceCents: 2900,
    selfServe: true,
    quotas: {
      platform: { minute: 120, hour: 3000, day: 20000 },
      data_read: { minute: 120, hour: 3000, day: 20000 },
      graphql: { minute: 12000, hour: 300000, day: 2000000 },
      mcp: { minute: 60, hour: 1000, day: 10000 },
      analytics: { minute: 10, hour: 100, day: 500 },
      render: { minute: 30, hour: 600, day: 3000 },
      ai_query: { minute: 10, day: 20, month: 500 },
    },
  },
  {
    key: 'team',
    name: 'Team',
    description: 'A team sharing one organization.',
    monthlyPriceCents: 19900,
    selfServe: true,
    quotas: {
      platform: { minute: 600, hour: 20000, day: 200000 },
      data_read: { minute: 600, hour: 20000, day: 200000 },
      graphql: { minute: 60000, hour: 2000000, day: 20000000 },
      mcp: { minute: 300, hour: 10000, day: 100000 },
      analytics: { minute: 60, hour: 1000, day: 10000 },
      render: { minute: 120, hour: 3000, day: 20000 },
      ai_query: { minute: 30, day: 70, month: 2000 },
    },
  },
  {
    key: 'payg',
    name: 'Pay as you go',
    description: 'Prepaid credits debited per call at the meter-class rates.',
    monthlyPriceCents: 0,
    selfServe: true,
    quotas: {
      platform: { minute: 600, hour: 20000, day: 200000 },
      data_read: { minute: 300, hour: 10000, day: 100000 },
      graphql: { minute: 30000, hour: 1000000, day: 10000000 },
      mcp: { minute: 120, hour: 5000, day: 50000 },
      analytics: { minute: 30, hour: 500, day: 5000 },
      render: { minute: 60, hour: 1500, day: 10000 },
      ai_query: { minute: 20, day: 50, month: 1000 },
    },
  },
  {
    key: 'enterprise',
    name: 'Enterprise',
    description: 'Contracted volumes, set up by us (billing:set-plan).',
    monthlyPriceCents: 0,
    selfServe: false,
    quotas: {
      platform: { minute: 3000, hour: 100000, day: 1000000 },
      data_read: { minute: 3000, hour: 100000, day: 1000000 },
      graphql: { minute: 300000, hour: 10000000, day: 100000000 },
      mcp: { minute: 1000, hour: 50000, day: 500000 },
      analytics: { minute: 300, hour: 10000, day: 100000 },
      render: { minute: 600, hour: 20000, day: 200000 },
      ai_query: { minute: 300, day: 10000, month: 100000 },
    },
  },
];

const periods: QuotaPeriod[] = ['minute', 'hour', 'day', 'month'];
/** the rows that mark a class the plan does not include (a month row would only repeat them) */
const notAllowedPeriods: QuotaPeriod[] = ['minute', 'hour', 'day'];

type QuotaRow = { planKey: string; meterClass: string; period: QuotaPeriod; limit: number; allowed: boolean };

/** Every row the reference tables should hold, in the order they are written. */
function referenceRows() {
  const meters = meterClasses.map((meter) => ({ ...meter }));
  const planRows = plans.map(({ quotas: _quotas, ...plan }, sortOrder) => ({ ...plan, sortOrder }));
  const quotaRows: QuotaRow[] = [];
  for (const plan of plans) {
    for (const [meterClass, windows] of Object.entries(plan.quotas)) {
      for (const period of windows === 'not_allowed' ? notAllowedPeriods : periods) {
        const limit = windows === 'not_allowed' ? 0 : windows[period];
        if (limit !== undefined) quotaRows.push({ planKey: plan.key, meterClass, period, limit, allowed: windows !== 'not_allowed' });
      }
    }
  }
  return { meters, planRows, quotaRows };
}

/** True when each wanted row is there with the same values (rows of other keys do not matter). */
function allThere<T extends Record<string, unknown>>(wanted: T[], present: Record<string, unknown>[], keyOf: (row: Record<string, unknown>) => string): boolean {
  const byKey = new Map(present.map((row) => [keyOf(row), row]));
  return wanted.every((row) => {
    const found = byKey.get(keyOf(row));
    return found !== undefined && Object.entries(row).every(([field, value]) => found[field] === value);
  });
}

const quotaKey = (row: Record<string, unknown>) => `${String(row.planKey)}/${String(row.meterClass)}/${String(row.period)}`;

export async function seedReferenceData(prisma: PrismaClient): Promise<void> {
  const { meters, planRows, quotaRows } = referenceRows();
  // Every start after the first finds the rows as they should be: three reads, and no transaction
  // (no lock for instances starting together to queue on).
  const [presentMeters, presentPlans, presentQuotas] = await Promise.all([prisma.meterClass.findMany(), prisma.plan.findMany(), prisma.planQuota.findMany()]);
  if (allThere(meters, presentMeters, (row) => String(row.key)) && allThere(planRows, presentPlans, (row) => String(row.key)) && allThere(quotaRows, presentQuotas, quotaKey)) return;
  await prisma.$transaction(async (tx) => {
    // Instances starting together against one database seed one after the other.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4242002)`;
    // Rows that are missing go in in one statement per table (a new database: all of them);
    // rows whose values changed are updated one by one.
    await tx.meterClass.createMany({ data: meters, skipDuplicates: true });
    await tx.plan.createMany({ data: planRows, skipDuplicates: true });
    await tx.planQuota.createMany({ data: quotaRows, skipDuplicates: true });
    const [nowMeters, nowPlans, nowQuotas] = [await tx.meterClass.findMany(), await tx.plan.findMany(), await tx.planQuota.findMany()];
    for (const meter of meters) {
      if (!allThere([meter], nowMeters, (row) => String(row.key))) await tx.meterClass.update({ where: { key: meter.key }, data: meter });
    }
    for (const plan of planRows) {
      if (!allThere([plan], nowPlans, (row) => String(row.key))) await tx.plan.update({ where: { key: plan.key }, data: plan });
    }
    for (const { planKey, meterClass, period, ...row } of quotaRows) {
      if (!allThere([{ planKey, meterClass, period, ...row }], nowQuotas, quotaKey)) {
        await tx.planQuota.update({ where: { planKey_meterClass_period: { planKey, meterClass, period } }, data: row });
      }
    }
    // another instance's seed to wait for may take more than Prisma's 5 s default on a busy
    // machine, and nothing is gained by giving up
  }, { maxWait: 30_000, timeout: 60_000 });
}
