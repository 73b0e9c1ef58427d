// Shared pieces of the dilution parsers: the cited-value shape, the document cut into citable
// units (sentences of prose, whole rows of tables) that stay exact substrings of the text, and
// number, money and date readers. Nothing here guesses: a reader that does not find its value
// returns null.
import { toIsoDate, writtenDate } from '../eightK/text.ts';

export type Confidence = 'high' | 'medium' | 'low';

/** One value and where it came from: `sourceSpan` is an exact substring of the parsed text. */
export interface Cited<T> {
  value: T;
  /** the sentence or table row the value was read from, at most 400 characters, verbatim */
  sourceSpan: string;
  confidence: Confidence;
  /** the rule that read it, e.g. 'dilution_table_row' */
  method: string;
  /** the date the figure is stated as of (YYYY-MM-DD), where the text gives one */
  asOf?: string | null;
}

export type Field<T> = Cited<T> | null;

export const MAX_SPAN = 400;

/** A citable piece of the text: a sentence or a table row, with its offset in the text. */
export interface Unit {
  text: string;
  start: number;
}

// full stops that end an abbreviation, not a sentence
const abbreviation = /(?:\b(?:Mr|Ms|Mrs|Dr|Messrs|Co|Inc|Corp|Ltd|No|Nos|Jr|Sr|St|vs|U\.S|L\.P|N\.A|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Reg|Rule|Instruction|I\.B|Sec|S)|\b[A-Z]|\d)\.$/;

/**
 * The text as citable units. A line laid out as a table (runs of three or more spaces) is one
 * unit; a prose line is split into sentences. Each unit is a verbatim slice of `text`.
 */
export function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const lead = line.length - line.trimStart().length;
    const body = line.trim();
    const base = offset + lead;
    offset += line.length + 1;
    if (!body) continue;
    if (/\S {3,}\S/.test(body)) {
      units.push({ text: body, start: base });
      continue;
    }
    let from = 0;
    const boundary = /[.!?][”"’)]?(?=\s+[A-Z“"(●•$])/g;
    for (const match of body.matchAll(boundary)) {
      const end = match.index! + match[0].length;
      const candidate = body.slice(from, end);
      if (abbreviation.test(candidate.replace(/[”"’)]+$/, ''))) continue;
      units.push({ text: candidate.trim(), start: base + from + (candidate.length - candidate.trimStart().length) });
      from = end;
      while (from < body.length && body[from] === ' ') from++;
    }
    const rest = body.slice(from).trim();
    if (rest) units.push({ text: rest, start: base + from });
  }
  return units;
}

/** The unit itself when short enough, else a verbatim window of at most 400 characters around `at`. */
export function spanOf(unit: string, at = 0, length = 0): string {
  if (unit.length <= MAX_SPAN) return unit;
  const centre = Math.max(0, at + Math.floor(length / 2));
  let start = Math.max(0, Math.min(centre - MAX_SPAN / 2, unit.length - MAX_SPAN));
  if (at < start) start = at;
  let end = Math.min(unit.length, start + MAX_SPAN);
  // cut at word boundaries, inside the window
  if (start > 0) {
    const space = unit.indexOf(' ', start);
    if (space >= 0 && space < Math.min(at, end)) start = space + 1;
  }
  if (end < unit.length) {
    const space = unit.lastIndexOf(' ', end);
    if (space > Math.max(start, at + length)) end = space;
  }
  return unit.slice(start, end).trim();
}

export function cite<T>(value: T, unit: string, match: RegExpMatchArray | null, confidence: Confidence, method: string, asOf?: string | null): Cited<T> {
  const cited: Cited<T> = { value, sourceSpan: spanOf(unit, match?.index ?? 0, match?.[0].length ?? 0), confidence, method };
  if (asOf !== undefined) cited.asOf = asOf;
  return cited;
}

/** The value `read` gives for the first unit matching `pattern` (a unit whose match it rejects is passed over); null when none. */
export function firstCited<T>(units: Unit[], pattern: RegExp, read: (m: RegExpMatchArray, unit: Unit) => Cited<T> | null): Field<T> {
  for (const unit of units) {
    const m = unit.text.match(pattern);
    if (!m) continue;
    const value = read(m, unit);
    if (value) return value;
  }
  return null;
}

/** A share count as printed, captured: "1,333,333", "63018". */
export const shareCount = String.raw`(\d{1,3}(?:,\d{3})+|\d+)`;

/** "3,025,554" -> 3025554; "1,333,333" -> 1333333 */
export const count = (digits: string): number => Number(digits.replace(/,/g, ''));

/** "$(0.339)" -> -0.339, "$ 1.41" -> 1.41, "(2,033,000)" -> -2033000; null when no number */
export function money(cell: string): number | null {
  const match = cell.match(/(\()?\s*\$?\s*(\()?\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(\))?/);
  if (!match) return null;
  const value = Number(match[3]!.replace(/,/g, ''));
  return (match[1] || match[2]) && match[4] ? -value : value;
}

/** "$2.4 million" -> 2400000; "$4.0 million" -> 4000000 */
export function scaled(amount: string, unit: string | undefined): number {
  const base = Number(amount.replace(/,/g, ''));
  if (!unit) return base;
  const factor = /billion/i.test(unit) ? 1e9 : /million/i.test(unit) ? 1e6 : 1;
  return Math.round(base * factor * 100) / 100;
}

const words: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, eighteen: 18, twenty: 20, thirty: 30, forty: 40, 'forty-five': 45, sixty: 60, ninety: 90,
};

/** "five" -> 5, "90" -> 90, "thirty (30)" -> 30 */
export function quantity(text: string): number | null {
  const digits = text.match(/\d+/);
  if (digits) return Number(digits[0]);
  return words[text.trim().toLowerCase()] ?? null;
}

export const numberWord = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|eighteen|twenty|thirty|forty(?:-five)?|sixty|ninety)(?:\s*\(\d+\))?`;

export { toIsoDate, writtenDate };

/** The first written date in the text, as YYYY-MM-DD. */
export function firstDate(text: string): string | null {
  const match = text.match(new RegExp(writtenDate));
  return match ? toIsoDate(match[0]) : null;
}

/**
 * The section under a heading printed alone on its line (e.g. "DILUTION"), up to the next heading
 * printed in capitals. A table-of-contents line ("DILUTION    S-10") is not the heading.
 */
export function sectionUnder(text: string, heading: RegExp): { text: string; start: number } | null {
  const lines = text.split('\n');
  let offset = 0;
  let start = -1;
  let startOffset = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (start < 0) {
      if (heading.test(line)) {
        start = i;
        startOffset = offset;
      }
    } else if (i > start + 1 && /^[A-Z][A-Z ,’'&()-]{5,}$/.test(line) && !/^TABLE OF CONTENTS$/.test(line)) {
      return { text: text.slice(startOffset, offset), start: startOffset };
    }
    offset += lines[i]!.length + 1;
  }
  return start < 0 ? null : { text: text.slice(startOffset), start: startOffset };
}

// ---------------------------------------------------------------------------------------------
// Figures: what an offering document states of the company's capitalization and the deal's
// economics. Each is either stated (the value, the text it was read from and where that text sits)
// or not (value null and the reason: not stated, left blank in a preliminary document, not
// applicable to this kind of offering). A figure is never 0 for "not stated".

/** Where a span sits in the document: the heading it is printed under and the page it is on. */
export interface SpanLocation {
  /** the heading above the span as printed ("THE OFFERING", "CAPITALIZATION"), or "cover page" */
  section: string | null;
  /** the page number printed at the foot of the span's page ("S-3"); "cover" for the cover page */
  page: string | null;
}

export interface Figure<T = number> extends SpanLocation {
  value: T | null;
  /** why value is null; null when the document states it */
  reason: string | null;
  /** the date the figure is stated as of (YYYY-MM-DD), where the text gives one */
  asOf: string | null;
  /** "approximately $6.3 million": a rounded estimate, as printed */
  approximate: boolean;
  /** the sentence or table row the value was read from (for a blank, the text that leaves it blank); verbatim */
  sourceSpan: string | null;
  confidence: Confidence | null;
  method: string | null;
  /** options and warrants: the weighted-average exercise price the same text gives */
  weightedAverageExercisePrice?: number | null;
  /** preferred stock as converted: the preferred shares outstanding */
  preferredShares?: number | null;
  /** an over-allotment option: the days it may be exercised in */
  days?: number | null;
  /** other statements of the same figure in the document that give a different value */
  conflicting?: (SpanLocation & { value: T; sourceSpan: string })[];
}

const pageMarker = /^[ \t]*(S-(?:\d{1,3}|[ivx]{1,5})|\d{1,3}|[ivx]{1,5})[ \t]*$/;
const headingLine = /^[A-Z][A-Z0-9 ,’'&()/.:;-]{3,90}$/;

/**
 * The heading above `offset` and the page it is printed on (the next page number printed alone on
 * a line). Text before `coverEnd` is the cover page.
 */
export function locate(text: string, offset: number, coverEnd = -1): SpanLocation {
  if (offset < 0) return { section: null, page: null };
  if (offset <= coverEnd) return { section: 'cover page', page: 'cover' };
  let section: string | null = null;
  let at = text.lastIndexOf('\n', offset);
  while (at > 0 && !section) {
    const from = text.lastIndexOf('\n', at - 1);
    const line = text.slice(from + 1, at).trim();
    if (headingLine.test(line) && /[A-Z]{3}/.test(line) && !/\S {3,}\S/.test(line) && !/^TABLE OF CONTENTS$/.test(line) && !pageMarker.test(line)) section = line;
    at = from;
  }
  let page: string | null = null;
  const after = text.slice(offset, offset + 30_000).split('\n');
  for (const line of after.slice(1)) {
    const marker = line.match(pageMarker);
    if (marker) {
      page = marker[1]!;
      break;
    }
  }
  return { section, page };
}

/** A figure the document states, located in `text` by its span. */
export function statedFigure<T>(text: string, cited: Cited<T>, coverEnd: number, extras: Partial<Figure<T>> = {}): Figure<T> {
  return {
    value: cited.value,
    reason: null,
    asOf: cited.asOf ?? null,
    approximate: false,
    sourceSpan: cited.sourceSpan,
    ...locate(text, text.indexOf(cited.sourceSpan), coverEnd),
    confidence: cited.confidence,
    method: cited.method,
    ...extras,
  };
}

/** A figure the document does not state: why, and the text that leaves it blank when there is one. */
export function missingFigure<T = number>(reason: string, blank?: { text: string; span: string; coverEnd: number; method: string }): Figure<T> {
  return {
    value: null,
    reason,
    asOf: null,
    approximate: false,
    sourceSpan: blank?.span ?? null,
    ...(blank ? locate(blank.text, blank.text.indexOf(blank.span), blank.coverEnd) : { section: null, page: null }),
    confidence: blank ? 'high' : null,
    method: blank?.method ?? null,
  };
}

/** The reason a preliminary document's blank gives. */
export const blankReason = (what: string) => `${what} is left blank in this preliminary document: unknown until the offering is priced (the final prospectus states it)`;
