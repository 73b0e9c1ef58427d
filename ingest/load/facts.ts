// XBRL facts and concept labels. The same fact reaching us twice (companyfacts and the filing's
// own XBRL) has the same key and is stored once.
import type { ConceptRecord, FactRecord } from '../parsers/xbrl/companyFacts.ts';
import type { Step, Tx } from '../handlers.ts';
import { chunks, day, digest, padCik } from '../../core/rows.ts';
import { insertRows, insertRowsReturning, type Columns } from '../../prisma/unnestInsert.ts';
import { buildFinancials, dropStaged, publishStaged, stagePeriods, statementFacts, statementTags } from '../../derived/financials.ts';
import { materializeDilution } from '../../derived/dilution/materialize.ts';
import { ensureEntities } from './entities.ts';
import { recordEvents } from '../../subscriptions/events.ts';

/**
 * The company's CIK (ten decimal digits, which are hex digits too), then the last 22 hex digits of
 * a digest of (cik, taxonomy, tag, unit, period, accession, dimensions): 32 hex digits, stored as a
 * uuid. Leading with the CIK keeps one company's facts together in the unique index, so a load
 * writes to a few of its pages at a time rather than to random pages across the whole index (once
 * the index outgrows the server's buffers, random pages halve the load's rate).
 */
export function factKey(f: FactRecord): string {
  const dimensions = Object.entries(f.dimensions).sort(([a], [b]) => a.localeCompare(b)).map(([axis, member]) => `${axis}=${member}`).join(';');
  return keyFromDigest(f.cik, digest(f.cik, f.taxonomy, f.tag, f.unit, f.periodStart, f.periodEnd, f.accessionNumber, dimensions));
}

/** A factKey from the 32 hex digits of its digest (core/rows.ts digest). */
export function keyFromDigest(cik: string, digestHex: string): string {
  return padCik(cik) + digestHex.slice(10, 32);
}

/** Facts a step writes, statement tags a step reads: a few tens of milliseconds each on the embedded database. */
const factsPerStep = 500;
const statementTagsPerStep = 40;
/** Statement periods a step stages (each a body of some 16 KB of JSON). */
const periodsPerStep = 30;

/**
 * Writes facts a chunk a step, then rebuilds what is derived from them (concept summaries,
 * statements, dilution records) of each company they add to in one more step: a read sees a
 * company's derived rows from before the item or after it, never half rebuilt.
 */
export async function loadFacts(step: Step, facts: FactRecord[], concepts: ConceptRecord[], source: string, entityName?: string): Promise<number> {
  // every date is checked before the first step: a file with one bad date is refused whole (each
  // distinct date once: a company's tens of thousands of facts share a few hundred dates, and
  // checking each fact's took 40 ms of the server's thread for a large company)
  const checked = new Set<string>();
  const check = (date: string | null) => {
    if (date === null || checked.has(date)) return;
    day(date);
    checked.add(date);
  };
  for (const f of facts) {
    check(f.periodStart);
    check(f.periodEnd);
    check(f.filedAt);
  }
  const ciks = [...new Set(facts.map((f) => f.cik))];
  let written = await step(async (tx) => {
    await ensureEntities(tx, ciks.map((cik) => ({ cik, name: entityName ?? null })));
    return insertRows(tx, 'Concept', conceptColumns, concepts, { onConflict: 'ON CONFLICT DO NOTHING', batch: 2000 });
  });
  // the filings whose facts are new, per company: what `facts.added` announces (monitors watch it)
  const added = new Map<string, Set<string>>();
  for (const batch of chunks(facts, factsPerStep)) {
    const inserted = await step((tx) => insertFacts(tx, batch, source));
    written += inserted.length;
    for (const { cik, accessionNumber } of inserted) (added.get(cik) ?? added.set(cik, new Set()).get(cik)!).add(accessionNumber);
  }
  if (written) {
    // Each kind of derived row is replaced in a step of its own. The statements are read a few
    // tags a step, built between steps, staged a few periods a step and published in one.
    await step((tx) => summariseConcepts(tx, ciks));
    for (const cik of ciks) {
      let facts: FactRecord[] = [];
      for (const tags of chunks(statementTags, statementTagsPerStep)) facts = facts.concat(await step((tx) => statementFacts(tx, cik, tags)));
      const built = await buildFinancials(cik, facts);
      await step((tx) => dropStaged(tx, cik));
      for (const periods of chunks(built.periods, periodsPerStep)) await step((tx) => stagePeriods(tx, cik, periods));
      await step((tx) => publishStaged(tx, cik, built));
    }
    await step(async (tx) => {
      await materializeDilution(tx, ciks);
      await recordEvents(tx, [...added].map(([cik, accessions]) => ({ type: 'facts.added', orgId: null, payload: { cik, accessionNumbers: [...accessions].sort(), source } })));
    });
  }
  return written;
}

/**
 * Rebuilds the CompanyConcept rows of these companies from their facts (same transaction), written
 * company by company: a read of one company's summaries (its coverage, a tag's resolution) then
 * touches a few pages, not one page per row as rows in hash order left them across a batch. The
 * order is bytewise (COLLATE "C"), which the grouping cannot share: the facts are grouped by hash
 * where the transaction's work_mem allows it (the bulk build's does), and only the groups are
 * sorted, not every fact in the database's collation (a third of the time for 50 companies).
 */
export async function summariseConcepts(tx: Tx, ciks: string[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM "CompanyConcept" WHERE "cik" = ANY(${ciks}::text[])`;
  await tx.$executeRaw`
    INSERT INTO "CompanyConcept" ("cik", "taxonomy", "tag", "unit", "hasDimensions", "factCount", "firstPeriodEnd", "lastPeriodEnd", "lastFiledAt")
    SELECT "cik", "taxonomy", "tag", "unit", "hasDimensions", count(*)::int, min("periodEnd"), max("periodEnd"), max("filedAt")
    FROM "Fact" WHERE "cik" = ANY(${ciks}::text[])
    GROUP BY "cik", "taxonomy", "tag", "unit", "hasDimensions"
    ORDER BY "cik" COLLATE "C", "tag" COLLATE "C", "taxonomy" COLLATE "C", "unit" COLLATE "C", "hasDimensions"`;
}

/** A fact as insertFacts writes it: with its key and the source it came from. */
type FactRow = { fact: FactRecord; key: string; source: string };

const factColumns: Columns<FactRow> = [
  ['factKey', 'uuid', (r) => r.key],
  ['cik', 'text', (r) => r.fact.cik],
  ['taxonomy', 'text', (r) => r.fact.taxonomy],
  ['tag', 'text', (r) => r.fact.tag],
  ['unit', 'text', (r) => r.fact.unit],
  ['value', 'text', (r) => r.fact.value],
  ['periodStart', 'date', (r) => r.fact.periodStart],
  ['periodEnd', 'date', (r) => r.fact.periodEnd],
  ['isInstant', 'boolean', (r) => r.fact.isInstant],
  ['fy', 'integer', (r) => r.fact.fy],
  ['fp', 'text', (r) => r.fact.fp],
  ['form', 'text', (r) => r.fact.form],
  ['frame', 'text', (r) => r.fact.frame],
  ['accessionNumber', 'text', (r) => r.fact.accessionNumber],
  ['filedAt', 'date', (r) => r.fact.filedAt],
  ['dimensions', 'jsonb', (r) => r.fact.dimensions],
  ['hasDimensions', 'boolean', (r) => Object.keys(r.fact.dimensions).length > 0],
  ['decimals', 'text', (r) => r.fact.decimals],
  ['source', 'text', (r) => r.source],
];

const conceptColumns: Columns<ConceptRecord> = [
  ['taxonomy', 'text', (c) => c.taxonomy],
  ['tag', 'text', (c) => c.tag],
  ['label', 'text', (c) => c.label],
  ['description', 'text', (c) => c.description],
];

/**
 * A chunk of facts in one statement (prisma/unnestInsert.ts). Prisma's createMany built a
 * statement per row set in memory, which for a 4 MB companyfacts file cost seconds and over a
 * gigabyte.
 */
async function insertFacts(tx: Tx, batch: FactRecord[], source: string): Promise<{ cik: string; accessionNumber: string }[]> {
  const rows = batch.map((fact) => ({ fact, key: factKey(fact), source }));
  return insertRowsReturning(tx, 'Fact', factColumns, rows, '"cik", "accessionNumber"', { onConflict: 'ON CONFLICT ("factKey") DO NOTHING' });
}
