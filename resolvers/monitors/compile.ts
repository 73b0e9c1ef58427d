// Plain English to a monitor spec, deterministically and offline: patterns over the text claim
// what they understand (form types, 8-K items and events, fact thresholds, date windows, a
// delivery), the words left over are looked up as companies, and what is still left is reported
// as `unparsed`. The query is checked with the route's own parameter schema before it is
// returned, so a monitor is never saved with a read the route would refuse.
import type { PrismaClient } from '../../prisma/db.ts';
import { ApiError } from '../../core/errors.ts';
import { fieldName, issueSentence } from '../../core/issues.ts';
import { cikOf, tickerMatches, tickerOf } from '../entities.ts';
import { watchableReads } from './watchable.ts';

export type MonitorDelivery = { type: 'webhook'; webhookEndpointId: string } | { type: 'email'; address: string };
export interface MonitorQuery {
  route: string;
  params: Record<string, string>;
  /** facts routes only, decimal strings, e.g. "1000000000", "0" */
  threshold?: { below?: string; above?: string };
}
export interface CompiledMonitor {
  query: MonitorQuery;
  delivery?: MonitorDelivery;
  /** 0..1, 2 decimals */
  confidence: number;
  unparsed: string[];
  explanation: string;
}
export interface CompileEnv {
  /** resolves a company phrase (ticker like "AAPL" / "$AAPL", or a name like "Apple" / "apple inc") against the service's entities; null when unknown */
  findCompany(phrase: string): Promise<{ cik: string; name: string; ticker: string | null } | null>;
  /** the organization's enabled webhook endpoints */
  webhookEndpoints(): Promise<{ id: string; url: string; description: string | null }[]>;
}

type Company = NonNullable<Awaited<ReturnType<CompileEnv['findCompany']>>>;
type Endpoint = Awaited<ReturnType<CompileEnv['webhookEndpoints']>>[number];

export const maxTextLength = 1000;

// ---------------------------------------------------------------------------------------------
// Vocabulary

/** 8-K items that have an event route of their own. */
export const itemEvents: Record<string, string> = { '4.01': 'auditor-changes', '4.02': 'restatements', '5.02': 'officer-changes', '5.07': 'voting-results' };

export const itemNames: Record<string, string> = {
  '1.01': 'entry into a material agreement',
  '1.03': 'bankruptcy or receivership',
  '2.01': 'completion of an acquisition or disposition',
  '2.02': 'results of operations',
  '2.03': 'creation of a direct financial obligation',
  '2.05': 'exit or disposal costs',
  '2.06': 'material impairments',
  '3.01': 'delisting notice',
  '5.03': 'amendments to articles or bylaws',
  '7.01': 'Regulation FD disclosure',
  '8.01': 'other events',
};

export const eventTitles: Record<string, string> = {
  'auditor-changes': 'changes of certifying accountant (8-K item 4.01)',
  restatements: 'restatements and non-reliance notices (8-K item 4.02)',
  'officer-changes': 'departures and appointments of directors and officers (8-K item 5.02)',
  'voting-results': 'shareholder vote results (8-K item 5.07)',
  ipo: 'IPO and offering candidates',
  ma: 'merger and acquisition signals',
  enforcement: 'SEC enforcement actions',
};

const formTitles: Record<string, string> = {
  '1-a': 'Regulation A offering statements (Form 1-A)',
  '144': 'Form 144 notices of proposed sale',
  c: 'Regulation Crowdfunding forms (Form C)',
  d: 'Form D exempt offerings',
  ncen: 'fund annual reports (Form N-CEN)',
  npx: 'fund proxy voting records (Form N-PX)',
};

/** Form types as filed, each with the spellings people use (10k, 10 K, 8-Ks). */
const formSpellings: [string, string][] = [
  ['10-?k/a', '10-K/A'],
  ['10-?k', '10-K'],
  ['10-?q/a', '10-Q/A'],
  ['10-?q', '10-Q'],
  ['8-?k/a', '8-K/A'],
  ['8-?k', '8-K'],
  ['6-?k', '6-K'],
  ['11-?k', '11-K'],
  ['20-?f', '20-F'],
  ['40-?f', '40-F'],
  ['s-?1/a', 'S-1/A'],
  ['s-?1', 'S-1'],
  ['s-?3', 'S-3'],
  ['s-?4', 'S-4'],
  ['s-?8', 'S-8'],
  ['f-?1', 'F-1'],
  ['def\\s?14a', 'DEF 14A'],
  ['defa\\s?14a', 'DEFA14A'],
  ['defm\\s?14a', 'DEFM14A'],
  ['pre\\s?14a', 'PRE 14A'],
  ['(?:sc|schedule)\\s?13-?d/a', 'SC 13D/A'],
  ['(?:sc|schedule)\\s?13-?d', 'SC 13D'],
  ['(?:sc|schedule)\\s?13-?g/a', 'SC 13G/A'],
  ['(?:sc|schedule)\\s?13-?g', 'SC 13G'],
  ['13-?f(?:-?hr)?', '13F-HR'],
];

/** Line items a threshold can watch, and the us-gaap tag the facts read is asked for. */
export const metrics: { pattern: string; tag: string; loss?: boolean; label: string }[] = [
  { pattern: 'net\\s+loss(?:es)?', tag: 'NetIncomeLoss', loss: true, label: 'net loss' },
  { pattern: 'net\\s+(?:income|profits?|earnings)|profits?', tag: 'NetIncomeLoss', label: 'net income' },
  { pattern: 'earnings\\s+per\\s+share|eps', tag: 'EarningsPerShareDiluted', label: 'diluted EPS' },
  { pattern: 'operating\\s+(?:income|profit)', tag: 'OperatingIncomeLoss', label: 'operating income' },
  { pattern: '(?:total\\s+|net\\s+)?(?:revenues?|sales)|top\\s+line', tag: 'Revenues', label: 'revenue' },
  { pattern: 'total\\s+assets', tag: 'Assets', label: 'total assets' },
  { pattern: 'total\\s+liabilities', tag: 'Liabilities', label: 'total liabilities' },
  { pattern: '(?:stockholders|shareholders)[\'’]?\\s+equity', tag: 'StockholdersEquity', label: "stockholders' equity" },
  { pattern: 'long[-\\s]term\\s+debt', tag: 'LongTermDebt', label: 'long-term debt' },
  { pattern: 'cash(?:\\s+and\\s+(?:cash\\s+)?equivalents)?', tag: 'CashAndCashEquivalentsAtCarryingValue', label: 'cash' },
];

const unitExponents: Record<string, number> = { k: 3, thousand: 3, m: 6, mm: 6, mn: 6, mil: 6, million: 6, b: 9, bn: 9, billion: 9, t: 12, tn: 12, trillion: 12 };

/** Words that carry no query of their own: the framing of a request ("alert me when … files a …"). */
export const stopWords = new Set(
  `a an the any anything all every each new newly latest recent some
   alert alerts alerting notify notification notifications tell ping let know watch watching monitor track
   me us my our i we you it its them they that this these those there here
   when whenever if once as soon is are was be been being has have had does do did get gets got make makes made
   file files filed filing filings submit submits submitted report reports reported form forms disclose discloses disclosed announce announces announced
   of for by from on in at to about with and or please send email e-mail mail post deliver delivery via through using
   company companies issuer issuers news update updates something happens against regarding concerning involving also`.split(/\s+/),
);

// ---------------------------------------------------------------------------------------------
// The scan: which characters of the text some pattern has claimed

export interface Span {
  start: number;
  end: number;
}

export class Scan {
  private readonly claimed: boolean[];
  constructor(readonly text: string) {
    this.claimed = new Array(text.length).fill(false);
  }

  /** Each match of `pattern` that overlaps nothing claimed yet; `use` returns false to leave it unclaimed. */
  take(pattern: RegExp, use: (m: RegExpExecArray, span: Span) => boolean | void): void {
    const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
      if (!m[0]) {
        re.lastIndex++;
        continue;
      }
      const span = { start: m.index, end: m.index + m[0].length };
      if (this.isFree(span) && use(m, span) !== false) this.claim(span);
    }
  }

  claim(span: Span): void {
    for (let i = span.start; i < span.end; i++) this.claimed[i] = true;
  }

  isFree(span: Span): boolean {
    for (let i = span.start; i < span.end; i++) if (this.claimed[i]) return false;
    return true;
  }

  slice(span: Span): string {
    return this.text.slice(span.start, span.end);
  }

  /** The unclaimed words, grouped in runs that nothing claimed (or sentence punctuation) interrupts. */
  leftoverRuns(): Word[][] {
    const runs: Word[][] = [];
    let run: Word[] = [];
    let last = 0;
    for (const m of this.text.matchAll(/\$?[A-Za-z0-9][A-Za-z0-9&'’._\/-]*[A-Za-z0-9]|\$?[A-Za-z0-9]/g)) {
      const span = { start: m.index!, end: m.index! + m[0].length };
      if (!this.isFree(span)) continue;
      const gap = this.text.slice(last, span.start);
      if (run.length && (!this.isFree({ start: last, end: span.start }) || /[;:!?()"]/.test(gap))) (runs.push(run), (run = []));
      run.push({ text: m[0], lower: m[0].toLowerCase(), ...span });
      last = span.end;
    }
    if (run.length) runs.push(run);
    return runs;
  }
}

export interface Word extends Span {
  text: string;
  lower: string;
}

// ---------------------------------------------------------------------------------------------
// What the patterns find

/** One candidate for what the monitor reads; the first one found wins unless a later one absorbs it. */
export type Intent =
  | { kind: 'form'; form: string; span: Span }
  | { kind: 'item'; item: string; span: Span }
  | { kind: 'event'; slug: string; span: Span }
  | { kind: 'family'; slug: string; formType?: string; span: Span }
  | { kind: 'metric'; tag: string; label: string; threshold?: { below?: string; above?: string }; span: Span };

interface Draft {
  intents: Intent[];
  meetingType?: { value: 'annual' | 'special'; span: Span };
  dates: { filed_from?: string; filed_to?: string; span: Span }[];
  emails: { address: string; span: Span }[];
  webhookIds: { id: string; span: Span }[];
  webhookPhrase?: Span;
  emailWord?: Span;
  saysFiles: boolean;
}

export const wordy = (pattern: string) => new RegExp(`(?<![\\w-])(?:${pattern})(?![\\w-])`, 'gi');

function findIntents(scan: Scan, draft: Draft): void {
  const add = (intent: Intent) => void draft.intents.push(intent);
  // Items by number first: "item 5.02" is the most precise thing a text can say.
  scan.take(wordy('(?:8-?k\\s+)?items?\\s+(\\d{1,2}\\.\\d{2})(?:\\s+of\\s+(?:an?\\s+)?8-?k)?'), (m, span) => {
    const item = m[1]!;
    add(itemEvents[item] ? { kind: 'event', slug: itemEvents[item], span } : { kind: 'item', item, span });
  });
  // Insider trading before metrics, so that "insider sales" is Form 4 and not revenue.
  scan.take(wordy("insiders?(?:'s|s')?(?:\\s+(?:trades?|trading|transactions?|buys?|buying|sells?|selling|purchases?|sales|filings?|ownership))?|form\\s+4s?|ownership\\s+changes?"), (_, span) => add({ kind: 'form', form: '4', span }));
  scan.take(wordy('form\\s+([35])s?'), (m, span) => add({ kind: 'form', form: m[1]!, span }));
  findMetrics(scan, draft);
  findEvents(scan, add);
  findFamilies(scan, add);
  findForms(scan, add);
  scan.take(wordy('(annual|special)\\s+(?:shareholders?\\s+|stockholders?\\s+)?meetings?'), (m, span) => {
    draft.meetingType = { value: m[1]!.toLowerCase() as 'annual' | 'special', span };
  });
}

export function findEvents(scan: Scan, add: (i: Intent) => void): void {
  const role = '(?:ceo|cfo|coo|cto|chief\\s+\\w+\\s+officer|president|chair(?:man|woman|person)?|directors?|officers?|executives?|management|board\\s+members?)';
  const change =
    '(?:changes?|changed|departures?|departs?|departing|leaves|leaving|left|resigns?|resigned|resignations?|steps\\s+down|stepping\\s+down|exits?|appointments?|appointed|turnover|fired|retires?|retirement|succession)';
  const event = (slug: string) => (_: RegExpExecArray, span: Span) => add({ kind: 'event', slug, span });
  scan.take(wordy(`(?:new\\s+)?${role}(?:'s|s')?\\s+${change}|${change}\\s+(?:of|in|by)\\s+(?:the\\s+|a\\s+|an\\s+|its\\s+)?${role}|new\\s+(?:ceo|cfo|coo)`), event('officer-changes'));
  scan.take(
    wordy('(?:auditors?|accountants?|audit\\s+firm|accounting\\s+firm)(?:\\s+(?:changes?|changed|switch(?:es)?|dismissals?|dismissed|resigns?|resignation))|(?:changes?|switch(?:es)?)\\s+(?:of\\s+|in\\s+)?(?:the\\s+|its\\s+)?(?:certifying\\s+)?(?:auditors?|accountants?)'),
    event('auditor-changes'),
  );
  scan.take(wordy('restatements?|restates?|restated|restating|non-?reliance'), event('restatements'));
  scan.take(wordy('(?:shareholders?|stockholders?)\\s+votes?(?:\\s+results?)?|(?:vote|voting)\\s+(?:results?|outcomes?)|results\\s+of\\s+(?:the\\s+)?(?:shareholders?\\s+|stockholders?\\s+)?votes?'), event('voting-results'));
  scan.take(wordy('earnings(?:\\s+(?:releases?|reports?|announcements?|results?))?|results\\s+of\\s+operations|quarterly\\s+results'), (_, span) => add({ kind: 'item', item: '2.02', span }));
  scan.take(wordy('ipos?|initial\\s+public\\s+offerings?|goes\\s+public|going\\s+public'), event('ipo'));
  scan.take(wordy('mergers?(?:\\s+(?:and|&)\\s+acquisitions?)?|acquisitions?|m\\s?&\\s?a|takeovers?|buyouts?|tender\\s+offers?|acquires|acquired'), event('ma'));
  scan.take(wordy('(?:sec\\s+)?enforcement(?:\\s+actions?)?'), event('enforcement'));
}

function findFamilies(scan: Scan, add: (i: Intent) => void): void {
  const family = (slug: string) => (m: RegExpExecArray, span: Span) => add({ kind: 'family', slug, span, ...(m[1] ? { formType: m[1].toUpperCase() } : {}) });
  const noun = '(?:\\s+(?:offerings?|filings?|statements?|notices?|reports?|campaigns?))?';
  const take = (pattern: string, slug: string) => scan.take(wordy(`(?:${pattern})${noun}`), family(slug));
  take('form\\s+(d/a)|form\\s+ds?|private\\s+placements?|exempt\\s+offerings?|reg(?:ulation)?\\s+d', 'd');
  take('form\\s+144s?|rule\\s+144', '144');
  take('form\\s+(c-u|c-ar|c-tr|c/a)|form\\s+c|crowdfunding|reg(?:ulation)?\\s+cf', 'c');
  take('(?:form\\s+)?1-a|reg(?:ulation)?\\s+a\\+?', '1-a');
  take('(?:form\\s+)?n-?cen', 'ncen');
  take('(?:form\\s+)?n-?px', 'npx');
}

export function findForms(scan: Scan, add: (i: Intent) => void): void {
  const form = (value: string) => (_: RegExpExecArray, span: Span) => add({ kind: 'form', form: value, span });
  scan.take(wordy('annual\\s+reports?'), form('10-K'));
  scan.take(wordy('quarterly\\s+reports?'), form('10-Q'));
  scan.take(wordy('current\\s+reports?'), form('8-K'));
  scan.take(wordy('proxy\\s+statements?|proxies|proxy'), form('DEF 14A'));
  for (const [spelling, canonical] of formSpellings) scan.take(wordy(`(?:form\\s+)?(?:${spelling})(?:'?s)?`), form(canonical));
  scan.take(wordy('(?:form\\s+)?424b([1-8])s?'), (m, span) => add({ kind: 'form', form: `424B${m[1]}`, span }));
  // A bare 424B names no one form type; the IPO read is the one that follows 424B prospectuses.
  scan.take(wordy('(?:form\\s+)?424bs?|prospectus(?:es)?'), (_, span) => add({ kind: 'event', slug: 'ipo', span }));
}

// ---------------------------------------------------------------------------------------------
// Fact thresholds

const amountPattern = `(-|minus\\s+|negative\\s+)?\\$?\\s?(\\d[\\d,]*(?:\\.\\d+)?|zero)\\s?(${Object.keys(unitExponents).sort((a, b) => b.length - a.length).join('|')})?(?![\\w])(?:\\s+(?:dollars|usd))?`;
const belowWords = 'below|under|beneath|less\\s+than|lower\\s+than|fewer\\s+than|at\\s+most|no\\s+more\\s+than|<=?';
const aboveWords = 'above|over|more\\s+than|greater\\s+than|higher\\s+than|at\\s+least|no\\s+less\\s+than|exceeds?|exceeding|tops?|surpass(?:es)?|>=?';
const verbs = '(?:\\s+(?:is|are|was|were|falls?|fell|drops?|dropped|goes|went|gets|rises?|rose|climbs?|comes?\\s+in|came\\s+in|reported|reports?|of))*';

function findMetrics(scan: Scan, draft: Draft): void {
  for (const metric of metrics) {
    const one = `(${belowWords}|${aboveWords})\\s*${amountPattern}`;
    scan.take(wordy(`(${metric.pattern})${verbs}(?:\\s+between\\s+${amountPattern}\\s+and\\s+${amountPattern}|\\s*${one}(?:\\s+(?:and|but)\\s+${one})?)?`), (m, span) => {
      const threshold = thresholdOf(m.slice(2), Boolean(metric.loss));
      if (threshold === null) return false;
      draft.intents.push({ kind: 'metric', tag: metric.tag, label: metric.label, span, ...(threshold ? { threshold } : {}) });
    });
  }
}

/**
 * The captures after the metric: a between-range (6 groups) or up to two comparisons (4 groups
 * each). A loss is a negative net income, so its comparisons turn around. undefined: no
 * threshold at all; null: a threshold that cannot be read.
 */
function thresholdOf(groups: (string | undefined)[], loss: boolean): { below?: string; above?: string } | undefined | null {
  const [lowSign, low, lowUnit, highSign, high, highUnit, ...rest] = groups;
  const out: { below?: string; above?: string } = {};
  const set = (side: 'below' | 'above', value: string | null) => {
    if (value === null) return false;
    if (loss) out[side === 'below' ? 'above' : 'below'] = negate(value);
    else out[side] = value;
    return true;
  };
  if (low) {
    if (!set('above', amountOf(lowSign, low, lowUnit)) || !set('below', amountOf(highSign, high!, highUnit))) return null;
  } else {
    for (let i = 0; i < rest.length; i += 4) {
      const [comparator, sign, digits, unit] = rest.slice(i, i + 4);
      if (!comparator) continue;
      const side = new RegExp(`^(?:${belowWords})$`, 'i').test(comparator.replace(/\s+/g, ' ')) ? 'below' : 'above';
      if (!set(side, amountOf(sign, digits!, unit))) return null;
    }
  }
  // "net loss" on its own: any loss, that is net income below zero.
  if (loss && !out.below) out.below = '0';
  return out.below || out.above ? out : undefined;
}

/** "1.5", "b" → "1500000000": exact decimal arithmetic on the digits, never a float. */
export function amountOf(sign: string | undefined, digits: string, unit: string | undefined): string | null {
  if (digits.toLowerCase() === 'zero') return '0';
  const [whole, fraction = ''] = digits.replace(/,/g, '').split('.');
  if (!whole || !/^\d+$/.test(whole) || !/^\d*$/.test(fraction)) return null;
  const shift = unit ? unitExponents[unit.toLowerCase()] ?? 0 : 0;
  const all = whole + fraction.padEnd(shift, '0');
  const point = whole.length + shift;
  const intPart = all.slice(0, point).replace(/^0+(?=\d)/, '');
  const fracPart = all.slice(point).replace(/0+$/, '');
  const value = fracPart ? `${intPart}.${fracPart}` : intPart;
  return sign && value !== '0' ? `-${value}` : value;
}

const negate = (value: string) => (value === '0' ? '0' : value.startsWith('-') ? value.slice(1) : `-${value}`);

// ---------------------------------------------------------------------------------------------
// Date windows

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthName = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/** A day, a month or a year, as written. */
const dateTerm = `\\d{4}-\\d{2}-\\d{2}|${monthName}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}(?:st|nd|rd|th)?\\s+${monthName},?\\s+\\d{4}|${monthName},?\\s+\\d{4}|(?:19|20)\\d{2}`;

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
const isDay = (iso: string) => /^\d{4}-\d{2}-\d{2}$/.test(iso) && !Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) && new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso);
/** An impossible day stays as written, for the route's schema to refuse. */
const shiftDay = (iso: string, days: number) => (isDay(iso) ? new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10) : iso);

/** The first and last day a date term covers; an impossible day (2024-02-30) is kept as written for the schema to refuse. */
function rangeOf(term: string): [string, string] {
  const t = term.toLowerCase().replace(/[.,]/g, ' ').replace(/(\d)(st|nd|rd|th)\b/g, '$1').trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return [t, t];
  if (/^\d{4}$/.test(t)) return [`${t}-01-01`, `${t}-12-31`];
  const parts = t.split(/\s+/);
  const year = Number(parts[parts.length - 1]);
  const monthPart = parts.find((p) => /^[a-z]/.test(p))!;
  const month = months.indexOf(monthPart.slice(0, 3)) + 1;
  const dayPart = parts.find((p, i) => /^\d{1,2}$/.test(p) && i < parts.length - 1);
  if (!dayPart) return [day(year, month, 1), day(year, month + 1, 0)];
  const iso = `${year}-${String(month).padStart(2, '0')}-${dayPart.padStart(2, '0')}`;
  return [iso, iso];
}

function findDates(scan: Scan, draft: Draft): void {
  const term = `(${dateTerm})`;
  const push = (span: Span, window: { filed_from?: string; filed_to?: string }) => void draft.dates.push({ ...window, span });
  scan.take(wordy(`(?:between|from)\\s+${term}\\s+(?:and|to|until|through|thru|-)\\s+${term}`), (m, span) => push(span, { filed_from: rangeOf(m[1]!)[0], filed_to: rangeOf(m[2]!)[1] }));
  // "after" and "before" exclude the day named; "since", "until" and "by" include it.
  scan.take(wordy(`(since|after|from|starting(?:\\s+(?:on|from|in))?|beginning(?:\\s+(?:on|in))?|on\\s+or\\s+after)\\s+${term}`), (m, span) => {
    const [first, last] = rangeOf(m[2]!);
    push(span, { filed_from: /^after$/i.test(m[1]!) ? shiftDay(last, 1) : first });
  });
  scan.take(wordy(`(before|prior\\s+to|until|till|through|thru|by|up\\s+to|on\\s+or\\s+before)\\s+${term}`), (m, span) => {
    const [first, last] = rangeOf(m[2]!);
    push(span, { filed_to: /^(before|prior\s+to)$/i.test(m[1]!) ? shiftDay(first, -1) : last });
  });
  scan.take(wordy(`(?:in|during|for|throughout|within)\\s+${term}`), (m, span) => {
    const [first, last] = rangeOf(m[1]!);
    push(span, { filed_from: first, filed_to: last });
  });
}

// ---------------------------------------------------------------------------------------------
// Delivery

function findDelivery(scan: Scan, draft: Draft): void {
  scan.take(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, (m, span) => void draft.emails.push({ address: m[0], span }));
  scan.take(/\bwe_[A-Za-z0-9]+\b/g, (m, span) => void draft.webhookIds.push({ id: m[0], span }));
  scan.take(wordy('(?:(?:to|via|through|using|on|at|by)\\s+)?(?:(?:my|our|the|a|an)\\s+)?web-?hooks?(?:\\s+endpoints?)?'), (_, span) => {
    draft.webhookPhrase ??= span;
  });
  scan.take(wordy('e-?mail(?:\\s+(?:me|us))?'), (_, span) => {
    draft.emailWord ??= span;
  });
}

/** Words that say nothing about which endpoint is meant (every URL has them). */
const genericUrlWords = new Set(['http', 'https', 'www', 'com', 'net', 'org', 'io', 'api', 'hook', 'hooks', 'webhook', 'webhooks', 'endpoint', 'services', 'localhost', '127']);

function endpointWords(endpoint: Endpoint): Set<string> {
  const words = `${endpoint.description ?? ''} ${endpoint.url}`.toLowerCase().split(/[^a-z0-9]+/);
  return new Set(words.filter((w) => w.length >= 3 && !genericUrlWords.has(w) && !stopWords.has(w)));
}

// ---------------------------------------------------------------------------------------------
// Companies: the leftover words, longest phrase first

export interface CompanyFind {
  company?: Company & { span: Span; guessed: boolean };
  others: Span[];
  leftovers: Word[];
}

const maxPhraseWords = 5;
const maxLookups = 60;

export async function findCompanies(scan: Scan, env: Pick<CompileEnv, 'findCompany'>, reserved: (w: Word) => boolean): Promise<CompanyFind> {
  const found: CompanyFind = { others: [], leftovers: [] };
  const cache = new Map<string, Promise<Company | null>>();
  let lookups = 0;
  const lookup = (phrase: string) => {
    if (!cache.has(phrase)) {
      if (++lookups > maxLookups) return Promise.resolve(null);
      cache.set(phrase, env.findCompany(phrase));
    }
    return cache.get(phrase)!;
  };
  for (const run of scan.leftoverRuns()) {
    for (let i = 0; i < run.length; ) {
      const word = run[i]!;
      if (stopWords.has(word.lower) || reserved(word)) {
        if (reserved(word)) found.leftovers.push(word);
        i++;
        continue;
      }
      let taken = 0;
      for (let n = Math.min(maxPhraseWords, run.length - i); n >= 1 && !taken; n--) {
        const last = run[i + n - 1]!;
        if (stopWords.has(last.lower)) continue;
        const span = { start: word.start, end: last.end };
        const match = await lookup(scan.slice(span));
        if (match) (placeCompany(found, match, span, scan.slice(span)), (taken = n));
      }
      if (!taken) found.leftovers.push(word);
      i += taken || 1;
    }
  }
  return found;
}

function placeCompany(found: CompanyFind, match: Company, span: Span, phrase: string): void {
  if (!found.company) found.company = { ...match, span, guessed: !namesSame(phrase, match) };
  else if (found.company.cik !== match.cik) found.others.push(span); // a monitor watches one company
}

/** Whether the phrase says the company's name or ticker outright, rather than the start of a name. */
function namesSame(phrase: string, company: Company): boolean {
  const bare = phrase.replace(/^\$/, '').toUpperCase();
  return bare === company.ticker || cikOf(bare.replace(/\s+/g, '')) === company.cik || normalizeName(phrase) === normalizeName(company.name);
}

const nameSuffixes = new Set(['inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'llc', 'lp', 'llp', 'plc', 'sa', 'ag', 'nv', 'se', 'the']);

/** "Apple Inc." and "apple" are one name: lower case, no punctuation, no legal-form suffix or leading "the". */
export function normalizeName(name: string): string {
  const words = name
    .toLowerCase()
    .replace(/\/[a-z]{2,3}\/?$/, '') // EDGAR's state tags: "APPLE INC /CA/"
    .replace(/[.'’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words[0] === 'the') words.shift();
  while (words.length > 1 && nameSuffixes.has(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Choosing the route

interface Choice {
  route: string;
  params: Record<string, string>;
  /** where each param came from, to report it if the route refuses it */
  sources: Record<string, Span>;
  threshold?: { below?: string; above?: string };
  /** what the read watches, given the company phrase (" of Apple Inc. (AAPL)") */
  what: (who: string) => string;
  facts: boolean;
}

const filingsForms = new Set(['10-K', '10-Q', '10-K/A', '10-Q/A', '20-F', '40-F']);

/** Whether `a` can take `b` in: an 8-K item or event is an 8-K; a fact can come from a named form. */
function absorbs(a: Intent, b: Intent): boolean {
  if (same(a, b)) return true;
  if (b.kind !== 'form') return false;
  if (a.kind === 'item' || (a.kind === 'event' && ['auditor-changes', 'restatements', 'officer-changes', 'voting-results', 'ma'].includes(a.slug))) return b.form === '8-K';
  if (a.kind === 'metric') return filingsForms.has(b.form);
  return false;
}

function same(a: Intent, b: Intent): boolean {
  const { span: _a, ...restA } = a;
  const { span: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

/** The first intent in the text, unless a later one absorbs it; what neither absorbs is left over. */
function pickIntent(intents: Intent[]): { primary?: Intent; absorbed: Intent[]; rejected: Intent[] } {
  const ordered = [...intents].sort((a, b) => a.span.start - b.span.start);
  let primary = ordered[0];
  let absorbed: Intent[] = [];
  const rejected: Intent[] = [];
  for (const next of ordered.slice(1)) {
    if (absorbs(primary!, next)) absorbed.push(next);
    else if (absorbed.every((a) => absorbs(next, a)) && absorbs(next, primary!)) (absorbed.push(primary!), (primary = next));
    else rejected.push(next);
  }
  // A form the primary took in (10-K for a fact) narrows it; the rest just confirm it.
  absorbed = absorbed.filter((a) => a !== primary);
  return { primary, absorbed, rejected };
}

function describeIntent(primary: Intent | undefined, absorbed: Intent[]): Choice {
  const base = { params: {} as Record<string, string>, sources: {} as Record<string, Span>, facts: false };
  const read = (what: string) => (who: string) => `new ${what}${who}`;
  if (!primary) return { ...base, route: '/v1/filings', what: read('filings') };
  switch (primary.kind) {
    case 'form':
      return { ...base, route: '/v1/filings', params: { form: primary.form }, sources: { form: primary.span }, what: read(`Form ${primary.form} filings`) };
    case 'item': {
      const name = itemNames[primary.item];
      return { ...base, route: '/v1/filings', params: { form: '8-K', item: primary.item }, sources: { form: primary.span, item: primary.span }, what: (who) => `new 8-K filings${who} reporting item ${primary.item}${name ? ` (${name})` : ''}` };
    }
    case 'event':
      return { ...base, route: `/v1/events/${primary.slug}`, what: read(eventTitles[primary.slug]!) };
    case 'family':
      return {
        ...base,
        route: `/v1/forms/${primary.slug}`,
        params: primary.formType ? { form_type: primary.formType } : {},
        sources: primary.formType ? { form_type: primary.span } : {},
        what: read(`${formTitles[primary.slug]}${primary.formType ? ` of type ${primary.formType}` : ''}`),
      };
    case 'metric': {
      const form = absorbed.find((a): a is Extract<Intent, { kind: 'form' }> => a.kind === 'form');
      return {
        ...base,
        route: '/v1/facts',
        facts: true,
        params: { tag: primary.tag, ...(form ? { form: form.form } : {}) },
        sources: { tag: primary.span, ...(form ? { form: form.span } : {}) },
        ...(primary.threshold ? { threshold: primary.threshold } : {}),
        what: (who) => `the ${primary.label} (${primary.tag}) reported${who}${form ? ` in Form ${form.form} filings` : ''}${describeThreshold(primary.threshold)}`,
      };
    }
  }
}

function describeThreshold(threshold?: { below?: string; above?: string }): string {
  if (!threshold) return '';
  const parts = [threshold.above !== undefined && `above ${threshold.above}`, threshold.below !== undefined && `below ${threshold.below}`].filter(Boolean);
  return `, alerting when a value is ${parts.join(' and ')}`;
}

// ---------------------------------------------------------------------------------------------
// The compiler

function refuse(message: string, details: Record<string, unknown>): never {
  throw new ApiError('validation_error', message, { details: { parameter: 'text', ...details } });
}

export async function compileMonitor(text: string, env: CompileEnv): Promise<CompiledMonitor> {
  if (typeof text !== 'string' || !text.trim()) refuse('Describe what the monitor should watch: the text is empty.', { reason: 'empty' });
  if (text.length > maxTextLength) refuse(`The description is longer than ${maxTextLength} characters.`, { reason: 'too_long', maxLength: maxTextLength });

  const scan = new Scan(text);
  const draft: Draft = { intents: [], dates: [], emails: [], webhookIds: [], saysFiles: /\b(?:files?|filed|filings?|anything)\b/i.test(text) };
  findDelivery(scan, draft);
  findDates(scan, draft);
  findIntents(scan, draft);

  const unparsed: Span[] = [];
  const notes: string[] = [];
  let guesses = 0;

  const endpoints = draft.webhookPhrase || draft.webhookIds.length ? await env.webhookEndpoints() : [];
  const endpointVocab = endpoints.map((e) => ({ endpoint: e, words: endpointWords(e) }));
  const namesEndpoint = (w: Word) => endpointVocab.some((e) => e.words.has(w.lower));
  // A word just before "webhook" ("the ops webhook") names an endpoint, not a company.
  const qualifier = (w: Word) => Boolean(draft.webhookPhrase) && namesEndpoint(w) && /^\s*$/.test(text.slice(w.end, draft.webhookPhrase!.start));
  const found = await findCompanies(scan, env, qualifier);

  const { delivery, leftovers } = resolveDelivery(text, draft, endpointVocab, found, unparsed, notes);
  unparsed.push(...wordSpans(text, leftovers), ...found.others);
  if (found.others.length) notes.push('a monitor watches one company, so only the first one named is used');

  // What the monitor reads.
  const { primary, absorbed, rejected } = pickIntent(draft.intents);
  unparsed.push(...rejected.map((r) => r.span));
  if (rejected.length) guesses++;
  const company = found.company;
  if (!primary && !company) {
    refuse('Nothing in the text names a company, form type, 8-K item or event to watch.', { reason: 'nothing_understood', unparsed: finalUnparsed(scan, unparsed) });
  }
  if (primary?.kind === 'metric' && !company) {
    refuse(`A threshold on ${primary.label} needs a company: facts are read per company (by ticker or CIK).`, { reason: 'company_required', unparsed: finalUnparsed(scan, unparsed) });
  }
  if (!primary && !draft.saysFiles) guesses++;
  if (company?.guessed) guesses++;

  const choice = describeIntent(primary, absorbed);
  if (company) {
    const key = company.ticker ? 'ticker' : 'cik';
    choice.params[key] = company.ticker ?? company.cik;
    choice.sources[key] = company.span;
  }
  if (draft.meetingType) {
    if (choice.route === '/v1/events/voting-results') (choice.params.meeting_type = draft.meetingType.value), (choice.sources.meeting_type = draft.meetingType.span);
    else unparsed.push(draft.meetingType.span);
  }
  applyDates(choice, draft, unparsed, notes);

  const rejectedParams = await validateParams(choice);
  for (const key of rejectedParams) {
    const span = choice.sources[key];
    if (span && !unparsed.some((u) => u.start === span.start && u.end === span.end)) unparsed.push(span);
  }
  if (rejectedParams.length) notes.push(`the read ${choice.route} does not accept ${rejectedParams.join(', ')} as written`);

  const words = finalUnparsed(scan, unparsed);
  const confidence = Math.round(Math.max(0.05, Math.min(1, 1 - 0.2 * words.length - 0.1 * guesses)) * 100) / 100;
  return {
    query: { route: choice.route, params: choice.params, ...(choice.threshold ? { threshold: choice.threshold } : {}) },
    ...(delivery ? { delivery } : {}),
    confidence,
    unparsed: words,
    explanation: explain(choice, company, delivery, endpoints, words, notes),
  };
}

/** An email address, a webhook by id, or "webhook" resolved against the endpoints; the rest is reported. */
function resolveDelivery(text: string, draft: Draft, endpointVocab: { endpoint: Endpoint; words: Set<string> }[], found: CompanyFind, unparsed: Span[], notes: string[]): { delivery?: MonitorDelivery; leftovers: Word[] } {
  let delivery: MonitorDelivery | undefined;
  let leftovers = found.leftovers;
  if (draft.emails.length) {
    delivery = { type: 'email', address: draft.emails[0]!.address };
    unparsed.push(...draft.emails.slice(1).map((e) => e.span));
  }
  for (const { id, span } of draft.webhookIds) {
    const known = endpointVocab.some((e) => e.endpoint.id === id);
    if (known && !delivery) delivery = { type: 'webhook', webhookEndpointId: id };
    else {
      unparsed.push(span);
      if (!known) notes.push(`${id} is not an enabled webhook endpoint of this organization`);
    }
  }
  // A webhook named by id is that one or none: the word "webhook" beside it is not asked about again.
  if (draft.webhookPhrase && !delivery && !draft.webhookIds.length) {
    const chosen = chooseEndpoint(endpointVocab, draft.webhookPhrase, [...leftovers, ...wordsIn(text, found.company?.span)]);
    if (chosen.endpoint) {
      delivery = { type: 'webhook', webhookEndpointId: chosen.endpoint.id };
      leftovers = leftovers.filter((w) => !chosen.used.includes(w));
    } else {
      unparsed.push(draft.webhookPhrase);
      notes.push(chosen.why);
    }
  } else if (draft.webhookPhrase && delivery?.type === 'email') unparsed.push(draft.webhookPhrase);
  if (draft.emailWord && !draft.emails.length) {
    unparsed.push(draft.emailWord);
    notes.push('no email address was given');
  }
  return { ...(delivery ? { delivery } : {}), leftovers };
}

/** Dates narrow filing reads; a later window replaces an earlier one, and an empty window is refused. */
function applyDates(choice: Choice, draft: Draft, unparsed: Span[], notes: string[]): void {
  for (const window of draft.dates) {
    for (const key of ['filed_from', 'filed_to'] as const) {
      if (!window[key]) continue;
      const earlier = choice.sources[key];
      if (earlier && earlier !== window.span) unparsed.push(earlier);
      choice.params[key] = window[key];
      choice.sources[key] = window.span;
    }
  }
  const { filed_from: from, filed_to: to } = choice.params;
  if (from && to && from > to && isDay(from) && isDay(to)) {
    unparsed.push(choice.sources.filed_from!, choice.sources.filed_to!);
    notes.push(`the window ${from} to ${to} is empty`);
    delete choice.params.filed_from;
    delete choice.params.filed_to;
  }
}

/**
 * The route's own query schema decides: each param it refuses is dropped (and reported). A
 * facts read without its company or tag is no read at all.
 */
async function validateParams(choice: Choice): Promise<string[]> {
  const route = watchableReads().find((r) => r.path === choice.route);
  const schema = route?.params.query;
  if (!schema) refuse(`There is no read ${choice.route} to watch.`, { reason: 'no_route' });
  const dropped: string[] = [];
  // before the schema, which refuses a facts read without a company too, but says less
  if (choice.facts && !(choice.params.ticker || choice.params.cik)) refuse('A facts monitor needs a company (ticker or CIK).', { reason: 'company_required' });
  for (;;) {
    const result = schema.safeParse(choice.params, { reportInput: true });
    if (result.success) break;
    const bad = new Set<string>();
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') issue.keys.forEach((k) => bad.add(k));
      else if (issue.path.length) bad.add(String(issue.path[0]));
    }
    const removable = [...bad].filter((k) => k in choice.params);
    if (!removable.length) refuse(`The query for ${choice.route} is not valid: ${result.error.issues.map((i) => issueSentence(fieldName(i.path), i)).join(' ')}`, { reason: 'invalid_query', route: choice.route });
    for (const key of removable) (delete choice.params[key], dropped.push(key));
  }
  // The bounds the monitor API stores: 30 integer digits, 12 decimals.
  if (choice.threshold && !Object.values(choice.threshold).every((v) => /^-?\d{1,30}(?:\.\d{1,12})?$/.test(v))) {
    delete choice.threshold;
    dropped.push('threshold');
  }
  if (choice.facts && !(choice.params.ticker || choice.params.cik)) refuse('A facts monitor needs a company (ticker or CIK).', { reason: 'company_required' });
  return dropped;
}

/** One endpoint: that one. Several: the one named by the word nearest the "webhook" phrase. */
function chooseEndpoint(vocab: { endpoint: Endpoint; words: Set<string> }[], phrase: Span, words: Word[]): { endpoint?: Endpoint; used: Word[]; why: string } {
  if (!vocab.length) return { used: [], why: 'the organization has no enabled webhook endpoint' };
  const distance = (w: Word) => Math.min(Math.abs(w.start - phrase.end), Math.abs(phrase.start - w.end));
  const naming = words
    .map((w) => ({ w, matches: vocab.filter((e) => e.words.has(w.lower)) }))
    .filter((x) => x.matches.length === 1)
    .sort((a, b) => distance(a.w) - distance(b.w) || a.w.start - b.w.start);
  const endpoint = vocab.length === 1 ? vocab[0]!.endpoint : naming[0]?.matches[0]!.endpoint;
  if (!endpoint) return { used: [], why: `${vocab.length} webhook endpoints are enabled and the text names none of them` };
  return { endpoint, used: naming.filter((x) => x.matches[0]!.endpoint === endpoint).map((x) => x.w), why: '' };
}

function wordsIn(text: string, span: Span | undefined): Word[] {
  if (!span) return [];
  return [...text.slice(span.start, span.end).matchAll(/[A-Za-z0-9]+/g)].map((m) => ({ text: m[0], lower: m[0].toLowerCase(), start: span.start + m.index!, end: span.start + m.index! + m[0].length }));
}

/** Leftover words, joined into one phrase where only spaces separate them. */
function wordSpans(text: string, words: Word[]): Span[] {
  const spans: Span[] = [];
  for (const w of [...words].sort((a, b) => a.start - b.start)) {
    const last = spans[spans.length - 1];
    if (last && /^\s+$/.test(text.slice(last.end, w.start))) last.end = w.end;
    else spans.push({ start: w.start, end: w.end });
  }
  return spans;
}

/** The unparsed phrases, in text order, each once. */
function finalUnparsed(scan: Scan, spans: Span[]): string[] {
  const seen = new Set<string>();
  return [...spans]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .filter((s) => {
      const key = `${s.start}:${s.end}`;
      return !seen.has(key) && (seen.add(key), true);
    })
    .map((s) => scan.slice(s).trim())
    .filter(Boolean);
}

function explain(choice: Choice, company: CompanyFind['company'], delivery: MonitorDelivery | undefined, endpoints: Endpoint[], unparsed: string[], notes: string[]): string {
  const who = company ? ` ${choice.facts ? 'by' : 'of'} ${company.name}${company.ticker ? ` (${company.ticker})` : ` (CIK ${company.cik})`}` : ' from any company';
  const { filed_from: from, filed_to: to } = choice.params;
  const window = from && to ? `, filed ${from} to ${to}` : from ? `, filed on or after ${from}` : to ? `, filed on or before ${to}` : '';
  const endpoint = delivery?.type === 'webhook' ? endpoints.find((e) => e.id === delivery.webhookEndpointId) : undefined;
  const to_ = delivery?.type === 'email' ? `; alerts are emailed to ${delivery.address}` : endpoint ? `; alerts go to webhook endpoint ${endpoint.id} (${endpoint.url})` : '';
  const meeting = choice.params.meeting_type ? ` at ${choice.params.meeting_type} meetings` : '';
  const watch = `Watches ${choice.what(who)}${meeting}${choice.facts ? '' : window}${to_}.`;
  const left = unparsed.length ? ` Not understood: ${unparsed.map((u) => `"${u}"`).join(', ')}${notes.length ? ` (${notes.join('; ')})` : ''}.` : '';
  return watch + left;
}

// ---------------------------------------------------------------------------------------------
// The environment over the database

export function prismaCompileEnv(prisma: PrismaClient, orgId: string): CompileEnv {
  return {
    findCompany: (phrase) => findCompanyIn(prisma, phrase),
    async webhookEndpoints() {
      const rows = await prisma.webhookEndpoint.findMany({
        where: { orgId, status: 'enabled', deletedAt: null },
        select: { id: true, url: true, description: true },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return rows.map((r) => ({ id: r.id, url: r.url, description: r.description || null }));
    },
  };
}

async function findCompanyIn(prisma: PrismaClient, phrase: string): Promise<Company | null> {
  const raw = phrase.trim().replace(/^\$/, '');
  if (!raw) return null;
  const cik = /^(?:cik\s*)?\d{1,10}$/i.test(raw) ? cikOf(raw.replace(/\s+/g, '')) : null;
  if (cik) return companyByCik(prisma, cik, null);
  // A ticker written as one ($AAPL, MSFT) is tried as a ticker first; a word ("apple") as a name first.
  const tickerFirst = phrase.trim().startsWith('$') || (raw === raw.toUpperCase() && /[A-Z]/.test(raw));
  if (tickerFirst) return (await byTicker(prisma, raw)) ?? (await byName(prisma, raw));
  return (await byName(prisma, raw)) ?? (await byTicker(prisma, raw));
}

async function byTicker(prisma: PrismaClient, raw: string): Promise<Company | null> {
  const ticker = /\s/.test(raw) ? null : tickerOf(raw);
  if (!ticker) return null;
  const [best] = await tickerMatches(prisma, ticker);
  return best ? companyByCik(prisma, best.cik, ticker) : null;
}

async function companyByCik(prisma: PrismaClient, cik: string, ticker: string | null): Promise<Company | null> {
  const entity = await prisma.entity.findUnique({ where: { cik }, select: { cik: true, name: true, tickers: true } });
  if (!entity) return null;
  if (ticker) return { cik, name: entity.name, ticker };
  const listing = await prisma.ticker.findFirst({ where: { cik }, select: { ticker: true }, orderBy: [{ source: 'asc' }, { ticker: 'asc' }] });
  return { cik, name: entity.name, ticker: listing?.ticker ?? entity.tickers[0] ?? null };
}

/**
 * Names compare normalized ("apple inc" is "Apple Inc."): the exact name first, then names the
 * phrase begins word by word ("Berkshire" for "Berkshire Hathaway Inc"); within each, listed
 * issuers with filings held come first, as in resolveEntity.
 */
async function byName(prisma: PrismaClient, raw: string): Promise<Company | null> {
  const wanted = normalizeName(raw);
  const first = wanted.split(' ')[0];
  if (!first || wanted.length < 2) return null;
  const rows = await prisma.entity.findMany({
    where: { OR: [{ name: { startsWith: first, mode: 'insensitive' } }, { name: { startsWith: `the ${first}`, mode: 'insensitive' } }] },
    select: { cik: true, name: true, kind: true, _count: { select: { listings: true, filings: true } } },
    orderBy: [{ name: 'asc' }, { cik: 'asc' }],
    take: 500,
  });
  const ranked = rows
    .map((row) => ({ row, name: normalizeName(row.name) }))
    .map(({ row, name }) => ({ row, tier: name === wanted ? 0 : wanted.length >= 3 && `${name} `.startsWith(`${wanted} `) ? 1 : 2 }))
    .filter((x) => x.tier < 2)
    .sort(
      (a, b) =>
        a.tier - b.tier ||
        Number(b.row._count.listings > 0) - Number(a.row._count.listings > 0) ||
        Number(b.row.kind === 'issuer') - Number(a.row.kind === 'issuer') ||
        b.row._count.filings - a.row._count.filings ||
        a.row.name.length - b.row.name.length ||
        a.row.cik.localeCompare(b.row.cik),
    );
  const best = ranked[0];
  return best ? companyByCik(prisma, best.row.cik, null) : null;
}
