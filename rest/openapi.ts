// The machine-readable contract (OpenAPI 3.1), generated from the route table. Served at
// /openapi/sec-api.v1.json and committed as rest/sec-api.v1.json (CI checks it is current).
import { defaultGraphqlMaxCost } from '../core/config.ts';
import { z } from 'zod';
import { errorStatus } from '../core/errors.ts';
import { maxBodyBytes } from './http.ts';
import { maxJsonDepth } from '../core/json.ts';
import { idempotentRoute } from './idempotency.ts';
import type { Route } from '../catalogue/route.ts';
import { oneOfRule, requiredOneOf } from '../catalogue/dataParams.ts';
import { apiVersion } from './version.ts';
import { roles, rolesWith } from '../resolvers/roles.ts';
import { quotaRefusalCode } from '../resolvers/metering.ts';
import { oidcOpenApiPaths } from './oidc.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const graphqlMaxCostDefault = defaultGraphqlMaxCost.toLocaleString('en-US');

const description = `Investor Data Service: SEC filing data, analytics and the platform around it.

**Authentication.** Machine requests send the API key in the \`x-api-key\` header; a key sent as a bearer token, in a URL or in a body is refused (401 \`authentication_failed\`). Dashboard sessions send \`Authorization: Bearer <session token>\`. Creating keys needs a dashboard session.

**Errors.** Every non-2xx response is the error envelope (\`object: "error"\`, \`id\`, \`code\`, \`message\`, \`requestId\`, \`traceparent\`, optional \`details\`). Every response carries \`Request-Id\` and \`traceparent\` headers: the traceparent names the span that served the request (its spans: \`GET /v1/traces/{request_id}\`), in the trace of a valid incoming W3C \`traceparent\`.

**Versioning.** The current version is ${apiVersion}. The \`service-version\` request header is optional: absent means the current version; any other value is refused with 400 \`invalid_request_parameter\` (\`details.acceptedValues\` lists the published versions). Every /v1 response carries \`service-version\`.

**Quotas.** Metered routes name their meter class in \`Service-Meter-Class\` and consume one request from each of the organization's windows of that class (minute, hour, day, aligned to UTC; the \`ai_query\` class also a calendar month in UTC, which starts again at 00:00 UTC on the 1st; see GET /v1/limits, \`resetsAt\`) before they run. A full window answers 429 \`rate_limit_exceeded\` with \`Retry-After\` (seconds until the window ends; the AI query's windows answer \`ai_query_quota_exceeded\`, renders' \`render_rate_limited\`). Every metered answer, the 429 included (and \`POST /graphql\`, counting cost units), carries the quota fields of draft-ietf-httpapi-ratelimit-headers, one policy per window of the class, named \`<class>:<period>\`: \`RateLimit-Policy: "data_read:minute";q=120;w=60, "data_read:hour";q=3000;w=3600, "data_read:day";q=20000;w=86400\` (\`q\` the window's limit, \`w\` its length in seconds, for a month window the length of the current calendar month) and \`RateLimit: "data_read:minute";r=117;t=42, …\` (\`r\` what is left of the window after this request, \`t\` seconds until it starts again). A request refused before it is counted (credentials, parameters) has neither. A class the plan does not include answers 402 \`billing_required\`. While the shared quota store is unreachable, fail-open classes are limited per server instance and fail-closed classes answer 503 \`rate_limiter_unavailable\` with \`Retry-After\`.

**GraphQL cost.** \`POST /graphql\` prices each operation before it runs: every field selected costs 1, a field with a page size (\`limit\`, \`first\`, \`last\`) costs its selection that many times, and \`facts\` (100), \`statements\` and \`segments\` (1,000 each) cost their work. An operation over ${'${graphqlMaxCostDefault}'} (the default maximum, set by the operator) is refused with 400 \`query_cost_exceeded\` (\`details.cost\`, \`details.limit\`); also refused: depth over 15 (\`query_depth_exceeded\`), more than 30 aliases (\`query_aliases_exceeded\`), more than 5,000 tokens (\`query_tokens_exceeded\`) and a batch (\`batching_not_supported\`). The cost is charged to the \`graphql\` meter class, whose windows count cost units, and reported in \`extensions.cost\` (\`requested\`, \`limit\`) and the \`Service-Token-Count\` header. The /v1 routes run the same operations and are charged once, by their own meter class.

**Lists.** Cursor-paginated lists take \`limit\` (1 to 100, default 25) and \`cursor\` (the previous page's \`nextCursor\`) and answer \`{object: "list", data, hasMore, nextCursor}\`. A \`limit\` out of range or an unknown parameter is 400 \`invalid_query_parameter\` with \`details.parameter\` and \`details.acceptedValues\`. Every GET takes \`view\` (\`default\`, \`compact\`, \`agent\`).

**Idempotency.** Every POST, PUT, PATCH and DELETE that needs a credential takes an optional \`Idempotency-Key\` header (1 to 255 printable ASCII characters; a UUID is a good choice). Keys are kept 24 hours per organization. A retry with the same key and the same request (method, path, parameters and body) answers the first status and body again, byte for byte, with \`Idempotent-Replayed: true\`, without running the operation or charging quota again; this includes a secret the first answer revealed (a new API key, a webhook signing secret), since the same caller already received it (stored answers are encrypted). The same key with a different request is 422 \`idempotency_key_reused\`; while the first request is still running it is 409 \`idempotency_key_in_use\` (retryable, \`Retry-After\`). Saved are the answers of requests that started: 2xx and 4xx. Not saved, so that a retry with the same key runs again: a request refused before it started (credentials, access, parameters: fix it and retry with the same key), a quota or billing refusal (429, 402), and a 5xx.

**Bodies.** JSON, at most ${maxBodyBytes} bytes (413 \`request_too_large\` beyond, also for \`POST /mcp\` and \`POST /graphql\`, whether or not Content-Length is sent); malformed JSON, or JSON that nests arrays and objects more than ${maxJsonDepth} levels deep, is 400 \`invalid_json\`; a body that fails its schema is 400 \`validation_error\` with \`details.issues[]\`. Text cannot hold a NUL character (U+0000): one in a parameter is 400 \`invalid_request_parameter\`, in a body field 400 \`validation_error\`, naming it.`;

const errorEnvelope: JsonSchema = {
  type: 'object',
  required: ['object', 'id', 'code', 'message', 'requestId', 'traceparent'],
  properties: {
    object: { const: 'error' },
    id: { type: 'string', pattern: '^err_' },
    code: { type: 'string', enum: Object.keys(errorStatus) },
    message: { type: 'string' },
    requestId: { type: 'string' },
    traceparent: { type: 'string' },
    hint: { type: 'string' },
    docsUrl: { type: 'string' },
    action: { type: 'string' },
    retryable: { type: 'boolean' },
    details: {
      type: 'object',
      properties: {
        parameter: { type: 'string' },
        acceptedValues: { type: 'array', items: { type: 'string' } },
        issues: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } } } },
      },
    },
  },
};

/** The quota fields (draft-ietf-httpapi-ratelimit-headers) of a metered answer; `required` on the 429, which always has them. */
const rateLimitHeaders = (required: boolean) => ({
  'RateLimit-Policy': { description: 'Each quota window of the meter class as a policy `"<class>:<period>";q=<limit>;w=<seconds>` (a Structured Field List), e.g. `"data_read:minute";q=120;w=60, "data_read:hour";q=3000;w=3600, "data_read:day";q=20000;w=86400`. Present when the request was counted against the windows', ...(required ? { required } : {}), schema: { type: 'string' } },
  RateLimit: { description: 'What is left of each window after this request, `"<class>:<period>";r=<remaining>;t=<seconds until the window starts again>`, e.g. `"data_read:minute";r=117;t=42, …`. Present when the request was counted against the windows', ...(required ? { required } : {}), schema: { type: 'string' } },
});

const replayedHeader = { description: 'Present (`true`) when this is the stored answer of an earlier request with the same Idempotency-Key', schema: { type: 'string', const: 'true' } };

// requestContext sets both on every response, before anything can fail
const commonHeaders = {
  'Request-Id': { description: 'Identifier of this request', required: true, schema: { type: 'string' } },
  traceparent: { description: 'W3C trace context of this request', required: true, schema: { type: 'string' } },
};

/** What a person's role must allow to call the route, beyond reading (README "Roles"). */
function roleCapabilities(route: Route) {
  return (route.capabilities ?? []).filter((c) => c !== 'read');
}

/** `x-roles`: the roles whose members may call the route; `x-operator`: it is for the service's operators only. */
function whoMayCall(route: Route) {
  if (route.access === 'public') return {};
  const needed = roleCapabilities(route);
  if (needed.includes('operator')) return { 'x-operator': true };
  return { 'x-roles': roles.filter((role) => needed.every((c) => rolesWith(c).includes(role))) };
}

/** Which error codes a route can answer with, by status, from its access class, params and meter. */
function errorCodes(route: Route): Map<number, string[]> {
  const codes = ['route_not_found', 'method_not_allowed', 'internal_error', ...(route.errors ?? [])];
  if (route.path.startsWith('/v1')) codes.push('invalid_request_parameter');
  // every route's query is checked, an empty one too (an unknown parameter is refused)
  codes.push('invalid_query_parameter');
  if (route.params.path) codes.push('invalid_request_parameter');
  // A JSON body is read before routing, whatever the route (server/app.ts): one it cannot read is
  // refused there, even on a route that takes none. GETs are left out: clients send them no body.
  if (route.params.body || route.method !== 'GET') codes.push('invalid_json', 'request_too_large', 'unsupported_media_type');
  if (route.params.body) codes.push('validation_error');
  // a key in the URL or a body is refused before any route runs, a public one included
  codes.push('authentication_failed');
  if (route.access !== 'public') codes.push('missing_api_key', 'auth_verification_unavailable');
  if (route.access === 'org' || route.access === 'dashboard') codes.push('organization_missing', 'organization_suspended');
  const needed = roleCapabilities(route);
  if (needed.includes('operator')) codes.push('operator_scope_required');
  else if (needed.length) codes.push('role_forbidden');
  if (route.access === 'dashboard' || route.access === 'session') codes.push('missing_browser_session', 'browser_session_required');
  // a change made with the browser's session cookie must pass the CSRF rule (resolvers/accounts/cookie.ts)
  if (route.access !== 'public' && route.method !== 'GET') codes.push('csrf_check_failed');
  if (route.capabilities?.some((c) => c !== 'read' && c !== 'operator')) codes.push('role_forbidden');
  if (route.capabilities?.includes('operator')) codes.push('operator_scope_required');
  if (route.access === 'org' && route.scope === 'organization') codes.push('insufficient_scope');
  if (route.meter) codes.push(quotaRefusalCode(route.meter), 'billing_required', 'rate_limiter_unavailable');
  if (idempotentRoute(route)) codes.push('idempotency_key_in_use', 'idempotency_key_reused');
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    const status = errorStatus[code as keyof typeof errorStatus];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** A download's 200 (route.download): per content type, the documented response, its items, or text. */
function downloadContent(route: Route) {
  const response = jsonSchema(route.response, 'output');
  const schemaOf = { response, items: response.items ?? response, text: { type: 'string' } } as const;
  return Object.fromEntries(Object.entries(route.download!.content).map(([type, what]) => [type, { schema: schemaOf[what] }]));
}

/** `allowed`: the methods of the route's path, in the order a 405's Allow names them (rest/http.ts). */
function operation(route: Route, allowed: string[]) {
  const parameters: JsonSchema[] = [];
  for (const [where, schema] of [['path', route.params.path], ['query', route.params.query]] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description: about, ...propertySchema } = property;
      parameters.push({ name, in: where, required: where === 'path' || (object.required ?? []).includes(name) && !('default' in property), ...(about ? { description: about } : {}), schema: propertySchema });
    }
  }
  if (route.signedBody) parameters.push({ name: route.signedBody.header, in: 'header', required: true, description: 'The sender\'s signature over the raw body', schema: { type: 'string' } });
  if (route.path.startsWith('/v1')) parameters.push({ $ref: '#/components/parameters/ServiceVersion' });
  const idempotent = idempotentRoute(route);
  if (idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  // the answers a key stores, and so may replay
  const replayed = (status: number) => (idempotent && status < 500 && status !== 402 && status !== 429 ? { 'Idempotent-Replayed': replayedHeader } : {});

  const responses: Record<string, unknown> = {
    200: {
      description: route.download ? `${route.summary}. ${route.download.note}` : route.summary,
      headers: {
        ...commonHeaders,
        ...replayed(200),
        ...(route.meter
          ? {
              'Service-Meter-Class': { description: 'The meter class this request was charged to', schema: { type: 'string', const: route.meter } },
              'Service-Estimated-Cost': { description: 'The list price of this request in millicents (1/1,000 of a cent), whether the starter grant, the plan or prepaid credit paid it', schema: { type: 'integer' } },
              ...rateLimitHeaders(false), // an idempotent replay is not counted again
            }
          : {}),
        ...(route.path.startsWith('/v1') ? { 'service-version': { description: 'The version that answered', required: true, schema: { type: 'string', const: apiVersion } } } : {}),
        ...(route.download ? { 'Content-Disposition': { description: `attachment; filename="${route.download.filename}"`, required: true, schema: { type: 'string' } } } : {}),
      },
      content: route.download
        ? downloadContent(route)
        : // a route with a page answers a client that prefers text/html (a browser) with it (rest/http.ts)
          { 'application/json': { schema: jsonSchema(route.response, 'output') }, ...(route.page ? { 'text/html': { schema: { type: 'string' } } } : {}) },
    },
  };
  // A rule across query parameters (one of ticker or cik) has no parameter schema to live in: the
  // operation and its 400 state it, so a client reads it where it reads the parameters.
  const oneOf = route.params.query ? requiredOneOf.get(route.params.query) : undefined;
  const oneOfNote = oneOf ? `${oneOfRule(oneOf).replace(/^./, (c) => c.toUpperCase())}: without it, 400 \`invalid_query_parameter\`.` : undefined;
  for (const [status, codes] of errorCodes(route)) {
    responses[status] = {
      description: `Error envelope; \`code\` is one of: ${codes.map((c) => `\`${c}\``).join(', ')}${status === 400 && oneOfNote ? `. ${oneOfNote}` : ''}`,
      headers: {
        ...commonHeaders,
        ...replayed(status),
        // an error after the request was counted (a 402, a 404 of the route, the 429 itself) says where the windows stand
        ...(route.meter && status !== 400 && status !== 401 && status !== 403 && status !== 405 && status !== 413 && status !== 415 ? rateLimitHeaders(status === 429) : {}),
        ...(status === 429 || status === 503 || (status === 409 && idempotent) ? { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } } : {}),
        ...(status === 405 ? { Allow: { description: 'The methods of this path', required: true, schema: { type: 'string', const: allowed.join(', ') } } } : {}),
      },
      // the envelope, with the codes this status can carry here
      content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: codes } } }] } } },
    };
  }

  const security =
    route.access === 'public' ? [] : route.access === 'dashboard' || route.access === 'session' ? [{ session: [] }, { sessionCookie: [] }] : [{ apiKey: [] }, { session: [] }, { sessionCookie: [] }];
  return {
    operationId: route.name,
    summary: route.summary,
    ...(route.description || oneOfNote ? { description: [route.description, oneOfNote].filter(Boolean).join(' ') } : {}),
    tags: [route.tag],
    'x-access': route.access,
    ...whoMayCall(route),
    ...(route.meter ? { 'x-meter-class': route.meter } : {}),
    security,
    ...(parameters.length ? { parameters } : {}),
    ...(route.params.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.signedBody ? { type: 'object', description: 'The sender\'s event, exactly as it signed it' } : jsonSchema(route.params.body, 'input') } } } } : {}),
    responses,
  };
}

const rpcError = (status: string, codes: string) => ({ description: `${status}: JSON-RPC error ${codes}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcError' } } } });

/** The hosted MCP transport (SPEC 4.1, 7.3): not a route of the table, but its tools are. */
function mcpOperation(routes: Route[]) {
  const tools = routes.filter((r) => r.mcp).map((r) => `\`${r.name}\``);
  return {
    post: {
      operationId: 'mcp',
      summary: 'Hosted MCP endpoint (JSON-RPC 2.0 over Streamable HTTP, protocol 2025-11-25; also 2025-06-18, 2025-03-26, 2024-11-05)',
      description: `Methods: initialize, ping, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get; others are 404 with -32601. One JSON response per request (no server stream: GET is 405). Sessions are optional: initialize returns an \`Mcp-Session-Id\` that later requests may send (an unknown one is 404). A notification or response is 202 with no body. Accept must list application/json and text/event-stream (else 406); a browser Origin other than this service's or localhost is 403; an unsupported \`MCP-Protocol-Version\` is 400. Tools, one per data route, answering with the route's agent view as structuredContent: ${tools.join(', ')}. Each tools/call has a time budget (504, -32004 \`mcp_tool_timeout\`) and a circuit per tool (503, -32006 \`mcp_tool_circuit_open\`, with Retry-After).`,
      tags: ['MCP'],
      security: [{ apiKey: [] }, { session: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } } } } } },
      responses: {
        200: { description: 'JSON-RPC result', content: { 'application/json': { schema: { type: 'object' } } } },
        202: { description: 'A notification or response was accepted; no body' },
        400: rpcError('Parse error, invalid request, unsupported protocol version, or unknown tool/resource/prompt or bad params', '-32700, -32600 or -32602 (data.code invalid_request or validation_error)'),
        401: rpcError('No or rejected credential (WWW-Authenticate names the protected-resource metadata)', '-32001 (data.code missing_api_key or authentication_failed)'),
        402: rpcError('Billing or plan blocks the tool', '-32007 (data.code billing_required)'),
        403: rpcError('Origin not allowed, or no organization context', '-32600 or -32001'),
        404: rpcError('Unsupported method, or unknown session', '-32601 (data.code invalid_request)'),
        405: {
          description: 'Any method but POST (GET: no server stream; DELETE: nothing to end). Error envelope; `code` is `method_not_allowed`',
          headers: { Allow: { description: 'The methods of this path', required: true, schema: { type: 'string', const: 'POST' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        406: rpcError('Accept does not list application/json and text/event-stream', '-32600'),
        429: rpcError('Quota window of the tool\'s meter class exhausted (Retry-After)', '-32005 (data.code ai_query_quota_exceeded)'),
        503: rpcError('The tool\'s circuit is open (Retry-After)', '-32006 (data.code mcp_tool_circuit_open)'),
        504: rpcError('The tool exceeded its time budget', '-32004 (data.code mcp_tool_timeout)'),
      },
    },
  };
}

export function buildOpenApi(routes: Route[]) {
  const paths: Record<string, Record<string, unknown>> = { '/mcp': mcpOperation(routes), ...oidcOpenApiPaths };
  const allowed = (path: string) => [...new Set(routes.filter((r) => r.path === path).map((r) => r.method))];
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, allowed(route.path));
  return {
    openapi: '3.1.0',
    info: { title: 'Investor Data Service API', version: apiVersion, description },
    servers: [{ url: '/' }],
    tags: [...new Set([...routes.map((r) => r.tag), 'Auth', 'MCP'])].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Organization API key: a fixed prefix `idsk_` and an opaque secret.' },
        session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A signed-in person\'s session as a bearer token (sign in with `tokenDelivery: "bearer"`, or `npm run ids -- session`), or a token of the configured identity provider. 30 days, 90 with remember-me.' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'ids_session',
          description: 'The browser\'s session, set httpOnly by a sign-in (`__Host-ids_session` when served over https). A change made with it (any method but GET) must come from the service\'s own origin (or IDS_CORS_ORIGINS) and carry `x-ids-csrf: 1`; otherwise 403 `csrf_check_failed`.',
        },
      },
      parameters: {
        ServiceVersion: {
          name: 'service-version',
          in: 'header',
          required: false,
          description: `The API version the client was written against. Absent means the current version (${apiVersion}); other values are refused.`,
          schema: { type: 'string', enum: [apiVersion] },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'A key of your choice (a UUID) that makes a retry of this request safe: for 24 hours, the same key with the same request answers the first status and body again, with `Idempotent-Replayed: true`. The same key with a different request is 422 `idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_use`.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
        },
      },
      schemas: {
        Error: errorEnvelope,
        JsonRpcError: {
          type: 'object',
          required: ['jsonrpc', 'id', 'error'],
          properties: {
            jsonrpc: { const: '2.0' },
            id: { type: ['string', 'integer', 'null'] },
            error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'object', properties: { code: { type: 'string' }, requestId: { type: 'string' }, retryAfter: { type: 'integer' } } } } },
          },
        },
      },
    },
  };
}
