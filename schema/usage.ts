// Usage of the organization from its request records: requests per meter class over time, what
// each quota window has counted so far, and the latest requests (the dashboard's Overview).
import type { Context } from '../resolvers/context.ts';
import { meteredAsPlatform } from '../resolvers/metering.ts';
import { quotaWindowUse, recentRequests, requestUsage, unmetered, type RequestUsage, type UsageSeries, type WindowUse } from '../resolvers/usage.ts';
import type { Period } from '../core/limiter.ts';
import { builder } from './builder.ts';
import { RequestRecord } from './diagnostics.ts';
import { Quota } from './platform.ts';

const UsageRangeEnum = builder.enumType('UsageRange', {
  values: {
    last_24_hours: { description: 'The last 24 hours, by UTC hour (the current hour partial)' },
    last_30_days: { description: 'The last 30 days, by UTC day (today partial)' },
  } as const,
});

const UsageInterval = builder.enumType('UsageInterval', { values: ['hour', 'day'] as const });

const UsageSeriesRef = builder.objectRef<UsageSeries>('UsageSeries').implement({
  description: 'One meter class\'s requests, one number per bucket of the range, in bucket order.',
  fields: (t) => ({
    meterClass: t.exposeString('meterClass', { description: `A meter class, or \`${unmetered}\` for requests that none counted (sign-in, refused credentials)` }),
    requests: t.exposeIntList('requests', { description: 'Requests recorded' }),
    errors: t.exposeIntList('errors', { description: 'Of those, answered 4xx or 5xx' }),
    units: t.exposeFloatList('units', { description: 'Units charged to the meter class (a GraphQL operation\'s cost, else 1 per request)' }),
  }),
});

const RequestUsageRef = builder.objectRef<RequestUsage>('RequestUsage').implement({
  description: 'Requests of the organization over a range, per meter class, from its request records (written within a second of each answer; operations over graphql-ws are not recorded).',
  fields: (t) => ({
    range: t.field({ type: UsageRangeEnum, resolve: (u) => u.range }),
    interval: t.field({ type: UsageInterval, description: 'The length of a bucket', resolve: (u) => u.interval }),
    from: t.expose('from', { type: 'DateTime', description: 'Start of the first bucket' }),
    to: t.expose('to', { type: 'DateTime', description: 'End of the last bucket (the current one)' }),
    bucketStarts: t.field({ type: ['DateTime'], description: 'Start of every bucket, oldest first', resolve: (u) => u.bucketStarts }),
    series: t.field({ type: [UsageSeriesRef], description: 'One per meter class with a request in range, by name', resolve: (u) => u.series }),
    totalRequests: t.exposeInt('totalRequests'),
  }),
});

// One read of the records answers every window of the request: the Quota fields of one
// operation share it.
const windowUse = new WeakMap<Context, Promise<(meterClass: string, period: Period) => WindowUse>>();
function useOf(ctx: Context) {
  let found = windowUse.get(ctx);
  if (!found) windowUse.set(ctx, (found = quotaWindowUse(ctx)));
  return found;
}

builder.objectFields(Quota, (t) => ({
  used: t.float({
    description: 'Units counted in the current window so far, from the request records (requests the quotas refused left out); an approximation of the limiter\'s own count, behind it by up to a second',
    resolve: async (q, _args, ctx) => (await useOf(ctx))(q.meterClass, q.period).used,
  }),
}));

builder.queryFields((t) => ({
  requestUsage: t.field({
    extensions: meteredAsPlatform,
    type: RequestUsageRef,
    description: 'Requests of the organization per meter class over the last 24 hours (by hour) or 30 days (by day).',
    args: { range: t.arg({ type: UsageRangeEnum, required: true }) },
    resolve: (_root, args, ctx) => requestUsage(ctx, args.range),
  }),
  recentRequests: t.field({
    extensions: meteredAsPlatform,
    type: [RequestRecord],
    description: 'The organization\'s latest requests, newest first (at most 100).',
    args: {
      first: t.arg.int({ defaultValue: 10, description: 'How many, 1 to 100' }),
      errorsOnly: t.arg.boolean({ defaultValue: false, description: 'Only those answered 4xx or 5xx' }),
    },
    resolve: (_root, args, ctx) => recentRequests(ctx, args),
  }),
}));
