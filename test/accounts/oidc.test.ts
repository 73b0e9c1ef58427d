// Sign-in at an OpenID provider: a real oidc-provider on a local port (a registered client, PKCE
// required, accounts in memory), this service configured as its client, and a browser played
// with fetch (redirect: manual, a cookie jar). The provider's login and consent are finished by
// the test's own interaction endpoint, as a provider's login page would.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/ids.ts';
import { call, expectEnvelope, freePort, startTestService, type TestService } from '../harness.ts';

const clientId = 'ids-dashboard';
const clientSecret = 'a-client-secret-long-enough-for-hs256-0123456789';
const accounts: Record<string, { email: string; email_verified: boolean }> = {
  ana: { email: 'ana@oidc.example.com', email_verified: true },
  bo: { email: 'bo@oidc.example.com', email_verified: false },
};
/** Who the next login at the provider is; null: the person declines. */
let nextLogin: string | null = 'ana';

let idp: Server;
let issuer: string;
let listenIdp: () => Promise<void>;
let t: TestService;
/** a service without OpenID sign-in, with email */
let plain: TestService;
let callbackUrl: string;

beforeAll(async () => {
  const [idpPort, servicePort] = [await freePort(), await freePort()];
  issuer = `http://127.0.0.1:${idpPort}`;
  const publicUrl = `http://127.0.0.1:${servicePort}`;
  callbackUrl = `${publicUrl}/v1/auth/oidc/callback`;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [callbackUrl], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'ES256' }],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    // the email in the ID token itself, not only in UserInfo
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: async (_ctx: unknown, id: string) => (accounts[id] ? { accountId: id, claims: async () => ({ sub: id, ...accounts[id] }) } : undefined),
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'idp-key', alg: 'ES256', use: 'sig' }] },
    cookies: { keys: ['a-cookie-signing-key-for-the-test-provider'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
  });
  const serve = provider.callback();
  idp = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) return serve(req, res);
    void (async () => {
      const interaction = await provider.interactionDetails(req, res);
      if (!nextLogin) return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person declined.' }, { mergeWithLastSubmission: false });
      const grant = new provider.Grant({ accountId: nextLogin, clientId: String(interaction.params.client_id) });
      grant.addOIDCScope(String(interaction.params.scope));
      await provider.interactionFinished(req, res, { login: { accountId: nextLogin }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
    })().catch((error) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  // the provider starts listening after the first test, which finds it away
  listenIdp = () => new Promise<void>((resolve) => idp.listen(idpPort, '127.0.0.1', resolve));
  [t, plain] = await Promise.all([
    startTestService({ publicUrl, identityProvider: { issuer, clientId, clientSecret, displayName: 'Example SSO' } }, { port: servicePort }),
    startTestService({ email: { smtpUrl: 'smtp://127.0.0.1:2525', from: 'IDS <ids@localhost>' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), plain?.close()]);
  idp?.close();
});

/** A browser's cookies: by host, whatever the port, as browsers keep them. */
class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  header(url: URL): string {
    return [...(this.byHost.get(url.hostname) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  keep(url: URL, setCookies: string[]) {
    const jar = this.byHost.get(url.hostname) ?? new Map<string, string>();
    this.byHost.set(url.hostname, jar);
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && new Date(a.split('=')[1]!).getTime() <= Date.now());
      if (expired) jar.delete(name!.trim());
      else jar.set(name!.trim(), value.join('='));
    }
  }
}

async function browse(jar: CookieJar, href: string, headers: Record<string, string> = {}): Promise<Response> {
  const url = new URL(href);
  const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url), ...headers } });
  jar.keep(url, response.headers.getSetCookie());
  return response;
}

/**
 * Starts a sign-in and lets the provider sign `nextLogin` in, up to the redirect back to the
 * service: answers the callback URL (not yet visited) and the state the start chose.
 */
async function toCallback(jar: CookieJar, startQuery = '') {
  const start = await browse(jar, `${t.url}/v1/auth/oidc/start${startQuery}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  let location = authorize.href;
  for (let hop = 0; hop < 8 && !location.startsWith(callbackUrl); hop++) {
    const step = await browse(jar, location);
    expect([302, 303], `${location} answered ${step.status}: ${await step.clone().text()}`).toContain(step.status);
    location = new URL(step.headers.get('location')!, location).href;
  }
  expect(location.startsWith(callbackUrl)).toBe(true);
  return { authorize, callback: new URL(location), state: authorize.searchParams.get('state')! };
}

const json = async (response: Response) => ({ status: response.status, headers: response.headers, body: await response.json() });

describe('while the provider cannot be reached', () => {
  it('503 auth_verification_unavailable with Retry-After, and nothing kept', async () => {
    const kept = () => t.service.services.prisma.authChallenge.count({ where: { kind: 'oidc' } });
    const before = await kept();
    const answer = await call(t, 'GET', '/v1/auth/oidc/start');
    expect(expectEnvelope(answer, 503, 'auth_verification_unavailable').message).toMatch(/could not be reached/);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await kept()).toBe(before);
  });
});

describe('OpenID Connect sign-in', () => {
  // a failed discovery is not remembered: the next sign-in finds the provider
  beforeAll(() => listenIdp());

  it('asks the provider for a code with PKCE, state and nonce, then signs the person in with a cookie', async () => {
    nextLogin = 'ana';
    const jar = new CookieJar();
    const { authorize, callback, state } = await toCallback(jar, '?remember_me=true&return_to=/dashboard/keys?tab=new');
    expect(authorize.origin + authorize.pathname).toBe(`${issuer}/auth`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: callbackUrl,
      code_challenge_method: 'S256',
      state: expect.stringMatching(/.{20,}/),
      nonce: expect.stringMatching(/.{20,}/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    });
    // kept server-side, by digest only, for ten minutes
    const challenge = await t.service.services.prisma.authChallenge.findFirstOrThrow({ where: { kind: 'oidc', secretHash: sha256Hex(state) } });
    expect(JSON.stringify(challenge)).not.toContain(state);
    expect(challenge.expiresAt.getTime() - challenge.createdAt.getTime()).toBeLessThanOrEqual(10 * 60_000 + 1000);

    const done = await browse(jar, callback.href);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/dashboard/keys?tab=new');
    const cookie = done.headers.getSetCookie().find((c) => c.startsWith('ids_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const me = await call(t, 'GET', '/v1/me', { headers: { cookie: cookie.split(';')[0]! } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'session', user: { email: 'ana@oidc.example.com' }, organization: { id: expect.stringMatching(/^org_/) } });

    const { prisma } = t.service.services;
    const session = await prisma.session.findFirstOrThrow({ where: { user: { email: 'ana@oidc.example.com' } }, orderBy: { createdAt: 'desc' } });
    expect(session).toMatchObject({ method: 'oidc', rememberMe: true });
    const audit = await prisma.auditEntry.findFirst({ where: { orgId: me.body.organization.id, action: 'session.signed_in', targetId: session.id } });
    expect(audit).toMatchObject({ actorType: 'user', actorEmail: 'ana@oidc.example.com' });
    expect((await prisma.authChallenge.findUniqueOrThrow({ where: { id: challenge.id } })).consumedAt).not.toBeNull();
  });

  it('refuses an altered state, and the genuine one still works after', async () => {
    nextLogin = 'ana';
    const jar = new CookieJar();
    const { callback } = await toCallback(jar);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const refused = expectEnvelope(await json(await browse(jar, tampered.href)), 400, 'invalid_request_parameter');
    expect(refused.details).toMatchObject({ parameter: 'state' });
    const missing = new URL(callback);
    missing.searchParams.delete('state');
    expect(expectEnvelope(await json(await browse(jar, missing.href)), 400, 'invalid_request_parameter').details.parameter).toBe('state');
    expect((await browse(jar, callback.href)).status).toBe(302);
  });

  it('refuses a used state (400) and a replayed code (401)', async () => {
    nextLogin = 'ana';
    const jar = new CookieJar();
    const { callback } = await toCallback(jar);
    expect((await browse(jar, callback.href)).status).toBe(302);
    // the same answer again: its state was used
    expect(expectEnvelope(await json(await browse(jar, callback.href)), 400, 'invalid_request_parameter').details.parameter).toBe('state');
    // the used code under a fresh sign-in's state: the provider refuses it
    const fresh = await browse(new CookieJar(), `${t.url}/v1/auth/oidc/start`);
    const replay = new URL(callback);
    replay.searchParams.set('state', new URL(fresh.headers.get('location')!).searchParams.get('state')!);
    expectEnvelope(await json(await browse(jar, replay.href)), 401, 'authentication_failed');
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    nextLogin = 'ana';
    const jar = new CookieJar();
    const { callback, state } = await toCallback(jar);
    const { prisma } = t.service.services;
    const challenge = await prisma.authChallenge.findFirstOrThrow({ where: { kind: 'oidc', secretHash: sha256Hex(state) } });
    await prisma.authChallenge.update({ where: { id: challenge.id }, data: { data: { ...(challenge.data as object), nonce: 'another-sign-ins-nonce' } } });
    const refused = expectEnvelope(await json(await browse(jar, callback.href)), 401, 'authentication_failed');
    expect(refused.message).toMatch(/did not verify/);
  });

  it('refuses when the provider does, or has not verified the email; a browser gets a page', async () => {
    nextLogin = null;
    const declined = await toCallback(new CookieJar());
    expect(declined.callback.searchParams.get('error')).toBe('access_denied');
    expect(expectEnvelope(await json(await browse(new CookieJar(), declined.callback.href)), 401, 'authentication_failed').message).toMatch(/access_denied/);

    nextLogin = 'bo';
    const unverified = await toCallback(new CookieJar());
    const page = await browse(new CookieJar(), unverified.callback.href, { accept: 'text/html,application/xhtml+xml' });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.getSetCookie()).toEqual([]);
    const html = await page.text();
    expect(html).toMatch(/not verified/);
    expect(html).toContain('href="/dashboard/sign-in"');
    expect(await t.service.services.prisma.user.findUnique({ where: { email: 'bo@oidc.example.com' } })).toBeNull();
  });

  it('returns only to a page of the dashboard', async () => {
    for (const returnTo of ['https://evil.example/dashboard', '//evil.example/dashboard', '/\\evil.example', '/dashboard/../v1/me', '/dashboardx', '/v1/me', 'dashboard']) {
      const refused = expectEnvelope(await call(t, 'GET', `/v1/auth/oidc/start?return_to=${encodeURIComponent(returnTo)}`), 400, 'invalid_query_parameter');
      expect(refused.details.parameter, returnTo).toBe('return_to');
    }
    expectEnvelope(await call(t, 'GET', '/v1/auth/oidc/start?remember_me=yes'), 400, 'invalid_query_parameter');
    nextLogin = 'ana';
    const jar = new CookieJar();
    const { callback } = await toCallback(jar);
    expect((await browse(jar, callback.href)).headers.get('location')).toBe('/dashboard');
  });

  it('503 when the provider goes away before the code is exchanged; the same answer works once it is back', async () => {
    nextLogin = 'ana';
    const jar = new CookieJar();
    const { callback } = await toCallback(jar);
    await new Promise<void>((resolve) => {
      idp.close(() => resolve());
      idp.closeAllConnections();
    });
    const away = await browse(jar, callback.href);
    expectEnvelope(await json(away), 503, 'auth_verification_unavailable');
    expect(Number(away.headers.get('retry-after'))).toBeGreaterThan(0);
    await listenIdp();
    expect((await browse(jar, callback.href)).status).toBe(302);
  });

  it('lists the provider among the ways to sign in', async () => {
    const providers = await call(t, 'GET', '/v1/auth/providers');
    expect(providers.status).toBe(200);
    expect(providers.body.methods.map((m: { method: string }) => m.method)).toEqual(['link', 'oidc']);
    expect(providers.body.methods[1]).toEqual({ method: 'oidc', label: 'Continue with Example SSO', provider: { name: 'Example SSO', issuer }, start: '/v1/auth/oidc/start' });
  });
});

describe('without OpenID sign-in configured', () => {
  it('404 on its endpoints, and the providers list says what there is', async () => {
    const start = expectEnvelope(await call(plain, 'GET', '/v1/auth/oidc/start'), 404, 'route_not_found');
    expect(start.message).toMatch(/not configured/);
    expectEnvelope(await call(plain, 'GET', '/v1/auth/oidc/callback?code=x&state=y'), 404, 'route_not_found');
    const providers = await call(plain, 'GET', '/v1/auth/providers');
    expect(providers.body.methods.map((m: { method: string }) => m.method)).toEqual(['email_code', 'link']);
  });
});
