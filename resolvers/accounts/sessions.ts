// Signed-in devices. Every session the service issues is a row: the token names it, and the row
// says who, in which organization, and whether it has ended. The row is read on every request
// (by primary key, with the membership), never cached, so that signing out, ending a device's
// session or removing a member takes effect at once on every instance.
import { ApiError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { PrismaClient } from '../../prisma/db.ts';
import type { Principal } from '../principal.ts';
import { isRole } from '../roles.ts';
import { sessionExpiry, signSessionToken, type SessionClaims } from '../sessions.ts';

export type SignInMethod = 'email_code' | 'link' | 'oidc' | 'cli';

export interface SessionStart {
  userId: string;
  email: string;
  orgId: string | null;
  rememberMe: boolean;
  method: SignInMethod;
  userAgent?: string;
  ipAddress?: string;
}

/** How often a session's lastSeenAt is written: a device list needs minutes, not every request. */
const lastSeenEveryMs = 60_000;

/** Starts a session: its row, and the token that names it. */
export async function startSession(services: { prisma: PrismaClient; sessionSecret: string }, start: SessionStart) {
  const expiresAt = sessionExpiry(start.rememberMe);
  const session = await services.prisma.session.create({
    data: {
      id: newId('ses'),
      userId: start.userId,
      orgId: start.orgId,
      rememberMe: start.rememberMe,
      method: start.method,
      userAgent: start.userAgent?.slice(0, 300) ?? null,
      ipAddress: start.ipAddress ?? null,
      expiresAt,
    },
  });
  await services.prisma.user.update({ where: { id: start.userId }, data: { lastSignInAt: session.createdAt } });
  return { session, token: signSessionToken(services.sessionSecret, { id: session.id, userId: start.userId, email: start.email, expiresAt }) };
}

const ended = () => new ApiError('authentication_failed', 'This session has ended; sign in again.');

/** The principal of a verified token of this service: refused if its row has ended or expired. */
export async function sessionPrincipal(prisma: PrismaClient, claims: SessionClaims): Promise<Extract<Principal, { kind: 'session' }>> {
  const session = await prisma.session.findUnique({ where: { id: claims.sessionId! }, include: { user: true } });
  const now = new Date();
  if (!session || session.revokedAt || session.expiresAt <= now || session.userId !== claims.subject) throw ended();
  const membership = session.orgId ? await prisma.membership.findUnique({ where: { userId_orgId: { userId: session.userId, orgId: session.orgId } } }) : null;
  if (now.getTime() - session.lastSeenAt.getTime() > lastSeenEveryMs) {
    // best effort: a lost update only makes "last active" a minute older
    void prisma.session.updateMany({ where: { id: session.id, lastSeenAt: session.lastSeenAt }, data: { lastSeenAt: now } }).catch(() => {});
  }
  return {
    kind: 'session',
    userId: session.userId,
    email: session.user.email,
    // a member who was removed keeps the session, without the organization
    orgId: membership ? session.orgId : null,
    expiresAt: session.expiresAt,
    role: membership && isRole(membership.role) ? membership.role : null,
    operator: session.user.isOperator,
    sessionId: session.id,
    method: session.method,
  };
}

/** A person's live sessions, newest first. */
export function listSessions(prisma: PrismaClient, userId: string) {
  return prisma.session.findMany({ where: { userId, revokedAt: null, expiresAt: { gt: new Date() } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 100 });
}

/** Ends one of the person's sessions; another person's is not found. */
export async function endSession(prisma: PrismaClient, userId: string, sessionId: string) {
  const { count } = await prisma.session.updateMany({ where: { id: sessionId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) {
    const exists = await prisma.session.findFirst({ where: { id: sessionId, userId }, select: { id: true } });
    if (!exists) throw new ApiError('session_not_found', `No session ${sessionId} of yours.`);
  }
  return prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
}

/** Moves a session to another organization of the person's. */
export async function switchOrganization(prisma: PrismaClient, principal: Extract<Principal, { kind: 'session' }>, orgId: string) {
  if (!principal.sessionId) throw new ApiError('human_auth_required', 'Only a session that signed in to this service can switch organization; your identity provider chooses the organization of its tokens.');
  const membership = await prisma.membership.findUnique({ where: { userId_orgId: { userId: principal.userId, orgId } } });
  if (!membership) throw new ApiError('organization_not_found', `You are not a member of ${orgId}.`);
  return prisma.session.update({ where: { id: principal.sessionId }, data: { orgId } });
}
