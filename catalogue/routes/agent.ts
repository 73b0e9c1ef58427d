// The Agent family: a signed-in dashboard user mints a short-lived, single-use sponsor
// token; an agent holding nothing else exchanges it once for its first organization API key.
import { z } from 'zod';
import {
  CreateSponsorTokenDocument,
  ExchangeSponsorTokenDocument,
  RevokeSponsorTokenDocument,
  SponsorTokensDocument,
  type SponsorTokenFieldsFragment,
} from '../operations/generated.ts';
import { defaultTtlSeconds, exchangeWindows, maxTtlSeconds, sponsorTokenIdShape } from '../../resolvers/agent.ts';
import { apiKeyScopes, type ApiKeyScope } from '../../resolvers/principal.ts';
import { listEnvelope, operationRoute, pageParams, viewParam, type Route } from '../route.ts';

const agentRoute = { tag: 'Agent', meter: 'platform' } as const;
const limitText = exchangeWindows.map((w) => `${w.limit} a ${w.period}`).join(' and ');

const sponsorToken = z.object({
  object: z.literal('sponsor_token'),
  id: z.string().describe('`spt_…`'),
  agentName: z.string().describe('The name the agent\'s API key gets'),
  scopes: z.array(z.enum(apiKeyScopes)).describe('What the issued key may do. `organization`: every route an organization API key may call (data reads, analytics, account reads, monitors, webhooks); `read`: the same without mutations (403 `insufficient_scope`). Never the dashboard-only writes (API keys, money).'),
  status: z.enum(['active', 'used', 'revoked', 'expired']).describe('`active` until exchanged (`used`), revoked or past `expiresAt`'),
  createdByUserId: z.string().nullable().describe('The dashboard user who minted it'),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  usedAt: z.iso.datetime().nullable().describe('When the exchange that won ran; null until then'),
  revokedAt: z.iso.datetime().nullable(),
  apiKeyId: z.string().nullable().describe('The key the exchange issued (`key_…`); null until exchanged'),
});

const toToken = (t: SponsorTokenFieldsFragment) => ({
  object: 'sponsor_token' as const,
  ...t,
  scopes: t.scopes as z.infer<typeof sponsorToken>['scopes'],
  status: t.status as z.infer<typeof sponsorToken>['status'],
});

const exchange = operationRoute({
  ...agentRoute,
  name: 'agent_sponsor_token_exchange',
  method: 'POST',
  path: '/v1/agent/exchange',
  summary: 'Exchange a sponsor token for the agent\'s first API key',
  description: `Needs no credential but the sponsor token in the body. Atomically claims the token (single use: of concurrent exchanges exactly one wins) and issues an API key of the sponsor's organization, named for the agent (\`agentName\` of the token), with the scopes the sponsor set; \`api_key.created\` is emitted as for any key. The key's \`secret\` is shown once, here. An unknown, altered, expired, revoked or already used token, or an \`agentName\` other than the token's, is 401 \`authentication_failed\` and creates nothing. Rate-limited per client address, attempts that fail included: ${limitText}; beyond that 429 \`rate_limit_exceeded\` with \`Retry-After\`.`,
  access: 'public',
  meter: null,
  errors: ['authentication_failed', 'rate_limit_exceeded'],
  params: {
    body: z.strictObject({
      sponsorToken: z.string().min(1).max(200).describe('The token the sponsor minted, `idsp_…`'),
      agentName: z.string().trim().min(1).max(100).optional().describe('Optional: when given, must be the agent name the sponsor set'),
    }),
  },
  response: z.object({
    object: z.literal('agent_api_key'),
    secret: z.string().describe('The whole API key, `idsk_…`. Shown only in this response; store it now. Send it as `x-api-key`.'),
    apiKey: z.object({
      id: z.string(),
      name: z.string().describe('The agent\'s name'),
      hint: z.string().describe('The key\'s prefix and last four characters'),
      orgId: z.string().describe('The sponsor\'s organization'),
      createdAt: z.iso.datetime(),
      scopes: z.array(z.enum(apiKeyScopes)).describe('What the key may do, as the sponsor allowed'),
    }),
    sponsorToken: sponsorToken.describe('The token, now `used`'),
    requestId: z.string(),
  }),
  operation: ExchangeSponsorTokenDocument,
  variables: ({ body }) => ({ sponsorToken: body.sponsorToken, agentName: body.agentName ?? null }),
}).reshape(({ exchangeSponsorToken: x }, meta) => ({ object: 'agent_api_key', secret: x.secret, apiKey: { ...x.apiKey, scopes: x.apiKey.scopes as ApiKeyScope[] }, sponsorToken: toToken(x.sponsorToken), ...meta }));

export const agentRoutes: Route[] = [
  operationRoute({
    ...agentRoute,
    name: 'agent_sponsor_tokens_create',
    method: 'POST',
    path: '/v1/agent/sponsor-tokens',
    summary: 'Mint a single-use sponsor token for an agent; the token is revealed once',
    description: `Dashboard session only. Give the token to the agent: POST /v1/agent/exchange turns it, with no other credential, into the agent's first API key of this organization. The token expires after \`ttlSeconds\` (60 to ${maxTtlSeconds}, default ${defaultTtlSeconds}) and works once; only its SHA-256 digest is stored.`,
    access: 'dashboard',
    params: {
      body: z.strictObject({
        agentName: z.string().trim().min(1).max(100).describe('The agent\'s name; its API key is named so'),
        scopes: z.array(z.enum(apiKeyScopes)).min(1).max(10).default(['organization']).describe('What the issued key may do: `organization` (default), every route an organization API key may call; `read`, the same without mutations'),
        ttlSeconds: z.number().int().min(60).max(maxTtlSeconds).default(defaultTtlSeconds).describe(`Lifetime in seconds, 60 to ${maxTtlSeconds} (default ${defaultTtlSeconds})`),
      }),
    },
    response: sponsorToken.extend({ token: z.string().describe('The sponsor token, `idsp_…`. Shown only in this response.'), requestId: z.string() }),
    operation: CreateSponsorTokenDocument,
    variables: ({ body }) => ({ agentName: body.agentName, scopes: body.scopes, ttlSeconds: body.ttlSeconds }),
  }).reshape(({ createSponsorToken: m }, meta) => ({ ...toToken(m.sponsorToken), token: m.token, ...meta })),
  operationRoute({
    ...agentRoute,
    name: 'agent_sponsor_tokens_list',
    method: 'GET',
    path: '/v1/agent/sponsor-tokens',
    summary: 'List the organization\'s sponsor tokens, newest first',
    description: 'Dashboard session only. Never returns a token itself: each shows its status and, once exchanged, the key it issued.',
    access: 'dashboard',
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(sponsorToken),
    operation: SponsorTokensDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ sponsorTokens }, meta) => ({
    object: 'list',
    data: sponsorTokens.nodes.map(toToken),
    hasMore: sponsorTokens.pageInfo.hasNextPage,
    nextCursor: sponsorTokens.pageInfo.hasNextPage ? sponsorTokens.pageInfo.endCursor : null,
    ...meta,
  })),
  operationRoute({
    ...agentRoute,
    name: 'agent_sponsor_tokens_revoke',
    method: 'DELETE',
    path: '/v1/agent/sponsor-tokens/{sponsor_token_id}',
    summary: 'Revoke an unused sponsor token',
    description: 'Dashboard session only. Idempotent: a revoked or used token is answered as it is (revoking never touches an issued key: revoke that at DELETE /v1/api_keys/{key_id}). Another organization\'s token is 404.',
    access: 'dashboard',
    errors: ['sponsor_token_not_found'],
    params: { path: z.strictObject({ sponsor_token_id: z.string().regex(sponsorTokenIdShape, 'expected a sponsor token id, spt_ and 24 letters or digits') }) },
    response: sponsorToken.extend({ requestId: z.string() }),
    operation: RevokeSponsorTokenDocument,
    variables: ({ path }) => ({ id: path.sponsor_token_id }),
  }).reshape(({ revokeSponsorToken }, meta) => ({ ...toToken(revokeSponsorToken), ...meta })),
  exchange,
];
