// The Agent family: sponsor tokens and their exchange for an agent's first API key
// (resolvers/agent.ts).
import { needs } from '../resolvers/roles.ts';
import { exchangeSponsorToken, listSponsorTokens, mintSponsorToken, revokeSponsorToken, sponsorTokenStatus, } from '../resolvers/agent.ts';
import type { SponsorToken as SponsorTokenRow } from '../prisma/generated/client/client.ts';
import { builder } from './builder.ts';

const SponsorToken = builder.prismaObject('SponsorToken', {
  description: 'A single-use sponsor token of the organization. The token itself is shown once, when minted; only its digest is kept.',
  fields: (t) => ({
    id: t.exposeString('id', { description: '`spt_…`' }),
    agentName: t.exposeString('agentName', { description: 'The name the agent\'s key gets' }),
    scopes: t.exposeStringList('scopes', { description: 'What the issued key may do' }),
    status: t.string({ description: 'active, used, revoked or expired', resolve: (r) => sponsorTokenStatus(r) }),
    createdByUserId: t.exposeString('createdByUserId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    usedAt: t.expose('usedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    apiKeyId: t.exposeString('apiKeyId', { nullable: true, description: 'The key the exchange issued' }),
  }),
});

const MintedSponsorToken = builder.objectRef<{ sponsorToken: SponsorTokenRow; token: string }>('MintedSponsorToken').implement({
  description: 'A new sponsor token. `token` is shown here once.',
  fields: (t) => ({
    token: t.exposeString('token'),
    sponsorToken: t.field({ type: SponsorToken, resolve: (r) => r.sponsorToken }),
  }),
});

type IssuedKey = { id: string; name: string; hint: string; orgId: string; createdAt: Date; scopes: string[] };

const AgentApiKey = builder.objectRef<IssuedKey>('AgentApiKey').implement({
  description: 'The API key an exchange issued.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    hint: t.exposeString('hint'),
    orgId: t.exposeString('orgId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    scopes: t.exposeStringList('scopes', { description: 'What the key may do, as the sponsor allowed' }),
  }),
});

const SponsorTokenExchange = builder.objectRef<{ sponsorToken: SponsorTokenRow; apiKey: IssuedKey; secret: string }>('SponsorTokenExchange').implement({
  description: 'The agent\'s API key; `secret` is shown here once.',
  fields: (t) => ({
    secret: t.exposeString('secret'),
    apiKey: t.field({ type: AgentApiKey, resolve: (r) => r.apiKey }),
    sponsorToken: t.field({ type: SponsorToken, resolve: (r) => r.sponsorToken }),
  }),
});

builder.queryFields((t) => ({
  sponsorTokens: t.prismaConnection({
    type: SponsorToken,
    cursor: 'id',
    description: 'The organization\'s sponsor tokens, newest first (dashboard session only). Never the tokens themselves.',
    defaultSize: 25,
    maxSize: 100,
    resolve: (query, _root, _args, ctx) => listSponsorTokens(ctx, query),
  }),
}));

builder.mutationFields((t) => ({
  createSponsorToken: t.field({ extensions: needs('keys'),
    type: MintedSponsorToken,
    description: 'Mint a single-use sponsor token for an agent (dashboard session only).',
    args: {
      agentName: t.arg.string({ required: true }),
      scopes: t.arg.stringList({ required: true }),
      ttlSeconds: t.arg.int({ required: true }),
    },
    resolve: (_root, args, ctx) => mintSponsorToken(ctx, args),
  }),
  revokeSponsorToken: t.field({ extensions: needs('keys'),
    type: SponsorToken,
    description: 'Revoke an unused sponsor token of the organization (dashboard session only). Idempotent.',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => revokeSponsorToken(ctx, args.id),
  }),
  exchangeSponsorToken: t.field({ extensions: needs('read'),
    type: SponsorTokenExchange,
    description: 'Exchange a sponsor token, with no other credential, for the agent\'s first API key. Rate-limited per client address.',
    args: { sponsorToken: t.arg.string({ required: true }), agentName: t.arg.string() },
    resolve: (_root, args, ctx) => exchangeSponsorToken(ctx, args),
  }),
}));
