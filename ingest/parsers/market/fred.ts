// FRED CSVs: `DATE,<ID>` (older downloads) or `observation_date,<ID>` (fredgraph), one
// observation a line. `.` (older) or an empty field (fredgraph) marks a missing value (null).
// FRED states neither title nor frequency in these files: the frequency is read off the dates.
import { isCalendarDate, isDecimal, type BadLine } from './prices.ts';

export type MacroFrequency = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'annual' | 'irregular';

export interface Observation {
  /** YYYY-MM-DD: the first day of the period FRED dates it by */
  date: string;
  /** as written; null where FRED has no value */
  value: string | null;
}

export interface FredFile {
  seriesId: string;
  frequency: MacroFrequency;
  observations: Observation[];
  /** lines whose value is missing (`.` or empty) */
  missing: { line: number; period: string; column: string }[];
  badLines: BadLine[];
}

export function parseFred(text: string, name: string): FredFile {
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  const header = (lines[headerAt] ?? '').split(',').map((c) => c.trim());
  if (header.length !== 2 || !/^(date|observation_date)$/i.test(header[0]!)) {
    throw new Error(`${name}: not a FRED series file: expected a DATE,<ID> or observation_date,<ID> header`);
  }
  const seriesId = /^[A-Za-z0-9_]+$/.test(header[1]!) ? header[1]! : seriesOfFile(name);

  const observations: Observation[] = [];
  const missing: FredFile['missing'] = [];
  const badLines: BadLine[] = [];
  const seen = new Set<string>();
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const bad = (reason: string) => badLines.push({ line: i + 1, text: line, reason });
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length !== 2) bad(`expected 2 fields, found ${fields.length}`);
    else if (!isCalendarDate(fields[0]!)) bad(`"${fields[0]}" is not a date`);
    else if (fields[1] !== '.' && fields[1] !== '' && !isDecimal(fields[1]!)) bad(`"${fields[1]}" is not a number`);
    else if (seen.has(fields[0]!)) bad(`a second observation for ${fields[0]}`);
    else {
      const [date, written] = fields as [string, string];
      seen.add(date);
      const value = written === '.' || written === '' ? null : written;
      if (value === null) missing.push({ line: i + 1, period: date, column: seriesId });
      observations.push({ date, value });
    }
  }
  return { seriesId, frequency: frequencyOf(observations.map((o) => o.date), name), observations, missing, badLines };
}

/** FRED_CPIAUCSL.csv is CPIAUCSL; FRED_FEDFUNDS_quarterly.csv is FEDFUNDS. */
export function seriesOfFile(name: string): string {
  return name.split('/').pop()!.replace(/\.csv$/i, '').replace(/^FRED_/i, '').replace(/_(daily|weekly|monthly|quarterly|annual)$/i, '');
}

/**
 * The most common gap between consecutive dates. DFF counts weekends (gap 1), DGS10 skips them
 * (1 or 3); UMCSENT is quarterly before 1978 and monthly since, so the mode (monthly) decides.
 */
function frequencyOf(dates: string[], name: string): MacroFrequency {
  const gaps = new Map<number, number>();
  for (let k = 1; k < dates.length; k++) {
    const days = Math.round((Date.parse(dates[k]!) - Date.parse(dates[k - 1]!)) / 86_400_000);
    gaps.set(days, (gaps.get(days) ?? 0) + 1);
  }
  const [gap] = [...gaps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [];
  if (gap === undefined) return (name.match(/_(daily|weekly|monthly|quarterly|annual)\.csv$/i)?.[1]?.toLowerCase() as MacroFrequency) ?? 'irregular';
  if (gap >= 1 && gap <= 4) return 'daily';
  if (gap === 7) return 'weekly';
  if (gap >= 28 && gap <= 31) return 'monthly';
  if (gap >= 89 && gap <= 92) return 'quarterly';
  if (gap === 365 || gap === 366) return 'annual';
  return 'irregular';
}
