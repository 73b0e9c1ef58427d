// Usage analytics: the organization's requests, errors, units, spend and durations over whole UTC
// days, grouped by meter class, operation, API key, day and door (resolvers/usageAnalytics.ts).
import { z } from 'zod';
import { UsageAnalyticsDocument, type UsageDimension } from '../operations/generated.ts';
import { unmetered } from '../../resolvers/usage.ts';
import { maxUsageDays, usageDimensions, usageRules } from '../../resolvers/usageAnalytics.ts';
import { dateParam } from '../dataParams.ts';
import { operationRoute, viewParam } from '../route.ts';

const dimensionList = new RegExp(`^(${usageDimensions.join('|')})(,(${usageDimensions.join('|')}))*$`);

const counts = {
  requests: z.number().int(),
  errors4xx: z.number().int().describe('Answered 400 to 499'),
  errors5xx: z.number().int().describe('Answered 500 to 599'),
  units: z.number().describe('Units charged to the meter class (a GraphQL operation\'s cost, else 1 per request)'),
  chargedMillicents: z.number().int().describe('What prepaid credit paid, in millicents (1/1,000 of a cent)'),
  durationP50Ms: z.number().nullable(),
  durationP95Ms: z.number().nullable(),
};

const group = z.object({
  day: z.string().nullable().describe('The UTC day, YYYY-MM-DD (grouped by day)'),
  meterClass: z.string().nullable().describe(`The meter class, or \`${unmetered}\` (grouped by meter_class)`),
  operation: z.string().nullable().describe('The route\'s operationId, the GraphQL operation name, or the MCP method and tool (grouped by operation)'),
  apiKeyId: z.string().nullable().describe('`key_…`; null for a dashboard session\'s requests (grouped by api_key)'),
  door: z.string().nullable().describe('rest, graphql or mcp (grouped by door)'),
  ...counts,
});

export const usageAnalyticsRoutes = [
  operationRoute({
    name: 'usage_analytics_get',
    method: 'GET',
    path: '/v1/analytics/usage',
    summary: 'The organization\'s requests, errors, units and spend, grouped by meter class, operation, API key, day or door',
    description: `${usageRules} Keys not grouped by are null in every row; \`totals\` counts every request of the window.`,
    tag: 'Diagnostics',
    meter: 'platform',
    access: 'org',
    mcp: true,
    params: {
      query: z.strictObject({
        from: dateParam('The first day (UTC); default 29 days before `to`'),
        to: dateParam('The last day (UTC); default today'),
        group_by: z
          .string()
          .regex(dimensionList, `expected groupings separated by commas, of: ${usageDimensions.join(', ')}`)
          .optional()
          .describe(`Comma-separated, one or more of ${usageDimensions.map((d) => `\`${d}\``).join(', ')} (default \`meter_class\`), e.g. \`day,api_key\``),
        api_key_id: z.string().regex(/^key_[0-9A-Za-z]{24}$/, 'expected a key id, key_ and 24 letters or digits').optional().describe('Only requests made with this API key'),
        meter_class: z.string().min(1).max(100).optional().describe(`Only requests of this meter class (\`${unmetered}\`: those of none)`),
        view: viewParam,
      }),
    },
    response: z.object({
      object: z.literal('usage_analytics'),
      from: z.iso.date().describe('The first day, included'),
      to: z.iso.date().describe(`The last day, included (at most ${maxUsageDays} days after \`from\`)`),
      groupBy: z.array(z.enum(usageDimensions)).describe('The grouping keys, in the order the rows are sorted by'),
      rows: z.array(group),
      totals: z.object(counts).describe('Every request of the window'),
      truncated: z.boolean().describe('More groups than were answered'),
      rules: z.string(),
      requestId: z.string(),
    }),
    operation: UsageAnalyticsDocument,
    variables: ({ query }) => ({
      from: query.from ?? null,
      to: query.to ?? null,
      groupBy: (query.group_by?.split(',') as UsageDimension[] | undefined) ?? null,
      apiKeyId: query.api_key_id ?? null,
      meterClass: query.meter_class ?? null,
    }),
  }).reshape(({ usageAnalytics: u }, meta) => {
    const { day: _d, meterClass: _m, operation: _o, apiKeyId: _k, door: _door, ...totals } = u.totals;
    return {
      object: 'usage_analytics',
      from: u.from,
      to: u.to,
      groupBy: u.groupBy,
      rows: u.rows,
      totals,
      truncated: u.truncated,
      rules: u.rules,
      ...meta,
    };
  }),
];
