// One SQL statement's rows, sent straight to the driver adapter the client is connected with. The
// statement is watched and traced like every statement of the client (prisma/adapter.ts) and its
// values come back as $queryRaw gives them (DATE and TIMESTAMP columns as Dates, JSON parsed, int8
// as bigint, numeric as Decimal), without the client's query engine in between: for a short read,
// its batching, serialization and interpretation cost more CPU than the database spends on it.
// For the hottest reads of the data doors, and for the request log's batches (directExecute),
// whose one JSON parameter the client would serialize and parse again; everything else keeps
// $queryRaw and $executeRaw.
import { ColumnTypeEnum, type ArgType, type ColumnType, type SqlQueryable } from '@prisma/driver-adapter-utils';
import { Prisma } from './generated/client/client.ts';

/** How a client is read through: the adapter it is connected with, and the listener of its query log (openDatabase's onQuery), told these statements too. */
interface Reader {
  connected: () => Promise<SqlQueryable>;
  onQuery?: (sql: string) => void;
}

const readers = new WeakMap<object, Reader>();

/** Called by openDatabase for each client it makes. */
export function registerConnectedAdapter(prisma: object, reader: Reader): void {
  readers.set(prisma, reader);
}

function argType(value: unknown): ArgType {
  if (Array.isArray(value)) return { ...argType(value[0]), arity: 'list' };
  if (value instanceof Date) return { scalarType: 'datetime', arity: 'scalar' };
  if (typeof value === 'number') return { scalarType: Number.isInteger(value) ? 'int' : 'float', arity: 'scalar' };
  return { scalarType: typeof value === 'string' ? 'string' : 'unknown', arity: 'scalar' };
}

/** A value as the client's $queryRaw would give it (its raw result mapping, by column type). */
function decoded(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case ColumnTypeEnum.Int32:
      return Math.trunc(Number(value));
    case ColumnTypeEnum.Int64:
      return BigInt(typeof value === 'number' ? Math.trunc(value) : (value as string));
    case ColumnTypeEnum.Numeric:
      return new Prisma.Decimal(value as string);
    case ColumnTypeEnum.Boolean:
      return typeof value === 'boolean' ? value : value === 'true' || value === '1' || value === 1;
    case ColumnTypeEnum.Date:
    case ColumnTypeEnum.DateTime:
      return new Date(value as string);
    case ColumnTypeEnum.Json:
      return typeof value === 'string' ? JSON.parse(value) : value;
    case ColumnTypeEnum.Time:
    case ColumnTypeEnum.Bytes:
    case ColumnTypeEnum.TimeArray:
    case ColumnTypeEnum.BytesArray:
      throw new Error(`directRead does not read columns of type ${type}; use $queryRaw`);
    case ColumnTypeEnum.Int32Array:
    case ColumnTypeEnum.Int64Array:
    case ColumnTypeEnum.NumericArray:
    case ColumnTypeEnum.BooleanArray:
    case ColumnTypeEnum.DateArray:
    case ColumnTypeEnum.DateTimeArray:
    case ColumnTypeEnum.JsonArray:
      return (value as unknown[]).map((item) => decoded(item, (type - 64) as ColumnType));
    default:
      return value;
  }
}

/**
 * The rows of one statement, as `prisma.$queryRaw` returns them, read through the client's adapter.
 * A client openDatabase did not make (a transaction's, whose reads must see its writes) reads
 * through its own $queryRaw.
 */
export async function directRead<T>(prisma: { $queryRaw<R>(query: Prisma.Sql): Promise<R> }, query: Prisma.Sql): Promise<T[]> {
  const reader = readers.get(prisma);
  if (!reader) return prisma.$queryRaw<T[]>(query);
  const { text, values } = query;
  const adapter = await reader.connected();
  reader.onQuery?.(text);
  const result = await adapter.queryRaw({ sql: text, args: values, argTypes: values.map(argType) });
  const { columnNames, columnTypes, rows } = result;
  const objects: T[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const object: Record<string, unknown> = {};
    for (let c = 0; c < columnNames.length; c++) object[columnNames[c]!] = decoded(row[c], columnTypes[c]!);
    objects[r] = object as T;
  }
  return objects;
}

/**
 * One statement that returns no rows, as `prisma.$executeRawUnsafe` runs it, through the client's
 * adapter: its count of rows affected.
 */
export async function directExecute(prisma: { $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number> }, sql: string, ...values: unknown[]): Promise<number> {
  const reader = readers.get(prisma);
  if (!reader) return prisma.$executeRawUnsafe(sql, ...values);
  const adapter = await reader.connected();
  reader.onQuery?.(sql);
  return adapter.executeRaw({ sql, args: values, argTypes: values.map(argType) });
}
