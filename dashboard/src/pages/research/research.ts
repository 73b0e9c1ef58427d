// What the research pages share: their addresses, and numbers written in full as filed.

export const companyPath = (cik: string, search = '') => `/companies/${cik}${search}`;

/** The filing reader (pages/filings), where every figure on these pages leads. */
export const filingPath = (accessionNumber: string) => `/filings/${accessionNumber}`;

export const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

const sources: Record<string, string> = {
  company_tickers: 'SEC ticker map (company_tickers.json)',
  company_tickers_exchange: 'SEC ticker and exchange map (company_tickers_exchange.json)',
  submissions: 'the company’s EDGAR submissions',
  name: 'its name',
};
export const sourceName = (source: string) => sources[source] ?? source;

/**
 * A decimal as the filing states it, in full with thousands separators (365817000000 →
 * 365,817,000,000), never rounded through a float: filed values can exceed what a double holds exactly.
 */
export function formatDecimal(value: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign, whole, fraction] = match;
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An XBRL value as its document most likely prints it, for the reader to find: a table "in
 * millions" prints 365817000000 (decimals -6) as "365,817", one to a tenth of a million (-5) as
 * "4,462.4", and EPS (2) as "6.11"; the sign is left out, as "(1,234)" prints a loss. Without
 * `decimals` (companyfacts does not carry them) the value's trailing zeros stand in: six or more
 * read as millions, three as thousands. Null when nothing sensible can be derived: a value not
 * rounded as its decimals say, or fewer than three digits, which would match almost anywhere.
 */
export function asPrinted(value: string, decimals: string | null | undefined): string | null {
  const match = /^-?(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (decimals === 'INF') return formatDecimal(value.replace(/^-/, ''));
  let places = decimals === null || decimals === undefined || decimals === '' ? null : Number(decimals);
  if (places !== null && !Number.isInteger(places)) return null;
  if (places === null) {
    const zeros = fraction ? 0 : whole.length - whole.replace(/0+$/, '').length;
    places = fraction ? fraction.length : zeros >= 6 ? -6 : zeros >= 3 ? -3 : 0;
  }
  let printed: string;
  if (places >= 0) {
    if (fraction.length > places) return null;
    printed = places ? `${whole}.${fraction.padEnd(places, '0')}` : whole;
  } else {
    if (fraction) return null;
    // scaled to the next power of a thousand: -6 and -5 to millions, -3 to thousands
    const scale = 3 * Math.ceil(-places / 3);
    const shown = scale + places;
    const padded = whole.padStart(scale + 1, '0');
    const kept = padded.slice(0, padded.length - scale).replace(/^0+(?=\d)/, '');
    const dropped = padded.slice(padded.length - scale);
    if (/[^0]/.test(dropped.slice(shown))) return null;
    printed = shown ? `${kept}.${dropped.slice(0, shown)}` : kept;
  }
  if (printed.replace(/\D/g, '').replace(/^0+/, '').length < 3) return null;
  return formatDecimal(printed);
}

/** A number a filing states, in full (11588537.76 → 11,588,537.76): never rounded for display. */
export const formatFiled = (value: number) => formatDecimal(String(value));

/** The form families a company's filings are counted by on its page, in the order shown. */
const families: { name: string; one: string; test: RegExp }[] = [
  { name: 'annual reports', one: 'annual report', test: /^(10-K|10-KT|10-K405|20-F|40-F)(\/A)?$/ },
  { name: 'quarterly reports', one: 'quarterly report', test: /^10-Q(\/A)?$/ },
  { name: 'current reports', one: 'current report', test: /^(8-K|6-K)(\/A)?$/ },
  { name: 'insider filings', one: 'insider filing', test: /^(3|4|5|144)(\/A)?$/ },
  { name: 'proxy statements', one: 'proxy statement', test: /^(DEF|DEFA|PRE|DFAN|DEFM|PREM)\s?14[AC]/ },
  { name: 'ownership reports', one: 'ownership report', test: /^(SC )?13[DG]|^SCHEDULE 13|^13F/ },
  { name: 'registration statements and prospectuses', one: 'registration statement or prospectus', test: /^(S-\d|F-\d|424B|POS AM|FWP)/ },
];

export interface FamilyCount {
  family: string;
  /** the family's name for one filing */
  one: string;
  count: number;
  documentsIngested: number;
  forms: string[];
}

/** Per-form counts gathered into families; what fits none is "other filings". */
export function countByFamily(counts: { form: string; count: number; documentsIngested: number }[]): FamilyCount[] {
  const found = new Map<string, FamilyCount>();
  for (const c of counts) {
    const known = families.find((f) => f.test.test(c.form));
    const family = known?.name ?? 'other filings';
    const entry = found.get(family) ?? { family, one: known?.one ?? 'other filing', count: 0, documentsIngested: 0, forms: [] };
    entry.count += c.count;
    entry.documentsIngested += c.documentsIngested;
    entry.forms.push(c.form);
    found.set(family, entry);
  }
  const order = [...families.map((f) => f.name), 'other filings'];
  return [...found.values()].sort((a, b) => order.indexOf(a.family) - order.indexOf(b.family));
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** MMDD → "September 30" (a fiscal year end as EDGAR writes it). */
export function monthDay(mmdd: string | null | undefined): string | null {
  if (!mmdd || !/^\d{4}$/.test(mmdd)) return mmdd ?? null;
  const date = new Date(Date.UTC(2000, Number(mmdd.slice(0, 2)) - 1, Number(mmdd.slice(2))));
  return new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}
