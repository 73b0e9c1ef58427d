// data.sec.gov submissions JSON: the main file (company header, the recent filings as columnar
// arrays, and filings.files[] naming the overflow pages) and an overflow page (the columnar
// arrays alone, no header). Columns are zipped by index, so a column of the wrong length would
// pair one filing's form with another's date: that throws rather than guesses.

export interface FormerName {
  name: string;
  /** YYYY-MM-DD */
  from: string | null;
  /** YYYY-MM-DD */
  to: string | null;
}

export interface EntityRecord {
  /** 10 digits */
  cik: string;
  name: string;
  /** 'operating', 'other' (individuals, foreign issuers), ... */
  entityType: string | null;
  sic: string | null;
  sicDescription: string | null;
  tickers: string[];
  /** aligned with tickers: exchanges[i] is where tickers[i] trades; null where the SEC names none */
  exchanges: (string | null)[];
  /** MMDD */
  fiscalYearEnd: string | null;
  stateOfIncorporation: string | null;
  formerNames: FormerName[];
  /** filer status, e.g. 'Large accelerated filer' */
  category: string | null;
  /** files Forms 3/4/5 as a reporting owner (an insider, like an individual investor) */
  insiderTransactionForOwnerExists: boolean;
  /** insiders file Forms 3/4/5 about its securities (an issuer) */
  insiderTransactionForIssuerExists: boolean;
}

export interface FilingRecord {
  accessionNumber: string;
  /** the company whose submissions file lists the filing, 10 digits */
  cik: string;
  form: string;
  /** YYYY-MM-DD */
  filingDate: string;
  /** ISO instant (UTC) */
  acceptedAt: string | null;
  /** YYYY-MM-DD, the period or event date */
  reportDate: string | null;
  /** 8-K item numbers, e.g. ['2.02', '9.01'] */
  items: string[];
  primaryDocument: string | null;
  primaryDocDescription: string | null;
  /** bytes */
  size: number | null;
  isXBRL: boolean;
  isInlineXBRL: boolean;
  fileNumber: string | null;
  filmNumber: string | null;
  /** the securities act: '33', '34', ... */
  act: string | null;
}

export interface SubmissionsPage {
  /** null for an overflow page, which has no company header */
  entity: EntityRecord | null;
  filings: FilingRecord[];
  /** overflow page file names from filings.files[], e.g. CIK0000320193-submissions-001.json */
  morePages: string[];
}

type Json = Record<string, unknown>;
type Columns = Record<string, unknown[]>;

/**
 * `name` is the file name; an overflow page needs it, because the page itself does not say
 * whose filings it lists (its accession numbers carry the filer agent's CIK, not the company's).
 */
export function parseSubmissions(json: string, name?: string): SubmissionsPage {
  const doc = JSON.parse(json) as unknown;
  if (!isObject(doc)) throw new Error('submissions: expected a JSON object');

  if (isObject(doc.filings)) {
    const entity = entityOf(doc);
    const recent = doc.filings.recent;
    if (!isObject(recent)) throw new Error(`submissions CIK${entity.cik}: filings.recent is missing`);
    const files = Array.isArray(doc.filings.files) ? doc.filings.files : [];
    const morePages = files.map((f) => (isObject(f) ? text(f.name) : null)).filter((n): n is string => n !== null);
    return { entity, filings: filingsOf(recent, entity.cik), morePages };
  }

  if (Array.isArray(doc.accessionNumber)) {
    const cik = name?.match(/CIK(\d{10})/)?.[1];
    if (!cik) throw new Error(`submissions overflow page${name ? ` ${name}` : ''}: the file name must carry the company's CIK (CIK##########-submissions-NNN.json)`);
    return { entity: null, filings: filingsOf(doc, cik), morePages: [] };
  }

  throw new Error('submissions: neither a submissions file (cik, filings.recent) nor an overflow page (accessionNumber[])');
}

function entityOf(doc: Json): EntityRecord {
  const cik = text(doc.cik);
  const name = text(doc.name);
  if (!cik || !/^\d{1,10}$/.test(cik)) throw new Error(`submissions: company header has no valid cik (${JSON.stringify(doc.cik)})`);
  if (!name) throw new Error(`submissions CIK${cik.padStart(10, '0')}: company header has no name`);
  const tickers = Array.isArray(doc.tickers) ? doc.tickers.map((t) => text(t)).filter((t): t is string => t !== null) : [];
  const exchanges = Array.isArray(doc.exchanges) ? doc.exchanges.map((e) => text(e)) : [];
  return {
    cik: cik.padStart(10, '0'),
    name,
    entityType: text(doc.entityType),
    sic: text(doc.sic),
    sicDescription: text(doc.sicDescription),
    tickers,
    exchanges,
    fiscalYearEnd: text(doc.fiscalYearEnd),
    stateOfIncorporation: text(doc.stateOfIncorporation),
    formerNames: Array.isArray(doc.formerNames) ? doc.formerNames.filter(isObject).flatMap(formerName) : [],
    category: text(doc.category),
    insiderTransactionForOwnerExists: flag(doc.insiderTransactionForOwnerExists),
    insiderTransactionForIssuerExists: flag(doc.insiderTransactionForIssuerExists),
  };
}

function formerName(entry: Json): FormerName[] {
  const name = text(entry.name);
  return name ? [{ name, from: datePart(entry.from), to: datePart(entry.to) }] : [];
}

function filingsOf(table: Json, cik: string): FilingRecord[] {
  const columns = columnsOf(table, cik);
  const count = columns.accessionNumber.length;
  const at = (column: string, i: number) => columns[column]?.[i];
  const filings: FilingRecord[] = [];
  for (let i = 0; i < count; i++) {
    const accessionNumber = text(at('accessionNumber', i));
    const form = text(at('form', i));
    const filingDate = datePart(at('filingDate', i));
    if (!accessionNumber || !form || !filingDate) throw new Error(`submissions CIK${cik}: filing #${i} lacks its accession number, form or filing date`);
    const items = text(at('items', i));
    const size = at('size', i);
    filings.push({
      accessionNumber,
      cik,
      form,
      filingDate,
      acceptedAt: easternToInstant(text(at('acceptanceDateTime', i))),
      reportDate: datePart(at('reportDate', i)),
      items: items ? items.split(',').map((item) => item.trim()).filter(Boolean) : [],
      primaryDocument: text(at('primaryDocument', i)),
      primaryDocDescription: text(at('primaryDocDescription', i)),
      size: typeof size === 'number' && Number.isFinite(size) ? size : null,
      isXBRL: flag(at('isXBRL', i)),
      isInlineXBRL: flag(at('isInlineXBRL', i)),
      fileNumber: text(at('fileNumber', i)),
      filmNumber: text(at('filmNumber', i)),
      act: text(at('act', i)),
    });
  }
  return filings;
}

/** Every array in the table must be as long as accessionNumber, or rows would be mis-zipped. */
function columnsOf(table: Json, cik: string): Columns & { accessionNumber: unknown[] } {
  const accessionNumber = table.accessionNumber;
  if (!Array.isArray(accessionNumber)) throw new Error(`submissions CIK${cik}: the filings table has no accessionNumber column`);
  const columns: Columns = {};
  for (const [column, values] of Object.entries(table)) {
    if (!Array.isArray(values)) continue;
    if (values.length !== accessionNumber.length) {
      throw new Error(`submissions CIK${cik}: filings column "${column}" has ${values.length} entries but accessionNumber has ${accessionNumber.length}`);
    }
    columns[column] = values;
  }
  return { ...columns, accessionNumber };
}

/**
 * acceptanceDateTime ends in 'Z' but is EDGAR's US Eastern wall-clock time (the same digits as
 * the submission's <ACCEPTANCE-DATETIME> header), so it is read as New York time and returned
 * as the UTC instant, the same value the full-submission parser gives.
 */
function easternToInstant(value: string | null): string | null {
  const m = value?.match(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const wallClock = Date.UTC(y, mo - 1, d, h, mi, s);
  // The offset at the wall-clock reading is right except within the hour of a DST switch;
  // one correction with the offset at the resulting instant settles it.
  let instant = wallClock - newYorkOffsetMs(wallClock);
  instant = wallClock - newYorkOffsetMs(instant);
  return new Date(instant).toISOString();
}

const newYork = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * New York's offset in each UTC hour asked for. It changes only on the hour (2:00 local), so one
 * reading an hour serves every filing accepted in it: formatting a date in a time zone costs more
 * than the rest of a filing's row (a fifth of a bulk load's submissions, before it was kept).
 */
const offsetByHour = new Map<number, number>();
const hourMs = 3_600_000;

/** New York local time minus UTC at the instant, in ms (-4 h or -5 h). */
function newYorkOffsetMs(instant: number): number {
  const hour = Math.floor(instant / hourMs);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const start = hour * hourMs;
    const parts = Object.fromEntries(newYork.formatToParts(new Date(start)).map((p) => [p.type, p.value]));
    offset = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!) - start;
    if (offsetByHour.size >= 100_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string value, trimmed; '' and non-strings are absent. Numbers (a numeric cik) become text. */
function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The YYYY-MM-DD of a date or an ISO timestamp ('2007-01-10T00:00:00.000Z'), else null. */
function datePart(value: unknown): string | null {
  const m = typeof value === 'string' ? value.match(/^(\d{4}-\d{2}-\d{2})(T|$)/) : null;
  return m ? m[1]! : null;
}

function flag(value: unknown): boolean {
  return value === 1 || value === true || value === '1';
}
