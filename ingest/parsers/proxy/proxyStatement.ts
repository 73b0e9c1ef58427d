// DEF 14A proxy statements (the compensation and board family): the pay-versus-performance table (Item 402(v)) from the
// statement's inline XBRL, every value with the tag and contextRef it was read from (the ecd
// facts, the us-gaap:NetIncomeLoss the table shows, and the ecd text facts that name the
// company-selected measure, the most important measures and the PEO), and the director nominees
// of the election-of-directors proposal, read from the nominee profiles' headings.
import { decodeEntities, parseInlineFacts, type InlineFact, type XbrlFacts } from '../xbrl/xbrlInstance.ts';

/** A numeric fact of the table as stored with the proxy's record (data.payVersusPerformance). */
export interface ProxyFact {
  /** local name, e.g. PeoTotalCompAmt, NetIncomeLoss */
  tag: string;
  /** ecd, or us-gaap for NetIncomeLoss */
  taxonomy: string;
  contextRef: string;
  value: string;
  unit: string | null;
  decimals: string | null;
  periodStart: string | null;
  periodEnd: string;
  dimensions: Record<string, string>;
}

/** A text fact (data.payVersusPerformanceText): ecd:CoSelectedMeasureName, ecd:MeasureName, ecd:PeoName, … */
export interface ProxyTextFact {
  tag: string;
  taxonomy: string;
  contextRef: string;
  text: string;
  periodStart: string | null;
  periodEnd: string;
  dimensions: Record<string, string>;
}

export interface DirectorNominee {
  /** as the profile heading names the person */
  name: string;
  /** the heading cell the name was read from, e.g. "Cynthia A. Arnold (Nominee for Election)" */
  sourceSpan: string;
  /** high: the heading, the proposal's sentence and its stated number of nominees agree; medium: two of them; low: the heading alone */
  confidence: 'high' | 'medium' | 'low';
}

export interface DirectorNominees {
  nominees: DirectorNominee[];
  /** the proposal's sentence naming the nominees, when one names them all */
  sentence: string | null;
  /** how many nominees the statement says stand for election ("Three directors are proposed to be elected") */
  statedCount: number | null;
  /** what did not agree, for the ingest's warnings */
  disagreements: string[];
}

export interface ProxyStatementParts {
  payVersusPerformance: ProxyFact[];
  payVersusPerformanceText: ProxyTextFact[];
  directorNominees: DirectorNominees;
  skipped: XbrlFacts['skipped'];
}

/** Net income is the one non-ecd column of the table (Item 402(v)(2)(v)). */
const netIncome = 'us-gaap:NetIncomeLoss';

const wanted = (name: string) => name === netIncome || (name.startsWith('ecd:') && !name.endsWith('TextBlock'));

function split(fact: InlineFact) {
  const colon = fact.name.indexOf(':');
  return { tag: fact.name.slice(colon + 1), taxonomy: fact.name.slice(0, colon), contextRef: fact.contextRef, periodStart: fact.periodStart, periodEnd: fact.periodEnd, dimensions: fact.dimensions };
}

export function parseProxyStatement(html: string): ProxyStatementParts {
  const { facts, skipped } = parseInlineFacts(html, wanted);
  return {
    payVersusPerformance: facts.filter((f) => f.kind === 'numeric').map((f) => ({ ...split(f), value: f.value, unit: f.unit, decimals: f.decimals })),
    payVersusPerformanceText: facts.filter((f) => f.kind === 'text').map((f) => ({ ...split(f), text: f.value })),
    directorNominees: parseDirectorNominees(html),
    skipped,
  };
}

// ---- director nominees ----

const blockEnd = /<(?:\/(?:p|div|td|th|tr|li|h[1-6]|table|caption)\b[^>]*|br\b[^>]*)>/gi;

/** The document as lines of text, one per block element (paragraph, cell, heading), the XBRL header left out. */
function blockLines(html: string): string[] {
  const text = decodeEntities(html.replace(/<ix:header>[\s\S]*?<\/ix:header>/gi, '').replace(blockEnd, '\n').replace(/<[^>]*>/g, ' '));
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** A nominee profile's heading marker: "(Nominee for Election)", "(Nominee for Re-election)", "(Director Nominee)". */
const nomineeMarker = /^(.*?)\s*\((?:nominee for (?:re-?)?election|director nominee|nominee)\)$/i;
const nameWord = "[A-Z][\\p{L}'\u2019-]*\\.?";
const personName = new RegExp(`^(?:${nameWord})(?:\\s+(?:${nameWord}|[a-z]{1,3}))*?\\s+(?:${nameWord})(?:,?\\s+(?:Jr\\.|Sr\\.|II|III|IV))?$`, 'u');
const isPersonName = (text: string) => text.length <= 60 && personName.test(text) && !/\b(?:Board|Director|Nominee|Election|Proposal|Committee|Corporation|Company)\b/i.test(text);

const numberWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const countOf = (word: string) => (/^\d+$/.test(word) ? Number(word) : numberWords.indexOf(word.toLowerCase()) >= 0 ? numberWords.indexOf(word.toLowerCase()) : null);

/** Sentences of flowing text; an initial ("Cynthia A. Arnold") or a title ("Ms.") does not end one. */
function sentences(text: string): string[] {
  return text.split(/(?<=[a-z0-9)\]"\u201d]{2}\.)\s+(?=[A-Z"\u201c])/);
}

export function parseDirectorNominees(html: string): DirectorNominees {
  const lines = blockLines(html);
  const nominees: { name: string; sourceSpan: string }[] = [];
  lines.forEach((line, i) => {
    const marker = nomineeMarker.exec(line);
    if (!marker) return;
    const name = marker[1] || lines[i - 1] || '';
    if (!isPersonName(name) || nominees.some((n) => n.name === name)) return;
    nominees.push({ name, sourceSpan: marker[1] ? line : `${name} ${line}` });
  });
  const text = lines.join(' ');
  const disagreements: string[] = [];
  const counts = [
    ...text.matchAll(/\b(\w+)\s+(?:directors|nominees|persons)\s+(?:are|have been)\s+(?:proposed|nominated)\s+(?:to be elected|for election)/gi),
    ...text.matchAll(/\belection of (?:its|the|our|all) (\w+) (?:director )?nominees/gi),
  ]
    .map((m) => countOf(m[1]))
    .filter((n): n is number => n !== null);
  const distinct = [...new Set(counts)];
  if (distinct.length > 1) disagreements.push(`the statement gives different numbers of nominees: ${distinct.join(', ')}`);
  const statedCount = distinct.length === 1 ? distinct[0] : null;
  const sentence = nominees.length ? (sentences(text).find((s) => s.length <= 800 && /nominat/i.test(s) && nominees.every((n) => s.includes(n.name))) ?? null) : null;
  if (nominees.length && !sentence) disagreements.push('no sentence of the statement names every nominee the profiles mark');
  if (nominees.length && statedCount !== null && statedCount !== nominees.length) disagreements.push(`the statement says ${statedCount} nominees, the profiles mark ${nominees.length}`);
  const agreeing = (sentence ? 1 : 0) + (statedCount === nominees.length ? 1 : 0);
  const confidence = agreeing === 2 ? 'high' : agreeing === 1 ? 'medium' : 'low';
  return { nominees: nominees.map((n) => ({ ...n, confidence })), sentence, statedCount, disagreements };
}
