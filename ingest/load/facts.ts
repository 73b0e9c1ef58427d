// XBRL facts and concept labels. The same fact reaching us twice (companyfacts and the filing's
// own XBRL) has the same key and is stored once.
import type { ConceptRecord, FactRecord } from '../parsers/companyFacts.ts';
import type { Tx } from '../handlers.ts';
import { chunks, day, digest } from './common.ts';
import { ensureEntities } from './entities.ts';

export function factKey(f: FactRecord): string {
  const dimensions = Object.entries(f.dimensions).sort(([a], [b]) => a.localeCompare(b)).map(([axis, member]) => `${axis}=${member}`).join(';');
  return digest(f.cik, f.taxonomy, f.tag, f.unit, f.periodStart, f.periodEnd, f.accessionNumber, dimensions);
}

export async function loadFacts(tx: Tx, facts: FactRecord[], concepts: ConceptRecord[], source: string, entityName?: string): Promise<number> {
  const ciks = [...new Set(facts.map((f) => f.cik))];
  await ensureEntities(tx, ciks.map((cik) => ({ cik, name: entityName ?? null })));
  let written = 0;
  for (const batch of chunks(concepts, 2000)) written += (await tx.concept.createMany({ data: batch, skipDuplicates: true })).count;
  for (const batch of chunks(facts, 2000)) {
    const rows = batch.map((f) => ({
      factKey: factKey(f),
      cik: f.cik,
      taxonomy: f.taxonomy,
      tag: f.tag,
      unit: f.unit,
      value: f.value,
      periodStart: day(f.periodStart),
      periodEnd: day(f.periodEnd)!,
      isInstant: f.isInstant,
      fy: f.fy,
      fp: f.fp,
      form: f.form,
      frame: f.frame,
      accessionNumber: f.accessionNumber,
      filedAt: day(f.filedAt),
      dimensions: f.dimensions,
      hasDimensions: Object.keys(f.dimensions).length > 0,
      decimals: f.decimals,
      source,
    }));
    written += (await tx.fact.createMany({ data: rows.filter((r) => r.periodEnd), skipDuplicates: true })).count;
  }
  return written;
}
