// The organization's request log (the records resolvers/requestLog.ts writes), newest first,
// narrowed by status, operation, key, door and time, paged by a keyset cursor on (createdAt, id):
// a page costs the same however deep it is. Only the caller's organization is read.
import { ApiError } from '../core/errors.ts';
import { createdPlace, createdPlaceOf, pageCursor } from '../core/cursor.ts';
import type { Prisma, RequestRecord } from '../prisma/generated/client/client.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';

export const requestDoors = ['rest', 'graphql', 'mcp'] as const;
export type RequestDoor = (typeof requestDoors)[number];

export interface RequestFilter {
  /** `2xx`…`5xx`, `errors` (4xx and 5xx) or one status code */
  status?: string | null;
  /** the `operation` column, exactly */
  operation?: string | null;
  apiKeyId?: string | null;
  door?: string | null;
  /** [from, to) */
  from?: Date | null;
  to?: Date | null;
}

export interface RequestPage {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export const statusFilterShape = /^(?:[1-5]xx|errors|[1-5]\d\d)$/;
export const statusFilterValues = ['2xx', '3xx', '4xx', '5xx', 'errors', '<a status code, e.g. 404>'];

function statusWhere(status: string): Prisma.IntFilter | number {
  if (!statusFilterShape.test(status)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`status\`: ${JSON.stringify(status)} is not a status class (2xx…5xx), \`errors\` or a status code.`, {
      details: { parameter: 'status', acceptedValues: statusFilterValues },
    });
  }
  if (status === 'errors') return { gte: 400 };
  if (status.endsWith('xx')) {
    const hundred = Number(status[0]) * 100;
    return { gte: hundred, lt: hundred + 100 };
  }
  return Number(status);
}

/** What the filters keep of the organization's records; a bad filter is the client's mistake. */
export function requestsWhere(ctx: Context, filter: RequestFilter): Prisma.RequestRecordWhereInput {
  const orgId = requireOrg(ctx);
  if (filter.door != null && !(requestDoors as readonly string[]).includes(filter.door)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`door\`: ${JSON.stringify(filter.door)} is not a door.`, { details: { parameter: 'door', acceptedValues: [...requestDoors] } });
  }
  if (filter.from && filter.to && filter.from >= filter.to) throw new ApiError('invalid_request_parameter', 'Parameter `from` must be before `to`.', { details: { parameter: 'from' } });
  for (const [name, at] of [['from', filter.from], ['to', filter.to]] as const) {
    if (at && Number.isNaN(at.getTime())) throw new ApiError('invalid_request_parameter', `Parameter \`${name}\`: not an ISO-8601 time.`, { details: { parameter: name } });
  }
  return {
    orgId,
    ...(filter.status != null ? { status: statusWhere(filter.status) } : {}),
    ...(filter.operation != null ? { operation: filter.operation } : {}),
    ...(filter.apiKeyId != null ? { apiKeyId: filter.apiKeyId } : {}),
    ...(filter.door != null ? { door: filter.door } : {}),
    ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
  };
}

interface Place {
  createdAt: Date;
  id: string;
}

const requestsCursor = pageCursor('requests', createdPlace);

function pageSize(value: number | null | undefined, name: string): number {
  const size = value ?? 25;
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new ApiError('invalid_query_parameter', `\`${name}\` must be 1 to 100.`, { details: { parameter: name } });
  return size;
}

/** Strictly older than the place (newest-first order), or strictly newer. */
const olderThan = (p: Place): Prisma.RequestRecordWhereInput => ({ OR: [{ createdAt: { lt: p.createdAt } }, { createdAt: p.createdAt, id: { lt: p.id } }] });
const newerThan = (p: Place): Prisma.RequestRecordWhereInput => ({ OR: [{ createdAt: { gt: p.createdAt } }, { createdAt: p.createdAt, id: { gt: p.id } }] });

/**
 * A page of the organization's requests, newest first, as a Relay connection. Forward with
 * `first`/`after` (older records), backward with `last`/`before` (newer ones, still shown newest
 * first). Each page is one indexed range read of at most 101 rows, never an OFFSET.
 */
export async function listRequests(ctx: Context, args: RequestFilter & RequestPage) {
  const where = requestsWhere(ctx, args);
  if ((args.after != null || args.first != null) && (args.before != null || args.last != null)) {
    throw new ApiError('invalid_query_parameter', 'Page forward (`first`, `after`) or backward (`last`, `before`), not both.', { details: { parameter: args.before != null ? 'before' : 'last' } });
  }
  const backward = args.before != null || args.last != null;
  const size = backward ? pageSize(args.last, 'last') : pageSize(args.first, 'first');
  const cursor = backward ? (args.before != null ? requestsCursor.decode(args.before, 'before') : null) : args.after != null ? requestsCursor.decode(args.after, 'cursor') : null; // REST's `cursor` is `after`
  await ctx.requestLog.flush(); // this instance's latest records; other instances write theirs within a second
  const rows = await ctx.prisma.requestRecord.findMany({
    where: cursor ? { AND: [where, backward ? newerThan(cursor) : olderThan(cursor)] } : where,
    orderBy: backward ? [{ createdAt: 'asc' }, { id: 'asc' }] : [{ createdAt: 'desc' }, { id: 'desc' }],
    take: size + 1,
  });
  const more = rows.length > size;
  const shown: RequestRecord[] = rows.slice(0, size);
  if (backward) shown.reverse();
  const edges = shown.map((node) => ({ cursor: requestsCursor.encode(createdPlaceOf(node)), node }));
  return {
    edges,
    pageInfo: {
      // past a cursor there is at least the record it was made from (unless purged since)
      hasNextPage: backward ? cursor != null : more,
      hasPreviousPage: backward ? more : cursor != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** The organization's keys among `ids`, in their order (null for one not found): one query for a page of requests. */
export async function requestKeys(ctx: Context, ids: readonly string[]) {
  const keys = await ctx.prisma.apiKey.findMany({ where: { id: { in: [...ids] }, orgId: requireOrg(ctx) } });
  const byId = new Map(keys.map((k) => [k.id, k]));
  return ids.map((id) => byId.get(id) ?? null);
}
