// Writing canonical events: the row goes into the caller's transaction (the outbox); the
// bus hears of it only after that transaction has committed.
import type { Prisma } from '../prisma/generated/client/client.ts';
import { newId } from '../core/ids.ts';
import type { BusEvent, EventBus } from './bus.ts';

type Tx = Prisma.TransactionClient;

/** `requestId`: the request that caused it, when one did (diagnostics follow it). */
export async function recordEvent(tx: Tx, type: string, orgId: string | null, payload: Prisma.InputJsonValue, requestId?: string): Promise<BusEvent> {
  const row = await tx.event.create({ data: { id: newId('evt'), type, orgId, payload, requestId } });
  return { id: row.id, seq: row.seq.toString(), type, orgId, payload, createdAt: row.createdAt.toISOString() };
}

export async function publishAll(bus: EventBus, events: BusEvent[]): Promise<void> {
  for (const event of events) await bus.publish(event);
}

/** Many events in one statement (an ingest writes thousands of `filing.added`). */
export async function recordEvents(tx: Tx, events: { type: string; orgId: string | null; payload: Prisma.InputJsonValue }[]): Promise<BusEvent[]> {
  if (!events.length) return [];
  const rows = await tx.event.createManyAndReturn({ data: events.map((e) => ({ id: newId('evt'), ...e })) });
  return rows.map((row) => ({ id: row.id, seq: row.seq.toString(), type: row.type, orgId: row.orgId, payload: row.payload, createdAt: row.createdAt.toISOString() }));
}
