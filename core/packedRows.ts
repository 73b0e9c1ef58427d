// Rows of text fields as one string, a line a row and a tab between fields (COPY's text format):
// the form in which a parse thread hands many small records over. Copying a daily factor file's
// 100,000 values back from the thread as objects took 70 ms of the receiving thread, and a
// collection after it; the same rows as one string take well under a millisecond, and are split a
// chunk at a time where they are written. Plain data, so that it survives the copy.

export type Field = string | null;

export interface PackedRows {
  /** how many rows */
  count: number;
  text: string;
}

const nullField = '\\N';
const special = /[\t\n\\]/;
const escapes: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\\': '\\\\' };
const unescapes: Record<string, string> = { t: '\t', n: '\n', '\\': '\\' };

const packField = (field: Field) => (field === null ? nullField : special.test(field) ? field.replace(/[\t\n\\]/g, (c) => escapes[c]!) : field);
const unpackField = (field: string): Field => (field === nullField ? null : field.includes('\\') ? field.replace(/\\([tn\\])/g, (_, c: string) => unescapes[c]!) : field);

export function packRows(rows: readonly (readonly Field[])[]): PackedRows {
  return { count: rows.length, text: rows.map((row) => row.map(packField).join('\t')).join('\n') };
}

/** The rows again, `size` at a time. */
export function* unpackedChunks(packed: PackedRows, size: number): Generator<Field[][]> {
  if (!packed.count) return;
  const lines = packed.text.split('\n');
  for (let i = 0; i < lines.length; i += size) yield lines.slice(i, i + size).map((line) => line.split('\t').map(unpackField));
}
