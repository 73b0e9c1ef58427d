// Splits a 10-K or 10-Q into its Item sections. It works on the document's readable text (tables
// stay rows, no markup survives): every line that reads as an Item heading is a candidate, and the
// sections are the one run of candidates, in the form's item order, that covers the most body
// text. The table of contents lists the same headings, but with nothing between them, so its
// entries lose to the headings that start the real bodies.
import { htmlToText, looksLikeHtml } from './html.ts';
import { isSgmlSubmission, parseSgmlSubmission } from './sgml.ts';

export interface FilingSection {
  /** 'item_1a' for a 10-K, part-qualified 'part2_item1a' for a 10-Q */
  key: string;
  /** the heading as the filing states it, without its "Item 1A." label (the form's own item name when the filing gives none) */
  title: string;
  /** the section body as readable text, page numbers and running footers removed */
  text: string;
  /** 1 for the first section in the document, increasing in document order */
  ordinal: number;
}

interface Layout {
  /** item keys in the order the form lays them out */
  keys: string[];
  /** the form's own name for each item, for headings that state none */
  names: Record<string, string>;
  keyOf(item: string, part: number | null): string;
}

const tenKNames: Record<string, string> = {
  item_1: 'Business',
  item_1a: 'Risk Factors',
  item_1b: 'Unresolved Staff Comments',
  item_1c: 'Cybersecurity',
  item_2: 'Properties',
  item_3: 'Legal Proceedings',
  item_4: 'Mine Safety Disclosures',
  item_5: 'Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities',
  item_6: '[Reserved]',
  item_7: 'Management’s Discussion and Analysis of Financial Condition and Results of Operations',
  item_7a: 'Quantitative and Qualitative Disclosures About Market Risk',
  item_8: 'Financial Statements and Supplementary Data',
  item_9: 'Changes in and Disagreements with Accountants on Accounting and Financial Disclosure',
  item_9a: 'Controls and Procedures',
  item_9b: 'Other Information',
  item_9c: 'Disclosure Regarding Foreign Jurisdictions that Prevent Inspections',
  item_10: 'Directors, Executive Officers and Corporate Governance',
  item_11: 'Executive Compensation',
  item_12: 'Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters',
  item_13: 'Certain Relationships and Related Transactions, and Director Independence',
  item_14: 'Principal Accountant Fees and Services',
  item_15: 'Exhibits and Financial Statement Schedules',
  item_16: 'Form 10-K Summary',
};

const tenQNames: Record<string, string> = {
  part1_item1: 'Financial Statements',
  part1_item2: 'Management’s Discussion and Analysis of Financial Condition and Results of Operations',
  part1_item3: 'Quantitative and Qualitative Disclosures About Market Risk',
  part1_item4: 'Controls and Procedures',
  part2_item1: 'Legal Proceedings',
  part2_item1a: 'Risk Factors',
  part2_item2: 'Unregistered Sales of Equity Securities and Use of Proceeds',
  part2_item3: 'Defaults Upon Senior Securities',
  part2_item4: 'Mine Safety Disclosures',
  part2_item5: 'Other Information',
  part2_item6: 'Exhibits',
};

const tenK: Layout = { keys: Object.keys(tenKNames), names: tenKNames, keyOf: (item) => `item_${item}` };

const tenQ: Layout = {
  keys: Object.keys(tenQNames),
  names: tenQNames,
  // Part II is the only home of Items 1A, 5 and 6, whatever Part heading came before.
  keyOf: (item, part) => `part${/^(1a|5|6)$/.test(item) ? 2 : (part ?? 1)}_item${item}`,
};

function layoutFor(form: string): Layout | null {
  const base = form.trim().toUpperCase().replace(/\/A$/, '');
  if (base === '10-K' || base === '10-KT') return tenK;
  if (base === '10-Q') return tenQ;
  return null;
}

/**
 * The section key of an Item heading ("Item 1A" under Part II of a 10-Q: part2_item1a), or null
 * when the form has no such item: the keys splitSections gives, for readers that find the headings
 * in the document's markup (the filing reader's anchors).
 */
export function sectionKeyOf(form: string, item: string, part: number | null): string | null {
  const layout = layoutFor(form);
  const key = layout?.keyOf(item.toLowerCase(), part);
  return key && layout!.keys.includes(key) ? key : null;
}

/** An Item heading's label at the start of a line: its number and letter, and what follows it. */
export const itemHeadingPattern = /^\s*item\s*(\d{1,2})\s*([a-d])?(?![a-z0-9])\s*[.:—–-]?\s*(.*)$/i;

/** A Part heading ("PART II — OTHER INFORMATION") and its number. */
export function partOfHeading(line: string): number | null {
  const match = partHeading.exec(line);
  return match ? partNumber[match[1]] : null;
}

export function splitSections(form: string, html: string): FilingSection[] {
  const layout = layoutFor(form);
  if (!layout) return [];
  const lines = documentText(form, html).split('\n');
  const furniture = pageFurniture(lines);
  const { candidates, stops } = findHeadings(lines, furniture, layout);
  const chosen = bestRun(candidates);
  return chosen.map((heading, index) => {
    const next = chosen[index + 1]?.line ?? lines.length;
    // A Part heading or the signatures between two items belong to neither.
    const end = Math.min(next, stops.find((stop) => stop > heading.line) ?? next);
    return { key: heading.key, title: heading.title, text: bodyText(heading, lines, furniture, end), ordinal: index + 1 };
  });
}

/** Readable text of the form's document, from HTML, plain text, or a full-submission container. */
function documentText(form: string, input: string): string {
  let content = input;
  if (isSgmlSubmission(input)) {
    const { documents } = parseSgmlSubmission(input);
    const wanted = form.trim().toUpperCase();
    content = (documents.find((document) => document.type.toUpperCase() === wanted) ?? documents[0])?.text ?? '';
  }
  return looksLikeHtml(content) ? htmlToText(content) : content.replace(/\r\n?/g, '\n');
}

// ---- page furniture ---------------------------------------------------------------------------

const horizontalRule = /^-{20,}$/;
const bareNumber = /^(?:\d{1,3}|[ivxl]{1,6}|[A-Z]-\d{1,3})$/i;
const runningFooter = /^[^|]{1,100}\|\s*(?:Q[1-4]\s+)?(?:\d{4}\s+)?Form 10-[KQ](?:\/A)?\s*\|\s*\d{1,3}$/i;
const contentsLink = /^(?:table of contents|back to contents)$/i;

/** Lines that are page layout rather than content: rules, page numbers, running footers, "Table of Contents" links. */
function pageFurniture(lines: string[]): boolean[] {
  const flags = lines.map((line) => {
    const trimmed = line.trim();
    return horizontalRule.test(trimmed) || runningFooter.test(trimmed) || contentsLink.test(trimmed);
  });
  // A bare number is a page number only where a page ends: before a page break or the end.
  let nextIsPageEnd = true;
  for (let i = lines.length - 1; i >= 0; i--) {
    const trimmed = lines[i].trim();
    if (trimmed === '') continue;
    if (horizontalRule.test(trimmed)) nextIsPageEnd = true;
    else {
      if (nextIsPageEnd && bareNumber.test(trimmed)) flags[i] = true;
      nextIsPageEnd = false;
    }
  }
  return flags;
}

// ---- headings ---------------------------------------------------------------------------------

interface Heading {
  key: string;
  keyIndex: number;
  line: number;
  title: string;
  /** body text that shares the heading's line ("Item 3. Defaults Upon Senior Securities. None.") */
  inlineBody: string;
  bodyStart: number;
  /** table-of-contents row: its title ends with a page number */
  inContents: boolean;
  bodyLength: number;
}

const itemHeading = itemHeadingPattern;
// Case-sensitive on purpose: "Part II of this report" is a cross-reference, "PART II — OTHER INFORMATION" a heading.
const partHeading = /^\s*(?:PART|Part)\s+(IV|I{1,3})\b\.?(?:\s*[—–:.-]?\s*[A-Z][A-Za-z ,&'’-]{0,100})?$/;
const signaturesHeading = /^\s*signatures?(?:\s+\d{1,3})?\s*$/i;
const pageNumberEnding = /\s+(?:\d{1,3}|[ivxl]{1,6}|[A-Z]-\d{1,3})$/i;
const titleStart = /^[A-Z“"'‘\[(]/;
const shortAnswer = /^(?:none|not applicable)\.?$/i;
const longestTitle = 200;

const partNumber: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4 };

/** Every Item heading candidate with the body it would have, and the Part and signature lines that end a section. */
function findHeadings(lines: string[], furniture: boolean[], layout: Layout): { candidates: Heading[]; stops: number[] } {
  const found: Omit<Heading, 'bodyLength'>[] = [];
  const stops: number[] = [];
  let part: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const partMatch = partHeading.exec(line);
    if (partMatch) {
      part = partNumber[partMatch[1]];
      stops.push(i);
      continue;
    }
    if (signaturesHeading.test(line)) {
      stops.push(i);
      continue;
    }
    const match = itemHeading.exec(line);
    if (!match) continue;
    const item = `${match[1]}${(match[2] ?? '').toLowerCase()}`;
    const key = layout.keyOf(item, part);
    const keyIndex = layout.keys.indexOf(key);
    if (keyIndex < 0) continue;
    const heading = readHeading(lines, i, match[3], layout.names[key]);
    if (heading) found.push({ key, keyIndex, line: i, ...heading });
  }
  // A body runs to the next line that could be a heading of any kind.
  const boundaries = [...found.map((heading) => heading.line), ...stops].sort((a, b) => a - b);
  const candidates = found.map((heading) => {
    const end = boundaries.find((boundary) => boundary > heading.line) ?? lines.length;
    let bodyLength = heading.inlineBody.length;
    for (let i = heading.bodyStart; i < end; i++) if (!furniture[i]) bodyLength += lines[i].trim().length;
    return { ...heading, bodyLength };
  });
  return { candidates, stops };
}

/** The title (and any body sharing its line) of the heading at `line`, or null when the line is prose that merely starts with "Item". */
function readHeading(lines: string[], line: number, rest: string, formName: string) {
  let text = rest.replace(/\s+/g, ' ').trim();
  if (text === '') {
    // The title may sit on its own line below the label.
    const below = nextNonBlank(lines, line + 1);
    const title = below < 0 ? '' : lines[below].replace(/\s+/g, ' ').trim();
    const isTitle = title !== '' && title.length <= longestTitle && titleStart.test(title) && !shortAnswer.test(title) && !itemHeading.test(title) && !partHeading.test(title) && !signaturesHeading.test(title);
    if (!isTitle) return { title: formName, inlineBody: '', bodyStart: line + 1, inContents: false };
    text = title;
    line = below;
  }
  if (!titleStart.test(text)) return null;
  let title = text;
  let inlineBody = '';
  const sentenceEnd = /[.:]\s+(?=\S)/.exec(text);
  if (sentenceEnd && sentenceEnd.index <= longestTitle) {
    title = text.slice(0, sentenceEnd.index);
    inlineBody = text.slice(sentenceEnd.index + sentenceEnd[0].length);
  } else if (text.length > longestTitle) return null;
  const inContents = pageNumberEnding.test(title);
  title = title.replace(pageNumberEnding, '').replace(/[.:]$/, '').trim();
  return { title: title || formName, inlineBody, bodyStart: line + 1, inContents };
}

function nextNonBlank(lines: string[], from: number): number {
  for (let i = from; i < lines.length && i < from + 3; i++) if (lines[i].trim() !== '') return i;
  return -1;
}

/**
 * The run of headings, increasing both in position and in item order, whose bodies add up to the
 * most text. Contents rows never take part; headings with nothing under them join afterwards.
 */
function bestRun(candidates: Heading[]): Heading[] {
  const eligible = candidates.filter((heading) => !heading.inContents && heading.bodyLength > 0);
  const total: number[] = [];
  const previous: number[] = [];
  for (let i = 0; i < eligible.length; i++) {
    total[i] = eligible[i].bodyLength;
    previous[i] = -1;
    for (let j = 0; j < i; j++) {
      if (eligible[j].keyIndex < eligible[i].keyIndex && total[j] + eligible[i].bodyLength > total[i]) {
        total[i] = total[j] + eligible[i].bodyLength;
        previous[i] = j;
      }
    }
  }
  let last = -1;
  for (let i = 0; i < eligible.length; i++) if (last < 0 || total[i] > total[last]) last = i;
  const run: Heading[] = [];
  for (let i = last; i >= 0; i = previous[i]) run.unshift(eligible[i]);
  return withEmptySections(run, candidates).map((heading, index, sections) => firstOfRepeats(heading, sections[index - 1], candidates));
}

/**
 * Some filers repeat an item's heading on each of its pages; the section starts at the first of
 * an unbroken series (a contents list, where other items come between, is no such series).
 */
function firstOfRepeats(heading: Heading, previous: Heading | undefined, candidates: Heading[]): Heading {
  const after = previous?.line ?? -1;
  let first = heading;
  for (let i = candidates.indexOf(heading) - 1; i >= 0; i--) {
    const candidate = candidates[i];
    if (candidate.line <= after || candidate.key !== heading.key || candidate.inContents) break;
    first = candidate;
  }
  return first;
}

/**
 * Headings with no body ("Item 6. [Reserved]") are sections too when they sit, in item order,
 * between sections of the run or after it; before it they are contents rows.
 */
function withEmptySections(run: Heading[], candidates: Heading[]): Heading[] {
  const empty = candidates.filter((heading) => !heading.inContents && heading.bodyLength === 0);
  if (empty.length === 0) return run;
  const result: Heading[] = [];
  run.forEach((heading, index) => {
    result.push(heading);
    const nextLine = run[index + 1]?.line ?? Infinity;
    const nextKey = run[index + 1]?.keyIndex ?? Infinity;
    for (const gap of empty) {
      const last = result[result.length - 1];
      if (gap.line > last.line && gap.line < nextLine && gap.keyIndex > last.keyIndex && gap.keyIndex < nextKey) result.push(gap);
    }
  });
  return result;
}

const unfinishedSentence = /[^.:;!?”")\]]$/;
const continuation = /^[a-z]/;

function bodyText(heading: Heading, lines: string[], furniture: boolean[], end: number): string {
  const kept = [heading.inlineBody];
  let acrossPageBreak = false;
  for (let i = heading.bodyStart; i < end; i++) {
    const line = lines[i];
    if (furniture[i]) acrossPageBreak = true;
    else if (line.trim() === '') kept.push(line);
    else {
      // A paragraph the page break cut in two reads as one again.
      const last = lastNonBlank(kept);
      if (acrossPageBreak && last >= 0 && unfinishedSentence.test(kept[last]) && continuation.test(line)) {
        kept[last] = `${kept[last]} ${line}`;
        kept.length = last + 1;
      } else kept.push(line);
      acrossPageBreak = false;
    }
  }
  return kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

function lastNonBlank(lines: string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].trim() !== '') return i;
  return -1;
}
