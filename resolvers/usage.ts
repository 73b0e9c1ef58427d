// What the organization used, counted from its request records (resolvers/requestLog.ts): requests
// per meter class per hour or day, the units counted in each quota window so far, and its latest
// requests. Only the caller's organization is read.
import { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { periodSeconds, windowAt, type Period } from '../core/limiter.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';

export type UsageRange = 'last_24_hours' | 'last_30_days';

const ranges: Record<UsageRange, { interval: 'hour' | 'day'; buckets: number }> = {
  last_24_hours: { interval: 'hour', buckets: 24 },
  last_30_days: { interval: 'day', buckets: 30 },
};

/** A request record without a meter class (sign-in, a refused credential) is counted under this name. */
export const unmetered = 'unmetered';

/**
 * Statuses of requests the quota windows did not count: refused by a full window (429), by
 * billing before anything ran (402), or because the limiter was away (503).
 */
const uncounted = [402, 429, 503];

export interface UsageSeries {
  meterClass: string;
  requests: number[];
  errors: number[];
  units: number[];
}

export interface RequestUsage {
  range: UsageRange;
  interval: 'hour' | 'day';
  from: Date;
  to: Date;
  bucketStarts: Date[];
  series: UsageSeries[];
  totalRequests: number;
}

/**
 * Requests of the organization in the last 24 hours (by UTC hour) or 30 days (by UTC day), per
 * meter class. The buckets are the limiter's own windows (aligned to the Unix epoch), every one
 * of the range present, the current one partial; a class appears when it has a request in range.
 */
export async function requestUsage(ctx: Context, range: UsageRange, now = new Date()): Promise<RequestUsage> {
  const orgId = requireOrg(ctx);
  const { interval, buckets } = ranges[range];
  const length = periodSeconds[interval];
  const current = Math.floor(now.getTime() / 1000 / length);
  const first = current - buckets + 1;
  const from = new Date(first * length * 1000);
  const to = new Date((current + 1) * length * 1000);
  await ctx.requestLog.flush(); // this instance's latest requests; other instances write theirs within a second
  const rows = await ctx.prisma.$queryRaw<{ bucket: number; meterClass: string; requests: number; errors: number; units: number }[]>`
    SELECT floor(extract(epoch FROM "createdAt") / ${Prisma.raw(String(length))})::int AS "bucket",
           coalesce("meterClass", ${unmetered}) AS "meterClass",
           count(*)::int AS "requests",
           (count(*) FILTER (WHERE "status" >= 400))::int AS "errors",
           coalesce(sum("cost"), 0)::float8 AS "units"
    FROM "RequestRecord"
    WHERE "orgId" = ${orgId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
    GROUP BY 1, 2`;
  const byClass = new Map<string, UsageSeries>();
  for (const row of rows) {
    const index = row.bucket - first;
    if (index < 0 || index >= buckets) continue;
    let series = byClass.get(row.meterClass);
    if (!series) byClass.set(row.meterClass, (series = { meterClass: row.meterClass, requests: Array(buckets).fill(0), errors: Array(buckets).fill(0), units: Array(buckets).fill(0) }));
    series.requests[index] = row.requests;
    series.errors[index] = row.errors;
    series.units[index] = Number(row.units);
  }
  const series = [...byClass.values()].sort((a, b) => a.meterClass.localeCompare(b.meterClass));
  return {
    range,
    interval,
    from,
    to,
    bucketStarts: Array.from({ length: buckets }, (_, i) => new Date((first + i) * length * 1000)),
    series,
    totalRequests: series.reduce((sum, s) => sum + s.requests.reduce((a, b) => a + b, 0), 0),
  };
}

export interface WindowUse {
  used: number;
  windowStart: Date;
}

const periods: Period[] = ['minute', 'hour', 'day', 'month'];

/**
 * Units counted so far in the current minute, hour, day and month window of each meter class, as the
 * request records show them: what was admitted (requests refused by a window, by billing or for
 * want of the limiter are left out). An approximation of the limiter's own count: a request's
 * record is written within a second, and operations over graphql-ws are not recorded.
 */
export async function quotaWindowUse(ctx: Context, now = new Date()): Promise<(meterClass: string, period: Period) => WindowUse> {
  const orgId = requireOrg(ctx);
  const seconds = Math.floor(now.getTime() / 1000);
  const starts = Object.fromEntries(periods.map((p) => [p, new Date(windowAt(p, seconds).start * 1000)])) as Record<Period, Date>;
  await ctx.requestLog.flush();
  const rows = await ctx.prisma.$queryRaw<Array<{ meterClass: string } & Record<Period, number>>>`
    SELECT "meterClass",
           coalesce(sum("cost") FILTER (WHERE "createdAt" >= ${starts.minute}), 0)::float8 AS "minute",
           coalesce(sum("cost") FILTER (WHERE "createdAt" >= ${starts.hour}), 0)::float8 AS "hour",
           coalesce(sum("cost") FILTER (WHERE "createdAt" >= ${starts.day}), 0)::float8 AS "day",
           coalesce(sum("cost") FILTER (WHERE "createdAt" >= ${starts.month}), 0)::float8 AS "month"
    FROM "RequestRecord"
    WHERE "orgId" = ${orgId} AND "createdAt" >= ${starts.month} AND "meterClass" IS NOT NULL AND "status" NOT IN (${Prisma.join(uncounted)})
    GROUP BY "meterClass"`;
  const byClass = new Map(rows.map((row) => [row.meterClass, row]));
  return (meterClass, period) => ({
    used: Number(byClass.get(meterClass)?.[period] ?? 0),
    windowStart: starts[period],
  });
}

/** The organization's latest requests, newest first; with `errorsOnly`, those answered 4xx or 5xx. */
export async function recentRequests(ctx: Context, args: { first?: number | null; errorsOnly?: boolean | null }) {
  const orgId = requireOrg(ctx);
  const take = args.first ?? 10;
  if (!Number.isInteger(take) || take < 1 || take > 100) throw new ApiError('invalid_query_parameter', '`first` must be 1 to 100.', { details: { parameter: 'first' } });
  await ctx.requestLog.flush();
  return ctx.prisma.requestRecord.findMany({
    where: { orgId, ...(args.errorsOnly ? { status: { gte: 400 } } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}
