// `signal.added`: after an item's rows are written, in its last transaction, the signals whose
// evidence includes a filing, form, 8-K event or XBRL facts the item's transactions added (and a dilution score rise
// of a company it added to), and that were never announced.
import { Prisma } from '../../prisma/generated/client/client.ts';
import { padCik } from '../../core/rows.ts';
import { dilutionItems, dilutionRelevant } from '../../derived/dilution/materialize.ts';
import { signalsCreatedBy, type Signal } from '../../derived/signals.ts';
import { recordEvents } from '../../subscriptions/events.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import type { Tx } from '../handlers.ts';

const evidenceEventTypes = ['officer_change', 'auditor_change', 'restatement', 'voting_results', 'offering'];

export interface Added {
  type: string;
  payload: { accessionNumber?: string | null; accessionNumbers?: string[]; cik?: string | null; form?: string; family?: string; eventType?: string; item?: string | null };
}

/** Whether an added record can be a signal's evidence (the rules read nothing else). */
export function evidence(e: Added): boolean {
  // XBRL facts, an offering form or an 8-K item can move the dilution score
  if (e.type === 'facts.added') return true;
  if (e.type === 'filing.added') return /^(NT |SC 13D|8-K)/.test(e.payload.form ?? '') || dilutionRelevant({ form: e.payload.form ?? '' });
  if (e.type === 'form.added') return e.payload.family === 'OWNERSHIP' || e.payload.family === '13DG' || e.payload.family === 'OFFERING';
  return evidenceEventTypes.includes(e.payload.eventType ?? '') || (e.payload.item != null && (dilutionItems as readonly string[]).includes(e.payload.item));
}

/** `earlier`: the ids of the item's transactions before this one (an item loaded in steps). */
export async function announceSignals(tx: Tx, earlier: bigint[] = []): Promise<BusEvent[]> {
  // the events the item wrote (Event.txid defaults to the writing transaction's id)
  const added = await tx.$queryRaw<Added[]>(Prisma.sql`
    SELECT "type", "payload" FROM "Event"
    WHERE "txid" = ANY(array_append(${earlier.map(String)}::bigint[], (pg_current_xact_id())::text::bigint)) AND "orgId" IS NULL AND "type" IN ('filing.added', 'form.added', 'filing_event.added', 'facts.added')`);
  const rows = added
    .filter(evidence)
    .flatMap((e) => (e.payload.cik ? [...(e.payload.accessionNumber ? [e.payload.accessionNumber] : []), ...(e.payload.accessionNumbers ?? [])].map((accessionNumber) => ({ cik: padCik(e.payload.cik!), accessionNumber })) : []));
  if (!rows.length) return [];
  return announceNew(tx, await signalsCreatedBy(tx, rows));
}

/**
 * `signal.added` for each of these signals never announced before (marked announced in the same
 * transaction). `announceFrom` (YYYY-MM-DD): one as of an earlier day is marked, not announced.
 */
export async function announceNew(tx: Tx, signals: Signal[], announceFrom = ''): Promise<BusEvent[]> {
  if (!signals.length) return [];
  // A document read after the index (same accession, same type) makes the same id: announced
  // once. Ids in one order, so that two transactions marking the same ones never wait on each other in a cycle.
  const ids = [...new Set(signals.map((s) => s.id))].sort();
  const fresh = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
    INSERT INTO "AnnouncedSignal" ("id") SELECT unnest(${ids}::text[]) ON CONFLICT DO NOTHING RETURNING "id"`);
  const isNew = new Set(fresh.map((a) => a.id));
  return recordEvents(
    tx,
    signals
      .filter((s) => isNew.delete(s.id) && s.asOf >= announceFrom)
      .map((s) => ({ type: 'signal.added', orgId: null, payload: { id: s.id, type: s.type, strength: s.strength, asOf: s.asOf, cik: s.cik, accessionNumbers: [...new Set(s.evidence.map((e) => e.accessionNumber))] } })),
  );
}
