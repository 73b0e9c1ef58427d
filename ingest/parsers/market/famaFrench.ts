// Ken French data-library CSVs: descriptive text, then blocks, each a column header line
// (`,Mkt-RF,SMB,HML,RF` or `Date,...`) and rows dated YYYYMMDD (daily), YYYYMM (monthly) or YYYY
// (annual; the block after " Annual Factors: January-December "), then a copyright line.
// Values are percent and kept as written; -99.99 and -999 mark a missing value (null). A line
// inside a block that is not a row, or a row outside one, is reported, never guessed.
import { isCalendarDate, isDecimal, monthEnd, type BadLine } from './prices.ts';

export type FactorFrequency = 'daily' | 'weekly' | 'monthly' | 'annual';

export interface FactorValue {
  frequency: FactorFrequency;
  /** as the file dates it, made readable: YYYY-MM-DD, YYYY-MM or YYYY */
  period: string;
  /** the period's last day, YYYY-MM-DD */
  date: string;
  factor: string;
  /** percent, as written; null where the file marks the value missing */
  value: string | null;
}

export interface MissingValue {
  line: number;
  period: string;
  column: string;
}

export interface FactorFile {
  /** ff3 | ff5 | mom, or the file's own name for another data-library file */
  dataset: string;
  /** the CRSP vintage the header states (e.g. 202408); null when the file has no such text */
  vintage: string | null;
  /** the header sentence the vintage comes from, or why there is none */
  vintageNote: string;
  values: FactorValue[];
  /** data rows read (each holds one value per factor) */
  rows: number;
  missing: MissingValue[];
  badLines: BadLine[];
}

const missingMarkers = new Set([-99.99, -999]);
const dataLike = /^\s*\d{4,8}\s*,/;
const columnHeader = /^\s*(date)?\s*,\s*[A-Za-z]/i;

export function parseFamaFrench(text: string, name: string): FactorFile {
  const lines = text.split(/\r?\n/);
  const weekly = /weekly/i.test(name);
  const values: FactorValue[] = [];
  const missing: MissingValue[] = [];
  const badLines: BadLine[] = [];
  const description: string[] = [];
  const seen = new Set<string>();
  let rows = 0;
  // the open block: its factor names and the frequency its first row set
  let block: Block | null = null;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) {
      block = null; // a blank line ends a block
      continue;
    }
    if (columnHeader.test(line)) {
      block = { factors: line.split(',').slice(1).map((f) => f.trim()), frequency: null };
      continue;
    }
    if (!block) {
      if (dataLike.test(line)) badLines.push({ line: i + 1, text: line, reason: 'a data row outside a block with a column header' });
      else if (!values.length) description.push(line.trim());
      continue; // descriptive text: the header notes, a block title, the copyright line
    }
    const row = readRow(line, block, weekly, seen);
    if ('reason' in row) {
      badLines.push({ line: i + 1, text: line, reason: row.reason });
      continue;
    }
    rows++;
    for (let k = 0; k < block.factors.length; k++) {
      const factor = block.factors[k]!;
      const written = row.fields[k + 1]!;
      const isMissing = missingMarkers.has(Number(written)); // compared as a number, stored as text
      if (isMissing) missing.push({ line: i + 1, period: row.period, column: factor });
      values.push({ frequency: row.frequency, period: row.period, date: row.date, factor, value: isMissing ? null : written });
    }
  }
  const stated = description.join(' ').match(/[^.]*\b(\d{6}) CRSP database[^.]*\./);
  return {
    dataset: datasetOf(name),
    vintage: stated ? stated[1]! : null,
    vintageNote: stated ? stated[0]!.trim() : description.length ? 'the header text states no CRSP vintage' : 'the file has no header text, so no vintage is stated',
    values,
    rows,
    missing,
    badLines,
  };
}

type Block = { factors: string[]; frequency: FactorFrequency | null };

/** One line of a block: its date and fields, or why it is not a row. */
function readRow(line: string, block: Block, weekly: boolean, seen: Set<string>): { reason: string } | { frequency: FactorFrequency; period: string; date: string; fields: string[] } {
  const fields = line.split(',').map((f) => f.trim());
  if (fields.length !== block.factors.length + 1) return { reason: `expected ${block.factors.length + 1} fields, found ${fields.length}` };
  const dated = periodOf(fields[0]!, weekly);
  if (!dated) return { reason: `"${fields[0]}" is not a YYYYMMDD, YYYYMM or YYYY date` };
  block.frequency ??= dated.frequency;
  if (dated.frequency !== block.frequency) return { reason: `a ${dated.frequency} date in a block of ${block.frequency} rows` };
  const notNumber = fields.slice(1).find((v) => !isDecimal(v));
  if (notNumber !== undefined) return { reason: `"${notNumber}" is not a number` };
  const id = `${dated.frequency} ${dated.period}`;
  if (seen.has(id)) return { reason: `a second ${dated.frequency} row for ${dated.period}` };
  seen.add(id);
  return { ...dated, fields };
}

function periodOf(value: string, weekly: boolean): { frequency: FactorFrequency; period: string; date: string } | null {
  if (/^\d{8}$/.test(value)) {
    const period = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`;
    return isCalendarDate(period) ? { frequency: weekly ? 'weekly' : 'daily', period, date: period } : null;
  }
  if (/^\d{6}$/.test(value)) {
    const month = Number(value.slice(4));
    if (month < 1 || month > 12) return null;
    return { frequency: 'monthly', period: `${value.slice(0, 4)}-${value.slice(4)}`, date: monthEnd(Number(value.slice(0, 4)), month) };
  }
  if (/^\d{4}$/.test(value)) return { frequency: 'annual', period: value, date: `${value}-12-31` };
  return null;
}

/** The data-library file a name is; the daily and monthly files of one dataset share its name. */
export function datasetOf(name: string): string {
  const base = name.split('/').pop()!.replace(/\.csv$/i, '');
  if (/Research_Data_5_Factors_2x3/i.test(base)) return 'ff5';
  if (/Research_Data_Factors/i.test(base)) return 'ff3';
  if (/Momentum_Factor/i.test(base)) return 'mom';
  return base.replace(/_(daily|weekly)$/i, '').toLowerCase();
}
