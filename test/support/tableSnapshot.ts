// Reads a PostgreSQL database directly, outside the service, for suites that compare what two
// runs left behind (a killed run resumed against an uninterrupted one).
import pg from 'pg';

export async function query<T extends Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The row count of every table, the ingest runs themselves and Prisma's migrations aside. */
export async function tableCounts(url: string): Promise<Record<string, number>> {
  const tables = await query<{ name: string }>(url, `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('IngestRun', '_prisma_migrations') ORDER BY 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await query<{ n: string }>(url, `SELECT count(*) AS n FROM "${name}"`))[0]!.n);
  return counts;
}
