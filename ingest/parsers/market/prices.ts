// Daily price files (yfinance exports): `Date,Open,High,Low,Close,Volume` or the same in lower
// case, columns found by name, and an `Adj Close` column when the file has one. Numbers are kept as
// the text the file has (adjusted prices carry float noise that must not be rounded again); a line
// that is not a bar is reported, not guessed. Whether the Close is adjusted for splits and
// dividends is read off the columns (`adjustmentOf`). The small helpers below are shared by the
// other market parsers (famaFrench.ts, fred.ts).

export interface BadLine {
  /** 1-based line number in the file */
  line: number;
  text: string;
  reason: string;
}

export interface PriceBar {
  /** the trading day, YYYY-MM-DD */
  date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  /** the Adj Close column as written, when the file has one */
  adjClose?: string;
  volume: string;
}

/** Whether a file's Close is adjusted for splits and dividends, and the rule that says so. */
export interface PriceAdjustment {
  adjusted: boolean;
  note: string;
}

export interface PriceFile {
  ticker: string;
  bars: PriceBar[];
  adjustment: PriceAdjustment;
  badLines: BadLine[];
}

const priceColumns = ['date', 'open', 'high', 'low', 'close', 'volume'] as const;
/** How files name the split- and dividend-adjusted close beside the Close. */
const adjustedCloseColumns = ['adj close', 'adj_close', 'adjclose', 'adjusted close', 'adjusted_close'];

/**
 * The files state no adjustment in words; their columns are the statement. A yfinance/Yahoo export
 * with an Adj Close column has a Close adjusted for splits only, and the split- and
 * dividend-adjusted close in Adj Close; one without it was written with auto_adjust, its Open, High,
 * Low and Close all adjusted for splits and dividends.
 */
function adjustmentOf(adjustedColumn: string | null): PriceAdjustment {
  return adjustedColumn
    ? { adjusted: false, note: `The file has an "${adjustedColumn}" column: its Close is not adjusted for dividends, and the split- and dividend-adjusted close is that column.` }
    : { adjusted: true, note: 'The file has no Adj Close column: a yfinance export without one is written with auto_adjust, so its Open, High, Low and Close are adjusted for splits and dividends, and the Close is the adjusted close.' };
}

/** `name` is the file name, e.g. AAPL.daily.csv (BRK.B.daily.csv is BRK.B). */
export function parsePrices(text: string, name: string): PriceFile {
  const ticker = tickerOfFile(name);
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  const header = (lines[headerAt] ?? '').split(',').map((c) => c.trim().toLowerCase());
  const at = Object.fromEntries(priceColumns.map((c) => [c, header.indexOf(c)])) as Record<(typeof priceColumns)[number], number>;
  const absent = priceColumns.filter((c) => at[c] < 0);
  if (absent.length) throw new Error(`${name}: not a price file: the header lacks ${absent.join(', ')}`);
  const adjAt = header.findIndex((c) => adjustedCloseColumns.includes(c));
  const adjustedColumn = adjAt < 0 ? null : (lines[headerAt] ?? '').split(',')[adjAt]!.trim();

  const bars: PriceBar[] = [];
  const badLines: BadLine[] = [];
  const seen = new Set<string>();
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const fields = line.split(',').map((f) => f.trim());
    const bad = (reason: string) => badLines.push({ line: i + 1, text: line, reason });
    if (fields.length !== header.length) {
      bad(`expected ${header.length} fields, found ${fields.length}`);
      continue;
    }
    const date = tradingDay(fields[at.date]!);
    if (!date) {
      bad(`"${fields[at.date]}" is not a date`);
      continue;
    }
    const bar: PriceBar = { date, open: fields[at.open]!, high: fields[at.high]!, low: fields[at.low]!, close: fields[at.close]!, ...(adjAt < 0 ? {} : { adjClose: fields[adjAt]! }), volume: fields[at.volume]! };
    const notNumber = priceColumns.slice(1).find((c) => !isDecimal(bar[c]));
    if (notNumber) bad(`${notNumber} "${bar[notNumber]}" is not a number`);
    else if (bar.adjClose !== undefined && !isDecimal(bar.adjClose)) bad(`${adjustedColumn} "${bar.adjClose}" is not a number`);
    else if (seen.has(date)) bad(`a second bar for ${date}`);
    else {
      seen.add(date);
      bars.push(bar);
    }
  }
  return { ticker, bars, adjustment: adjustmentOf(adjustedColumn), badLines };
}

export function tickerOfFile(name: string): string {
  const base = name.split('/').pop()!.replace(/\.csv$/i, '').replace(/\.daily$/i, '');
  if (!base) throw new Error(`${name}: no ticker in the file name`);
  return base.toUpperCase();
}

/**
 * The local date part of a timestamp: `2019-01-02 00:00:00-05:00` is the 2 January session in
 * New York. Converting to UTC first would move a late-evening stamp to the next day.
 */
function tradingDay(value: string): string | null {
  const m = value.match(/^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/);
  return m && isCalendarDate(m[1]!) ? m[1]! : null;
}

/** YYYY-MM-DD naming a day of the calendar (no 2024-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = value.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** A number as a file writes one: 1.25, -0.39, 507505600, 1.5e-05. */
export function isDecimal(value: string): boolean {
  return /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value);
}

/** The last day of a month, YYYY-MM-DD. */
export function monthEnd(year: number, month: number): string {
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}
