// Signing in as a person does: an emailed code over a real SMTP exchange, the browser's cookie
// and its CSRF rule, one-time links, devices listed and ended, organizations switched.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/commands.ts';
import { call, expectEnvelope, orgWithKey, startTestService, type Answer, type TestService } from '../harness.ts';
import { startSmtpServer, type SmtpServer } from '../support/smtpServer.ts';
import { addMember } from '../../resolvers/orgs.ts';
import { purgeAuthRecords } from '../../resolvers/accounts/sweep.ts';

let smtp: SmtpServer;
let t: TestService;
let origin: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestService({ email: { smtpUrl: smtp.url, from: 'IDS <signin@localhost>' } });
  // the service's own pages are at its public address
  origin = new URL(t.service.services.config.publicUrl).origin;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

let people = 0;
const newAddress = () => `person${++people}.${Date.now()}@example.com`;

async function emailedCode(email: string): Promise<string> {
  const before = smtp.messages.length;
  const asked = await call(t, 'POST', '/v1/auth/email-code', { body: { email } });
  expect(asked.status).toBe(200);
  await smtp.waitFor(before + 1);
  const mine = smtp.messages.filter((m) => m.to.includes(email)).at(-1)!;
  const code = /\b(\d{6})\b/.exec(mine.subject ?? '')?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

function cookieOf(answer: Answer): string {
  const setCookie = answer.headers.get('set-cookie') ?? '';
  const pair = setCookie.split(';')[0]!;
  expect(pair).toMatch(/^ids_session=.+/);
  return pair;
}

async function signIn(email: string, extra: Record<string, unknown> = {}) {
  const code = await emailedCode(email);
  const answer = await call(t, 'POST', '/v1/auth/email-code/verify', { body: { email, code, ...extra } });
  expect(answer.status).toBe(200);
  return answer;
}

/** A request the way the dashboard's pages make it: with the cookie, from the service's origin, with the CSRF header. */
const fromDashboard = (cookie: string) => ({ cookie, origin, 'x-ids-csrf': '1' });

describe('sign-in with an emailed code', () => {
  it('emails a code; the right one signs a newcomer in to a personal organization with an httpOnly cookie and no token in the body', async () => {
    const email = newAddress();
    const code = await emailedCode(email);
    const message = smtp.messages.find((m) => m.to.includes(email))!;
    expect(message.text).toContain(code);
    expect(message.text).toMatch(/10 minutes/);

    const answer = await call(t, 'POST', '/v1/auth/email-code/verify', { body: { email: email.toUpperCase(), code } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'sign_in', session: { object: 'session', method: 'email_code', current: false }, organization: { name: expect.stringContaining("'s organization") } });
    expect(answer.body.token).toBeUndefined();
    const setCookie = answer.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(answer.headers.get('cache-control')).toBe('no-store');

    const me = await call(t, 'GET', '/v1/me', { headers: { cookie: cookieOf(answer) } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'session', user: { email }, organization: { id: answer.body.organization.id }, role: 'owner', operator: false });
    const org = await t.service.services.prisma.organization.findUniqueOrThrow({ where: { id: answer.body.organization.id } });
    expect(org.planKey).toBe('sandbox_grant');
  });

  it('counts wrong codes: four tries left after one, then none after five, and then even the right code needs a new one', async () => {
    const email = newAddress();
    const code = await emailedCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const first = expectEnvelope(await call(t, 'POST', '/v1/auth/email-code/verify', { body: { email, code: wrong } }), 400, 'verification_code_invalid');
    expect(first.details).toEqual({ attemptsLeft: 4 });
    for (let i = 0; i < 4; i++) await call(t, 'POST', '/v1/auth/email-code/verify', { body: { email, code: wrong } });
    expectEnvelope(await call(t, 'POST', '/v1/auth/email-code/verify', { body: { email, code } }), 400, 'verification_code_expired');
  });

  it('refuses a second code within a minute with Retry-After, and keeps only the latest code working', async () => {
    const email = newAddress();
    await emailedCode(email);
    const again = await call(t, 'POST', '/v1/auth/email-code', { body: { email } });
    expectEnvelope(again, 429, 'verification_resend_rate_limited');
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('a used code does not sign in twice', async () => {
    const email = newAddress();
    const code = await emailedCode(email);
    expect((await call(t, 'POST', '/v1/auth/email-code/verify', { body: { email, code } })).status).toBe(200);
    expectEnvelope(await call(t, 'POST', '/v1/auth/email-code/verify', { body: { email, code } }), 400, 'verification_code_expired');
  });

  it('refuses an address that is not one', async () => {
    expectEnvelope(await call(t, 'POST', '/v1/auth/email-code', { body: { email: 'a@b.c, d@e.f' } }), 400, 'validation_error');
    expectEnvelope(await call(t, 'POST', '/v1/auth/email-code', { body: {} }), 400, 'validation_error');
    expect(smtp.messages).toHaveLength(0);
  });

  it('a member signs in to their organization, with their role', async () => {
    const { orgId } = await orgWithKey(t);
    const email = newAddress();
    await addMember(t.service.services.prisma, orgId, email, 'viewer');
    const answer = await signIn(email);
    expect(answer.body.organization.id).toBe(orgId);
    const me = await call(t, 'GET', '/v1/me', { headers: { cookie: cookieOf(answer) } });
    expect(me.body).toMatchObject({ role: 'viewer', organization: { id: orgId } });
    // a viewer cannot create keys, whatever door
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { headers: fromDashboard(cookieOf(answer)), body: { name: 'nope' } }), 403, 'role_forbidden');
  });

  it('gives a bearer token instead of the cookie when asked', async () => {
    const answer = await signIn(newAddress(), { tokenDelivery: 'bearer', rememberMe: true });
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(typeof answer.body.token).toBe('string');
    const me = await call(t, 'GET', '/v1/me', { token: answer.body.token });
    expect(me.status).toBe(200);
    const days = (Date.parse(me.body.sessionExpiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
  });
});

describe('the session cookie and CSRF', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = cookieOf(await signIn(newAddress()));
  });

  it('reads with the cookie alone, but a change needs the own origin and x-ids-csrf: 1', async () => {
    expect((await call(t, 'GET', '/v1/api_keys', { headers: { cookie } })).status).toBe(200);
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { headers: { cookie }, body: { name: 'no origin' } }), 403, 'csrf_check_failed');
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { headers: { cookie, origin: 'https://evil.example', 'x-ids-csrf': '1' }, body: { name: 'foreign' } }), 403, 'csrf_check_failed');
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { headers: { cookie, origin }, body: { name: 'no header' } }), 403, 'csrf_check_failed');
    const made = await call(t, 'POST', '/v1/api_keys', { headers: fromDashboard(cookie), body: { name: 'from the dashboard' } });
    expect(made.status).toBe(200);
    expect(made.body.secret).toMatch(/^idsk_/);
  });

  it('applies the same rule to GraphQL', async () => {
    const mutation = { query: 'mutation { createApiKey(name: "graph") { apiKey { id } } }' };
    const refused = await call(t, 'POST', '/graphql', { headers: { cookie, origin: 'https://evil.example' }, body: mutation });
    expect(JSON.stringify(refused.body)).toContain('csrf_check_failed');
    const done = await call(t, 'POST', '/graphql', { headers: fromDashboard(cookie), body: mutation });
    expect(done.body.data.createApiKey.apiKey.id).toMatch(/^key_/);
    const read = await call(t, 'POST', '/graphql', { headers: fromDashboard(cookie), body: { query: '{ me { kind role } }' } });
    expect(read.body.data.me).toEqual({ kind: 'session', role: 'owner' });
  });

  it('an unknown cookie is refused where a credential is needed, and ignored on public routes', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/me', { headers: { cookie: 'ids_session=garbage' } }), 401, 'authentication_failed');
    expect((await call(t, 'GET', '/.well-known/oauth-protected-resource', { headers: { cookie: 'ids_session=garbage' } })).status).toBe(200);
  });
});

describe('devices', () => {
  it('lists the person\'s sessions, ends one at once, and signs out clearing the cookie', async () => {
    const email = newAddress();
    const laptop = cookieOf(await signIn(email));
    smtp.messages.length = 0;
    // the resend wait is per address: the second device asks after it
    await t.service.services.prisma.authChallenge.updateMany({ where: { email }, data: { createdAt: new Date(Date.now() - 120_000) } });
    const phone = cookieOf(await signIn(email));

    const listed = await call(t, 'GET', '/v1/auth/sessions', { headers: { cookie: laptop } });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const phoneSession = listed.body.data.find((s: { current: boolean }) => !s.current);

    // another person cannot end it
    const stranger = cookieOf(await signIn(newAddress()));
    expectEnvelope(await call(t, 'DELETE', `/v1/auth/sessions/${phoneSession.id}`, { headers: fromDashboard(stranger) }), 404, 'session_not_found');
    expect((await call(t, 'GET', '/v1/me', { headers: { cookie: phone } })).status).toBe(200);

    const ended = await call(t, 'DELETE', `/v1/auth/sessions/${phoneSession.id}`, { headers: fromDashboard(laptop) });
    expect(ended.status).toBe(200);
    expect(ended.body.endedAt).not.toBeNull();
    expectEnvelope(await call(t, 'GET', '/v1/me', { headers: { cookie: phone } }), 401, 'authentication_failed');

    const out = await call(t, 'POST', '/v1/auth/sign-out', { headers: fromDashboard(laptop) });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^ids_session=;.*Expires=Thu, 01 Jan 1970/);
    expectEnvelope(await call(t, 'GET', '/v1/me', { headers: { cookie: laptop } }), 401, 'authentication_failed');
  });

  it('switches between the person\'s organizations, and refuses one they do not belong to', async () => {
    const email = newAddress();
    const answer = await signIn(email);
    const cookie = cookieOf(answer);
    const other = await orgWithKey(t);
    await addMember(t.service.services.prisma, other.orgId, email, 'developer');
    const stranger = await orgWithKey(t);
    expectEnvelope(await call(t, 'POST', '/v1/auth/switch-organization', { headers: fromDashboard(cookie), body: { organizationId: stranger.orgId } }), 404, 'organization_not_found');

    const switched = await call(t, 'POST', '/v1/auth/switch-organization', { headers: fromDashboard(cookie), body: { organizationId: other.orgId } });
    expect(switched.body).toMatchObject({ object: 'organization_context', organization: { id: other.orgId }, role: 'developer' });
    const me = await call(t, 'GET', '/v1/me', { headers: { cookie } });
    expect(me.body).toMatchObject({ organization: { id: other.orgId }, role: 'developer' });
    expect(me.body.memberships.map((m: { organization: { id: string } }) => m.organization.id).sort()).toEqual([answer.body.organization.id, other.orgId].sort());
    // the keys listed are the new organization's
    const keys = await call(t, 'GET', '/v1/api_keys', { headers: { cookie } });
    expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([other.keyId]);
  });

  it('records the sign-in in the audit log of the organization, with the client address', async () => {
    const email = newAddress();
    const answer = await signIn(email);
    const entry = await t.service.services.prisma.auditEntry.findFirstOrThrow({ where: { orgId: answer.body.organization.id, action: 'session.signed_in' } });
    expect(entry).toMatchObject({ actorEmail: email, actorType: 'user', targetId: answer.body.session.id, ipAddress: expect.stringMatching(/127\.0\.0\.1/) });
    expect(entry.requestId).toBe(answer.headers.get('request-id'));
  });
});

describe('one-time sign-in links', () => {
  async function linkFor(email: string): Promise<string> {
    const said: string[] = [];
    const { prisma, bus, logger } = t.service.services;
    const code = await runCommand(['sign-in-link', '--email', email], {
      config: t.service.services.config,
      say: (line: string) => said.push(line),
      note: () => {},
      progress: false,
      database: async () => ({ prisma, bus, logger, appliedMigrations: [] }),
    });
    expect(code).toBe(0);
    return said.join('\n').trim();
  }

  it('the CLI prints a dashboard link whose token signs in once', async () => {
    const email = newAddress();
    const url = new URL(await linkFor(email));
    expect(url.pathname).toBe('/dashboard/sign-in');
    const token = url.searchParams.get('token')!;
    const answer = await call(t, 'POST', '/v1/auth/link/verify', { body: { token } });
    expect(answer.status).toBe(200);
    expect(answer.body.session.method).toBe('link');
    expect((await call(t, 'GET', '/v1/me', { headers: { cookie: cookieOf(answer) } })).body.user.email).toBe(email);
    expectEnvelope(await call(t, 'POST', '/v1/auth/link/verify', { body: { token } }), 401, 'authentication_failed');
    expectEnvelope(await call(t, 'POST', '/v1/auth/link/verify', { body: { token: 'made-up' } }), 401, 'authentication_failed');
  });

  it('the CLI refuses what is not one email address, and makes no link', async () => {
    await expect(linkFor('a@b.c, d@e.f')).rejects.toThrow(/one email address/);
    expect(await t.service.services.prisma.authChallenge.count({ where: { email: 'a@b.c, d@e.f' } })).toBe(0);
  });
});

describe('without email delivery', () => {
  let bare: TestService;
  beforeAll(async () => {
    bare = await startTestService({ email: { smtpUrl: undefined, from: 'x <x@localhost>' } });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('says sign-in by email is unavailable, with Retry-After, and points to a link', async () => {
    const answer = await call(bare, 'POST', '/v1/auth/email-code', { body: { email: newAddress() } });
    const error = expectEnvelope(answer, 503, 'auth_verification_unavailable');
    expect(answer.headers.get('retry-after')).not.toBeNull();
    expect(error.message).toMatch(/sign-in-link/);
  });

  it('when the SMTP server refuses the message, nothing counts as sent: the person may ask again at once', async () => {
    const email = newAddress();
    smtp.rejectNext(1, 451);
    expectEnvelope(await call(t, 'POST', '/v1/auth/email-code', { body: { email } }), 503, 'auth_verification_unavailable');
    expect(await t.service.services.prisma.authChallenge.count({ where: { email } })).toBe(0);
    expect((await call(t, 'POST', '/v1/auth/email-code', { body: { email } })).status).toBe(200);
  });
});

describe('housekeeping', () => {
  it('purges used and expired codes and links, and sessions a month after they ended', async () => {
    const { prisma } = t.service.services;
    const email = newAddress();
    await emailedCode(email);
    const live = await prisma.authChallenge.findFirstOrThrow({ where: { email } });
    const old = await prisma.authChallenge.create({ data: { id: `ach_old${Date.now()}`, kind: 'link', email, secretHash: 'x', expiresAt: new Date(Date.now() - 1000) } });
    const user = await prisma.user.create({ data: { id: `usr_stale${Date.now()}`, email: newAddress() } });
    const stale = await prisma.session.create({ data: { id: `ses_stale${Date.now()}`, userId: user.id, method: 'cli', expiresAt: new Date(Date.now() - 31 * 86_400_000) } });
    await purgeAuthRecords(prisma);
    expect(await prisma.authChallenge.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await prisma.authChallenge.findUnique({ where: { id: live.id } })).not.toBeNull();
    expect(await prisma.session.findUnique({ where: { id: stale.id } })).toBeNull();
  });
});

describe('per client address', () => {
  let strict: TestService;
  beforeAll(async () => {
    // a limiter of its own (no shared Redis), so that only this suite's requests count
    strict = await startTestService({ email: { smtpUrl: smtp.url, from: 'IDS <signin@localhost>' }, signInPerClientPerHour: 2, redisUrl: undefined });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('asks for codes for many addresses from one client only so often, then 429 rate_limited with Retry-After', async () => {
    for (let i = 0; i < 2; i++) expect((await call(strict, 'POST', '/v1/auth/email-code', { body: { email: newAddress() } })).status).toBe(200);
    const refused = await call(strict, 'POST', '/v1/auth/email-code', { body: { email: newAddress() } });
    expectEnvelope(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
