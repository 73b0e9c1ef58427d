// Opens the database the configuration names, brings its schema up to date and seeds the
// reference data, so that a fresh machine needs no separate migration step.
import { mkdir } from 'node:fs/promises';
import { PrismaClient, type Prisma } from './generated/client/client.ts';
import { openAdapter, type DatabaseTarget, type RawConnection, type StatementListener } from './adapter.ts';
import { registerConnectedAdapter } from './directRead.ts';
import { applyAllInOneStep, applyPending, migrationChecksum, readMigrations } from './migrate.ts';
import { seedReferenceData } from './seed.ts';

export type { PrismaClient };
/** the client or a transaction of it: what functions that only read and write rows take */
export type Db = PrismaClient | Prisma.TransactionClient;

const rawConnections = new WeakMap<PrismaClient, RawConnection>();

/** The connection beneath a client openDatabase made: a PostgreSQL URL or the embedded PGlite. */
export function rawConnectionOf(prisma: PrismaClient): RawConnection {
  const raw = rawConnections.get(prisma);
  if (!raw) throw new Error('this Prisma client was not opened by openDatabase');
  return raw;
}

export interface Database {
  prisma: PrismaClient;
  appliedMigrations: string[];
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget, options: { migrate?: boolean; /** called with every SQL statement the client sends */ onQuery?: (sql: string) => void; /** told every statement the driver adapter sends (prisma/adapter.ts): nothing is wrapped without it */ onStatement?: StatementListener } = {}): Promise<Database> {
  if (target.kind === 'pglite' && !target.dataDir.startsWith('memory://')) await mkdir(target.dataDir, { recursive: true });
  const adapter = await openAdapter(target, options.onStatement);
  const prisma = options.onQuery
    ? new PrismaClient({ adapter: adapter.factory, log: [{ emit: 'event', level: 'query' }] })
    : new PrismaClient({ adapter: adapter.factory });
  rawConnections.set(prisma, adapter.raw);
  // directRead sends through the adapter the client connected (its pool), connecting it first if need be
  registerConnectedAdapter(prisma, { connected: async () => adapter.connected() ?? (await prisma.$connect(), adapter.connected()!), onQuery: options.onQuery });
  if (options.onQuery) {
    const onQuery = options.onQuery;
    (prisma as unknown as { $on(event: 'query', listener: (e: { query: string }) => void): void }).$on('query', (e) => onQuery(e.query));
  }
  let appliedMigrations: string[] = [];
  if (options.migrate !== false) {
    // The engine takes a database-wide lock even when nothing is pending, and loading it takes a
    // second: a database whose migrations are all recorded (same checksums) does without it, and
    // an empty one gets them all in one step.
    const state = await migrationState(prisma);
    if (state === 'empty') appliedMigrations = (await applyAllInOneStep(adapter.raw)) ?? [];
    if (state !== 'current' && !appliedMigrations.length) appliedMigrations = await applyPending(adapter.factory);
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
let buildMigrations: Promise<{ name: string; checksum: string }[]> | undefined;

async function recordedMigrations(prisma: PrismaClient): Promise<Map<string, string> | null> {
  try {
    const applied: { migration_name: string; checksum: string }[] = await prisma.$queryRaw`SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    return new Map(applied.map((row) => [row.migration_name, row.checksum]));
  } catch {
    return null; // no migration table yet
  }
}

const migrationsOfBuild = () =>
  (buildMigrations ??= readMigrations().then((list) =>
    list.migrationDirectories.map((dir) => ({ name: dir.path, checksum: dir.migrationFile.content.tag === 'ok' ? migrationChecksum(dir.migrationFile.content.value) : '' })),
  ));

/**
 * 'empty': no migration table (a new database); 'current': every migration of this build is
 * recorded as applied, with the checksum of its SQL; 'behind': anything else, for the engine.
 */
export async function migrationState(prisma: PrismaClient): Promise<'empty' | 'current' | 'behind'> {
  const [migrations, recorded] = await Promise.all([migrationsOfBuild(), recordedMigrations(prisma)]);
  if (!recorded) return 'empty';
  return migrations.every((m) => recorded.get(m.name) === m.checksum) ? 'current' : 'behind';
}

/** True when a migration of this build is not applied, or the migration table is missing (also read by /readyz). */
export async function hasPendingMigrations(prisma: PrismaClient): Promise<boolean> {
  const [migrations, recorded] = await Promise.all([migrationsOfBuild(), recordedMigrations(prisma)]);
  return !recorded || migrations.some((m) => !recorded.has(m.name));
}
