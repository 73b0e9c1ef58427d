// XBRL facts and concept labels. The same fact reaching us twice (companyfacts and the filing's
// own XBRL) has the same key and is stored once.
import type { ConceptRecord, FactRecord } from '../parsers/xbrl/companyFacts.ts';
import type { Tx } from '../handlers.ts';
import { chunks, day, digest } from '../../core/rows.ts';
import { materializeFinancials } from '../../derived/financials.ts';
import { materializeDilution } from '../../derived/dilution/materialize.ts';
import { ensureEntities } from './entities.ts';
import { recordEvents } from '../../subscriptions/events.ts';

export function factKey(f: FactRecord): string {
  const dimensions = Object.entries(f.dimensions).sort(([a], [b]) => a.localeCompare(b)).map(([axis, member]) => `${axis}=${member}`).join(';');
  return digest(f.cik, f.taxonomy, f.tag, f.unit, f.periodStart, f.periodEnd, f.accessionNumber, dimensions);
}

export async function loadFacts(tx: Tx, facts: FactRecord[], concepts: ConceptRecord[], source: string, entityName?: string): Promise<number> {
  const ciks = [...new Set(facts.map((f) => f.cik))];
  await ensureEntities(tx, ciks.map((cik) => ({ cik, name: entityName ?? null })));
  let written = 0;
  for (const batch of chunks(concepts, 2000)) written += (await tx.concept.createMany({ data: batch, skipDuplicates: true })).count;
  // the filings whose facts are new, per company: what `facts.added` announces (monitors watch it)
  const added = new Map<string, Set<string>>();
  for (const batch of chunks(facts, 5000)) {
    const inserted = await insertFacts(tx, batch, source);
    written += inserted.length;
    for (const { cik, accessionNumber } of inserted) (added.get(cik) ?? added.set(cik, new Set()).get(cik)!).add(accessionNumber);
  }
  if (written) {
    await summariseConcepts(tx, ciks);
    for (const cik of ciks) await materializeFinancials(tx, cik);
    await materializeDilution(tx, ciks);
    await recordEvents(tx, [...added].map(([cik, accessions]) => ({ type: 'facts.added', orgId: null, payload: { cik, accessionNumbers: [...accessions].sort(), source } })));
  }
  return written;
}

/** Rebuilds the CompanyConcept rows of these companies from their facts (same transaction). */
export async function summariseConcepts(tx: Tx, ciks: string[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM "CompanyConcept" WHERE "cik" = ANY(${ciks}::text[])`;
  await tx.$executeRaw`
    INSERT INTO "CompanyConcept" ("cik", "taxonomy", "tag", "unit", "hasDimensions", "factCount", "firstPeriodEnd", "lastPeriodEnd", "lastFiledAt")
    SELECT "cik", "taxonomy", "tag", "unit", "hasDimensions", count(*)::int, min("periodEnd"), max("periodEnd"), max("filedAt")
    FROM "Fact" WHERE "cik" = ANY(${ciks}::text[])
    GROUP BY "cik", "taxonomy", "tag", "unit", "hasDimensions"`;
}

/** Fact columns and their SQL types, in the order insertFacts passes them. */
const factColumns = [
  ['factKey', 'text'],
  ['cik', 'text'],
  ['taxonomy', 'text'],
  ['tag', 'text'],
  ['unit', 'text'],
  ['value', 'text'],
  ['periodStart', 'date'],
  ['periodEnd', 'date'],
  ['isInstant', 'boolean'],
  ['fy', 'integer'],
  ['fp', 'text'],
  ['form', 'text'],
  ['frame', 'text'],
  ['accessionNumber', 'text'],
  ['filedAt', 'date'],
  ['dimensions', 'jsonb'],
  ['hasDimensions', 'boolean'],
  ['decimals', 'text'],
  ['source', 'text'],
] as const;

const insertFactsSql = `INSERT INTO "Fact" (${factColumns.map(([c]) => `"${c}"`).join(', ')})
  SELECT * FROM unnest(${factColumns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
  ON CONFLICT ("factKey") DO NOTHING
  RETURNING "cik", "accessionNumber"`;

/**
 * Thousands of facts in one statement: one array per column, unnested by the database. Prisma's
 * createMany builds a statement per row set in memory, which for a 4 MB companyfacts file cost
 * seconds and over a gigabyte; this sends the values as they are. Dates are checked (day()) first.
 */
async function insertFacts(tx: Tx, batch: FactRecord[], source: string): Promise<{ cik: string; accessionNumber: string }[]> {
  const rows = batch.map((f) => {
    day(f.periodStart);
    day(f.periodEnd);
    day(f.filedAt);
    const hasDimensions = Object.keys(f.dimensions).length > 0;
    return [factKey(f), f.cik, f.taxonomy, f.tag, f.unit, f.value, f.periodStart, f.periodEnd, f.isInstant, f.fy, f.fp, f.form, f.frame, f.accessionNumber, f.filedAt, JSON.stringify(f.dimensions), hasDimensions, f.decimals, source];
  });
  const columns = factColumns.map((_, i) => rows.map((row) => row[i]));
  return tx.$queryRawUnsafe(insertFactsSql, ...columns);
}
