// SEC companyfacts JSON (data.sec.gov/api/xbrl/companyfacts/CIK##########.json) as fact rows.
// Every row is kept: the same period re-reported by a later filing is its own row with its own
// accession and filed date, so a reader can ask what was known at any point in time.

/** One reported XBRL fact, from companyfacts, an XBRL instance or an inline XBRL document. */
export interface FactRecord {
  /** 10 digits */
  cik: string;
  /** us-gaap, ifrs-full, dei, srt, or the company's own prefix */
  taxonomy: string;
  tag: string;
  /** USD, shares, USD/shares, pure, ... */
  unit: string;
  /** the exact decimal text, e.g. "391035000000", "6.11", "-0.5"; never a float */
  value: string;
  periodStart: string | null;
  /** the instant, for instant facts */
  periodEnd: string;
  isInstant: boolean;
  /** the fiscal year and period of the filing that reported the fact (not of the fact's period) */
  fy: number | null;
  /** FY, Q1..Q4 */
  fp: string | null;
  form: string | null;
  frame: string | null;
  accessionNumber: string;
  filedAt: string | null;
  /** axis -> member, {} for non-dimensional */
  dimensions: Record<string, string>;
  decimals: string | null;
}

export interface ConceptRecord {
  taxonomy: string;
  tag: string;
  label: string | null;
  description: string | null;
}

export interface CompanyFacts {
  cik: string;
  entityName: string;
  concepts: ConceptRecord[];
  facts: FactRecord[];
}

interface CompanyFactsRow {
  start?: string;
  end: string;
  /** turned into its source text before JSON.parse, see quoteValues */
  val: string;
  accn: string;
  fy?: number | null;
  fp?: string | null;
  form?: string | null;
  filed?: string | null;
  frame?: string;
}

interface CompanyFactsJson {
  cik: number | string;
  entityName: string;
  facts: Record<string, Record<string, { label?: string | null; description?: string | null; units: Record<string, CompanyFactsRow[]> }>>;
}

// JSON.parse would turn 0.1 into the nearest double and lose digits past 2^53, so each "val"
// number is turned into a string holding its source text first. An unescaped `"val"` followed
// by a colon can only be a key in valid JSON, never text inside a string (a quote inside one is
// escaped). A scan by indexOf, not a global regex replace: on a member of tens of thousands of
// facts the replace's matching and substitution cost twice JSON.parse itself.
export function quoteValues(json: string): string {
  let quoted = '';
  let copiedTo = 0;
  for (let key = json.indexOf('"val"'); key !== -1; key = json.indexOf('"val"', key + 5)) {
    let at = skipSpace(json, key + 5);
    if (json.charCodeAt(at) !== colon) continue;
    at = skipSpace(json, at + 1);
    numberAt.lastIndex = at;
    if (!numberAt.test(json)) continue; // a string, null, or anything else JSON.parse will judge
    quoted += `${json.slice(copiedTo, at)}"${json.slice(at, numberAt.lastIndex)}"`;
    copiedTo = numberAt.lastIndex;
  }
  return copiedTo === 0 ? json : quoted + json.slice(copiedTo);
}

const colon = 0x3a;
/** A JSON number where lastIndex points. */
const numberAt = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function skipSpace(json: string, at: number): number {
  for (let c = json.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = json.charCodeAt(++at));
  return at;
}

export function parseCompanyFacts(json: string): CompanyFacts {
  const parsed = JSON.parse(quoteValues(json)) as CompanyFactsJson;
  const cik = padCik(parsed.cik);
  const concepts: ConceptRecord[] = [];
  const facts: FactRecord[] = [];
  for (const [taxonomy, tags] of Object.entries(parsed.facts ?? {})) {
    for (const [tag, concept] of Object.entries(tags)) {
      concepts.push({ taxonomy, tag, label: concept.label ?? null, description: concept.description ?? null });
      for (const [unit, rows] of Object.entries(concept.units ?? {})) {
        for (const row of rows) {
          facts.push({
            cik,
            taxonomy,
            tag,
            unit,
            value: plainDecimal(String(row.val)),
            periodStart: row.start ?? null,
            periodEnd: row.end,
            isInstant: row.start === undefined,
            fy: row.fy ?? null,
            fp: row.fp ?? null,
            form: row.form ?? null,
            frame: row.frame ?? null,
            accessionNumber: row.accn,
            filedAt: row.filed ?? null,
            dimensions: {},
            decimals: null,
          });
        }
      }
    }
  }
  return { cik, entityName: parsed.entityName, concepts, facts };
}

export function padCik(cik: number | string): string {
  return String(cik).replace(/^0+(?=\d)/, '').padStart(10, '0');
}

/** "1.5E3" -> "1500", "2.5e-3" -> "0.0025"; plain decimal text is returned unchanged. */
export function plainDecimal(text: string): string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/.exec(text.trim());
  if (!match) return text.trim();
  const [, sign, intPart, fracPart = '', exponent] = match;
  const digits = intPart + fracPart;
  const point = intPart.length + Number(exponent);
  let result: string;
  if (point <= 0) result = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) result = digits + '0'.repeat(point - digits.length);
  else result = `${digits.slice(0, point)}.${digits.slice(point)}`;
  result = result.replace(/^0+(?=\d)/, '');
  if (result.includes('.')) result = result.replace(/\.?0+$/, '');
  return sign === '-' && /[1-9]/.test(result) ? `-${result}` : result;
}
