// Full-text search: PostgreSQL full-text search over the sections of 10-K/10-Q filings
// (Section) and the items of 8-K reports (FilingEvent: each item's text excerpt, which is what
// the ingest keeps of an 8-K). Both tables carry a `searchVector` tsvector the database generates
// from the stored text (migration 20261124142655_search_vectors), with a GIN index: PostgreSQL and
// PGlite alike. Queries are websearch_to_tsquery (quotes for phrases, `or`, `-` to exclude);
// hits are ranked with the phrase first, then ts_rank_cd; snippets are ts_headline.
import { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { cursorOffset, offsetCursor } from '../core/cursor.ts';
import { citationUrl, isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';

export const highlightStart = '<mark>';
export const highlightStop = '</mark>';
export const headlineOptions = `StartSel=${highlightStart}, StopSel=${highlightStop}, MaxWords=35, MinWords=15, ShortWord=3, MaxFragments=2, FragmentDelimiter=" … "`;
/** how deep a client may page: ranking is recomputed per page, so pages are bounded */
export const maxOffset = 1000;

export interface SearchHit {
  id: string;
  source: 'filing_section' | 'eight_k_item';
  accessionNumber: string;
  cik: string;
  companyName: string | null;
  form: string;
  filedAt: string | null;
  sectionKey: string;
  sectionTitle: string;
  item: string | null;
  rank: number;
  phraseMatch: boolean;
  snippet: string;
  citationUrl: string;
}

export interface SearchFilter {
  q: string;
  /** the company's CIKs (schema/edgar.ts companyFilter: every CIK its ticker has named); null or absent for every company */
  ciks?: string[] | null;
  form?: string | null;
  filedFrom?: string | null;
  filedTo?: string | null;
}

function searchOffset(cursor: string | null | undefined): number {
  const offset = cursorOffset('search', cursor);
  if (offset > maxOffset) throw new ApiError('invalid_query_parameter', 'The cursor is not one this service issued; pass the nextCursor of a previous page.', { details: { parameter: 'cursor' } });
  return offset;
}

const cursorAt = (offset: number) => offsetCursor('search', offset);

type Row = {
  rowId: string;
  source: SearchHit['source'];
  accessionNumber: string;
  cik: string;
  companyName: string | null;
  form: string;
  filedAt: Date | null;
  primaryDocument: string | null;
  sectionKey: string;
  sectionTitle: string;
  item: string | null;
  rank: number;
  phraseMatch: boolean;
  snippet: string;
};

/**
 * ts_headline reads the whole text it is given, which for a 100,000-character section costs tens
 * of milliseconds a hit. It is given a window instead: around the first place the query's phrase,
 * a quoted phrase, or one of its words (cut to the part its English stem shares with it, so that
 * `disruptions` is found by `disrupt`) occurs.
 */
const windowBefore = 600;
const windowLength = 3000;

async function snippetAnchors(reader: DataReader, q: string): Promise<string[]> {
  const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  const quoted = [...q.matchAll(/"([^"]+)"/g)].map((m) => normal(m[1]!));
  const words = [...new Set(q.replace(/(^|\s)-\S+/g, ' ').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => w !== 'or').slice(0, 20);
  const whole = normal(q.replace(/["()]/g, ' ').replace(/(^|\s)-\S+/g, ' '));
  const stems = words.length
    ? await reader.prisma.$queryRaw<{ word: string; stem: string | null }[]>`SELECT w AS word, (ts_lexize('english_stem', w))[1] AS stem FROM unnest(${words}::text[]) AS w`
    : [];
  const prefixes = stems.filter((s) => s.stem).map(({ word, stem }) => {
    let n = 0;
    while (n < word.length && word[n] === stem![n]) n++;
    return word.slice(0, Math.max(n, Math.min(3, word.length)));
  });
  return [...new Set([...(words.length > 1 ? [whole] : []), ...quoted, ...prefixes])].filter((a) => a.length > 0);
}

/** The search text of `q`, trimmed; 400 invalid_query_parameter when it is empty, too long or only stop words. */
export async function searchableText(reader: DataReader, raw: string): Promise<string> {
  const q = raw.trim();
  if (!q || q.length > 500) throw new ApiError('invalid_query_parameter', 'q must be 1 to 500 characters of search text.', { details: { parameter: 'q' } });
  const [{ nodes }] = await reader.prisma.$queryRaw<{ nodes: number }[]>`SELECT numnode(websearch_to_tsquery('english', ${q})) AS nodes`;
  if (!nodes) throw new ApiError('invalid_query_parameter', 'q has no searchable words: only stop words (the, and, of …) or punctuation.', { details: { parameter: 'q' } });
  return q;
}

export async function searchFilings(reader: DataReader, filter: SearchFilter, page: { first: number; after?: string | null }) {
  const offset = searchOffset(page.after);
  const [q, anchors] = await Promise.all([searchableText(reader, filter.q), snippetAnchors(reader, filter.q.trim())]);

  const ciks = filter.ciks ?? null;
  const form = filter.form?.trim().toUpperCase() || null;
  const where = (cikColumn: Prisma.Sql, formColumn: Prisma.Sql, filedColumn: Prisma.Sql) =>
    Prisma.sql`${ciks ? Prisma.sql` AND ${cikColumn} IN (${Prisma.join(ciks)})` : Prisma.empty}${form ? Prisma.sql` AND ${formColumn} = ${form}` : Prisma.empty}${
      filter.filedFrom ? Prisma.sql` AND ${filedColumn} >= ${filter.filedFrom}::date` : Prisma.empty
    }${filter.filedTo ? Prisma.sql` AND ${filedColumn} <= ${filter.filedTo}::date` : Prisma.empty}`;

  const take = page.first + 1;
  const rows = await reader.prisma.$queryRaw<Row[]>`
    WITH query AS (SELECT websearch_to_tsquery('english', ${q}) AS tsq, phraseto_tsquery('english', ${q}) AS phrase),
    hits AS (
      SELECT 'filing_section' AS source, s."accessionNumber", f.cik, f.form, f."filedAt", f."primaryDocument", s.key AS "sectionKey", s.title AS "sectionTitle", NULL::text AS item, s.key AS "rowId",
             ts_rank_cd(s."searchVector", query.tsq) AS rank, (numnode(query.phrase) > 0 AND s."searchVector" @@ query.phrase) AS "phraseMatch", s.ordinal
      FROM "Section" s JOIN "Filing" f ON f."accessionNumber" = s."accessionNumber", query
      WHERE s."searchVector" @@ query.tsq ${where(Prisma.sql`f.cik`, Prisma.sql`f.form`, Prisma.sql`f."filedAt"`)}
      UNION ALL
      SELECT 'eight_k_item', e."accessionNumber", coalesce(f.cik, e.cik), coalesce(f.form, '8-K'), coalesce(f."filedAt", e."filedAt"), f."primaryDocument", 'item_' || coalesce(e.item, e.type), 'Item ' || coalesce(e.item, '?') || ' (' || e.type || ')', e.item, e.id,
             ts_rank_cd(e."searchVector", query.tsq), (numnode(query.phrase) > 0 AND e."searchVector" @@ query.phrase), 0
      FROM "FilingEvent" e LEFT JOIN "Filing" f ON f."accessionNumber" = e."accessionNumber", query
      WHERE e."searchVector" @@ query.tsq AND e."accessionNumber" IS NOT NULL AND coalesce(f.cik, e.cik) IS NOT NULL
        ${where(Prisma.sql`coalesce(f.cik, e.cik)`, Prisma.sql`coalesce(f.form, '8-K')`, Prisma.sql`coalesce(f."filedAt", e."filedAt")`)}
    ),
    ranked AS (
      SELECT * FROM hits ORDER BY "phraseMatch" DESC, rank DESC, "filedAt" DESC NULLS LAST, "accessionNumber", "rowId" LIMIT ${take} OFFSET ${offset}
    )
    SELECT r.source, r."rowId", r."accessionNumber", r.cik, en.name AS "companyName", r.form, r."filedAt", r."primaryDocument", r."sectionKey", r."sectionTitle", r.item, r.rank::float8 AS rank, r."phraseMatch",
           ts_headline('english', substr(d.body, greatest(1, coalesce(a.at, 1) - ${windowBefore}::int), ${windowLength}::int), query.tsq, ${headlineOptions}) AS snippet
    FROM ranked r CROSS JOIN query
    LEFT JOIN "Entity" en ON en.cik = r.cik
    LEFT JOIN "Section" s ON r.source = 'filing_section' AND s."accessionNumber" = r."accessionNumber" AND s.key = r."sectionKey"
    LEFT JOIN "FilingEvent" e ON r.source = 'eight_k_item' AND e.id = r."rowId"
    CROSS JOIN LATERAL (SELECT CASE WHEN r.source = 'filing_section' THEN s.text ELSE e.data->>'excerpt' END AS body) d
    CROSS JOIN LATERAL (SELECT lower(d.body) AS lowered) l
    LEFT JOIN LATERAL (
      SELECT f.at FROM (SELECT strpos(l.lowered, c.anchor) AS at, c.i FROM unnest(${anchors}::text[]) WITH ORDINALITY AS c(anchor, i)) f
      WHERE f.at > 0 ORDER BY f.i LIMIT 1
    ) a ON true
    ORDER BY r."phraseMatch" DESC, r.rank DESC, r."filedAt" DESC NULLS LAST, r."accessionNumber", r."rowId"`;

  const hasMore = rows.length > page.first && offset + page.first < maxOffset;
  const hits: SearchHit[] = rows.slice(0, page.first).map((r) => ({
    id: r.source === 'filing_section' ? `${r.accessionNumber}:${r.sectionKey}` : `${r.accessionNumber}:event:${r.rowId}`,
    source: r.source,
    accessionNumber: r.accessionNumber,
    cik: r.cik,
    companyName: r.companyName,
    form: r.form,
    filedAt: isoDay(r.filedAt),
    sectionKey: r.sectionKey,
    sectionTitle: r.sectionTitle,
    item: r.item,
    rank: Math.round(Number(r.rank) * 1e6) / 1e6,
    phraseMatch: r.phraseMatch,
    snippet: r.snippet.replace(/\s+/g, ' ').trim(),
    citationUrl: citationUrl(r.cik, r.accessionNumber, r.primaryDocument),
  }));
  return { query: q, nodes: hits, hasMore, nextCursor: hasMore ? cursorAt(offset + page.first) : null };
}
