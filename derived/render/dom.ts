// The parsed filing document the reader's renderers walk, and what they agree on: which
// elements are never shown, which are blocks, and which leaf blocks are the sections' headings.
import { parse, type HTMLElement, type Node } from 'node-html-parser';
import { itemHeadingPattern, partOfHeading, sectionKeyOf } from '../../ingest/parsers/documents/sections.ts';

export type Element = HTMLElement;

export const isElement = (node: Node): node is HTMLElement => node.nodeType === 1;

/** Elements dropped with everything inside them: active content, external loads, the document's head, hidden XBRL. */
export const droppedTags = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'param',
  'head', 'title', 'meta', 'link', 'base', 'svg', 'math', 'form', 'input', 'button', 'select', 'textarea', 'option',
  'audio', 'video', 'source', 'track', 'canvas', 'picture', 'map', 'area', 'dialog', 'portal', 'ix:header',
]);

export const blockTags = new Set([
  'div', 'p', 'center', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'blockquote', 'pre',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'hr', 'section', 'article', 'body', 'html',
]);

export const tagOf = (element: Element) => (element.rawTagName ?? '').toLowerCase();

/** Attributes by lower-case name, values decoded. */
export function attributesOf(element: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(element.attributes)) out[name.toLowerCase()] = value;
  return out;
}

/** Shown to nobody: a hidden element, or markup of another vocabulary (the XBRL header's contexts and units). */
export function neverShown(element: Element): boolean {
  const tag = tagOf(element);
  if (droppedTags.has(tag)) return true;
  if (tag.includes(':') && !tag.startsWith('ix:')) return true;
  const style = element.attributes.style ?? element.attributes.STYLE;
  return style !== undefined && /display\s*:\s*none/i.test(style);
}

export const normalized = (text: string) => text.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();

export function parseDocument(html: string): Element {
  // an XML declaration or processing instruction would otherwise read as text
  return parse(html.replace(/<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>/gi, ''), { comment: false, blockTextElements: { script: true, noscript: true, style: true, pre: true } });
}

/** Leaf blocks (blocks with no block inside) outside tables, in document order: where headings are set. */
function leafBlocks(root: Element): Element[] {
  const found: Element[] = [];
  const visit = (element: Element, inTable: boolean): boolean => {
    if (neverShown(element)) return false;
    const tag = tagOf(element);
    const table = inTable || tag === 'table';
    let hasBlock = false;
    for (const child of element.childNodes) if (isElement(child) && visit(child, table)) hasBlock = true;
    const block = blockTags.has(tag);
    if (block && !hasBlock && !table && tag !== 'hr') found.push(element);
    return block || hasBlock;
  };
  visit(root, false);
  return found;
}

/** A contents entry: a link to the section, or a title that ends with its page number. */
const contentsEntry = (element: Element, rest: string) => element.querySelector('a[href]') !== null || /\s\d{1,3}$/.test(rest);

/**
 * The element that starts each stored section: the first leaf block, after the previous
 * section's, that reads as that Item's heading (the splitter's own pattern and keys; the table
 * of contents, a table or a list of links, never). Sections whose heading is not found get none.
 */
export function sectionHeadings(root: Element, form: string, keys: string[]): Map<Element, string> {
  const headings = new Map<Element, string>();
  let next = 0;
  let part: number | null = null;
  for (const block of leafBlocks(root)) {
    if (next >= keys.length) break;
    const text = normalized(block.text);
    const partNumber = partOfHeading(text);
    if (partNumber !== null) {
      part = partNumber;
      continue;
    }
    const match = itemHeadingPattern.exec(text);
    if (!match || text.length > 300) continue;
    const key = sectionKeyOf(form, `${match[1]}${match[2] ?? ''}`, part);
    const at = key ? keys.indexOf(key, next) : -1;
    if (at < 0 || contentsEntry(block, match[3] ?? '')) continue;
    headings.set(block, key!);
    next = at + 1;
  }
  return headings;
}
