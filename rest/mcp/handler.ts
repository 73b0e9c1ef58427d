// POST /mcp: the Model Context Protocol over Streamable HTTP (specification 2025-11-25), one
// JSON response per request. Errors follow SPEC 7.3: the HTTP status and JSON-RPC code give the
// class, `error.data.code` the reason.
import express, { type Request, type Response, Router } from 'express';
import { authenticate } from '../../resolvers/authenticate.ts';
import type { Context, Services } from '../../resolvers/context.ts';
import { ApiError, clipped, toApiError } from '../../core/errors.ts';
import { nestedDeeperThan, tooDeepError } from '../../core/json.ts';
import { locals, noteCaller, resumeTracedContext } from '../../catalogue/requestContext.ts';
import type { Route } from '../../catalogue/route.ts';
import { CircuitBreaker } from './breaker.ts';
import { getPrompt, listPrompts } from './prompts.ts';
import { fromApiError, latestProtocolVersion, McpError, rpcCodes, rpcError, supportedProtocolVersions, type JsonRpcRequest } from './protocol.ts';
import { listResources, readResource, resourceTemplates } from './resources.ts';
import { sessionSigner } from './sessions.ts';
import { callTool, listTools, toolsOf } from './tools.ts';

const serverInfo = { name: 'investor-data-service', title: 'Investor Data Service', version: '0.1.0' };
const instructions =
  'SEC EDGAR data with exact values and citations: entities, filings and sections, XBRL facts, statements, segments, forms and 8-K events. Every tool answers in a compact agent view; lists page with limit and cursor. Cite the accession number and citation URL of what you use.';

function originAllowed(origin: string | undefined, services: Services): boolean {
  if (!origin) return true; // not a browser
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return true;
  return url.origin === new URL(services.config.publicUrl).origin || services.config.mcp.allowedOrigins.includes(url.origin);
}

const accepts = (req: Request) => {
  const accept = req.get('accept') ?? '';
  return /application\/json|\*\/\*/.test(accept) && /text\/event-stream|\*\/\*/.test(accept);
};

function isRequest(message: unknown): message is JsonRpcRequest {
  const m = message as Record<string, unknown>;
  return typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') && (m.params === undefined || (typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params)));
}

/** A notification (method, no id) or a response to us (id with result or error). */
function isNotificationOrResponse(message: Record<string, unknown>): boolean {
  if (typeof message.method === 'string') return !('id' in message);
  return ('id' in message) && ('result' in message || 'error' in message);
}

export function mcpRouter(services: Services, routes: Route[]): Router {
  const router = Router();
  const tools = toolsOf(routes);
  const byName = new Map(routes.map((r) => [r.name, r]));
  const breaker = new CircuitBreaker(services.config.mcp.circuitFailures, services.config.mcp.circuitCooldownMs);
  let sessions: ReturnType<typeof sessionSigner> | undefined;
  const signer = async () => (sessions ??= sessionSigner(services.sessionSecret));

  const send = (res: Response, status: number, body: unknown) => {
    if (body === undefined) return void res.status(status).end();
    res.status(status).type('application/json').send(JSON.stringify(body));
  };
  const fail = (res: Response, id: JsonRpcRequest['id'] | null, error: McpError) => {
    locals(res).errorCode = error.dataCode;
    if (error.retryAfter !== undefined) res.set('Retry-After', String(error.retryAfter));
    if (error.httpStatus === 401) res.set('WWW-Authenticate', `Bearer resource_metadata="${services.config.publicUrl}/.well-known/oauth-protected-resource"`);
    send(res, error.httpStatus, rpcError(id, error, locals(res).requestId));
  };

  router.post('/mcp', express.text({ type: () => true, limit: '1mb' }), resumeTracedContext, async (req, res) => {
    const arrivedAt = Date.now();
    const requestId = locals(res).requestId;
    if (!originAllowed(req.get('origin'), services)) return fail(res, null, new McpError(403, rpcCodes.invalidRequest, 'invalid_request', 'Origin not allowed.'));
    if (!accepts(req)) return fail(res, null, new McpError(406, rpcCodes.invalidRequest, 'invalid_request', 'Not Acceptable: the client must accept both application/json and text/event-stream.'));
    const version = req.get('mcp-protocol-version');
    if (version && !(supportedProtocolVersions as readonly string[]).includes(version)) {
      return fail(res, null, new McpError(400, rpcCodes.invalidRequest, 'invalid_request', `Unsupported MCP-Protocol-Version ${clipped(version)}; supported: ${supportedProtocolVersions.join(', ')}.`, { acceptedValues: [...supportedProtocolVersions] }));
    }

    let message: unknown;
    const text = typeof req.body === 'string' ? req.body : '';
    // checked on the text before JSON.parse: what reads the message afterwards recurses (core/json.ts)
    if (nestedDeeperThan(text)) return fail(res, null, new McpError(400, rpcCodes.parseError, 'invalid_json', `Parse error: ${tooDeepError().message}`, { ...tooDeepError().options.details }));
    try {
      message = JSON.parse(text);
    } catch {
      return fail(res, null, new McpError(400, rpcCodes.parseError, 'invalid_json', 'Parse error: the body is not valid JSON.'));
    }
    if (!message || typeof message !== 'object' || Array.isArray(message) || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      return fail(res, null, new McpError(400, rpcCodes.invalidRequest, 'invalid_request', 'Invalid Request: one JSON-RPC 2.0 message per POST (batches are not supported).'));
    }

    let ctx: Context;
    try {
      const principal = await authenticate(services, { apiKey: req.get('x-api-key'), authorization: req.get('authorization') });
      if (!principal) return fail(res, isRequest(message) ? message.id : null, new McpError(401, rpcCodes.unauthorized, 'missing_api_key', 'Send your API key in the x-api-key header (or a dashboard session as a bearer token).'));
      if (!principal.orgId) return fail(res, isRequest(message) ? message.id : null, new McpError(403, rpcCodes.unauthorized, 'organization_missing', 'This session has no organization context.'));
      ctx = { ...services, principal, requestId, clientAddress: req.socket.remoteAddress };
      noteCaller(res, principal);
    } catch (error) {
      const known = toApiError(error);
      return fail(res, isRequest(message) ? message.id : null, known ? fromApiError(known) : new McpError(500, rpcCodes.internalError, 'internal_error', 'Authentication could not complete.'));
    }

    const sessionId = req.get('mcp-session-id');
    if (sessionId) {
      const session = (await signer()).check(sessionId);
      if (!session || session.orgId !== ctx.principal!.orgId) return fail(res, null, new McpError(404, rpcCodes.invalidRequest, 'invalid_request', 'Unknown or expired MCP session; initialize again.'));
    }

    if (isNotificationOrResponse(message as Record<string, unknown>)) return send(res, 202, undefined);
    if (!isRequest(message)) return fail(res, null, new McpError(400, rpcCodes.invalidRequest, 'invalid_request', 'Invalid Request: a request has a method, an id and object params.'));

    const { id, method, params = {} } = message;
    try {
      let result: unknown;
      switch (method) {
        case 'initialize': {
          const asked = params.protocolVersion;
          const protocolVersion = (supportedProtocolVersions as readonly unknown[]).includes(asked) ? (asked as string) : latestProtocolVersion;
          res.set('Mcp-Session-Id', (await signer()).issue({ orgId: ctx.principal!.orgId!, protocolVersion }));
          result = { protocolVersion, capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false }, prompts: { listChanged: false } }, serverInfo, instructions };
          break;
        }
        case 'ping':
          result = {};
          break;
        case 'tools/list':
          result = { tools: listTools(tools, ctx.principal) };
          break;
        case 'tools/call':
          locals(res).operation = `tools/call:${String(params.name).slice(0, 100)}`;
          result = await callTool(tools, params.name, params.arguments, ctx, { timeoutMs: services.config.mcp.toolTimeoutMs, arrivedAt, breaker });
          break;
        case 'resources/list':
          result = await listResources(ctx, params.cursor);
          break;
        case 'resources/templates/list':
          result = { resourceTemplates };
          break;
        case 'resources/read':
          result = await readResource(byName, params.uri, ctx);
          break;
        case 'prompts/list':
          result = { prompts: listPrompts() };
          break;
        case 'prompts/get':
          result = getPrompt(params.name, params.arguments);
          break;
        default:
          throw new McpError(404, rpcCodes.methodNotFound, 'invalid_request', `Method not found: ${clipped(method)}.`);
      }
      send(res, 200, { jsonrpc: '2.0', id, result });
    } catch (error) {
      if (error instanceof McpError) return fail(res, id, error);
      const known = toApiError(error);
      if (!known) services.logger.error({ requestId, method, err: error }, 'mcp request failed');
      fail(res, id, known ? fromApiError(known) : new McpError(500, rpcCodes.internalError, 'internal_error', 'The request could not be completed because of an error on our side.'));
    }
  });

  // No server-initiated stream: GET is 405, as the transport specification allows. Sessions
  // are signed, not stored, so there is nothing for DELETE to end. Any other method is 405 too,
  // with the envelope and Allow of every known path's wrong method (rest/http.ts mountRoutes).
  router.all('/mcp', (req, res, next) => {
    res.set('Allow', 'POST');
    next(new ApiError('method_not_allowed', `${req.method} is not supported on /mcp; use POST.`, { details: { acceptedValues: ['POST'] } }));
  });
  return router;
}

