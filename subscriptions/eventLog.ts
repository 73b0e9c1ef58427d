// Reading the canonical event log in commit-safe order.
//
// A reader that pages by `seq` alone can skip an event: sequence values are taken when rows are
// inserted, not when their transactions commit, so a row with a smaller seq can become visible
// after the reader has moved past it. Each event therefore records the id of the transaction that
// wrote it (`txid`, pg_current_xact_id()), and a reader sees only events whose transaction id is
// below the oldest transaction still running (pg_snapshot_xmin of its snapshot): every one of those
// has ended, so no event can later appear before the reader's position. The order is (txid, seq):
// the same for every reader and every replay.
import { Prisma } from '../prisma/generated/client/client.ts';
import type { Db, PrismaClient } from '../prisma/db.ts';
import type { BusEvent } from './bus.ts';

/** A place in the log: after the event written by transaction `txid` with sequence `seq`. */
export interface LogPosition {
  txid: bigint;
  seq: bigint;
}

export const logStart: LogPosition = { txid: 0n, seq: 0n };

/** The largest txid or seq a position can hold (PostgreSQL bigint). */
export const maxLogValue = 9_223_372_036_854_775_807n;

/** How long events are kept at least (and so how far back a stream can replay): documented in the OpenAPI contract. */
export const eventRetentionDays = 30;

export interface LoggedEvent extends BusEvent {
  position: LogPosition;
  requestId: string | null;
}

export interface EventFilter {
  /** the organization whose events are read; its own events of any type in `types` */
  orgId: string;
  /** event types, or ['*'] for every type of the organization's own events */
  types: string[];
  /** public data events (orgId null, such as filing.added) are read only when their type is named here */
  publicTypes: string[];
  /** only events created in [createdFrom, createdBefore), when given */
  createdFrom?: Date;
  createdBefore?: Date;
}

interface EventRow {
  seq: bigint;
  txid: bigint;
  id: string;
  type: string;
  orgId: string | null;
  requestId: string | null;
  payload: unknown;
  createdAt: Date;
}

function toLogged(row: EventRow): LoggedEvent {
  return {
    id: row.id,
    seq: row.seq.toString(),
    type: row.type,
    orgId: row.orgId,
    requestId: row.requestId,
    payload: row.payload,
    createdAt: row.createdAt.toISOString(),
    position: { txid: row.txid, seq: row.seq },
  };
}

const visible = Prisma.sql`"txid" < (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint`;

/**
 * Events after `after` that every transaction before them has settled, oldest first. Reading
 * again from the same position returns the same events, in the same order, while they are kept.
 */
export async function readEvents(prisma: PrismaClient, filter: EventFilter, after: LogPosition, limit: number): Promise<LoggedEvent[]> {
  const allTypes = filter.types.includes('*');
  const own = allTypes ? Prisma.sql`"orgId" = ${filter.orgId}` : Prisma.sql`("orgId" = ${filter.orgId} AND "type" = ANY(${filter.types}::text[]))`;
  // without public types, no OR: the read is one ordered index scan instead of a sort of every match
  const publicOnes = filter.publicTypes.length ? Prisma.sql`OR ("orgId" IS NULL AND "type" = ANY(${filter.publicTypes}::text[]))` : Prisma.empty;
  const from = filter.createdFrom ? Prisma.sql`AND "createdAt" >= ${filter.createdFrom}` : Prisma.empty;
  const before = filter.createdBefore ? Prisma.sql`AND "createdAt" < ${filter.createdBefore}` : Prisma.empty;
  const rows = await prisma.$queryRaw<EventRow[]>`
    SELECT "seq", "txid", "id", "type", "orgId", "requestId", "payload", "createdAt" FROM "Event"
    WHERE ("txid", "seq") > (${after.txid}::bigint, ${after.seq}::bigint) AND ${visible}
      AND (${own} ${publicOnes}) ${from} ${before}
    ORDER BY "txid", "seq"
    LIMIT ${limit}`;
  return rows.map(toLogged);
}

/** Events of every organization and every type after `after`, oldest first (the webhook dispatcher's read). */
export async function readAllEvents(prisma: Db, after: LogPosition, limit: number): Promise<LoggedEvent[]> {
  const rows = await prisma.$queryRaw<EventRow[]>`
    SELECT "seq", "txid", "id", "type", "orgId", "requestId", "payload", "createdAt" FROM "Event"
    WHERE ("txid", "seq") > (${after.txid}::bigint, ${after.seq}::bigint) AND ${visible}
    ORDER BY "txid", "seq"
    LIMIT ${limit}`;
  return rows.map(toLogged);
}

/**
 * Holds a reader's checkpoint row for this transaction (FOR UPDATE SKIP LOCKED) and returns its
 * position; null while another instance holds it. The row is created on its first use, so a
 * poll pays one statement, not an insert every time.
 */
export async function holdCheckpoint(tx: Db, name: string): Promise<LogPosition | null> {
  const hold = () => tx.$queryRaw<LogPosition[]>`SELECT "txid", "seq" FROM "LogCheckpoint" WHERE "name" = ${name} FOR UPDATE SKIP LOCKED`;
  const [held] = await hold();
  if (held) return held;
  const created = await tx.$executeRaw`INSERT INTO "LogCheckpoint" ("name", "txid", "seq", "updatedAt") VALUES (${name}, 0, 0, now() AT TIME ZONE 'UTC') ON CONFLICT DO NOTHING`;
  return created ? ((await hold())[0] ?? null) : null;
}

/**
 * The position from which a reader sees every event committed from now on: after all the events
 * of transactions that have already ended. (Events of transactions still running now come after it.)
 */
export async function currentPosition(prisma: PrismaClient): Promise<LogPosition> {
  const [row] = await prisma.$queryRaw<{ xmin: bigint }[]>`SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint AS "xmin"`;
  return { txid: row!.xmin - 1n, seq: maxLogValue };
}

/** An event as every door serves it: webhook bodies, stream pages, diagnostics. */
export function servedEvent(event: { id: string; type: string; createdAt: Date | string; orgId: string | null; requestId: string | null; payload: unknown }) {
  const createdAt = typeof event.createdAt === 'string' ? event.createdAt : event.createdAt.toISOString();
  return { object: 'event' as const, id: event.id, type: event.type, createdAt, orgId: event.orgId, requestId: event.requestId, data: event.payload };
}

/**
 * Public data events of one type after `after`, oldest first; with `ciks`, only those whose data
 * names one of them (a monitor's read of what was announced since it last looked).
 */
export async function readPublicEvents(prisma: Db, type: string, after: LogPosition, limit: number, ciks: string[] | null): Promise<LoggedEvent[]> {
  const ofCompanies = ciks ? Prisma.sql`AND ("payload"->>'cik') = ANY(${ciks}::text[])` : Prisma.empty;
  const rows = await prisma.$queryRaw<EventRow[]>`
    SELECT "seq", "txid", "id", "type", "orgId", "requestId", "payload", "createdAt" FROM "Event"
    WHERE "type" = ${type} AND "orgId" IS NULL AND ("txid", "seq") > (${after.txid}::bigint, ${after.seq}::bigint) AND ${visible} ${ofCompanies}
    ORDER BY "txid", "seq"
    LIMIT ${limit}`;
  return rows.map(toLogged);
}

export function isAfter(a: LogPosition, b: LogPosition): boolean {
  return a.txid > b.txid || (a.txid === b.txid && a.seq > b.seq);
}

/**
 * Whether an event is new to a reader made at `createdAt` whose reads start at `start`
 * (currentPosition() when it was made; logStart for one that reads the whole log). The start lies
 * behind every transaction open anywhere on the database server at that moment, so it can
 * precede events written just before the reader existed: those are not new to it.
 */
export function isNewTo(reader: { start: LogPosition; createdAt: Date }, event: Pick<LoggedEvent, 'position' | 'createdAt'>): boolean {
  return isAfter(event.position, reader.start) && event.createdAt >= reader.createdAt.toISOString();
}
