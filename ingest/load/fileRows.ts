// The rows a file holds in a table, replaced whole when the file is read again.
import type { Step, Tx } from '../handlers.ts';
import { chunks } from '../../core/rows.ts';
import { insertRows, type Columns } from '../../prisma/unnestInsert.ts';

/** Rows a step writes on a file's first read: a few tens of milliseconds on the embedded database. */
const rowsPerStep = 1000;
/** Rows a statement writes when the whole file is replaced in one step. */
const statementRows = 5000;

/** A file's rows: a list, or a source that hands them out a chunk at a time (rows packed by a parse thread, core/packedRows.ts). */
export type FileRows<R> = R[] | ((size: number) => Iterable<R[]>);

const chunksOf = <R>(rows: FileRows<R>, size: number): Iterable<R[]> => (Array.isArray(rows) ? chunks(rows, size) : rows(size));

/**
 * Writes a file's rows into `table`, where `owner` (a column and its value) names the file's rows.
 * Rows held from an earlier read are replaced in one step, so that no read sees old and new rows
 * mixed; on the first read the rows go in a chunk a step, and a read sees them arrive as it sees
 * an ingest's items arrive.
 */
export async function writeFileRows<R>(step: Step, table: string, columns: Columns<R>, rows: FileRows<R>, owner: { column: string; value: string }): Promise<number> {
  const held = await step((tx) => tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "${table}" WHERE "${owner.column}" = $1 LIMIT 1`, owner.value));
  if (held.length) {
    return step(async (tx: Tx) => {
      await tx.$executeRawUnsafe(`DELETE FROM "${table}" WHERE "${owner.column}" = $1`, owner.value);
      let written = 0;
      for (const chunk of chunksOf(rows, statementRows)) written += await insertRows(tx, table, columns, chunk);
      return written;
    });
  }
  let written = 0;
  for (const chunk of chunksOf(rows, rowsPerStep)) written += await step((tx) => insertRows(tx, table, columns, chunk));
  return written;
}
