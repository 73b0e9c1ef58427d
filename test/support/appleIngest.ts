// Some of Apple's files of the corpus as an ingest source (a folder of symlinks), and what an
// ingest of them leaves, for the suites that kill an ingest and compare its resumption against
// an uninterrupted run.
import { mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { corpusDir } from '../corpus.ts';
import { tableCounts, type Read } from './tableSnapshot.ts';

/** In the order the ingest loads them: its filings index, its facts (the longest item), its FY2024 10-K and two forms. */
export const appleFiles = [
  'submissions/CIK0000320193.json',
  'companyfacts/CIK0000320193.json',
  'filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html',
  'forms/form144/144_issuer-CIK0000320193_AAPL_Luca-Maestri.xml',
  'forms/ownership/4_0000320193-22-000061_AAPL_Katherine-Adams.txt',
];

/** A new folder holding `appleFiles` where the corpus has them; the caller removes it. */
export async function appleSource(): Promise<string> {
  const source = await mkdtemp(path.join(tmpdir(), 'ids-apple-'));
  for (const file of appleFiles) {
    await mkdir(path.dirname(path.join(source, file)), { recursive: true });
    await symlink(path.join(corpusDir, file), path.join(source, file));
  }
  return source;
}

/** What an ingest leaves: every table's row count (the runs themselves aside), each item's outcome, digests of the filings and facts, Apple's FY2024 revenue, and the public events announced (by type). */
export async function ingestSnapshot(read: Read) {
  const counts = await tableCounts(read);
  const items = await read(`SELECT "sourceKey", "kind", "status", "sha256", "records", "reason" FROM "IngestItem" ORDER BY "sourceKey"`);
  const [digests] = await read<{ facts: string; filings: string }>(
    `SELECT (SELECT md5(string_agg("factKey" || '=' || "value" || '@' || "accessionNumber", ',' ORDER BY "factKey")) FROM "Fact") AS facts,
            (SELECT md5(string_agg("accessionNumber" || ' ' || "form" || ' ' || coalesce("filedAt"::text, '') || ' ' || coalesce("documentSourceKey", ''), ',' ORDER BY "accessionNumber")) FROM "Filing") AS filings`,
  );
  const revenue = await read<{ value: string }>(
    `SELECT DISTINCT "value" FROM "Fact" WHERE "cik" = '0000320193' AND "tag" = 'RevenueFromContractWithCustomerExcludingAssessedTax' AND "accessionNumber" = '0000320193-24-000123' AND "periodStart" = '2023-10-01' AND "periodEnd" = '2024-09-28' AND NOT "hasDimensions"`,
  );
  const events = await read<{ type: string; n: string }>(`SELECT "type", count(*)::text AS n FROM "Event" WHERE "orgId" IS NULL GROUP BY "type" ORDER BY "type"`);
  return { counts, items, digests, revenue: revenue.map((r) => r.value), publicEvents: events };
}
