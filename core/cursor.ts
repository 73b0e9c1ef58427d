// Page cursors: opaque to clients, base64url of the list's name and the keyset (or offset) a page
// ends at. Lists issue and check their cursors here, so a cursor from another list, edited
// or made up is refused the same way everywhere: 400 invalid_query_parameter naming the parameter.
import { z } from 'zod';
import { ApiError } from './errors.ts';

/** Issues cursors from a place as JSON carries it (`In`) and reads them back checked and typed (`Out`). */
export interface PageCursor<Out, In = Out> {
  encode(place: In): string;
  /** The place a cursor names; `parameter` is how the request called it (`cursor`, `after`, `before`). */
  decode(value: string, parameter?: string): Out;
}

const envelope = z.object({ k: z.string(), p: z.unknown() });

/** The cursors of one list (`list` names it inside the cursor); `place` checks what a cursor carries. */
export function pageCursor<Out, In>(list: string, place: z.ZodType<Out, In>): PageCursor<Out, In> {
  return {
    encode: (value) => Buffer.from(JSON.stringify({ k: list, p: value })).toString('base64url'),
    decode(value, parameter = 'cursor') {
      const refused = new ApiError('invalid_query_parameter', `Parameter \`${parameter}\`: not a cursor this list issued; pass the nextCursor of a previous page.`, { details: { parameter } });
      if (!/^[A-Za-z0-9_-]{1,400}$/.test(value)) throw refused;
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
      } catch {
        throw refused;
      }
      const outer = envelope.safeParse(decoded);
      if (!outer.success || outer.data.k !== list) throw refused;
      const inner = place.safeParse(outer.data.p);
      if (!inner.success) throw refused;
      return inner.data;
    },
  };
}

/** An ISO-8601 instant carried in a cursor, back as a Date. */
export const cursorInstant = z.string().datetime().transform((at) => new Date(at));

/** A calendar date (YYYY-MM-DD) carried in a cursor. */
export const cursorDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const offsetPlace = z.number().int().min(0).max(9_999_999);

/** A cursor of a list paged by offset: how many rows earlier pages showed. */
export const offsetCursor = (list: string, offset: number) => pageCursor(list, offsetPlace).encode(offset);

/** The offset a cursor of this list names; 0 without one. */
export const cursorOffset = (list: string, cursor: string | null | undefined) => (cursor ? pageCursor(list, offsetPlace).decode(cursor) : 0);

/** The newest-first place of a row ordered by (createdAt, id): how logs and inboxes page. */
export const createdPlace = z.tuple([cursorInstant, z.string()]).transform(([createdAt, id]) => ({ createdAt, id }));
export const createdPlaceOf = (row: { createdAt: Date; id: string }): [string, string] => [row.createdAt.toISOString(), row.id];
