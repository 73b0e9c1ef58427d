// The browser's session: an httpOnly cookie page scripts cannot read, and the CSRF rule for every
// state change it authorizes. The cookie is `__Host-` prefixed (Secure, whole site, this host
// only) when the service is served over https; plain http (a newcomer's 127.0.0.1) cannot set a
// Secure cookie, so there it is `ids_session`.
import { parse, serialize } from 'cookie';
import { ApiError } from '../../core/errors.ts';

/** The header a cross-site form cannot send: every state change made with the cookie carries it. */
export const csrfHeader = 'x-ids-csrf';

export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-ids_session' : 'ids_session';
}

export function sessionCookieFrom(cookieHeader: string | undefined, publicUrl: string): string | undefined {
  if (!cookieHeader) return undefined;
  return parse(cookieHeader)[sessionCookieName(publicUrl)] || undefined;
}

/** `Set-Cookie` for a session token, kept until the session expires. */
export function setSessionCookie(publicUrl: string, token: string, expiresAt: Date): string {
  const secure = publicUrl.startsWith('https:');
  return serialize(sessionCookieName(publicUrl), token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: expiresAt });
}

/** `Set-Cookie` that removes the session cookie. */
export function clearSessionCookie(publicUrl: string): string {
  const secure = publicUrl.startsWith('https:');
  return serialize(sessionCookieName(publicUrl), '', { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: new Date(0) });
}

/** What a door knows about a request that came with the session cookie. */
export interface CookieRequest {
  token: string;
  /** anything but GET, HEAD and OPTIONS */
  changesState: boolean;
  origin?: string;
  csrf?: string;
}

/**
 * A state change made with the cookie must come from the service's own pages (or an
 * IDS_CORS_ORIGINS origin) and carry `x-ids-csrf: 1`: SameSite=Lax already keeps the cookie off
 * cross-site POSTs, and the two checks hold where it does not (same-site subdomains, old browsers).
 */
export function assertCsrf(request: CookieRequest, allowedOrigins: readonly string[]): void {
  if (!request.changesState) return;
  if (!request.origin || !allowedOrigins.includes(request.origin.replace(/\/$/, ''))) {
    throw new ApiError('csrf_check_failed', 'A change made with the session cookie must come from the dashboard\'s own origin.', { details: { origin: request.origin ?? null } });
  }
  if (request.csrf !== '1') {
    throw new ApiError('csrf_check_failed', `A change made with the session cookie must carry the header ${csrfHeader}: 1.`);
  }
}
