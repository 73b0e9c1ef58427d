// The staging tables a bulk load copies rows into before moving them into the real tables with
// INSERT ... SELECT ... ON CONFLICT DO NOTHING. Temporary (never logged, never seen by another
// session) and emptied at every commit, so each load (one member, or several submissions members) starts from empty ones.
import type { BulkSession } from './connection.ts';

export const factColumns = [
  'factKey', 'cik', 'taxonomy', 'tag', 'unit', 'value', 'periodStart', 'periodEnd', 'isInstant', 'fy', 'fp', 'form', 'frame',
  'accessionNumber', 'filedAt', 'dimensions', 'hasDimensions', 'decimals', 'source',
] as const;

export const filingColumns = [
  'accessionNumber', 'cik', 'form', 'filedAt', 'acceptedAt', 'orderedAt', 'reportDate', 'items', 'primaryDocument', 'primaryDocDescription',
  'size', 'isXbrl', 'isInlineXbrl', 'fileNumber', 'filmNumber',
] as const;

/** `member` and `rank` (in bulk_filing only): which member of a load a row came from, and how many of the load's members before it listed the filing too. */
export const stagedFilingColumns = ['member', 'rank', ...filingColumns] as const;

export const eventColumns = ['id', 'accessionNumber', 'cik', 'item', 'type', 'eventDate', 'filedAt', 'orderedAt', 'fromIndexOnly', 'confidence', 'data', 'sourceKey'] as const;

const ddl = [
  `CREATE TEMP TABLE IF NOT EXISTS bulk_fact (
    "factKey" uuid, "cik" text, "taxonomy" text, "tag" text, "unit" text, "value" text, "periodStart" date, "periodEnd" date,
    "isInstant" boolean, "fy" integer, "fp" text, "form" text, "frame" text, "accessionNumber" text, "filedAt" date,
    "dimensions" jsonb, "hasDimensions" boolean, "decimals" text, "source" text
  ) ON COMMIT DELETE ROWS`,
  `CREATE TEMP TABLE IF NOT EXISTS bulk_filing (
    "member" integer, "rank" integer, "accessionNumber" text, "cik" text, "form" text, "filedAt" date, "acceptedAt" timestamp(3), "orderedAt" timestamp(3), "reportDate" date,
    "items" text[], "primaryDocument" text, "primaryDocDescription" text, "size" integer, "isXbrl" boolean, "isInlineXbrl" boolean,
    "fileNumber" text, "filmNumber" text
  ) ON COMMIT DELETE ROWS`,
  `CREATE TEMP TABLE IF NOT EXISTS bulk_event (
    "id" text, "accessionNumber" text, "cik" text, "item" text, "type" text, "eventDate" date, "filedAt" date, "orderedAt" date,
    "fromIndexOnly" boolean, "confidence" text, "data" jsonb, "sourceKey" text
  ) ON COMMIT DELETE ROWS`,
];

export async function createStagingTables(session: BulkSession): Promise<void> {
  for (const statement of ddl) await session.query(statement);
}

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');
export const factColumnList = quoted(factColumns);
export const filingColumnList = quoted(filingColumns);
export const eventColumnList = quoted(eventColumns);
