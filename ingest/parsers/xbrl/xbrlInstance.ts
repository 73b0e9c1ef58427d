// Numeric facts of one filing, from an XBRL instance document (.xml) or from the inline XBRL
// of its primary HTML document. Both share the contexts and units (the inline form keeps them in
// ix:resources), so both are read with the same small scanners; the documents are large and
// regular enough that a tokenizer beats building a DOM. Text blocks and other non-numeric facts
// are left out: the statements and segments are built from numbers.
import { padCik, plainDecimal, type ConceptRecord, type FactRecord } from './companyFacts.ts';

export interface FilingMeta {
  accessionNumber: string;
  form: string;
  filedAt: string | null;
}

export interface XbrlFacts {
  cik: string;
  facts: FactRecord[];
  /** the concepts the facts use; instance documents carry no labels, so label and description are null */
  concepts: ConceptRecord[];
  /** numeric facts whose displayed text could not be read as a number, with why */
  skipped: Array<{ tag: string; contextRef: string; reason: string }>;
}

interface Context {
  cik: string | null;
  periodStart: string | null;
  periodEnd: string;
  isInstant: boolean;
  dimensions: Record<string, string>;
}

// Namespaces whose prefix a filer may spell differently: facts and dimensions use these names.
const canonicalPrefixes: Array<[RegExp, string]> = [
  [/^https?:\/\/fasb\.org\/us-gaap\//, 'us-gaap'],
  [/^https?:\/\/fasb\.org\/srt\//, 'srt'],
  [/^https?:\/\/xbrl\.sec\.gov\/dei\//, 'dei'],
  [/^https?:\/\/xbrl\.ifrs\.org\/taxonomy\/[^/]+\/ifrs-full/, 'ifrs-full'],
  [/^https?:\/\/xbrl\.sec\.gov\/country\//, 'country'],
  [/^https?:\/\/xbrl\.sec\.gov\/ecd\//, 'ecd'],
];

type PrefixMap = Map<string, string>;

function namespacePrefixes(document: string): PrefixMap {
  const prefixes: PrefixMap = new Map();
  for (const match of document.matchAll(/\bxmlns:([\w.-]+)\s*=\s*["']([^"']*)["']/g)) {
    const canonical = canonicalPrefixes.find(([pattern]) => pattern.test(match[2]))?.[1];
    if (!prefixes.has(match[1])) prefixes.set(match[1], canonical ?? match[1]);
  }
  return prefixes;
}

function canonicalQName(qname: string, prefixes: PrefixMap): string {
  const colon = qname.indexOf(':');
  if (colon < 0) return qname;
  const prefix = qname.slice(0, colon);
  return `${prefixes.get(prefix) ?? prefix}${qname.slice(colon)}`;
}

function attributesOf(tagText: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tagText.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attributes[match[1]] = decodeEntities(match[2] ?? match[3] ?? '');
  }
  return attributes;
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', mdash: '\u2014', ndash: '\u2013', minus: '\u2212' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return namedEntities[entity.toLowerCase()] ?? whole;
  });
}

function textContent(markup: string): string {
  return decodeEntities(markup.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1').replace(/<[^>]*>/g, '')).trim();
}

// ---- contexts and units (xbrli elements, prefixed or in the default namespace) ----

const p = '(?:[\\w.-]+:)?';
const contextPattern = new RegExp(`<${p}context\\b([^>]*)>([\\s\\S]*?)</${p}context>`, 'g');
const unitPattern = new RegExp(`<${p}unit\\b([^>]*)>([\\s\\S]*?)</${p}unit>`, 'g');
const identifierPattern = new RegExp(`<${p}identifier\\b([^>]*)>([^<]*)<`);
const startPattern = new RegExp(`<${p}startDate\\b[^>]*>([^<]*)<`);
const endPattern = new RegExp(`<${p}endDate\\b[^>]*>([^<]*)<`);
const instantPattern = new RegExp(`<${p}instant\\b[^>]*>([^<]*)<`);
const explicitMemberPattern = new RegExp(`<${p}explicitMember\\b([^>]*)>([^<]*)<`, 'g');
const typedMemberPattern = new RegExp(`<${p}typedMember\\b([^>]*)>([\\s\\S]*?)</${p}typedMember>`, 'g');
const measurePattern = new RegExp(`<${p}measure\\b[^>]*>([^<]*)<`, 'g');
const numeratorPattern = new RegExp(`<${p}unitNumerator\\b[^>]*>([\\s\\S]*?)</${p}unitNumerator>`);
const denominatorPattern = new RegExp(`<${p}unitDenominator\\b[^>]*>([\\s\\S]*?)</${p}unitDenominator>`);

function parseContexts(document: string, prefixes: PrefixMap): Map<string, Context> {
  const contexts = new Map<string, Context>();
  for (const match of document.matchAll(contextPattern)) {
    const id = attributesOf(match[1]).id;
    const body = match[2];
    const instant = instantPattern.exec(body)?.[1];
    const end = endPattern.exec(body)?.[1];
    if (!id || !(instant ?? end)) continue;
    const dimensions: Record<string, string> = {};
    for (const member of body.matchAll(explicitMemberPattern)) {
      const axis = attributesOf(member[1]).dimension;
      if (axis) dimensions[canonicalQName(axis, prefixes)] = canonicalQName(member[2].trim(), prefixes);
    }
    for (const member of body.matchAll(typedMemberPattern)) {
      const axis = attributesOf(member[1]).dimension;
      if (axis) dimensions[canonicalQName(axis, prefixes)] = textContent(member[2]);
    }
    const identifier = identifierPattern.exec(body);
    const isSecCik = identifier && /sec\.gov\/CIK/i.test(attributesOf(identifier[1]).scheme ?? '');
    contexts.set(id, {
      cik: isSecCik ? padCik(identifier[2].trim()) : null,
      periodStart: instant ? null : xbrlDate(startPattern.exec(body)?.[1] ?? null),
      periodEnd: xbrlDate(instant ?? end!)!,
      isInstant: Boolean(instant),
      dimensions,
    });
  }
  return contexts;
}

function xbrlDate(text: string | null): string | null {
  return text === null ? null : text.trim().slice(0, 10);
}

/** iso4217:USD -> USD, xbrli:shares -> shares, a divide -> USD/shares: the companyfacts spelling. */
function parseUnits(document: string): Map<string, string> {
  const units = new Map<string, string>();
  const measures = (markup: string) => [...markup.matchAll(measurePattern)].map((m) => m[1].trim().replace(/^.*:/, '')).join('*');
  for (const match of document.matchAll(unitPattern)) {
    const id = attributesOf(match[1]).id;
    if (!id) continue;
    const numerator = numeratorPattern.exec(match[2]);
    const denominator = denominatorPattern.exec(match[2]);
    units.set(id, numerator && denominator ? `${measures(numerator[1])}/${measures(denominator[1])}` : measures(match[2]));
  }
  return units;
}

// ---- assembling fact records ----

class FactCollector {
  readonly facts: FactRecord[] = [];
  private readonly skipped: XbrlFacts['skipped'] = [];
  /** fact identity (concept, unit, period, dimensions) -> position in facts */
  private readonly seen = new Map<string, number>();
  private readonly concepts = new Map<string, ConceptRecord>();

  constructor(
    private readonly contexts: Map<string, Context>,
    private readonly units: Map<string, string>,
    private readonly prefixes: PrefixMap,
    private readonly meta: FilingMeta,
    private readonly cik: string,
    private readonly fiscal: { fy: number | null; fp: string | null },
  ) {}

  add(name: string, contextRef: string, unitRef: string, value: string, decimals: string | null): void {
    const context = this.contexts.get(contextRef);
    const unit = this.units.get(unitRef);
    if (!context || !unit) {
      this.skip(name, contextRef, context ? `no unit ${unitRef}` : `no context ${contextRef}`);
      return;
    }
    const qname = canonicalQName(name, this.prefixes);
    const colon = qname.indexOf(':');
    const taxonomy = colon < 0 ? '' : qname.slice(0, colon);
    const tag = qname.slice(colon + 1);
    // Filings repeat a fact wherever it is shown (statement and note), sometimes rounded
    // differently ("$22.0 billion" beside 22,038 millions): one row per fact, the most precise.
    const key = [qname, unit, context.periodStart, context.periodEnd, JSON.stringify(context.dimensions)].join('|');
    const earlier = this.seen.get(key);
    if (earlier !== undefined) {
      const kept = this.facts[earlier];
      if (kept.value === value) return;
      const more = precision(decimals) - precision(kept.decimals);
      if (more > 0) this.facts[earlier] = { ...kept, value, decimals };
      else if (more === 0) this.skip(name, contextRef, `contradicts an equally precise duplicate: ${value} vs ${kept.value}`);
      return;
    }
    this.seen.set(key, this.facts.length);
    if (!this.concepts.has(qname)) this.concepts.set(qname, { taxonomy, tag, label: null, description: null });
    this.facts.push({
      cik: context.cik ?? this.cik,
      taxonomy,
      tag,
      unit,
      value,
      periodStart: context.periodStart,
      periodEnd: context.periodEnd,
      isInstant: context.isInstant,
      fy: this.fiscal.fy,
      fp: this.fiscal.fp,
      form: this.meta.form,
      frame: null,
      accessionNumber: this.meta.accessionNumber,
      filedAt: this.meta.filedAt,
      dimensions: context.dimensions,
      decimals,
    });
  }

  skip(name: string, contextRef: string, reason: string): void {
    this.skipped.push({ tag: canonicalQName(name, this.prefixes), contextRef, reason });
  }

  result(): XbrlFacts {
    return { cik: this.cik, facts: this.facts, concepts: [...this.concepts.values()], skipped: this.skipped };
  }
}

function precision(decimals: string | null): number {
  if (decimals === null) return -Infinity;
  return decimals.trim() === 'INF' ? Infinity : Number(decimals);
}

function documentCik(contexts: Map<string, Context>, deiCik: string | null): string {
  if (deiCik && /^\d+$/.test(deiCik)) return padCik(deiCik);
  for (const context of contexts.values()) if (context.cik) return context.cik;
  return '0000000000';
}

function fiscalFocus(yearText: string | null, periodText: string | null): { fy: number | null; fp: string | null } {
  const year = yearText?.trim() ?? '';
  return { fy: /^\d{4}$/.test(year) ? Number(year) : null, fp: periodText?.trim() || null };
}

const decimalText = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The value of an XBRL instance fact as decimal text: trimmed, no '+', exponents written out. */
function instanceValue(text: string): string | null {
  const trimmed = text.trim();
  if (!decimalText.test(trimmed)) return null;
  const plain = plainDecimal(trimmed).replace(/^\+/, '');
  return plain.replace(/^(-?)\./, '$10.');
}

// ---- XBRL instance documents ----

// A fact is any prefixed element carrying contextRef; nested content (a text block's escaped
// HTML) does not matter because only facts with a unitRef, i.e. numeric ones, are kept.
const instanceFactPattern = /<([\w.-]+:[\w.-]+)\b([^>]*?)(\/>|>([^<]*)<\/\1\s*>)/g;

function instanceDeiText(document: string, localName: string): string | null {
  return new RegExp(`<[\\w.-]+:${localName}\\b[^>]*>([^<]*)<`).exec(document)?.[1] ?? null;
}

export function parseXbrlInstance(xml: string, meta: FilingMeta): XbrlFacts {
  const prefixes = namespacePrefixes(xml);
  const contexts = parseContexts(xml, prefixes);
  const cik = documentCik(contexts, instanceDeiText(xml, 'EntityCentralIndexKey'));
  const fiscal = fiscalFocus(instanceDeiText(xml, 'DocumentFiscalYearFocus'), instanceDeiText(xml, 'DocumentFiscalPeriodFocus'));
  const collector = new FactCollector(contexts, parseUnits(xml), prefixes, meta, cik, fiscal);
  for (const match of xml.matchAll(instanceFactPattern)) {
    const attributes = attributesOf(match[2]);
    const { contextRef, unitRef } = attributes;
    if (!contextRef || !unitRef) continue;
    if (attributes['xsi:nil'] === 'true' || match[3] === '/>') continue;
    const value = instanceValue(decodeEntities(match[4] ?? ''));
    if (value === null) {
      collector.skip(match[1], contextRef, `not a number: ${JSON.stringify((match[4] ?? '').slice(0, 40))}`);
      continue;
    }
    collector.add(match[1], contextRef, unitRef, value, attributes.decimals ?? null);
  }
  return collector.result();
}

// ---- inline XBRL (ix:nonFraction in the filing's HTML) ----

const nonFractionStart = /<ix:nonFraction\b([^>]*?)(\/?)>/gi;
const nonFractionEnd = /<\/ix:nonFraction\s*>/gi;

function inlineDeiText(html: string, localName: string): string | null {
  const match = new RegExp(`<ix:nonNumeric\\b[^>]*\\bname=["'][\\w.-]+:${localName}["'][^>]*>([\\s\\S]*?)</ix:nonNumeric>`, 'i').exec(html);
  return match ? textContent(match[1]) : null;
}

export function parseInlineXbrl(html: string, meta: FilingMeta): XbrlFacts {
  const prefixes = namespacePrefixes(html);
  const contexts = parseContexts(html, prefixes);
  const cik = documentCik(contexts, inlineDeiText(html, 'EntityCentralIndexKey'));
  const fiscal = fiscalFocus(inlineDeiText(html, 'DocumentFiscalYearFocus'), inlineDeiText(html, 'DocumentFiscalPeriodFocus'));
  const collector = new FactCollector(contexts, parseUnits(html), prefixes, meta, cik, fiscal);
  for (const match of html.matchAll(nonFractionStart)) {
    const attributes = attributesOf(match[1]);
    const { name, contextRef, unitRef } = attributes;
    if (!name || !contextRef || !unitRef) continue;
    if (attributes['xsi:nil'] === 'true' || match[2] === '/') continue;
    // Content runs to the next closing tag; a nested ix:nonFraction repeats the same number.
    nonFractionEnd.lastIndex = match.index + match[0].length;
    const end = nonFractionEnd.exec(html);
    const displayed = textContent(html.slice(match.index + match[0].length, end ? end.index : undefined));
    const read = inlineValue(displayed, attributes);
    if ('reason' in read) collector.skip(name, contextRef, read.reason);
    else collector.add(name, contextRef, unitRef, read.value, attributes.decimals ?? null);
  }
  return collector.result();
}

/**
 * The fact value an ix:nonFraction displays: the format's transformation, then `scale` (a power
 * of ten applied by moving the decimal point in the text), then `sign`.
 */
export function inlineValue(displayed: string, attributes: { format?: string; scale?: string; sign?: string }): { value: string } | { reason: string } {
  const digits = transformNumber(displayed, attributes.format ?? null);
  if (digits === null) return { reason: `format ${attributes.format ?? '(none)'} cannot read ${JSON.stringify(displayed.slice(0, 40))}` };
  const scale = Number(attributes.scale ?? '0');
  if (!Number.isInteger(scale)) return { reason: `scale ${attributes.scale} is not an integer` };
  const scaled = shiftDecimalPoint(digits, scale);
  return { value: attributes.sign === '-' && /[1-9]/.test(scaled) ? `-${scaled}` : scaled };
}

const unsignedDecimal = /^(\d+)(?:\.(\d+))?$/;

/** Applies an ixt / ixt-sec number format to displayed text; the result is unsigned decimal text. */
export function transformNumber(displayed: string, format: string | null): string | null {
  const text = displayed.replace(/[\s\u00a0]+/g, ' ').trim();
  const name = (format ?? '').replace(/^.*:/, '').replace(/-/g, '').toLowerCase();
  let result: string | null;
  switch (name) {
    case '':
      result = text;
      break;
    case 'fixedzero':
    case 'zerodash':
    case 'numdash':
      return '0';
    case 'numdotdecimal':
    case 'numcommadot':
    case 'numspacedot':
    case 'numdotdecimalin':
      result = text.replace(/[,\s'\u2019]/g, '');
      break;
    case 'numcommadecimal':
    case 'numdotcomma':
    case 'numspacecomma':
      result = text.replace(/[.\s'\u2019]/g, '').replace(',', '.');
      break;
    case 'numunitdecimal':
    case 'numunitdecimalin': {
      // "12 dollars 05 cents": whole units, a unit word, then the fraction digits
      const parts = /^([\d,.\s'\u2019]*\d)\s*[^\d\s]+(?:\s+(\d+))?(?:\s*[^\d\s]+)?$/.exec(text);
      result = parts ? parts[1].replace(/[,.\s'\u2019]/g, '') + (parts[2] ? `.${parts[2]}` : '') : null;
      break;
    }
    case 'numwordsen':
      result = englishNumber(text);
      break;
    default:
      return null;
  }
  if (result === null || !unsignedDecimal.test(result)) return null;
  return result.replace(/^0+(?=\d)/, '');
}

/** Moves the decimal point `scale` places right (left when negative), exactly, in the text. */
export function shiftDecimalPoint(unsigned: string, scale: number): string {
  const [, intPart, fracPart = ''] = unsignedDecimal.exec(unsigned)!;
  const digits = intPart + fracPart;
  const point = intPart.length + scale;
  let shifted: string;
  if (point <= 0) shifted = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) shifted = digits + '0'.repeat(point - digits.length);
  else shifted = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return shifted.replace(/^0+(?=\d)/, '');
}

const smallNumbers = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const tens = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const multipliers: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000, billion: 1_000_000_000 };

/** ixt-sec:numwordsen: "two", "no", "none", "twenty-one", "one hundred five". */
function englishNumber(text: string): string | null {
  const words = text.toLowerCase().replace(/[-,]/g, ' ').split(/\s+/).filter((w) => w && w !== 'and');
  if (words.length === 1 && (words[0] === 'no' || words[0] === 'none')) return '0';
  let total = 0;
  let group = 0;
  for (const word of words) {
    if (smallNumbers.includes(word)) group += smallNumbers.indexOf(word);
    else if (tens.includes(word)) group += tens.indexOf(word) * 10;
    else if (word === 'hundred') group *= 100;
    else if (word in multipliers) {
      total += group * multipliers[word];
      group = 0;
    } else return null;
  }
  return words.length ? String(total + group) : null;
}

// ---- inline facts with their contextRef (numeric and text), for readers that cite each value ----

/** One ix fact as tagged: the canonical name, the contextRef it came from, its period and dimensions. */
export interface InlineFact {
  /** canonical QName, e.g. us-gaap:NetIncomeLoss, ecd:MeasureName */
  name: string;
  contextRef: string;
  /** numeric facts: the unit (USD, shares, USD/shares); text facts: null */
  unit: string | null;
  periodStart: string | null;
  periodEnd: string;
  dimensions: Record<string, string>;
  /** numeric: decimal text after the format, `scale` and `sign`; text: the displayed text, whitespace collapsed */
  value: string;
  decimals: string | null;
  kind: 'numeric' | 'text';
}

const nonNumericTag = /<(\/?)ix:nonNumeric\b([^>]*?)(\/?)>/gi;
const excludePattern = /<ix:exclude\b[^>]*>[\s\S]*?<\/ix:exclude\s*>/gi;

/** The markup of an ix:nonNumeric that opens at `from` (after its start tag), to its own closing tag. */
function nonNumericContent(html: string, from: number): string {
  const scanner = new RegExp(nonNumericTag.source, 'gi');
  scanner.lastIndex = from;
  let depth = 1;
  for (let tag = scanner.exec(html); tag; tag = scanner.exec(html)) {
    if (tag[1]) depth -= 1;
    else if (!tag[3]) depth += 1;
    if (depth === 0) return html.slice(from, tag.index);
  }
  return html.slice(from);
}

/** A text fact's markup continued elsewhere (ix:continuation, chained by continuedAt). */
function continuations(html: string, firstId: string | undefined): string {
  let text = '';
  const seen = new Set<string>();
  for (let id = firstId; id && !seen.has(id); ) {
    seen.add(id);
    const start = new RegExp(`<ix:continuation\\b([^>]*\\bid=["']${id.replace(/[^\w.-]/g, '')}["'][^>]*)>`, 'i').exec(html);
    if (!start) break;
    const end = html.indexOf('</ix:continuation', start.index + start[0].length);
    text += ` ${html.slice(start.index + start[0].length, end < 0 ? undefined : end)}`;
    id = attributesOf(start[1]).continuedAt;
  }
  return text;
}

/**
 * The ix:nonFraction and ix:nonNumeric facts of an inline XBRL document whose canonical name
 * `accept` takes, each with the contextRef it was tagged with. Numeric values go through
 * `inlineValue` (format, scale, sign) like parseInlineXbrl's; a fact repeated in the document
 * (same name, unit, period and dimensions) is kept once, the most precise. Text facts keep the
 * displayed text (ix:exclude removed, continuations appended, whitespace collapsed).
 */
export function parseInlineFacts(html: string, accept: (name: string) => boolean): { facts: InlineFact[]; skipped: XbrlFacts['skipped'] } {
  const prefixes = namespacePrefixes(html);
  const contexts = parseContexts(html, prefixes);
  const units = parseUnits(html);
  const facts: InlineFact[] = [];
  const skipped: XbrlFacts['skipped'] = [];
  const seen = new Map<string, number>();
  const keep = (fact: InlineFact) => {
    const key = [fact.kind, fact.name, fact.unit, fact.periodStart, fact.periodEnd, JSON.stringify(fact.dimensions)].join('|');
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, facts.length);
      facts.push(fact);
      return;
    }
    const kept = facts[earlier];
    if (kept.value === fact.value) return;
    const [now, before] = [precision(fact.decimals), precision(kept.decimals)];
    const more = now === before ? 0 : now - before;
    if (more > 0) facts[earlier] = fact;
    else if (more === 0) skipped.push({ tag: fact.name, contextRef: fact.contextRef, reason: `contradicts an equally precise duplicate: ${fact.value} vs ${kept.value}` });
  };
  for (const match of html.matchAll(nonFractionStart)) {
    const attributes = attributesOf(match[1]);
    const { contextRef, unitRef } = attributes;
    if (!attributes.name || !contextRef || !unitRef) continue;
    const name = canonicalQName(attributes.name, prefixes);
    if (!accept(name) || attributes['xsi:nil'] === 'true' || match[2] === '/') continue;
    const context = contexts.get(contextRef);
    const unit = units.get(unitRef);
    if (!context || !unit) {
      skipped.push({ tag: name, contextRef, reason: context ? `no unit ${unitRef}` : `no context ${contextRef}` });
      continue;
    }
    const end = new RegExp(nonFractionEnd.source, 'gi');
    end.lastIndex = match.index + match[0].length;
    const close = end.exec(html);
    const read = inlineValue(textContent(html.slice(match.index + match[0].length, close ? close.index : undefined)), attributes);
    if ('reason' in read) skipped.push({ tag: name, contextRef, reason: read.reason });
    else keep({ name, contextRef, unit, periodStart: context.periodStart, periodEnd: context.periodEnd, dimensions: context.dimensions, value: read.value, decimals: attributes.decimals ?? null, kind: 'numeric' });
  }
  for (const match of html.matchAll(nonNumericTag)) {
    if (match[1]) continue;
    const attributes = attributesOf(match[2]);
    const { contextRef } = attributes;
    if (!attributes.name || !contextRef) continue;
    const name = canonicalQName(attributes.name, prefixes);
    if (!accept(name) || attributes['xsi:nil'] === 'true' || match[3] === '/') continue;
    const context = contexts.get(contextRef);
    if (!context) {
      skipped.push({ tag: name, contextRef, reason: `no context ${contextRef}` });
      continue;
    }
    const markup = nonNumericContent(html, match.index + match[0].length) + continuations(html, attributes.continuedAt);
    const value = textContent(markup.replace(excludePattern, ' ').replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
    keep({ name, contextRef, unit: null, periodStart: context.periodStart, periodEnd: context.periodEnd, dimensions: context.dimensions, value, decimals: null, kind: 'text' });
  }
  return { facts, skipped };
}
