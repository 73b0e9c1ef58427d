// The people of an organization and the changes owners and admins make to them. Every change
// holds the organization's row until it commits, so that two changes at once (two owners
// demoting each other) can never leave it without an owner, and writes its audit entry in the
// same transaction. A change applies to the member's next request on every instance: session
// principals read the membership each time, and the audit event drops what caches hold.
import { ApiError } from '../../core/errors.ts';
import { createdPlace, createdPlaceOf, pageCursor } from '../../core/cursor.ts';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import { publishAll } from '../../subscriptions/events.ts';
import { requireDashboard, requireOrg } from '../access.ts';
import type { Context } from '../context.ts';
import { assertCapabilities, isRole, roles, type Role } from '../roles.ts';
import { recordAudit } from './audit.ts';

type Tx = Prisma.TransactionClient;

/** A member as the API shows them: the person, their role, and when they joined and last signed in. */
export interface MemberView {
  id: string;
  email: string;
  role: Role;
  joinedAt: Date;
  lastSignInAt: Date | null;
}

type MembershipWithUser = Prisma.MembershipGetPayload<{ include: { user: true } }>;

export function memberView(m: MembershipWithUser): MemberView {
  return { id: m.userId, email: m.user.email, role: isRole(m.role) ? m.role : 'viewer', joinedAt: m.createdAt, lastSignInAt: m.user.lastSignInAt };
}

/** Holds the organization's row until the transaction ends: member changes of one organization run one at a time. */
export async function lockOrganization(tx: Tx, orgId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "Organization" WHERE "id" = ${orgId} FOR UPDATE`;
}

async function findMember(tx: Tx, orgId: string, userId: string): Promise<MembershipWithUser> {
  const member = await tx.membership.findUnique({ where: { userId_orgId: { userId, orgId } }, include: { user: true } });
  if (!member) throw new ApiError('member_not_found', `No member ${userId} in this organization.`);
  return member;
}

async function assertAnotherOwner(tx: Tx, orgId: string, what: string): Promise<void> {
  if ((await tx.membership.count({ where: { orgId, role: 'owner' } })) <= 1) {
    throw new ApiError('organization_must_keep_owner', `${what}: an organization always keeps an owner. Make another member owner first (or transfer ownership).`, {
      hint: 'POST /v1/org/ownership-transfer hands ownership to another member.',
    });
  }
}

// ---- reads -------------------------------------------------------------------------------

/** In the order they joined: (joined at, user id). */
const membersCursor = pageCursor('members', createdPlace);
const encodeMemberCursor = (m: { createdAt: Date; userId: string }) => membersCursor.encode(createdPlaceOf({ createdAt: m.createdAt, id: m.userId }));

/** A page of an organization's members, in the order they joined. */
export async function listMembers(db: Context['prisma'], orgId: string, page: { first: number; after?: string | null }) {
  const after = page.after ? membersCursor.decode(page.after) : null;
  const rows = await db.membership.findMany({
    where: { orgId, ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, userId: { gt: after.id } }] } : {}) },
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
    take: page.first + 1,
  });
  const shown = rows.slice(0, page.first);
  return {
    edges: shown.map((m) => ({ cursor: encodeMemberCursor(m), node: memberView(m) })),
    pageInfo: { hasNextPage: rows.length > page.first, hasPreviousPage: false, startCursor: shown[0] ? encodeMemberCursor(shown[0]) : null, endCursor: shown.length ? encodeMemberCursor(shown[shown.length - 1]!) : null },
  };
}

/** The caller's organization's members (any member, and the organization's API keys, may read them). */
export function organizationMembers(ctx: Context, page: { first: number; after?: string | null }) {
  return listMembers(ctx.prisma, requireOrg(ctx), page);
}

// ---- changes -----------------------------------------------------------------------------

async function committed<T>(ctx: Context, work: (tx: Tx, events: BusEvent[]) => Promise<T>): Promise<T> {
  const events: BusEvent[] = [];
  const result = await ctx.prisma.$transaction((tx) => work(tx, events));
  await publishAll(ctx.bus, events);
  return result;
}

/**
 * Changes a member's role. Admins manage the roles below owner; making, or demoting, an owner
 * needs an owner (capability `ownership`), and the last owner cannot be demoted.
 */
export async function updateMemberRole(ctx: Context, userId: string, role: string): Promise<MemberView> {
  const { orgId } = requireDashboard(ctx);
  if (!isRole(role)) throw new ApiError('validation_error', `\`role\` is one of ${roles.join(', ')}.`, { details: { issues: [{ path: 'role', message: `one of ${roles.join(', ')}` }] } });
  return committed(ctx, async (tx, events) => {
    await lockOrganization(tx, orgId);
    const member = await findMember(tx, orgId, userId);
    if (member.role === 'owner' || role === 'owner') assertCapabilities(ctx.principal, ['ownership']);
    if (member.role === role) return memberView(member);
    if (member.role === 'owner') await assertAnotherOwner(tx, orgId, 'The last owner cannot be demoted');
    const updated = await tx.membership.update({ where: { userId_orgId: { userId, orgId } }, data: { role }, include: { user: true } });
    events.push(await recordAudit(tx, ctx, orgId, 'member.role_changed', { type: 'user', id: userId }, { email: member.user.email, from: member.role, to: role }));
    return memberView(updated);
  });
}

/**
 * Removes a member; removing yourself is leaving, which any member may do. Removing another
 * member needs `members`, and an owner `ownership`. The last owner can do neither.
 */
export async function removeMember(ctx: Context, userId: string): Promise<MemberView & { removedAt: Date; left: boolean }> {
  const session = requireDashboard(ctx);
  const { orgId } = session;
  const left = userId === session.userId;
  return committed(ctx, async (tx, events) => {
    await lockOrganization(tx, orgId);
    const member = await findMember(tx, orgId, userId);
    if (!left) assertCapabilities(ctx.principal, member.role === 'owner' ? ['members', 'ownership'] : ['members']);
    if (member.role === 'owner') await assertAnotherOwner(tx, orgId, left ? 'The last owner cannot leave' : 'The last owner cannot be removed');
    await tx.membership.delete({ where: { userId_orgId: { userId, orgId } } });
    // Pending invitations they sent stay valid: the organization invited, not the person.
    events.push(await recordAudit(tx, ctx, orgId, 'member.removed', { type: 'user', id: userId }, { email: member.user.email, role: member.role, left }));
    return { ...memberView(member), removedAt: new Date(), left };
  });
}

/** Hands ownership to another member, who becomes owner; the caller becomes admin. */
export async function transferOwnership(ctx: Context, userId: string): Promise<{ from: MemberView; to: MemberView }> {
  const session = requireDashboard(ctx);
  const { orgId } = session;
  if (userId === session.userId) throw new ApiError('validation_error', 'You already own this organization; name the member who should receive ownership.', { details: { issues: [{ path: 'memberId', message: 'another member' }] } });
  return committed(ctx, async (tx, events) => {
    await lockOrganization(tx, orgId);
    const caller = await findMember(tx, orgId, session.userId);
    // the role read now, under the lock: the principal's may be a request old
    if (caller.role !== 'owner') assertCapabilities({ ...session, role: isRole(caller.role) ? caller.role : null }, ['ownership']);
    const target = await findMember(tx, orgId, userId);
    const to = await tx.membership.update({ where: { userId_orgId: { userId, orgId } }, data: { role: 'owner' }, include: { user: true } });
    const from = await tx.membership.update({ where: { userId_orgId: { userId: session.userId, orgId } }, data: { role: 'admin' }, include: { user: true } });
    events.push(
      await recordAudit(tx, ctx, orgId, 'ownership.transferred', { type: 'user', id: userId }, { email: target.user.email, previousRole: target.role, fromUserId: session.userId, fromEmail: caller.user.email }),
    );
    return { from: memberView(from), to: memberView(to) };
  });
}
