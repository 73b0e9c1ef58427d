// A first bulk load into an empty "Fact" or "Filing" table writes its rows without the table's
// secondary indexes and its foreign key to "Entity", and builds them once at the end: one sort per
// index instead of a B-tree insert per row per index, and one join to check every company instead
// of a trigger's lookup per row (for facts, together about half of COPY's time into the table;
// for filings, two of the indexes are ordered by date across all companies, so each row lands on a
// random page of them). The unique indexes stay, since every writer's INSERT ... ON CONFLICT needs
// them, and so does the load's own update of known filings. Every company's rows are written after
// its "Entity" row, in the same transaction, so the keys hold. A run killed before the rebuild
// leaves them missing; the next bulk run finds that out and builds them before it writes anything.
import type { BulkConnection, BulkSession } from './connection.ts';

export type DeferredTable = 'Fact' | 'Filing';

interface Deferred {
  name: string;
  create: string;
  drop: string;
}

const index = (table: DeferredTable, name: string, columns: string): Deferred => ({
  name,
  create: `CREATE INDEX IF NOT EXISTS "${name}" ON "${table}"(${columns})`,
  drop: `DROP INDEX IF EXISTS "${name}"`,
});

const entityKey = (table: DeferredTable): Deferred => ({
  name: `${table}_cik_fkey`,
  create: `ALTER TABLE "${table}" ADD CONSTRAINT "${table}_cik_fkey" FOREIGN KEY ("cik") REFERENCES "Entity"("cik") ON DELETE RESTRICT ON UPDATE CASCADE`,
  drop: `ALTER TABLE "${table}" DROP CONSTRAINT IF EXISTS "${table}_cik_fkey"`,
});

/** As the migrations create them, by name, so that the schema is the migrated one again. */
const deferred: Record<DeferredTable, Deferred[]> = {
  Fact: [index('Fact', 'Fact_cik_tag_idx', '"cik", "tag"'), index('Fact', 'Fact_cik_hasDimensions_idx', '"cik", "hasDimensions"'), entityKey('Fact')],
  Filing: [
    index('Filing', 'Filing_cik_form_orderedAt_idx', '"cik", "form", "orderedAt"'),
    index('Filing', 'Filing_cik_orderedAt_accessionNumber_idx', '"cik", "orderedAt", "accessionNumber"'),
    index('Filing', 'Filing_cik_filedAt_idx', '"cik", "filedAt"'),
    index('Filing', 'Filing_form_orderedAt_idx', '"form", "orderedAt"'),
    index('Filing', 'Filing_orderedAt_idx', '"orderedAt"'),
    index('Filing', 'Filing_accessionNumber_primaryDocument_idx', '"accessionNumber", "primaryDocument"'),
    entityKey('Filing'),
  ],
};
const all = Object.values(deferred).flat();

/** The names of the indexes and constraints a first load defers, as the migrations name them. */
export const deferredNames: readonly string[] = all.map((d) => d.name);

async function missingDeferredIndexes(session: BulkSession): Promise<string[]> {
  const tables = Object.keys(deferred).map((table) => `'"${table}"'::regclass`);
  const rows = await session.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($1::text[])
     UNION ALL SELECT conname AS name FROM pg_constraint WHERE conrelid IN (${tables.join(', ')}) AND conname = ANY($1::text[])`,
    [deferredNames],
  );
  const present = new Set(rows.map((r) => r.name));
  return deferredNames.filter((name) => !present.has(name));
}

/**
 * Drops the secondary indexes and the foreign key of each table that is empty (checked under the
 * table's lock, so no other writer slips a row in between); returns the tables it did this for.
 * A table that holds rows keeps them.
 */
export async function deferIndexesOfEmptyTables(connection: BulkConnection, tables: DeferredTable[]): Promise<DeferredTable[]> {
  const done: DeferredTable[] = [];
  for (const table of tables) {
    const empty = await connection.transaction(async (session) => {
      await session.query(`LOCK TABLE "${table}" IN SHARE ROW EXCLUSIVE MODE`);
      const [row] = await session.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM "${table}") AS empty`);
      if (row?.empty) for (const d of deferred[table]) await session.query(d.drop);
      return Boolean(row?.empty);
    });
    if (empty) done.push(table);
  }
  return done;
}

/** Builds whichever deferred index (or foreign key) is missing; returns the names built. */
export async function restoreDeferredIndexes(session: BulkSession): Promise<string[]> {
  const missing = await missingDeferredIndexes(session);
  if (!missing.length) return [];
  // a sort of the whole table in memory rather than in many runs on disk (per statement, session-local)
  await session.query(`SET maintenance_work_mem = '256MB'`);
  for (const d of all) if (missing.includes(d.name)) await session.query(d.create);
  await session.query('RESET maintenance_work_mem');
  return missing;
}
