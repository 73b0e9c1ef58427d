// The GraphQL door's price list at work: every operation is measured before it runs
// (graphql/cost.ts), refused past the limits with a 400 the client can act on (a batch, or a
// document of too many tokens, before it is even parsed), and charged
// to the organization's `graphql` meter by its cost (or, when it only touches the account itself,
// the free `platform` meter: graphql/meters.ts), whether it came over HTTP or graphql-ws, by the
// request pipeline's own authorize and charge steps (catalogue/pipeline.ts).
// Persisted REST and MCP operations do not pass here: they are charged once, by their route.
import { Lexer, Source, TokenKind, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { operationScope } from '../resolvers/access.ts';
import { operationCapabilities } from '../resolvers/roles.ts';
import type { Context, Services } from '../resolvers/context.ts';
import { schema } from '../schema/index.ts';
import { ApiError } from '../core/errors.ts';
import { authorize, charge } from '../catalogue/pipeline.ts';
import { measureDocumentOnce } from './cost.ts';
import { operationMeter, ownWindowCharges } from './meters.ts';
import { refuseNulInput } from './input.ts';
import type { RateLimitFields } from '../core/limiter.ts';

export const maxDepth = 15;
/**
 * Introspection nests `ofType` as deep as the client asks for wrapped types: graphql-js's own
 * query reaches 15 levels and GraphiQL's asks for more, so it gets a little more room; it is
 * still bounded, like everything else.
 */
export const maxIntrospectionDepth = 20;
export const maxAliases = 30;
export const maxTokens = 5000;

/** Measures an operation, refuses it past a limit, charges its cost; resolves to the cost and its price. */
export async function priceOperation(
  services: Services,
  args: Pick<ExecutionArgs, 'document' | 'variableValues' | 'operationName'> & { contextValue: Context },
): Promise<{ cost: number; meterClass: string; units: number; priceMillicents: bigint; rateLimit?: RateLimitFields }> {
  // The door lets anyone in (each field checks its own access as it resolves); a read key's
  // mutation is refused here, before it is measured or charged.
  authorize(args.contextValue.principal, {
    access: 'public',
    scope: operationScope(schema, args.document, args.operationName),
    capabilities: operationCapabilities(schema, args.document, args.operationName),
  });
  refuseNulInput(args.document, args.variableValues as Record<string, unknown> | undefined);
  const maxCost = services.config.graphqlMaxCost;
  const { cost, depth, aliases, introspection } = measureDocumentOnce(schema, args.document, args.variableValues as Record<string, unknown> | undefined, args.operationName);
  const depthLimit = introspection ? maxIntrospectionDepth : maxDepth;
  if (cost > maxCost) {
    throw new ApiError('query_cost_exceeded', `The operation would cost ${cost}; the limit per request is ${maxCost}. Ask for fewer items or fields, or split it.`, { details: { cost, limit: maxCost } });
  }
  if (depth > depthLimit) throw new ApiError('query_depth_exceeded', `The operation is nested ${depth} levels deep; the limit is ${depthLimit}.`, { details: { depth, limit: depthLimit } });
  if (aliases > maxAliases) throw new ApiError('query_aliases_exceeded', `The operation uses ${aliases} aliases; the limit is ${maxAliases}.`, { details: { aliases, limit: maxAliases } });
  const { meterClass, units } = operationMeter(schema, args.document, args.operationName, cost);
  const charged = await charge(services, args.contextValue.principal, meterClass, units, args.contextValue.requestId);
  // a field with a window of its own (a filing render) is also counted there, and refused by it as at the other doors
  for (const [ownClass, runs] of ownWindowCharges(schema, args.document, args.operationName)) await charge(services, args.contextValue.principal, ownClass, runs, args.contextValue.requestId);
  return { cost, meterClass, units, priceMillicents: charged?.priceMillicents ?? 0n, rateLimit: charged?.rateLimit };
}

// Documents already counted and found within the limit (a client sends the same few again and
// again), bounded by their total length: a document may be as long as a request body.
const withinTokens = new LRUCache<string, true>({ max: 1000, maxSize: 4 * 1024 * 1024, sizeCalculation: (_value, query) => Math.max(query.length, 1) });

/** Whether a document has more than `maxTokens` tokens, counted before anything parses it. */
function tooManyTokens(query: string): boolean {
  if (withinTokens.has(query)) return false;
  const over = countsOver(query);
  if (!over) withinTokens.set(query, true);
  return over;
}

function countsOver(query: string): boolean {
  const lexer = new Lexer(new Source(query));
  try {
    for (let count = 0; lexer.advance().kind !== TokenKind.EOF; count++) if (count >= maxTokens) return true;
  } catch {
    // a syntax error: parsing will report it
  }
  return false;
}

interface HttpContext {
  res?: { setHeader(name: string, value: string): void };
}

/** Prices an operation that came over HTTP (priceOperation) and tells the client what it was charged, in headers; resolves to its cost. */
export async function priceHttpOperation(services: Services, args: Pick<ExecutionArgs, 'document' | 'variableValues' | 'operationName'> & { contextValue: Context & HttpContext }): Promise<number> {
  const { cost, meterClass, units, priceMillicents, rateLimit } = await priceOperation(services, args);
  const res = args.contextValue.res;
  for (const [name, value] of Object.entries(rateLimit ?? {})) res?.setHeader(name, value);
  res?.setHeader('Service-Token-Count', String(units));
  res?.setHeader('Service-Meter-Class', meterClass);
  res?.setHeader('Service-Estimated-Cost', String(priceMillicents));
  return cost;
}

/** An HTTP operation's result with what it cost, against the limit, in its extensions. */
export function withCost(services: Services, result: ExecutionResult, cost: number): ExecutionResult {
  return { ...result, extensions: { ...result.extensions, cost: { requested: cost, limit: services.config.graphqlMaxCost } } };
}

export function useGraphqlLimits(services: Services): Plugin<Context & HttpContext> {
  return {
    onRequestParse() {
      return {
        onRequestParseDone({ requestParserResult }) {
          if (Array.isArray(requestParserResult)) throw new ApiError('batching_not_supported', 'Send one operation per request: each is priced and charged on its own.');
          if (typeof requestParserResult.query === 'string' && tooManyTokens(requestParserResult.query)) {
            throw new ApiError('query_tokens_exceeded', `The document has more than ${maxTokens} tokens.`, { details: { limit: maxTokens } });
          }
        },
      };
    },
    async onExecute({ args }) {
      const cost = await priceHttpOperation(services, args as ExecutionArgs & { contextValue: Context & HttpContext });
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult(withCost(services, result as ExecutionResult, cost));
        },
      };
    },
    async onSubscribe({ args }) {
      await priceOperation(services, args as ExecutionArgs & { contextValue: Context });
    },
  };
}
