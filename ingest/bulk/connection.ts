// The one connection a bulk ingest writes through, beneath Prisma: Prisma cannot send COPY. On
// PostgreSQL a pg client of its own (COPY ... FROM STDIN through pg-copy-streams); on the embedded
// PGlite the instance Prisma uses (COPY ... FROM '/dev/blob', the rows handed over as one blob).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { RawConnection } from '../../prisma/adapter.ts';

export interface BulkSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** rows in COPY's text format (one line a row, tab between columns, \N for null) into `table` */
  copyIn(table: string, columns: readonly string[], text: string): Promise<void>;
}

export interface BulkConnection extends BulkSession {
  kind: 'postgres' | 'pglite';
  /** the work commits as a whole or not at all */
  transaction<T>(work: (session: BulkSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const copySql = (table: string, columns: readonly string[], source: string) => `COPY ${table} (${columns.map((c) => `"${c}"`).join(', ')}) FROM ${source}`;

export async function openBulkConnection(raw: RawConnection): Promise<BulkConnection> {
  return raw.kind === 'postgres' ? postgresConnection(raw.url) : pgliteConnection(raw.pglite);
}

async function postgresConnection(url: string): Promise<BulkConnection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A commit need not wait for its WAL flush: a member whose commit a server crash loses lost its
  // done-mark with it, and is loaded again by the next run.
  await client.query('SET synchronous_commit = off');
  const session: BulkSession = {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async copyIn(table, columns, text) {
      if (!text) return;
      await pipeline(Readable.from([text]), client.query(copyFrom(copySql(table, columns, 'STDIN'))));
    },
  };
  return {
    kind: 'postgres',
    ...session,
    async transaction(work) {
      await client.query('BEGIN');
      try {
        const result = await work(session);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    close: () => client.end(),
  };
}

function pgliteSession(db: PGlite | Transaction): BulkSession {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    async copyIn(table, columns, text) {
      if (!text) return;
      await db.query(copySql(table, columns, `'/dev/blob'`), [], { blob: new Blob([text]) });
    },
  };
}

async function pgliteConnection(pglite: PGlite): Promise<BulkConnection> {
  return {
    kind: 'pglite',
    ...pgliteSession(pglite),
    transaction: (work) => pglite.transaction((tx) => work(pgliteSession(tx))),
    // the instance belongs to the service's Prisma client, which closes it
    close: async () => {},
  };
}
