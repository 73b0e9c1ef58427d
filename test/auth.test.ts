// SPEC 5 and 7.1: every authentication failure code, tenant isolation, and sessions from an
// external identity provider (a local server speaking JWKS and OAuth metadata).
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../resolvers/orgs.ts';
import { startSession } from '../resolvers/accounts/sessions.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let globex: Awaited<ReturnType<typeof orgWithKey>>;

beforeAll(async () => {
  t = await startTestService();
  acme = await orgWithKey(t, 'Acme');
  globex = await orgWithKey(t, 'Globex');
});
afterAll(() => t?.close());

describe('machine requests', () => {
  it('missing_api_key without a credential', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/me'), 401, 'missing_api_key');
    expectEnvelope(await call(t, 'GET', '/v1/limits'), 401, 'missing_api_key');
  });

  it('authentication_failed for an unknown, malformed or revoked key', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/me', { key: `idsk_${'A'.repeat(40)}` }), 401, 'authentication_failed');
    expectEnvelope(await call(t, 'GET', '/v1/me', { key: 'not-a-key' }), 401, 'authentication_failed');
    const doomed = await orgWithKey(t);
    await t.service.services.prisma.apiKey.update({ where: { id: doomed.keyId }, data: { revokedAt: new Date() } });
    expectEnvelope(await call(t, 'GET', '/v1/me', { key: doomed.key }), 401, 'authentication_failed');
  });

  it('refuses a key sent as a bearer token, in the URL or in the body, and never logs it', async () => {
    const asBearer = expectEnvelope(await call(t, 'GET', '/v1/me', { headers: { authorization: `Bearer ${acme.key}` } }), 401, 'authentication_failed');
    expect(asBearer.message).toMatch(/x-api-key/);
    expectEnvelope(await call(t, 'GET', `/v1/me?api_key=${acme.key}`), 401, 'authentication_failed');
    expectEnvelope(await call(t, 'GET', `/v1/me?x=${acme.key}`, { key: acme.key }), 401, 'authentication_failed');
    const token = await sessionToken(t, acme.orgId);
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token, body: { name: acme.key } }), 401, 'authentication_failed');
    expect(await t.service.services.prisma.apiKey.count({ where: { orgId: acme.orgId } })).toBe(1);
    expect(t.logs.join('\n')).not.toContain(acme.key.slice(5));
  });
});

describe('dashboard sessions', () => {
  it('missing_browser_session when a dashboard action has no session', async () => {
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { body: { name: 'x' } }), 401, 'missing_browser_session');
  });

  it('browser_session_required when a dashboard action comes with an API key', async () => {
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { key: acme.key, body: { name: 'x' } }), 403, 'browser_session_required');
    expect(await t.service.services.prisma.apiKey.count({ where: { orgId: acme.orgId } })).toBe(1);
  });

  it('organization_missing when the session has no organization context', async () => {
    const drifter = await t.service.services.prisma.user.create({ data: { id: `usr_drifter${Date.now()}`, email: `drifter${Date.now()}@example.com` } });
    const { token } = await startSession(t.service.services, { userId: drifter.id, email: drifter.email, orgId: null, rememberMe: false, method: 'cli' });
    const me = await call(t, 'GET', '/v1/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'session', organization: null });
    expectEnvelope(await call(t, 'GET', '/v1/org', { token }), 403, 'organization_missing');
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'x' } }), 403, 'organization_missing');
  });

  it('authentication_failed for a forged, expired or foreign-issuer token', async () => {
    const secret = await t.service.services.sessionSecret;
    const claims = { email: 'ana@example.com', org_id: acme.orgId };
    const forged = jwt.sign(claims, 'not-the-secret', { algorithm: 'HS256', issuer: 'ids-local', subject: 'u', expiresIn: '1h' });
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, secret, { algorithm: 'HS256', issuer: 'ids-local', subject: 'u' });
    const foreign = jwt.sign(claims, secret, { algorithm: 'HS256', issuer: 'someone-else', subject: 'u', expiresIn: '1h' });
    const unsigned = jwt.sign(claims, '', { algorithm: 'none', issuer: 'ids-local', subject: 'u', expiresIn: '1h' });
    // signed with the right secret, but naming no session: nothing this service issued
    const sessionless = jwt.sign(claims, secret, { algorithm: 'HS256', issuer: 'ids-local', subject: 'u', expiresIn: '1h' });
    const unknownSession = jwt.sign({ ...claims, sid: 'ses_unknown' }, secret, { algorithm: 'HS256', issuer: 'ids-local', subject: 'u', expiresIn: '1h' });
    for (const token of [forged, expired, foreign, unsigned, sessionless, unknownSession, 'garbage']) expectEnvelope(await call(t, 'GET', '/v1/me', { token }), 401, 'authentication_failed');
    expect(expectEnvelope(await call(t, 'GET', '/v1/me', { token: expired }), 401, 'authentication_failed').message).toMatch(/expired/);
    expectEnvelope(await call(t, 'GET', '/v1/me', { headers: { authorization: 'Basic abc' } }), 401, 'authentication_failed');
  });
});

describe('tenant isolation', () => {
  it('an organization lists only its own keys, over REST and GraphQL', async () => {
    const acmeKeys = await call(t, 'GET', '/v1/api_keys', { key: acme.key });
    const globexKeys = await call(t, 'GET', '/v1/api_keys', { key: globex.key });
    expect(acmeKeys.body.data.map((k: { id: string }) => k.id)).toEqual([acme.keyId]);
    expect(globexKeys.body.data.map((k: { id: string }) => k.id)).toEqual([globex.keyId]);
    const graphql = await call(t, 'POST', '/graphql', { key: globex.key, body: { query: '{ apiKeys(first: 100) { nodes { id } } organization { id } }' } });
    expect(graphql.body.data).toEqual({ apiKeys: { nodes: [{ id: globex.keyId }] }, organization: { id: globex.orgId } });
  });

  it('a session signed for one organization cannot create keys in another', async () => {
    const token = await sessionToken(t, acme.orgId);
    const created = await call(t, 'POST', '/v1/api_keys', { token, body: { name: 'acme only' } });
    const row = await t.service.services.prisma.apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.orgId).toBe(acme.orgId);
    const globexKeys = await call(t, 'GET', '/v1/api_keys', { key: globex.key });
    expect(globexKeys.body.data.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
  });

  it('GraphQL answers the same codes in extensions', async () => {
    const none = await call(t, 'POST', '/graphql', { body: { query: '{ limits { orgId } }' } });
    expect(none.body.errors[0].extensions.code).toBe('missing_api_key');
    const bad = await call(t, 'POST', '/graphql', { key: 'idsk_nope', body: { query: '{ limits { orgId } }' } });
    expect(bad.status).toBe(401);
    expect(bad.body.errors[0].extensions.code).toBe('authentication_failed');
    const withKey = await call(t, 'POST', '/graphql', { key: acme.key, body: { query: 'mutation { createApiKey(name: "x") { secret } }' } });
    expect(withKey.body.errors[0].extensions.code).toBe('browser_session_required');
    const data = await call(t, 'POST', '/graphql', { body: { query: '{ filings(first: 1) { nodes { accessionNumber } } }' } });
    expect(data.body.errors[0].extensions.code).toBe('missing_api_key');
    const cursor = await call(t, 'POST', '/graphql', { key: acme.key, body: { query: '{ apiKeys(first: 1, after: "not-a-cursor") { nodes { id } } }' } });
    expect(cursor.body.errors[0].extensions).toMatchObject({ code: 'invalid_query_parameter', details: { parameter: 'cursor' } });
  });
});

describe('an external identity provider', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
  let idp: Server;
  let idpUrl: string;
  let served = 0;
  let external: TestService;

  beforeAll(async () => {
    idp = createServer((req, res) => {
      served++;
      res.setHeader('content-type', 'application/json');
      if (req.url === '/jwks.json') return res.end(JSON.stringify({ keys: [jwk] }));
      if (req.url === '/.well-known/oauth-authorization-server') {
        return res.end(JSON.stringify({ issuer: idpUrl, authorization_endpoint: `${idpUrl}/oauth2/authorize`, token_endpoint: `${idpUrl}/oauth2/token`, jwks_uri: `${idpUrl}/jwks.json` }));
      }
      res.statusCode = 404;
      res.end('{}');
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    idpUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    external = await startTestService({ identityProvider: { issuer: idpUrl, jwksUrl: `${idpUrl}/jwks.json`, audience: 'ids' } });
  });
  afterAll(async () => {
    await external?.close();
    idp?.close();
  });

  const sign = (claims: object, options: jwt.SignOptions = {}) =>
    jwt.sign(claims, privateKey, { algorithm: 'RS256', keyid: 'test-key', issuer: idpUrl, audience: 'ids', subject: 'user_01HEXTERNAL', expiresIn: '1h', ...options });

  it('accepts its RS256 sessions and maps its organization id', async () => {
    const org = await createOrganization(external.service.services.prisma, 'Initech');
    await external.service.services.prisma.organization.update({ where: { id: org.id }, data: { externalId: 'org_01HWORKOS' } });
    const me = await call(external, 'GET', '/v1/me', { token: sign({ email: 'peter@initech.example', org_id: 'org_01HWORKOS' }) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'session', organization: { id: org.id, name: 'Initech' }, user: { email: 'peter@initech.example' } });
  });

  it('rejects tokens for another audience or signed by another key', async () => {
    expectEnvelope(await call(external, 'GET', '/v1/me', { token: sign({ email: 'a@b.c' }, { audience: 'other' }) }), 401, 'authentication_failed');
    const { privateKey: stranger } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = jwt.sign({ email: 'a@b.c' }, stranger, { algorithm: 'RS256', keyid: 'test-key', issuer: idpUrl, audience: 'ids', subject: 's', expiresIn: '1h' });
    expectEnvelope(await call(external, 'GET', '/v1/me', { token: forged }), 401, 'authentication_failed');
    // a token of this service's own secret means something only with a session row behind it
    const local = jwt.sign({ email: 'a@b.c', sid: 'ses_none' }, external.service.services.sessionSecret, { algorithm: 'HS256', issuer: 'ids-local', subject: 'u', expiresIn: '1h' });
    expectEnvelope(await call(external, 'GET', '/v1/me', { token: local }), 401, 'authentication_failed');
  });

  it('proxies its authorization-server metadata, and publishes it as the protected resource\'s server', async () => {
    const metadata = await call(external, 'GET', '/.well-known/oauth-authorization-server');
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ issuer: idpUrl, token_endpoint: `${idpUrl}/oauth2/token` });
    const before = served;
    await call(external, 'GET', '/.well-known/oauth-authorization-server');
    expect(served).toBe(before); // cached
    const resource = await call(external, 'GET', '/.well-known/oauth-protected-resource');
    expect(resource.body.authorization_servers).toEqual([idpUrl]);
  });

  it('503 workos_authorization_server_unavailable when no provider is configured', async () => {
    expectEnvelope(await call(t, 'GET', '/.well-known/oauth-authorization-server'), 503, 'workos_authorization_server_unavailable');
    const resource = await call(t, 'GET', '/.well-known/oauth-protected-resource');
    expect(resource.status).toBe(200);
    expect(resource.body).toMatchObject({ resource: expect.any(String), authorization_servers: [], bearer_methods_supported: ['header'] });
  });
});
