// Event retention: events older than `eventRetentionDays` are deleted, in bounded batches so that
// no statement holds many locks or runs long. Webhook deliveries and request records refer to
// events by id only and are kept (the delivery audit history outlives the events). Every instance
// runs it (with its webhook worker); concurrent purges skip each other's rows, so it is idempotent.
import type { PrismaClient } from '../prisma/db.ts';
import type { Logger } from '../core/logger.ts';
import { eventRetentionDays } from './eventLog.ts';

/** Rows deleted per statement. */
export const purgeBatch = 5000;
/** How often an instance purges. */
export const purgeEveryMs = 3600_000;

/** Deletes every event created before `eventRetentionDays` ago; answers how many. */
export async function purgeExpiredEvents(prisma: PrismaClient, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - eventRetentionDays * 86_400_000);
  let purged = 0;
  for (;;) {
    const deleted = await prisma.$executeRaw`
      DELETE FROM "Event" WHERE "seq" IN (
        SELECT "seq" FROM "Event" WHERE "createdAt" < ${cutoff} ORDER BY "createdAt" LIMIT ${purgeBatch} FOR UPDATE SKIP LOCKED)`;
    purged += deleted;
    if (deleted < purgeBatch) return purged;
  }
}

/** Purges now and then every `everyMs`; `stop` waits for a purge under way. */
export function startEventPurge(prisma: PrismaClient, logger: Logger, everyMs = purgeEveryMs) {
  let running: Promise<void> = Promise.resolve();
  const purge = () => {
    running = running.then(async () => {
      try {
        const purged = await purgeExpiredEvents(prisma);
        if (purged) logger.info({ purged, retentionDays: eventRetentionDays }, 'expired events purged');
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'event purge failed; retrying on the next run');
      }
    });
  };
  const timer = setInterval(purge, everyMs);
  timer.unref();
  purge();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
