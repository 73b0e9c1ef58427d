// Signals (derived/signals.ts): the rules' results for the companies asked about, filtered and
// paged newest first by the filing date of their newest evidence.
import { z } from 'zod';
import { ApiError } from '../core/errors.ts';
import { pageCursor } from '../core/cursor.ts';
import { computeSignals, signalTypes, type Signal } from '../derived/signals.ts';
import { requireDataAccess } from './access.ts';
import type { Context } from './context.ts';

export interface SignalFilter {
  ciks?: string[] | null;
  type?: string | null;
  from?: string | null;
  to?: string | null;
}

const signalsCursor = pageCursor('signals', z.tuple([z.string(), z.string()]));
const encodeCursor = (s: Signal) => signalsCursor.encode([s.asOf, s.id]);

/** Newest first (asOf, then id), after the cursor. */
const before = (s: Signal, [asOf, id]: [string, string]) => s.asOf < asOf || (s.asOf === asOf && s.id > id);

export async function listSignals(ctx: Context, filter: SignalFilter, first: number, after: string | null) {
  requireDataAccess(ctx);
  if (filter.type && !(filter.type in signalTypes)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`type\`: ${JSON.stringify(filter.type)} is not a signal type.`, { details: { parameter: 'type', acceptedValues: Object.keys(signalTypes) } });
  }
  if (filter.from && filter.to && filter.from > filter.to) throw new ApiError('invalid_query_parameter', 'Parameter `filed_from` must not be after `filed_to`.', { details: { parameter: 'filed_from' } });
  const cursor = after ? signalsCursor.decode(after) : null;
  const all = (await computeSignals(ctx.prisma, filter.ciks ?? null, ctx.cache.data))
    .filter((s) => (!filter.type || s.type === filter.type) && (!filter.from || s.asOf >= filter.from) && (!filter.to || s.asOf <= filter.to))
    .sort((a, b) => b.asOf.localeCompare(a.asOf) || a.id.localeCompare(b.id));
  const rest = cursor ? all.filter((s) => before(s, cursor)) : all;
  const shown = rest.slice(0, first);
  return { records: shown.map((s) => ({ record: s, cursor: encodeCursor(s) })), hasMore: rest.length > first, endCursor: shown.length ? encodeCursor(shown.at(-1)!) : null };
}
