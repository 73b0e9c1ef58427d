// Members, invitations and the audit log in a real browser against a real service, with a real
// SMTP server: an owner invites a viewer, the invitation email's link brings the invitee (in a
// browser of their own) through "Sign in" back to the invitation, which they accept; as a viewer
// they cannot create a key (the control says why, and the service refuses a forced request 403);
// the owner sees them, changes their role, revokes another invitation, reads the audit log of it
// all (filtered and paged through the address), hands ownership over and leaves; an invitation opened by someone else is taken up by signing in as its address. Every page is
// screenshot and checked by axe-core, Members and Audit log at 375 px too, under the strict CSP.
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../core/ids.ts';
import { call, eventually, expectEnvelope, freePort, startTestService, type TestService } from '../harness.ts';
import { startSmtpServer, type ReceivedMessage, type SmtpServer } from '../support/smtpServer.ts';
import { byName, checkPage, ensureDashboardBuilt, fill, launchBrowser, openPage, sessionCookie, waitForHeading, type PageWatch } from './browser.ts';

let smtp: SmtpServer;
let t: TestService;
let browser: Browser;
let base: string;
const watches: PageWatch[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  [smtp] = await Promise.all([startSmtpServer(), ensureDashboardBuilt()]);
  [t, browser] = await Promise.all([startTestService({ email: { smtpUrl: smtp.url, from: 'IDS <accounts@localhost>' }, publicUrl: base }, { port }), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
});
afterEach(() => {
  // a CSP violation or a script error anywhere fails the test that caused it
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

const newPage = (context: BrowserContext, width = 1200) => openPage(context, watches, { width });

const dashboard = (route = '') => `${base}/dashboard${route}`;
const stamp = Date.now().toString(36);
const ownerEmail = `owner.${stamp}@members.test`;
const inviteeEmail = `invitee.${stamp}@members.test`;
const otherEmail = `other.${stamp}@members.test`;

/** The newest email to `to` that `matches`. */
const mailTo = (to: string, matches: (m: ReceivedMessage) => boolean) =>
  eventually(`an email to ${to}`, () => [...smtp.messages].reverse().find((m) => m.envelope.to.includes(to) && matches(m)));

const isInvitation = (m: ReceivedMessage) => /invited you/.test(m.subject ?? '');

async function signInWithCode(page: Page, email: string): Promise<void> {
  await waitForHeading(page, 'Sign in');
  const before = smtp.messages.length;
  await fill(page, 'Email', email);
  await (await byName(page, 'Email me a code', 'button')).click();
  await byName(page, 'Code', 'textbox');
  const message = await eventually('the sign-in code', () => smtp.messages.slice(before).find((m) => m.envelope.to.includes(email) && !isInvitation(m)));
  await fill(page, 'Code', /\b(\d{6})\b/.exec(message.subject ?? '')![1]!);
  await (await byName(page, 'Sign in', 'button')).click();
}


/** The text of the table rows whose first cell is `name`. */
const rowText = (page: Page, table: string, name: string) =>
  page.$$eval(`table.${table} tbody tr`, (rows, wanted) => rows.filter((r) => r.querySelector('th')?.textContent?.startsWith(wanted)).map((r) => r.textContent ?? ''), name);

const auditActionsShown = (page: Page) => page.$$eval('table.audit-table tbody td[data-label="Action"]', (cells) => cells.map((c) => c.textContent?.trim() ?? ''));

describe('members, invitations and the audit log in a browser', { timeout: 60_000 }, () => {
  let owner: Page;
  let invitee: Page;
  let ownerCookie: string;
  let orgId: string;
  let orgName: string;
  let invitationLink: string;

  it('an owner invites a viewer from "Members"; the email carries the link', async () => {
    owner = await newPage(await browser.createBrowserContext());
    await owner.goto(dashboard('/members'));
    await signInWithCode(owner, ownerEmail);
    // back where they were going
    await waitForHeading(owner, 'Members');
    ownerCookie = await sessionCookie(owner);
    const me = (await call(t, 'GET', '/v1/me', { headers: { cookie: ownerCookie } })).body;
    orgId = me.organization.id;
    orgName = me.organization.name;
    // Every page of this long journey reads the account (platform requests): room for more than the
    // starter plan's 60 a minute, so a slow run is not refused on the way (quotas are not its subject)
    await t.service.services.prisma.orgQuota.create({ data: { orgId, meterClass: 'platform', period: 'minute', limit: 10_000 } });
    t.service.services.cache.forgetOrg(orgId);
    await owner.waitForSelector('table.members-table');
    expect((await rowText(owner, 'members-table', ownerEmail))[0]).toContain('(you)');
    await owner.waitForFunction(() => document.body.textContent?.includes('No invitations are waiting to be accepted.'));
    await checkPage(owner, 'members-01-members');

    await (await byName(owner, 'Invite member', 'link')).click();
    await waitForHeading(owner, 'Invite member');
    // an address is required, and said so beside the field
    await (await byName(owner, 'Send invitation', 'button')).click();
    await owner.waitForSelector('.field-error');
    await checkPage(owner, 'members-02-invite');
    await fill(owner, 'Email', inviteeEmail);
    await (await byName(owner, 'Viewer', 'radio')).click();
    await (await byName(owner, 'Send invitation', 'button')).click();
    await owner.waitForFunction((email) => document.querySelector('.success')?.textContent?.includes(`Invitation sent to ${email} as Viewer`), {}, inviteeEmail);
    await checkPage(owner, 'members-03-invite-sent');

    const mail = await mailTo(inviteeEmail, isInvitation);
    expect(mail.subject).toContain(orgName);
    invitationLink = /https?:\/\/\S+\/dashboard\/invitations\/inv_[0-9A-Za-z]+\?token=[0-9A-Za-z]+/.exec(mail.text)![0];
    expect(invitationLink.startsWith(`${base}/dashboard/invitations/`)).toBe(true);

    // the invitation waits in the list, with its role
    await (await byName(owner, 'Back to Members', 'link')).click();
    await waitForHeading(owner, 'Members');
    await owner.waitForSelector('table.invitations-table');
    expect((await rowText(owner, 'invitations-table', inviteeEmail))[0]).toMatch(/Viewer.*/);
  });

  it('the invitee follows the link, signs in with their own code, lands on the invitation and accepts it', async () => {
    invitee = await newPage(await browser.createBrowserContext());
    await invitee.goto(invitationLink);
    // no session: "Sign in", remembering the invitation with its token
    await waitForHeading(invitee, 'Sign in');
    const link = new URL(invitationLink);
    expect(new URL(invitee.url()).searchParams.get('next')).toBe(`${link.pathname.replace('/dashboard', '')}${link.search}`);
    await checkPage(invitee, 'members-04-invitee-sign-in');
    await signInWithCode(invitee, inviteeEmail);

    await waitForHeading(invitee, 'Invitation');
    expect(invitee.url()).toBe(invitationLink);
    await byName(invitee, 'Accept invitation', 'button');
    const text = await invitee.$eval('main', (m) => m.textContent ?? '');
    expect(text).toContain(`${ownerEmail} invited ${inviteeEmail} to join ${orgName} as Viewer`);
    expect(text).toContain('Reads: data, usage, keys');
    await checkPage(invitee, 'members-05-invitation');

    await (await byName(invitee, 'Accept invitation', 'button')).click();
    await waitForHeading(invitee, 'Overview');
    expect(invitee.url()).toBe(dashboard());
    await invitee.waitForFunction((name) => document.querySelector('header select option:checked')?.textContent === `${name} (Viewer)`, {}, orgName);
    const me = (await call(t, 'GET', '/v1/me', { headers: { cookie: await sessionCookie(invitee) } })).body;
    expect(me).toMatchObject({ user: { email: inviteeEmail }, organization: { id: orgId }, role: 'viewer' });
    await checkPage(invitee, 'members-06-invitee-overview');

    // the link works once: opened again, it says so
    await invitee.goto(invitationLink);
    await waitForHeading(invitee, 'Invitation');
    await invitee.waitForFunction(() => document.querySelector('main .note')?.textContent?.includes('was accepted'));
    expect(await invitee.$eval('main .note', (n) => n.textContent)).toContain(`You are a member of ${orgName}.`);
    await checkPage(invitee, 'members-07-invitation-used');
  });

  it('as a viewer, "Create key" is disabled with the reason, and a forced createApiKey is refused 403', async () => {
    await (await byName(invitee, 'API keys', 'link')).click();
    await waitForHeading(invitee, 'API keys');
    const create = await byName(invitee, 'Create key', 'button');
    expect(await create.evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    const reason = await create.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    expect(reason).toContain('Your role (Viewer) can see keys but not create');
    await checkPage(invitee, 'members-08-viewer-api-keys');

    // the page's own session and CSRF header, the button bypassed
    const forced = await invitee.evaluate(async () => {
      const response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-ids-csrf': '1' },
        body: JSON.stringify({ query: 'mutation { createApiKey(name: "forced") { secret } }' }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(forced.status).toBe(403);
    expect(forced.body.errors[0].extensions.code).toBe('role_forbidden');
    expect(forced.body.data?.createApiKey ?? null).toBeNull();

    // Members and the audit log say what a viewer may not do
    await (await byName(invitee, 'Members', 'link')).click();
    await waitForHeading(invitee, 'Members');
    const invite = await byName(invitee, 'Invite member', 'button');
    expect(await invite.evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    expect(await invite.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent)).toContain('Your role (Viewer) can see the members but not invite');
    await invitee.waitForSelector('table.members-table');
    const roleSelect = await byName(invitee, `Role of ${ownerEmail}`, 'combobox');
    expect(await roleSelect.evaluate((s) => (s as HTMLSelectElement).disabled)).toBe(true);
    expect(await invitee.$('table.invitations-table')).toBeNull();
    await checkPage(invitee, 'members-09-viewer-members');
    await (await byName(invitee, 'Audit log', 'link')).click();
    await waitForHeading(invitee, 'Audit log');
    await invitee.waitForFunction(() => document.querySelector('main .note')?.textContent?.includes('Your role (Viewer) cannot read the audit log'));
    await checkPage(invitee, 'members-10-viewer-audit-log');
  });

  it('the owner sees the new member, changes their role, and revokes another invitation, whose link then says so', async () => {
    await owner.goto(dashboard('/members'));
    await waitForHeading(owner, 'Members');
    await owner.waitForFunction((email) => [...document.querySelectorAll('table.members-table th')].some((th) => th.textContent === email), {}, inviteeEmail);
    // the accepted invitation is no longer pending
    await owner.waitForFunction(() => document.body.textContent?.includes('No invitations are waiting to be accepted.'));
    const select = await byName(owner, `Role of ${inviteeEmail}`, 'combobox');
    expect(await select.evaluate((s) => (s as HTMLSelectElement).value)).toBe('viewer');
    await select.select('developer');
    await (await byName(owner, `Change role of ${inviteeEmail}`, 'button')).click();
    await eventually('the new role', async () => (await call(t, 'GET', '/v1/org/members', { headers: { cookie: ownerCookie } })).body.data.find((m: { email: string }) => m.email === inviteeEmail)?.role === 'developer');
    // saved: the select now shows the role the service holds, with nothing left to save
    const save = await byName(owner, `Change role of ${inviteeEmail}`, 'button');
    await owner.waitForFunction((button) => (button as HTMLButtonElement).disabled, {}, save);

    // another invitation, withdrawn before it is used
    await owner.goto(dashboard('/members/invite'));
    await waitForHeading(owner, 'Invite member');
    await fill(owner, 'Email', otherEmail);
    await (await byName(owner, 'Send invitation', 'button')).click();
    await owner.waitForSelector('.success');
    const revokedLink = /https?:\/\/\S+\/dashboard\/invitations\/inv_[0-9A-Za-z]+\?token=[0-9A-Za-z]+/.exec((await mailTo(otherEmail, isInvitation)).text)![0];
    await (await byName(owner, 'Back to Members', 'link')).click();
    await owner.waitForSelector('table.invitations-table');
    await (await byName(owner, 'Revoke', 'button')).click();
    await byName(owner, 'Revoke invitation', 'button');
    await checkPage(owner, 'members-11-revoke-invitation');
    await (await byName(owner, 'Revoke invitation', 'button')).click();
    await owner.waitForFunction(() => document.body.textContent?.includes('No invitations are waiting to be accepted.'));

    // its link, opened by anyone signed in, says what happened and what to do
    await invitee.goto(revokedLink);
    await waitForHeading(invitee, 'Invitation');
    await invitee.waitForFunction(() => document.querySelector('main .note')?.textContent?.includes('was withdrawn'));
    expect(await invitee.$('::-p-aria([name="Accept invitation"][role="button"])')).toBeNull();
    await checkPage(invitee, 'members-12-invitation-revoked');
    // a forged token tells nothing
    await invitee.goto(revokedLink.replace(/token=\w+/, 'token=forged'));
    await invitee.waitForSelector('[role="alert"]');
    expect(await invitee.$eval('main', (m) => m.textContent)).toMatch(/its token does not match.*Open the link from the latest invitation email/s);
    // none left for the invitee's address
    await invitee.goto(dashboard('/invitations'));
    await waitForHeading(invitee, 'Your invitations');
    await invitee.waitForFunction(() => document.body.textContent?.includes('No invitations are waiting for you.'));
    await checkPage(invitee, 'members-13-your-invitations');
  });

  it('the audit log shows the invitation, the acceptance and the role change, filtered and paged in the address', async () => {
    // older entries, enough for more than one page
    await t.service.services.prisma.auditEntry.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({ id: newId('aud'), orgId, actorType: 'system', action: 'plan.changed', details: { n: i }, createdAt: new Date(Date.now() - 86_400_000 - i * 1000) })),
    });
    await (await byName(owner, 'Audit log', 'link')).click();
    await waitForHeading(owner, 'Audit log');
    await owner.waitForSelector('table.audit-table');
    const actions = await auditActionsShown(owner);
    // newest first: what happened to the invitee, in order
    const theirs = await owner.$$eval('table.audit-table tbody tr', (rows, email) => rows.filter((r) => r.textContent?.includes(email)).map((r) => r.querySelector('td[data-label="Action"]')?.textContent), inviteeEmail);
    expect(theirs).toEqual(['member.role_changed', 'member.joined', 'member.invited']);
    expect(actions).toContain('member.invitation_revoked');
    const joined = await owner.$$eval('table.audit-table tbody tr', (rows) => rows.find((r) => r.textContent?.includes('member.joined'))?.textContent ?? '');
    expect(joined).toContain(inviteeEmail);
    expect(joined).toContain('role: viewer');
    const changed = await owner.$$eval('table.audit-table tbody tr', (rows) => rows.find((r) => r.textContent?.includes('member.role_changed'))?.textContent ?? '');
    expect(changed).toContain('from: viewer');
    expect(changed).toContain('to: developer');
    await checkPage(owner, 'members-14-audit-log');

    // a page at a time, by cursor
    expect(actions).toHaveLength(25);
    await (await byName(owner, 'Older entries', 'link')).click();
    await owner.waitForFunction(() => new URL(location.href).searchParams.has('after'));
    await owner.waitForFunction(() => [...document.querySelectorAll('table.audit-table td[data-label="Action"]')].every((c) => c.textContent === 'plan.changed'));
    await (await byName(owner, 'Newest entries', 'link')).click();
    await owner.waitForFunction(() => !new URL(location.href).searchParams.has('after'));

    // one action, from the filter form
    await (await byName(owner, 'Action', 'combobox')).select('member.role_changed');
    await (await byName(owner, 'Filter', 'button')).click();
    await owner.waitForFunction(() => new URL(location.href).searchParams.get('action') === 'member.role_changed');
    await owner.waitForFunction(() => {
      const cells = [...document.querySelectorAll('table.audit-table td[data-label="Action"]')];
      return cells.length === 1 && cells[0]!.textContent === 'member.role_changed';
    });
    // one actor, from an entry's link; the address is shareable
    await (await byName(owner, 'Clear filters', 'link')).click();
    await owner.waitForFunction(() => !location.search);
    await owner.waitForSelector('table.audit-table');
    const inviteeId = (await call(t, 'GET', '/v1/org/members', { headers: { cookie: ownerCookie } })).body.data.find((m: { email: string }) => m.email === inviteeEmail).id as string;
    const shared = await newPage(owner.browserContext());
    await shared.goto(dashboard(`/audit-log?actor=${inviteeId}`));
    await waitForHeading(shared, 'Audit log');
    await shared.waitForSelector('table.audit-table');
    expect(await auditActionsShown(shared)).toEqual(['member.joined']);
    expect(await (await byName(shared, 'Actor', 'combobox')).evaluate((s) => (s as HTMLSelectElement).value)).toBe(inviteeId);
    await shared.close();
  });

  it('Members and Audit log are usable at 375 px, each in at most two GraphQL requests', async () => {
    const narrow = await newPage(owner.browserContext(), 375);
    let graphqlRequests = 0;
    narrow.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') graphqlRequests++;
    });
    for (const [route, heading, table, name] of [
      ['/members', 'Members', 'members-table', 'members-15-members-375'],
      ['/audit-log', 'Audit log', 'audit-table', 'members-16-audit-log-375'],
    ] as const) {
      graphqlRequests = 0;
      await narrow.goto(dashboard(route));
      await waitForHeading(narrow, heading);
      await narrow.waitForSelector(`table.${table}`);
      await narrow.waitForNetworkIdle({ idleTime: 200 });
      expect(graphqlRequests, route).toBeLessThanOrEqual(2);
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await checkPage(narrow, name);
    }
    await narrow.close();
  });

  it('the owner hands ownership over, step by step, and becomes admin', async () => {
    await owner.goto(dashboard('/members'));
    await waitForHeading(owner, 'Members');
    await (await byName(owner, 'Transfer ownership', 'link')).click();
    await waitForHeading(owner, 'Transfer ownership');
    const select = await byName(owner, 'New owner', 'combobox');
    // not yet confirmed: refused by the page, with the reason
    await (await byName(owner, 'Transfer ownership', 'button')).click();
    await owner.waitForFunction(() => document.querySelector('.field-error')?.textContent?.includes('Choose the member'));
    const inviteeId = await select.$$eval('option', (options, email) => options.find((o) => o.textContent?.startsWith(email))?.getAttribute('value') ?? '', inviteeEmail);
    await select.select(inviteeId);
    await (await byName(owner, 'I understand that I become an admin', 'checkbox')).click();
    await checkPage(owner, 'members-17-transfer-ownership');
    await (await byName(owner, 'Transfer ownership', 'button')).click();
    await owner.waitForFunction((email) => document.querySelector('.success')?.textContent?.includes(`${email} is now an owner`), {}, inviteeEmail);
    expect((await call(t, 'GET', '/v1/me', { headers: { cookie: ownerCookie } })).body.role).toBe('admin');
    await checkPage(owner, 'members-18-ownership-transferred');
    // as an admin now, ownership is no longer theirs to hand over
    await (await byName(owner, 'Back to Members', 'link')).click();
    await waitForHeading(owner, 'Members');
    const transfer = await byName(owner, 'Transfer ownership', 'button');
    expect(await transfer.evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await owner.waitForFunction((email) => [...document.querySelectorAll('table.members-table tr')].find((r) => r.querySelector('th')?.textContent === email)?.textContent?.includes('Only an owner changes or removes an owner'), {}, inviteeEmail);
  });

  it('the former owner, now admin, leaves from their own row after a confirmation, and loses the organization at once', async () => {
    await owner.goto(dashboard('/members'));
    await waitForHeading(owner, 'Members');
    await owner.waitForSelector('table.members-table');
    await (await byName(owner, 'Leave', 'button')).click();
    await byName(owner, 'Leave organization', 'button');
    expect(await owner.$eval('.confirm', (c) => c.textContent)).toContain('You lose access to it at once');
    await checkPage(owner, 'members-19-leave');
    await (await byName(owner, 'Leave organization', 'button')).click();
    await owner.waitForFunction(() => location.pathname.replace(/\/$/, '') === '/dashboard');
    await owner.waitForNetworkIdle({ idleTime: 300 });
    // the session has no organization now: the page says what brings one back
    expect(await owner.$eval('main', (m) => m.textContent)).toContain('Accept an invitation to an organization, or sign out and sign in again.');
    expectEnvelope(await call(t, 'GET', '/v1/org/members', { headers: { cookie: ownerCookie } }), 403, 'organization_missing');
    const members = (await call(t, 'GET', '/v1/org/members', { headers: { cookie: await sessionCookie(invitee) } })).body.data as { email: string }[];
    expect(members.map((m) => m.email)).not.toContain(ownerEmail);
    await checkPage(owner, 'members-20-after-leaving');
  });

  it('an invitation opened while signed in as someone else offers "Sign in as" its address; signed in so, it is accepted', async () => {
    const lateEmail = `late.${stamp}@members.test`;
    const sent = await call(t, 'POST', '/v1/org/invitations', { headers: { cookie: await sessionCookie(invitee), origin: base, 'x-ids-csrf': '1' }, body: { email: lateEmail, role: 'viewer' } });
    expect(sent.status).toBeLessThan(300);
    const link = /https?:\/\/\S+\/dashboard\/invitations\/inv_[0-9A-Za-z]+\?token=[0-9A-Za-z]+/.exec((await mailTo(lateEmail, isInvitation)).text)![0];
    // the former owner, signed in without an organization, opens it
    await owner.goto(link);
    await waitForHeading(owner, 'Invitation');
    await owner.waitForFunction((email) => document.querySelector('main .note')?.textContent?.includes(`This invitation was sent to ${email}`), {}, lateEmail);
    await checkPage(owner, 'members-21-invitation-for-another-address');
    await (await byName(owner, `Sign in as ${lateEmail}`, 'button')).click();
    await signInWithCode(owner, lateEmail);
    await waitForHeading(owner, 'Invitation');
    expect(owner.url()).toBe(link);
    await (await byName(owner, 'Accept invitation', 'button')).click();
    await waitForHeading(owner, 'Overview');
    // in the organization now, as a viewer
    await owner.waitForFunction((name) => document.querySelector('header select option:checked')?.textContent === `${name} (Viewer)`, {}, orgName);
    const membership = await t.service.services.prisma.membership.findFirst({ where: { orgId, user: { email: lateEmail } } });
    expect(membership?.role).toBe('viewer');
  });
});
