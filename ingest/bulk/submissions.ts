// Submissions members (a company's file or an overflow page): parsed by the submissions parser and
// written as submissionsHandler writes them (ingest/kinds/reference.ts): the entity, its filings
// (new ones added with `filing.added`, known ones brought up to date without blanking anything),
// and the index events of their forms and 8-K items. Most members are small (a few hundred
// filings), so several are written together, set-wise, in one transaction: the same rows and
// events as writing them one after the other, in a handful of statements instead of a handful
// per member.
import { parseSubmissions } from '../parsers/edgar/submissions.ts';
import { filingRow, type FilingFields } from '../load/filings.ts';
import { indexEventRow, indexEvents } from '../load/events.ts';
import { dilutionRelevant } from '../../derived/dilution/materialize.ts';
import { evidence, type Added } from '../load/signals.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import type { BulkSession } from './connection.ts';
import { copyLine } from './copyText.ts';
import { recordBulkEvents, type NewEvent } from './events.ts';
import type { LoadedMember, PendingDerived, PreparedMember } from './member.ts';
import { eventColumnList, eventColumns, filingColumnList, stagedFilingColumns } from './staging.ts';

const isoDay = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

type Entity = ReturnType<typeof parseSubmissions>['entity'];

/** A submissions member parsed and encoded: plain data, so that a prepare thread can hand it over. */
export interface SubmissionsRows {
  cik: string | null;
  /** filings listed */
  rowCount: number;
  entity: Entity;
  tickers: string[];
  /** each filing's accession number and its row in COPY text (filingColumns) */
  filings: { accessionNumber: string; line: string }[];
  /** index event rows in COPY text (eventColumns), with the ids they make */
  events: { id: string; line: string }[];
}

export type PreparedSubmissions = SubmissionsRows & PreparedMember;

export function prepareSubmissions(text: string, name: string, sourceKey: string): SubmissionsRows {
  const page = parseSubmissions(text, name);
  const filings: FilingFields[] = page.filings.map(({ filingDate, isXBRL, isInlineXBRL, ...f }) => ({ ...f, filedAt: filingDate, isXbrl: isXBRL, isInlineXbrl: isInlineXBRL }));
  return {
    cik: page.entity?.cik ?? name.match(/CIK(\d{10})/)?.[1] ?? null,
    rowCount: filings.length,
    entity: page.entity,
    tickers: page.entity?.tickers ?? [],
    filings: filings.map((f) => {
      const r = filingRow(f);
      const line = copyLine([
        r.accessionNumber, r.cik, r.form, isoDay(r.filedAt), r.acceptedAt?.toISOString() ?? null, r.orderedAt.toISOString(), isoDay(r.reportDate), r.items,
        r.primaryDocument, r.primaryDocDescription, r.size, r.isXbrl, r.isInlineXbrl, r.fileNumber, r.filmNumber,
      ]);
      return { accessionNumber: r.accessionNumber, line };
    }),
    events: filings
      .flatMap((f) => indexEvents({ ...f, filedAt: f.filedAt! }))
      .map((e) => {
        const r = indexEventRow(e, sourceKey);
        return { id: r.id, line: copyLine([r.id, r.accessionNumber, r.cik, r.item, r.type, isoDay(r.eventDate), isoDay(r.filedAt), isoDay(r.orderedAt), r.fromIndexOnly, r.confidence, JSON.stringify(r.data), r.sourceKey]) };
      }),
  };
}

/** The prepared rows as a member the runner loads (alone, or with others: loadSubmissions). */
export function submissionsMember(rows: SubmissionsRows): PreparedSubmissions {
  const member: PreparedSubmissions = {
    ...rows,
    async load(session, context) {
      const { members, events } = await loadSubmissions(session, [member], context.announceFrom);
      return { ...members[0]!, events };
    },
  };
  return member;
}

/** What loading several members together made of each (in their order), and the events of them all. */
export interface LoadedSubmissions {
  members: Omit<LoadedMember, 'events'>[];
  events: BusEvent[];
}

/** What one member of a load has written so far. */
interface Tally {
  records: number;
  rowsWritten: number;
  /** a filing of an offering form or a dilution 8-K item was added or changed */
  dilution: boolean;
  added: NewEvent[];
}

/**
 * Writes the members as writing them one after the other, in their order, would. What they add
 * filed before `announceFrom` (YYYY-MM-DD) is written without an event.
 */
export async function loadSubmissions(session: BulkSession, members: SubmissionsRows[], announceFrom: string): Promise<LoadedSubmissions> {
  const tally = members.map((): Tally => ({ records: 0, rowsWritten: 0, dilution: false, added: [] }));
  for (const [m, member] of members.entries()) tally[m]!.records += await writeEntity(session, member.entity, member.cik);
  await writeFilings(session, members, tally);
  await writeIndexEvents(session, members, tally);
  const news = (e: NewEvent) => typeof e.payload.filedAt === 'string' && e.payload.filedAt >= announceFrom;
  const events = await recordBulkEvents(session, tally.flatMap((t) => t.added.filter(news)));
  const derived = (t: Tally): PendingDerived => (t.dilution ? 'dilution' : t.added.some((e) => evidence(e as Added)) ? 'signals' : null);
  return { members: tally.map((t) => ({ records: t.records, rowsWritten: t.rowsWritten, derived: derived(t) })), events };
}

/** As upsertEntity for a company's file (a later source never blanks what an earlier one knew), ensureEntities for an overflow page. */
async function writeEntity(session: BulkSession, entity: Entity, cik: string | null): Promise<number> {
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
const replace = ['cik', 'form', 'isXbrl', 'isInlineXbrl'];
const kept = (column: string) => `COALESCE(s."${column}", f."${column}")`;

const updateKnownSql = `
  UPDATE "Filing" f SET
    ${replace.map((c) => `"${c}" = s."${c}"`).join(', ')},
    ${fillIn.map((c) => `"${c}" = ${kept(c)}`).join(', ')},
    -- the order date follows the dates the row keeps (as orderDate: acceptance, else filing, else report date)
    "orderedAt" = COALESCE(${kept('acceptedAt')}, ${kept('filedAt')}::timestamp, ${kept('reportDate')}::timestamp, '1900-01-01'),
    "items" = CASE WHEN cardinality(s."items") > 0 THEN s."items" ELSE f."items" END,
    "updatedAt" = now()
  FROM bulk_filing s, "Filing" o
  WHERE s."rank" = $1 AND f."accessionNumber" = s."accessionNumber" AND o."accessionNumber" = f."accessionNumber" AND (
    ${replace.map((c) => `s."${c}" IS DISTINCT FROM f."${c}"`).join(' OR ')} OR
    ${fillIn.map((c) => `(s."${c}" IS NOT NULL AND s."${c}" IS DISTINCT FROM f."${c}")`).join(' OR ')} OR
    (cardinality(s."items") > 0 AND s."items" IS DISTINCT FROM f."items"))
  RETURNING s."member", o."cik" AS "cikBefore", o."form" AS "formBefore", o."items" AS "itemsBefore", f."form", f."items"`;

const insertNewSql = `
  INSERT INTO "Filing" (${filingColumnList}, "updatedAt") SELECT ${filingColumnList}, now() FROM bulk_filing WHERE "rank" = $1
  ON CONFLICT ("accessionNumber") DO NOTHING
  RETURNING "accessionNumber", "cik", "form", "items", to_char("filedAt", 'YYYY-MM-DD') AS "filedAt"`;

/**
 * Every member's filings copied at once; then, rank by rank (a filing's rank is the number of the
 * load's earlier members that list it too: co-registrants share filings), known filings brought up
 * to date and new ones inserted, so that a filing two members list is inserted by the first and
 * updated by the second, as one after the other would.
 */
async function writeFilings(session: BulkSession, members: SubmissionsRows[], tally: Tally[]): Promise<void> {
  const listedBy: Map<string, number>[] = []; // per rank: accession number -> member
  let rows = '';
  const seen = new Map<string, number>();
  for (const [m, member] of members.entries()) {
    for (const f of member.filings) {
      const rank = (seen.get(f.accessionNumber) ?? 0) + 1;
      seen.set(f.accessionNumber, rank);
      (listedBy[rank - 1] ??= new Map()).set(f.accessionNumber, m);
      rows += `${m}\t${rank}\t${f.line}`;
    }
  }
  if (!rows) return;
  await session.copyIn('bulk_filing', stagedFilingColumns, rows);
  for (let rank = 1; rank <= listedBy.length; rank++) {
    // known filings first, so that the ones inserted next are not taken for known ones
    const updated = await session.query<{ member: number; cikBefore: string; formBefore: string; itemsBefore: string[]; form: string; items: string[] }>(updateKnownSql, [rank]);
    for (const u of updated) {
      const t = tally[u.member]!;
      t.records++;
      t.rowsWritten++;
      t.dilution ||= dilutionRelevant({ form: u.formBefore, items: u.itemsBefore }) || dilutionRelevant(u);
    }
    const inserted = await session.query<{ accessionNumber: string; cik: string; form: string; items: string[]; filedAt: string | null }>(insertNewSql, [rank]);
    for (const f of inserted) {
      const m = listedBy[rank - 1]!.get(f.accessionNumber)!;
      const t = tally[m]!;
      t.records++;
      t.rowsWritten++;
      t.dilution ||= dilutionRelevant(f);
      t.added.push({ type: 'filing.added', payload: { accessionNumber: f.accessionNumber, cik: f.cik, form: f.form, filedAt: f.filedAt, tickers: members[m]!.tickers } });
    }
  }
}

/** Index events, except where the filing's own document already gave that event (as writeIndexEvents); an event two members give is the first one's. */
async function writeIndexEvents(session: BulkSession, members: SubmissionsRows[], tally: Tally[]): Promise<void> {
  const givenBy = new Map<string, number>();
  let rows = '';
  for (const [m, member] of members.entries()) {
    for (const e of member.events) {
      if (givenBy.has(e.id)) continue;
      givenBy.set(e.id, m);
      rows += e.line;
    }
  }
  if (!rows) return;
  await session.copyIn('bulk_event', eventColumns, rows);
  const written = await session.query<{ id: string; accessionNumber: string | null; cik: string | null; item: string | null; type: string; filedAt: string | null }>(
    `INSERT INTO "FilingEvent" (${eventColumnList}) SELECT ${eventColumnList} FROM bulk_event s
     WHERE NOT EXISTS (SELECT 1 FROM "FilingEvent" d WHERE NOT d."fromIndexOnly" AND d."accessionNumber" = s."accessionNumber" AND d."type" = s."type")
     ON CONFLICT ("id") DO NOTHING
     RETURNING "id", "accessionNumber", "cik", "item", "type", to_char("filedAt", 'YYYY-MM-DD') AS "filedAt"`,
  );
  for (const r of written) {
    const t = tally[givenBy.get(r.id)!]!;
    t.records++;
    t.added.push({ type: 'filing_event.added', payload: { id: r.id, accessionNumber: r.accessionNumber, cik: r.cik, item: r.item, eventType: r.type, filedAt: r.filedAt } });
  }
}
