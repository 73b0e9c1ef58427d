// Turns a request's credentials into a principal. API keys come only in `x-api-key`; a key
// presented any other way is refused, so that clients learn the safe habit. A session comes as a
// bearer token (scripts, other services) or as the browser's cookie, which is read only when no
// other credential was sent.
import { ApiError } from '../core/errors.ts';
import { newId, sha256Hex } from '../core/ids.ts';
import { looksLikeApiKey, verifyApiKey } from './apiKeys.ts';
import type { SessionClaims } from './sessions.ts';
import type { Services } from './context.ts';
import type { Principal } from './principal.ts';
import { assertCsrf, type CookieRequest } from './accounts/cookie.ts';
import { sessionPrincipal as rowPrincipal } from './accounts/sessions.ts';
import { isRole } from './roles.ts';
import { cachedQuotas } from './requestCache.ts';

export interface Credentials {
  apiKey?: string;
  authorization?: string;
  /** the session cookie, with what the CSRF rule needs to know of the request */
  cookie?: CookieRequest;
}

/** The origins whose pages may use the session cookie: the service's own, and IDS_CORS_ORIGINS. */
function cookieOrigins(services: Services): string[] {
  return [new URL(services.config.publicUrl).origin, ...services.config.corsOrigins];
}

export async function authenticate(services: Services, credentials: Credentials): Promise<Principal | null> {
  const principal = await principalOf(services, credentials);
  return principal?.orgId ? withSuspension(services, principal) : principal;
}

/**
 * Marks a principal whose organization an operator suspended (assertAccess refuses it on every
 * organization route). Read from the organization the request cache holds for metering anyway,
 * so a warm request sends no query for it; a suspension's audit event drops that entry everywhere.
 */
async function withSuspension(services: Services, principal: Principal): Promise<Principal> {
  const suspendedAt = (await cachedQuotas(services, principal.orgId!))?.org.suspendedAt;
  return suspendedAt ? { ...principal, orgSuspendedAt: suspendedAt } : principal;
}

async function principalOf(services: Services, credentials: Credentials): Promise<Principal | null> {
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
  if (credentials.cookie) {
    assertCsrf(credentials.cookie, cookieOrigins(services));
    return sessionPrincipal(services, credentials.cookie.token);
  }
  return null;
}

async function sessionPrincipal(services: Services, token: string): Promise<Principal> {
  const claims = await services.sessions.verify(token);
  // the service's own sessions are rows, read every time (resolvers/accounts/sessions.ts)
  if (claims.sessionId) return rowPrincipal(services.prisma, claims);
  const digest = sha256Hex(token);
  const cached = services.cache.sessions.get(digest);
  if (cached && cached.expiresAt.getTime() > Date.now()) return cached;
  const principal = await externalPrincipal(services, claims);
  const untilExpiry = principal.expiresAt.getTime() - Date.now();
  if (untilExpiry > 0) services.cache.sessions.set(digest, principal, { ttl: Math.min(services.config.requestCacheTtlMs, untilExpiry) });
  return principal;
}

/**
 * An external provider's token: the provider says who and in which organization. A person it
 * places in an organization without a membership here is that organization's owner, as the
 * provider administers its members (a membership row, once made, gives the role).
 */
async function externalPrincipal(services: Services, claims: SessionClaims): Promise<Extract<Principal, { kind: 'session' }>> {
  const { prisma } = services;
  const user =
    (await prisma.user.findUnique({ where: { email: claims.email } })) ??
    (await prisma.user.upsert({ where: { email: claims.email }, create: { id: newId('usr'), email: claims.email }, update: {} }));
  const org = claims.orgId
    ? await prisma.organization.findFirst({ where: { OR: [{ id: claims.orgId }, { externalId: claims.orgId }] }, select: { id: true } })
    : null;
  const membership = org ? await prisma.membership.findUnique({ where: { userId_orgId: { userId: user.id, orgId: org.id } } }) : null;
  const role = !org ? null : membership && isRole(membership.role) ? membership.role : 'owner';
  return { kind: 'session', userId: user.id, email: claims.email, orgId: org?.id ?? null, expiresAt: claims.expiresAt, role, operator: user.isOperator, sessionId: null, method: 'external' };
}
