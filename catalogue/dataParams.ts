// Conventions every data read shares (documented in the OpenAPI description): `view`, cursor
// pagination (`limit`, `cursor`), date filters (`filed_from`, `filed_to`, YYYY-MM-DD, inclusive),
// and the coverage a list says it searched.
import { z } from 'zod';

/** Query parameters whose bad syntax is invalid_request_parameter (SPEC 7.1: "date … syntactically invalid"). */
export const syntaxParams = new Set(['filed_from', 'filed_to', 'period_from', 'period_to', 'cik', 'from', 'to', 'as_of']);

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
    // the JSON schema says what the regex and refine check: a calendar date (RFC 3339 full-date)
    .meta({ format: 'date' })
    .optional()
    .describe(`${what} (YYYY-MM-DD, inclusive)`);

export const dateFilters = { filed_from: dateParam('Filed on or after'), filed_to: dateParam('Filed on or before') };

export const cikParam = z.string().regex(/^\d{1,10}$/, 'expected a CIK, up to 10 digits').optional().describe('Central Index Key');
export const tickerParam = z.string().min(1).max(12).optional().describe('Ticker symbol, e.g. AAPL');

/**
 * Queries that need one of some parameters (a company read needs `ticker` or `cik`), and which.
 * OpenAPI describes each query parameter on its own, so no parameter schema can say "one of
 * these": rest/openapi.ts reads the rule here and writes it into the operation (its description
 * and its 400), beside the refinement that enforces it.
 */
export const requiredOneOf = z.registry<{ names: readonly string[]; exactlyOne: boolean }>();

const orList = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ').replace(/, ([^,]*)$/, ' or $1');

/** The rule in words, as the parameters' descriptions, the operation and the 400 state it. */
export const oneOfRule = (rule: { names: readonly string[]; exactlyOne: boolean }) => `${rule.exactlyOne ? 'exactly one' : 'one'} of ${orList(rule.names)} is required`;

/**
 * A strict query that refuses a request naming none of `names` (`exactlyOne`: or more than one)
 * with 400 invalid_query_parameter, when the parameters are checked: before the read is charged,
 * and the same through every door that reads the route (REST, MCP tools, monitors). Each of
 * `names` says the rule in its description.
 */
export function oneOfRequired<S extends z.ZodRawShape>(shape: S, names: (keyof S & string)[], options: { exactlyOne?: boolean } = {}) {
  const rule = { names, exactlyOne: options.exactlyOne ?? false };
  const described: Record<string, z.ZodType> = { ...(shape as unknown as Record<string, z.ZodType>) };
  for (const name of names) {
    const about = described[name]!.description;
    described[name] = described[name]!.describe(`${about ? `${about}. ` : ''}${oneOfRule(rule).replace(/^./, (c) => c.toUpperCase())}.`);
  }
  const query = z.strictObject(described as unknown as S).superRefine((q, ctx) => {
    const given = names.filter((name) => (q as Record<string, unknown>)[name] !== undefined).length;
    if (given === 0 || (rule.exactlyOne && given > 1)) ctx.addIssue({ code: 'custom', path: [names[0]!], message: oneOfRule(rule) });
  });
  requiredOneOf.add(query, rule);
  return query;
}

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
