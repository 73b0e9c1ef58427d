// Sign-in leaves rows that stop mattering: codes, links and OpenID authorizations once used or
// expired, and sessions a while after they ended (kept a month so "signed out from…" can be seen).
import type { Logger } from '../../core/logger.ts';
import { repeatEvery } from '../../core/periodic.ts';
import type { PrismaClient } from '../../prisma/db.ts';

const sweepEveryMs = 3600_000;
/** Ended or expired sessions are kept this long. */
const endedSessionsKeptMs = 30 * 86_400_000;

export async function purgeAuthRecords(prisma: PrismaClient, now = new Date()): Promise<{ challenges: number; sessions: number }> {
  const challenges = await prisma.authChallenge.deleteMany({ where: { OR: [{ expiresAt: { lt: now } }, { consumedAt: { not: null, lt: new Date(now.getTime() - 3600_000) } }] } });
  const before = new Date(now.getTime() - endedSessionsKeptMs);
  const sessions = await prisma.session.deleteMany({ where: { OR: [{ expiresAt: { lt: before } }, { revokedAt: { lt: before } }] } });
  return { challenges: challenges.count, sessions: sessions.count };
}

/** An hourly purge, started with the service. */
export function startAuthSweep(prisma: PrismaClient, logger: Logger, everyMs = sweepEveryMs) {
  return repeatEvery(everyMs, () => purgeAuthRecords(prisma), logger, 'sign-in records could not be purged');
}
