// Canonical events of a bulk load (`facts.added`, `filing.added`, `filing_event.added`), written
// in the member's transaction as recordEvents writes them, and published once it has committed.
import { newId } from '../../core/ids.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import type { BulkSession } from './connection.ts';

export interface NewEvent {
  type: string;
  payload: Record<string, unknown>;
}

export async function recordBulkEvents(session: BulkSession, events: NewEvent[]): Promise<BusEvent[]> {
  if (!events.length) return [];
  const rows = await session.query<{ seq: string; id: string; type: string; payload: unknown; createdAt: string }>(
    `INSERT INTO "Event" ("id", "type", "orgId", "payload")
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
     RETURNING "seq"::text AS "seq", "id", "type", "payload", to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`,
    [events.map(() => newId('evt')), events.map((e) => e.type), events.map(() => null), events.map((e) => JSON.stringify(e.payload))],
  );
  return rows.map((row) => ({ id: row.id, seq: row.seq, type: row.type, orgId: null, payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as BusEvent['payload'], createdAt: row.createdAt }));
}
