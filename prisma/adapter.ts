// The driver adapter behind both the Prisma client and the migration engine:
// PostgreSQL over `pg` when a URL is configured, otherwise embedded PGlite in the state folder.
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

import type { DatabaseTarget } from '../core/config.ts';

export type { DatabaseTarget };

export interface OpenedAdapter {
  factory: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}

export async function openAdapter(target: DatabaseTarget): Promise<OpenedAdapter> {
  if (target.kind === 'postgres') {
    const factory = new PrismaPg({ connectionString: target.url });
    return { factory, close: async () => {} };
  }
  const pglite = await PGlite.create(target.dataDir, target.initialData ? { loadDataDir: target.initialData } : {});
  return { factory: new PrismaPGlite(pglite), close: () => pglite.close() };
}

export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'pglite') return `embedded PGlite (${target.dataDir})`;
  const url = new URL(target.url);
  return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
