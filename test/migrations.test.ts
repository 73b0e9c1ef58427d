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
import { digest } from '../core/rows.ts';
import { factKey } from '../ingest/load/facts.ts';
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';

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

describe('a database whose facts were keyed before keys led with the CIK', () => {
  it('has each fact re-keyed to the key the ingest computes now, so that the same fact reaching it again is not stored twice', async () => {
    const db = await PGlite.create('memory://');
    try {
      await applyPending(new PrismaPGlite(db));
      const facts: FactRecord[] = [
        { cik: '0000320193', taxonomy: 'us-gaap', tag: 'Revenues', unit: 'USD', value: '391035000000', periodStart: '2023-10-01', periodEnd: '2024-09-28', isInstant: false, fy: 2024, fp: 'FY', form: '10-K', frame: 'CY2024', accessionNumber: '0000320193-24-000123', filedAt: '2024-11-01', dimensions: {}, decimals: '-6' },
        { cik: '0001997711', taxonomy: 'us-gaap', tag: 'Assets', unit: 'USD', value: '12.5', periodStart: null, periodEnd: '2024-12-31', isInstant: true, fy: 2024, fp: 'FY', form: '10-K', frame: null, accessionNumber: '0001997711-25-000004', filedAt: '2025-03-01', dimensions: { 'us-gaap:StatementBusinessSegmentsAxis': 'x:OneMember' }, decimals: null },
      ];
      // the key as it was: the digest's 32 hex digits
      const digestOnly = (f: FactRecord) =>
        digest(f.cik, f.taxonomy, f.tag, f.unit, f.periodStart, f.periodEnd, f.accessionNumber, Object.entries(f.dimensions).map(([axis, member]) => `${axis}=${member}`).join(';'));
      for (const f of facts) {
        await db.query(`INSERT INTO "Entity" ("cik", "name", "updatedAt") VALUES ($1, 'A company', now()) ON CONFLICT DO NOTHING`, [f.cik]);
        await db.query(
          `INSERT INTO "Fact" ("factKey", "cik", "taxonomy", "tag", "unit", "value", "periodStart", "periodEnd", "isInstant", "accessionNumber", "dimensions", "source")
           VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'companyfacts')`,
          [digestOnly(f), f.cik, f.taxonomy, f.tag, f.unit, f.value, f.periodStart, f.periodEnd, f.isInstant, f.accessionNumber, JSON.stringify(f.dimensions)],
        );
      }
      await db.exec(await readFile(path.join(migrationsDir, '20261127233000_fact_key_by_company', 'migration.sql'), 'utf8'));
      const keys = (await db.query<{ key: string }>(`SELECT replace("factKey"::text, '-', '') AS key FROM "Fact" ORDER BY "cik"`)).rows.map((r) => r.key);
      expect(keys).toEqual(facts.map(factKey));
      expect(keys.map((k) => k.slice(0, 10))).toEqual(['0000320193', '0001997711']);
    } finally {
      await db.close();
    }
  });
});
