// prisma/migrations must build exactly the schema prisma/schema.prisma describes.
import { describe, expect, it } from 'vitest';
import { openAdapter } from '../prisma/adapter.ts';
import { createMigration } from '../prisma/migrate.ts';

describe('migrations', () => {
  it('agree with prisma/schema.prisma (no migration left to create)', async () => {
    const shadow = await openAdapter({ kind: 'pglite', dataDir: 'memory://' });
    try {
      expect(await createMigration(shadow.factory, 'drift_check')).toBeNull();
    } finally {
      await shadow.close();
    }
  });
});
