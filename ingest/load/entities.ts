// Entities and tickers. An entity may first appear as a name in an index or a form and be
// filled in later by its submissions file; a later source never blanks what an earlier one knew.
import type { Tx } from '../handlers.ts';
import { padCik } from '../../core/rows.ts';
import { insertRows, type Columns } from '../../prisma/unnestInsert.ts';

export interface EntityFields {
  cik: string;
  name: string;
  kind?: string;
  entityType?: string | null;
  sic?: string | null;
  sicDescription?: string | null;
  stateOfIncorporation?: string | null;
  fiscalYearEnd?: string | null;
  tickers?: string[];
  exchanges?: string[];
  formerNames?: unknown;
  hasSubmissions?: boolean;
}

const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;

/** Creates or completes an entity; returns how many rows changed (0 or 1). */
export async function upsertEntity(tx: Tx, fields: EntityFields): Promise<number> {
  const cik = padCik(fields.cik);
  const { formerNames, ...rest } = defined({ ...fields, cik });
  const data = { ...rest, ...(formerNames !== undefined ? { formerNames: formerNames as object } : {}) };
  await tx.entity.upsert({ where: { cik }, create: { name: fields.name, ...data, cik }, update: data });
  return 1;
}

/** Makes sure the entities exist (by name only) before rows that point at them are written. */
export async function ensureEntities(tx: Tx, parties: { cik: string | null; name: string | null; kind?: string }[]): Promise<number> {
  const rows = new Map<string, { cik: string; name: string; kind: string }>();
  for (const p of parties) if (p.cik && /^\d{1,10}$/.test(p.cik)) rows.set(padCik(p.cik), { cik: padCik(p.cik), name: p.name ?? `CIK ${padCik(p.cik)}`, kind: p.kind ?? 'issuer' });
  if (!rows.size) return 0;
  const updatedAt = new Date();
  return insertRows(tx, 'Entity', namedEntityColumns, [...rows.values()].map((row) => ({ ...row, updatedAt })), { onConflict: 'ON CONFLICT DO NOTHING' });
}

const namedEntityColumns: Columns<{ cik: string; name: string; kind: string; updatedAt: Date }> = [
  ['cik', 'text', (r) => r.cik],
  ['name', 'text', (r) => r.name],
  ['kind', 'text', (r) => r.kind],
  ['updatedAt', 'timestamp', (r) => r.updatedAt],
];
