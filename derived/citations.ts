// Where a value came from, in the form every data response carries it.
import type { DataReader } from './dataCache.ts';

const archives = 'https://www.sec.gov/Archives/edgar/data';

/** The SEC URL of a filing's primary document, or of its index page when the document is unknown. */
export function citationUrl(cik: string, accessionNumber: string, primaryDocument?: string | null): string {
  const folder = `${archives}/${Number(cik)}/${accessionNumber.replace(/-/g, '')}`;
  return primaryDocument ? `${folder}/${primaryDocument}` : `${folder}/${accessionNumber}-index.htm`;
}

export interface Provenance {
  accessionNumber: string | null;
  form: string | null;
  filedAt: string | null;
  citationUrl: string | null;
}

export const isoDay = (date: Date | null | undefined) => (date ? date.toISOString().slice(0, 10) : null);

/** `${cik}|${accessionNumber}`: what a value needs to be cited */
export const citationKey = (cik: string, accessionNumber: string) => `${cik}|${accessionNumber}`;

/**
 * The citation URLs of many values at once (a DataLoader's batch): each filing's primary
 * document where the index names it, else its index page. One query for the filings the cache
 * does not hold, none when it holds them all.
 */
export async function documentCitations(reader: DataReader, keys: readonly string[]): Promise<string[]> {
  const accessions = [...new Set(keys.map((key) => key.split('|')[1]!))];
  const documents = await reader.cache.data.memoEach(
    accessions.map((accession) => `document:${accession}`),
    async (missing) => {
      const filings = await reader.prisma.filing.findMany({ where: { accessionNumber: { in: missing.map((key) => key.slice('document:'.length)) } }, select: { accessionNumber: true, primaryDocument: true } });
      return new Map(filings.map((f) => [`document:${f.accessionNumber}`, f.primaryDocument]));
    },
    null,
  );
  return keys.map((key) => {
    const [cik, accessionNumber] = key.split('|') as [string, string];
    return citationUrl(cik, accessionNumber, documents.get(`document:${accessionNumber}`));
  });
}

/** Per accession number, whether the filing's document is stored (the reader renders it): a DataLoader's batch. */
export async function documentsHeld(reader: DataReader, accessions: readonly string[]): Promise<boolean[]> {
  const held = await reader.prisma.filing.findMany({ where: { accessionNumber: { in: accessions.filter(Boolean) }, document: { isNot: null } }, select: { accessionNumber: true } });
  const found = new Set(held.map((f) => f.accessionNumber));
  return accessions.map((a) => found.has(a));
}
