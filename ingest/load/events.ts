// Events a filing discloses. The index (a submissions file's 8-K items, form types) gives an
// event with no content; the document, once ingested, replaces it with what it says.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Tx } from '../handlers.ts';
import { day, digest, orderDate } from '../../core/rows.ts';
import { recordEvents } from '../../subscriptions/events.ts';
import { insertRows, insertRowsReturning, type Columns } from '../../prisma/unnestInsert.ts';

export interface EventFields {
  accessionNumber: string | null;
  cik: string | null;
  item: string | null;
  type: string;
  eventDate: string | null;
  filedAt: string | null;
  confidence: string | null;
  data: Prisma.InputJsonValue;
}

const itemEventTypes: Record<string, string> = { '4.01': 'auditor_change', '4.02': 'restatement', '5.02': 'officer_change', '5.07': 'voting_results' };
const mergerForms = new Set(['S-4', 'S-4/A', 'F-4', 'F-4/A', 'DEFM14A', 'PREM14A', 'DEFM14C', '425', 'SC TO-T', 'SC TO-T/A', 'SC 14D9', 'SC 14D9/A']);
const offeringForms = new Set(['S-1', 'S-1/A', 'F-1', 'F-1/A', '424B4']);

/** Forms whose `items` are 8-K item numbers. An ABS-15G's items are Rule 15Ga-1's, not 8-K's. */
export const eightKForms = /^8-K(12[BG]3?)?(\/A)?$/;

/** The events the index alone tells of a filing: its 8-K items, merger and offering forms. */
export function indexEvents(filing: { accessionNumber: string; cik: string; form: string; filedAt: string; reportDate?: string | null; items?: string[] }): EventFields[] {
  const base = { accessionNumber: filing.accessionNumber, cik: filing.cik, eventDate: filing.reportDate ?? null, filedAt: filing.filedAt, confidence: null };
  const events: EventFields[] = [];
  for (const item of eightKForms.test(filing.form) ? (filing.items ?? []) : []) {
    const type = itemEventTypes[item] ?? (item === '1.01' || item === '2.01' ? 'ma_signal' : null);
    if (type) events.push({ ...base, item, type, data: { form: filing.form, items: filing.items ?? [] } });
  }
  if (mergerForms.has(filing.form)) events.push({ ...base, item: null, type: 'ma_signal', data: { form: filing.form } });
  if (offeringForms.has(filing.form)) events.push({ ...base, item: null, type: 'offering', data: { form: filing.form } });
  return events;
}

/** Index events for filings whose document has not given us that event already. */
export async function writeIndexEvents(tx: Tx, events: EventFields[], sourceKey: string): Promise<number> {
  if (!events.length) return 0;
  const fromDocuments = await tx.filingEvent.findMany({
    where: { fromIndexOnly: false, accessionNumber: { in: [...new Set(events.map((e) => e.accessionNumber!))] } },
    select: { accessionNumber: true, type: true },
  });
  const covered = new Set(fromDocuments.map((e) => `${e.accessionNumber}:${e.type}`));
  const rows = events
    .filter((e) => !covered.has(`${e.accessionNumber}:${e.type}`))
    .map((e) => indexEventRow(e, sourceKey));
  const written = new Set((await insertRowsReturning<EventRow, { id: string }>(tx, 'FilingEvent', eventColumns, rows, '"id"', { onConflict: 'ON CONFLICT DO NOTHING' })).map((w) => w.id));
  await announce(tx, rows.filter((r) => written.has(r.id)));
  return written.size;
}

/** A document's events replace what an earlier read of it and the index said about that filing. */
export async function writeDocumentEvents(tx: Tx, events: EventFields[], sourceKey: string): Promise<number> {
  // a document read again (changed) keeps the ids of the events it still states: only new ones are announced
  const before = new Set((await tx.filingEvent.findMany({ where: { sourceKey, fromIndexOnly: false }, select: { id: true } })).map((e) => e.id));
  await tx.filingEvent.deleteMany({ where: { sourceKey, fromIndexOnly: false } });
  const accessions = [...new Set(events.map((e) => e.accessionNumber).filter((a): a is string => !!a))];
  if (accessions.length) {
    await tx.filingEvent.deleteMany({ where: { fromIndexOnly: true, accessionNumber: { in: accessions }, type: { in: [...new Set(events.map((e) => e.type))] } } });
  }
  const rows = events.map((e, ordinal) => ({ id: digest('document', sourceKey, e.item, e.type, ordinal), ...eventRow(e), fromIndexOnly: false, sourceKey }));
  const written = await insertRows(tx, 'FilingEvent', eventColumns, rows);
  await announce(tx, rows.filter((r) => !before.has(r.id)));
  return written;
}

/** `filing_event.added` for each new event record, in the transaction that wrote it (monitors watch these). */
async function announce(tx: Tx, rows: { id: string; accessionNumber: string | null; cik: string | null; item: string | null; type: string; filedAt: Date | null }[]): Promise<void> {
  await recordEvents(
    tx,
    rows.map((r) => ({ type: 'filing_event.added', orgId: null, payload: { id: r.id, accessionNumber: r.accessionNumber, cik: r.cik, item: r.item, eventType: r.type, filedAt: r.filedAt?.toISOString().slice(0, 10) ?? null } })),
  );
}

/** The FilingEvent row of an index event, as writeIndexEvents writes it (a bulk load writes the same rows with COPY). */
export function indexEventRow(e: EventFields, sourceKey: string) {
  return { id: digest('index', e.accessionNumber, e.item, e.type), ...eventRow(e), fromIndexOnly: true, sourceKey };
}

type EventRow = ReturnType<typeof indexEventRow>;

const eventColumns: Columns<EventRow> = [
  ['id', 'text', (r) => r.id],
  ['accessionNumber', 'text', (r) => r.accessionNumber],
  ['cik', 'text', (r) => r.cik],
  ['item', 'text', (r) => r.item],
  ['type', 'text', (r) => r.type],
  ['eventDate', 'date', (r) => r.eventDate],
  ['filedAt', 'date', (r) => r.filedAt],
  ['orderedAt', 'date', (r) => r.orderedAt],
  ['fromIndexOnly', 'boolean', (r) => r.fromIndexOnly],
  ['confidence', 'text', (r) => r.confidence],
  ['data', 'jsonb', (r) => r.data],
  ['sourceKey', 'text', (r) => r.sourceKey],
];

function eventRow(e: EventFields) {
  const eventDate = day(e.eventDate);
  const filedAt = day(e.filedAt);
  return { accessionNumber: e.accessionNumber, cik: e.cik, item: e.item, type: e.type, eventDate, filedAt, orderedAt: orderDate(filedAt, eventDate), confidence: e.confidence, data: e.data };
}
