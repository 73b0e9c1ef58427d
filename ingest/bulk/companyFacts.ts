// One companyfacts member: parsed by the companyfacts parser, its facts copied into the staging
// table and moved into "Fact" with the same factKey the item ingest computes, its entity and
// concepts written as companyFactsHandler writes them, and `facts.added` recorded per company.
import * as crypto from 'node:crypto';
import { parseCompanyFacts, type ConceptRecord, type FactRecord } from '../parsers/xbrl/companyFacts.ts';
import { factKey, keyFromDigest } from '../load/facts.ts';
import type { BulkSession } from './connection.ts';
import { copyField } from './copyText.ts';
import { recordBulkEvents } from './events.ts';
import { conceptKey, type LoadContext, type LoadedMember, type PreparedMember } from './member.ts';
import { factColumnList, factColumns } from './staging.ts';

const source = 'companyfacts';

/** crypto.hash (Node 20.12 and later): one call, no Hash object per fact. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;

/** A companyfacts member parsed and encoded: plain data, so that a prepare thread can hand it over. */
export interface CompanyFactsRows {
  cik: string;
  /** facts in the file, a fact stated twice counted twice */
  rowCount: number;
  entityName: string;
  concepts: ConceptRecord[];
  facts: StagedFacts;
}

export function prepareCompanyFacts(text: string): CompanyFactsRows {
  const parsed = parseCompanyFacts(text);
  // A fact stated twice in the file is written once, the first time, as ON CONFLICT DO NOTHING keeps it.
  const seen = new Set<string>();
  const accessions = new Set<string>();
  let rows = '';
  for (const f of parsed.facts) {
    const key = keyOf(f);
    if (seen.has(key)) continue;
    seen.add(key);
    accessions.add(f.accessionNumber);
    rows += factLine(key, f);
  }
  const facts: StagedFacts = { cik: parsed.cik, rows, count: seen.size, accessions: [...accessions].sort() };
  return { cik: parsed.cik, rowCount: parsed.facts.length, entityName: parsed.entityName, concepts: parsed.concepts, facts };
}

/** The prepared rows as a member the runner loads. */
export function companyFactsMember(prepared: CompanyFactsRows): PreparedMember {
  return {
    cik: prepared.cik,
    rowCount: prepared.rowCount,
    load: (session, context) => loadCompanyFacts(session, context, prepared.entityName, prepared.concepts, prepared.facts),
  };
}

/**
 * factKey, with the one-shot hash for the facts companyfacts carries (no dimensions): the same
 * digest of the same parts (core/rows.ts digest), at a third of the cost per fact.
 */
function keyOf(f: FactRecord): string {
  if (!oneShotHash || Object.keys(f.dimensions).length) return factKey(f);
  return keyFromDigest(f.cik, oneShotHash('sha256', `${f.cik}\u0001${f.taxonomy}\u0001${f.tag}\u0001${f.unit}\u0001${f.periodStart ?? ''}\u0001${f.periodEnd}\u0001${f.accessionNumber}\u0001`));
}

/** One fact as a COPY line, in factColumns order. */
function factLine(key: string, f: FactRecord): string {
  const hasDimensions = Object.keys(f.dimensions).length > 0;
  return (
    `${key}\t${text(f.cik)}\t${text(f.taxonomy)}\t${text(f.tag)}\t${text(f.unit)}\t${text(f.value)}\t${text(f.periodStart)}\t${text(f.periodEnd)}\t${f.isInstant ? 't' : 'f'}\t` +
    `${f.fy === null ? '\\N' : f.fy}\t${text(f.fp)}\t${text(f.form)}\t${text(f.frame)}\t${text(f.accessionNumber)}\t${text(f.filedAt)}\t` +
    `${hasDimensions ? copyField(JSON.stringify(f.dimensions)) : '{}'}\t${hasDimensions ? 't' : 'f'}\t${text(f.decimals)}\t${source}\n`
  );
}

const text = (value: string | null) => copyField(value);

interface StagedFacts {
  cik: string;
  /** COPY text, one line per distinct fact */
  rows: string;
  count: number;
  /** the filings the facts cite, sorted */
  accessions: string[];
}

/**
 * The company's facts into "Fact". A company the database holds no fact of (every company, the
 * first time) has its rows copied straight in: a factKey digests the CIK, so none can conflict.
 * Otherwise they go through the staging table and ON CONFLICT DO NOTHING keeps the ones held.
 * On a first load there is no index by company to ask, and no need: none is held.
 */
async function insertFacts(session: BulkSession, context: LoadContext, facts: StagedFacts): Promise<{ cik: string; accessions: string[]; n: number }[]> {
  const held = context.firstFactLoad ? undefined : (await session.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM "Fact" WHERE "cik" = $1) AS "any"`, [facts.cik]))[0];
  if (!held?.any) {
    await session.copyIn('"Fact"', factColumns, facts.rows);
    return facts.count ? [{ cik: facts.cik, accessions: facts.accessions, n: facts.count }] : [];
  }
  await session.copyIn('bulk_fact', factColumns, facts.rows);
  // the filings whose facts are new, per company: what `facts.added` announces (monitors watch it)
  return session.query<{ cik: string; accessions: string[]; n: number }>(
    `WITH inserted AS (
       INSERT INTO "Fact" (${factColumnList}) SELECT ${factColumnList} FROM bulk_fact
       ON CONFLICT ("factKey") DO NOTHING RETURNING "cik", "accessionNumber"
     ) SELECT "cik", array_agg(DISTINCT "accessionNumber" COLLATE "C" ORDER BY "accessionNumber" COLLATE "C") AS "accessions", count(*)::int AS n FROM inserted GROUP BY "cik" ORDER BY "cik"`,
  );
}

async function loadCompanyFacts(session: BulkSession, context: LoadContext, entityName: string, concepts: ConceptRecord[], facts: StagedFacts): Promise<LoadedMember> {
  // as upsertEntity: the companyfacts name is the entity's name from now on
  await session.query(
    `INSERT INTO "Entity" ("cik", "name", "updatedAt") VALUES ($1, $2, now())
     ON CONFLICT ("cik") DO UPDATE SET "name" = EXCLUDED."name", "updatedAt" = EXCLUDED."updatedAt"`,
    [facts.cik, entityName],
  );
  const added = await insertFacts(session, context, facts);
  // After the facts, in one order: a concept another member's transaction is inserting too (every
  // company cites us-gaap's) waits for that transaction's commit, which is then moments away, and
  // two such waits never cross. Concepts an earlier load of the run wrote are not sent again.
  const sorted = concepts.filter((c) => !context.conceptsHeld.has(conceptKey(c))).sort((a, b) => (a.taxonomy < b.taxonomy ? -1 : a.taxonomy > b.taxonomy ? 1 : a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  if (sorted.length) {
    await session.query(
      `INSERT INTO "Concept" ("taxonomy", "tag", "label", "description") SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING`,
      [sorted.map((c) => c.taxonomy), sorted.map((c) => c.tag), sorted.map((c) => c.label), sorted.map((c) => c.description)],
    );
  }
  const factsWritten = added.reduce((sum, a) => sum + a.n, 0);
  // A member's records are its facts: which of two members written side by side inserts a concept
  // they share is a matter of timing, and a resumed run must record what an uninterrupted one does.
  const records = factsWritten;
  const events = await recordBulkEvents(session, added.map((a) => ({ type: 'facts.added', payload: { cik: a.cik, accessionNumbers: a.accessions, source } })));
  // what loadFacts rebuilds when it wrote anything: the company's summaries, statements and dilution inputs
  return { records, rowsWritten: factsWritten, events, derived: records > 0 ? 'facts' : null, concepts: sorted.map(conceptKey) };
}
