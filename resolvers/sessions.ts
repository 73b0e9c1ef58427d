// Session tokens. The service issues its own (HS256 with a secret kept in the state folder),
// each naming the Session row behind it (`sid`), which says who, in which organization, and
// whether it was ended; people get one by signing in (resolvers/accounts/), scripts from the
// CLI's `session` command. With an external provider configured (IDS_AUTH_ISSUER), its bearer
// tokens are accepted as well, verified against its keys.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { JwksClient } from 'jwks-rsa';
import type { IdentityProviderConfig } from '../core/config.ts';
import { ApiError } from '../core/errors.ts';
import { randomBase62 } from '../core/ids.ts';

export const localIssuer = 'ids-local';
export const sessionDays = { standard: 30, rememberMe: 90 } as const;

export interface SessionClaims {
  /** the provider's subject (user id) */
  subject: string;
  email: string;
  /** the provider's organization id, if the session is inside one (external tokens only: a local session's row says) */
  orgId: string | null;
  expiresAt: Date;
  /** the Session row of a token this service issued; null for an external provider's */
  sessionId: string | null;
}

export interface SessionVerifier {
  verify(token: string): Promise<SessionClaims>;
}

interface TokenPayload extends jwt.JwtPayload {
  email?: string;
  org_id?: string;
  sid?: string;
}

function toClaims(payload: TokenPayload): SessionClaims {
  if (!payload.sub || !payload.email || !payload.exp) throw new ApiError('authentication_failed', 'The session token lacks a subject, email or expiry.');
  return { subject: payload.sub, email: payload.email, orgId: payload.org_id ?? null, expiresAt: new Date(payload.exp * 1000), sessionId: payload.sid ?? null };
}

function verifyWith(token: string, key: jwt.Secret | jwt.GetPublicKeyOrSecret, options: jwt.VerifyOptions): Promise<SessionClaims> {
  return new Promise((resolve, reject) => {
    jwt.verify(token, key, options, (error, payload) => {
      if (error) {
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof ApiError) return reject(cause);
        const why = error.name === 'TokenExpiredError' ? 'The session has expired; sign in again.' : 'The session token was rejected.';
        return reject(new ApiError('authentication_failed', why));
      }
      try {
        resolve(toClaims(payload as TokenPayload));
      } catch (failure) {
        reject(failure);
      }
    });
  });
}

export function localSessionVerifier(secret: string): SessionVerifier {
  return {
    async verify(token) {
      const claims = await verifyWith(token, secret, { algorithms: ['HS256'], issuer: localIssuer });
      // every session this service issues has a row, so that it can be listed and ended
      if (!claims.sessionId) throw new ApiError('authentication_failed', 'The session token was rejected.');
      return claims;
    },
  };
}

/** The service's own tokens, and an external provider's when one is configured, told apart by issuer. */
export function sessionVerifier(localSecret: string, provider?: IdentityProviderConfig): SessionVerifier {
  const local = localSessionVerifier(localSecret);
  // An issuer configured only for OpenID Connect sign-in (a client id, no key set or secret)
  // hands out no bearer tokens of its own here: the sessions it leads to are this service's.
  const acceptsProviderTokens = provider && (provider.jwksUrl || provider.secret || !provider.clientId);
  const external = acceptsProviderTokens ? externalSessionVerifier(provider) : null;
  return {
    verify(token) {
      const issuer = (jwt.decode(token) as jwt.JwtPayload | null)?.iss;
      if (issuer === localIssuer || !external) return local.verify(token);
      return external.verify(token);
    },
  };
}

export function externalSessionVerifier(provider: IdentityProviderConfig): SessionVerifier {
  const options: jwt.VerifyOptions = { issuer: provider.issuer, ...(provider.audience ? { audience: provider.audience } : {}) };
  if (provider.jwksUrl) {
    const jwksUri = provider.jwksUrl;
    // the JWKS client library is read on the first token to verify, not at every start
    let jwks: Promise<JwksClient> | undefined;
    const client = () => (jwks ??= import('jwks-rsa').then(({ JwksClient }) => new JwksClient({ jwksUri, cache: true, cacheMaxAge: 10 * 60_000, timeout: 3000 })));
    const getKey: jwt.GetPublicKeyOrSecret = (header, done) => {
      client().then((c) => c.getSigningKey(header.kid)).then(
        (key) => done(null, key.getPublicKey()),
        (error: Error) =>
          done(
            error.name === 'SigningKeyNotFoundError'
              ? new Error('unknown signing key')
              : Object.assign(new Error('jwks unavailable'), { cause: new ApiError('auth_verification_unavailable', 'The identity provider could not be reached to verify the session; retry shortly.', { retryAfter: 5 }) }),
          ),
      );
    };
    return { verify: (token) => verifyWith(token, getKey, { ...options, algorithms: ['RS256', 'ES256'] }) };
  }
  if (provider.secret) return { verify: (token) => verifyWith(token, provider.secret!, { ...options, algorithms: ['HS256'] }) };
  throw new Error('IDS_AUTH_ISSUER needs IDS_AUTH_JWKS_URL or IDS_AUTH_SECRET');
}

/** The service's signing secret for session tokens: IDS_SESSION_SECRET (`configured`), else a file made once in the state folder. */
export async function localSessionSecret(stateDir: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(stateDir, 'session-secret');
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing) return existing.trim();
  await mkdir(stateDir, { recursive: true });
  const secret = randomBase62(48);
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async () => {});
  return (await readFile(file, 'utf8')).trim();
}

/** When a session started now ends: 30 days, 90 with remember-me. */
export function sessionExpiry(rememberMe: boolean, now = Date.now()): Date {
  const days = rememberMe ? sessionDays.rememberMe : sessionDays.standard;
  return new Date(Math.floor(now / 1000) * 1000 + days * 86_400_000);
}

/** The token of a Session row (resolvers/accounts/sessions.ts makes the row). */
export function signSessionToken(secret: string, session: { id: string; userId: string; email: string; expiresAt: Date }): string {
  return jwt.sign({ email: session.email, sid: session.id, exp: Math.floor(session.expiresAt.getTime() / 1000) }, secret, { algorithm: 'HS256', issuer: localIssuer, subject: session.userId });
}
