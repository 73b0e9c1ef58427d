// Rows in COPY's text format: a line a row, a tab between columns, \N for null. Backslash, tab,
// newline and carriage return inside a value are escaped; everything else goes as it is.

export type CopyValue = string | number | boolean | null | undefined | readonly string[];

const special = /[\\\t\n\r]/;

function escape(text: string): string {
  return special.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text;
}

/** A text[] literal: every element quoted, so that commas, braces and spaces need no thought. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

export function copyField(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return escape(arrayLiteral(value));
  return escape(value as string);
}

export function copyLine(values: readonly CopyValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i ? '\t' : '') + copyField(values[i]);
  return `${line}\n`;
}
