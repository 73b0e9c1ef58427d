// The shareholder letter of a fund's Form N-CSR (annual) or N-CSRS (semi-annual) report. Item 1
// of the form ("Reports to Stockholders") carries the report sent to shareholders. Before the
// SEC's tailored shareholder report rule (compliance from July 2024) that report opens with a
// letter ("Letter to Shareholders", "Message from the President", "Dear Shareholder,") and a
// Management's Discussion of Fund Performance; a tailored shareholder report has no letter (the
// rule leaves it out), only a short discussion per fund under "How did the Fund perform…?". Both
// are read as the letter's sections, and the shape says which one the report is.
import { htmlToText } from '../documents/html.ts';
import { isSgmlSubmission, parseSgmlSubmission } from '../documents/sgml.ts';

export type ReportShape = 'full_report' | 'tailored_shareholder_report';
export type LetterPartKind = 'letter' | 'performance_discussion';

export interface LetterSection {
  /** `letter` for the first part, then `letter_1`, `letter_2`… in document order */
  key: string;
  kind: LetterPartKind;
  /** the heading as the report states it (a salutation when the letter has no heading) */
  title: string;
  text: string;
  ordinal: number;
}

export interface LetterSigner {
  name: string;
  title: string | null;
}

export interface ShareholderLetter {
  shape: ReportShape;
  /** the cover's "Date of reporting period", else the period the report says it covers */
  periodEnd: string | null;
  registrantName: string | null;
  /** the funds (series) the report names, in order: the tailored report's "…information about X" */
  fundNames: string[];
  sections: LetterSection[];
  /** who signed the letter, from its closing ("Sincerely," and the lines after it) */
  signers: LetterSigner[];
}

const letterHeading =
  /^(?:an?\s+)?(?:(?:annual|semi-?annual)\s+)?(?:letter|message|note|report)\s+(?:to|from)\s+(?:our\s+|the\s+)?(?:fellow\s+)?(?:shareholders?|stockholders?|investors?|unitholders?|president|chair(?:man|woman|person)?|ceo|chief\s+executive(?:\s+officer)?)\b.{0,60}$|^(?:shareholder|stockholder|president['’]?s|chair(?:man)?['’]?s)\s+(?:letter|message)$/i;
const salutation = /^dear\s+(?:fellow\s+)?(?:shareholders?|stockholders?|investors?|unitholders?|clients?)\b[,:]?/i;
const discussionHeading = /^management['’]?s\s+discussion\s+of\s+(?:the\s+)?fund(?:['’]s)?\s+performance\b.{0,80}$|^how\s+did\s+the\s+fund\s+perform\b.{0,120}\??$/i;
/** Parts of the report that follow a letter: where its text ends. */
const endHeading =
  /^(?:fund\s+performance|performance\s+(?:summary|overview|information|update)|portfolio\s+(?:summary|composition|of\s+investments|holdings)\b|schedules?\s+of\s+investments|statements?\s+of\s+(?:assets|operations|changes)|financial\s+highlights|notes\s+to\s+(?:the\s+)?financial\s+statements|report\s+of\s+independent|(?:understanding\s+your\s+fund['’]?s\s+|shareholder\s+|fund\s+)?expense\s+example|(?:about\s+)?(?:your\s+)?fund['’]?s?\s+expenses|key\s+fund\s+statistics|what\s+were\s+the\s+fund\s+costs|what\s+did\s+the\s+fund\s+invest\s+in|how\s+has\s+the\s+fund\s+performed|graphical\s+representation|material\s+fund\s+changes|availability\s+of\s+additional\s+information|average\s+annual\s+total\s+returns?|growth\s+of\s+(?:a\s+)?\$?10,000|top\s+(?:ten|10)\s+holdings|sector\s+allocation|item\s+\d+[a-z]?\b)/i;
const closing = /^(?:sincerely|respectfully(?:\s+submitted)?|(?:with\s+)?(?:best|kind|warm)\s+regards|regards|cordially|yours\s+(?:truly|sincerely))\s*,?$/i;
const officerTitle = /\b(?:president|chair(?:man|woman|person)?|chief\s+\w+\s+officer|ceo|cio|officer|portfolio\s+manager|manager|trustee|director|partner|principal|founder|head\s+of|secretary|treasurer|counsel|strategist)\b/i;
const personName = /^(?:(?:dr|mr|ms|mrs)\.?\s+)?[A-Z][\w'’.-]*(?:\s+(?:[A-Z]\.|[A-Z][\w'’.-]*|van|von|de|la|del)){1,4}(?:,?\s+(?:Jr\.|Sr\.|II|III|IV|CFA|CPA|Ph\.?D\.?))?$/;

/** Capitalized lines that name a fund or a firm, not a person: a fund's name after a letter's closing. */
const notAPerson = /\b(?:fund|funds|trust|portfolio|etf|series|inc|llc|lp|corporation|company|advisors?|management|investments?|shareholders?|report)\b/i;

const isPerson = (line: string) => personName.test(line) && !notAPerson.test(line);

const months: Record<string, string> = { january: '01', february: '02', march: '03', april: '04', may: '05', june: '06', july: '07', august: '08', september: '09', october: '10', november: '11', december: '12' };
const longDate = /(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2}),?\s+(\d{4})/i;

function isoOfLongDate(text: string | undefined): string | null {
  const match = text ? longDate.exec(text) : null;
  return match ? `${match[3]}-${months[match[1]!.toLowerCase()]}-${match[2]!.padStart(2, '0')}` : null;
}

/** The report sent to shareholders: Item 1's text, from the Item 1 heading followed by the longest body (a table of contents lists it too) to Item 2. */
function itemOne(lines: string[]): string[] {
  const starts = lines.flatMap((line, i) => (/^item\s*1\s*[.:]?\s*(?:\(a\)\s*)?(?:[-–—:]\s*)?reports?\s+to\s+(?:stock|share)holders/i.test(line) ? [i] : []));
  const ends = lines.flatMap((line, i) => (/^item\s*2\s*[.:]?\s*(?:[-–—:]\s*)?code\s+of\s+ethics/i.test(line) ? [i] : []));
  if (!starts.length) return lines;
  // the start followed by the most lines before the next Item 2 (a contents entry has none)
  const spans = starts.map((from) => ({ from, to: ends.find((e) => e > from) ?? lines.length }));
  const best = spans.reduce((a, b) => (b.to - b.from > a.to - a.from ? b : a));
  return lines.slice(best.from + 1, best.to);
}

const clean = (line: string) => line.replace(/\s+/g, ' ').replace(/^[#*>\s]+/, '').trim();

/** The name and title lines after a closing ("Sincerely,"): one signer per name, its title the next line that reads as one. */
function signersOf(tail: string[]): LetterSigner[] {
  const signers: LetterSigner[] = [];
  for (const raw of tail.slice(0, 12)) {
    const line = clean(raw);
    if (!line) continue;
    if (line.length > 90 || endHeading.test(line)) break;
    const [name, ...rest] = line.split(/\s*,\s+(?=[A-Z])/);
    if (isPerson(name!) && !officerTitle.test(name!)) {
      signers.push({ name: name!, title: rest.length ? rest.join(', ') : null });
    } else if (signers.length && officerTitle.test(line)) {
      const last = signers[signers.length - 1]!;
      last.title = last.title ? `${last.title}, ${line}` : line;
    } else if (signers.length) break;
  }
  return signers;
}

export function parseShareholderLetter(document: string): ShareholderLetter {
  const html = isSgmlSubmission(document) ? (parseSgmlSubmission(document).documents[0]?.text ?? '') : document;
  const text = htmlToText(html);
  const lines = text.split('\n').map(clean);
  const shape: ReportShape = /\b(?:annual|semi-annual)\s+shareholder\s+report\b/i.test(text) && /this\s+(?:annual|semi-annual)\s+shareholder\s+report\s+contains\s+important\s+information/i.test(text) ? 'tailored_shareholder_report' : 'full_report';
  const periodEnd =
    isoOfLongDate(/date\s+of\s+reporting\s+period\s*:?\s*([^\n]{0,60})/i.exec(text)?.[1]) ??
    isoOfLongDate(/for\s+the\s+(?:fiscal\s+)?(?:year|period|six[- ]months?|twelve[- ]months?)\s+(?:ended|ending)\s+([^\n]{0,40})/i.exec(text)?.[1]) ??
    isoOfLongDate(/for\s+the\s+period\s+of\s+[a-z]+\s+\d{1,2},?\s+\d{4},?\s+to\s+([^\n]{0,40})/i.exec(text)?.[1]);
  const exactName = lines.findIndex((l) => /^\(exact\s+name\s+of\s+registrant/i.test(l));
  const registrantName = exactName > 0 ? (lines.slice(0, exactName).reverse().find((l) => l) ?? null) : null;
  const fundNames = [...new Set([...text.matchAll(/contains\s+important\s+information\s+about\s+(?:the\s+)?(.+?)\s*(?:\(the\s+["“]?fund["”]?\)|\(["“]?fund["”]?\)|for\s+the\s+period)/gi)].map((m) => m[1]!.replace(/\s+/g, ' ').trim()))];

  const body = itemOne(lines);
  const sections: LetterSection[] = [];
  const signers: LetterSigner[] = [];
  let fundIndex = -1;
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    if (/contains\s+important\s+information\s+about/i.test(line)) fundIndex++;
    const heading = line.length <= 160 && (letterHeading.test(line) || discussionHeading.test(line));
    // a salutation opens a letter that has no heading (one right after a heading is part of its section)
    const opensLetter = salutation.test(line);
    if (!heading && !opensLetter) continue;
    const kind: LetterPartKind = discussionHeading.test(line) ? 'performance_discussion' : 'letter';
    const fund = shape === 'tailored_shareholder_report' && fundNames.length > 1 ? fundNames[fundIndex] : undefined;
    const title = kind === 'performance_discussion' && fund ? `${line} (${fund})` : line.replace(/[,:]$/, '');
    const from = heading ? i + 1 : i;
    let to = from;
    let closedAt = -1;
    for (; to < body.length; to++) {
      const next = body[to]!;
      if (next.length <= 160 && (letterHeading.test(next) || discussionHeading.test(next) || endHeading.test(next))) break;
      // a second salutation after some text is the next letter (a report of several funds)
      if (salutation.test(next) && kind === 'letter' && body.slice(from, to).some((l) => l && !salutation.test(l))) break;
      if (closing.test(next)) closedAt = to;
      // after a closing, the signature block ends the letter at the first line that is not a name or a title
      if (closedAt >= 0 && to > closedAt + 1 && !(next.length <= 90 && (isPerson(next.split(/\s*,\s+/)[0]!) || officerTitle.test(next) || !next))) break;
    }
    const part = body.slice(from, to).join('\n').replace(/\n{3,}/g, '\n\n').trim();
    if (closedAt >= 0) signers.push(...signersOf(body.slice(closedAt + 1, to)));
    if (part.length < 40) continue;
    const ordinal = sections.length + 1;
    sections.push({ key: ordinal === 1 ? 'letter' : `letter_${ordinal - 1}`, kind, title, text: part, ordinal });
    i = to - 1;
  }
  const unique = signers.filter((s, i) => signers.findIndex((o) => o.name === s.name) === i);
  return { shape, periodEnd, registrantName, fundNames, sections, signers: unique };
}
