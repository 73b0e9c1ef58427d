// Who a sign-in lets in, and where they land: the person (made on their first sign-in) and the
// organization their session starts in.
import type { PrismaClient } from '../../prisma/db.ts';
import { newId } from '../../core/ids.ts';
import { addMember, createOrganization } from '../orgs.ts';

/** Addresses are compared as people type them, whatever the case. */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The person behind a verified address, and the organization their session starts in: the one
 * their last session used if they still belong to it, else their oldest membership. A newcomer
 * with no organization and no pending invitation gets a personal one on the starter plan; one who
 * was invited starts outside any, to accept the invitation.
 */
export async function signInPerson(prisma: PrismaClient, rawEmail: string): Promise<{ userId: string; email: string; orgId: string | null }> {
  const email = normalizedEmail(rawEmail);
  const user = await prisma.user.upsert({ where: { email }, create: { id: newId('usr'), email }, update: {} });
  const memberships = await prisma.membership.findMany({ where: { userId: user.id }, orderBy: { createdAt: 'asc' }, select: { orgId: true } });
  if (memberships.length) {
    const last = await prisma.session.findFirst({ where: { userId: user.id, orgId: { not: null } }, orderBy: { createdAt: 'desc' }, select: { orgId: true } });
    const orgId = memberships.some((m) => m.orgId === last?.orgId) ? last!.orgId! : memberships[0]!.orgId;
    return { userId: user.id, email, orgId };
  }
  const invited = await prisma.invitation.count({ where: { email, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } } });
  if (invited) return { userId: user.id, email, orgId: null };
  const org = await prisma.$transaction(async (tx) => {
    const created = await createOrganization(tx, `${email.split('@')[0]}'s organization`);
    await addMember(tx, created.id, email, 'owner');
    return created;
  });
  return { userId: user.id, email, orgId: org.id };
}
