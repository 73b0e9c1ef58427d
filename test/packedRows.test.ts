// Rows packed into one text (core/packedRows.ts), as a parse thread hands a daily factor file's
// values over: every row comes back, in order, field for field, whatever the text holds (tabs,
// line breaks, backslashes, the text \N) and whatever is null, at any chunk size.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packRows, unpackedChunks, type Field } from '../core/packedRows.ts';

const field = fc.oneof(fc.constant(null), fc.string(), fc.constantFrom('\\N', '\t', '\n', '\\', 'a\\tb', ''));

describe('packed rows', () => {
  it('come back as they went in, a chunk at a time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }).chain((width) => fc.tuple(fc.array(fc.array(field, { minLength: width, maxLength: width }), { maxLength: 40 }), fc.integer({ min: 1, max: 7 }))), ([rows, size]) => {
        const packed = packRows(rows as Field[][]);
        const chunks = [...unpackedChunks(structuredClone(packed), size)];
        expect(chunks.every((chunk) => chunk.length <= size)).toBe(true);
        expect(chunks.flat()).toEqual(rows);
        expect(packed.count).toBe(rows.length);
      }),
      { numRuns: 300 },
    );
  });
});
