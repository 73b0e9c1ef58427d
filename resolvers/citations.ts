// Where a value came from, in the form every data response carries it.

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
