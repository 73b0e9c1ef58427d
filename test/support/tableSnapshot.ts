// Reads a database directly, outside the service, for suites that compare what two runs left
// behind (a killed run resumed against an uninterrupted one): a PostgreSQL database by its URL,
// or the embedded database of a state folder once no process holds it.
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** One statement's rows. */
export type Read = <T extends Record<string, unknown>>(sql: string) => Promise<T[]>;

export async function query<T extends Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

export const postgres =
  (url: string): Read =>
  (sql) =>
    query(url, sql);

/** `use` given the embedded database of `stateDir` (where the service keeps it), closed after. */
export async function withEmbedded<R>(stateDir: string, use: (read: Read) => Promise<R>): Promise<R> {
  const pglite = await PGlite.create(path.join(stateDir, 'pglite'));
  try {
    return await use(async <T extends Record<string, unknown>>(sql: string) => (await pglite.query<T>(sql)).rows);
  } finally {
    await pglite.close();
  }
}

/** The row count of every table, the ingest runs themselves and Prisma's migrations aside. */
export async function tableCounts(read: Read): Promise<Record<string, number>> {
  const tables = await read<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('IngestRun', '_prisma_migrations') ORDER BY 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await read<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`))[0]!.n);
  return counts;
}
