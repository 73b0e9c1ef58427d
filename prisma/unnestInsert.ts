// Many rows in one INSERT: one array per column, unnested by the database. Prisma's createMany
// and upsert build and compile a statement per call in JavaScript (and, on the embedded
// database, that work holds the one connection readers wait for); this sends the values as they
// are, a few parameters whatever the number of rows.
import type { Db } from './db.ts';

/**
 * How a column's values travel. `date` and `timestamp` take a Date or an ISO string (a timestamp
 * is stored in UTC, as Prisma stores it); `jsonb` any JSON value; `text[]` a list of strings.
 */
export type ColumnType = 'text' | 'uuid' | 'integer' | 'boolean' | 'date' | 'timestamp' | 'jsonb' | 'text[]';

export type Columns<R> = readonly (readonly [name: string, type: ColumnType, value: (row: R) => unknown])[];

export interface InsertOptions {
  /** e.g. `ON CONFLICT ("id") DO NOTHING`; none: a duplicate key is an error, as in createMany */
  onConflict?: string;
  /** rows per statement */
  batch?: number;
}

/** A list of strings has no unnest of its own (unnest flattens arrays of arrays): it travels as JSON. */
const parameterType: Record<ColumnType, string> = { text: 'text', uuid: 'uuid', integer: 'integer', boolean: 'boolean', date: 'date', timestamp: 'timestamp(3)', jsonb: 'jsonb', 'text[]': 'jsonb' };

/**
 * A jsonb column travels as ONE JSON text, the array of its values, split by the database: as an
 * array of JSON texts, pg writes each text again into an array literal (escaping every quote) and
 * measures the result, several times the cost of the JSON itself for large bodies (a company's
 * statements). A missing value is JSON null there, and SQL NULL in the column, as before.
 */
const jsonbColumn = (parameter: string) =>
  `ARRAY(SELECT nullif(e.value, 'null'::jsonb) FROM jsonb_array_elements(${parameter}::jsonb) WITH ORDINALITY AS e(value, n) ORDER BY e.n)`;

function encode(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : value;
    case 'timestamp':
      // a timestamp without time zone ignores the Z: the UTC wall time is stored, as Prisma does
      return value instanceof Date ? value.toISOString() : value;
    case 'text[]':
      return JSON.stringify(value);
    default:
      return value;
  }
}

/**
 * The rows as a query: `SELECT <columns> FROM unnest($1, $2, …)`, each column under its own name,
 * and the parameters it takes (one array per column, one JSON text for a jsonb column). Parameters are numbered from `first`.
 */
export function unnested<R>(columns: Columns<R>, rows: R[], first = 1): { select: string; parameters: unknown[] } {
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  const selected = columns.map(([name, type], i) => `${type === 'text[]' ? `ARRAY(SELECT jsonb_array_elements_text(c${i}))` : `c${i}`} AS "${name}"`).join(', ');
  const placeholders = columns.map(([, type], i) => (type === 'jsonb' ? jsonbColumn(`$${i + first}`) : `$${i + first}::${parameterType[type]}[]`)).join(', ');
  return {
    select: `SELECT ${selected} FROM unnest(${placeholders}) AS u(${aliases})`,
    parameters: columns.map(([, type, value]) => (type === 'jsonb' ? JSON.stringify(rows.map((row) => value(row) ?? null)) : rows.map((row) => encode(type, value(row))))),
  };
}

function insert<R>(table: string, columns: Columns<R>, rows: R[], tail: string): { sql: string; parameters: unknown[] } {
  const { select, parameters } = unnested(columns, rows);
  return { sql: `INSERT INTO "${table}" (${columns.map(([name]) => `"${name}"`).join(', ')}) ${select} ${tail}`, parameters };
}

function* batches<R>(rows: R[], size: number): Generator<R[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** Inserts the rows; returns how many went in (a conflict skipped by `onConflict` is not counted). */
export async function insertRows<R>(db: Db, table: string, columns: Columns<R>, rows: R[], options: InsertOptions = {}): Promise<number> {
  let inserted = 0;
  for (const batch of batches(rows, options.batch ?? 5000)) {
    const { sql, parameters } = insert(table, columns, batch, options.onConflict ?? '');
    inserted += await db.$executeRawUnsafe(sql, ...parameters);
  }
  return inserted;
}

/** Inserts the rows and returns the `returning` columns of those that went in. */
export async function insertRowsReturning<R, T>(db: Db, table: string, columns: Columns<R>, rows: R[], returning: string, options: InsertOptions = {}): Promise<T[]> {
  const out: T[] = [];
  for (const batch of batches(rows, options.batch ?? 5000)) {
    const { sql, parameters } = insert(table, columns, batch, `${options.onConflict ?? ''} RETURNING ${returning}`);
    out.push(...(await db.$queryRawUnsafe<T[]>(sql, ...parameters)));
  }
  return out;
}
