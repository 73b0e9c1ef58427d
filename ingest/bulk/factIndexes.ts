// A first bulk load into an empty "Fact" table writes its rows without the table's secondary
// indexes and its foreign key to "Entity", and builds them once at the end: one sort per index
// instead of a B-tree insert per row per index, and one join to check every company instead of a
// trigger's lookup per row (together about half of COPY's time into the table). The unique factKey
// index stays, since every other writer's INSERT ... ON CONFLICT ("factKey") needs it. Every
// company's facts are written after its "Entity" row, in the same transaction, so the key holds.
// A run killed before the rebuild leaves them missing; the next bulk run finds that out and builds
// them before it writes anything.
import type { BulkConnection, BulkSession } from './connection.ts';

/** As the migrations create them, by name, so that the schema is the migrated one again. */
const deferred = [
  { name: 'Fact_cik_tag_idx', create: 'CREATE INDEX IF NOT EXISTS "Fact_cik_tag_idx" ON "Fact"("cik", "tag")', drop: 'DROP INDEX IF EXISTS "Fact_cik_tag_idx"' },
  { name: 'Fact_cik_hasDimensions_idx', create: 'CREATE INDEX IF NOT EXISTS "Fact_cik_hasDimensions_idx" ON "Fact"("cik", "hasDimensions")', drop: 'DROP INDEX IF EXISTS "Fact_cik_hasDimensions_idx"' },
  {
    name: 'Fact_cik_fkey',
    create: 'ALTER TABLE "Fact" ADD CONSTRAINT "Fact_cik_fkey" FOREIGN KEY ("cik") REFERENCES "Entity"("cik") ON DELETE RESTRICT ON UPDATE CASCADE',
    drop: 'ALTER TABLE "Fact" DROP CONSTRAINT IF EXISTS "Fact_cik_fkey"',
  },
] as const;

export async function missingFactIndexes(session: BulkSession): Promise<string[]> {
  const rows = await session.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Fact' AND indexname = ANY($1::text[])
     UNION ALL SELECT conname AS name FROM pg_constraint WHERE conrelid = '"Fact"'::regclass AND conname = ANY($1::text[])`,
    [deferred.map((i) => i.name)],
  );
  const present = new Set(rows.map((r) => r.name));
  return deferred.filter((i) => !present.has(i.name)).map((i) => i.name);
}

/**
 * Drops the secondary indexes and the foreign key when "Fact" is empty (checked under the table's
 * lock, so no other writer slips a row in between); returns whether it did. A table that holds
 * facts keeps them.
 */
export async function deferFactIndexesIfEmpty(connection: BulkConnection): Promise<boolean> {
  return connection.transaction(async (session) => {
    await session.query('LOCK TABLE "Fact" IN SHARE ROW EXCLUSIVE MODE');
    const [row] = await session.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM "Fact") AS empty`);
    if (row?.empty) for (const index of deferred) await session.query(index.drop);
    return Boolean(row?.empty);
  });
}

/** Builds whichever secondary index (or the foreign key) is missing; returns the names built. */
export async function restoreFactIndexes(session: BulkSession): Promise<string[]> {
  const missing = await missingFactIndexes(session);
  if (!missing.length) return [];
  // a sort of the whole table in memory rather than in many runs on disk (per statement, session-local)
  await session.query(`SET maintenance_work_mem = '256MB'`);
  for (const index of deferred) if (missing.includes(index.name)) await session.query(index.create);
  await session.query('RESET maintenance_work_mem');
  return missing;
}
