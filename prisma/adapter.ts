// The driver adapter behind both the Prisma client and the migration engine:
// PostgreSQL over `pg` when a URL is configured, otherwise embedded PGlite in the state folder.
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { IsolationLevel, SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, SqlQueryable, Transaction } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

import type { DatabaseTarget } from '../core/config.ts';
import type { RawConnection } from './rawConnection.ts';
import { prepareDataDir } from './pgliteTemplate.ts';

export type { DatabaseTarget };

export interface OpenedAdapter {
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** the connection beneath Prisma, for what Prisma cannot send (COPY, a bulk ingest's blobs) */
  raw: RawConnection;
  close(): Promise<void>;
}

export type { RawConnection };

/** Told every SQL statement sent to the database through Prisma, transaction control (BEGIN, COMMIT) included. */
export type StatementListener = (sql: string) => void;

/** `onStatement`: the adapter is wrapped to tell it each statement; without it, nothing is wrapped. */
export async function openAdapter(target: DatabaseTarget, onStatement?: StatementListener): Promise<OpenedAdapter> {
  const watched = (factory: SqlMigrationAwareDriverAdapterFactory) => (onStatement ? tellingStatements(factory, onStatement) : factory);
  if (target.kind === 'postgres') {
    const factory = new PrismaPg({ connectionString: target.url });
    return { factory: watched(factory), raw: { kind: 'postgres', url: target.url }, close: async () => {} };
  }
  if (!target.initialData) await prepareDataDir(target.dataDir);
  const pglite = await PGlite.create(target.dataDir, target.initialData ? { loadDataDir: target.initialData } : {});
  return { factory: watched(new PrismaPGlite(pglite)), raw: { kind: 'pglite', pglite }, close: () => pglite.close() };
}

/**
 * The same adapters, telling `listener` each statement as it is sent: what both drivers receive,
 * whichever client API (a model query, raw SQL, a transaction) sent it. A transaction's BEGIN and
 * its end are sent by the driver's own transaction object, so they are told here by name.
 */
function tellingStatements(factory: SqlMigrationAwareDriverAdapterFactory, listener: StatementListener): SqlMigrationAwareDriverAdapterFactory {
  const wrapped = <T extends object>(inner: T, own: Record<string, unknown>): T =>
    new Proxy(inner, {
      get(target, name, receiver) {
        if (typeof name === 'string' && name in own) return own[name];
        const value = Reflect.get(target, name, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const told = (inner: SqlQueryable) => ({
    queryRaw: (query: SqlQuery) => (listener(query.sql), inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => (listener(query.sql), inner.executeRaw(query)),
  });
  const transaction = (tx: Transaction): Transaction =>
    wrapped(tx, {
      ...told(tx),
      commit: () => (listener('COMMIT'), tx.commit()),
      rollback: () => (listener('ROLLBACK'), tx.rollback()),
      ...(tx.createSavepoint ? { createSavepoint: (name: string) => (listener(`SAVEPOINT ${name}`), tx.createSavepoint!(name)) } : {}),
      ...(tx.rollbackToSavepoint ? { rollbackToSavepoint: (name: string) => (listener(`ROLLBACK TO SAVEPOINT ${name}`), tx.rollbackToSavepoint!(name)) } : {}),
      ...(tx.releaseSavepoint ? { releaseSavepoint: (name: string) => (listener(`RELEASE SAVEPOINT ${name}`), tx.releaseSavepoint!(name)) } : {}),
    });
  const adapter = (inner: SqlDriverAdapter): SqlDriverAdapter =>
    wrapped(inner, {
      ...told(inner),
      executeScript: (script: string) => (listener(script), inner.executeScript(script)),
      startTransaction: async (isolationLevel?: IsolationLevel) => (listener('BEGIN'), transaction(await inner.startTransaction(isolationLevel))),
    });
  return wrapped(factory, {
    connect: async () => adapter(await factory.connect()),
    connectToShadowDb: async () => adapter(await factory.connectToShadowDb()),
  });
}

export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'pglite') return `embedded PGlite (${target.dataDir})`;
  const url = new URL(target.url);
  return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
