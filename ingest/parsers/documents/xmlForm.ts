// Shared reading for the EDGAR structured XML forms (D, 144, C, 13D/G, N-PX, 13F, N-CEN, N-PORT,
// 3/4/5): find the XML in a bare file or a submission container, refuse anything malformed, and
// read leaf values the way records.ts asks (text as filed, numbers from their text, YYYY-MM-DD
// dates, null for absent).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isSgmlSubmission, parseSgmlSubmission, type SgmlSubmission } from './sgml.ts';

/**
 * An element as fast-xml-parser gives it: children by local name, leaves as strings, and (when
 * read with `attributes`) attributes as `@name` keys, e.g. <isin value="X"/> gives { '@value': 'X' }.
 */
export type XmlNode = { [key: string]: unknown };

export interface XmlDocument {
  /** local name of the root element, e.g. 'edgarSubmission' */
  root: string;
  node: XmlNode;
}

/** What a submission container says about the filing, when the XML came wrapped in one. */
export interface ContainerFacts {
  accessionNumber: string | null;
  formType: string | null;
  filedAt: string | null;
  periodOfReport: string | null;
}

export interface XmlFormInput {
  documents: XmlDocument[];
  container: ContainerFacts | null;
}

export interface Address {
  street1: string | null;
  street2: string | null;
  city: string | null;
  stateOrCountry: string | null;
  zipCode: string | null;
}

export interface XmlReadOptions {
  /** Keep attributes as `@name` keys: N-CEN, N-PORT and the ownership footnote ids carry data there. */
  attributes?: boolean;
}

const ATTRIBUTE_PREFIX = '@';

const parserSettings = {
  // EDGAR mixes default and prefixed namespaces (ns2:, com:, inf:) for the same schema.
  removeNSPrefix: true,
  ignoreDeclaration: true,
  // Keep every leaf as its text: CUSIPs, CIKs and ZIP codes have leading zeros.
  parseTagValue: false,
  htmlEntities: true,
};
const elementParser = new XMLParser({ ...parserSettings, ignoreAttributes: true });
// Attribute values stay text too; the prefix keeps them apart from child elements of the same name.
const attributeParser = new XMLParser({ ...parserSettings, ignoreAttributes: false, attributeNamePrefix: ATTRIBUTE_PREFIX, parseAttributeValue: false });

function parse(source: string, options: XmlReadOptions): XmlNode {
  return (options.attributes ? attributeParser : elementParser).parse(source) as XmlNode;
}

/** Why `source` is not well-formed XML; null when it is. */
function syntaxError(source: string): { msg: string; line: number; col: number } | null {
  const verdict = XMLValidator.validate(source);
  return verdict === true ? null : verdict.err;
}

function parseXml(xml: string, name: string): XmlDocument {
  const source = xml.replace(/^\uFEFF/, '').trimStart();
  if (!source.startsWith('<')) throw new Error(`${name}: not an XML document`);
  const error = syntaxError(source);
  if (error) {
    const { msg, line, col } = error;
    throw new Error(`${name}: malformed or truncated XML at line ${line}${col ? `, column ${col}` : ''}: ${msg}`);
  }
  const parsed = parse(source, {});
  const roots = Object.keys(parsed);
  if (roots.length !== 1) throw new Error(`${name}: expected one root element, found ${roots.length}`);
  const root = roots[0]!;
  const node = parsed[root];
  return { root, node: isNode(node) ? node : {} };
}

/**
 * The XML documents of a form, whose root is one of `roots`: the file itself, or every matching
 * document of a full submission (.txt/.nc). Throws when the XML is malformed or absent.
 */
export function readXmlForm(text: string, name: string, roots: string[]): XmlFormInput {
  if (!isSgmlSubmission(text)) {
    const document = parseXml(text, name);
    if (!roots.includes(document.root)) throw new Error(`${name}: expected <${roots.join('> or <')}>, found <${document.root}>`);
    return { documents: [document], container: null };
  }
  const submission = parseSgmlSubmission(text);
  const documents = submission.documents.filter((d) => holdsElement(d.text, ...roots)).map((d) => parseXml(d.text, `${name} (${d.filename ?? d.type})`));
  if (documents.length === 0) throw new Error(`${name}: the submission holds no <${roots.join('> or <')}> document`);
  const { accessionNumber, formType, filedAt, periodOfReport } = submission;
  return { documents, container: { accessionNumber, formType, filedAt, periodOfReport } };
}

/** Whether XML text has an element named one of `names`, in any namespace: a look before parsing. */
export function holdsElement(xml: string, ...names: string[]): boolean {
  return new RegExp(`<(?:[\\w.-]+:)?(?:${names.join('|')})[\\s>/]`).test(xml);
}

/**
 * A full submission, refused when cut off inside a document: the container reader keeps only
 * complete documents, so a lost information table or footnote would otherwise go unnoticed.
 * `label` starts the error, e.g. 'N-CEN cut.txt'.
 */
export function completeSubmission(source: string, label: string): SgmlSubmission {
  const submission = parseSgmlSubmission(source);
  const opened = source.match(/<DOCUMENT>/g)?.length ?? 0;
  const complete = submission.documents.length;
  if (opened !== complete) throw new Error(`${label}: truncated submission (${opened} documents opened, ${complete} complete)`);
  return submission;
}

export interface LocatedXml {
  xml: string;
  container: SgmlSubmission | null;
}

/**
 * A form's one XML text: the file itself, or the first document of a complete submission that
 * holds a <root> element. `label` starts each error; `missing` names that document when absent.
 */
export function locateXml(source: string, { root, label, missing }: { root: string; label: string; missing: string }): LocatedXml {
  if (!isSgmlSubmission(source)) return { xml: source, container: null };
  const container = completeSubmission(source, label);
  const document = container.documents.find((d) => holdsElement(d.text, root));
  if (!document) throw new Error(`${label}: submission has no ${missing}`);
  return { xml: document.text, container };
}

/**
 * A whole XML document, its root element(s) under their names: the caller looks for the root, so
 * that it can say in its own words what is missing. `label` starts the error, e.g. 'N-PORT cut.xml'.
 */
export function parseXmlTree(xml: string, label: string, options: XmlReadOptions = {}): XmlNode {
  const source = xml.trim();
  const error = syntaxError(source);
  if (error) throw new Error(`${label}: not well-formed XML (${error.msg}, line ${error.line})`);
  return parse(source, options);
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const asList = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

function walk(parent: XmlNode | null, path: string[]): unknown[] {
  let current: unknown[] = parent ? [parent] : [];
  for (const key of path) current = current.filter(isNode).flatMap((n) => asList(n[key]));
  return current;
}

/** The first element at `path` below `parent` that has content. */
export function child(parent: XmlNode | null, ...path: string[]): XmlNode | null {
  return walk(parent, path).find(isNode) ?? null;
}

/** Every element at `path` (repeated elements anywhere along the way included). */
export function children(parent: XmlNode | null, ...path: string[]): XmlNode[] {
  return walk(parent, path).filter(isNode);
}

function leafText(value: unknown): string | null {
  const raw = isNode(value) ? value['#text'] : value;
  if (typeof raw !== 'string') return null;
  // Filers' text often carries escaped Windows line ends (&#13;).
  const cleaned = raw.replace(/\r\n?/g, '\n').trim();
  return cleaned === '' ? null : cleaned;
}

/** The text of the first non-empty element at `path`; null when absent or empty. */
export function text(parent: XmlNode | null, ...path: string[]): string | null {
  for (const value of walk(parent, path)) {
    const found = leafText(value);
    if (found !== null) return found;
  }
  return null;
}

/** The texts of every non-empty element at `path`, in document order. */
export function texts(parent: XmlNode | null, ...path: string[]): string[] {
  return walk(parent, path)
    .map(leafText)
    .filter((t): t is string => t !== null);
}

/** The text of attribute `name` (read with `attributes`); null when absent or empty. */
export function attribute(node: XmlNode | null, name: string): string | null {
  return text(node, ATTRIBUTE_PREFIX + name);
}

const plainNumber = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const groupedNumber = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;

/** A number read from its text as filed; null when absent or not a number. */
export function decimal(value: string | null): number | null {
  if (value === null) return null;
  const compact = value.trim();
  if (plainNumber.test(compact)) return Number(compact);
  if (groupedNumber.test(compact)) return Number(compact.replace(/,/g, ''));
  return null;
}

/** EDGAR's boolean spellings: true/false, Y/N. */
export function flag(value: string | null): boolean | null {
  if (value === null) return null;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'y' || v === 'yes' || v === '1') return true;
  if (v === 'false' || v === 'n' || v === 'no' || v === '0') return false;
  return null;
}

/** YYYY-MM-DD from the date shapes these forms use: YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY. */
export function isoDate(value: string | null): string | null {
  if (value === null) return null;
  const v = value.trim();
  const iso = v.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  const us = v.match(/^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/);
  const parts = iso ? { y: iso[1]!, m: iso[2]!, d: iso[3]! } : us ? { y: us[3]!, m: us[1]!, d: us[2]! } : null;
  if (!parts) return null;
  const { y, m, d } = parts;
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${y}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `isoDate` of a date that may carry a time zone after it, as 2022-05-04-05:00 in Forms 3/4/5. */
export function isoDateDroppingZone(value: string | null): string | null {
  const day = value?.trim().match(/^\d{4}-\d{2}-\d{2}/)?.[0];
  return isoDate(day ?? value);
}

/** A CIK as 10 digits. */
export function cik(value: string | null): string | null {
  if (value === null) return null;
  const v = value.trim();
  return /^\d{1,10}$/.test(v) ? v.padStart(10, '0') : null;
}

export function address(node: XmlNode | null): Address | null {
  if (!node) return null;
  const result = {
    street1: text(node, 'street1'),
    street2: text(node, 'street2'),
    city: text(node, 'city'),
    stateOrCountry: text(node, 'stateOrCountry'),
    zipCode: text(node, 'zipCode'),
  };
  return Object.values(result).some((v) => v !== null) ? result : null;
}

/** The latest of some YYYY-MM-DD dates (they sort as text). */
export function latestDate(dates: (string | null)[]): string | null {
  const present = dates.filter((d): d is string => d !== null).sort();
  return present.length ? present[present.length - 1]! : null;
}

/** The SEC's published technical-specification samples are stored as SEC-sample_*.xml. */
export function isSecSample(name: string): boolean {
  return /(^|[/\\])SEC-sample_[^/\\]*$/i.test(name);
}

/** A value the form cannot do without: its absence means the document is not what it claims. */
export function required<T>(value: T | null, what: string, name: string): T {
  if (value === null) throw new Error(`${name}: ${what} is missing`);
  return value;
}
