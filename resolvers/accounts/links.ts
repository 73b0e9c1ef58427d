// One-time sign-in links, for a service without email: the first start prints one for the demo
// organization's owner, and `ids sign-in-link` prints a fresh one. Single use, 15 minutes; only
// the token's SHA-256 is kept.
import { ApiError } from '../../core/errors.ts';
import { newId, randomBase62, sha256Hex } from '../../core/ids.ts';
import type { PrismaClient } from '../../prisma/db.ts';
import { normalizedEmail } from './people.ts';

export const linkTtlMs = 15 * 60_000;

/** The dashboard's sign-in page, with a token that signs the person in once. */
export async function createSignInLink(prisma: PrismaClient, publicUrl: string, email: string): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBase62(40);
  const expiresAt = new Date(Date.now() + linkTtlMs);
  await prisma.authChallenge.create({ data: { id: newId('ach'), kind: 'link', email: normalizedEmail(email), secretHash: sha256Hex(token), expiresAt } });
  return { url: `${publicUrl}/dashboard/sign-in?token=${token}`, expiresAt };
}

/** Uses a link's token once; answers the address it was made for. */
export async function useSignInLink(prisma: PrismaClient, token: string): Promise<string> {
  const challenge = await prisma.authChallenge.findFirst({ where: { kind: 'link', secretHash: sha256Hex(token) } });
  const refused = new ApiError('authentication_failed', 'This sign-in link is not valid: it was used, has expired, or was mistyped. Ask for a new one (`npm run ids -- sign-in-link --email <email>`).');
  if (!challenge?.email || challenge.consumedAt || challenge.expiresAt <= new Date()) throw refused;
  const used = await prisma.authChallenge.updateMany({ where: { id: challenge.id, consumedAt: null }, data: { consumedAt: new Date() } });
  if (used.count === 0) throw refused;
  return challenge.email;
}
