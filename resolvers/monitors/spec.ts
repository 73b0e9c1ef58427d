// What a monitor saves: one list read of the route table, `{route, params}`, checked by that
// route's own parameter schema (nothing is described twice), plus a threshold for fact reads.
// From the read it derives the keys that let an event find its candidate monitors by index.
import { ApiError } from '../../core/errors.ts';
import { predicate } from '../../core/issues.ts';
import type { Context } from '../context.ts';
import { ciksFor } from '../entities.ts';
import { watchableReads, type WatchableRead, type WatchedRecords } from './watchable.ts';

export interface MonitorQuery {
  route: string;
  params: Record<string, string>;
  threshold?: { below?: string; above?: string };
}

/** A saved read as stored: the query, and what an announcing event is matched on before the read runs. */
export interface CheckedQuery extends MonitorQuery {
  records: WatchedRecords;
  scope: string | null;
  /** the CIKs the read names, or ['*'] */
  ciks: string[];
  form: string | null;
}

/** Parameters of a page, not of a question: a monitor pages by itself. */
const pagingParams = new Set(['limit', 'cursor', 'view']);
const decimal = /^-?\d{1,30}(\.\d{1,12})?$/;

const invalid = (path: string, message: string) => new ApiError('validation_error', `${path}: ${message}`, { details: { issues: [{ path, message, code: 'invalid_value' }] } });

export function watchedRoute(path: string): WatchableRead {
  const route = watchableReads().find((r) => r.path === path);
  if (!route) throw invalid('query.route', `not a read a monitor can watch; one of ${watchableReads().map((r) => r.path).join(', ')}`);
  return route;
}

/** The route's parsed params for a saved query (the route runs with these). */
export function parsedParams(route: WatchableRead, params: Record<string, string>): { path: Record<string, never>; query: Record<string, unknown>; body: undefined } {
  const parsed = route.params.query!.safeParse(params, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : String(issue.path[0] ?? '');
    throw invalid(`query.params.${key}`, issue.code === 'unrecognized_keys' ? `not a parameter of ${route.path}` : predicate(issue));
  }
  return { path: {}, query: parsed.data, body: undefined };
}

export async function checkQuery(ctx: Context, input: { route: string; params?: Record<string, unknown> | null; threshold?: { below?: string | null; above?: string | null } | null }): Promise<CheckedQuery> {
  const route = watchedRoute(input.route);
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.params ?? {})) {
    if (pagingParams.has(key)) throw invalid(`query.params.${key}`, 'a monitor pages by itself; leave out limit, cursor and view');
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw invalid(`query.params.${key}`, 'expected a string, number or boolean, as in a query string');
    params[key] = String(value);
  }
  const { query } = parsedParams(route, params);
  const threshold = checkThreshold(route, input.threshold);
  let ciks = ['*'];
  if (params.ticker || params.cik) {
    const found = await ciksFor(ctx, { ticker: params.ticker, cik: params.cik });
    if (!found) throw invalid(`query.params.${params.ticker ? 'ticker' : 'cik'}`, `no entity with ${params.ticker ? `ticker ${params.ticker}` : `CIK ${params.cik}`} is known`);
    ciks = found;
  }
  const form = (query.form ?? query.form_type ?? null) as string | null;
  return { route: route.path, params, ...(threshold ? { threshold } : {}), records: route.watch.records, scope: route.watch.scope, ciks, form };
}

function checkThreshold(route: WatchableRead, threshold: { below?: string | null; above?: string | null } | null | undefined) {
  if (!threshold) return undefined;
  if (route.watch.records !== 'fact') throw invalid('query.threshold', 'a threshold applies to fact reads (/v1/facts) only');
  const { below, above } = threshold;
  if (below == null && above == null) throw invalid('query.threshold', 'name below, above or both');
  for (const [key, value] of Object.entries({ below, above })) if (value != null && !decimal.test(value)) throw invalid(`query.threshold.${key}`, 'expected a decimal number as a string, e.g. "1000000000" or "-0.5"');
  return { ...(below != null ? { below } : {}), ...(above != null ? { above } : {}) };
}
