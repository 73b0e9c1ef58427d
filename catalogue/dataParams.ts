// Conventions every data read shares (documented in the OpenAPI description): `view`, cursor
// pagination (`limit`, `cursor`), date filters (`filed_from`, `filed_to`, YYYY-MM-DD, inclusive),
// and the coverage a list says it searched.
import { z } from 'zod';

/** Query parameters whose bad syntax is invalid_request_parameter (SPEC 7.1: "date … syntactically invalid"). */
export const syntaxParams = new Set(['filed_from', 'filed_to', 'period_from', 'period_to', 'cik', 'from', 'to']);

/** YYYY-MM-DD naming a day of the calendar (2024-02-30 does not). */
function isCalendarDate(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

// `abort`: zod otherwise runs the refine after a failed regex, and the date arithmetic of a value
// like `-1` threw (a 500 for a client's typo).
export const dateParam = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'expected a date YYYY-MM-DD', abort: true })
    .refine(isCalendarDate, 'not a calendar date')
    .optional()
    .describe(`${what} (YYYY-MM-DD, inclusive)`);

export const dateFilters = { filed_from: dateParam('Filed on or after'), filed_to: dateParam('Filed on or before') };

export const cikParam = z.string().regex(/^\d{1,10}$/, 'expected a CIK, up to 10 digits').optional().describe('Central Index Key');
export const tickerParam = z.string().min(1).max(12).optional().describe('Ticker symbol, e.g. AAPL');

export type View = 'default' | 'compact' | 'agent';

/**
 * The fields a view shows: `default` everything; `compact` and `agent` the ones they list, plus
 * the `always` ones (the object kind, identifiers and the citation).
 */
export function inView<T extends Record<string, unknown>, K extends keyof T>(view: View, full: T, fields: { always: K[]; compact: (keyof T)[]; agent: (keyof T)[] }): Pick<T, K> & Partial<T> {
  if (view === 'default') return full;
  return Object.fromEntries([...fields.always, ...fields[view]].map((k) => [k, full[k]])) as Pick<T, K> & Partial<T>;
}

export const coverageNote =
  'Coverage is bounded: this service answers from what it has ingested. An empty result does not establish that no such disclosure exists.';

export function coverage(searched: string, extra: Record<string, unknown> = {}) {
  return { searched, note: coverageNote, ...extra };
}

export const coverageSchema = z.object({ searched: z.string(), note: z.string() }).loose();
