// Every test service needs a migrated, seeded database, and replaying the migrations through the
// schema engine takes seconds each time. So the schema is applied once here, before the suites
// run, and each test service starts from a copy of it: against a PostgreSQL server a template
// database (`CREATE DATABASE … TEMPLATE`), in embedded runs a PGlite data directory dumped to a
// file that each in-memory PGlite loads.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../prisma/db.ts';
import { PrismaClient } from '../prisma/generated/client/client.ts';
import { applyPending } from '../prisma/migrate.ts';
import { seedReferenceData } from '../prisma/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** embedded runs: a file holding the migrated, seeded PGlite data directory (dumpDataDir) */
    pgliteSnapshot: string;
    /** server runs: the migrated, seeded database that scratch databases are copied from */
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  const mode = url ? `PostgreSQL (${new URL(url).pathname.slice(1)})` : 'embedded PGlite';
  console.log(`test database: ${mode}; redis: ${process.env.REDIS_URL ? 'shared' : 'in-process'}`);
  if (!url) {
    const dir = await mkdtemp(path.join(tmpdir(), 'ids-schema-'));
    const file = path.join(dir, 'pglite.tar');
    const pglite = await PGlite.create('memory://');
    try {
      await applyPending(new PrismaPGlite(pglite));
      const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
      await seedReferenceData(prisma);
      await prisma.$disconnect();
      await writeFile(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await pglite.close();
    }
    project.provide('pgliteSnapshot', file);
    project.provide('templateDatabase', '');
    return () => rm(dir, { recursive: true, force: true });
  }

  // The shared database of the run, migrated and seeded once before the suites use it.
  const db = await openDatabase({ kind: 'postgres', url });
  await db.close();

  const admin = new URL(url);
  admin.pathname = '/postgres';
  const template = `${new URL(url).pathname.slice(1)}_template`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  try {
    // Nothing uses the run's database yet, so it can be the template itself.
    await run(`CREATE DATABASE "${template}" TEMPLATE "${new URL(url).pathname.slice(1)}"`);
  } catch {
    // Something else is connected to it (a server started by hand): migrate a template of its own.
    await run(`CREATE DATABASE "${template}"`);
    const own = new URL(url);
    own.pathname = `/${template}`;
    const templateDb = await openDatabase({ kind: 'postgres', url: own.toString() });
    await templateDb.close();
  }
  project.provide('pgliteSnapshot', '');
  project.provide('templateDatabase', template);
  return () => run(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
}
