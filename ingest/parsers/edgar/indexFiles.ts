// EDGAR index files (daily-index and full-index): form.*.idx and company.*.idx are fixed-width
// columns under a line of dashes; master.*.idx is `CIK|Company Name|Form Type|Date Filed|Filename`.
// Index files are long and old ones carry stray lines, so a bad line is reported, never thrown.

export type EdgarIndexKind = 'form' | 'company' | 'master';

export interface EdgarIndexRow {
  form: string;
  companyName: string;
  /** 10 digits */
  cik: string;
  /** YYYY-MM-DD */
  dateFiled: string;
  /** from the path edgar/data/CIK/ACCESSION.txt; null if the path has another shape */
  accessionNumber: string | null;
  /** as listed, e.g. edgar/data/320193/0000320193-24-000123.txt */
  path: string;
}

export interface EdgarIndexBadLine {
  /** 1-based line number in the file */
  line: number;
  text: string;
  reason: string;
}

export interface EdgarIndex {
  kind: EdgarIndexKind;
  rows: EdgarIndexRow[];
  badLines: EdgarIndexBadLine[];
}

type Parsed = EdgarIndexRow | { reason: string };

/** `name` is the file name (form.20200318.idx, company.20221003.idx, master.idx, ...). */
export function parseEdgarIndex(text: string, name: string): EdgarIndex {
  const lines = text.split(/\r?\n/);
  const separator = lines.findIndex((l) => /^-{10,}\s*$/.test(l));
  const header = separator >= 0 ? lines.slice(0, separator) : [];
  const kind = kindFromHeader(header) ?? kindFromName(name);
  if (!kind) throw new Error(`${name}: not an EDGAR index file (no form/company/master header and no such file name)`);

  const parseLine = kind === 'master' ? masterLine : fixedWidthLine(kind, header);
  const rows: EdgarIndexRow[] = [];
  const badLines: EdgarIndexBadLine[] = [];
  for (let i = separator + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const parsed = parseLine(line);
    if ('reason' in parsed) badLines.push({ line: i + 1, text: line, reason: parsed.reason });
    else rows.push(parsed);
  }
  return { kind, rows, badLines };
}

function kindFromHeader(header: string[]): EdgarIndexKind | null {
  const titles = header.find((l) => /Company Name/.test(l) && /Form Type/.test(l));
  if (!titles) return null;
  if (titles.includes('|')) return 'master';
  return titles.trimStart().startsWith('Form Type') ? 'form' : 'company';
}

function kindFromName(name: string): EdgarIndexKind | null {
  const base = name.split('/').pop() ?? name;
  const m = base.match(/^(form|company|master)\b/i);
  return m ? (m[1]!.toLowerCase() as EdgarIndexKind) : null;
}

function masterLine(line: string): Parsed {
  const parts = line.split('|');
  if (parts.length < 5) return { reason: `expected 5 '|'-separated fields, found ${parts.length}` };
  // A company name holding a '|' would add fields; the fixed ones are the first and the last three.
  const [cik, ...middle] = parts;
  const [path, dateFiled, form] = [middle.pop()!, middle.pop()!, middle.pop()!];
  return row({ form, companyName: middle.join('|'), cik: cik!, dateFiled, path });
}

/** CIK, date and path are the last three whitespace-separated fields; the two text columns are fixed-width. */
const tail = /\s(\d{1,10})\s+(\d{8}|\d{4}-\d{2}-\d{2})\s+(\S+)\s*$/;

function fixedWidthLine(kind: 'form' | 'company', header: string[]): (line: string) => Parsed {
  const titles = header.find((l) => /Company Name/.test(l) && /Form Type/.test(l)) ?? '';
  const secondTitle = kind === 'form' ? 'Company Name' : 'Form Type';
  // The SEC's widths when a header does not say: form type 12, company name 62 characters.
  const split = titles.indexOf(secondTitle) > 0 ? titles.indexOf(secondTitle) : kind === 'form' ? 12 : 62;
  return (line) => {
    const m = line.match(tail);
    if (!m) return { reason: 'expected CIK, date filed and file name at the end of the line' };
    const columns = line.slice(0, m.index);
    const first = columns.slice(0, split).trim();
    const second = columns.slice(split).trim();
    const [form, companyName] = kind === 'form' ? [first, second] : [second, first];
    return row({ form, companyName, cik: m[1]!, dateFiled: m[2]!, path: m[3]! });
  };
}

function row(fields: { form: string; companyName: string; cik: string; dateFiled: string; path: string }): Parsed {
  const form = fields.form.trim();
  const companyName = fields.companyName.trim();
  const cik = fields.cik.trim();
  const path = fields.path.trim();
  if (!/^\d{1,10}$/.test(cik)) return { reason: `invalid CIK "${cik}"` };
  if (!form) return { reason: 'missing form type' };
  if (!companyName) return { reason: 'missing company name' };
  const dateFiled = isoDate(fields.dateFiled.trim());
  if (!dateFiled) return { reason: `invalid date filed "${fields.dateFiled.trim()}"` };
  if (!path) return { reason: 'missing file name' };
  const accession = path.match(/^edgar\/data\/\d+\/(\d{10}-\d{2}-\d{6})\.txt$/);
  return { form, companyName, cik: cik.padStart(10, '0'), dateFiled, accessionNumber: accession ? accession[1]! : null, path };
}

/** 20200318 or 2020-03-18 to 2020-03-18, if it is a calendar date. */
function isoDate(value: string): string | null {
  const m = value.match(/^(\d{4})-?(\d{2})-?(\d{2})$/);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}
