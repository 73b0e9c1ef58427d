// One entry of the route table: how a /v1 path is authorized, metered, validated, executed
// and shaped. REST serves it, OpenAPI documents it, and (later) MCP lists it as a tool.
import type { ServerResponse } from 'node:http';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode } from 'graphql';
import { z } from 'zod';
import { operationScope, type Access } from '../resolvers/access.ts';
import type { ApiKeyScope } from '../resolvers/principal.ts';
import { operationCapabilities, type Capability } from '../resolvers/roles.ts';
import type { Context } from '../resolvers/context.ts';
import type { Watch, WatchedRecords } from '../resolvers/monitors/watchable.ts';
import { schema } from '../schema/index.ts';
import { runDirect, runOperation } from './executor.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteParams<P extends AnyObject | undefined, Q extends AnyObject | undefined, B extends z.ZodType | undefined> {
  path: P extends AnyObject ? z.output<P> : Record<string, never>;
  query: Q extends AnyObject ? z.output<Q> : Record<string, never>;
  body: B extends z.ZodType ? z.output<B> : undefined;
}

export interface Route {
  /** operationId, snake_case; also the MCP tool name */
  name: string;
  method: HttpMethod;
  /** OpenAPI style: `/v1/things/{thing_id}` */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  /** the quota class it consumes; null for public routes */
  meter: string | null;
  params: { path?: AnyObject; query?: AnyObject; body?: z.ZodType };
  /** the documented 200 body */
  response: z.ZodType;
  /** error codes this route can answer with, beyond the ones every route of its access class has */
  errors?: string[];
  /**
   * The body is a signed notice from another service: the route receives `{payload, signature}`
   * (the raw body as sent, and this header) instead of parsed JSON, to verify before trusting it.
   */
  signedBody?: { header: string };
  /**
   * A sign-in (`start`: its answer carries `token` and `expiresAt`) or a sign-out (`end`). The
   * REST door turns the token into the browser's session cookie (resolvers/accounts/cookie.ts),
   * or leaves it in the body for a client that asked `tokenDelivery: "bearer"`.
   */
  session?: 'start' | 'end';
  /** listed as an MCP tool of the same name, answering with the route's agent view */
  mcp?: boolean;
  /** a list read a monitor can save (resolvers/monitors/) */
  watch?: Watch;
  /** a link followed by people: its answer as an HTML page, for a client that prefers text/html (a browser) */
  page?: (body: any) => string;
  /** runs a mutation (set from the operation): a GET that does (a monitor's check, a signed link) is never cached, nor read-only to agents */
  changesState?: boolean;
  /** a data read that answers the same for every caller with the same parameters: its answers are kept (derived/dataCache.ts) */
  sharesAnswers?: boolean;
  /** what an API key needs to call it (set from the operation, resolvers/access.ts operationScope); absent: `read` */
  scope?: ApiKeyScope;
  /** what a person's role must allow to call it (set from the operation, resolvers/roles.ts operationCapabilities) */
  capabilities?: Capability[];
  /** the persisted GraphQL operation it runs, the same document a client may send to /graphql; absent: a handler route */
  operation?: DocumentNode;
  run(params: { path: any; query: any; body: any }, ctx: Context): Promise<unknown>;
  /** an export: answers by writing a download itself instead of one JSON body (see exportRoute) */
  stream?(params: { path: any; query: any; body: any }, ctx: Context, res: ServerResponse): Promise<void>;
  /** what a streamed route's 200 is, for the OpenAPI contract: per content type, the documented `response`, its items, or text */
  download?: { note: string; filename: string; content: Record<string, 'response' | 'items' | 'text'> };
}

/**
 * How an operation route narrows itself to some records: `only` passes the ids to the
 * operation's `$only` variable (filings, forms, events); `accession` pages through the read and
 * keeps the items from those filings (facts: a series is stitched per period, so it is read whole).
 */
type WatchDefinition = { records: WatchedRecords; scope?: string; restrict: 'only' | 'accession' };

/** Pages a monitor reads of a series narrowed by accession: the newest 500 items. */
const accessionPages = 5;

/** What a route says about itself: everything but how it runs and what its params and response are typed as. */
type RouteDescription = Omit<Route, 'params' | 'response' | 'run' | 'watch' | 'page' | 'changesState' | 'sharesAnswers' | 'scope' | 'capabilities' | 'operation'>;

/** Response fields every object body carries. */
export interface ResponseMeta {
  requestId: string;
}

/**
 * A route answered by a persisted GraphQL operation: the only way /v1 reads and writes data.
 * Written `operationRoute({...}).reshape(fn)`: the first call fixes the types of the params and
 * of the documented response, so that the reshaper is checked against them.
 */
export function operationRoute<TData, TVars, R extends z.ZodType, P extends AnyObject | undefined = undefined, Q extends AnyObject | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  def: RouteDescription & {
    params?: { path?: P; query?: Q; body?: B };
    response: R;
    operation: TypedDocumentNode<TData, TVars>;
    variables?: (params: RouteParams<P, Q, B>) => TVars;
    /**
     * The operation's data built without executing it, where executing costs a read more than its
     * data does (a bundle of hundreds of lines); it must answer what the operation answers.
     */
    data?: (variables: TVars, ctx: Context) => Promise<TData>;
    watch?: WatchDefinition;
  },
) {
  const { operation, variables, data, watch, params = {}, ...rest } = def;
  // A GET data read answers the same for every caller with the same parameters (access and
  // metering have run by now), so its answer is kept with the data it came from and dropped
  // with it when an ingest commits (derived/dataCache.ts).
  const changesState = !isQuery(operation);
  const shared = rest.method === 'GET' && rest.meter === 'data_read' && !changesState;
  return {
    reshape(reshape: (data: TData, meta: ResponseMeta, params: RouteParams<P, Q, B>) => z.input<R>): Route {
      const dataOf = (vars: TVars, ctx: Context) => (data ? runDirect(() => data(vars, ctx), ctx) : runOperation(operation, vars, ctx));
      const answer = async (parsed: RouteParams<P, Q, B>, ctx: Context, requestId: string, narrowed: { only?: string[] } = {}) =>
        reshape(await dataOf({ ...(variables?.(parsed) ?? {}), ...narrowed } as TVars, ctx), { requestId }, parsed);
      return {
        ...rest,
        changesState,
        sharesAnswers: shared,
        scope: operationScope(schema, operation),
        capabilities: [...operationCapabilities(schema, operation)],
        operation,
        params: params as Route['params'],
        ...(watch ? { watch: watchOf(watch, answer) } : {}),
        async run(parsed, ctx) {
          if (!shared) return answer(parsed, ctx, ctx.requestId);
          const kept = await ctx.cache.data.answer(`${rest.name}:${JSON.stringify(parsed)}`, async () => answer(parsed, ctx, '') as Promise<object>);
          return { ...kept, requestId: ctx.requestId };
        },
      };
    },
  };
}

/** A GET can run a mutation (a monitor's check moves it on): then it runs every time. */
function isQuery(document: TypedDocumentNode<unknown, never> | TypedDocumentNode<any, any>): boolean {
  return document.definitions.every((d) => d.kind !== 'OperationDefinition' || d.operation === 'query');
}

function watchOf(def: WatchDefinition, answer: (parsed: any, ctx: Context, requestId: string, narrowed?: { only?: string[] }) => Promise<unknown>): Watch {
  const itemsOf = (body: unknown) => ((body as { data?: unknown[]; facts?: unknown[] }).data ?? (body as { facts: unknown[] }).facts) as Record<string, unknown>[];
  return {
    records: def.records,
    scope: def.scope ?? null,
    async items(params, ctx, ids) {
      const query = { ...params.query, view: 'default', limit: 100, cursor: undefined };
      const found: Record<string, unknown>[] = [];
      if (def.restrict === 'only') {
        for (let i = 0; i < ids.length; i += 100) found.push(...itemsOf(await answer({ ...params, query }, ctx, '', { only: ids.slice(i, i + 100) })));
        return found;
      }
      const wanted = new Set(ids);
      for (let page = 0, cursor: string | undefined; page < accessionPages; page++) {
        const body = (await answer({ ...params, query: { ...query, cursor } }, ctx, '')) as { nextCursor: string | null };
        found.push(...itemsOf(body).filter((item) => wanted.has(item.accessionNumber as string)));
        if (!body.nextCursor) break;
        cursor = body.nextCursor;
      }
      return found;
    },
    async latest(params, ctx, limit) {
      const body = (await answer({ ...params, query: { ...params.query, view: 'default', limit, cursor: undefined } }, ctx, '')) as { hasMore?: boolean; nextCursor?: string | null };
      return { items: itemsOf(body), hasMore: Boolean(body.hasMore ?? body.nextCursor) };
    },
  };
}

/** A route that is not a data read: protocol metadata served by a handler of its own. */
export function handlerRoute<R extends z.ZodType>(def: RouteDescription & { response: R; run(ctx: Context): Promise<z.input<R>> }): Route {
  const { run, ...rest } = def;
  return { ...rest, params: {}, run: (_params, ctx) => run(ctx) };
}

/** `view` is accepted by every GET route (SPEC 4): default, compact or agent. */
export const viewParam = z.enum(['default', 'compact', 'agent']).default('default').describe('Response shape: `default`, `compact` (fewer fields) or `agent` (flat, cited, small).');

/** Cursor pagination, the same on every list: `limit` (1–100, default 25) and an opaque `cursor`. */
export const pageParams = {
  limit: z.coerce.number().int().min(1).max(100).default(25).describe('Page size, 1 to 100 (default 25).'),
  cursor: z.string().min(1).max(200).optional().describe('Opaque cursor from the previous page\'s `nextCursor`.'),
};

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().describe('Pass as `cursor` to get the next page; null on the last page.'),
    requestId: z.string(),
  });
}

