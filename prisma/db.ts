// Opens the database the configuration names, brings its schema up to date and seeds the
// reference data, so that a fresh machine needs no separate migration step.
import { mkdir } from 'node:fs/promises';
import { PrismaClient, type Prisma } from './generated/client/client.ts';
import { openAdapter, type DatabaseTarget } from './adapter.ts';
import { applyPending } from './migrate.ts';
import { seedReferenceData } from './seed.ts';

export type { PrismaClient };
/** the client or a transaction of it: what functions that only read and write rows take */
export type Db = PrismaClient | Prisma.TransactionClient;

export interface Database {
  prisma: PrismaClient;
  appliedMigrations: string[];
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget, options: { migrate?: boolean } = {}): Promise<Database> {
  if (target.kind === 'pglite' && !target.dataDir.startsWith('memory://')) await mkdir(target.dataDir, { recursive: true });
  const adapter = await openAdapter(target);
  const appliedMigrations = options.migrate === false ? [] : await applyPending(adapter.factory);
  const prisma = new PrismaClient({ adapter: adapter.factory });
  if (options.migrate !== false) await seedReferenceData(prisma);
  return {
    prisma,
    appliedMigrations,
    async close() {
      await prisma.$disconnect();
      await adapter.close();
    },
  };
}
