// The GraphQL door: graphql-yoga over HTTP (with GraphiQL) and graphql-ws on the same path,
// both with the same authentication, authorization, quota and billing steps as REST (catalogue/pipeline.ts),
// priced by the operation's cost (graphql/limits.ts). A persisted read sent as persisted is answered
// by the same steps without Yoga's generic machinery (graphql/persistedHttp.ts).
import type { Server } from 'node:http';
import type { Request, Response } from 'express';
import { GraphQLError, subscribe, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type Plugin } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { Context, Services } from '../resolvers/context.ts';
import type { Principal } from '../resolvers/principal.ts';
import { schema } from '../schema/index.ts';
import { toApiError, unexpectedError } from '../core/errors.ts';
import { authenticateCaller } from '../catalogue/pipeline.ts';
import { requestCredentials } from '../catalogue/credentials.ts';
import { locals, noteCaller } from '../catalogue/requestContext.ts';
import { executeCompiled } from '../catalogue/compiledExecution.ts';
import { priceOperation, useGraphqlLimits } from './limits.ts';
import { persistedAnswer } from './persistedAnswers.ts';
import { newId } from '../core/ids.ts';
import { maxBodyBytes } from '../core/json.ts';
import { answerPersisted, type GraphqlSteps } from './persistedHttp.ts';


export function createGraphqlHandler(services: Services) {
  // Yoga logs every error maskError replaced, a client's own (a 404, a bad variable) too: those are info.
  const logging = { debug: () => {}, info: () => {}, warn: (...args: unknown[]) => services.logger.warn({ args }, 'graphql'), error: (...args: unknown[]) => (args.every(isClientError) ? services.logger.info({ args }, 'graphql client error') : services.logger.error({ args }, 'graphql')) };
  const maskError = (error: unknown): GraphQLError => {
    const known = toApiError(error);
    if (known) return known;
    // validation and syntax errors, and variables that do not coerce (graphql-js wraps the coercion error)
    if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return error;
    services.logger.error({ err: (error as GraphQLError).originalError ?? error }, 'graphql resolver failed');
    return unexpectedError();
  };
  const steps: GraphqlSteps = {
    async context(request, req, res, operationName) {
      const principal = await authenticateCaller(services, requestCredentials(request.header, request.method, services.config.publicUrl));
      noteCaller(res, principal);
      locals(res).operation = operationName;
      return { ...services, principal, requestId: (res.locals.requestId as string | undefined) ?? newId('req'), clientAddress: req.socket.remoteAddress, userAgent: req.get('user-agent'), req, res };
    },
    // as Yoga masks an error: replaced ones are logged
    mask(error) {
      const masked = maskError(error);
      if (masked !== error) logging.error(error);
      return masked;
    },
    noteErrorCode(res, result) {
      const code = result.errors?.[0]?.extensions?.code;
      if (typeof code === 'string') res.locals.errorCode = code;
    },
  };
  const yoga = createYoga<{ req: Request; res: Response }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: false, // served by graphql/graphiql.ts, under its own Content-Security-Policy
    cors: false, // one policy for every door: server/cors.ts
    batching: false, // one operation per request, so that each is priced; an array body is 400 batching_not_supported
    plugins: [useGraphqlLimits(services), recordErrorCode(steps), compiledExecution],
    logging,
    context: ({ request, req, res, params }) => steps.context({ method: request.method, header: (name) => request.headers.get(name) ?? undefined }, req, res, params.operationName ?? undefined),
    maskedErrors: { maskError },
  });
  // a persisted read sent as persisted skips Yoga's generic machinery (graphql/persistedHttp.ts)
  return (req: Request, res: Response) => {
    if (!answerPersisted(services, steps, yoga, req, res)) void yoga(req, res, { req, res });
  };
}

const isClientError = (error: unknown) => (toApiError(error)?.status ?? 500) < 500;

/** Operations run compiled (catalogue/compiledExecution.ts); a persisted data read may be answered from kept answers. */
const compiledExecution: Plugin = {
  onExecute: ({ setExecuteFn }) => setExecuteFn((args) => persistedAnswer(args, executeCompiled)),
};

/** The first error's code, for the request's diagnostics record. */
const recordErrorCode = (steps: GraphqlSteps): Plugin<{ res?: Response }> => ({
  onExecute: () => ({
    onExecuteDone: ({ args, result }) => {
      const res = (args.contextValue as { res?: Response }).res;
      if (res && 'errors' in result) steps.noteErrorCode(res, result);
    },
  }),
});

/** Runs an operation after pricing it; a refusal is the operation's error, not the socket's. */
async function priced<T>(args: ExecutionArgs, run: (args: ExecutionArgs) => T | Promise<T>): Promise<T | ExecutionResult> {
  const ctx = args.contextValue as Context;
  try {
    await priceOperation(ctx, { ...args, contextValue: ctx });
  } catch (error) {
    const known = toApiError(error);
    if (known) return { errors: [known] };
    throw error;
  }
  return run(args);
}

/** graphql-ws on /graphql: credentials in connectionParams (`x-api-key` or `authorization`) or the upgrade request's headers. */
export function attachGraphqlWs(httpServer: Server, services: Services) {
  // a socket message is held to the same 1 MiB as a request body, before anything reads it
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: maxBodyBytes });
  const cleanup = useServer<Record<string, unknown>, { principal?: Principal | null }>(
    {
      schema,
      // Each operation over the socket is priced and charged as it would be over HTTP.
      execute: (args) => priced(args, executeCompiled),
      subscribe: (args) => priced(args, subscribe),
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const headers = ctx.extra.request.headers;
        const pick = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : (headers[name] as string | undefined));
        try {
          // The browser's cookie comes with the handshake. A page cannot add headers to it, but it
          // can put x-ids-csrf in connectionParams, and the handshake's Origin is the browser's own.
          const credentials = requestCredentials((name) => (name === 'cookie' || name === 'origin' ? (headers[name] as string | undefined) : pick(name)), 'POST', services.config.publicUrl);
          ctx.extra.principal = await authenticateCaller(services, credentials);
          return true;
        } catch {
          return false; // graphql-ws closes with 4403 Forbidden
        }
      },
      context: (ctx): Context => ({ ...services, principal: ctx.extra.principal ?? null, requestId: newId('req'), clientAddress: ctx.extra.request.socket.remoteAddress }),
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((error) => {
          const known = toApiError(error);
          if (known || !error.originalError) return known ?? error;
          services.logger.error({ err: error.originalError }, 'graphql-ws operation failed');
          return unexpectedError();
        }),
    },
    wsServer,
  );
  return {
    async close() {
      await cleanup.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}
