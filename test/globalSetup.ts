// Against a PostgreSQL server, migrate and seed its database once before the suites run in
// parallel. Embedded runs need nothing: every test service gets its own in-memory PGlite.
import { openDatabase } from '../prisma/db.ts';

export default async function setup() {
  const url = process.env.DATABASE_URL;
  const mode = url ? `PostgreSQL (${new URL(url).pathname.slice(1)})` : 'embedded PGlite';
  console.log(`test database: ${mode}; redis: ${process.env.REDIS_URL ? 'shared' : 'in-process'}`);
  if (!url) return;
  const db = await openDatabase({ kind: 'postgres', url });
  await db.close();
}
