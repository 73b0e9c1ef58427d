// A filing document as a run of blocks (section headings, paragraphs, tables of cell text): what
// the Markdown and plain-text renderings are written from.
import { blockTags, isElement, neverShown, normalized, tagOf, type Element } from './dom.ts';

export type Block = { kind: 'heading'; key: string; text: string } | { kind: 'paragraph'; text: string } | { kind: 'table'; rows: string[][] };

/** Cells that only carry a currency sign or a closing bracket belong with their neighbour ("$ | 391,035" reads "$391,035"). */
const leadsNext = /^[$€£¥(]+$/;
const closesPrevious = /^(?:\)|%|\)%|%\))$/;

/** An element's text, a line break or a block inside it read as a space. */
function spacedText(element: Element): string {
  const parts: string[] = [];
  const visit = (node: Element) => {
    for (const child of node.childNodes) {
      if (isElement(child)) {
        if (neverShown(child)) continue;
        const spaced = tagOf(child) === 'br' || blockTags.has(tagOf(child));
        if (spaced) parts.push(' ');
        visit(child);
        if (spaced) parts.push(' ');
      } else if (child.nodeType === 3) parts.push(child.text);
    }
  };
  visit(element);
  return normalized(parts.join(''));
}

/** A table's rows as cell texts: spanned cells repeated as empty ones, signs joined to their numbers, empty columns and rows gone. */
function tableRows(table: Element): string[][] {
  const rows: string[][] = [];
  for (const tr of table.querySelectorAll('tr')) {
    const cells: string[] = [];
    for (const cell of tr.childNodes) {
      if (!isElement(cell) || neverShown(cell) || !/^t[dh]$/.test(tagOf(cell))) continue;
      cells.push(spacedText(cell));
      const span = Math.min(Number(cell.attributes.colspan ?? 1) || 1, 50);
      for (let i = 1; i < span; i++) cells.push('');
    }
    for (let i = 0; i < cells.length; i++) {
      if (leadsNext.test(cells[i]!) && i + 1 < cells.length && cells[i + 1] !== '') {
        cells[i + 1] = `${cells[i]}${cells[i + 1]}`;
        cells[i] = '';
      } else if (closesPrevious.test(cells[i]!) && i > 0) {
        const previous = cells.slice(0, i).findLastIndex((c) => c !== '');
        if (previous >= 0) {
          cells[previous] += cells[i];
          cells[i] = '';
        }
      }
    }
    if (cells.some((c) => c !== '')) rows.push(cells);
  }
  const width = Math.max(0, ...rows.map((r) => r.length));
  const used = Array.from({ length: width }, (_, column) => rows.some((r) => (r[column] ?? '') !== ''));
  return rows.map((r) => Array.from({ length: width }, (_, column) => r[column] ?? '').filter((_, column) => used[column]));
}

export function documentBlocks(root: Element, headings: Map<Element, string>): Block[] {
  const blocks: Block[] = [];
  let inline: string[] = [];
  const flush = () => {
    const text = normalized(inline.join(''));
    if (text) blocks.push({ kind: 'paragraph', text });
    inline = [];
  };
  const visit = (element: Element) => {
    if (neverShown(element)) return;
    const tag = tagOf(element);
    const key = headings.get(element);
    if (key) {
      flush();
      blocks.push({ kind: 'heading', key, text: spacedText(element) });
      return;
    }
    if (tag === 'table') {
      flush();
      const rows = tableRows(element);
      // a one-cell table is a layout box around a paragraph
      if (rows.length === 1 && rows[0]!.length === 1) blocks.push({ kind: 'paragraph', text: rows[0]![0]! });
      else if (rows.length) blocks.push({ kind: 'table', rows });
      return;
    }
    if (tag === 'img') {
      inline.push(' [Image] ');
      return;
    }
    const block = blockTags.has(tag) || tag === 'br';
    if (block) flush();
    for (const child of element.childNodes) {
      if (isElement(child)) visit(child);
      else if (child.nodeType === 3) inline.push(child.text);
    }
    if (block) flush();
  };
  visit(root);
  flush();
  return blocks;
}
