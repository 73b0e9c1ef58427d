// /v1/operator/*: the service's operators, across organizations (resolvers/operators.ts). Every
// route needs an operator (`ids operators:create`), signed in, in any organization or none; anyone
// else is 403 operator_scope_required at every door. Unmetered: an operator's work is not the
// usage of the organization they happen to be signed in to.
import { z } from 'zod';
import {
  OperatorAdjustCreditsDocument,
  OperatorIngestFailuresDocument,
  OperatorIngestRunsDocument,
  OperatorOrganizationDocument,
  OperatorOrganizationsDocument,
  OperatorSetPlanDocument,
  SuspendOrganizationDocument,
  UnsuspendOrganizationDocument,
  type OperatorOrganizationSummaryFragment,
  type OperatorUsageFieldsFragment,
} from '../operations/generated.ts';
import { planStates } from '../../resolvers/billing/account.ts';
import { roles } from '../../resolvers/roles.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';

const summary = z.object({
  object: z.literal('operator_organization'),
  id: z.string(),
  name: z.string(),
  planKey: z.string(),
  billingState: z.string(),
  livemode: z.boolean(),
  isDemo: z.boolean(),
  createdAt: z.iso.datetime(),
  suspendedAt: z.iso.datetime().nullable(),
  suspendedReason: z.string().nullable(),
  memberCount: z.number().int(),
});

const usage = z.object({
  since: z.iso.datetime(),
  requests: z.number().int(),
  errors: z.number().int().describe('Answered 4xx or 5xx'),
  byMeterClass: z.array(z.object({ meterClass: z.string(), requests: z.number().int(), units: z.number().int().describe('Units charged: a GraphQL operation\'s cost, else 1 per request') })),
});

const detail = summary.extend({
  creditBalanceMillicents: z.number().int().describe('Prepaid credit settled in the ledger'),
  usage: z.object({ last24h: usage, last30d: usage }).describe('From the request records (IDS_REQUEST_RECORDS)'),
  members: z.array(z.object({ id: z.string(), email: z.string(), role: z.enum(roles), joinedAt: z.iso.datetime(), lastSignInAt: z.iso.datetime().nullable() })).describe('The first 100, in the order they joined'),
});

const toSummary = (o: OperatorOrganizationSummaryFragment) => ({ object: 'operator_organization' as const, ...o });
const toUsage = (u: OperatorUsageFieldsFragment) => u;

const orgPath = z.strictObject({ org_id: z.string().regex(/^org_[0-9A-Za-z]{24}$/, 'expected an organization id, org_ and 24 letters or digits') });
const common = { tag: 'Operator', access: 'authenticated' as const, meter: null };
const orgErrors = ['organization_not_found'];
const page = (connection: { pageInfo: { hasNextPage: boolean; endCursor?: string | null } }) => ({
  hasMore: connection.pageInfo.hasNextPage,
  nextCursor: connection.pageInfo.hasNextPage ? (connection.pageInfo.endCursor ?? null) : null,
});

export const operatorRoutes = [
  operationRoute({
    name: 'operator_organizations_list',
    method: 'GET',
    path: '/v1/operator/organizations',
    summary: 'Every organization, newest first; search by id, name or member email',
    ...common,
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, q: z.string().trim().min(1).max(200).optional().describe('An organization id, a part of its name, or a part of a member\'s email'), view: viewParam }) },
    response: listEnvelope(summary),
    operation: OperatorOrganizationsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, q: query.q ?? null }),
  }).reshape(({ operatorOrganizations: connection }, meta) => ({ object: 'list', data: connection.nodes.map(toSummary), ...page(connection), ...meta })),
  operationRoute({
    name: 'operator_organizations_get',
    method: 'GET',
    path: '/v1/operator/organizations/{org_id}',
    summary: 'One organization: plan, billing state, credit, usage over 24 hours and 30 days, members',
    ...common,
    mcp: true,
    params: { path: orgPath, query: z.strictObject({ view: viewParam }) },
    response: detail.extend({ requestId: z.string() }),
    errors: orgErrors,
    operation: OperatorOrganizationDocument,
    variables: ({ path }) => ({ id: path.org_id }),
  }).reshape(({ operatorOrganization: o }, meta) => {
    const { creditBalanceMillicents, usageLast24h, usageLast30d, members, ...rest } = o;
    return { ...toSummary(rest), creditBalanceMillicents: Number(creditBalanceMillicents), usage: { last24h: toUsage(usageLast24h), last30d: toUsage(usageLast30d) }, members, ...meta };
  }),
  operationRoute({
    name: 'operator_organizations_set_plan',
    method: 'POST',
    path: '/v1/operator/organizations/{org_id}/plan',
    summary: 'Move an organization to a plan and billing state',
    description: 'As `ids billing:set-plan`; every instance applies it at once, and the organization\'s audit log names the operator.',
    ...common,
    params: {
      path: orgPath,
      body: z.strictObject({
        planKey: z.string().min(1).max(50).describe('sandbox_grant, payg, personal, team or enterprise'),
        billingState: z.enum(planStates).optional().describe('Default: sandbox_grant for the starter plan, else active'),
      }),
    },
    response: summary.extend({ requestId: z.string() }),
    errors: orgErrors,
    operation: OperatorSetPlanDocument,
    variables: ({ path, body }) => ({ organizationId: path.org_id, planKey: body.planKey, billingState: body.billingState ?? null }),
  }).reshape(({ operatorSetPlan: o }, meta) => ({ ...toSummary(o), ...meta })),
  operationRoute({
    name: 'operator_organizations_adjust_credits',
    method: 'POST',
    path: '/v1/operator/organizations/{org_id}/credits',
    summary: 'Add or remove prepaid credit as an adjustment entry of the ledger',
    description: 'As `ids credits:adjust`: a negative amount removes credit, never below zero. The reason is the entry\'s description and is written to the audit log.',
    ...common,
    params: {
      path: orgPath,
      body: z.strictObject({
        amountCents: z.number().int().min(-100_000_000).max(100_000_000).refine((n) => n !== 0, 'must not be zero').describe('Cents to add (negative: remove)'),
        reason: z.string().trim().min(1).max(500),
      }),
    },
    response: z.object({
      object: z.literal('credit_adjustment'),
      ledgerEntryId: z.string(),
      amountMillicents: z.number().int(),
      balanceAfterMillicents: z.number().int(),
      organization: summary.extend({ creditBalanceMillicents: z.number().int() }),
      requestId: z.string(),
    }),
    errors: orgErrors,
    operation: OperatorAdjustCreditsDocument,
    variables: ({ path, body }) => ({ organizationId: path.org_id, amountCents: body.amountCents, reason: body.reason }),
  }).reshape(({ operatorAdjustCredits: a }, meta) => {
    const { creditBalanceMillicents, ...org } = a.organization;
    return {
      object: 'credit_adjustment',
      ledgerEntryId: a.ledgerEntryId,
      amountMillicents: Number(a.amountMillicents),
      balanceAfterMillicents: Number(a.balanceAfterMillicents),
      organization: { ...toSummary(org), creditBalanceMillicents: Number(creditBalanceMillicents) },
      ...meta,
    };
  }),
  operationRoute({
    name: 'operator_organizations_suspend',
    method: 'POST',
    path: '/v1/operator/organizations/{org_id}/suspend',
    summary: 'Suspend an organization',
    description: 'From the next request, on every instance, its API keys and its members\' sessions in it are refused with 403 `organization_suspended` (its members can still sign in and use their other organizations). Idempotent.',
    ...common,
    params: { path: orgPath, body: z.strictObject({ reason: z.string().trim().min(1).max(500).describe('Why; kept with the organization and in its audit log') }) },
    response: summary.extend({ requestId: z.string() }),
    errors: orgErrors,
    operation: SuspendOrganizationDocument,
    variables: ({ path, body }) => ({ organizationId: path.org_id, reason: body.reason }),
  }).reshape(({ suspendOrganization: o }, meta) => ({ ...toSummary(o), ...meta })),
  operationRoute({
    name: 'operator_organizations_unsuspend',
    method: 'POST',
    path: '/v1/operator/organizations/{org_id}/unsuspend',
    summary: 'Lift an organization\'s suspension',
    description: 'Idempotent.',
    ...common,
    params: { path: orgPath },
    response: summary.extend({ requestId: z.string() }),
    errors: orgErrors,
    operation: UnsuspendOrganizationDocument,
    variables: ({ path }) => ({ organizationId: path.org_id }),
  }).reshape(({ unsuspendOrganization: o }, meta) => ({ ...toSummary(o), ...meta })),
  operationRoute({
    name: 'operator_ingest_runs_list',
    method: 'GET',
    path: '/v1/operator/ingest/runs',
    summary: 'Runs of the ingest, newest first',
    ...common,
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(
      z.object({
        object: z.literal('ingest_run'),
        id: z.string(),
        source: z.string(),
        startedAt: z.iso.datetime(),
        finishedAt: z.iso.datetime().nullable().describe('Null while it runs, or when it was cut short'),
        read: z.number().int(),
        written: z.number().int(),
        skipped: z.number().int(),
        failed: z.number().int(),
      }),
    ),
    operation: OperatorIngestRunsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ operatorIngestRuns: connection }, meta) => ({ object: 'list', data: connection.nodes.map((r) => ({ object: 'ingest_run' as const, ...r })), ...page(connection), ...meta })),
  operationRoute({
    name: 'operator_ingest_failures_list',
    method: 'GET',
    path: '/v1/operator/ingest/failures',
    summary: 'Items the ingest could not load, or loaded in part, with the reason',
    description: 'As `ids ingest:failures`: failed items first, then partial ones, by source.',
    ...common,
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(
      z.object({
        object: z.literal('ingest_failure'),
        sourceKey: z.string().describe('The file or URL'),
        kind: z.string(),
        status: z.enum(['failed', 'partial']),
        reason: z.string().nullable(),
        records: z.number().int(),
        runId: z.string(),
        updatedAt: z.iso.datetime(),
      }),
    ),
    operation: OperatorIngestFailuresDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ operatorIngestFailures: connection }, meta) => ({
    object: 'list',
    data: connection.nodes.map((i) => ({ object: 'ingest_failure' as const, ...i, status: i.status as 'failed' | 'partial' })),
    ...page(connection),
    ...meta,
  })),
];
