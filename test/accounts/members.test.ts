// The people of an organization: members and roles, the owner rules, ownership transfer, invitations
// emailed over a real SMTP exchange and accepted, and the audit log of it all, with who did it,
// from where and in which request. Every route is tried across organizations too.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../core/ids.ts';
import { startSession } from '../../resolvers/accounts/sessions.ts';
import { call, eventually, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { startSmtpServer, type ReceivedMessage, type SmtpServer } from '../support/smtpServer.ts';

let t: TestService;
let smtp: SmtpServer;
let seq = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${++seq}@members.test`;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestService({ email: { smtpUrl: smtp.url, from: 'IDS <accounts@ids.test>' } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** A signed-in person who belongs to no organization yet (an invitee's first sign-in). */
async function personWithoutOrg(email: string) {
  const { prisma } = t.service.services;
  const user = await prisma.user.upsert({ where: { email }, create: { id: newId('usr'), email }, update: {} });
  return { userId: user.id, token: (await startSession(t.service.services, { userId: user.id, email, orgId: null, rememberMe: false, method: 'cli' })).token };
}

async function memberOf(orgId: string, role: 'owner' | 'admin' | 'developer' | 'billing' | 'viewer', email = unique(role)) {
  const token = await sessionToken(t, orgId, email, false, role);
  const user = await t.service.services.prisma.user.findUniqueOrThrow({ where: { email } });
  return { token, id: user.id, email };
}

async function orgWithOwner() {
  const org = await orgWithKey(t);
  return { ...org, owner: await memberOf(org.orgId, 'owner') };
}

/** The invitation email sent to `to`, and the id and token of its link. */
async function invitationMail(to: string): Promise<{ message: ReceivedMessage; id: string; token: string; url: string }> {
  const message = await eventually(`an email to ${to}`, () => [...smtp.messages].reverse().find((m) => m.envelope.to.includes(to)));
  const url = /https?:\/\/\S+\/dashboard\/invitations\/inv_[0-9A-Za-z]{24}\?token=[0-9A-Za-z]+/.exec(message.text)![0];
  const parsed = new URL(url);
  return { message, url, id: parsed.pathname.split('/').at(-1)!, token: parsed.searchParams.get('token')! };
}

describe('members and roles', () => {
  it('lists the members with their roles, when they joined and last signed in, to any member and the organization\'s keys', async () => {
    const org = await orgWithOwner();
    const viewer = await memberOf(org.orgId, 'viewer');
    for (const credential of [{ token: viewer.token }, { key: org.key }]) {
      const answer = await call(t, 'GET', '/v1/org/members', credential);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ object: 'list', hasMore: false, nextCursor: null });
      expect(answer.body.data).toEqual([
        { object: 'member', id: org.owner.id, email: org.owner.email, role: 'owner', joinedAt: expect.any(String), lastSignInAt: expect.any(String) },
        { object: 'member', id: viewer.id, email: viewer.email, role: 'viewer', joinedAt: expect.any(String), lastSignInAt: expect.any(String) },
      ]);
    }
    const first = await call(t, 'GET', '/v1/org/members?limit=1', { token: viewer.token });
    expect(first.body).toMatchObject({ hasMore: true, data: [{ id: org.owner.id }] });
    const second = await call(t, 'GET', `/v1/org/members?limit=1&cursor=${first.body.nextCursor}`, { token: viewer.token });
    expect(second.body).toMatchObject({ hasMore: false, data: [{ id: viewer.id }] });
    expectEnvelope(await call(t, 'GET', '/v1/org/members?cursor=garbage', { token: viewer.token }), 400, 'invalid_query_parameter');
  });

  it('admins change the roles below owner; only owners make or demote owners; the change applies to the next request', async () => {
    const org = await orgWithOwner();
    const admin = await memberOf(org.orgId, 'admin');
    const dev = await memberOf(org.orgId, 'developer');
    const changed = await call(t, 'PATCH', `/v1/org/members/${dev.id}`, { token: admin.token, body: { role: 'viewer' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ object: 'member', id: dev.id, role: 'viewer' });
    // the former developer is a viewer from this request on
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token: dev.token, body: { name: 'nope' } }), 403, 'role_forbidden');

    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${dev.id}`, { token: admin.token, body: { role: 'owner' } }), 403, 'role_forbidden');
    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${org.owner.id}`, { token: admin.token, body: { role: 'viewer' } }), 403, 'role_forbidden');
    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${admin.id}`, { token: dev.token, body: { role: 'viewer' } }), 403, 'role_forbidden');
    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${dev.id}`, { token: admin.token, body: { role: 'superuser' } }), 400, 'validation_error');

    // the last owner cannot be demoted; with a second owner, one can be
    const refused = expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${org.owner.id}`, { token: org.owner.token, body: { role: 'admin' } }), 409, 'organization_must_keep_owner');
    expect(refused.message).toMatch(/last owner/);
    expect((await call(t, 'PATCH', `/v1/org/members/${admin.id}`, { token: org.owner.token, body: { role: 'owner' } })).body).toMatchObject({ role: 'owner' });
    expect((await call(t, 'PATCH', `/v1/org/members/${org.owner.id}`, { token: admin.token, body: { role: 'admin' } })).body).toMatchObject({ role: 'admin' });
    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${admin.id}`, { token: admin.token, body: { role: 'admin' } }), 409, 'organization_must_keep_owner');
  });

  it('two owners demoting each other at once leave one owner', async () => {
    const org = await orgWithOwner();
    const second = await memberOf(org.orgId, 'owner');
    const answers = await Promise.all([
      call(t, 'PATCH', `/v1/org/members/${second.id}`, { token: org.owner.token, body: { role: 'admin' } }),
      call(t, 'PATCH', `/v1/org/members/${org.owner.id}`, { token: second.token, body: { role: 'admin' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, answers.some((a) => a.status === 403) ? 403 : 409]);
    expect(await t.service.services.prisma.membership.count({ where: { orgId: org.orgId, role: 'owner' } })).toBe(1);
  });

  it('any member leaves; removing someone else needs an owner or admin, an owner an owner; the last owner stays', async () => {
    const org = await orgWithOwner();
    const admin = await memberOf(org.orgId, 'admin');
    const viewer = await memberOf(org.orgId, 'viewer');
    const dev = await memberOf(org.orgId, 'developer');

    expectEnvelope(await call(t, 'DELETE', `/v1/org/members/${dev.id}`, { token: viewer.token }), 403, 'role_forbidden');
    expectEnvelope(await call(t, 'DELETE', `/v1/org/members/${org.owner.id}`, { token: admin.token }), 403, 'role_forbidden');

    const left = await call(t, 'DELETE', `/v1/org/members/${viewer.id}`, { token: viewer.token });
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({ object: 'member', id: viewer.id, role: 'viewer', left: true, removedAt: expect.any(String) });
    // still signed in, without the organization
    expectEnvelope(await call(t, 'GET', '/v1/org', { token: viewer.token }), 403, 'organization_missing');
    expect((await call(t, 'GET', '/v1/me', { token: viewer.token })).status).toBe(200);

    const removed = await call(t, 'DELETE', `/v1/org/members/${dev.id}`, { token: admin.token });
    expect(removed.body).toMatchObject({ id: dev.id, left: false });
    expectEnvelope(await call(t, 'DELETE', `/v1/org/members/${dev.id}`, { token: admin.token }), 404, 'member_not_found');

    expectEnvelope(await call(t, 'DELETE', `/v1/org/members/${org.owner.id}`, { token: org.owner.token }), 409, 'organization_must_keep_owner');
    const members = await call(t, 'GET', '/v1/org/members', { key: org.key });
    expect(members.body.data.map((m: { id: string }) => m.id)).toEqual([org.owner.id, admin.id]);
  });

  it('an owner hands ownership to another member and becomes admin; no one else can', async () => {
    const org = await orgWithOwner();
    const admin = await memberOf(org.orgId, 'admin');
    expectEnvelope(await call(t, 'POST', '/v1/org/ownership-transfer', { token: admin.token, body: { memberId: admin.id } }), 403, 'role_forbidden');
    expectEnvelope(await call(t, 'POST', '/v1/org/ownership-transfer', { token: org.owner.token, body: { memberId: org.owner.id } }), 400, 'validation_error');
    const transfer = await call(t, 'POST', '/v1/org/ownership-transfer', { token: org.owner.token, body: { memberId: admin.id } });
    expect(transfer.status).toBe(200);
    expect(transfer.body).toMatchObject({ object: 'ownership_transfer', from: { id: org.owner.id, role: 'admin' }, to: { id: admin.id, role: 'owner' } });
    // the former owner is an admin now: no ownership
    expectEnvelope(await call(t, 'POST', '/v1/org/ownership-transfer', { token: org.owner.token, body: { memberId: admin.id } }), 403, 'role_forbidden');
    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${admin.id}`, { token: org.owner.token, body: { role: 'viewer' } }), 403, 'role_forbidden');
  });

  it('needs a dashboard session to change people: an API key is refused', async () => {
    const org = await orgWithOwner();
    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${org.owner.id}`, { key: org.key, body: { role: 'admin' } }), 403, 'browser_session_required');
    expectEnvelope(await call(t, 'DELETE', `/v1/org/members/${org.owner.id}`, { key: org.key }), 403, 'browser_session_required');
    expectEnvelope(await call(t, 'POST', '/v1/org/invitations', { key: org.key, body: { email: unique('k'), role: 'viewer' } }), 403, 'browser_session_required');
  });
});

describe('invitations', () => {
  it('emails a single-use link over SMTP; the invitee signs in, sees it, and accepts it with the token; the session moves to the organization', async () => {
    const org = await orgWithOwner();
    const invitee = unique('invitee');
    const sent = await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: invitee.toUpperCase(), role: 'developer' } });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ object: 'invitation', email: invitee, role: 'developer', status: 'pending', organization: { id: org.orgId }, invitedBy: { id: org.owner.id, email: org.owner.email } });
    expect(JSON.stringify(sent.body)).not.toMatch(/token/i);
    const expires = new Date(sent.body.expiresAt).getTime() - new Date(sent.body.createdAt).getTime();
    expect(Math.round(expires / 86_400_000)).toBe(7);

    const mail = await invitationMail(invitee);
    expect(mail.url).toBe(`${t.service.services.config.publicUrl}/dashboard/invitations/${sent.body.id}?token=${mail.token}`);
    expect(mail.message.subject).toContain(org.owner.email);
    expect(mail.message.html).toContain(mail.url.replace(/&/g, '&amp;'));
    expect(mail.message.from).toBe('accounts@ids.test');
    // only the token's digest is kept
    const row = await t.service.services.prisma.invitation.findUniqueOrThrow({ where: { id: mail.id } });
    expect(row.tokenHash).not.toContain(mail.token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const listed = await call(t, 'GET', '/v1/org/invitations', { token: org.owner.token });
    expect(listed.body.data.map((i: { id: string }) => i.id)).toEqual([mail.id]);

    const person = await personWithoutOrg(invitee);
    const mine = await call(t, 'GET', '/v1/me/invitations', { token: person.token });
    expect(mine.body.data).toEqual([expect.objectContaining({ id: mail.id, organization: { id: org.orgId, name: expect.any(String) }, status: 'pending' })]);
    expectEnvelope(await call(t, 'GET', '/v1/org', { token: person.token }), 403, 'organization_missing');

    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${mail.id}/accept`, { token: person.token, body: { token: `${mail.token}x` } }), 400, 'invitation_invalid');
    const accepted = await call(t, 'POST', `/v1/org/invitations/${mail.id}/accept`, { token: person.token, body: { token: mail.token } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ object: 'invitation_acceptance', organization: { id: org.orgId }, role: 'developer', sessionMoved: true, invitation: { id: mail.id, status: 'accepted', acceptedAt: expect.any(String) } });
    // the session that accepted works in the organization now, as a developer
    expect((await call(t, 'GET', '/v1/org', { token: person.token })).body).toMatchObject({ id: org.orgId });
    expect((await call(t, 'POST', '/v1/api_keys', { token: person.token, body: { name: 'dev key' } })).status).toBe(200);
    expectEnvelope(await call(t, 'GET', '/v1/org/audit-log', { token: person.token }), 403, 'role_forbidden');

    // single use
    const stranger = await personWithoutOrg(unique('stranger'));
    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${mail.id}/accept`, { token: stranger.token, body: { token: mail.token } }), 409, 'invitation_not_pending');
    expect((await call(t, 'GET', '/v1/org/invitations', { token: org.owner.token })).body.data).toEqual([]);
    expect((await call(t, 'GET', '/v1/me/invitations', { token: person.token })).body.data).toEqual([]);
  });

  it('accepts without the token for the invited address only, and a token from any signed-in account; two acceptances at once make one member', async () => {
    const org = await orgWithOwner();
    const invitee = unique('own-address');
    const other = unique('forwarded');
    await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: invitee, role: 'viewer' } });
    await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: other, role: 'billing' } });
    const own = await invitationMail(invitee);
    const forwarded = await invitationMail(other);

    // a person in another organization accepts with their own address: no token needed
    const elsewhere = await orgWithOwner();
    const person = await memberOf(elsewhere.orgId, 'viewer', invitee);
    const wrongPerson = await personWithoutOrg(unique('someone'));
    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${own.id}/accept`, { token: wrongPerson.token }), 400, 'invitation_invalid');
    const accepted = await call(t, 'POST', `/v1/org/invitations/${own.id}/accept`, { token: person.token });
    expect(accepted.body).toMatchObject({ role: 'viewer', organization: { id: org.orgId } });

    // the forwarded link, opened by two accounts at once: one joins
    const a = await personWithoutOrg(unique('a'));
    const b = await personWithoutOrg(unique('b'));
    const both = await Promise.all([a, b].map((p) => call(t, 'POST', `/v1/org/invitations/${forwarded.id}/accept`, { token: p.token, body: { token: forwarded.token } })));
    expect(both.map((x) => x.status).sort()).toEqual([200, 409]);
    const members = (await call(t, 'GET', '/v1/org/members', { key: org.key })).body.data.map((m: { email: string; role: string }) => `${m.role}`);
    expect(members.sort()).toEqual(['billing', 'owner', 'viewer']);
  });

  it('re-inviting a pending address replaces its invitation; an expired or withdrawn one is not pending; a member is not invited', async () => {
    const org = await orgWithOwner();
    const invitee = unique('twice');
    const first = await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: invitee, role: 'viewer' } });
    const firstMail = await invitationMail(invitee);
    const second = await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: invitee, role: 'admin' } });
    const secondMail = await eventually('the second email', async () => {
      const mail = await invitationMail(invitee);
      return mail.id !== firstMail.id && mail;
    });
    expect(secondMail.id).toBe(second.body.id);
    const listed = (await call(t, 'GET', '/v1/org/invitations', { token: org.owner.token })).body.data;
    expect(listed.map((i: { id: string; role: string }) => [i.id, i.role])).toEqual([[second.body.id, 'admin']]);

    const person = await personWithoutOrg(invitee);
    const stale = expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${first.body.id}/accept`, { token: person.token, body: { token: firstMail.token } }), 409, 'invitation_not_pending');
    expect(stale.details).toEqual({ status: 'revoked' });

    // expired
    await t.service.services.prisma.invitation.update({ where: { id: second.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${second.body.id}/accept`, { token: person.token, body: { token: secondMail.token } }), 409, 'invitation_not_pending').details).toEqual({ status: 'expired' });
    // a wrong token says nothing about the state
    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${second.body.id}/accept`, { token: person.token, body: { token: 'nope' } }), 400, 'invitation_invalid');

    // withdrawn (idempotent)
    const third = await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: invitee, role: 'viewer' } });
    const thirdMail = await eventually('the third email', async () => {
      const mail = await invitationMail(invitee);
      return mail.id === third.body.id && mail;
    });
    const revoked = await call(t, 'DELETE', `/v1/org/invitations/${third.body.id}`, { token: org.owner.token });
    expect(revoked.body).toMatchObject({ id: third.body.id, status: 'revoked', revokedAt: expect.any(String) });
    expect((await call(t, 'DELETE', `/v1/org/invitations/${third.body.id}`, { token: org.owner.token })).body).toMatchObject({ status: 'revoked', revokedAt: revoked.body.revokedAt });
    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${third.body.id}/accept`, { token: person.token, body: { token: thirdMail.token } }), 409, 'invitation_not_pending');
    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${newId('inv')}/accept`, { token: person.token }), 404, 'invitation_not_found');

    expectEnvelope(await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: org.owner.email.toUpperCase(), role: 'viewer' } }), 409, 'already_a_member');
    expectEnvelope(await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: 'not an address', role: 'viewer' } }), 400, 'validation_error');
  });

  it('only owners invite owners; viewers invite nobody; an API key never accepts', async () => {
    const org = await orgWithOwner();
    const admin = await memberOf(org.orgId, 'admin');
    const viewer = await memberOf(org.orgId, 'viewer');
    expectEnvelope(await call(t, 'POST', '/v1/org/invitations', { token: admin.token, body: { email: unique('o'), role: 'owner' } }), 403, 'role_forbidden');
    expectEnvelope(await call(t, 'POST', '/v1/org/invitations', { token: viewer.token, body: { email: unique('v'), role: 'viewer' } }), 403, 'role_forbidden');
    expect((await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: unique('o'), role: 'owner' } })).status).toBe(200);
    const invitation = (await call(t, 'POST', '/v1/org/invitations', { token: admin.token, body: { email: unique('k'), role: 'viewer' } })).body;
    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${invitation.id}/accept`, { key: org.key }), 403, 'browser_session_required');
    expectEnvelope(await call(t, 'GET', '/v1/me/invitations', { key: org.key }), 403, 'browser_session_required');
  });

  it('without email delivery, or when the mail server refuses, nothing is saved (503 email_delivery_unavailable)', async () => {
    const org = await orgWithOwner();
    const before = await t.service.services.prisma.invitation.count({ where: { orgId: org.orgId } });
    smtp.rejectNext(1, 451, 'try later');
    expectEnvelope(await call(t, 'POST', '/v1/org/invitations', { token: org.owner.token, body: { email: unique('bounce'), role: 'viewer' } }), 503, 'email_delivery_unavailable');
    expect(await t.service.services.prisma.invitation.count({ where: { orgId: org.orgId } })).toBe(before);
    expect(await t.service.services.prisma.auditEntry.count({ where: { orgId: org.orgId, action: 'member.invited' } })).toBe(0);

    const noMail = await startTestService({ email: { smtpUrl: undefined, from: 'x <x@ids.test>' } });
    try {
      const { orgId } = await orgWithKey(noMail);
      const token = await sessionToken(noMail, orgId);
      expectEnvelope(await call(noMail, 'POST', '/v1/org/invitations', { token, body: { email: unique('nomail'), role: 'viewer' } }), 503, 'email_delivery_unavailable');
      expect(await noMail.service.services.prisma.invitation.count({ where: { orgId } })).toBe(0);
    } finally {
      await noMail.close();
    }
  });
});

describe('the audit log', () => {
  it('records who changed what, from which address, in which request, in the transaction of the change', async () => {
    const org = await orgWithOwner();
    const admin = await memberOf(org.orgId, 'admin');
    const invitee = unique('audited');
    const invited = await call(t, 'POST', '/v1/org/invitations', { token: admin.token, body: { email: invitee, role: 'viewer' } });
    const mail = await invitationMail(invitee);
    const person = await personWithoutOrg(invitee);
    const joined = await call(t, 'POST', `/v1/org/invitations/${mail.id}/accept`, { token: person.token, body: { token: mail.token } });
    const roleChanged = await call(t, 'PATCH', `/v1/org/members/${person.userId}`, { token: admin.token, body: { role: 'billing' } });
    const key = await call(t, 'POST', '/v1/api_keys', { token: admin.token, body: { name: 'audited key' } });
    const revokedKey = await call(t, 'DELETE', `/v1/api_keys/${key.body.id}`, { token: admin.token });
    const budget = await call(t, 'PUT', '/v1/billing/budget', { token: admin.token, body: { hardCapCents: 5000 } });
    const removed = await call(t, 'DELETE', `/v1/org/members/${person.userId}`, { token: admin.token });
    const transferred = await call(t, 'POST', '/v1/org/ownership-transfer', { token: org.owner.token, body: { memberId: admin.id } });
    for (const answer of [invited, joined, roleChanged, key, revokedKey, budget, removed, transferred]) expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    const log = await call(t, 'GET', '/v1/org/audit-log?limit=100', { token: admin.token });
    expect(log.status).toBe(200);
    const entries = log.body.data as any[];
    const byRequest = (answer: { headers: Headers }) => entries.find((e) => e.requestId === answer.headers.get('request-id'));
    const user = (who: { id?: string; userId?: string; email: string }) => ({ type: 'user', id: who.id ?? who.userId, email: who.email });
    expect(byRequest(invited)).toMatchObject({ object: 'audit_entry', action: 'member.invited', actor: user(admin), target: { type: 'invitation', id: mail.id }, details: { email: invitee, role: 'viewer' } });
    expect(byRequest(joined)).toMatchObject({ action: 'member.joined', actor: user({ ...person, email: invitee }), target: { type: 'user', id: person.userId }, details: { role: 'viewer', invitationId: mail.id } });
    expect(byRequest(roleChanged)).toMatchObject({ action: 'member.role_changed', details: { from: 'viewer', to: 'billing' } });
    expect(byRequest(key)).toMatchObject({ action: 'api_key.created', target: { type: 'api_key', id: key.body.id } });
    expect(byRequest(revokedKey)).toMatchObject({ action: 'api_key.revoked', target: { type: 'api_key', id: key.body.id } });
    expect(byRequest(budget)).toMatchObject({ action: 'budget.changed', details: { budget: { hardCapCents: 5000 } } });
    expect(byRequest(removed)).toMatchObject({ action: 'member.removed', details: { left: false, role: 'billing' } });
    expect(byRequest(transferred)).toMatchObject({ action: 'ownership.transferred', actor: user(org.owner), target: { type: 'user', id: admin.id } });
    for (const entry of entries) {
      expect(entry.ipAddress).toMatch(/127\.0\.0\.1$/);
      expect(entry.requestId).toMatch(/^req_/);
      expect(new Date(entry.createdAt).getTime()).not.toBeNaN();
    }
    // newest first
    expect(entries.map((e) => e.createdAt)).toEqual([...entries.map((e) => e.createdAt)].sort().reverse());

    // filters and pages
    const invitedOnly = await call(t, 'GET', '/v1/org/audit-log?action=member.invited', { key: org.key });
    expect(invitedOnly.body.data.map((e: { action: string }) => e.action)).toEqual(['member.invited']);
    const byOwner = await call(t, 'GET', `/v1/org/audit-log?actor_id=${org.owner.id}`, { key: org.key });
    expect(byOwner.body.data.map((e: { action: string }) => e.action)).toEqual(['ownership.transferred']);
    const page = await call(t, 'GET', '/v1/org/audit-log?limit=2', { key: org.key });
    const next = await call(t, 'GET', `/v1/org/audit-log?limit=2&cursor=${page.body.nextCursor}`, { key: org.key });
    expect([...page.body.data, ...next.body.data].map((e: { id: string }) => e.id)).toEqual(entries.slice(0, 4).map((e) => e.id));
    expectEnvelope(await call(t, 'GET', '/v1/org/audit-log?action=member.teleported', { key: org.key }), 400, 'invalid_query_parameter');

    // the entry is also an org.audit.<action> event
    const events = await call(t, 'GET', '/v1/delivery/events?type=org.audit.member.invited', { key: org.key });
    expect(events.body.data?.[0]?.data ?? events.body.data?.[0]?.payload).toMatchObject({ action: 'member.invited', requestId: invited.headers.get('request-id') });
  });

  it('rotating a webhook secret and changing auto-top-up are audited', async () => {
    const org = await orgWithOwner();
    const hook = await call(t, 'POST', '/v1/webhook_endpoints', { token: org.owner.token, body: { url: 'http://127.0.0.1:9/hook' } });
    const rotated = await call(t, 'POST', `/v1/webhook_endpoints/${hook.body.id}/rotate_secret`, { token: org.owner.token });
    const topup = await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token: org.owner.token, body: { enabled: true, thresholdCents: 500, amountCents: 2000 } });
    expect([rotated.status, topup.status]).toEqual([200, 200]);
    const log = (await call(t, 'GET', '/v1/org/audit-log', { token: org.owner.token })).body.data as any[];
    expect(log.find((e) => e.requestId === rotated.headers.get('request-id'))).toMatchObject({ action: 'webhook.secret_rotated', target: { type: 'webhook_endpoint', id: hook.body.id } });
    expect(log.find((e) => e.requestId === topup.headers.get('request-id'))).toMatchObject({ action: 'budget.changed', details: { autoTopup: { enabled: true, thresholdCents: 500, amountCents: 2000 } } });
  });

  it('records the payment processor\'s plan and payment method changes, by the processor', async () => {
    const webhookSecret = 'whsec_members_test';
    const billed = await startTestService({ stripe: { ...t.service.services.config.stripe, webhookSecret } });
    try {
      const org = await orgWithKey(billed);
      const owner = await sessionToken(billed, org.orgId);
      const customer = `cus_${org.orgId}`;
      const deliver = (type: string, object: object) => {
        const payload = JSON.stringify({ id: `evt_${newId('evt')}`, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });
        return call(billed, 'POST', '/v1/billing/webhooks/processor', { rawBody: payload, headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }), 'content-type': 'application/json' } });
      };
      const card = { id: `pm_${org.orgId}`, object: 'payment_method', type: 'card', customer, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2040 } };
      for (const [type, object] of [
        ['customer.subscription.created', { id: `sub_${org.orgId}`, object: 'subscription', customer, status: 'active', metadata: { orgId: org.orgId, planKey: 'team' } }],
        ['payment_method.attached', card],
        ['payment_method.detached', { ...card, customer: null }],
      ] as const) {
        expect((await deliver(type, object)).body, type).toMatchObject({ handled: true });
      }
      const log = (await call(billed, 'GET', '/v1/org/audit-log', { token: owner })).body.data as any[];
      const processor = { type: 'system', id: 'payment_processor', email: null };
      expect(log.map((e) => [e.action, e.actor, e.details.change ?? e.details.planKey])).toEqual([
        ['payment_method.changed', processor, 'removed'],
        ['payment_method.changed', processor, 'saved'],
        ['plan.changed', processor, 'team'],
      ]);
      expect(log[2].details).toMatchObject({ previousPlanKey: 'sandbox_grant', billingState: 'active', reason: 'subscription_active' });
    } finally {
      await billed.close();
    }
  });

  it('is for owners and admins among people', async () => {
    const org = await orgWithOwner();
    for (const role of ['developer', 'billing', 'viewer'] as const) {
      expectEnvelope(await call(t, 'GET', '/v1/org/audit-log', { token: (await memberOf(org.orgId, role)).token }), 403, 'role_forbidden');
    }
    expect((await call(t, 'GET', '/v1/org/audit-log', { token: (await memberOf(org.orgId, 'admin')).token })).status).toBe(200);
  });
});

describe('across organizations', () => {
  it('no route reaches another organization\'s members, invitations or audit log', async () => {
    const mine = await orgWithOwner();
    const theirs = await orgWithOwner();
    const theirAdmin = await memberOf(theirs.orgId, 'admin');
    const invitee = unique('theirs');
    const theirInvitation = (await call(t, 'POST', '/v1/org/invitations', { token: theirs.owner.token, body: { email: invitee, role: 'viewer' } })).body;
    await invitationMail(invitee);

    const as = { token: mine.owner.token };
    expect((await call(t, 'GET', '/v1/org/members', as)).body.data.map((m: { id: string }) => m.id)).toEqual([mine.owner.id]);
    expect((await call(t, 'GET', '/v1/org/invitations', as)).body.data).toEqual([]);
    const log = (await call(t, 'GET', '/v1/org/audit-log?limit=100', as)).body.data as any[];
    expect(log.some((e) => e.requestId && e.target?.id === theirInvitation.id)).toBe(false);
    expect((await call(t, 'GET', `/v1/org/audit-log?actor_id=${theirs.owner.id}`, as)).body.data).toEqual([]);
    expectEnvelope(await call(t, 'PATCH', `/v1/org/members/${theirAdmin.id}`, { ...as, body: { role: 'viewer' } }), 404, 'member_not_found');
    expectEnvelope(await call(t, 'DELETE', `/v1/org/members/${theirAdmin.id}`, as), 404, 'member_not_found');
    expectEnvelope(await call(t, 'POST', '/v1/org/ownership-transfer', { ...as, body: { memberId: theirAdmin.id } }), 404, 'member_not_found');
    expectEnvelope(await call(t, 'DELETE', `/v1/org/invitations/${theirInvitation.id}`, as), 404, 'invitation_not_found');
    expect((await call(t, 'GET', '/v1/me/invitations', as)).body.data).toEqual([]);
    // their invitation is untouched, and accepting it takes its token or its address
    expectEnvelope(await call(t, 'POST', `/v1/org/invitations/${theirInvitation.id}/accept`, as), 400, 'invitation_invalid');
    const theirMembers = (await call(t, 'GET', '/v1/org/members', { key: theirs.key })).body.data.map((m: { role: string }) => m.role);
    expect(theirMembers).toEqual(['owner', 'admin']);
    expect((await call(t, 'GET', '/v1/org/invitations', { key: theirs.key })).body.data.map((i: { id: string }) => i.id)).toEqual([theirInvitation.id]);
  });
});

describe('every door', () => {
  it('GraphQL and MCP answer the members and audit log the same way, and refuse the same way', async () => {
    const org = await orgWithOwner();
    const viewer = await memberOf(org.orgId, 'viewer');
    const gql = (token: string, query: string, variables = {}) => call(t, 'POST', '/graphql', { token, body: { query, variables } });
    const members = await gql(viewer.token, '{ members(first: 10) { nodes { id role } } }');
    expect(members.body.data.members.nodes).toEqual([{ id: org.owner.id, role: 'owner' }, { id: viewer.id, role: 'viewer' }]);
    expect((await gql(viewer.token, '{ auditLog(first: 5) { nodes { id } } }')).body.errors[0].extensions.code).toBe('role_forbidden');
    expect((await gql(viewer.token, 'mutation($id: String!) { updateMemberRole(memberId: $id, role: admin) { id } }', { id: viewer.id })).body.errors[0].extensions.code).toBe('role_forbidden');
    expect((await gql(viewer.token, 'mutation($id: String!) { removeMember(memberId: $id) { left } }', { id: org.owner.id })).body.errors[0].extensions.code).toBe('role_forbidden');

    const mcp = (credential: { key?: string; token?: string }, name: string, args: object) =>
      call(t, 'POST', '/mcp', { ...credential, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
    const listed = await mcp({ key: org.key }, 'org_members_list', {});
    expect(listed.body.result.structuredContent.data.map((m: { id: string }) => m.id)).toEqual([org.owner.id, viewer.id]);
    const refused = await mcp({ token: viewer.token }, 'org_audit_log_list', {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.code).toBe('role_forbidden');
    expect((await mcp({ token: org.owner.token }, 'org_audit_log_list', {})).body.result.isError).toBe(false);
  });
});
