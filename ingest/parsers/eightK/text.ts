// Text helpers shared by the 8-K item parsers: written-out dates, sentences, excerpts.

const months: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

/** A written date as filings print it ("June 24, 2026", "Sept. 3,2024") */
export const writtenDate = String.raw`(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?\s+\d{1,2},\s*\d{4}`;

/** "June 24, 2026" -> "2026-06-24"; null when the text is not a valid written date. */
export function toIsoDate(text: string | null | undefined): string | null {
  const match = text?.trim().match(/^([A-Za-z]+)\.?\s+(\d{1,2}),\s*(\d{4})/);
  if (!match) return null;
  const month = months[match[1]!.toLowerCase().slice(0, 3)];
  const day = Number(match[2]);
  if (!month || day < 1 || day > 31) return null;
  return `${match[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Every written date in the text, as YYYY-MM-DD, in order. */
export function datesIn(text: string): string[] {
  return [...text.matchAll(new RegExp(writtenDate, 'g'))].map((m) => toIsoDate(m[0])).filter((d): d is string => d !== null);
}

// Periods that end an abbreviation rather than a sentence ("Mr. Ridge", "JPMorgan Chase & Co. (the Firm)").
const abbreviations = /(?:\b(?:Mr|Ms|Mrs|Dr|Messrs|Co|Inc|Corp|Ltd|No|Nos|Jr|Sr|St|vs|U\.S|L\.P|P\.C|N\.A|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|\b[A-Z])\.$/;

/** Sentences of a paragraph-structured text; line breaks between paragraphs always end one. */
export function sentences(text: string): string[] {
  const result: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    let current = '';
    // a footnote mark may follow the full stop ("effective immediately.1 In addition")
    for (const piece of paragraph.split(/(?<=[.!?][”"’)]?)\s+|(?<=[a-z][.!?][”"’)]?\d{1,2})\s+(?=[A-Z])/)) {
      current = current ? `${current} ${piece}` : piece;
      if (!abbreviations.test(current.replace(/[”"’)]+$/, ''))) {
        result.push(current.trim());
        current = '';
      }
    }
    if (current.trim()) result.push(current.trim());
  }
  return result.filter(Boolean);
}

/**
 * The sentences of an item's prose, whitespace collapsed as the reader's marking compares them: lines
 * laid out as table cells (runs of spaces between values) and short headings are left out, since a
 * rendered table does not hold its cells' text in that order.
 */
export function proseSentences(text: string): string[] {
  const prose = text
    .split('\n')
    .filter((line) => !/\S\s{2,}\S/.test(line.trim()))
    .join('\n');
  return sentences(prose)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 20 && /[.!?:;][”"’)]?$/.test(s));
}

/** Where an event's values were read: the sentence, or null with the reason none is given. */
export interface SourceSpan {
  sourceSpan: string | null;
  sourceSpanNullReason: string | null;
}

export const spanOf = (sentence: string | null | undefined, reason: string): SourceSpan =>
  sentence ? { sourceSpan: sentence.replace(/\s+/g, ' ').trim(), sourceSpanNullReason: null } : { sourceSpan: null, sourceSpanNullReason: reason };

/** At most `limit` characters, cut at a sentence (or else word) boundary. */
export function excerptOf(text: string, limit = 1500): string {
  const clean = text.replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
  if (clean.length <= limit) return clean;
  const head = clean.slice(0, limit);
  const sentenceEnd = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'));
  const cut = sentenceEnd > limit * 0.6 ? sentenceEnd + 1 : head.lastIndexOf(' ');
  return `${head.slice(0, cut > 0 ? cut : limit).trim()} …`;
}

/** "281,090,975" -> 281090975; dashes and blanks (no count printed) -> null. */
export function countOf(cell: string): number | null {
  const digits = cell.trim().replace(/^\((.*)\)$/, '$1');
  return /^\d{1,3}(,\d{3})*$|^\d+$/.test(digits) ? Number(digits.replace(/,/g, '')) : null;
}
