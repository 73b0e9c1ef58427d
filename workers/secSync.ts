// With IDS_SEC_SYNC=on, the instance keeps the database current with EDGAR (ingest/sync.ts): a
// sync at start and then every IDS_SEC_SYNC_INTERVAL_MINUTES. Instances sharing a PostgreSQL
// database take turns (the sync's advisory lock), so the SEC sees one client at its rate limit.
import type { Services } from '../resolvers/context.ts';
import { runSync, syncSummaryLine } from '../ingest/sync.ts';
import { ingestProgress } from '../ingest/progress.ts';

export interface SecSyncWorker {
  /** the sync under way, if any, and the next one (tests) */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startSecSyncWorker(services: Services): SecSyncWorker {
  const { config, prisma, bus, logger } = services;
  let stopped = false;
  let running: Promise<void> | null = null;
  const baseUrls = config.sec.baseUrl ? { data: config.sec.baseUrl, www: config.sec.baseUrl } : undefined;
  const sync = () => {
    running ??= runSync({ prisma, bus, logger }, { userAgent: config.sec.userAgent!, baseUrls, logger }, () => ingestProgress({ logger }))
      .then((summary) => logger.info({ days: summary.days.length, syncedThrough: summary.syncedThrough }, syncSummaryLine(summary)))
      .catch((error: Error) => {
        if (!stopped) logger.warn({ err: error.message }, 'sec sync failed; the next one starts where it stopped');
      })
      .finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void sync(), config.sec.syncIntervalMs);
  timer.unref();
  void sync();
  return {
    runNow: async () => {
      await running;
      await sync();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A day's sync is not waited for: what it committed stays, and the next start resumes the day.
    },
  };
}
