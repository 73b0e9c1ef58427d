// What the service holds of one company's filings, counted by form: the company page's coverage
// says in words which kinds of filing it can read and which documents it holds.
import type { PrismaClient } from '../prisma/db.ts';

export interface FormCount {
  form: string;
  /** filings of this form held (index entries, with or without their document) */
  count: number;
  /** of those, the filings whose own document was ingested */
  documentsIngested: number;
}

/** The company's filings held, by form, the most numerous first (ties by form). */
export async function filingCountsByForm(prisma: PrismaClient, cik: string): Promise<FormCount[]> {
  const [all, documents] = await Promise.all([
    prisma.filing.groupBy({ by: ['form'], where: { cik }, _count: { _all: true } }),
    prisma.filing.groupBy({ by: ['form'], where: { cik, documentSourceKey: { not: null } }, _count: { _all: true } }),
  ]);
  const ingested = new Map(documents.map((d) => [d.form, d._count._all]));
  return all
    .map((row) => ({ form: row.form, count: row._count._all, documentsIngested: ingested.get(row.form) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.form.localeCompare(b.form));
}
