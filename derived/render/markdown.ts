// Markdown and plain text of a filing document, written from its blocks (blocks.ts).
import type { Block } from './blocks.ts';

/** Characters Markdown would read as markup (emphasis, code, links, raw HTML). */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>]/g, '\\$&').replace(/^([#>+-]|\d+\.)(\s)/, '\\$1$2');

function pipeTable(rows: string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => escapeMarkdown(cells[i] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

export function toMarkdown(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if (block.kind === 'heading') return `## ${escapeMarkdown(block.text)}`;
      if (block.kind === 'table') return pipeTable(block.rows);
      return escapeMarkdown(block.text);
    })
    .join('\n\n');
}

/** Columns padded to their widest cell, so that figures line up in a fixed-width font. */
function alignedTable(rows: string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: width }, (_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => widths.map((w, i) => (r[i] ?? '').padEnd(w)).join('  ').trimEnd()).join('\n');
}

export function toText(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if (block.kind === 'heading') return `${block.text}\n${'='.repeat(Math.min(block.text.length, 80))}`;
      if (block.kind === 'table') return alignedTable(block.rows);
      return block.text;
    })
    .join('\n\n');
}
