// Query.invitation: what the dashboard's invitation page shows before the invitation is
// accepted. Only the link's token (any signed-in person) or the invited address itself (no token)
// reads it; another person, another organization's members and API keys learn nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../core/ids.ts';
import { startSession } from '../../resolvers/accounts/sessions.ts';
import { call, eventually, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { startSmtpServer, type SmtpServer } from '../support/smtpServer.ts';

let t: TestService;
let smtp: SmtpServer;
let seq = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${++seq}@invitation-link.test`;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestService({ email: { smtpUrl: smtp.url, from: 'IDS <accounts@ids.test>' } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const invitationQuery = 'query($id: String!, $token: String) { invitation(id: $id, token: $token) { id email role status organization { id name } invitedBy { email } } }';
const gql = (credential: { token?: string; key?: string }, query: string, variables = {}) => call(t, 'POST', '/graphql', { ...credential, body: { query, variables } });

/** A signed-in person in no organization yet, as an invitee's first sign-in leaves them. */
async function personWithoutOrg(email: string) {
  const { prisma } = t.service.services;
  const user = await prisma.user.upsert({ where: { email }, create: { id: newId('usr'), email }, update: {} });
  return (await startSession(t.service.services, { userId: user.id, email, orgId: null, rememberMe: false, method: 'cli' })).token;
}

async function invite(ownerToken: string, email: string, role = 'viewer') {
  const before = smtp.messages.length;
  const sent = await gql({ token: ownerToken }, 'mutation($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { id } }', { email, role });
  expect(sent.body.errors).toBeUndefined();
  const message = await eventually(`the invitation to ${email}`, () => smtp.messages.slice(before).find((m) => m.envelope.to.includes(email)));
  const url = new URL(/https?:\/\/\S+\/dashboard\/invitations\/inv_[0-9A-Za-z]+\?token=[0-9A-Za-z]+/.exec(message.text)![0]);
  return { id: url.pathname.split('/').at(-1)!, token: url.searchParams.get('token')! };
}

describe('an invitation as its link opens it', () => {
  it('shows the organization and role to the link\'s holder and to the invited address, and to no one else', async () => {
    const org = await orgWithKey(t, 'Inviting org');
    const ownerEmail = unique('owner');
    const owner = await sessionToken(t, org.orgId, ownerEmail);
    const invitedEmail = unique('invited');
    const invitation = await invite(owner, invitedEmail, 'developer');

    const expected = { id: invitation.id, email: invitedEmail, role: 'developer', status: 'pending', organization: { id: org.orgId, name: 'Inviting org' }, invitedBy: { email: ownerEmail } };
    // the invitee before joining anything: with the token, and without it (their own address)
    const invitee = await personWithoutOrg(invitedEmail);
    expect((await gql({ token: invitee }, invitationQuery, invitation)).body.data.invitation).toEqual(expected);
    expect((await gql({ token: invitee }, invitationQuery, { id: invitation.id })).body.data.invitation).toEqual(expected);
    // someone else holding the link (it accepts with any account)
    const holder = await personWithoutOrg(unique('holder'));
    expect((await gql({ token: holder }, invitationQuery, invitation)).body.data.invitation).toEqual(expected);

    // without the token, or with a wrong one, another person learns nothing
    for (const variables of [{ id: invitation.id }, { id: invitation.id, token: 'forged' }]) {
      const refused = await gql({ token: holder }, invitationQuery, variables);
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors[0].extensions.code).toBe('invitation_invalid');
      expect(JSON.stringify(refused.body)).not.toContain('Inviting org');
    }
    expect((await gql({ token: holder }, invitationQuery, { id: 'inv_000000000000000000000000' })).body.errors[0].extensions.code).toBe('invitation_not_found');

    // another organization's owner and key: nothing without the token, and a key never
    const other = await orgWithKey(t, 'Other org');
    const otherOwner = await sessionToken(t, other.orgId, unique('other-owner'));
    const stranger = await gql({ token: otherOwner }, invitationQuery, { id: invitation.id });
    expect(stranger.body.errors[0].extensions.code).toBe('invitation_invalid');
    expect(stranger.body.data).toBeNull();
    for (const key of [other.key, org.key]) {
      const byKey = await gql({ key }, invitationQuery, invitation);
      expect(byKey.body.data).toBeNull();
      expect(byKey.body.errors[0].extensions.code).toBe('browser_session_required');
    }
  });

  it('tells what became of it: revoked, accepted, expired', async () => {
    const org = await orgWithKey(t);
    const owner = await sessionToken(t, org.orgId, unique('owner'));
    const invitedEmail = unique('invited');
    const first = await invite(owner, invitedEmail);
    // inviting the address again replaces the first invitation
    const second = await invite(owner, invitedEmail);
    expect(first.id).not.toBe(second.id);
    const invitee = await personWithoutOrg(invitedEmail);
    expect((await gql({ token: invitee }, invitationQuery, first)).body.data.invitation.status).toBe('revoked');

    const accepted = await gql({ token: invitee }, 'mutation($id: String!, $token: String) { acceptInvitation(id: $id, token: $token) { role } }', second);
    expect(accepted.body.data.acceptInvitation.role).toBe('viewer');
    expect((await gql({ token: invitee }, invitationQuery, second)).body.data.invitation.status).toBe('accepted');

    // one not accepted within its 7 days
    const lateEmail = unique('late');
    const late = await invite(owner, lateEmail);
    await t.service.services.prisma.invitation.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await gql({ token: await personWithoutOrg(lateEmail) }, invitationQuery, late)).body.data.invitation.status).toBe('expired');
  });
});
