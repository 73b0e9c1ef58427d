// "Continue with" the configured OpenID provider, in a real browser: the sign-in page offers it,
// the browser goes through a real oidc-provider on a local port (its login finished by the
// test's interaction endpoint, as a provider's login page would) and lands back on the dashboard
// page it started from, signed in.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freePort, startTestService, type TestService } from '../harness.ts';
import { byName, checkPage, ensureDashboardBuilt, launchBrowser, waitForHeading, watchedPage } from './browser.ts';

const clientId = 'ids-dashboard';
const clientSecret = 'a-client-secret-long-enough-for-hs256-0123456789';
const person = { sub: 'dana', email: `dana.${Date.now()}@oidc.example.com`, email_verified: true };

let idp: Server;
let t: TestService;
let browser: Browser;
let base: string;

beforeAll(async () => {
  const [idpPort, servicePort] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${idpPort}`;
  base = `http://127.0.0.1:${servicePort}`;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [`${base}/v1/auth/oidc/callback`], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'ES256' }],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: async (_ctx: unknown, id: string) => (id === person.sub ? { accountId: id, claims: async () => person } : undefined),
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'idp-key', alg: 'ES256', use: 'sig' }] },
    cookies: { keys: ['a-cookie-signing-key-for-the-test-provider'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
  });
  const serve = provider.callback();
  idp = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) return serve(req, res);
    // the person logs in and consents at once
    void (async () => {
      const interaction = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: person.sub, clientId: String(interaction.params.client_id) });
      grant.addOIDCScope(String(interaction.params.scope));
      await provider.interactionFinished(req, res, { login: { accountId: person.sub }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
    })().catch((error) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => idp.listen(idpPort, '127.0.0.1', resolve));
  [t, browser] = await Promise.all([
    startTestService({ publicUrl: base, identityProvider: { issuer, clientId, clientSecret, displayName: 'Example SSO' } }, { port: servicePort }),
    launchBrowser(),
    ensureDashboardBuilt(),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  idp?.close();
});

describe('signing in with the OpenID provider', { timeout: 60_000 }, () => {
  it('offers "Continue with", goes through the provider and lands signed in where it started', async () => {
    const { page, watch } = await watchedPage(await browser.createBrowserContext());
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(`${base}/dashboard/keys`);
    await waitForHeading(page, 'Sign in');
    const link = await byName(page, 'Continue with Example SSO', 'link');
    expect(await link.evaluate((a) => a.getAttribute('href'))).toBe('/v1/auth/oidc/start?return_to=%2Fdashboard%2Fkeys&remember_me=false');
    // without email delivery, the code form is not offered
    expect(await page.$('::-p-aria([name="Email me a code"][role="button"])')).toBeNull();
    await checkPage(page, '20-sign-in-oidc');

    await link.click();
    await waitForHeading(page, 'API keys', 20_000);
    expect(page.url()).toBe(`${base}/dashboard/keys`);
    expect(await page.$eval('header', (h) => h.textContent)).toContain(person.email);
    const session = (await page.browserContext().cookies()).find((c) => c.name === 'ids_session');
    const me = await call(t, 'GET', '/v1/me', { headers: { cookie: `ids_session=${session!.value}` } });
    expect(me.body).toMatchObject({ kind: 'session', user: { email: person.email } });
    expect(watch.problems).toEqual([]);
  });
});
