// API keys: a fixed prefix and 40 base62 characters (about 238 bits). Only a SHA-256 digest
// is stored; the key is shown once, when it is created.
import { timingSafeEqual } from 'node:crypto';
import type { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId, randomBase62, sha256Hex } from '../core/ids.ts';
import { publishAll, recordEvent } from '../subscriptions/events.ts';
import { requireDashboard } from './access.ts';
import { apiKeyScopes, type ApiKeyScope } from './principal.ts';
import type { Context, Services } from './context.ts';
import type { Principal } from './principal.ts';
import type { CachedKey } from './requestCache.ts';
import { recordAudit } from './accounts/audit.ts';

export const apiKeyPrefix = 'idsk_';
/** the shape of an API key's id, `key_` and 24 base62 characters */
export const apiKeyIdShape = /^key_[0-9A-Za-z]{24}$/;
const keyShape = /^idsk_[0-9A-Za-z]{40}$/;
export const defaultScopes: ApiKeyScope[] = ['organization'];

/** The scopes a client asked for, deduplicated; an unknown one is refused with the accepted values. */
export function parseScopes(requested: readonly string[] | null | undefined, parameter = 'scopes'): ApiKeyScope[] {
  if (requested == null) return defaultScopes;
  const scopes = [...new Set(requested)];
  if (scopes.length === 0 || scopes.some((s) => !(apiKeyScopes as readonly string[]).includes(s))) {
    throw new ApiError('invalid_request_parameter', `${parameter} must name at least one of ${apiKeyScopes.join(', ')}.`, { details: { parameter, acceptedValues: [...apiKeyScopes] } });
  }
  return scopes as ApiKeyScope[];
}

/** anything that looks like one of our keys, wherever it turns up */
export const apiKeyPattern = /idsk_[0-9A-Za-z]{20,}/;

export function looksLikeApiKey(value: string): boolean {
  return apiKeyPattern.test(value);
}

export function generateApiKey(): { secret: string; hint: string; secretHash: string } {
  const secret = apiKeyPrefix + randomBase62(40);
  return { secret, hint: `${apiKeyPrefix}…${secret.slice(-4)}`, secretHash: sha256Hex(secret) };
}

/** lastUsedAt is a hint for people, so it is written at most once a minute per key */
const lastUsedPrecisionMs = 60_000;

export async function verifyApiKey(services: Services, presented: string): Promise<Principal | null> {
  if (!keyShape.test(presented)) return null;
  const digest = sha256Hex(presented);
  const key = services.cache.keys.get(digest) ?? (await loadKey(services, digest));
  if (!key) return null;
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > lastUsedPrecisionMs) {
    key.lastUsedAt = new Date();
    services.prisma.apiKey
      .update({ where: { id: key.id }, data: { lastUsedAt: key.lastUsedAt } })
      .catch((error: Error) => services.logger.warn({ err: error.message, apiKeyId: key.id }, 'could not record key use'));
  }
  return { kind: 'api_key', apiKeyId: key.id, orgId: key.orgId, scopes: key.scopes, key };
}

/** A live key by its digest, remembered in the request cache; unknown and revoked keys are not. */
async function loadKey(services: Services, digest: string): Promise<CachedKey | null> {
  const key = await services.prisma.apiKey.findUnique({ where: { secretHash: digest } });
  if (!key || key.revokedAt) return null;
  if (!timingSafeEqual(Buffer.from(key.secretHash, 'hex'), Buffer.from(digest, 'hex'))) return null;
  services.cache.keys.set(digest, key);
  return key;
}

/** Writes a key and its `api_key.created` event in the caller's transaction; publish the event after commit. */
export async function insertApiKey(tx: Prisma.TransactionClient, orgId: string, name: string, createdByUserId: string | null = null, requestId?: string, scopes: readonly string[] = defaultScopes) {
  const { secret, hint, secretHash } = generateApiKey();
  const apiKey = await tx.apiKey.create({ data: { id: newId('key'), orgId, name, hint, secretHash, createdByUserId, scopes: [...scopes] } });
  const event = await recordEvent(tx, 'api_key.created', orgId, { apiKeyId: apiKey.id, name, hint, scopes: [...scopes] }, requestId);
  return { apiKey, secret, event };
}

/** Creates a key inside an organization (operator CLI and tests; no principal involved). */
export async function issueApiKey(services: Pick<Services, 'prisma' | 'bus'>, orgId: string, name: string, createdByUserId: string | null = null, requestId?: string, scopes: readonly string[] = defaultScopes) {
  const { apiKey, secret, event } = await services.prisma.$transaction((tx) => insertApiKey(tx, orgId, name, createdByUserId, requestId, scopes));
  await publishAll(services.bus, [event]);
  return { apiKey, secret };
}

/** A person creates a key in their organization: the key, its event and its audit entry in one transaction. */
export async function createApiKey(ctx: Context, name: string, scopes?: readonly string[] | null) {
  const session = requireDashboard(ctx);
  const granted = parseScopes(scopes);
  const { apiKey, secret, events } = await ctx.prisma.$transaction(async (tx) => {
    const created = await insertApiKey(tx, session.orgId, name, session.userId, ctx.requestId, granted);
    const audit = await recordAudit(tx, ctx, session.orgId, 'api_key.created', { type: 'api_key', id: created.apiKey.id }, { name, hint: created.apiKey.hint, scopes: granted });
    return { ...created, events: [created.event, audit] };
  });
  await publishAll(ctx.bus, events);
  return { apiKey, secret };
}

/** Revokes a key of the session's organization; revoking a revoked key changes nothing. */
export async function revokeApiKey(ctx: Context, keyId: string) {
  const session = requireDashboard(ctx);
  const key = await ctx.prisma.apiKey.findFirst({ where: { id: keyId, orgId: session.orgId } });
  if (!key) throw new ApiError('api_key_not_found', `No API key ${keyId} in this organization.`);
  if (key.revokedAt) return key;
  const { apiKey, event } = await ctx.prisma.$transaction(async (tx) => {
    const apiKey = await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    const event = await recordEvent(tx, 'api_key.revoked', session.orgId, { apiKeyId: key.id, hint: key.hint }, ctx.requestId);
    const audit = await recordAudit(tx, ctx, session.orgId, 'api_key.revoked', { type: 'api_key', id: key.id }, { name: key.name, hint: key.hint });
    return { apiKey, event: [event, audit] };
  });
  await publishAll(ctx.bus, event);
  ctx.cache.forgetOrg(session.orgId); // other instances forget it when the event reaches them
  return apiKey;
}
