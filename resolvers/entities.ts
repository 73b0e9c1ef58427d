// Finding entities: search, and resolving one identifier (ticker, CIK or name) to one entity.
import type { PrismaClient } from '../prisma/db.ts';

export interface Resolution {
  cik: string;
  matchedBy: 'ticker' | 'cik' | 'name_exact' | 'name_prefix' | 'name_contains';
  confidence: number;
}

const confidence = { ticker: 1, cik: 1, name_exact: 0.95, name_prefix: 0.7, name_contains: 0.5 } as const;

/** The best match first, then up to four alternatives. */
export async function resolveEntity(prisma: PrismaClient, identifier: string): Promise<Resolution[]> {
  const value = identifier.trim();
  if (/^\d{1,10}$/.test(value)) {
    const entity = await prisma.entity.findUnique({ where: { cik: value.padStart(10, '0') }, select: { cik: true } });
    if (entity) return [{ cik: entity.cik, matchedBy: 'cik', confidence: confidence.cik }];
  }
  if (/^[A-Za-z][A-Za-z0-9.\-]{0,9}$/.test(value)) {
    const ticker = await prisma.ticker.findUnique({ where: { ticker: value.toUpperCase() } });
    const cik = ticker?.cik ?? (await prisma.entity.findFirst({ where: { tickers: { has: value.toUpperCase() } }, select: { cik: true } }))?.cik;
    if (cik) return [{ cik, matchedBy: 'ticker', confidence: confidence.ticker }];
  }
  const matches: Resolution[] = [];
  const seen = new Set<string>();
  const add = (rows: { cik: string }[], matchedBy: Resolution['matchedBy']) => {
    for (const row of rows) if (!seen.has(row.cik) && matches.length < 5) (seen.add(row.cik), matches.push({ cik: row.cik, matchedBy, confidence: confidence[matchedBy] }));
  };
  add(await prisma.entity.findMany({ where: { name: { equals: value, mode: 'insensitive' } }, select: { cik: true }, take: 5 }), 'name_exact');
  add(await prisma.entity.findMany({ where: { name: { startsWith: value, mode: 'insensitive' } }, select: { cik: true }, orderBy: { name: 'asc' }, take: 5 }), 'name_prefix');
  add(await prisma.entity.findMany({ where: { name: { contains: value, mode: 'insensitive' } }, select: { cik: true }, orderBy: { name: 'asc' }, take: 5 }), 'name_contains');
  return matches;
}

/** The CIK a ticker or CIK names, or null. */
export async function cikFor(prisma: PrismaClient, options: { ticker?: string | null; cik?: string | null }): Promise<string | null> {
  if (options.cik) return options.cik.padStart(10, '0');
  if (!options.ticker) return null;
  const [match] = await resolveEntity(prisma, options.ticker);
  return match?.matchedBy === 'ticker' ? match.cik : null;
}
