// Invitations: an owner or admin names an address and a role, and the service emails a link that
// makes whoever opens it (signed in) a member. The link's secret is kept only as its SHA-256; an
// invitation lasts 7 days and is used once. Inviting the same address again replaces the pending
// invitation, so that only the newest link works.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../core/errors.ts';
import { newId, randomBase62, sha256Hex } from '../../core/ids.ts';
import type { Invitation } from '../../prisma/generated/client/client.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import { escapeHtml } from '../../subscriptions/email/digest.ts';
import { publishAll } from '../../subscriptions/events.ts';
import { assertAccess, requireDashboard, requireOrg } from '../access.ts';
import type { Context } from '../context.ts';
import type { Principal } from '../principal.ts';
import { assertCapabilities, isRole, roleDescriptions, roles, type Role } from '../roles.ts';
import { recordAudit } from './audit.ts';
import { assertEmail } from './emailCodes.ts';
import { lockOrganization } from './members.ts';
import { normalizedEmail } from './people.ts';

export const invitationTtlMs = 7 * 86_400_000;

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export function invitationStatus(invitation: Pick<Invitation, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now = new Date()): InvitationStatus {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  return invitation.expiresAt <= now ? 'expired' : 'pending';
}

/** Prisma's filter of invitations that can still be accepted. */
export const pendingInvitations = () => ({ acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } });

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** The signed-in person: invitations are accepted and listed by people, never by API keys. */
function signedInPerson(ctx: Context): SessionPrincipal {
  assertAccess(ctx.principal, 'authenticated');
  if (ctx.principal!.kind !== 'session') throw new ApiError('browser_session_required', 'Invitations are accepted by a signed-in person; an API key cannot join an organization.');
  return ctx.principal!;
}

function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
}

/** The invitation email: who invited whom, to what, with which role, and the link (the only place its secret appears). */
export function renderInvitationEmail(input: { orgName: string; inviterEmail: string; role: Role; url: string; expiresAt: Date }) {
  const org = oneLine(input.orgName).slice(0, 100);
  const until = input.expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  const roleLine = `${input.role}: ${roleDescriptions[input.role]}`;
  return {
    subject: `${input.inviterEmail} invited you to ${org} on the Investor Data Service`,
    text:
      `${input.inviterEmail} invited you to join the organization ${org} on the Investor Data Service as ${roleLine}\n\n` +
      `Accept the invitation (sign in first, with this address or any other):\n${input.url}\n\n` +
      `The link works once, until ${until} UTC. If you did not expect it, ignore this email: nothing happens without the link.\n`,
    html:
      `<p>${escapeHtml(input.inviterEmail)} invited you to join the organization <strong>${escapeHtml(org)}</strong> on the Investor Data Service as <strong>${escapeHtml(input.role)}</strong> (${escapeHtml(roleDescriptions[input.role])}).</p>` +
      `<p><a href="${escapeHtml(input.url)}">Accept the invitation</a></p>` +
      `<p>The link works once, until ${until} UTC. If you did not expect it, ignore this email: nothing happens without the link.</p>`,
  };
}

/**
 * Invites an address with a role: checks everything, sends the email, and only once the mail
 * server has taken it writes the invitation (replacing a pending one for the same address) and
 * its audit entry. Without email delivery, or when the email cannot be sent, nothing is written.
 */
export async function inviteMember(ctx: Context, rawEmail: string, rawRole: string) {
  const session = requireDashboard(ctx);
  const { orgId } = session;
  const email = assertEmail(rawEmail);
  if (!isRole(rawRole)) throw new ApiError('validation_error', `\`role\` is one of ${roles.join(', ')}.`, { details: { issues: [{ path: 'role', message: `one of ${roles.join(', ')}` }] } });
  const role: Role = rawRole;
  if (role === 'owner') assertCapabilities(ctx.principal, ['ownership']);
  const mailer = ctx.email.mailer;
  if (!mailer) throw new ApiError('email_delivery_unavailable', 'Invitations are sent by email, and this service has no email delivery configured (IDS_SMTP_URL); nothing was saved.');
  const [org, member] = await Promise.all([
    ctx.prisma.organization.findUniqueOrThrow({ where: { id: orgId }, select: { name: true } }),
    ctx.prisma.membership.findFirst({ where: { orgId, user: { email } }, select: { userId: true } }),
  ]);
  if (member) throw new ApiError('already_a_member', `${email} is already a member of this organization; change their role instead.`, { details: { memberId: member.userId } });

  const id = newId('inv');
  const token = randomBase62(40);
  const expiresAt = new Date(Date.now() + invitationTtlMs);
  const url = `${ctx.config.publicUrl}/dashboard/invitations/${id}?token=${token}`;
  const rendered = renderInvitationEmail({ orgName: org.name, inviterEmail: session.email, role, url, expiresAt });
  try {
    await mailer.send({ to: email, ...rendered, headers: { 'Auto-Submitted': 'auto-generated' }, messageId: `<${id}@${new URL(ctx.config.publicUrl).hostname}>` });
  } catch (error) {
    ctx.logger.warn({ err: error, requestId: ctx.requestId, invitationId: id }, 'invitation email failed');
    throw new ApiError('email_delivery_unavailable', 'The invitation email could not be sent just now; nothing was saved. Try again shortly.', { retryAfter: 30, retryable: true });
  }

  const events: BusEvent[] = [];
  const invitation = await ctx.prisma.$transaction(async (tx) => {
    // one invitation change of the organization at a time: two invitations of one address at once leave one pending
    await lockOrganization(tx, orgId);
    const replaced = await tx.invitation.updateMany({ where: { orgId, email, ...pendingInvitations() }, data: { revokedAt: new Date() } });
    const created = await tx.invitation.create({ data: { id, orgId, email, role, invitedById: session.userId, tokenHash: sha256Hex(token), expiresAt } });
    events.push(await recordAudit(tx, ctx, orgId, 'member.invited', { type: 'invitation', id }, { email, role, replacedPending: replaced.count }));
    return created;
  });
  await publishAll(ctx.bus, events);
  return invitation;
}

/** Withdraws an invitation of the caller's organization; withdrawing one again changes nothing. */
export async function revokeInvitation(ctx: Context, id: string) {
  const { orgId } = requireDashboard(ctx);
  const events: BusEvent[] = [];
  const invitation = await ctx.prisma.$transaction(async (tx) => {
    await lockOrganization(tx, orgId);
    const found = await tx.invitation.findFirst({ where: { id, orgId } });
    if (!found) throw new ApiError('invitation_not_found', `No invitation ${id} in this organization.`);
    if (found.acceptedAt) throw new ApiError('invitation_not_pending', `The invitation ${id} was accepted; remove the member instead.`, { details: { status: 'accepted' } });
    if (found.revokedAt) return found;
    const revoked = await tx.invitation.update({ where: { id }, data: { revokedAt: new Date() } });
    events.push(await recordAudit(tx, ctx, orgId, 'member.invitation_revoked', { type: 'invitation', id }, { email: found.email, role: found.role }));
    return revoked;
  });
  await publishAll(ctx.bus, events);
  return invitation;
}

/** The organization's pending invitations, newest first (filter of a connection). */
export function organizationInvitationsWhere(ctx: Context) {
  return { orgId: requireOrg(ctx), ...pendingInvitations() };
}

/** The pending invitations addressed to the signed-in person. */
export function myInvitationsWhere(ctx: Context) {
  return { email: normalizedEmail(signedInPerson(ctx).email), ...pendingInvitations() };
}

function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Accepts an invitation for the signed-in person, in any organization or none: with the link's
 * token, or without it when the session's address is the one invited. The person becomes a member
 * with the invited role, and the session that accepted moves to that organization.
 */
export async function acceptInvitation(ctx: Context, id: string, token?: string | null) {
  const person = signedInPerson(ctx);
  const invitation = await ctx.prisma.invitation.findUnique({ where: { id } });
  if (!invitation) throw new ApiError('invitation_not_found', `No invitation ${id}.`);
  // The proof comes before the state: without it, nothing about the invitation is told.
  if (token != null ? !sameDigest(sha256Hex(token), invitation.tokenHash) : normalizedEmail(person.email) !== invitation.email) {
    throw new ApiError('invitation_invalid', token != null ? 'The invitation link is not valid: its token does not match. Open the link from the latest invitation email.' : 'This invitation was sent to another address; open the link from the invitation email (its token accepts it with any account).');
  }
  const status = invitationStatus(invitation);
  const notPending = (now: InvitationStatus) =>
    new ApiError('invitation_not_pending', `This invitation was ${now === 'expired' ? 'not accepted in time (7 days)' : now}; ask for a new one.`, { details: { status: now } });
  if (status !== 'pending') throw notPending(status);
  const role: Role = isRole(invitation.role) ? invitation.role : 'viewer';

  const events: BusEvent[] = [];
  const accepted = await ctx.prisma.$transaction(async (tx) => {
    await lockOrganization(tx, invitation.orgId);
    // single use: of two acceptances at once, one finds it pending
    const used = await tx.invitation.updateMany({ where: { id, ...pendingInvitations() }, data: { acceptedAt: new Date(), acceptedById: person.userId } });
    if (used.count === 0) throw notPending(invitationStatus(await tx.invitation.findUniqueOrThrow({ where: { id } })));
    if (await tx.membership.findUnique({ where: { userId_orgId: { userId: person.userId, orgId: invitation.orgId } }, select: { userId: true } })) {
      throw new ApiError('already_a_member', 'You are already a member of this organization.', { details: { organizationId: invitation.orgId } });
    }
    await tx.membership.create({ data: { userId: person.userId, orgId: invitation.orgId, role } });
    if (person.sessionId) await tx.session.update({ where: { id: person.sessionId }, data: { orgId: invitation.orgId } });
    events.push(
      await recordAudit(tx, ctx, invitation.orgId, 'member.joined', { type: 'user', id: person.userId }, { email: person.email, role, invitationId: id, invitedById: invitation.invitedById, viaToken: token != null }, { type: 'user', id: person.userId, email: person.email }),
    );
    return tx.invitation.findUniqueOrThrow({ where: { id } });
  });
  await publishAll(ctx.bus, events);
  return { invitation: accepted, orgId: invitation.orgId, role, userId: person.userId, sessionMoved: person.sessionId !== null };
}

/**
 * The invitation a link opens, in whatever state it is, for the signed-in person to see what they
 * are invited to before accepting, or why they no longer can. The same proof as accepting: the
 * link's token, or without it the session's address being the one invited; without the proof
 * nothing about the invitation is told.
 */
export async function invitationForPerson(ctx: Context, id: string, token?: string | null) {
  const person = signedInPerson(ctx);
  const invitation = await ctx.prisma.invitation.findUnique({ where: { id } });
  if (!invitation) throw new ApiError('invitation_not_found', `No invitation ${id}.`);
  if (token != null ? !sameDigest(sha256Hex(token), invitation.tokenHash) : normalizedEmail(person.email) !== invitation.email) {
    throw new ApiError('invitation_invalid', token != null ? 'The invitation link is not valid: its token does not match. Open the link from the latest invitation email.' : 'This invitation was sent to another address; open the link from the invitation email (its token accepts it with any account).');
  }
  return invitation;
}
