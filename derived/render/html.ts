// A filing document as HTML safe to show inside our own pages. Written from an allow-list, never
// by deleting what is known to be bad: only the elements and attributes below come out. No script,
// style, frame, object or form; no event handler or URL of any kind (a link to another document is
// plain text, an image a text placeholder), so showing it loads nothing. Inline styles, which the
// dashboard's CSP would refuse, become a few classes (bold, italic, alignment, rules). Inline XBRL
// tags go, their facts stay as <mark data-concept data-context> highlights; the hidden XBRL header
// goes. Each section's heading is an <h2> whose id is the section key.
import { attributesOf, blockTags, isElement, neverShown, tagOf, type Element } from './dom.ts';

const keptTags = new Set([
  'div', 'p', 'span', 'br', 'hr', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup', 'col',
  'b', 'strong', 'i', 'em', 'u', 'sup', 'sub', 'small', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'blockquote', 'pre', 'code', 's',
]);
const renamed: Record<string, string> = { center: 'div', font: 'span', big: 'span', strike: 's', h1: 'div', h2: 'div', h3: 'div', h4: 'div', h5: 'div', h6: 'div' };
const voidTags = new Set(['br', 'hr', 'col']);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');
/** An id of the document, kept only for its own contents links, prefixed so it meets none of the page's. */
const documentId = (id: string) => `d-${id.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 120)}`;

/** The presentation an inline style or a legacy attribute asks for, as the reader's classes. */
function classesOf(tag: string, attributes: Record<string, string>): string[] {
  const style = (attributes.style ?? '').toLowerCase();
  const read = (property: string) => new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`).exec(style)?.[1]?.trim() ?? '';
  const classes: string[] = [];
  const weight = read('font-weight');
  if (/^(bold|bolder|[6-9]00)$/.test(weight)) classes.push('fr-b');
  if (read('font-style') === 'italic') classes.push('fr-i');
  if (read('text-decoration').includes('underline')) classes.push('fr-u');
  const align = read('text-align') || (attributes.align ?? '').toLowerCase();
  if (align === 'center' || tag === 'center') classes.push('fr-c');
  if (align === 'right') classes.push('fr-r');
  const ruled = (value: string) => value !== '' && !/^(none|0|0pt|0px|hidden)\b/.test(value);
  if (tag === 'td' || tag === 'th') {
    if (ruled(read('border-top'))) classes.push('fr-bt');
    if (ruled(read('border-bottom'))) classes.push('fr-bb');
  }
  if (tag === 'h1' || tag === 'h2' || tag === 'h3' || tag === 'h4' || tag === 'h5' || tag === 'h6') classes.push('fr-b');
  return classes;
}

/** Whether an inline XBRL text fact wraps blocks (a whole note): those are not highlighted, only unwrapped. */
const wrapsBlocks = (element: Element): boolean => element.childNodes.some((child) => isElement(child) && (blockTags.has(tagOf(child)) || wrapsBlocks(child)));

export function renderHtml(root: Element, headings: Map<Element, string>): string {
  const out: string[] = [];
  const children = (element: Element) => {
    for (const child of element.childNodes) {
      if (isElement(child)) visit(child);
      else if (child.nodeType === 3) out.push(escapeText(child.text));
    }
  };
  const visit = (element: Element) => {
    if (neverShown(element)) return;
    const tag = tagOf(element);
    const attributes = attributesOf(element);
    const key = headings.get(element);
    if (key) {
      out.push(`<h2 id="${key}" class="fr-section">`);
      children(element);
      out.push('</h2>');
      return;
    }
    if (tag === 'ix:nonfraction' || (tag === 'ix:nonnumeric' && !wrapsBlocks(element))) {
      out.push(`<mark class="fr-fact" data-concept="${escapeAttribute(attributes.name ?? '')}" data-context="${escapeAttribute(attributes.contextref ?? '')}">`);
      children(element);
      out.push('</mark>');
      return;
    }
    if (tag === 'img') {
      const alt = (attributes.alt ?? '').trim();
      out.push(`<span class="fr-image">[${alt ? `Image: ${escapeText(alt.slice(0, 200))}` : 'Image'}]</span>`);
      return;
    }
    if (tag === 'a') {
      // a contents link within the document still jumps; any other address is shown as text
      const href = attributes.href ?? '';
      const target = attributes.id ?? attributes.name;
      const idAttribute = target ? ` id="${escapeAttribute(documentId(target))}"` : '';
      if (/^#[^#]+$/.test(href.trim())) out.push(`<a href="#${escapeAttribute(documentId(href.trim().slice(1)))}"${idAttribute}>`);
      else out.push(`<span class="fr-link"${idAttribute}>`);
      children(element);
      out.push(/^#[^#]+$/.test(href.trim()) ? '</a>' : '</span>');
      return;
    }
    const name = renamed[tag] ?? (keptTags.has(tag) ? tag : null);
    if (!name) {
      children(element); // ix:continuation, ix:exclude, html, body and unknown wrappers: their content only
      return;
    }
    const classes = classesOf(tag, attributes);
    let opening = `<${name}`;
    if (attributes.id) opening += ` id="${escapeAttribute(documentId(attributes.id))}"`;
    if (classes.length) opening += ` class="${classes.join(' ')}"`;
    for (const span of ['colspan', 'rowspan'] as const) if (/^\d{1,3}$/.test(attributes[span] ?? '')) opening += ` ${span}="${attributes[span]}"`;
    out.push(`${opening}>`);
    if (voidTags.has(name)) return;
    children(element);
    out.push(`</${name}>`);
  };
  visit(root);
  return out.join('');
}
