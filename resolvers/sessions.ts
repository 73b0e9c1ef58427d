// Dashboard sessions: bearer JWTs from the identity provider. Without an external provider the
// service is its own: tokens are HS256-signed with a secret kept in the state folder, and the
// CLI's `session` command mints them.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { JwksClient } from 'jwks-rsa';
import type { IdentityProviderConfig } from '../core/config.ts';
import { ApiError } from '../core/errors.ts';
import { randomBase62 } from '../core/ids.ts';

export const localIssuer = 'ids-local';
export const sessionDays = { standard: 30, rememberMe: 90 } as const;

export interface SessionClaims {
  /** the provider's subject (user id) */
  subject: string;
  email: string;
  /** the provider's organization id, if the session is inside one */
  orgId: string | null;
  expiresAt: Date;
}

export interface SessionVerifier {
  verify(token: string): Promise<SessionClaims>;
}

interface TokenPayload extends jwt.JwtPayload {
  email?: string;
  org_id?: string;
}

function toClaims(payload: TokenPayload): SessionClaims {
  if (!payload.sub || !payload.email || !payload.exp) throw new ApiError('authentication_failed', 'The session token lacks a subject, email or expiry.');
  return { subject: payload.sub, email: payload.email, orgId: payload.org_id ?? null, expiresAt: new Date(payload.exp * 1000) };
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
  return { verify: (token) => verifyWith(token, secret, { algorithms: ['HS256'], issuer: localIssuer }) };
}

export function externalSessionVerifier(provider: IdentityProviderConfig): SessionVerifier {
  const options: jwt.VerifyOptions = { issuer: provider.issuer, ...(provider.audience ? { audience: provider.audience } : {}) };
  if (provider.jwksUrl) {
    const jwks = new JwksClient({ jwksUri: provider.jwksUrl, cache: true, cacheMaxAge: 10 * 60_000, timeout: 3000 });
    const getKey: jwt.GetPublicKeyOrSecret = (header, done) => {
      jwks.getSigningKey(header.kid).then(
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

/** The local provider's signing secret: IDS_SESSION_SECRET, else a file made once in the state folder. */
export async function localSessionSecret(stateDir: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.IDS_SESSION_SECRET) return env.IDS_SESSION_SECRET;
  const file = path.join(stateDir, 'session-secret');
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing) return existing.trim();
  await mkdir(stateDir, { recursive: true });
  const secret = randomBase62(48);
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async () => {});
  return (await readFile(file, 'utf8')).trim();
}

export function mintLocalSession(secret: string, claims: { userId: string; email: string; orgId: string; rememberMe?: boolean }): { token: string; expiresAt: Date } {
  const days = claims.rememberMe ? sessionDays.rememberMe : sessionDays.standard;
  const token = jwt.sign({ email: claims.email, org_id: claims.orgId }, secret, { algorithm: 'HS256', issuer: localIssuer, subject: claims.userId, expiresIn: `${days}d` });
  const { exp } = jwt.decode(token) as jwt.JwtPayload;
  return { token, expiresAt: new Date(exp! * 1000) };
}
