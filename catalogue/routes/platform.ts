// Identity, keys, limits and the public billing reads (SPEC 2.2–2.4, 4.2, 4.3).
import { z } from 'zod';
import {
  ApiKeysDocument,
  CreateApiKeyDocument,
  RevokeApiKeyDocument,
  LimitsDocument,
  MeDocument,
  OrganizationDocument,
  PricingCatalogDocument,
  ProcessorConfigDocument,
  type ApiKeyFieldsFragment,
  type OrganizationFieldsFragment,
} from '../operations/generated.ts';
import { apiKeyIdShape } from '../../resolvers/apiKeys.ts';
import { apiKeyScopes, type ApiKeyScope } from '../../resolvers/principal.ts';
import { roles } from '../../resolvers/roles.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';

const organization = z.object({
  object: z.literal('organization'),
  id: z.string(),
  name: z.string(),
  planKey: z.string(),
  billingState: z.string(),
  livemode: z.boolean(),
  createdAt: z.iso.datetime(),
});

const apiKey = z.object({
  object: z.literal('api_key'),
  id: z.string(),
  name: z.string(),
  hint: z.string().describe('The key\'s prefix and last four characters; the secret itself is never returned again.'),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  scopes: z.array(z.enum(apiKeyScopes)).describe('`organization`: every route an API key may call; `read`: the same without mutations (a mutation is 403 insufficient_scope)'),
});

const toOrganization = (o: OrganizationFieldsFragment) => ({ object: 'organization' as const, ...o });
const toApiKey = (k: ApiKeyFieldsFragment) => ({ object: 'api_key' as const, ...k, scopes: k.scopes as ApiKeyScope[] });

const viewOnly = z.strictObject({ view: viewParam });

export const platformRoutes = [
  operationRoute({
    name: 'me_get',
    method: 'GET',
    path: '/v1/me',
    summary: 'Current principal and organization context',
    tag: 'Platform',
    access: 'authenticated',
    meter: 'platform',
    params: { query: viewOnly },
    response: z.object({
      object: z.literal('principal'),
      kind: z.enum(['api_key', 'session']),
      organization: organization.nullable(),
      apiKey: apiKey.nullable().describe('The key used for this request (API-key requests)'),
      user: z.object({ object: z.literal('user'), id: z.string(), email: z.string() }).nullable().describe('The signed-in person (session requests)'),
      sessionExpiresAt: z.iso.datetime().nullable(),
      role: z.enum(roles).nullable().describe('The person\'s role in the organization (null for an API key, or without an organization)'),
      operator: z.boolean().describe('Whether the person operates the service (/v1/operator/*)'),
      memberships: z
        .array(z.object({ organization: z.object({ id: z.string(), name: z.string() }), role: z.enum(roles) }))
        .describe('The organizations the person belongs to, oldest first, to switch between (POST /v1/auth/switch-organization); empty for an API key'),
      requestId: z.string(),
    }),
    operation: MeDocument,
  }).reshape(({ me }, meta) => ({
      object: 'principal',
      kind: me.kind,
      organization: me.organization && toOrganization(me.organization),
      apiKey: me.apiKey && toApiKey(me.apiKey),
      user: me.user && { object: 'user', ...me.user },
      sessionExpiresAt: me.sessionExpiresAt,
      role: me.role ?? null,
      operator: me.operator,
      memberships: me.memberships,
      ...meta,
    })),
  operationRoute({
    name: 'org_get',
    method: 'GET',
    path: '/v1/org',
    summary: 'Organization profile',
    tag: 'Platform',
    access: 'org',
    meter: 'platform',
    params: { query: viewOnly },
    response: organization.extend({ requestId: z.string() }),
    operation: OrganizationDocument,
  }).reshape(({ organization }, meta) => ({ ...toOrganization(organization), ...meta })),
  operationRoute({
    name: 'limits_get',
    method: 'GET',
    path: '/v1/limits',
    summary: 'Effective plan, billing state and quota windows',
    description: 'Also the way to verify a new key during rotation (SPEC 5.10).',
    tag: 'Platform',
    access: 'org',
    meter: 'platform',
    params: { query: viewOnly },
    response: z.object({
      object: z.literal('limits'),
      orgId: z.string(),
      requestId: z.string(),
      recordedAt: z.iso.datetime(),
      effectivePlanKey: z.string(),
      billingState: z.string(),
      quotas: z.array(
        z.object({
          meterClass: z.string(),
          limit: z.number().int(),
          period: z.enum(['minute', 'hour', 'day']),
          allowed: z.boolean(),
          planKey: z.string(),
          billingState: z.string(),
        }),
      ),
    }),
    operation: LimitsDocument,
  }).reshape(({ limits }, meta) => ({ object: 'limits', ...limits, ...meta })),
  operationRoute({
    name: 'api_keys_list',
    method: 'GET',
    path: '/v1/api_keys',
    summary: 'List the organization\'s API keys, newest first',
    description: 'Never returns a secret; each key shows a masked `hint`.',
    tag: 'Platform',
    access: 'org',
    meter: 'platform',
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(apiKey),
    operation: ApiKeysDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ apiKeys }, meta) => ({
      object: 'list',
      data: apiKeys.nodes.map(toApiKey),
      hasMore: apiKeys.pageInfo.hasNextPage,
      nextCursor: apiKeys.pageInfo.hasNextPage ? apiKeys.pageInfo.endCursor : null,
      ...meta,
    })),
  operationRoute({
    name: 'api_keys_create',
    method: 'POST',
    path: '/v1/api_keys',
    summary: 'Create an API key; the secret is revealed once',
    description: 'Needs a signed-in dashboard session; an API key cannot create keys.',
    tag: 'Platform',
    access: 'dashboard',
    meter: 'platform',
    params: {
      body: z.strictObject({
        name: z.string().trim().min(1).max(100).describe('A label for people, e.g. "production ingest"'),
        scopes: z.array(z.enum(apiKeyScopes)).min(1).optional().describe('What the key may do; default `["organization"]`. A `read` key serves dashboards and agents that must not change anything.'),
      }),
    },
    response: apiKey.extend({ secret: z.string().describe('The whole key. Shown only in this response; store it now.'), requestId: z.string() }),
    operation: CreateApiKeyDocument,
    variables: ({ body }) => ({ name: body.name, scopes: body.scopes ?? null }),
  }).reshape(({ createApiKey }, meta) => ({ ...toApiKey(createApiKey.apiKey), secret: createApiKey.secret, ...meta })),
  operationRoute({
    name: 'api_keys_revoke',
    method: 'DELETE',
    path: '/v1/api_keys/{key_id}',
    summary: 'Revoke an API key',
    description: 'Needs a signed-in dashboard session. Idempotent: revoking a revoked key answers the key as it is. For key rotation, create the replacement, deploy it, verify it with GET /v1/limits, then revoke the old key; revoke a leaked key first.',
    tag: 'Platform',
    access: 'dashboard',
    meter: 'platform',
    params: { path: z.strictObject({ key_id: z.string().regex(apiKeyIdShape, 'expected an API key id, key_ and 24 letters or digits') }) },
    response: apiKey.extend({ requestId: z.string() }),
    errors: ['api_key_not_found'],
    operation: RevokeApiKeyDocument,
    variables: ({ path }) => ({ id: path.key_id }),
  }).reshape(({ revokeApiKey }, meta) => ({ ...toApiKey(revokeApiKey), ...meta })),
  operationRoute({
    name: 'billing_rates_get',
    method: 'GET',
    path: '/v1/billing/rates',
    summary: 'Public pricing catalog',
    description: 'Not account-specific; no credential needed.',
    tag: 'Billing',
    access: 'public',
    meter: null,
    params: { query: viewOnly },
    response: z
      .object({
        object: z.literal('pricing_catalog'),
        requestId: z.string(),
        version: z.string(),
        starterGrant: z.object({
          object: z.literal('starter_grant'),
          planKey: z.literal('sandbox_grant'),
          billingState: z.literal('sandbox_grant'),
          calls: z.number().int(),
          renewable: z.boolean(),
          period: z.string().nullable().optional(),
          overflowPlanKey: z.string(),
          note: z.string().optional(),
        }),
        plans: z.array(z.looseObject({})),
        meterRates: z.array(z.object({ meterClass: z.string(), description: z.string(), ratePer1000CallsCents: z.number().int(), currency: z.string() })),
      })
      .loose(),
    operation: PricingCatalogDocument,
  }).reshape(({ pricingCatalog: c }, meta) => ({
      object: 'pricing_catalog',
      ...meta,
      version: c.version,
      starterGrant: { object: 'starter_grant', ...c.starterGrant, planKey: 'sandbox_grant', billingState: 'sandbox_grant' },
      plans: c.plans.map((plan) => ({ object: 'plan', ...plan })),
      meterRates: c.meterRates.map(({ key, ...rate }) => ({ meterClass: key, ...rate, currency: 'usd' })),
    })),
  operationRoute({
    name: 'billing_processor_config_get',
    method: 'GET',
    path: '/v1/billing/processor-config',
    summary: 'Browser payment configuration',
    tag: 'Billing',
    access: 'org',
    meter: 'platform',
    params: { query: viewOnly },
    response: z.strictObject({
      object: z.literal('processor_config'),
      publishableKey: z.string().nullable().describe('The publishable key for the organization\'s billing mode; null when browser payments are not configured'),
      livemode: z.boolean(),
      requestId: z.string(),
    }),
    operation: ProcessorConfigDocument,
  }).reshape(({ processorConfig }, meta) => ({ object: 'processor_config', ...processorConfig, ...meta })),
];
