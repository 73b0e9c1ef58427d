// Filings: from submissions files and index files (metadata), or from their own documents.
// A new filing writes a `filing.added` event in the same transaction.
import type { BusEvent } from '../../subscriptions/bus.ts';
import { recordEvents } from '../../subscriptions/events.ts';
import type { Tx } from '../handlers.ts';
import { chunks, day, orderDate, padCik } from '../../core/rows.ts';
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

/**
 * Writes filings the database does not have and brings the known ones up to date with the newer
 * metadata; returns rows written and the `filing.added` events of the new ones. Rebuilds the
 * dilution records of the companies whose offering forms or dilution 8-Ks change, unless the
 * caller does (`buildDilution: false`: a document's handler, which builds once it has loaded it).
 */
export async function upsertFilings(
  tx: Tx,
  filings: FilingFields[],
  tickersByCik: Map<string, string[]> = new Map(),
  { buildDilution = true }: { buildDilution?: boolean } = {},
): Promise<{ records: number; events: BusEvent[] }> {
  const events: BusEvent[] = [];
  let records = 0;
  // companies whose dilution records these filings change: new or updated offering forms and 8-Ks of dilution items
  const dilution = new Set<string>();
  for (const batch of chunks(filings, 500)) {
    const known = new Map(
      (await tx.filing.findMany({ where: { accessionNumber: { in: batch.map((f) => f.accessionNumber) } } })).map((f) => [f.accessionNumber, f]),
    );
    const fresh = batch.filter((f) => !known.has(f.accessionNumber));
    if (fresh.length) {
      records += (await tx.filing.createMany({ data: fresh.map(row), skipDuplicates: true })).count;
      for (const f of fresh) if (dilutionRelevant(f)) dilution.add(padCik(f.cik));
      const added = fresh.map((f) => {
        const cik = padCik(f.cik);
        return { type: 'filing.added', orgId: null, payload: { accessionNumber: f.accessionNumber, cik, form: f.form, filedAt: f.filedAt, tickers: tickersByCik.get(cik) ?? [] } };
      });
      events.push(...(await recordEvents(tx, added)));
    }
    for (const f of batch) {
      const before = known.get(f.accessionNumber);
      if (!before) continue;
      const next = row(f);
      // Only fill in or correct metadata; never blank what is known.
      const changes = Object.fromEntries(
        Object.entries(next).filter(([k, v]) => v !== null && !(Array.isArray(v) && v.length === 0) && JSON.stringify(v) !== JSON.stringify((before as Record<string, unknown>)[k])),
      );
      if (Object.keys(changes).length) {
        await tx.filing.update({ where: { accessionNumber: f.accessionNumber }, data: changes });
        records++;
        // relevant before or after: records built from what it was are rebuilt too
        if (dilutionRelevant(before) || dilutionRelevant({ form: (changes.form as string | undefined) ?? before.form, items: (changes.items as string[] | undefined) ?? before.items })) dilution.add(before.cik);
      }
    }
  }
  if (buildDilution && dilution.size) await materializeDilution(tx, [...dilution]);
  return { records, events };
}

/** Records that the filing's own document was ingested, from this source item. */
export async function markDocumentIngested(tx: Tx, accessionNumber: string, sourceKey: string, items?: string[]): Promise<void> {
  await tx.filing.update({ where: { accessionNumber }, data: { documentSourceKey: sourceKey, ...(items?.length ? { items } : {}) } });
}
