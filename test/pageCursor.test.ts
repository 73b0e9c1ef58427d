import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../core/errors.ts';
import { createdPlace, createdPlaceOf, cursorOffset, offsetCursor, pageCursor } from '../core/cursor.ts';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? { code: error.code, parameter: error.options.details?.parameter, message: error.message } : error;
  }
  throw new Error('not refused');
};

describe('page cursors', () => {
  const requests = pageCursor('requests', createdPlace);
  const alerts = pageCursor('alerts', createdPlace);

  it('reads back the place it was issued for', () => {
    const row = { createdAt: new Date('2026-11-27T10:00:00.123Z'), id: 'req_1' };
    expect(requests.decode(requests.encode(createdPlaceOf(row)))).toEqual(row);
  });

  it("refuses another list's cursor, an edited one and one it never issued, naming the parameter", () => {
    const theirs = alerts.encode(createdPlaceOf({ createdAt: new Date('2026-11-27T10:00:00Z'), id: 'evt_1' }));
    const edited = Buffer.from(JSON.stringify({ k: 'requests', p: ['yesterday', 'req_1'] })).toString('base64url');
    for (const value of [theirs, edited, 'Zm9v', 'not a cursor!', 'x'.repeat(500)]) {
      expect(refusal(() => requests.decode(value, 'before'))).toMatchObject({ code: 'invalid_query_parameter', parameter: 'before' });
    }
  });

  it('keeps offsets within range', () => {
    expect(cursorOffset('facts', offsetCursor('facts', 25))).toBe(25);
    expect(cursorOffset('facts', null)).toBe(0);
    expect(refusal(() => cursorOffset('facts', Buffer.from(JSON.stringify({ k: 'facts', p: -1 })).toString('base64url')))).toMatchObject({ parameter: 'cursor' });
    expect(refusal(() => cursorOffset('earnings', offsetCursor('facts', 25)))).toMatchObject({ code: 'invalid_query_parameter' });
    expect(refusal(() => pageCursor('ok', z.literal(1)).decode(offsetCursor('facts', 1)))).toMatchObject({ code: 'invalid_query_parameter' });
  });
});
