// The request log: the organization's requests to every door, newest first, filtered by status,
// operation, key, door and time (resolvers/requests.ts). One request in full, with what it caused,
// is GET /v1/diagnostics/requests/{request_id}.
import { z } from 'zod';
import { RequestsListDocument, type RequestsListQuery } from '../operations/generated.ts';
import { requestDoors, statusFilterShape } from '../../resolvers/requests.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';
import { instant } from './diagnostics.ts';

const requestItem = z.object({
  object: z.literal('request'),
  id: z.string().describe('The Request-Id, `req_…` (GET /v1/diagnostics/requests/{request_id} shows what it caused)'),
  createdAt: z.iso.datetime(),
  door: z.enum(requestDoors),
  method: z.string(),
  path: z.string(),
  operation: z.string().nullable().describe('The route\'s operationId, the GraphQL operation name, or the MCP method and tool'),
  status: z.number().int(),
  errorCode: z.string().nullable(),
  meterClass: z.string().nullable(),
  cost: z.number().int().nullable().describe('Units charged to the meter class (a GraphQL operation\'s cost, else 1)'),
  durationMs: z.number(),
  apiKey: z.object({ id: z.string(), name: z.string(), hint: z.string() }).nullable().describe('The API key that made it; null for a dashboard session or no credential'),
});

type RequestNode = RequestsListQuery['requests']['nodes'][number];
const toRequest = (r: RequestNode) => ({ object: 'request' as const, ...r, door: r.door as (typeof requestDoors)[number] });

export const requestRoutes = [
  operationRoute({
    name: 'requests_list',
    method: 'GET',
    path: '/v1/requests',
    summary: 'The organization\'s request log, newest first',
    description:
      'Every request of the organization to /v1, /graphql and /mcp (recorded within a second of its answer): when, door, method and path, operation, status and error code, meter class and units, duration, and the API key that made it. Narrow it by status (`2xx`…`5xx`, `errors` or one code), operation, key, door and time; pages follow a stable cursor, so records arriving meanwhile never repeat or shift a page.',
    tag: 'Diagnostics',
    meter: 'platform',
    access: 'org',
    mcp: true,
    params: {
      query: z.strictObject({
        ...pageParams,
        status: z.string().regex(statusFilterShape, 'expected a status class (2xx, 3xx, 4xx, 5xx), `errors` or a status code such as 404').optional().describe('`2xx`, `3xx`, `4xx`, `5xx`, `errors` (4xx and 5xx) or one status code, e.g. `404`'),
        operation: z.string().min(1).max(200).optional().describe('Only requests of this operation, exactly: a route\'s operationId (`me_get`), a GraphQL operation name, or an MCP method and tool (`tools/call:requests_list`)'),
        api_key_id: z.string().regex(/^key_[0-9A-Za-z]{24}$/, 'expected a key id, key_ and 24 letters or digits').optional().describe('Only requests made with this API key'),
        door: z.enum(requestDoors).optional().describe('Only requests through this door: rest, graphql or mcp'),
        from: instant.optional().describe('Only requests at or after this time (ISO-8601)'),
        to: instant.optional().describe('Only requests before this time (ISO-8601)'),
        view: viewParam,
      }),
    },
    response: listEnvelope(requestItem),
    operation: RequestsListDocument,
    variables: ({ query }) => ({
      first: query.limit,
      after: query.cursor ?? null,
      status: query.status ?? null,
      operation: query.operation ?? null,
      apiKeyId: query.api_key_id ?? null,
      door: query.door ?? null,
      from: query.from ?? null,
      to: query.to ?? null,
    }),
  }).reshape(({ requests: connection }, meta) => ({
    object: 'list',
    data: connection.nodes.map(toRequest),
    hasMore: connection.pageInfo.hasNextPage,
    nextCursor: connection.pageInfo.hasNextPage ? (connection.pageInfo.endCursor ?? null) : null,
    ...meta,
  })),
];
