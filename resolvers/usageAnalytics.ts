// Usage analytics: the organization's requests over whole UTC days, grouped by any of meter class,
// operation, API key, day and door, with errors, units, what prepaid credit paid and durations.
// One SQL aggregate over its request records (resolvers/requestLog.ts) and their charges
// (RequestCharge): the groups and the totals come from the same statement (GROUPING SETS).
import { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';
import { unmetered } from './usage.ts';

export const usageDimensions = ['meter_class', 'operation', 'api_key', 'day', 'door'] as const;
export type UsageDimension = (typeof usageDimensions)[number];

/** The longest window, in days (both ends included). */
export const maxUsageDays = 92;
/** The default window: this many days, today (UTC) included. */
export const defaultUsageDays = 30;
/** Groups answered at most; the totals always count every request of the window. */
export const maxUsageRows = 1000;

export const usageRules =
  `Days are UTC; \`from\` and \`to\` are both included (default: the last ${defaultUsageDays} days, today included; at most ${maxUsageDays} days). ` +
  'Every request to /v1, /graphql and /mcp is counted (recorded within a second of its answer; operations over graphql-ws are not), refused ones included. ' +
  `errors4xx and errors5xx count answers by status class; units are those charged to the meter class (a GraphQL operation's cost, else 1); chargedMillicents is what prepaid credit paid (requests paid by the plan or the starter grant, and free ones, add 0; settled within seconds of the answer); durations are the service's own time to answer, p50 and p95 by linear interpolation. A request with no meter class is counted under \`${unmetered}\`; a session's requests under a null API key. ` +
  `At most ${maxUsageRows} groups, ordered by the grouping keys (day first); \`truncated\` says when more were left out.`;

// Constant SQL, never a parameter: the same expression must appear in SELECT and GROUP BY.
const columns: Record<UsageDimension, { key: string; sql: string }> = {
  day: { key: 'day', sql: `to_char(r."createdAt", 'YYYY-MM-DD')` },
  meter_class: { key: 'meterClass', sql: `coalesce(r."meterClass", '${unmetered}')` },
  operation: { key: 'operation', sql: 'r."operation"' },
  api_key: { key: 'apiKeyId', sql: 'r."apiKeyId"' },
  door: { key: 'door', sql: 'r."door"' },
};

export interface UsageGroup {
  day: string | null;
  meterClass: string | null;
  operation: string | null;
  apiKeyId: string | null;
  door: string | null;
  requests: number;
  errors4xx: number;
  errors5xx: number;
  units: number;
  chargedMillicents: bigint;
  durationP50Ms: number | null;
  durationP95Ms: number | null;
}

export interface UsageAnalyticsArgs {
  /** YYYY-MM-DD, UTC, included */
  from?: string | null;
  to?: string | null;
  groupBy?: readonly string[] | null;
  apiKeyId?: string | null;
  meterClass?: string | null;
}

const dayMs = 86_400_000;
const day = (at: Date) => at.toISOString().slice(0, 10);

function parseDay(value: string, parameter: string): Date {
  const at = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(at.getTime()) || day(at) !== value) {
    throw new ApiError('invalid_request_parameter', `Parameter \`${parameter}\`: expected a date YYYY-MM-DD.`, { details: { parameter } });
  }
  return at;
}

/** The window's first day and the day after its last, checked. */
function usageWindow(args: UsageAnalyticsArgs, now: Date) {
  const to = args.to != null ? parseDay(args.to, 'to') : parseDay(day(now), 'to');
  const from = args.from != null ? parseDay(args.from, 'from') : new Date(to.getTime() - (defaultUsageDays - 1) * dayMs);
  if (from > to) throw new ApiError('invalid_request_parameter', 'Parameter `from` must be on or before `to`.', { details: { parameter: 'from' } });
  const days = (to.getTime() - from.getTime()) / dayMs + 1;
  if (days > maxUsageDays) throw new ApiError('invalid_request_parameter', `The window is ${days} days; at most ${maxUsageDays}.`, { details: { parameter: 'from', maxDays: maxUsageDays } });
  return { from, end: new Date(to.getTime() + dayMs), to };
}

function dimensionsOf(groupBy: readonly string[] | null | undefined): UsageDimension[] {
  const asked = groupBy?.length ? groupBy : ['meter_class'];
  for (const name of asked) {
    if (!(usageDimensions as readonly string[]).includes(name)) {
      throw new ApiError('invalid_query_parameter', `Parameter \`group_by\`: ${JSON.stringify(name)} is not a grouping.`, { details: { parameter: 'group_by', acceptedValues: [...usageDimensions] } });
    }
  }
  // the order of the keys in SQL is the documented one (day first), whatever order was asked
  return usageDimensions.filter((d) => asked.includes(d)).sort((a, b) => (a === 'day' ? -1 : b === 'day' ? 1 : 0));
}

interface Row extends UsageGroup {
  total: number;
}

/** The organization's usage over whole UTC days, grouped as asked, with the window's totals. */
export async function usageAnalytics(ctx: Context, args: UsageAnalyticsArgs, now = new Date()) {
  const orgId = requireOrg(ctx);
  const { from, end, to } = usageWindow(args, now);
  const dimensions = dimensionsOf(args.groupBy);
  const keys = dimensions.map((d) => Prisma.raw(columns[d].sql));
  const selected = dimensions.map((d) => Prisma.raw(`${columns[d].sql} AS "${columns[d].key}"`));
  const conditions = [
    Prisma.sql`r."orgId" = ${orgId}`,
    Prisma.sql`r."createdAt" >= ${from}`,
    Prisma.sql`r."createdAt" < ${end}`,
    ...(args.apiKeyId != null ? [Prisma.sql`r."apiKeyId" = ${args.apiKeyId}`] : []),
    ...(args.meterClass != null ? [args.meterClass === unmetered ? Prisma.sql`r."meterClass" IS NULL` : Prisma.sql`r."meterClass" = ${args.meterClass}`] : []),
  ];
  await ctx.requestLog.flush(); // this instance's latest records; other instances write theirs within a second
  await ctx.admission.settle(orgId); // and its charges; other instances settle within IDS_BILLING_SETTLE_MS
  const rows = await ctx.prisma.$queryRaw<Row[]>`
    SELECT ${Prisma.join(selected)},
           GROUPING(${keys[0]!})::int AS "total",
           count(*)::int AS "requests",
           (count(*) FILTER (WHERE r."status" BETWEEN 400 AND 499))::int AS "errors4xx",
           (count(*) FILTER (WHERE r."status" BETWEEN 500 AND 599))::int AS "errors5xx",
           coalesce(sum(r."cost"), 0)::float8 AS "units",
           coalesce(sum(c."millicents"), 0)::bigint AS "chargedMillicents",
           percentile_cont(0.5) WITHIN GROUP (ORDER BY r."durationMs") AS "durationP50Ms",
           percentile_cont(0.95) WITHIN GROUP (ORDER BY r."durationMs") AS "durationP95Ms"
    FROM "RequestRecord" r
    LEFT JOIN "RequestCharge" c ON c."requestId" = r."id" AND c."orgId" = r."orgId"
    WHERE ${Prisma.join(conditions, ' AND ')}
    GROUP BY GROUPING SETS ((${Prisma.join(keys)}), ())
    ORDER BY "total" DESC, ${Prisma.join(keys.map((k) => Prisma.sql`${k} NULLS FIRST`))}
    LIMIT ${maxUsageRows + 2}`;
  const group = ({ total: _, ...row }: Row): UsageGroup => ({
    day: row.day ?? null,
    meterClass: row.meterClass ?? null,
    operation: row.operation ?? null,
    apiKeyId: row.apiKeyId ?? null,
    door: row.door ?? null,
    requests: row.requests,
    errors4xx: row.errors4xx,
    errors5xx: row.errors5xx,
    units: Number(row.units),
    chargedMillicents: BigInt(row.chargedMillicents),
    durationP50Ms: row.durationP50Ms ?? null,
    durationP95Ms: row.durationP95Ms ?? null,
  });
  // the empty grouping set answers one row even for a window without requests
  const totalRow = rows.find((r) => r.total === 1)!;
  const groups = rows.filter((r) => r.total !== 1);
  return {
    from: day(from),
    to: day(to),
    groupBy: dimensions,
    rows: groups.slice(0, maxUsageRows).map(group),
    totals: group(totalRow),
    truncated: groups.length > maxUsageRows,
    rules: usageRules,
  };
}
