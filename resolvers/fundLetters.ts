// Fund letters: the shareholder letter (and discussion of fund performance) of the N-CSR and
// N-CSRS reports fetched from the SEC, read from the records the ingest stores (family NCSR: the
// report's shape, period, funds and signers) and the filing's sections (`letter`, `letter_1`…,
// with the database's full-text vector). The corpus holds no fund report: where none is held for
// what was asked, the answer says so (not_covered, and how an operator fetches them) rather than
// passing an empty list off as complete.
import { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import type { LetterPartKind, LetterSigner, ReportShape } from '../ingest/parsers/funds/shareholderLetter.ts';
import { ciksFor } from './entities.ts';
import { funds } from './funds.ts';
import { cursorOffset, offsetCursor } from '../core/cursor.ts';
import { citeRecords, type Cited, knownCik, pageSize } from './ownership.ts';
import { headlineOptions, searchableText } from './search.ts';

const family = 'NCSR';
const reportForms = ['N-CSR', 'N-CSRS', 'N-CSR/A', 'N-CSRS/A'];

interface StoredLetter {
  shape: ReportShape;
  periodEnd: string | null;
  registrantName: string | null;
  fundNames: string[];
  signers: LetterSigner[];
  sections: { key: string; kind: LetterPartKind; title: string }[];
}

export interface FundLetterSection {
  key: string;
  kind: LetterPartKind;
  title: string;
  ordinal: number;
  charCount: number;
  /** the section's text (the single letter's read only) */
  text: string | null;
}

export interface FundLetterMatch {
  sectionKey: string;
  sectionTitle: string;
  snippet: string;
  rank: number;
  phraseMatch: boolean;
}

export interface FundLetter extends Cited {
  id: string;
  form: string;
  filedAt: string | null;
  reportKind: 'annual' | 'semi_annual';
  periodEnd: string | null;
  periodEndNullReason: string | null;
  registrantCik: string;
  registrantName: string | null;
  fundNames: string[];
  shape: ReportShape;
  letterNullReason: string | null;
  signers: LetterSigner[];
  signersNullReason: string | null;
  sections: FundLetterSection[];
  match: FundLetterMatch | null;
}

export interface FundLetterPage {
  nodes: FundLetter[];
  hasMore: boolean;
  nextCursor: string | null;
  resolution: 'covered' | 'not_covered';
  notCoveredReason: string | null;
}

export interface FundLetterFilter {
  cik?: string | null;
  ticker?: string | null;
  form?: string | null;
  filedFrom?: string | null;
  filedTo?: string | null;
  q?: string | null;
  first?: number | null;
  after?: string | null;
}

const howToFetch =
  'Fund letters are not part of the EDGAR corpus: they are fetched from the SEC, by an operator with `npm run ids -- fund-letters:fetch` (the registrants of the N-CEN and N-PORT reports held, or `--ciks`), and kept current by the sync (`npm run ids -- sync`, or IDS_SEC_SYNC=on) for the registrants held.';

interface Row {
  id: string;
  cik: string | null;
  formType: string;
  filedAt: Date | null;
  periodOfReport: Date | null;
  data: StoredLetter;
}

function letterOf(r: Row, cited: Cited, entityName: string | null, sections: Map<string, FundLetterSection[]>, match: FundLetterMatch | null): FundLetter {
  const d = r.data;
  const parts = sections.get(r.id) ?? [];
  const hasLetter = parts.some((s) => s.kind === 'letter');
  const periodEnd = d.periodEnd ?? isoDay(r.periodOfReport);
  return {
    id: r.id,
    ...cited,
    form: r.formType,
    filedAt: isoDay(r.filedAt),
    reportKind: /^N-CSRS/.test(r.formType) ? 'semi_annual' : 'annual',
    periodEnd,
    periodEndNullReason: periodEnd ? null : 'not_reported: neither the cover\'s "Date of reporting period" nor the report states the period it covers',
    registrantCik: r.cik!,
    registrantName: d.registrantName ?? entityName,
    fundNames: d.fundNames,
    shape: d.shape,
    letterNullReason: hasLetter
      ? null
      : d.shape === 'tailored_shareholder_report'
        ? 'not_reported: a tailored shareholder report (the SEC\'s rule from July 2024) carries no letter; its sections are each fund\'s discussion of performance'
        : parts.length
          ? 'not_reported: Item 1 has a discussion of fund performance but no letter'
          : 'not_reported: no letter or discussion of fund performance was found in Item 1 (Reports to Stockholders); the document is kept for the filing reader',
    signers: d.signers,
    signersNullReason: d.signers.length ? null : hasLetter ? 'not_reported: the letter\'s closing names no signer' : 'not_reported: there is no letter to sign',
    sections: parts,
    match,
  };
}

async function sectionsOf(reader: DataReader, accessions: string[], withText: boolean, stored: Map<string, StoredLetter>): Promise<Map<string, FundLetterSection[]>> {
  const rows = accessions.length
    ? await reader.prisma.section.findMany({
        where: { accessionNumber: { in: accessions } },
        orderBy: [{ accessionNumber: 'asc' }, { ordinal: 'asc' }],
        select: { accessionNumber: true, key: true, title: true, ordinal: true, charCount: true, text: withText },
      })
    : [];
  const byAccession = new Map<string, FundLetterSection[]>();
  for (const s of rows) {
    const kind = stored.get(s.accessionNumber)?.sections.find((p) => p.key === s.key)?.kind ?? 'letter';
    const list = byAccession.get(s.accessionNumber) ?? [];
    list.push({ key: s.key, kind, title: s.title, ordinal: s.ordinal, charCount: s.charCount, text: withText ? (s as { text: string }).text : null });
    byAccession.set(s.accessionNumber, list);
  }
  return byAccession;
}

async function toLetters(reader: DataReader, rows: Row[], withText: boolean, matches: Map<string, FundLetterMatch> = new Map()): Promise<FundLetter[]> {
  const cited = await citeRecords(reader, rows.map((r) => ({ cik: r.cik, accessionNumber: r.id })));
  const ciks = [...new Set(rows.map((r) => r.cik!))];
  const names = new Map((await reader.prisma.entity.findMany({ where: { cik: { in: ciks } }, select: { cik: true, name: true } })).map((e) => [e.cik, e.name]));
  const sections = await sectionsOf(reader, rows.map((r) => r.id), withText, new Map(rows.map((r) => [r.id, r.data])));
  return rows.map((r, i) => letterOf(r, cited[i]!, names.get(r.cik!) ?? null, sections, matches.get(r.id) ?? null));
}

/** The registrants a cik or ticker names: a fund share class's ticker (N-CEN) names its registrant. */
async function registrantCiks(reader: DataReader, filter: FundLetterFilter): Promise<string[] | null> {
  if (filter.cik) return [await knownCik(reader, filter.cik)];
  if (!filter.ticker) return null;
  // funds() answers 404 entity_not_found for a ticker neither a share class nor an entity carries
  const named = await funds(reader, { ticker: filter.ticker, first: 100 });
  const ciks = [...new Set(named.nodes.map((f) => f.registrantCik).filter((c): c is string => !!c))];
  return ciks.length ? ciks : ((await ciksFor(reader, { ticker: filter.ticker })) ?? []);
}

/** Why nothing is covered for `ciks` (null: every registrant), or null when some report of theirs is held. */
async function notCovered(reader: DataReader, ciks: string[] | null): Promise<string | null> {
  const held = await reader.prisma.formRecord.count({ where: { family, ...(ciks ? { cik: { in: ciks } } : {}) } });
  if (held) return null;
  if (!ciks) return `not_covered: no N-CSR or N-CSRS report is held. ${howToFetch}`;
  const indexed = await reader.prisma.filing.count({ where: { cik: { in: ciks }, form: { in: reportForms } } });
  const who = ciks.length === 1 ? `CIK ${ciks[0]}` : `CIKs ${ciks.join(', ')}`;
  return `not_covered: no N-CSR or N-CSRS report of ${who} is held${indexed ? ` (the filing index lists ${indexed}; their documents have not been fetched)` : ''}. ${howToFetch}`;
}

export async function fundLetters(reader: DataReader, filter: FundLetterFilter): Promise<FundLetterPage> {
  const ciks = await registrantCiks(reader, filter);
  const reason = await notCovered(reader, ciks);
  if (reason) return { nodes: [], hasMore: false, nextCursor: null, resolution: 'not_covered', notCoveredReason: reason };
  const size = pageSize(filter.first);
  const form = filter.form?.trim().toUpperCase() || null;
  if (filter.q) return searchLetters(reader, filter.q, { ciks, form, filedFrom: filter.filedFrom ?? null, filedTo: filter.filedTo ?? null }, size, filter.after);

  const where: Prisma.FormRecordWhereInput = {
    family,
    ...(ciks ? { cik: { in: ciks } } : {}),
    ...(form ? { formType: form } : {}),
    ...(filter.filedFrom || filter.filedTo ? { filedAt: { ...(filter.filedFrom ? { gte: new Date(filter.filedFrom) } : {}), ...(filter.filedTo ? { lte: new Date(filter.filedTo) } : {}) } } : {}),
  };
  const offset = cursorOffset('fund-letters', filter.after);
  const rows = (await reader.prisma.formRecord.findMany({
    where,
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    skip: offset,
    take: size + 1,
    select: { id: true, cik: true, formType: true, filedAt: true, periodOfReport: true, data: true },
  })) as unknown as Row[];
  const hasMore = rows.length > size;
  const nodes = await toLetters(reader, rows.slice(0, size), false);
  return { nodes, hasMore, nextCursor: hasMore ? offsetCursor('fund-letters', offset + size) : null, resolution: 'covered', notCoveredReason: null };
}

/** Letters with a section matching `q`, best first: each letter once, with its best section's highlighted snippet. */
async function searchLetters(
  reader: DataReader,
  raw: string,
  filter: { ciks: string[] | null; form: string | null; filedFrom: string | null; filedTo: string | null },
  size: number,
  after: string | null | undefined,
): Promise<FundLetterPage> {
  const q = await searchableText(reader, raw);
  const offset = cursorOffset('fund-letters-q', after);
  const hits = await reader.prisma.$queryRaw<(FundLetterMatch & { accessionNumber: string })[]>`
    WITH query AS (SELECT websearch_to_tsquery('english', ${q}) AS tsq, phraseto_tsquery('english', ${q}) AS phrase),
    best AS (
      SELECT DISTINCT ON (s."accessionNumber") s."accessionNumber", s.key AS "sectionKey", s.title AS "sectionTitle", r."orderedAt",
             ts_rank_cd(s."searchVector", query.tsq) AS rank, (numnode(query.phrase) > 0 AND s."searchVector" @@ query.phrase) AS "phraseMatch"
      FROM "Section" s JOIN "FormRecord" r ON r.id = s."accessionNumber" AND r.family = ${family}, query
      WHERE s."searchVector" @@ query.tsq
        ${filter.ciks ? Prisma.sql`AND r.cik IN (${Prisma.join(filter.ciks)})` : Prisma.empty}
        ${filter.form ? Prisma.sql`AND r."formType" = ${filter.form}` : Prisma.empty}
        ${filter.filedFrom ? Prisma.sql`AND r."filedAt" >= ${filter.filedFrom}::date` : Prisma.empty}
        ${filter.filedTo ? Prisma.sql`AND r."filedAt" <= ${filter.filedTo}::date` : Prisma.empty}
      ORDER BY s."accessionNumber", "phraseMatch" DESC, rank DESC, s.ordinal
    ),
    page AS (SELECT * FROM best ORDER BY "phraseMatch" DESC, rank DESC, "orderedAt" DESC, "accessionNumber" DESC LIMIT ${size + 1} OFFSET ${offset})
    SELECT p."accessionNumber", p."sectionKey", p."sectionTitle", p.rank::float8 AS rank, p."phraseMatch",
           ts_headline('english', s.text, query.tsq, ${headlineOptions}) AS snippet
    FROM page p CROSS JOIN query JOIN "Section" s ON s."accessionNumber" = p."accessionNumber" AND s.key = p."sectionKey"
    ORDER BY p."phraseMatch" DESC, p.rank DESC, p."orderedAt" DESC, p."accessionNumber" DESC`;
  const hasMore = hits.length > size;
  const pageHits = hits.slice(0, size);
  const rows = (await reader.prisma.formRecord.findMany({
    where: { id: { in: pageHits.map((h) => h.accessionNumber) } },
    select: { id: true, cik: true, formType: true, filedAt: true, periodOfReport: true, data: true },
  })) as unknown as Row[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const matches = new Map(pageHits.map((h) => [h.accessionNumber, { sectionKey: h.sectionKey, sectionTitle: h.sectionTitle, snippet: h.snippet.replace(/\s+/g, ' ').trim(), rank: Math.round(Number(h.rank) * 1e6) / 1e6, phraseMatch: h.phraseMatch }]));
  const nodes = await toLetters(reader, pageHits.map((h) => byId.get(h.accessionNumber)!), false, matches);
  return { nodes, hasMore, nextCursor: hasMore ? offsetCursor('fund-letters-q', offset + size) : null, resolution: 'covered', notCoveredReason: null };
}

/** One report's letter with its sections' text; 404 filing_not_found saying why when it is not held. */
export async function fundLetter(reader: DataReader, accessionNumber: string): Promise<FundLetter> {
  const row = (await reader.prisma.formRecord.findFirst({
    where: { id: accessionNumber, family },
    select: { id: true, cik: true, formType: true, filedAt: true, periodOfReport: true, data: true },
  })) as unknown as Row | null;
  if (row) return (await toLetters(reader, [row], true))[0]!;
  const filing = await reader.prisma.filing.findUnique({ where: { accessionNumber }, select: { form: true, cik: true } });
  const details = { parameter: 'accession_number', coverage: 'not_covered' };
  if (filing && reportForms.includes(filing.form)) {
    throw new ApiError('filing_not_found', `Filing ${accessionNumber} is a ${filing.form} the filing index lists, but its report has not been fetched, so its letter is not held. ${howToFetch}`, {
      details,
      hint: `An operator runs: npm run ids -- fund-letters:fetch --ciks ${Number(filing.cik)}`,
    });
  }
  if (filing) throw new ApiError('filing_not_found', `Filing ${accessionNumber} is a ${filing.form}, not a fund shareholder report (N-CSR or N-CSRS).`, { details: { parameter: 'accession_number' } });
  throw new ApiError('filing_not_found', `No N-CSR or N-CSRS report with accession number ${accessionNumber} is held. ${howToFetch}`, { details });
}
