// The Agent family: a signed-in dashboard user mints a short-lived, single-use sponsor
// token for their organization; an agent holding nothing else exchanges it, once, for its first
// API key in that organization (shown once, named for the agent). Only a SHA-256 digest of the
// token is stored. The exchange is public, so it is rate-limited per client address, and every
// failure (unknown, tampered, expired, used, revoked) is the same 401 with nothing created.
import type { SponsorToken } from '../prisma/generated/client/client.ts';
import { randomBase62, sha256Hex } from '../core/ids.ts';
import { ApiError } from '../core/errors.ts';
import type { QuotaWindow } from '../core/limiter.ts';
import { publishAll } from '../subscriptions/events.ts';
import { requireDashboard } from './access.ts';
import { insertApiKey, parseScopes } from './apiKeys.ts';
import { recordAudit } from './accounts/audit.ts';
import type { Context } from './context.ts';

export const sponsorTokenPrefix = 'idsp_';
/** `idsp_` and 43 base62 characters (about 256 bits); not the API key prefix, so bodies carrying it are not refused as leaked keys */
export const sponsorTokenShape = /^idsp_[0-9A-Za-z]{43}$/;
export const sponsorTokenIdShape = /^spt_[0-9A-Za-z]{24}$/;
export const defaultTtlSeconds = 600;
export const maxTtlSeconds = 3600;

/** Exchange attempts per client address, successful or not: 20 a minute and 100 an hour. */
export const exchangeWindows: QuotaWindow[] = [
  { period: 'minute', limit: 20 },
  { period: 'hour', limit: 100 },
];

export function sponsorTokenStatus(t: Pick<SponsorToken, 'usedAt' | 'revokedAt' | 'expiresAt'>, now = new Date()): 'active' | 'used' | 'revoked' | 'expired' {
  if (t.usedAt) return 'used';
  if (t.revokedAt) return 'revoked';
  if (t.expiresAt <= now) return 'expired';
  return 'active';
}

export async function mintSponsorToken(ctx: Context, input: { agentName: string; scopes: string[]; ttlSeconds: number }) {
  const session = requireDashboard(ctx);
  const agentName = input.agentName.trim();
  if (!agentName || agentName.length > 100) throw new ApiError('invalid_request_parameter', 'agentName must be 1 to 100 characters.', { details: { parameter: 'agentName' } });
  const scopes = parseScopes(input.scopes);
  if (!Number.isInteger(input.ttlSeconds) || input.ttlSeconds < 60 || input.ttlSeconds > maxTtlSeconds) {
    throw new ApiError('invalid_request_parameter', `ttlSeconds must be an integer from 60 to ${maxTtlSeconds}.`, { details: { parameter: 'ttlSeconds' } });
  }
  const token = sponsorTokenPrefix + randomBase62(43);
  const row = await ctx.prisma.sponsorToken.create({
    data: {
      id: `spt_${randomBase62(24)}`,
      orgId: session.orgId,
      createdByUserId: session.userId,
      agentName,
      scopes,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + input.ttlSeconds * 1000),
    },
  });
  return { sponsorToken: row, token };
}

export async function listSponsorTokens<Q extends object>(ctx: Context, query: Q) {
  const session = requireDashboard(ctx);
  return ctx.prisma.sponsorToken.findMany({ ...query, where: { orgId: session.orgId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** Revokes an unused token of the session's organization; another organization's token is not found. Idempotent. */
export async function revokeSponsorToken(ctx: Context, id: string) {
  const session = requireDashboard(ctx);
  const notFound = () => new ApiError('sponsor_token_not_found', `No sponsor token ${id} in this organization.`);
  if (!sponsorTokenIdShape.test(id)) throw notFound();
  const [revoked] = await ctx.prisma.sponsorToken.updateManyAndReturn({ where: { id, orgId: session.orgId, usedAt: null, revokedAt: null }, data: { revokedAt: new Date() } });
  if (revoked) return revoked;
  // already revoked or used (answered as it is), or not this organization's
  const found = await ctx.prisma.sponsorToken.findFirst({ where: { id, orgId: session.orgId } });
  if (!found) throw notFound();
  return found;
}

const refused = () => new ApiError('authentication_failed', 'The sponsor token is not valid: it is unknown, altered, expired, revoked or already used. Ask your sponsor for a new one.');

/**
 * The exchange: counts the attempt against the caller's address, then in one transaction claims
 * the token (a conditional UPDATE: of two concurrent exchanges exactly one matches the unused row)
 * and writes the key and its `api_key.created` event; any failure rolls both back.
 */
export async function exchangeSponsorToken(ctx: Context, input: { sponsorToken: string; agentName?: string | null }) {
  // every door counts the same attempts per peer address (the service's own callers have none)
  const subject = `agent_exchange:${ctx.clientAddress ?? 'internal'}`;
  const decision = await ctx.limiter.consume(subject, exchangeWindows, 'open');
  if (decision.allowed === false) {
    throw new ApiError('rate_limit_exceeded', `Too many sponsor-token exchanges from this address: the ${decision.period} window (${decision.limit}) is full.`, {
      retryAfter: decision.retryAfterSeconds,
      details: { period: decision.period, limit: decision.limit },
    });
  }
  if (!sponsorTokenShape.test(input.sponsorToken)) throw refused();
  const tokenHash = sha256Hex(input.sponsorToken);
  const agentName = input.agentName?.trim() || undefined;
  const now = new Date();
  const { token, apiKey, secret, events } = await ctx.prisma.$transaction(async (tx) => {
    const [claimed] = await tx.sponsorToken.updateManyAndReturn({
      where: { tokenHash, usedAt: null, revokedAt: null, expiresAt: { gt: now }, ...(agentName ? { agentName } : {}) },
      data: { usedAt: now },
    });
    if (!claimed) throw refused();
    const { apiKey, secret, event } = await insertApiKey(tx, claimed.orgId, claimed.agentName, claimed.createdByUserId, ctx.requestId, claimed.scopes);
    const used = await tx.sponsorToken.update({ where: { id: claimed.id }, data: { apiKeyId: apiKey.id } });
    // the person who minted the token let the agent in: the entry is theirs
    const sponsor = claimed.createdByUserId ? await tx.user.findUnique({ where: { id: claimed.createdByUserId }, select: { id: true, email: true } }) : null;
    const audit = await recordAudit(tx, ctx, claimed.orgId, 'api_key.created', { type: 'api_key', id: apiKey.id }, { name: apiKey.name, hint: apiKey.hint, scopes: apiKey.scopes, via: 'sponsor_token', sponsorTokenId: claimed.id }, sponsor ? { type: 'user', id: sponsor.id, email: sponsor.email } : { type: 'system', id: null, email: null });
    return { token: used, apiKey, secret, events: [event, audit] };
  });
  await publishAll(ctx.bus, events);
  return { sponsorToken: token, apiKey, secret };
}
