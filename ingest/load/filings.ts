// Filings: from submissions files and index files (metadata), or from their own documents.
// A new filing writes a `filing.added` event in the same transaction.
import type { BusEvent } from '../../subscriptions/bus.ts';
import { recordEvents } from '../../subscriptions/events.ts';
import type { Step, Tx } from '../handlers.ts';
import { chunks, day, orderDate, padCik } from '../../core/rows.ts';
import { insertRows, unnested, type Columns } from '../../prisma/unnestInsert.ts';
import { dilutionRelevant, materializeDilution } from '../../derived/dilution/materialize.ts';

export interface FilingFields {
  accessionNumber: string;
  cik: string;
  form: string;
  /** null for a filing known only from its own document, which does not state it */
  filedAt: string | null;
  acceptedAt?: string | null;
  reportDate?: string | null;
  items?: string[];
  primaryDocument?: string | null;
  primaryDocDescription?: string | null;
  size?: number | null;
  isXbrl?: boolean;
  isInlineXbrl?: boolean;
  fileNumber?: string | null;
  filmNumber?: string | null;
}

/** The Filing row of these fields (a bulk load writes the same rows with COPY). */
export function filingRow(f: FilingFields) {
  return row(f);
}

type FilingRow = ReturnType<typeof row>;

const filingColumns: Columns<FilingRow & { updatedAt: Date }> = [
  ['accessionNumber', 'text', (r) => r.accessionNumber],
  ['cik', 'text', (r) => r.cik],
  ['form', 'text', (r) => r.form],
  ['filedAt', 'date', (r) => r.filedAt],
  ['acceptedAt', 'timestamp', (r) => r.acceptedAt],
  ['orderedAt', 'timestamp', (r) => r.orderedAt],
  ['reportDate', 'date', (r) => r.reportDate],
  ['items', 'text[]', (r) => r.items],
  ['primaryDocument', 'text', (r) => r.primaryDocument],
  ['primaryDocDescription', 'text', (r) => r.primaryDocDescription],
  ['size', 'integer', (r) => r.size],
  ['isXbrl', 'boolean', (r) => r.isXbrl],
  ['isInlineXbrl', 'boolean', (r) => r.isInlineXbrl],
  ['fileNumber', 'text', (r) => r.fileNumber],
  ['filmNumber', 'text', (r) => r.filmNumber],
  ['updatedAt', 'timestamp', (r) => r.updatedAt],
];

function row(f: FilingFields) {
  return {
    accessionNumber: f.accessionNumber,
    cik: padCik(f.cik),
    form: f.form,
    filedAt: day(f.filedAt),
    acceptedAt: f.acceptedAt ? new Date(f.acceptedAt) : null,
    orderedAt: orderDate(f.acceptedAt ? new Date(f.acceptedAt) : null, day(f.filedAt), day(f.reportDate ?? null)),
    reportDate: day(f.reportDate ?? null),
    items: f.items ?? [],
    primaryDocument: f.primaryDocument ?? null,
    primaryDocDescription: f.primaryDocDescription ?? null,
    size: f.size ?? null,
    isXbrl: f.isXbrl ?? false,
    isInlineXbrl: f.isInlineXbrl ?? false,
    fileNumber: f.fileNumber ?? null,
    filmNumber: f.filmNumber ?? null,
  };
}

/** Filings a step writes: a few tens of milliseconds on the embedded database. */
const filingsPerStep = 100;

/**
 * Writes filings the database does not have and brings the known ones up to date with the newer
 * metadata, a chunk a step; returns rows written and the `filing.added` events of the new ones.
 * Rebuilds the dilution records of the companies whose offering forms or dilution 8-Ks change,
 * in a last step, unless the caller does (`buildDilution: false`: a document's handler, which
 * builds once it has loaded it). Every filing's dates are checked before the first step: a list
 * with one bad date is refused whole.
 */
export async function upsertFilings(
  step: Step,
  filings: FilingFields[],
  tickersByCik: Map<string, string[]> = new Map(),
  { buildDilution = true }: { buildDilution?: boolean } = {},
): Promise<{ records: number; events: BusEvent[] }> {
  const rows = filings.map((fields) => ({ fields, row: row(fields) }));
  // A filing the list names twice (an index lists a 13D under its subject and its filer) is
  // written from its first listing when it is new, whichever step the second falls in.
  const inserted = new Set<string>();
  const events: BusEvent[] = [];
  let records = 0;
  // companies whose dilution records these filings change: new or updated offering forms and 8-Ks of dilution items
  const dilution = new Set<string>();
  for (const chunk of chunks(rows, filingsPerStep)) {
    const batch = chunk.filter((f) => !inserted.has(f.fields.accessionNumber));
    await step(async (tx) => {
      const known = new Map(
        (await tx.filing.findMany({ where: { accessionNumber: { in: batch.map((f) => f.fields.accessionNumber) } } })).map((f) => [f.accessionNumber, f]),
      );
      const fresh = batch.filter((f) => !known.has(f.fields.accessionNumber));
      if (fresh.length) {
        const updatedAt = new Date();
        records += await insertRows(tx, 'Filing', filingColumns, fresh.map((f) => ({ ...f.row, updatedAt })), { onConflict: 'ON CONFLICT DO NOTHING' });
        for (const f of fresh) inserted.add(f.fields.accessionNumber);
        for (const { fields: f } of fresh) if (dilutionRelevant(f)) dilution.add(padCik(f.cik));
        const added = fresh.map(({ fields: f }) => {
          const cik = padCik(f.cik);
          return { type: 'filing.added', orgId: null, payload: { accessionNumber: f.accessionNumber, cik, form: f.form, filedAt: f.filedAt, tickers: tickersByCik.get(cik) ?? [] } };
        });
        events.push(...(await recordEvents(tx, added)));
      }
      // per known filing, the columns that change; null (or, for items, an empty list) keeps the stored one
      const changed: FilingRow[] = [];
      for (const { fields: f, row: stated } of batch) {
        const before = known.get(f.accessionNumber);
        if (!before) continue;
        const next = { ...stated };
        // The order date follows the dates the row keeps: an index states no acceptance time, and
        // must not move a filing its submissions file dated to the second back to its day's midnight.
        next.orderedAt = orderDate(next.acceptedAt ?? before.acceptedAt, next.filedAt ?? before.filedAt, next.reportDate ?? before.reportDate);
        // Only fill in or correct metadata; never blank what is known.
        const changes = Object.fromEntries(
          Object.entries(next).filter(([k, v]) => v !== null && !(Array.isArray(v) && v.length === 0) && JSON.stringify(v) !== JSON.stringify((before as Record<string, unknown>)[k])),
        );
        if (Object.keys(changes).length) {
          changed.push({ ...unchanged, ...changes, accessionNumber: f.accessionNumber } as FilingRow);
          records++;
          // relevant before or after: records built from what it was are rebuilt too
          if (dilutionRelevant(before) || dilutionRelevant({ form: (changes.form as string | undefined) ?? before.form, items: (changes.items as string[] | undefined) ?? before.items })) dilution.add(before.cik);
        }
      }
      await fillInFilings(tx, changed);
    });
  }
  if (buildDilution && dilution.size) await step((tx) => materializeDilution(tx, [...dilution]));
  return { records, events };
}

/** A filing row that changes nothing: fillInFilings keeps every column it leaves null or empty. */
const unchanged = Object.fromEntries(filingColumns.map(([name]) => [name, name === 'items' ? [] : null]));

/**
 * Brings known filings up to these rows: each column the row states (not null, not an empty list)
 * replaces the stored one, the rest is kept. One statement for the rows; a filing listed twice
 * is brought up to each of its rows in turn, as one update after the other would.
 */
async function fillInFilings(tx: Tx, rows: FilingRow[]): Promise<void> {
  const rounds: FilingRow[][] = [];
  const seen = new Map<string, number>();
  for (const r of rows) {
    const round = seen.get(r.accessionNumber) ?? 0;
    seen.set(r.accessionNumber, round + 1);
    (rounds[round] ??= []).push(r);
  }
  const updatedAt = new Date();
  for (const round of rounds) {
    const { select, parameters } = unnested(filingColumns, round.map((r) => ({ ...r, updatedAt })));
    const kept = filingColumns
      .map(([name]) => name)
      .filter((name) => name !== 'accessionNumber' && name !== 'updatedAt')
      .map((name) => (name === 'items' ? `"items" = CASE WHEN cardinality(u."items") > 0 THEN u."items" ELSE f."items" END` : `"${name}" = coalesce(u."${name}", f."${name}")`));
    await tx.$executeRawUnsafe(`UPDATE "Filing" AS f SET ${kept.join(', ')}, "updatedAt" = u."updatedAt" FROM (${select}) AS u WHERE f."accessionNumber" = u."accessionNumber"`, ...parameters);
  }
}

/** Records that the filing's own document was ingested, from this source item. */
export async function markDocumentIngested(tx: Tx, accessionNumber: string, sourceKey: string, items?: string[]): Promise<void> {
  await tx.filing.update({ where: { accessionNumber }, data: { documentSourceKey: sourceKey, ...(items?.length ? { items } : {}) } });
}
