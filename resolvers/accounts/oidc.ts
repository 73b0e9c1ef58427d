// Sign-in at an OpenID provider (IDS_AUTH_ISSUER with IDS_AUTH_CLIENT_ID): the authorization code
// flow with PKCE, through openid-client, a certified relying-party library. What the browser must
// bring back (state) and what only this service may know (the PKCE verifier, the nonce) are kept
// server-side in an AuthChallenge row for ten minutes, used once; only the state's SHA-256 is
// stored, so the table alone cannot finish anyone's sign-in.
import * as client from 'openid-client';
import type { Config, IdentityProviderConfig } from '../../core/config.ts';
import { ApiError, clipped } from '../../core/errors.ts';
import { newId, sha256Hex } from '../../core/ids.ts';
import type { Context, Services } from '../context.ts';
import { throttle } from './emailCodes.ts';
import { completeSignIn } from './signIn.ts';

export const oidcStartPath = '/v1/auth/oidc/start';
export const oidcCallbackPath = '/v1/auth/oidc/callback';
export const oidcScope = 'openid email';
export const oidcChallengeTtlMs = 10 * 60_000;
/** Where a sign-in lands when it did not ask for a page, and the only tree it may ask for. */
export const dashboardPath = '/dashboard';

/** How long one request to the provider may take: a browser is waiting on the other end. */
const providerTimeoutSeconds = 5;
/** Provider metadata changes rarely; after this it is fetched again (keys are refreshed by openid-client itself). */
const discoveryMaxAgeMs = 60 * 60_000;
/** Seconds a browser or script should wait before trying again when the provider is away. */
const unavailableRetryAfter = 30;
/** Sign-ins a client address may start: each keeps a row for ten minutes, and nothing is asked of the client before it. */
const startsPerClient = [{ period: 'minute' as const, limit: 30 }];

export type OidcProvider = IdentityProviderConfig & { clientId: string };

/** The provider people sign in at, if this deployment has one. */
export function oidcProvider(config: Config): OidcProvider | null {
  const provider = config.identityProvider;
  return provider?.clientId ? (provider as OidcProvider) : null;
}

/** What the sign-in page calls the provider. */
export function providerDisplayName(provider: IdentityProviderConfig): string {
  if (provider.displayName) return provider.displayName;
  try {
    return new URL(provider.issuer).hostname;
  } catch {
    return provider.issuer;
  }
}

export function callbackUrl(config: Config): string {
  return `${config.publicUrl}${oidcCallbackPath}`;
}

function notConfigured(): ApiError {
  return new ApiError('route_not_found', 'OpenID Connect sign-in is not configured on this service (it needs IDS_AUTH_ISSUER and IDS_AUTH_CLIENT_ID). GET /v1/auth/providers lists the ways to sign in.');
}

function unavailable(): ApiError {
  return new ApiError('auth_verification_unavailable', 'The identity provider could not be reached; try signing in again shortly.', { retryAfter: unavailableRetryAfter, retryable: true });
}

function badState(): ApiError {
  return new ApiError('invalid_request_parameter', 'Parameter `state` does not name a sign-in under way: it was already used, has expired (after 10 minutes) or was altered. Start signing in again.', {
    details: { parameter: 'state' },
  });
}

/**
 * The page a sign-in may return to: a path of this service under /dashboard, nothing else, so that
 * the sign-in cannot be used to send someone elsewhere after it. The path is judged as a browser
 * would resolve it (`/dashboard/../x` is `/x`); absent means the dashboard itself.
 */
export function safeReturnTo(config: Config, value: string | undefined): string {
  if (value === undefined || value === '') return dashboardPath;
  const refuse = () =>
    new ApiError('invalid_query_parameter', `Parameter \`return_to\` must be a path of this service under ${dashboardPath}, such as ${dashboardPath}/keys.`, { details: { parameter: 'return_to' } });
  // a scheme-relative `//host`, a backslash (read as a slash by browsers) or a control character
  // could make the browser read another origin into what looks like a path
  if (value.length > 2000 || !value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) throw refuse();
  const own = new URL(config.publicUrl);
  let resolved: URL;
  try {
    resolved = new URL(value, own);
  } catch {
    throw refuse();
  }
  if (resolved.origin !== own.origin) throw refuse();
  if (resolved.pathname !== dashboardPath && !resolved.pathname.startsWith(`${dashboardPath}/`)) throw refuse();
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/** openid-client talks plain http only to a provider on this machine (development, tests). */
function isLoopback(issuer: URL): boolean {
  return issuer.hostname === 'localhost' || issuer.hostname === '127.0.0.1' || issuer.hostname === '[::1]';
}

/** The spec's default client authentication is HTTP Basic; a provider that does not offer it gets the secret in the body. */
function clientAuthentication(provider: OidcProvider, metadata: client.ServerMetadata): client.ClientAuth {
  if (!provider.clientSecret) return client.None();
  const methods = metadata.token_endpoint_auth_methods_supported;
  return !methods || methods.includes('client_secret_basic') ? client.ClientSecretBasic(provider.clientSecret) : client.ClientSecretPost(provider.clientSecret);
}

/** Each service's discovered client, per provider configuration object (one per running service). */
const discovered = new WeakMap<IdentityProviderConfig, { at: number; configuration: Promise<client.Configuration> }>();

async function discover(provider: OidcProvider): Promise<client.Configuration> {
  const issuer = new URL(provider.issuer);
  const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
  const options = { timeout: providerTimeoutSeconds, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) };
  const found = await client.discovery(issuer, provider.clientId, undefined, undefined, options);
  const metadata = found.serverMetadata();
  const configuration = new client.Configuration(metadata, provider.clientId, provider.clientSecret ? { client_secret: provider.clientSecret } : {}, clientAuthentication(provider, metadata));
  configuration.timeout = providerTimeoutSeconds;
  if (insecure) client.allowInsecureRequests(configuration);
  // The ID token's signature is checked against the provider's published keys as well as its
  // claims, so that a token is trusted for what it is, not only for the connection it came over.
  client.enableNonRepudiationChecks(configuration);
  return configuration;
}

/** The provider's client configuration, discovered from the issuer once an hour; a failed discovery is tried again at the next sign-in. */
async function clientConfiguration(services: Pick<Services, 'logger'>, provider: OidcProvider): Promise<client.Configuration> {
  let entry = discovered.get(provider);
  if (!entry || Date.now() - entry.at > discoveryMaxAgeMs) {
    entry = { at: Date.now(), configuration: discover(provider) };
    discovered.set(provider, entry);
  }
  try {
    return await entry.configuration;
  } catch (error) {
    if (discovered.get(provider) === entry) discovered.delete(provider);
    services.logger.warn({ err: error, issuer: provider.issuer }, 'OpenID provider discovery failed');
    throw unavailable();
  }
}

interface ChallengeData {
  verifier: string;
  nonce: string;
  rememberMe: boolean;
  returnTo: string;
}

/**
 * Starts a sign-in: keeps what the callback will need and answers the provider's authorization
 * URL to send the browser to.
 */
export async function beginOidcSignIn(services: Services, options: { rememberMe: boolean; returnTo: string; clientAddress?: string }): Promise<URL> {
  const provider = oidcProvider(services.config);
  if (!provider) throw notConfigured();
  await throttle(services, `oidc-start:${options.clientAddress ?? 'unknown'}`, startsPerClient);
  const configuration = await clientConfiguration(services, provider);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const data: ChallengeData = { verifier, nonce, rememberMe: options.rememberMe, returnTo: options.returnTo };
  await services.prisma.authChallenge.create({
    data: { id: newId('ach'), kind: 'oidc', secretHash: sha256Hex(state), data: { ...data }, expiresAt: new Date(Date.now() + oidcChallengeTtlMs) },
  });
  return client.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(services.config),
    scope: oidcScope,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
}

/** Takes the sign-in a state names, once: a second use, an expired one or an unknown state is refused. */
async function takeChallenge(services: Services, state: string | null): Promise<ChallengeData & { release(): Promise<void> }> {
  if (!state || state.length > 512) throw badState();
  const now = new Date();
  const challenge = await services.prisma.authChallenge.findFirst({ where: { kind: 'oidc', secretHash: sha256Hex(state) } });
  if (!challenge || challenge.consumedAt || challenge.expiresAt <= now) throw badState();
  // the row is claimed before the provider is asked, so two callbacks racing with one state get one sign-in
  const claimed = await services.prisma.authChallenge.updateMany({ where: { id: challenge.id, consumedAt: null }, data: { consumedAt: now } });
  if (claimed.count === 0) throw badState();
  const data = challenge.data as Partial<ChallengeData> | null;
  if (!data?.verifier || !data.nonce) throw badState();
  return {
    verifier: data.verifier,
    nonce: data.nonce,
    rememberMe: data.rememberMe === true,
    returnTo: data.returnTo ?? dashboardPath,
    // when the provider could not be asked, the same answer may be brought back once it can
    release: async () => void (await services.prisma.authChallenge.updateMany({ where: { id: challenge.id, consumedAt: now }, data: { consumedAt: null } })),
  };
}

/** What went wrong at the provider, as the caller is told: refused (401), or away (503). */
function providerFailure(services: Pick<Services, 'logger'>, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof client.AuthorizationResponseError) {
    const why = error.error_description ? `${error.error}: ${clipped(error.error_description)}` : error.error;
    return new ApiError('authentication_failed', `The identity provider did not sign you in (${why}).`);
  }
  if (error instanceof client.ResponseBodyError) {
    if (error.status >= 500) return unavailable();
    services.logger.info({ error: error.error, status: error.status }, 'OpenID provider refused the authorization code');
    return new ApiError('authentication_failed', 'The identity provider refused this sign-in: its code was already used, has expired, or was not issued to this service. Start signing in again.');
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    services.logger.error({ status: error.status }, 'OpenID provider refused this service\'s client credentials');
    return new ApiError('authentication_failed', 'The identity provider refused this service\'s client credentials; the operator must check IDS_AUTH_CLIENT_ID and IDS_AUTH_CLIENT_SECRET.');
  }
  if (error instanceof TypeError && error.message === 'fetch failed') return unavailable();
  if (error instanceof client.ClientError) {
    const status = (error.cause as { status?: unknown } | undefined)?.status;
    if (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT' || (typeof status === 'number' && status >= 500)) return unavailable();
    services.logger.info({ code: error.code, reason: error.message }, 'OpenID provider answer did not verify');
    return new ApiError('authentication_failed', 'The identity provider\'s answer did not verify (its ID token was not for this sign-in). Start signing in again.');
  }
  throw error;
}

function unverifiedEmail(): ApiError {
  return new ApiError('authentication_failed', 'The identity provider has not verified the email address of this account; verify it there, then sign in again.');
}

/**
 * Finishes a sign-in from the provider's redirect: exchanges the code (with the PKCE verifier,
 * expected state and nonce), reads the verified email, signs the person in and starts a session.
 */
export async function finishOidcSignIn(ctx: Context, query: URLSearchParams): Promise<{ token: string; expiresAt: Date; returnTo: string }> {
  const provider = oidcProvider(ctx.config);
  if (!provider) throw notConfigured();
  const state = query.get('state');
  const configuration = await clientConfiguration(ctx, provider);
  const challenge = await takeChallenge(ctx, state);
  const currentUrl = new URL(callbackUrl(ctx.config));
  currentUrl.search = query.toString();
  let email: unknown;
  let verified: unknown;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: challenge.verifier,
      expectedState: state!,
      expectedNonce: challenge.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    ({ email, email_verified: verified } = claims);
    // Many providers put scope claims in the UserInfo answer rather than the ID token of a code
    // flow; it is asked for the same subject the ID token named.
    if (typeof email !== 'string' && tokens.access_token) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      ({ email, email_verified: verified } = info);
    }
  } catch (error) {
    const failure = providerFailure(ctx, error);
    if (failure.code === 'auth_verification_unavailable') await challenge.release();
    throw failure;
  }
  if (typeof email !== 'string' || !email.includes('@')) {
    throw new ApiError('authentication_failed', 'The identity provider did not share an email address for this account (scope `email`), and the service needs one.');
  }
  // a provider that says nothing about verification is trusted with the address; one that says no is not
  if (verified === false || verified === 'false') throw unverifiedEmail();
  const signedIn = await completeSignIn(ctx, email, 'oidc', challenge.rememberMe);
  return { token: signedIn.token, expiresAt: signedIn.session.expiresAt, returnTo: challenge.returnTo };
}
