// prisma/migrations must build exactly the schema prisma/schema.prisma describes.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAdapter } from '../prisma/adapter.ts';
import { createMigration, migrationsDir } from '../prisma/migrate.ts';

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
