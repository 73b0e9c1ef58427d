// Usage analytics (resolvers/usageAnalytics.ts): the organization's requests, errors, units, spend
// and durations over whole UTC days, grouped as asked, with the window's totals.
import { requestKeys } from '../resolvers/requests.ts';
import { usageAnalytics, usageDimensions, usageRules, type UsageGroup } from '../resolvers/usageAnalytics.ts';
import { unmetered } from '../resolvers/usage.ts';
import { builder } from './builder.ts';
import { ApiKey } from './platform.ts';

const UsageDimension = builder.enumType('UsageDimension', {
  values: {
    meter_class: { description: 'The meter class the request was counted in' },
    operation: { description: 'The route\'s operationId, the GraphQL operation name, or the MCP method and tool' },
    api_key: { description: 'The API key that made it (null: a dashboard session)' },
    day: { description: 'The UTC day' },
    door: { description: 'rest, graphql or mcp' },
  } satisfies Record<(typeof usageDimensions)[number], unknown>,
});

const UsageGroupRef = builder.objectRef<UsageGroup>('UsageGroup').implement({
  description: 'Requests of one group (its keys are those of `groupBy`; the others are null), or of the whole window (every key null).',
  fields: (t) => ({
    day: t.field({ type: 'Date', nullable: true, description: 'The UTC day', resolve: (g) => g.day }),
    meterClass: t.exposeString('meterClass', { nullable: true, description: `A meter class, or \`${unmetered}\`` }),
    operation: t.exposeString('operation', { nullable: true }),
    apiKeyId: t.exposeString('apiKeyId', { nullable: true, description: '`key_…`; null for a dashboard session\'s requests, or when not grouped by key' }),
    apiKey: t.loadable({
      type: ApiKey,
      nullable: true,
      description: 'The API key (revoked ones too)',
      load: (ids: string[], ctx) => requestKeys(ctx, ids),
      resolve: (g) => g.apiKeyId,
    }),
    door: t.exposeString('door', { nullable: true }),
    requests: t.exposeInt('requests'),
    errors4xx: t.exposeInt('errors4xx', { description: 'Answered 400 to 499' }),
    errors5xx: t.exposeInt('errors5xx', { description: 'Answered 500 to 599' }),
    units: t.exposeFloat('units', { description: 'Units charged to the meter class' }),
    chargedMillicents: t.expose('chargedMillicents', { type: 'Long', description: 'What prepaid credit paid, in millicents' }),
    durationP50Ms: t.exposeFloat('durationP50Ms', { nullable: true }),
    durationP95Ms: t.exposeFloat('durationP95Ms', { nullable: true }),
  }),
});

type Analytics = Awaited<ReturnType<typeof usageAnalytics>>;

const UsageAnalyticsRef = builder.objectRef<Analytics>('UsageAnalytics').implement({
  description: usageRules,
  fields: (t) => ({
    from: t.field({ type: 'Date', description: 'The first day, included', resolve: (u) => u.from }),
    to: t.field({ type: 'Date', description: 'The last day, included', resolve: (u) => u.to }),
    groupBy: t.field({ type: [UsageDimension], description: 'The grouping keys, in the order rows are sorted by', resolve: (u) => u.groupBy }),
    rows: t.field({ type: [UsageGroupRef], resolve: (u) => u.rows }),
    totals: t.field({ type: UsageGroupRef, description: 'Every request of the window (every key null)', resolve: (u) => u.totals }),
    truncated: t.exposeBoolean('truncated', { description: 'More groups than were answered' }),
    rules: t.exposeString('rules', { description: 'How the window and the counts are decided' }),
  }),
});

builder.queryFields((t) => ({
  usageAnalytics: t.field({
    type: UsageAnalyticsRef,
    description: 'The organization\'s requests over whole UTC days, grouped by meter class, operation, API key, day and door.',
    args: {
      from: t.arg({ type: 'Date', description: 'The first day (UTC), included; default 29 days before `to`' }),
      to: t.arg({ type: 'Date', description: 'The last day (UTC), included; default today' }),
      groupBy: t.arg({ type: [UsageDimension], description: 'The grouping keys (default meter_class)' }),
      apiKeyId: t.arg.string({ description: 'Only requests made with this API key, `key_…`' }),
      meterClass: t.arg.string({ description: `Only requests of this meter class (\`${unmetered}\`: those of none)` }),
    },
    resolve: (_root, args, ctx) => usageAnalytics(ctx, args),
  }),
}));
