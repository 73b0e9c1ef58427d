// A persisted data read sent to /graphql (POST or GET) as it is persisted (graphql/persistedAnswers.ts),
// answered without Yoga's generic machinery: converting the Node request to a fetch Request and the
// answer back, negotiating parsers and result processors, and envelop's per-request hook chain cost
// more than the read itself once its answer is kept. It runs the steps Yoga runs for it, in Yoga's order
// and through the same functions: authenticate (the context), price and charge (graphql/limits.ts),
// execute (persistedAnswer, executeCompiled), the cost extension, the error code for the request's
// record, then mask errors; its answer is what Yoga would send.
//
// The text alone decides that Yoga would accept the request as it stands: a persisted text parses,
// validates and is within the token limit, so only what varies between requests is checked here.
// Any other request (another text, other parameters, extensions, an Accept that would not be
// answered as application/json) goes to Yoga.
import type { Request, Response } from 'express';
import type { ExecutionArgs, ExecutionResult, GraphQLError } from 'graphql';
import { processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import type { Context, Services } from '../resolvers/context.ts';
import { schema } from '../schema/index.ts';
import { executeCompiled } from '../catalogue/compiledExecution.ts';
import { persistedAnswer, persistedDocument } from './persistedAnswers.ts';
import { priceHttpOperation, withCost } from './limits.ts';

/** The steps of Yoga's request the door configures, shared by Yoga's options and this path. */
export interface GraphqlSteps {
  context(request: { method: string; header(name: string): string | undefined }, req: Request, res: Response, operationName: string | undefined): Promise<Context & { req: Request; res: Response }>;
  /** Yoga's handling of an error: masked, and logged when masking replaced it */
  mask(error: unknown): GraphQLError;
  /** records the first error's code for the request's record */
  noteErrorCode(res: Response, result: ExecutionResult): void;
}

const params = new Set(['query', 'variables', 'operationName']);

/** Yoga answers application/json for these (its result processor's last match), and the same body for each. */
const answeredAsJson = (accept: string | undefined) => accept === undefined || accept === '*/*' || accept === 'application/json';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

/** Answers the request when it is a persisted read sent as persisted; false, having done nothing, when Yoga should. */
export function answerPersisted(services: Services, steps: GraphqlSteps, yoga: Pick<YogaServerInstance<object, object>, 'fetchAPI'>, req: Request, res: Response): boolean {
  if (!answeredAsJson(req.headers.accept)) return false;
  const sent = req.method === 'POST' ? postParams(req) : req.method === 'GET' ? getParams(req) : undefined;
  if (!sent) return false;
  const { query, variables, operationName } = sent;
  if (typeof query !== 'string' || (variables != null && !isObject(variables)) || (operationName != null && typeof operationName !== 'string')) return false;
  const persisted = persistedDocument(query);
  // its one operation, by name or not: Yoga answers any other name as it resolves operations
  if (!persisted || (operationName != null && operationName !== persisted.name)) return false;
  void answer(services, steps, yoga, req, res, {
    schema,
    document: persisted.document,
    variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: (operationName ?? undefined) as string | undefined,
  }).catch((error: unknown) => {
    services.logger.error({ err: error }, 'graphql persisted answer failed');
    if (!res.headersSent) res.status(500).end();
  });
  return true;
}

async function answer(services: Services, steps: GraphqlSteps, yoga: Pick<YogaServerInstance<object, object>, 'fetchAPI'>, req: Request, res: Response, args: Omit<ExecutionArgs, 'contextValue'>): Promise<void> {
  let result: ExecutionResult;
  try {
    const contextValue = await steps.context({ method: req.method, header: (name) => headerOf(req, name) }, req, res, args.operationName ?? undefined);
    const priced = { ...args, contextValue };
    const cost = await priceHttpOperation(services, priced);
    result = withCost(services, await persistedAnswer(priced, executeCompiled), cost);
    steps.noteErrorCode(res, result);
    if (result.errors) result = { ...result, errors: result.errors.map((error) => steps.mask(error)) };
  } catch (error) {
    // refused before it ran (credentials, authorization, limits, quota) or failed: Yoga answers the error alone
    result = { errors: [steps.mask(error)] };
  }
  if (!result.errors?.length) {
    // what Yoga's result processor sends for an answer without errors
    const text = JSON.stringify(result);
    res.statusCode = 200;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', Buffer.byteLength(text));
    res.end(text);
    return;
  }
  // errors decide the status and headers: Yoga's own result processor answers them
  const response = processRegularResult(result, yoga.fetchAPI, 'application/json');
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  const text = await response.text();
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/** A POSTed JSON body Yoga would take as is (graphql/body.ts parsed it): only the parameters this path runs. */
function postParams(req: Request): Record<string, unknown> | undefined {
  if (!isObject(req.body)) return undefined;
  for (const key in req.body) if (!params.has(key)) return undefined;
  return req.body;
}

/**
 * A GET's parameters as Yoga reads them from the query string (an empty one is absent, variables
 * are JSON); undefined for anything it would read otherwise or refuse (a repeated or nested
 * parameter, extensions, variables that are not JSON), which Yoga answers.
 */
function getParams(req: Request): Record<string, unknown> | undefined {
  const { query, variables, operationName, extensions } = req.query as Record<string, unknown>;
  if (typeof query !== 'string' || (variables !== undefined && typeof variables !== 'string') || (operationName !== undefined && typeof operationName !== 'string') || (extensions !== undefined && extensions !== '')) return undefined;
  let parsed: unknown;
  try {
    parsed = variables ? JSON.parse(variables) : undefined;
  } catch {
    return undefined;
  }
  return { query, variables: parsed, operationName: operationName || undefined };
}

/** A header as a fetch Request's headers give it (Yoga's context reads them so): repeated values joined. */
function headerOf(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
