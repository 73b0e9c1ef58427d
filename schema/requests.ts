// The request log (resolvers/requests.ts): the organization's requests to every door, newest
// first, filtered and paged by cursor; each record names the API key that made it.
import { listRequests, requestKeys } from '../resolvers/requests.ts';
import { builder } from './builder.ts';
import { RequestRecord } from './diagnostics.ts';
import { ApiKey } from './platform.ts';

const RequestDoor = builder.enumType('RequestDoor', {
  values: { rest: { description: 'HTTP under /v1' }, graphql: { description: '/graphql over HTTP' }, mcp: { description: 'The MCP endpoint, /mcp' } } as const,
});

builder.objectFields(RequestRecord, (t) => ({
  apiKeyId: t.exposeString('apiKeyId', { nullable: true, description: 'The API key that made the request, `key_…`; null for a dashboard session or no credential' }),
  apiKey: t.loadable({
    type: ApiKey,
    nullable: true,
    description: 'The API key that made the request (revoked ones too); null for a dashboard session or no credential',
    // one query for a page of requests, of the caller's organization's keys only
    load: (ids: string[], ctx) => requestKeys(ctx, ids),
    resolve: (r) => r.apiKeyId,
  }),
}));

builder.queryFields((t) => ({
  requests: t.connection({
    type: RequestRecord,
    description:
      'The organization\'s requests to /v1, /graphql and /mcp, newest first (records appear within a second of the answer). Page forward with `first`/`after`, back with `last`/`before` (at most 100 a page).',
    args: {
      status: t.arg.string({ description: 'A status class (`2xx`, `3xx`, `4xx`, `5xx`), `errors` (4xx and 5xx) or one status code (`404`)' }),
      operation: t.arg.string({ description: 'Only requests of this operation, exactly: a route\'s operationId, a GraphQL operation name, or an MCP method and tool' }),
      apiKeyId: t.arg.string({ description: 'Only requests made with this API key, `key_…`' }),
      door: t.arg({ type: RequestDoor, description: 'Only requests through this door' }),
      from: t.arg({ type: 'DateTime', description: 'Only requests at or after this time' }),
      to: t.arg({ type: 'DateTime', description: 'Only requests before this time' }),
    },
    resolve: (_root, args, ctx) => listRequests(ctx, args),
  }),
}));
