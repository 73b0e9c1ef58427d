// Where a value came from, in the form every data response carries it.
import type { PrismaClient } from '../prisma/db.ts';

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
 * document where the index names it, else its index page. One query for any number of values.
 */
export async function documentCitations(prisma: PrismaClient, keys: readonly string[]): Promise<string[]> {
  const accessions = [...new Set(keys.map((key) => key.split('|')[1]!))];
  const filings = await prisma.filing.findMany({ where: { accessionNumber: { in: accessions } }, select: { accessionNumber: true, primaryDocument: true } });
  const documents = new Map(filings.map((f) => [f.accessionNumber, f.primaryDocument]));
  return keys.map((key) => {
    const [cik, accessionNumber] = key.split('|') as [string, string];
    return citationUrl(cik, accessionNumber, documents.get(accessionNumber));
  });
}
