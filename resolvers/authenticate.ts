// Turns a request's credentials into a principal. API keys come only in `x-api-key`; a key
// presented any other way is refused, so that clients learn the safe habit.
import { ApiError } from '../core/errors.ts';
import { newId, sha256Hex } from '../core/ids.ts';
import { looksLikeApiKey, verifyApiKey } from './apiKeys.ts';
import type { Services } from './context.ts';
import type { Principal } from './principal.ts';

export interface Credentials {
  apiKey?: string;
  authorization?: string;
}

export async function authenticate(services: Services, credentials: Credentials): Promise<Principal | null> {
  const { apiKey, authorization } = credentials;
  if (apiKey && authorization) throw new ApiError('authentication_failed', 'Send one credential: an API key in x-api-key or a session in Authorization, not both.');
  if (authorization) {
    const [scheme, token] = authorization.split(/\s+/, 2);
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw new ApiError('authentication_failed', 'Authorization must be `Bearer <session token>`.');
    if (looksLikeApiKey(token)) throw new ApiError('authentication_failed', 'API keys are sent in the x-api-key header, never as a bearer token.');
    return sessionPrincipal(services, token);
  }
  if (apiKey) {
    const principal = await verifyApiKey(services, apiKey);
    if (!principal) throw new ApiError('authentication_failed', 'The API key was not recognized or has been revoked.');
    return principal;
  }
  return null;
}

async function sessionPrincipal(services: Services, token: string): Promise<Principal> {
  const digest = sha256Hex(token);
  const cached = services.cache.sessions.get(digest);
  if (cached && cached.expiresAt.getTime() > Date.now()) return cached;
  const principal = await loadSessionPrincipal(services, token);
  const untilExpiry = principal.expiresAt.getTime() - Date.now();
  if (untilExpiry > 0) services.cache.sessions.set(digest, principal, { ttl: Math.min(services.config.requestCacheTtlMs, untilExpiry) });
  return principal;
}

async function loadSessionPrincipal(services: Services, token: string): Promise<Extract<Principal, { kind: 'session' }>> {
  const claims = await services.sessions.verify(token);
  const { prisma } = services;
  const user =
    (await prisma.user.findUnique({ where: { email: claims.email } })) ??
    (await prisma.user.upsert({ where: { email: claims.email }, create: { id: newId('usr'), email: claims.email }, update: {} }));
  const org = claims.orgId
    ? await prisma.organization.findFirst({ where: { OR: [{ id: claims.orgId }, { externalId: claims.orgId }] }, select: { id: true } })
    : null;
  return { kind: 'session', userId: user.id, email: claims.email, orgId: org?.id ?? null, expiresAt: claims.expiresAt };
}
