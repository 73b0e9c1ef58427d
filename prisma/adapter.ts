// The driver adapter behind both the Prisma client and the migration engine:
// PostgreSQL over `pg` when a URL is configured, otherwise embedded PGlite in the state folder.
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { IsolationLevel, SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, SqlQueryable, Transaction } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

import type { DatabaseTarget } from '../core/config.ts';
import { inSpan, SpanKind } from '../core/tracing.ts';
import type { RawConnection } from './rawConnection.ts';
import { prepareDataDir } from './pgliteTemplate.ts';

export type { DatabaseTarget };

export interface OpenedAdapter {
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** the connection beneath Prisma, for what Prisma cannot send (COPY, a bulk ingest's blobs) */
  raw: RawConnection;
  /** the adapter the client connected last (statements sent through it are watched like the client's); undefined before it connects */
  connected(): SqlQueryable | undefined;
  close(): Promise<void>;
}

export type { RawConnection };

/** Told every SQL statement sent to the database through Prisma, transaction control (BEGIN, COMMIT) included. */
export type StatementListener = (sql: string) => void;

// The embedded server's shared buffers are zeroed at every start: PostgreSQL's default of 128 MB
// cost about 0.3 s of each start here, 32 MB a third of that, and an embedded database of the
// corpus reads little enough that the operating system's cache serves the rest.
// The embedded server already runs without fsync (PGlite's -F): what it writes is safe from its
// own process dying (kill -9 included: the operating system still holds every write), not from the
// machine losing power. Full-page images in the WAL guard against torn pages after such a power
// loss, so here they only doubled the WAL an ingest writes, and with it the checkpoints a single-
// process server runs inline, stalling the requests behind them for up to a second; zero-filling
// each new WAL segment was the same kind of pause.
const embeddedStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB', '-c', 'full_page_writes=off', '-c', 'wal_init_zero=off'];

/** The adapter is wrapped so that each statement is a span of the traced request that sent it, and told to `onStatement`. */
export async function openAdapter(target: DatabaseTarget, onStatement?: StatementListener): Promise<OpenedAdapter> {
  let last: SqlQueryable | undefined;
  const watched = (factory: SqlMigrationAwareDriverAdapterFactory) => watchingStatements(factory, onStatement, (adapter) => (last = adapter));
  const connected = () => last;
  if (target.kind === 'postgres') {
    const factory = new PrismaPg({ connectionString: target.url });
    return { factory: watched(factory), raw: { kind: 'postgres', url: target.url }, connected, close: async () => {} };
  }
  if (!target.initialData) await prepareDataDir(target.dataDir);
  const pglite = await PGlite.create(target.dataDir, { startParams: embeddedStartParams, ...(target.initialData ? { loadDataDir: target.initialData } : {}) });
  return { factory: watched(new PrismaPGlite(pglite)), raw: { kind: 'pglite', pglite }, connected, close: () => pglite.close() };
}

// A statement's shape for its span: literals (strings, numbers) become ?, so that no value a
// caller sent, nor a secret written inline, reaches a trace; the parameters ($1…) are never read.
// Prisma names every column with its schema: in every span of every request, that is only bulk.
const stringLiteral = /'(?:[^']|'')*'/g;
const numberLiteral = /(?<![$\w"])-?\d+(?:\.\d+)?\b/g;
const maxShape = 2000;

function statementShape(sql: string): string {
  return sql.replaceAll('"public".', '').replace(stringLiteral, '?').replace(numberLiteral, '?').slice(0, maxShape);
}

/** `SELECT Organization`: the statement's verb and the first table it names. */
function statementName(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const table = /\b(?:FROM|INTO|UPDATE)\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}

// Prisma sends the same few statement texts again and again: each is described once (its regular
// expressions cost a traced request more than its span does), up to a bound past which the
// descriptions start over; a long statement (a list of values written out) is described each time.
// The attributes are shared by the spans of one text, and never changed.
type Description = { name: string; attributes: { 'db.system.name': 'postgresql'; 'db.query.text': string } };
const descriptions = new Map<string, Description>();
const maxDescriptions = 1000;
const maxDescribedLength = 8000;

function described(sql: string): Description {
  let found = descriptions.get(sql);
  if (!found) {
    found = { name: statementName(sql), attributes: { 'db.system.name': 'postgresql', 'db.query.text': statementShape(sql) } };
    if (sql.length > maxDescribedLength) return found;
    if (descriptions.size >= maxDescriptions) descriptions.clear();
    descriptions.set(sql, found);
  }
  return found;
}

/**
 * The same adapters, each statement sent inside a span of the traced request that sent it (with
 * its shape and its time), and told to `listener` if any: what both drivers receive, whichever
 * client API (a model query, raw SQL, a transaction) sent it. A transaction's BEGIN and its end are
 * sent by the driver's own transaction object, so they are told here by name.
 */
function watchingStatements(factory: SqlMigrationAwareDriverAdapterFactory, listener: StatementListener | undefined, onConnect: (adapter: SqlDriverAdapter) => void): SqlMigrationAwareDriverAdapterFactory {
  const wrapped = <T extends object>(inner: T, own: Record<string, unknown>): T =>
    new Proxy(inner, {
      get(target, name, receiver) {
        if (typeof name === 'string' && name in own) return own[name];
        const value = Reflect.get(target, name, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const sent = <T>(sql: string, send: () => Promise<T>): Promise<T> => {
    listener?.(sql);
    return inSpan(() => described(sql).name, () => described(sql).attributes, send, SpanKind.CLIENT);
  };
  const told = (inner: SqlQueryable) => ({
    queryRaw: (query: SqlQuery) => sent(query.sql, () => inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => sent(query.sql, () => inner.executeRaw(query)),
  });
  const transaction = (tx: Transaction): Transaction =>
    wrapped(tx, {
      ...told(tx),
      commit: () => sent('COMMIT', () => tx.commit()),
      rollback: () => sent('ROLLBACK', () => tx.rollback()),
      ...(tx.createSavepoint ? { createSavepoint: (name: string) => sent(`SAVEPOINT ${name}`, () => tx.createSavepoint!(name)) } : {}),
      ...(tx.rollbackToSavepoint ? { rollbackToSavepoint: (name: string) => sent(`ROLLBACK TO SAVEPOINT ${name}`, () => tx.rollbackToSavepoint!(name)) } : {}),
      ...(tx.releaseSavepoint ? { releaseSavepoint: (name: string) => sent(`RELEASE SAVEPOINT ${name}`, () => tx.releaseSavepoint!(name)) } : {}),
    });
  const adapter = (inner: SqlDriverAdapter): SqlDriverAdapter =>
    wrapped(inner, {
      ...told(inner),
      executeScript: (script: string) => sent(script, () => inner.executeScript(script)),
      startTransaction: (isolationLevel?: IsolationLevel) => sent('BEGIN', async () => transaction(await inner.startTransaction(isolationLevel))),
    });
  return wrapped(factory, {
    connect: async () => {
      const connected = adapter(await factory.connect());
      onConnect(connected);
      return connected;
    },
    connectToShadowDb: async () => adapter(await factory.connectToShadowDb()),
  });
}

export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'pglite') return `embedded PGlite (${target.dataDir})`;
  const url = new URL(target.url);
  return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
