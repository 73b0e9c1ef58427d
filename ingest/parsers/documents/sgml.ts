// EDGAR submission containers: the full submission text (`<accession>.txt`, a `KEY: value`
// header) and the dissemination form (`.nc`, `<TAG>value` header). Both hold the filing's
// documents between <DOCUMENT> tags; this reads the header and hands out the documents.

export interface SgmlCompany {
  cik: string;
  name: string | null;
  sic: string | null;
  stateOfIncorporation: string | null;
  fiscalYearEnd: string | null;
}

export interface SgmlDocument {
  type: string;
  sequence: number | null;
  filename: string | null;
  description: string | null;
  /** what stood between <TEXT> and </TEXT>, with any <XML>/<XBRL>/<PDF> wrapper removed */
  text: string;
}

export interface SgmlSubmission {
  accessionNumber: string | null;
  formType: string | null;
  /** YYYY-MM-DD */
  filedAt: string | null;
  /** ISO instant, from ACCEPTANCE-DATETIME (Eastern time, as EDGAR states it) */
  acceptedAt: string | null;
  /** YYYY-MM-DD */
  periodOfReport: string | null;
  /** the ITEM INFORMATION descriptions (8-K), in order */
  itemDescriptions: string[];
  filers: SgmlCompany[];
  subjectCompanies: SgmlCompany[];
  reportingOwners: SgmlCompany[];
  /** the ISSUER block of ownership forms (3, 4, 5, 144) */
  issuers: SgmlCompany[];
  documents: SgmlDocument[];
}

export function isSgmlSubmission(text: string): boolean {
  const head = text.slice(0, 2000);
  return /<SEC-DOCUMENT>|<SEC-HEADER>|<SUBMISSION>|<ACCESSION-NUMBER>|<IMS-DOCUMENT>/.test(head);
}

const toDate = (yyyymmdd: string | null | undefined) => (yyyymmdd && /^\d{8}$/.test(yyyymmdd) ? `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}` : null);

function acceptance(value: string | null | undefined): string | null {
  if (!value || !/^\d{14}$/.test(value)) return null;
  const [y, mo, d, h, mi, s] = [value.slice(0, 4), value.slice(4, 6), value.slice(6, 8), value.slice(8, 10), value.slice(10, 12), value.slice(12, 14)];
  // EDGAR accepts in US Eastern time; the offset depends on daylight saving.
  const utcGuess = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const offsetHours = isEasternDaylightTime(new Date(utcGuess)) ? 4 : 5;
  return new Date(utcGuess + offsetHours * 3_600_000).toISOString();
}

/** US daylight saving: second Sunday of March 2:00 to first Sunday of November 2:00 (since 2007). */
function isEasternDaylightTime(local: Date): boolean {
  const year = local.getUTCFullYear();
  const nthSunday = (month: number, n: number) => {
    const first = new Date(Date.UTC(year, month, 1));
    return 1 + ((7 - first.getUTCDay()) % 7) + (n - 1) * 7;
  };
  const start = Date.UTC(year, 2, nthSunday(2, 2), 2);
  const end = Date.UTC(year, 10, nthSunday(10, 1), 2);
  return local.getTime() >= start && local.getTime() < end;
}

function documentsOf(text: string): SgmlDocument[] {
  const documents: SgmlDocument[] = [];
  const pattern = /<DOCUMENT>([\s\S]*?)<\/DOCUMENT>/g;
  for (const match of text.matchAll(pattern)) {
    const body = match[1]!;
    const field = (name: string) => body.match(new RegExp(`<${name}>([^<\\n\\r]*)`))?.[1]?.trim() || null;
    const textStart = body.indexOf('<TEXT>');
    let content = textStart >= 0 ? body.slice(textStart + 6, body.lastIndexOf('</TEXT>') >= 0 ? body.lastIndexOf('</TEXT>') : undefined) : '';
    content = content.replace(/^\s*<(XML|XBRL|PDF)>\s*/i, '').replace(/\s*<\/(XML|XBRL|PDF)>\s*$/i, '');
    const sequence = field('SEQUENCE');
    documents.push({ type: field('TYPE') ?? '', sequence: sequence ? Number(sequence) : null, filename: field('FILENAME'), description: field('DESCRIPTION'), text: content });
  }
  return documents;
}

/** The `.txt` header: indented `KEY: value` lines, companies in FILER:/SUBJECT COMPANY: blocks. */
function keyValueHeader(header: string): Omit<SgmlSubmission, 'documents'> {
  const lines = header.split(/\r?\n/);
  const first = (key: string) => lines.find((l) => l.trim().startsWith(`${key}:`))?.split(':').slice(1).join(':').trim() || null;
  const companies = { FILER: [] as SgmlCompany[], 'SUBJECT COMPANY': [] as SgmlCompany[], 'REPORTING-OWNER': [] as SgmlCompany[], ISSUER: [] as SgmlCompany[] };
  let current: SgmlCompany | null = null;
  for (const raw of lines) {
    const line = raw.trim();
    if (/^[A-Z]/.test(raw) && line.endsWith(':')) {
      // a top-level block: a company block we read, or another one that ends the current company
      const block = line.slice(0, -1) as keyof typeof companies;
      current = block in companies ? { cik: '', name: null, sic: null, stateOfIncorporation: null, fiscalYearEnd: null } : null;
      if (current) companies[block].push(current);
      continue;
    }
    if (!current) continue;
    const [key, ...rest] = line.split(':');
    const value = rest.join(':').trim();
    if (key === 'COMPANY CONFORMED NAME') current.name = value;
    else if (key === 'CENTRAL INDEX KEY') current.cik = value.padStart(10, '0');
    else if (key === 'STANDARD INDUSTRIAL CLASSIFICATION') current.sic = value.match(/\[(\d+)\]/)?.[1] ?? null;
    else if (key === 'STATE OF INCORPORATION') current.stateOfIncorporation = value;
    else if (key === 'FISCAL YEAR END') current.fiscalYearEnd = value;
  }
  return {
    accessionNumber: first('ACCESSION NUMBER'),
    formType: first('CONFORMED SUBMISSION TYPE'),
    filedAt: toDate(first('FILED AS OF DATE')),
    acceptedAt: acceptance(header.match(/<ACCEPTANCE-DATETIME>(\d{14})/)?.[1]),
    periodOfReport: toDate(first('CONFORMED PERIOD OF REPORT')),
    itemDescriptions: lines.filter((l) => l.trim().startsWith('ITEM INFORMATION:')).map((l) => l.split(':').slice(1).join(':').trim()),
    filers: companies.FILER,
    subjectCompanies: companies['SUBJECT COMPANY'],
    reportingOwners: companies['REPORTING-OWNER'],
    issuers: companies.ISSUER,
  };
}

/** The `.nc` header: `<TAG>value` with nested company blocks. */
function taggedHeader(header: string): Omit<SgmlSubmission, 'documents'> {
  const tag = (name: string, within = header) => within.match(new RegExp(`<${name}>([^<\\r\\n]*)`))?.[1]?.trim() || null;
  const blocks = (name: string) =>
    [...header.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => {
      const company = m[1]!;
      return {
        cik: (tag('CIK', company) ?? '').padStart(10, '0'),
        name: tag('CONFORMED-NAME', company),
        sic: tag('ASSIGNED-SIC', company),
        stateOfIncorporation: tag('STATE-OF-INCORPORATION', company),
        fiscalYearEnd: tag('FISCAL-YEAR-END', company),
      };
    });
  return {
    accessionNumber: tag('ACCESSION-NUMBER'),
    formType: tag('TYPE'),
    filedAt: toDate(tag('FILING-DATE')),
    acceptedAt: acceptance(tag('ACCEPTANCE-DATETIME')),
    periodOfReport: toDate(tag('PERIOD')),
    itemDescriptions: [...header.matchAll(/<ITEMS>([^<\r\n]*)/g)].map((m) => m[1]!.trim()),
    filers: blocks('FILER'),
    subjectCompanies: blocks('SUBJECT-COMPANY'),
    reportingOwners: blocks('REPORTING-OWNER'),
    issuers: blocks('ISSUER'),
  };
}

export function parseSgmlSubmission(text: string): SgmlSubmission {
  const firstDocument = text.indexOf('<DOCUMENT>');
  const header = firstDocument >= 0 ? text.slice(0, firstDocument) : text;
  const meta = /<SEC-HEADER>/.test(header) ? keyValueHeader(header) : taggedHeader(header);
  return { ...meta, documents: documentsOf(text) };
}
