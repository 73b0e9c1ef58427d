// One submissions member (a company's file or an overflow page): parsed by the submissions
// parser and written as submissionsHandler writes it (ingest/kinds/reference.ts): the entity,
// its filings (new ones added with `filing.added`, known ones brought up to date without
// blanking anything), and the index events of their forms and 8-K items.
import { parseSubmissions } from '../parsers/edgar/submissions.ts';
import { filingRow, type FilingFields } from '../load/filings.ts';
import { indexEventRow, indexEvents } from '../load/events.ts';
import { dilutionRelevant } from '../../derived/dilution/materialize.ts';
import { evidence, type Added } from '../load/signals.ts';
import type { BulkSession } from './connection.ts';
import { copyLine } from './copyText.ts';
import { recordBulkEvents, type NewEvent } from './events.ts';
import type { LoadedMember, PreparedMember } from './member.ts';
import { eventColumnList, eventColumns, filingColumnList, filingColumns } from './staging.ts';

const isoDay = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

export function prepareSubmissions(text: string, name: string, sourceKey: string): PreparedMember {
  const page = parseSubmissions(text, name);
  const filings: FilingFields[] = page.filings.map(({ filingDate, isXBRL, isInlineXBRL, ...f }) => ({ ...f, filedAt: filingDate, isXbrl: isXBRL, isInlineXbrl: isInlineXBRL }));
  const cik = page.entity?.cik ?? name.match(/CIK(\d{10})/)?.[1] ?? null;
  let filingRows = '';
  for (const f of filings) {
    const r = filingRow(f);
    filingRows += copyLine([
      r.accessionNumber, r.cik, r.form, isoDay(r.filedAt), r.acceptedAt?.toISOString() ?? null, r.orderedAt.toISOString(), isoDay(r.reportDate), r.items,
      r.primaryDocument, r.primaryDocDescription, r.size, r.isXbrl, r.isInlineXbrl, r.fileNumber, r.filmNumber,
    ]);
  }
  let eventRows = '';
  for (const e of filings.flatMap((f) => indexEvents({ ...f, filedAt: f.filedAt! }))) {
    const r = indexEventRow(e, sourceKey);
    eventRows += copyLine([r.id, r.accessionNumber, r.cik, r.item, r.type, isoDay(r.eventDate), isoDay(r.filedAt), isoDay(r.orderedAt), r.fromIndexOnly, r.confidence, JSON.stringify(r.data), r.sourceKey]);
  }
  return {
    cik,
    rowCount: filings.length,
    async load(session) {
      const entityRecords = await writeEntity(session, page.entity, cik);
      const tickers = page.entity?.tickers ?? [];
      const filingResult = await writeFilings(session, filingRows, tickers);
      const indexEventResult = await writeIndexEvents(session, eventRows);
      const added = [...filingResult.events, ...indexEventResult.events];
      const events = await recordBulkEvents(session, added);
      const loaded: LoadedMember = {
        records: entityRecords + filingResult.records + indexEventResult.records,
        rowsWritten: filingResult.records,
        events,
        derived: filingResult.dilution ? 'dilution' : added.some((e) => evidence(e as Added)) ? 'signals' : null,
      };
      return loaded;
    },
  };
}

/** As upsertEntity for a company's file (a later source never blanks what an earlier one knew), ensureEntities for an overflow page. */
async function writeEntity(session: BulkSession, entity: ReturnType<typeof parseSubmissions>['entity'], cik: string | null): Promise<number> {
  if (!entity) {
    if (cik) await session.query(`INSERT INTO "Entity" ("cik", "name", "kind", "updatedAt") VALUES ($1, $2, 'issuer', now()) ON CONFLICT ("cik") DO NOTHING`, [cik, `CIK ${cik}`]);
    return 0;
  }
  const kind = entity.insiderTransactionForOwnerExists && !entity.insiderTransactionForIssuerExists && !entity.tickers.length ? 'insider' : 'issuer';
  const keep = (column: string) => `"${column}" = COALESCE(EXCLUDED."${column}", "Entity"."${column}")`;
  await session.query(
    `INSERT INTO "Entity" ("cik", "name", "kind", "entityType", "sic", "sicDescription", "stateOfIncorporation", "fiscalYearEnd", "tickers", "exchanges", "formerNames", "hasSubmissions", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10::text[], $11::jsonb, true, now())
     ON CONFLICT ("cik") DO UPDATE SET "name" = EXCLUDED."name", "kind" = EXCLUDED."kind", ${['entityType', 'sic', 'sicDescription', 'stateOfIncorporation', 'fiscalYearEnd'].map(keep).join(', ')},
       "tickers" = EXCLUDED."tickers", "exchanges" = EXCLUDED."exchanges", "formerNames" = EXCLUDED."formerNames", "hasSubmissions" = true, "updatedAt" = now()`,
    [
      entity.cik, entity.name, kind, entity.entityType, entity.sic, entity.sicDescription, entity.stateOfIncorporation, entity.fiscalYearEnd,
      entity.tickers, entity.exchanges.filter((x): x is string => x !== null), JSON.stringify(entity.formerNames),
    ],
  );
  return 1;
}

/** Metadata a newer file states replaces what is known; what it leaves out (null, no items) keeps what is known. */
const fillIn = ['filedAt', 'acceptedAt', 'reportDate', 'primaryDocument', 'primaryDocDescription', 'size', 'fileNumber', 'filmNumber'];
const replace = ['cik', 'form', 'orderedAt', 'isXbrl', 'isInlineXbrl'];

const updateKnownSql = `
  UPDATE "Filing" f SET
    ${replace.map((c) => `"${c}" = s."${c}"`).join(', ')},
    ${fillIn.map((c) => `"${c}" = COALESCE(s."${c}", f."${c}")`).join(', ')},
    "items" = CASE WHEN cardinality(s."items") > 0 THEN s."items" ELSE f."items" END,
    "updatedAt" = now()
  FROM bulk_filing s, "Filing" o
  WHERE f."accessionNumber" = s."accessionNumber" AND o."accessionNumber" = f."accessionNumber" AND (
    ${replace.map((c) => `s."${c}" IS DISTINCT FROM f."${c}"`).join(' OR ')} OR
    ${fillIn.map((c) => `(s."${c}" IS NOT NULL AND s."${c}" IS DISTINCT FROM f."${c}")`).join(' OR ')} OR
    (cardinality(s."items") > 0 AND s."items" IS DISTINCT FROM f."items"))
  RETURNING o."cik" AS "cikBefore", o."form" AS "formBefore", o."items" AS "itemsBefore", f."form", f."items"`;

const insertNewSql = `
  INSERT INTO "Filing" (${filingColumnList}, "updatedAt") SELECT ${filingColumnList}, now() FROM bulk_filing
  ON CONFLICT ("accessionNumber") DO NOTHING
  RETURNING "accessionNumber", "cik", "form", "items", to_char("filedAt", 'YYYY-MM-DD') AS "filedAt"`;

async function writeFilings(session: BulkSession, rows: string, tickers: string[]): Promise<{ records: number; events: NewEvent[]; dilution: boolean }> {
  if (!rows) return { records: 0, events: [], dilution: false };
  await session.copyIn('bulk_filing', filingColumns, rows);
  // known filings first, so that the ones inserted next are not taken for known ones
  const updated = await session.query<{ cikBefore: string; formBefore: string; itemsBefore: string[]; form: string; items: string[] }>(updateKnownSql);
  const inserted = await session.query<{ accessionNumber: string; cik: string; form: string; items: string[]; filedAt: string | null }>(insertNewSql);
  const dilution = inserted.some(dilutionRelevant) || updated.some((u) => dilutionRelevant({ form: u.formBefore, items: u.itemsBefore }) || dilutionRelevant(u));
  const events = inserted.map((f) => ({ type: 'filing.added', payload: { accessionNumber: f.accessionNumber, cik: f.cik, form: f.form, filedAt: f.filedAt, tickers } }));
  return { records: updated.length + inserted.length, events, dilution };
}

/** Index events, except where the filing's own document already gave that event (as writeIndexEvents). */
async function writeIndexEvents(session: BulkSession, rows: string): Promise<{ records: number; events: NewEvent[] }> {
  if (!rows) return { records: 0, events: [] };
  await session.copyIn('bulk_event', eventColumns, rows);
  const written = await session.query<{ id: string; accessionNumber: string | null; cik: string | null; item: string | null; type: string; filedAt: string | null }>(
    `INSERT INTO "FilingEvent" (${eventColumnList}) SELECT ${eventColumnList} FROM bulk_event s
     WHERE NOT EXISTS (SELECT 1 FROM "FilingEvent" d WHERE NOT d."fromIndexOnly" AND d."accessionNumber" = s."accessionNumber" AND d."type" = s."type")
     ON CONFLICT ("id") DO NOTHING
     RETURNING "id", "accessionNumber", "cik", "item", "type", to_char("filedAt", 'YYYY-MM-DD') AS "filedAt"`,
  );
  const events = written.map((r) => ({ type: 'filing_event.added', payload: { id: r.id, accessionNumber: r.accessionNumber, cik: r.cik, item: r.item, eventType: r.type, filedAt: r.filedAt } }));
  return { records: written.length, events };
}
