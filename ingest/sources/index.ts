// Picks the source an ingest reads: a folder laid out like ../shared/data, or the SEC over HTTP.
import type { PrismaClient } from '../../prisma/db.ts';
import type { Logger } from '../../core/logger.ts';
import { folderSource } from './folder.ts';
import { secHttpSource } from './secHttp.ts';
import type { Source } from './types.ts';

export interface SourceOptions {
  source: string;
  tickers?: string[];
  ciks?: string[];
  /** the SEC's fair-access rules require a declared User-Agent with a contact email */
  userAgent?: string;
  /** EDGAR form indexes to fetch: daily (YYYY-MM-DD) and quarterly (2024Q1) */
  indexDates?: string[];
  indexQuarters?: string[];
}

const secHosts = new Set(['www.sec.gov', 'data.sec.gov', 'sec.gov']);

export function sourceFor(options: SourceOptions, deps: { prisma: PrismaClient; logger: Logger }): Source {
  if (!/^https?:\/\//.test(options.source)) return folderSource(options.source);
  if (!options.userAgent) throw new Error('the SEC requires a declared User-Agent with a contact email: set IDS_SEC_USER_AGENT or pass --user-agent "Company admin@example.com"');
  if (!options.tickers?.length && !options.ciks?.length && !options.indexDates?.length && !options.indexQuarters?.length) {
    throw new Error('name what to fetch with --tickers AAPL,NVDA, --ciks 320193, --index-dates 2024-01-02 or --index-quarters 2024Q1');
  }
  const url = new URL(options.source);
  const origin = url.origin;
  return secHttpSource({
    userAgent: options.userAgent,
    tickers: options.tickers,
    ciks: options.ciks,
    indexDates: options.indexDates,
    indexQuarters: options.indexQuarters,
    // A server that is not the SEC (a mirror, or a test server) serves both SEC hosts' paths.
    baseUrls: secHosts.has(url.hostname) ? undefined : { data: origin, www: origin },
    isDone: async (key) => (await deps.prisma.ingestItem.findUnique({ where: { sourceKey: key }, select: { status: true } }))?.status === 'ingested',
    logger: deps.logger,
  });
}
