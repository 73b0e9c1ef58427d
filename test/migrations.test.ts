// prisma/migrations must build exactly the schema prisma/schema.prisma describes; a new database
// gets them all in one step, with the same result as replaying them through the engine.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { describe, expect, it } from 'vitest';
import { openAdapter } from '../prisma/adapter.ts';
import { migrationState, openDatabase } from '../prisma/db.ts';
import { PrismaClient } from '../prisma/generated/client/client.ts';
import { applyAllInOneStep, applyPending, createMigration, migrationsDir, readMigrations } from '../prisma/migrate.ts';

describe('migrations', () => {
  it('agree with prisma/schema.prisma (no migration left to create)', async () => {
    const shadow = await openAdapter({ kind: 'pglite', dataDir: 'memory://' });
    try {
      expect(await createMigration(shadow.factory, 'drift_check')).toBeNull();
    } finally {
      await shadow.close();
    }
  });

  it('have no semicolon in a comment (the engine splits statements on it against PostgreSQL, comments or not)', async () => {
    const offending: string[] = [];
    for (const dir of (await readdir(migrationsDir, { withFileTypes: true })).filter((d) => d.isDirectory())) {
      const sql = await readFile(path.join(migrationsDir, dir.name, 'migration.sql'), 'utf8');
      sql.split('\n').forEach((line, i) => {
        if (/--.*;/.test(line)) offending.push(`${dir.name}/migration.sql:${i + 1}`);
      });
    }
    expect(offending).toEqual([]);
  });
});

/** What a database's schema is made of, as text to compare: tables and columns, constraints, indexes, enums, sequences. */
async function schemaDump(db: PGlite): Promise<string[]> {
  const queries = [
    `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(udt_name, '') || ' ' || is_nullable || ' ' || coalesce(column_default, '') || ' ' || coalesce(character_maximum_length::text, '') AS line
       FROM information_schema.columns WHERE table_schema = 'public'`,
    `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line FROM pg_constraint WHERE connamespace = 'public'::regnamespace`,
    `SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public'`,
    `SELECT t.typname || ' ' || e.enumsortorder || ' ' || e.enumlabel AS line FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid`,
    `SELECT sequence_name || ' ' || data_type AS line FROM information_schema.sequences WHERE sequence_schema = 'public'`,
    `SELECT tgrelid::regclass || ' ' || pg_get_triggerdef(oid) AS line FROM pg_trigger WHERE NOT tgisinternal`,
    `SELECT proname || ' ' || pg_get_functiondef(oid) AS line FROM pg_proc WHERE pronamespace = 'public'::regnamespace`,
  ];
  const lines: string[] = [];
  for (const sql of queries) lines.push(...(await db.query<{ line: string }>(sql)).rows.map((row) => row.line));
  return lines.sort();
}

const recorded = async (db: PGlite) =>
  (
    await db.query<{ migration_name: string; checksum: string; applied_steps_count: number; logs: string | null; finished: boolean; rolled_back: boolean }>(
      'SELECT migration_name, checksum, applied_steps_count, logs, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations ORDER BY migration_name',
    )
  ).rows;

describe('a new database set up in one step', () => {
  it('has the schema and the migration records that replaying every migration gives', async () => {
    const replayed = await PGlite.create('memory://');
    const oneStep = await PGlite.create('memory://');
    try {
      expect((await applyPending(new PrismaPGlite(replayed))).length).toBeGreaterThan(0);
      const applied = await applyAllInOneStep({ kind: 'pglite', pglite: oneStep });
      expect(applied).toEqual((await readMigrations()).migrationDirectories.map((dir) => dir.path));
      expect(await schemaDump(oneStep)).toEqual(await schemaDump(replayed));
      expect(await recorded(oneStep)).toEqual(await recorded(replayed));
    } finally {
      await replayed.close();
      await oneStep.close();
    }
  });

  it('needs nothing from the engine on the next start, and takes a migration added later', async () => {
    const target = { kind: 'pglite' as const, dataDir: 'memory://' };
    const adapter = await openAdapter(target);
    const prisma = new PrismaClient({ adapter: adapter.factory });
    try {
      expect(await migrationState(prisma)).toBe('empty');
      await applyAllInOneStep(adapter.raw);
      expect(await migrationState(prisma)).toBe('current');
      expect(await applyPending(adapter.factory)).toEqual([]);

      const list = await readMigrations();
      const later = { path: '29991231000000_later', migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: 'CREATE TABLE "Later" ("id" INTEGER NOT NULL);\n' } } };
      expect(await applyPending(adapter.factory, { ...list, migrationDirectories: [...list.migrationDirectories, later] })).toEqual([later.path]);
      expect(await prisma.$queryRaw`SELECT count(*)::int AS n FROM "Later"`).toEqual([{ n: 0 }]);
    } finally {
      await prisma.$disconnect();
      await adapter.close();
    }
  });

  it('is what a new state folder starts from, and a second start applies nothing', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'ids-migrations-'));
    try {
      const dataDir = path.join(stateDir, 'pglite');
      const first = await openDatabase({ kind: 'pglite', dataDir });
      expect(await migrationState(first.prisma)).toBe('current');
      expect(await first.prisma.plan.count()).toBeGreaterThan(0);
      await first.close();
      const second = await openDatabase({ kind: 'pglite', dataDir });
      expect(second.appliedMigrations).toEqual([]);
      expect(await migrationState(second.prisma)).toBe('current');
      await second.close();
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
