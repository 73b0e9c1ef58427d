// Opens the database the configuration names, brings its schema up to date and seeds the
// reference data, so that a fresh machine needs no separate migration step.
import { mkdir } from 'node:fs/promises';
import { PrismaClient, type Prisma } from './generated/client/client.ts';
import { openAdapter, type DatabaseTarget } from './adapter.ts';
import { applyPending, readMigrations } from './migrate.ts';
import { seedReferenceData } from './seed.ts';

export type { PrismaClient };
/** the client or a transaction of it: what functions that only read and write rows take */
export type Db = PrismaClient | Prisma.TransactionClient;

export interface Database {
  prisma: PrismaClient;
  appliedMigrations: string[];
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget, options: { migrate?: boolean; /** called with every SQL statement the client sends */ onQuery?: (sql: string) => void } = {}): Promise<Database> {
  if (target.kind === 'pglite' && !target.dataDir.startsWith('memory://')) await mkdir(target.dataDir, { recursive: true });
  const adapter = await openAdapter(target);
  const prisma = options.onQuery
    ? new PrismaClient({ adapter: adapter.factory, log: [{ emit: 'event', level: 'query' }] })
    : new PrismaClient({ adapter: adapter.factory });
  if (options.onQuery) {
    const onQuery = options.onQuery;
    (prisma as unknown as { $on(event: 'query', listener: (e: { query: string }) => void): void }).$on('query', (e) => onQuery(e.query));
  }
  let appliedMigrations: string[] = [];
  if (options.migrate !== false) {
    // The engine takes a database-wide lock even when nothing is pending; instances starting
    // together against a migrated database should not queue on it, so look first.
    if (await hasPendingMigrations(prisma)) appliedMigrations = await applyPending(adapter.factory);
    await seedReferenceData(prisma);
  }
  return {
    prisma,
    appliedMigrations,
    async close() {
      await prisma.$disconnect();
      await adapter.close();
    },
  };
}

// The build's migrations do not change while it runs: read their folder (every migration's SQL
// with it) once, not on each readiness probe.
let migrationNames: Promise<{ path: string }[]> | undefined;

/** True when a migration of this build is not applied, or the migration table is missing (also read by /readyz). */
export async function hasPendingMigrations(prisma: PrismaClient): Promise<boolean> {
  const migrationDirectories = await (migrationNames ??= readMigrations().then((list) => list.migrationDirectories.map((dir) => ({ path: dir.path }))));
  let applied: { migration_name: string }[];
  try {
    applied = await prisma.$queryRaw`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  } catch {
    return true; // no migration table yet
  }
  const done = new Set(applied.map((row) => row.migration_name));
  return migrationDirectories.some((dir) => !done.has(dir.path));
}
