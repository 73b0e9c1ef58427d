// The service's operators (resolvers/operators.ts): every organization, its plan, billing, credit,
// usage and members; plan and credit changes; suspension; the ingest's runs and failures. Every
// field needs the `operator` capability, which only people made operators have, in any
// organization or none.
import {
  creditBalanceMillicents,
  ingestFailureOrder,
  ingestFailureWhere,
  operatorActor,
  operatorAdjustCredits,
  operatorOrganization,
  operatorSetPlan,
  organizationSearch,
  organizationUsage,
  suspendOrganization,
  unsuspendOrganization,
  type UsageWindow,
} from '../resolvers/operators.ts';
import { listMembers } from '../resolvers/accounts/members.ts';
import { needs } from '../resolvers/roles.ts';
import { builder } from './builder.ts';
import { Member } from './members.ts';

const dayMs = 86_400_000;

const MeterUsage = builder.objectRef<UsageWindow['byMeterClass'][number]>('OperatorMeterUsage').implement({
  fields: (t) => ({
    meterClass: t.exposeString('meterClass', { description: '`none` for requests refused before a meter class applied' }),
    requests: t.exposeInt('requests'),
    units: t.exposeInt('units', { description: 'Units charged (a GraphQL operation\'s cost, else 1 per request)' }),
  }),
});

const Usage = builder.objectRef<UsageWindow>('OperatorUsage').implement({
  description: 'Requests an organization made in a window, from the request records.',
  fields: (t) => ({
    since: t.expose('since', { type: 'DateTime' }),
    requests: t.exposeInt('requests'),
    errors: t.exposeInt('errors', { description: 'Answered 4xx or 5xx' }),
    byMeterClass: t.field({ type: [MeterUsage], resolve: (u) => u.byMeterClass }),
  }),
});

const OperatorOrganization = builder.prismaObject('Organization', {
  variant: 'OperatorOrganization',
  description: 'An organization as the service\'s operators see it.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    planKey: t.exposeString('planKey'),
    billingState: t.exposeString('billingState'),
    livemode: t.exposeBoolean('livemode'),
    isDemo: t.exposeBoolean('isDemo'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    suspendedAt: t.expose('suspendedAt', { type: 'DateTime', nullable: true }),
    suspendedReason: t.exposeString('suspendedReason', { nullable: true }),
    memberCount: t.relationCount('memberships'),
    creditBalanceMillicents: t.field({ type: 'Long', description: 'Prepaid credit settled in the ledger', resolve: (o, _a, ctx) => creditBalanceMillicents(ctx.prisma, o.id) }),
    usageLast24h: t.field({ type: Usage, resolve: (o, _a, ctx) => organizationUsage(ctx.prisma, o.id, new Date(Date.now() - dayMs)) }),
    usageLast30d: t.field({ type: Usage, resolve: (o, _a, ctx) => organizationUsage(ctx.prisma, o.id, new Date(Date.now() - 30 * dayMs)) }),
    members: t.field({
      type: [Member],
      description: 'The first 100 members, in the order they joined',
      resolve: async (o, _a, ctx) => (await listMembers(ctx.prisma, o.id, { first: 100 })).edges.map((e) => e.node),
    }),
  }),
});

const IngestRun = builder.prismaObject('IngestRun', {
  description: 'One run of the ingest (`ids ingest`, or the first start\'s).',
  fields: (t) => ({
    id: t.exposeString('id'),
    source: t.exposeString('source'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true, description: 'Null while it runs, or when it was cut short' }),
    read: t.exposeInt('read'),
    written: t.exposeInt('written'),
    skipped: t.exposeInt('skipped'),
    failed: t.exposeInt('failed'),
  }),
});

const IngestFailure = builder.prismaObject('IngestItem', {
  name: 'IngestFailure',
  description: 'An item the ingest could not load (failed), or loaded with parts left out (partial).',
  fields: (t) => ({
    sourceKey: t.exposeString('sourceKey', { description: 'The file or URL' }),
    kind: t.exposeString('kind'),
    status: t.exposeString('status', { description: 'failed or partial' }),
    reason: t.exposeString('reason', { nullable: true }),
    records: t.exposeInt('records'),
    runId: t.exposeString('runId'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CreditAdjustment = builder.objectRef<{ id: string; amountMillicents: bigint; balanceAfterMillicents: bigint; orgId: string }>('OperatorCreditAdjustment').implement({
  description: 'An `adjustment` entry of the credit ledger.',
  fields: (t) => ({
    ledgerEntryId: t.exposeString('id'),
    amountMillicents: t.expose('amountMillicents', { type: 'Long' }),
    balanceAfterMillicents: t.expose('balanceAfterMillicents', { type: 'Long' }),
    organization: t.prismaField({ type: OperatorOrganization, resolve: (query, r, _a, ctx) => ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id: r.orgId } }) }),
  }),
});

const operator = needs('operator');

builder.queryFields((t) => ({
  operatorOrganizations: t.prismaConnection({
    extensions: operator,
    type: OperatorOrganization,
    cursor: 'id',
    description: 'Every organization, newest first; `q` finds one by id, a part of its name, or a part of a member\'s email.',
    defaultSize: 25,
    maxSize: 100,
    args: { q: t.arg.string() },
    resolve: (query, _r, args, ctx) => {
      operatorActor(ctx);
      return ctx.prisma.organization.findMany({ ...query, where: organizationSearch(args.q), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },
  }),
  operatorOrganization: t.prismaField({
    extensions: operator,
    type: OperatorOrganization,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id: (await operatorOrganization(ctx, args.id)).id } }),
  }),
  operatorIngestRuns: t.prismaConnection({
    extensions: operator,
    type: IngestRun,
    cursor: 'id',
    description: 'Runs of the ingest, newest first.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _r, _a, ctx) => {
      operatorActor(ctx);
      return ctx.prisma.ingestRun.findMany({ ...query, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }] });
    },
  }),
  operatorIngestFailures: t.prismaConnection({
    extensions: operator,
    type: IngestFailure,
    cursor: 'sourceKey',
    description: 'Items the ingest could not load, or loaded in part, as `ids ingest:failures` lists them.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _r, _a, ctx) => {
      operatorActor(ctx);
      return ctx.prisma.ingestItem.findMany({ ...query, where: ingestFailureWhere, orderBy: ingestFailureOrder });
    },
  }),
}));


builder.mutationFields((t) => ({
  operatorSetPlan: t.prismaField({
    extensions: operator,
    type: OperatorOrganization,
    description: 'Move an organization to a plan and billing state (default: sandbox_grant for the starter plan, else active).',
    args: { organizationId: t.arg.string({ required: true }), planKey: t.arg.string({ required: true }), billingState: t.arg.string() },
    resolve: async (query, _r, args, ctx) => ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id: (await operatorSetPlan(ctx, args.organizationId, args.planKey, args.billingState)).id } }),
  }),
  operatorAdjustCredits: t.field({
    extensions: operator,
    type: CreditAdjustment,
    description: 'Add (or, negative, remove) prepaid credit as an `adjustment` ledger entry; never below zero.',
    args: { organizationId: t.arg.string({ required: true }), amountCents: t.arg.int({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const entry = await operatorAdjustCredits(ctx, args.organizationId, args.amountCents, args.reason);
      return { id: entry.id, amountMillicents: entry.amountMillicents, balanceAfterMillicents: entry.balanceAfterMillicents, orgId: args.organizationId };
    },
  }),
  suspendOrganization: t.prismaField({
    extensions: operator,
    type: OperatorOrganization,
    description: 'Suspend an organization: its API keys and its members\' sessions in it are refused (403 organization_suspended) until it is unsuspended. Idempotent.',
    args: { organizationId: t.arg.string({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id: (await suspendOrganization(ctx, args.organizationId, args.reason)).id } }),
  }),
  unsuspendOrganization: t.prismaField({
    extensions: operator,
    type: OperatorOrganization,
    description: 'Lift an organization\'s suspension. Idempotent.',
    args: { organizationId: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => ctx.prisma.organization.findUniqueOrThrow({ ...query, where: { id: (await unsuspendOrganization(ctx, args.organizationId)).id } }),
  }),
}));
