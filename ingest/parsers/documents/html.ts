// Filing HTML as readable text: block elements become line breaks, tables stay readable rows,
// and the hidden inline-XBRL header (contexts, units, hidden facts) is dropped.
import { convert } from 'html-to-text';

const hiddenXbrlHeader = /<ix:header>[\s\S]*?<\/ix:header>/gi;

export function htmlToText(html: string): string {
  return convert(html.replace(hiddenXbrlHeader, ''), {
    wordwrap: false,
    preserveNewlines: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false, maxColumnWidth: 200 } },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
    ],
  })
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function looksLikeHtml(text: string): boolean {
  return /<(html|body|div|p|table)[\s>]/i.test(text.slice(0, 5000));
}
