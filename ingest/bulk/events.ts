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
  const written = events.map((e) => ({ id: newId('evt'), type: e.type, payload: e.payload }));
  // one JSON document for them all, taken apart by the database: no array literal to escape and
  // nothing sent back but what the event log adds (sequence number, time)
  const rows = await session.query<{ id: string; seq: string; createdAt: string }>(
    `INSERT INTO "Event" ("id", "type", "orgId", "payload")
     SELECT e->>'id', e->>'type', NULL, e->'payload' FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY n
     RETURNING "id", "seq"::text AS "seq", to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`,
    [JSON.stringify(written)],
  );
  const logged = new Map(rows.map((row) => [row.id, row]));
  return written.map((e) => {
    const row = logged.get(e.id)!;
    return { id: e.id, seq: row.seq, type: e.type, orgId: null, payload: e.payload as BusEvent['payload'], createdAt: row.createdAt };
  });
}
