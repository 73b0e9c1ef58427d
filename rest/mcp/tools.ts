// MCP tools: one per route of the table marked `mcp`, named like the route. A call runs the
// route through the same request pipeline as REST (catalogue/pipeline.ts: access, params, quota,
// billing, executor), in its agent view, within a time budget and behind a circuit breaker.
import { z } from 'zod';
import type { Context } from '../../resolvers/context.ts';
import type { Principal } from '../../resolvers/principal.ts';
import { ApiError, clipped, envelope, toApiError } from '../../core/errors.ts';
import { routeAnswer, runPipeline } from '../../catalogue/pipeline.ts';
import type { Route } from '../../catalogue/route.ts';
import { CircuitBreaker } from './breaker.ts';
import { fromApiError, invalidParams, McpError, rpcCodes } from './protocol.ts';

type AnyObject = z.ZodObject<z.ZodRawShape>;

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** The fields of a route's JSON object body, which a tool takes as arguments beside the path and query parameters. */
function bodyShape(route: Route): z.ZodRawShape {
  return route.params.body instanceof z.ZodObject ? (route.params.body.shape as z.ZodRawShape) : {};
}

/** The tool's arguments: the route's path and query parameters and body fields, less `view` (a tool always answers in the agent view). */
function argumentsSchema(route: Route): AnyObject {
  const { view: _view, ...query } = (route.params.query?.shape ?? {}) as z.ZodRawShape;
  return z.object({ ...(route.params.path?.shape ?? {}), ...query, ...bodyShape(route) });
}

export interface McpToolOptions {
  /** the budget of a tools/call request, counted from its arrival (Date.now() ms) */
  timeoutMs: number;
  arrivedAt: number;
  breaker: CircuitBreaker;
}

export function toolsOf(routes: Route[]) {
  return new Map(routes.filter((r) => r.mcp).map((r) => [r.name, r]));
}

/**
 * The tools, less the operators' own for anyone who is not one: an agent should not be offered
 * what it can only be refused (calling one still answers operator_scope_required).
 */
export function listTools(tools: Map<string, Route>, principal: Principal | null) {
  const operator = principal?.kind === 'session' && principal.operator;
  return [...tools.values()].filter((route) => operator || !route.capabilities?.includes('operator')).map((route) => ({
    name: route.name,
    title: route.summary,
    description: [route.summary, route.description].filter(Boolean).join('. '),
    inputSchema: jsonSchema(argumentsSchema(route)),
    outputSchema: jsonSchema(route.response),
    annotations: { title: route.summary, readOnlyHint: route.method === 'GET' && !route.changesState, idempotentHint: route.method === 'GET' && !route.changesState, destructiveHint: route.method === 'DELETE', openWorldHint: false },
  }));
}

class ToolTimeout extends Error {}

function withinBudget<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ToolTimeout()), Math.max(ms, 0))));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export async function callTool(tools: Map<string, Route>, name: unknown, args: unknown, ctx: Context, options: McpToolOptions) {
  const route = typeof name === 'string' ? tools.get(name) : undefined;
  if (!route) throw invalidParams(`Unknown tool ${clipped(String(JSON.stringify(name)))}; tools/list names the tools.`);
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) throw invalidParams('Tool arguments are an object.', 'validation_error');
  const given = (args ?? {}) as Record<string, unknown>;
  const pathKeys = Object.keys(route.params.path?.shape ?? {});
  const bodyKeys = Object.keys(bodyShape(route));
  const path = Object.fromEntries(Object.entries(given).filter(([k]) => pathKeys.includes(k)).map(([k, v]) => [k, String(v)]));
  const body = route.params.body ? Object.fromEntries(Object.entries(given).filter(([k]) => bodyKeys.includes(k))) : undefined;
  const queryArgs = Object.entries(given).filter(([k]) => !pathKeys.includes(k) && !bodyKeys.includes(k));
  const query = { ...Object.fromEntries(queryArgs.map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? String(v) : v])), ...(route.params.query?.shape.view ? { view: 'agent' } : {}) };
  if ('view' in given) throw invalidParams('`view` is not an argument of a tool: tools always answer in the agent view.', 'validation_error', { parameter: 'view' });

  // Refusals before the tool runs (access, arguments, quota, billing) are protocol errors (SPEC 7.3).
  try {
    const outcome = await runPipeline(
      ctx,
      { route, caller: { principal: ctx.principal }, raw: { path, query, body }, requestId: ctx.requestId, clientAddress: ctx.clientAddress },
      {
        // a paused tool is refused before it is charged
        admit: async () => {
          const retryAfter = options.breaker.retryAfter(route.name);
          if (retryAfter) throw new McpError(503, rpcCodes.circuitOpen, 'mcp_tool_circuit_open', `The ${route.name} tool failed repeatedly and is paused; retry after ${retryAfter} s.`, {}, retryAfter);
          return false;
        },
        execute: (run) => answerAsTool(route, run, ctx, options),
      },
    );
    return routeAnswer(outcome);
  } catch (error) {
    if (error instanceof McpError) throw error;
    const known = toApiError(error);
    throw known ? fromApiError(known) : error;
  }
}

/** Runs the tool within its time budget; what the route answers, even an error of the caller's, is the tool's result. */
async function answerAsTool(route: Route, run: () => Promise<unknown>, ctx: Context, options: McpToolOptions) {
  try {
    const remaining = options.timeoutMs - (Date.now() - options.arrivedAt);
    if (remaining <= 0) throw new ToolTimeout();
    const structured = (await withinBudget(run(), remaining)) as Record<string, unknown>;
    options.breaker.succeeded(route.name);
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, isError: false };
  } catch (error) {
    if (error instanceof ToolTimeout) {
      options.breaker.failed(route.name);
      throw new McpError(504, rpcCodes.toolTimeout, 'mcp_tool_timeout', `The ${route.name} tool did not answer within ${options.timeoutMs} ms; retry, or narrow the request.`, {}, 1);
    }
    const known = toApiError(error);
    if (known && known.status < 500) {
      // The tool worked and has an answer for the agent: nothing found, a bad identifier…
      options.breaker.succeeded(route.name);
      // No structuredContent: it would have to match the tool's output schema.
      const { traceparent: _t, ...reported } = envelope(known, ctx.requestId, '');
      return { content: [{ type: 'text', text: JSON.stringify(reported) }], isError: true };
    }
    options.breaker.failed(route.name);
    if (!known) ctx.logger.error({ requestId: ctx.requestId, tool: route.name, err: error }, 'mcp tool failed');
    throw known ? fromApiError(known) : fromApiError(new ApiError('internal_error', 'unexpected'));
  }
}
