// On `npm start` with an empty database (no ingest has ever finished): ingest from IDS_DATA_DIR,
// else from ../shared/data when it exists, else from the SEC for a small watchlist when a
// User-Agent is configured; otherwise start empty and say in one line how to ingest. It runs
// after the server listens; the service answers meanwhile (on PostgreSQL the ingest has a thread
// and connections of its own, ingestThread.ts; on the embedded database it shares the server's,
// and writes in short steps with the requests let through between them, ingest/run.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ingestProgress } from '../ingest/progress.ts';
import { runIngest, summaryLine } from '../ingest/run.ts';
import { sourceFor } from '../ingest/sources/index.ts';
import type { Services } from '../resolvers/context.ts';
import { ingestInThread } from './ingestThread.ts';

export const defaultWatchlist = ['AAPL', 'MSFT', 'NVDA'];

export function autoIngestSource(env: NodeJS.ProcessEnv = process.env): { source: string; tickers?: string[]; userAgent?: string } | null {
  if (env.IDS_AUTO_INGEST === 'off') return null;
  if (env.IDS_DATA_DIR) return { source: path.resolve(env.IDS_DATA_DIR) };
  const shared = path.resolve('../shared/data');
  if (existsSync(path.join(shared, 'MANIFEST.md'))) return { source: shared };
  if (env.IDS_SEC_USER_AGENT) return { source: 'https://www.sec.gov', tickers: defaultWatchlist, userAgent: env.IDS_SEC_USER_AGENT };
  return null;
}

/** an unfinished run younger than this is taken to be another instance's, still going */
const runningRunMs = 30 * 60_000;

export async function autoIngest(services: Services, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { prisma, logger } = services;
  // A finished run means the data is there; a recent unfinished one, that another instance is
  // loading it (one that died longer ago is resumed: unchanged items are skipped).
  const started = new Date(Date.now() - runningRunMs);
  if (await prisma.ingestRun.count({ where: { OR: [{ finishedAt: { not: null } }, { startedAt: { gt: started } }] } })) return;
  const plan = autoIngestSource(env);
  if (!plan) {
    logger.info('no EDGAR data yet: run `npm run ids -- ingest --source <folder>` (or --source https://www.sec.gov --tickers AAPL with IDS_SEC_USER_AGENT set)');
    return;
  }
  logger.info({ source: plan.source, tickers: plan.tickers }, 'empty database: ingesting in the background');
  try {
    // One line redrawn on a terminal; in the log, a line every 5 s, when the output is not one.
    const progress = ingestProgress({ logger, terminal: process.stderr.isTTY ? process.stderr : undefined });
    const database = services.config.database;
    const summary = database.kind === 'postgres' ? await ingestInThread(services, database.url, plan, progress) : await runIngest(services, sourceFor(plan, services), progress);
    logger.info({ summary }, summaryLine(summary));
  } catch (error) {
    logger.error({ err: error }, 'startup ingest stopped');
  }
}
