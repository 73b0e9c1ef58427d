// Organizations, principals, API keys, quota limits and the public billing catalog.
import { needs } from '../resolvers/roles.ts';
import { meteredAsPlatform } from '../resolvers/metering.ts';
import { assertAccess, requireOrg } from '../resolvers/access.ts';
import { createApiKey, revokeApiKey } from '../resolvers/apiKeys.ts';
import { pricingCatalog, processorConfig } from '../resolvers/billing/catalog.ts';
import type { Principal } from '../resolvers/principal.ts';
import { effectiveQuotas, type EffectiveQuota } from '../resolvers/orgs.ts';
import { cachedQuotas } from '../resolvers/requestCache.ts';
import { ApiError } from '../core/errors.ts';
import { windowAt } from '../core/limiter.ts';
import { builder } from './builder.ts';

export const Organization = builder.prismaObject('Organization', {
  description: 'An organization: every account, key and org-scoped resource belongs to one.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `org_…`' }),
    name: t.exposeString('name'),
    planKey: t.exposeString('planKey', { description: 'Key of the plan the organization is on' }),
    billingState: t.exposeString('billingState', { description: 'e.g. `sandbox_grant` while on the free starter grant' }),
    livemode: t.exposeBoolean('livemode', { description: 'Whether billing runs against the payment processor\'s live mode' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const User = builder.prismaObject('User', {
  description: 'A person who signs in to the dashboard.',
  fields: (t) => ({ id: t.exposeString('id', { description: 'Prefixed id, `usr_…`' }), email: t.exposeString('email') }),
});

const ApiKey = builder.prismaObject('ApiKey', {
  description: 'An API key of the organization. The secret is never readable; `hint` shows its prefix and last four characters.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `key_…`' }),
    name: t.exposeString('name'),
    hint: t.exposeString('hint'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Last use, to the minute' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    scopes: t.exposeStringList('scopes', { description: '`organization`: every route an API key may call; `read`: the same without mutations' }),
  }),
});

const PrincipalKind = builder.enumType('PrincipalKind', {
  values: { api_key: { description: 'A machine request with an API key' }, session: { description: 'A signed-in dashboard session' } } as const,
});

export const PrincipalRef = builder.objectRef<Principal>('Principal').implement({
  description: 'Who is calling, and in which organization.',
  fields: (t) => ({
    kind: t.field({ type: PrincipalKind, resolve: (p) => p.kind }),
    // Plain fields, not prismaFields: the organization and the key are already in memory (the
    // request path read and cached them), so no Prisma selection is planned for them.
    organization: t.field({
      type: Organization,
      nullable: true,
      resolve: async (p, _args, ctx) => (p.orgId ? ((await cachedQuotas(ctx, p.orgId))?.org ?? null) : null),
    }),
    apiKey: t.field({
      type: ApiKey,
      nullable: true,
      resolve: (p, _args, ctx) => (p.kind !== 'api_key' ? null : (p.key ?? ctx.prisma.apiKey.findUnique({ where: { id: p.apiKeyId } }))),
    }),
    user: t.field({
      type: User,
      nullable: true,
      resolve: (p, _args, ctx) => (p.kind === 'session' ? ctx.prisma.user.findUnique({ where: { id: p.userId } }) : null),
    }),
    sessionExpiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => (p.kind === 'session' ? p.expiresAt : null) }),
  }),
});

const QuotaPeriod = builder.enumType('QuotaPeriod', {
  values: {
    minute: { description: 'A UTC minute' },
    hour: { description: 'A UTC hour' },
    day: { description: 'A UTC day (from 00:00 UTC)' },
    month: { description: 'A calendar month in UTC (from 00:00 UTC on the 1st)' },
  } as const,
});

export const Quota = builder.objectRef<EffectiveQuota>('Quota').implement({
  description: 'One quota window of a meter class.',
  fields: (t) => ({
    meterClass: t.exposeString('meterClass'),
    limit: t.exposeInt('limit', { description: 'Requests allowed per period' }),
    period: t.field({ type: QuotaPeriod, resolve: (q) => q.period }),
    allowed: t.exposeBoolean('allowed', { description: 'Whether the plan allows this class at all' }),
    planKey: t.exposeString('planKey'),
    billingState: t.exposeString('billingState'),
    resetsAt: t.field({
      type: 'DateTime',
      description: 'When the current window ends and its count starts again (a month window: 00:00 UTC on the 1st of the next month)',
      resolve: (q) => new Date(windowAt(q.period, Math.floor(Date.now() / 1000)).end * 1000),
    }),
  }),
});

const Limits = builder
  .objectRef<{ orgId: string; recordedAt: Date; effectivePlanKey: string; billingState: string; quotas: EffectiveQuota[] }>('Limits')
  .implement({
    description: 'The organization\'s effective plan, billing state and quota windows.',
    fields: (t) => ({
      orgId: t.exposeString('orgId'),
      recordedAt: t.expose('recordedAt', { type: 'DateTime' }),
      effectivePlanKey: t.exposeString('effectivePlanKey'),
      billingState: t.exposeString('billingState'),
      quotas: t.field({ type: [Quota], resolve: (l) => l.quotas }),
    }),
  });

const StarterGrant = builder
  .objectRef<{ planKey: string; billingState: string; calls: number; renewable: boolean; period: string | null; overflowPlanKey: string; note: string }>('StarterGrant')
  .implement({
    description: 'The free starter allowance every new organization gets.',
    fields: (t) => ({
      planKey: t.exposeString('planKey'),
      billingState: t.exposeString('billingState'),
      calls: t.exposeInt('calls'),
      renewable: t.exposeBoolean('renewable'),
      period: t.exposeString('period', { nullable: true }),
      overflowPlanKey: t.exposeString('overflowPlanKey'),
      note: t.exposeString('note'),
    }),
  });

const PlanQuota = builder.prismaObject('PlanQuota', {
  fields: (t) => ({
    meterClass: t.exposeString('meterClass'),
    period: t.field({ type: QuotaPeriod, resolve: (q) => q.period }),
    limit: t.exposeInt('limit'),
    allowed: t.exposeBoolean('allowed'),
  }),
});

const Plan = builder.prismaObject('Plan', {
  description: 'A plan of the pricing catalog. Money is in integer minor units (cents).',
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    monthlyPriceCents: t.exposeInt('monthlyPriceCents'),
    currency: t.exposeString('currency'),
    selfServe: t.exposeBoolean('selfServe'),
    quotas: t.field({ type: [PlanQuota], resolve: (plan) => (plan as typeof plan & { quotas: never[] }).quotas }),
  }),
});

const MeterClass = builder.prismaObject('MeterClass', {
  description: 'A class of metered requests with its pay-as-you-go launch rate.',
  fields: (t) => ({
    key: t.exposeString('key'),
    description: t.exposeString('description'),
    ratePer1000CallsCents: t.exposeInt('ratePer1000CallsCents', { description: 'Launch rate in cents per 1,000 calls' }),
  }),
});

const WorkflowStep = builder.objectRef<{ meterClass: string; calls: number }>('WorkflowStep').implement({
  description: 'Calls of one meter class that a run of a workflow makes.',
  fields: (t) => ({ meterClass: t.exposeString('meterClass'), calls: t.exposeInt('calls') }),
});

const Workflow = builder.objectRef<{ key: string; name: string; description: string; steps: { meterClass: string; calls: number }[] }>('Workflow').implement({
  description: 'A named workflow that billingQuote prices as a whole: a run is priced as its steps.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'what billingQuote(workflow:) takes' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    steps: t.field({ type: [WorkflowStep], resolve: (w) => w.steps }),
  }),
});

const TopUpLimits = builder.objectRef<{ minCents: number; maxCents: number }>('TopUpLimits').implement({
  description: 'The amounts one credit top-up may be.',
  fields: (t) => ({ minCents: t.exposeInt('minCents'), maxCents: t.exposeInt('maxCents') }),
});

const PricingCatalog = builder.objectRef<Awaited<ReturnType<typeof pricingCatalog>>>('PricingCatalog').implement({
  description: 'The public pricing catalog; not specific to any account.',
  fields: (t) => ({
    version: t.exposeString('version'),
    starterGrant: t.field({ type: StarterGrant, resolve: (c) => c.starterGrant }),
    plans: t.field({ type: [Plan], resolve: (c) => c.plans }),
    meterRates: t.field({ type: [MeterClass], resolve: (c) => c.meters }),
    workflows: t.field({ type: [Workflow], resolve: (c) => c.workflows }),
    topUp: t.field({ type: TopUpLimits, resolve: (c) => c.topUp }),
  }),
});

const ProcessorConfig = builder.objectRef<{ publishableKey: string | null; livemode: boolean }>('ProcessorConfig').implement({
  description: 'What a browser needs to take payments for the organization.',
  fields: (t) => ({
    publishableKey: t.exposeString('publishableKey', { nullable: true, description: 'null when browser payments are not configured' }),
    livemode: t.exposeBoolean('livemode'),
  }),
});

builder.queryFields((t) => ({
  me: t.field({
    type: PrincipalRef,
    description: 'The caller and its organization context.',
    resolve: (_root, _args, ctx) => {
      assertAccess(ctx.principal, 'authenticated');
      return ctx.principal!;
    },
  }),
  organization: t.prismaField({
    type: Organization,
    description: 'The caller\'s organization.',
    resolve: async (query, _root, _args, ctx) => {
      const org = await ctx.prisma.organization.findUnique({ ...query, where: { id: requireOrg(ctx) } });
      if (!org) throw new ApiError('organization_not_found', 'The organization of this credential no longer exists.');
      return org;
    },
  }),
  limits: t.field({
    type: Limits,
    description: 'Effective plan, billing state and quota windows of the caller\'s organization.',
    resolve: async (_root, _args, ctx) => {
      const found = await effectiveQuotas(ctx.prisma, requireOrg(ctx));
      if (!found) throw new ApiError('organization_not_found', 'The organization of this credential no longer exists.');
      return { orgId: found.org.id, recordedAt: new Date(), effectivePlanKey: found.org.planKey, billingState: found.org.billingState, quotas: found.quotas };
    },
  }),
  apiKeys: t.prismaConnection({
    type: ApiKey,
    cursor: 'id',
    description: 'The organization\'s API keys, newest first.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.apiKey.findMany({ ...query, where: { orgId: requireOrg(ctx) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
  apiKey: t.prismaField({
    extensions: meteredAsPlatform,
    type: ApiKey,
    nullable: true,
    description: 'One API key of the organization, revoked or not; null when it has none with this id.',
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => ctx.prisma.apiKey.findFirst({ ...query, where: { id: args.id, orgId: requireOrg(ctx) } }),
  }),
  pricingCatalog: t.field({ type: PricingCatalog, description: 'Public pricing catalog.', resolve: (_root, _args, ctx) => pricingCatalog(ctx.prisma) }),
  processorConfig: t.field({
    type: ProcessorConfig,
    description: 'Browser payment configuration for the caller\'s organization.',
    resolve: async (_root, _args, ctx) => {
      const org = await ctx.prisma.organization.findUnique({ where: { id: requireOrg(ctx) }, select: { livemode: true } });
      return processorConfig(ctx.config, org?.livemode ?? false);
    },
  }),
}));

const CreatedApiKey = builder.objectRef<{ apiKey: { id: string }; secret: string }>('CreatedApiKey').implement({
  description: 'A new key. `secret` is shown here once and can never be read again.',
  fields: (t) => ({
    apiKey: t.prismaField({ type: ApiKey, resolve: (query, r, _args, ctx) => ctx.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: r.apiKey.id } }) }),
    secret: t.exposeString('secret'),
  }),
});

builder.mutationFields((t) => ({
  createApiKey: t.field({ extensions: needs('keys'),
    type: CreatedApiKey,
    description: 'Create an API key (dashboard session only).',
    args: {
      name: t.arg.string({ required: true }),
      scopes: t.arg.stringList({ required: false, description: 'organization (default) or read' }),
    },
    resolve: (_root, args, ctx) => createApiKey(ctx, args.name, args.scopes),
  }),
  revokeApiKey: t.prismaField({ extensions: needs('keys'),
    type: ApiKey,
    description: 'Revoke an API key of the organization (dashboard session only). Idempotent: revoking a revoked key returns it unchanged.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const revoked = await revokeApiKey(ctx, args.id);
      return ctx.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: revoked.id } });
    },
  }),
}));

const KeyAdded = builder.objectRef<{ eventId: string; apiKeyId: string; createdAt: string }>('KeyAddedEvent').implement({
  description: 'An API key was created in the subscriber\'s organization.',
  fields: (t) => ({
    eventId: t.exposeString('eventId', { description: 'Prefixed id of the canonical event, `evt_…`' }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.createdAt }),
    apiKey: t.prismaField({ type: ApiKey, resolve: (query, e, _args, ctx) => ctx.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: e.apiKeyId } }) }),
  }),
});

builder.subscriptionFields((t) => ({
  keyAdded: t.field({
    extensions: meteredAsPlatform,
    type: KeyAdded,
    description: 'API keys created in the caller\'s organization, as they are created.',
    subscribe: async function* (_root, _args, ctx, info) {
      const orgId = requireOrg(ctx);
      const abort = new AbortController();
      try {
        for await (const event of ctx.bus.subscribe(abort.signal)) {
          if (event.type === 'api_key.created' && event.orgId === orgId) {
            yield { eventId: event.id, apiKeyId: (event.payload as { apiKeyId: string }).apiKeyId, createdAt: event.createdAt };
          }
        }
      } finally {
        abort.abort();
      }
      void info;
    },
    resolve: (event) => event,
  }),
}));

// the type of a request record's key (schema/requests.ts)
export { ApiKey };
