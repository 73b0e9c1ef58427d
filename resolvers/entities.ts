// Finding entities: search, and resolving one identifier (ticker, CIK or name) to one entity.
//
// A ticker is a name in time: the SEC's two ticker maps and the issuers' own submissions can
// name different CIKs for one ticker (BLK: BlackRock Inc. in company_tickers.json, the new
// holding company in company_tickers_exchange.json). Every source is asked; when they disagree
// the best match says so with a lower confidence, names the others as alternatives with their
// sources, and reads by ticker cover every CIK the ticker has named.
import { dataVersion, type DataReader } from '../derived/dataCache.ts';
import type { PrismaClient } from '../prisma/db.ts';
import { directRead } from '../prisma/directRead.ts';
import { Prisma } from '../prisma/generated/client/client.ts';
import { isoDay } from '../derived/citations.ts';

export interface MatchSource {
  /** company_tickers | company_tickers_exchange | submissions | name */
  source: string;
  /** when the service read that source */
  asOf: string | null;
}

export interface Resolution {
  cik: string;
  matchedBy: 'ticker' | 'cik' | 'name_exact' | 'name_prefix' | 'name_contains';
  confidence: number;
  /** which sources name this entity for the identifier */
  sources: MatchSource[];
  /** the entity's latest filing the service holds: how current the match is */
  lastFiledAt: string | null;
  /** why this match ranks where it does, when the answer is not certain */
  reason: string | null;
}

const confidence = { ticker: 1, cik: 1, name_exact: 0.95, name_prefix: 0.7, name_contains: 0.5, disputed_ticker: 0.6, disputed_alternative: 0.4 } as const;

/** `CIK0000320193`, `0000320193` and `320193` name one CIK. */
export function cikOf(value: string): string | null {
  const match = value.trim().match(/^(?:CIK)?0*(\d{1,10})$/i);
  return match ? match[1]!.padStart(10, '0') : null;
}

/**
 * Class shares are written BRK.B, BRK/B or BRK-B; EDGAR's maps write BRK-B. A suffix is up to three
 * characters: a warrant series is NE-WTA.
 */
export function tickerOf(value: string): string | null {
  const match = value.trim().match(/^([A-Za-z][A-Za-z0-9]{0,5})(?:[.\-/]([A-Za-z0-9]{1,3}))?$/);
  return match ? (match[2] ? `${match[1]}-${match[2]}` : match[1]!).toUpperCase() : null;
}

/** Every CIK a ticker names, in any source, best first; empty when none does. */
export async function tickerMatches(prisma: PrismaClient, ticker: string): Promise<Resolution[]> {
  // One statement past the client's query engine (prisma/directRead.ts): the sources that name it,
  // each CIK's latest filing with them (a read by ticker that nothing kept waits on its resolution).
  const named = await directRead<{ cik: string; source: string; asOf: Date; lastFiledAt: Date | null }>(prisma, Prisma.sql`
    SELECT m.cik, m.source, m."asOf", (SELECT max(f."filedAt") FROM "Filing" f WHERE f.cik = m.cik) AS "lastFiledAt"
    FROM (
      SELECT cik, source, "seenAt" AS "asOf", 0 AS listing FROM "Ticker" WHERE ticker = ${ticker}
      UNION ALL
      SELECT cik, 'submissions', "updatedAt", 1 FROM "Entity" WHERE tickers @> ARRAY[${ticker}]::text[]
    ) m
    ORDER BY m.listing, m.cik, m.source`);
  const sources = new Map<string, MatchSource[]>();
  const activity = new Map<string, string | null>();
  for (const n of named) {
    sources.set(n.cik, [...(sources.get(n.cik) ?? []), { source: n.source, asOf: n.asOf.toISOString() }]);
    activity.set(n.cik, isoDay(n.lastFiledAt));
  }
  if (!sources.size) return [];
  // The CIK that filed most recently holds the ticker now; then the one more sources agree on.
  const ranked = [...sources.entries()]
    .map(([cik, from]) => ({ cik, from, last: activity.get(cik) ?? null }))
    .sort((a, b) => (b.last ?? '').localeCompare(a.last ?? '') || b.from.length - a.from.length || a.cik.localeCompare(b.cik));
  if (ranked.length === 1) {
    const [only] = ranked;
    return [{ cik: only!.cik, matchedBy: 'ticker', confidence: confidence.ticker, sources: only!.from, lastFiledAt: only!.last, reason: null }];
  }
  const described = ranked.map((r) => `${r.cik} (${r.from.map((s) => s.source).join(', ')}; last filing held ${r.last ?? 'none'})`).join(' vs ');
  return ranked.map((r, i) => ({
    cik: r.cik,
    matchedBy: 'ticker' as const,
    confidence: i === 0 ? confidence.disputed_ticker : confidence.disputed_alternative,
    sources: r.from,
    lastFiledAt: r.last,
    reason: `Sources disagree on ${ticker}: ${described}. ${i === 0 ? 'This one has the most recent filing held' : 'Another has a more recent filing held'}; reads by ticker cover all of them.`,
  }));
}

async function lastFiled(prisma: PrismaClient, ciks: string[]): Promise<Map<string, string | null>> {
  const rows = await prisma.filing.groupBy({ by: ['cik'], where: { cik: { in: ciks } }, _max: { filedAt: true } });
  return new Map(rows.map((r) => [r.cik, isoDay(r._max.filedAt)]));
}

/** The best match first, then up to four alternatives. */
export async function resolveEntity(prisma: PrismaClient, identifier: string): Promise<Resolution[]> {
  const value = identifier.trim();
  const cik = cikOf(value);
  if (cik) {
    const entity = await prisma.entity.findUnique({ where: { cik }, select: { cik: true } });
    if (!entity) return []; // digits name a CIK, never a company
    return [{ cik, matchedBy: 'cik', confidence: confidence.cik, sources: [], lastFiledAt: (await lastFiled(prisma, [cik])).get(cik) ?? null, reason: null }];
  }
  const ticker = tickerOf(value);
  if (ticker) {
    const matches = await tickerMatches(prisma, ticker);
    if (matches.length) return matches.slice(0, 5);
  }
  return nameMatches(prisma, value);
}

/**
 * Names: exact, then prefix, then contained; within each, entities the ticker maps list (listed
 * issuers) and with filings held come first, so `Apple` is Apple Inc., not Apple Hospitality REIT.
 */
async function nameMatches(prisma: PrismaClient, value: string): Promise<Resolution[]> {
  const select = { cik: true, name: true, _count: { select: { listings: true, filings: true } } } as const;
  const tiers = [
    ['name_exact', { equals: value, mode: 'insensitive' }],
    ['name_prefix', { startsWith: value, mode: 'insensitive' }],
    ['name_contains', { contains: value, mode: 'insensitive' }],
  ] as const;
  const found = await Promise.all(tiers.map(([, name]) => prisma.entity.findMany({ where: { name }, select, take: 50 })));
  const seen = new Set<string>();
  const matches: { cik: string; matchedBy: Resolution['matchedBy']; listed: boolean; filings: number; name: string }[] = [];
  tiers.forEach(([matchedBy], i) => {
    const rows = found[i]!
      .filter((row) => !seen.has(row.cik))
      .map((row) => ({ cik: row.cik, matchedBy, listed: row._count.listings > 0, filings: row._count.filings, name: row.name }))
      .sort((a, b) => Number(b.listed) - Number(a.listed) || b.filings - a.filings || a.name.length - b.name.length || a.name.localeCompare(b.name));
    for (const row of rows) (seen.add(row.cik), matches.push(row));
  });
  const top = matches.slice(0, 5);
  const activity = await lastFiled(prisma, top.map((m) => m.cik));
  return top.map((m) => ({
    cik: m.cik,
    matchedBy: m.matchedBy,
    confidence: confidence[m.matchedBy],
    sources: [{ source: 'name', asOf: null }],
    lastFiledAt: activity.get(m.cik) ?? null,
    reason: m.listed ? null : 'Not listed in the SEC ticker maps.',
  }));
}

/** The one CIK a ticker or CIK names for a single-company read (the best match), or null. */
export async function cikFor(reader: DataReader, options: { ticker?: string | null; cik?: string | null }): Promise<string | null> {
  const [best] = (await ciksFor(reader, options)) ?? [];
  return best ?? null;
}

/**
 * Every CIK a ticker has named (or the one CIK given), for reads over a period: a ticker that
 * moved between companies covers them all. Null when the identifier names no entity.
 */
export async function ciksFor(reader: DataReader, options: { ticker?: string | null; cik?: string | null }): Promise<string[] | null> {
  // Kept while the data holds (only an ingest changes which CIKs a ticker names), not for a TTL:
  // traffic over thousands of companies resolves each ticker once, not once every few seconds.
  return reader.cache.data.versioned(`ciks:${options.cik ?? ''}|${options.ticker ?? ''}`, await dataVersion(reader), () => findCiks(reader.prisma, options));
}

async function findCiks(prisma: PrismaClient, options: { ticker?: string | null; cik?: string | null }): Promise<string[] | null> {
  if (options.cik) {
    const cik = cikOf(options.cik);
    const entity = cik ? await prisma.entity.findUnique({ where: { cik }, select: { cik: true } }) : null;
    return entity ? [entity.cik] : null;
  }
  if (!options.ticker) return null;
  const ticker = tickerOf(options.ticker);
  const matches = ticker ? await tickerMatches(prisma, ticker) : [];
  return matches.length ? matches.map((m) => m.cik) : null;
}
