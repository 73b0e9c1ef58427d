// Serves the route table over HTTP through the request pipeline (catalogue/pipeline.ts:
// credentials, access, params, Idempotency-Key, quota and billing, then the route's operation);
// every failure becomes the error envelope (SPEC 2.1).
import express, { type NextFunction, type Request, type Response } from 'express';
import { looksLikeApiKey } from '../resolvers/apiKeys.ts';
import type { Services } from '../resolvers/context.ts';
import { ApiError, envelope, toApiError, unexpectedError } from '../core/errors.ts';
import { publicCacheControl } from './securityHeaders.ts';
import { idempotency } from './idempotency.ts';
import { runPipeline, type RawParams } from '../catalogue/pipeline.ts';
import { locals } from '../catalogue/requestContext.ts';
import type { Route } from '../catalogue/route.ts';
import { apiVersion } from './version.ts';

export const maxBodyBytes = 1024 * 1024;

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const pathMatcher = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}/?$`);

/** A key in a URL has been exposed (proxies, logs, history): refuse it, never use it. */
export function refuseKeysInUrl(req: Request, _res: Response, next: NextFunction) {
  if (looksLikeApiKey(req.originalUrl) || looksLikeApiKey(decodedOrAsIs(req.originalUrl))) {
    return next(new ApiError('authentication_failed', 'API keys are accepted only in the x-api-key header, never in a URL. Treat this key as exposed: revoke it and create a new one.'));
  }
  next();
}

/** A URL with malformed percent-encoding is the client's to fix, not a reason to fail here. */
function decodedOrAsIs(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/** The same for a key in a parsed JSON body. */
export function refuseKeysInBody(req: Request, _res: Response, next: NextFunction) {
  if (req.body !== undefined && looksLikeApiKey(JSON.stringify(req.body))) {
    return next(new ApiError('authentication_failed', 'API keys are accepted only in the x-api-key header, never in a request body. Treat this key as exposed: revoke it and create a new one.'));
  }
  next();
}

/** SPEC 9: absent means the current version; any other value than the current one is refused. */
export function serviceVersion(req: Request, res: Response, next: NextFunction) {
  res.set('service-version', apiVersion);
  const asked = req.get('service-version');
  if (asked === undefined || asked === apiVersion) return next();
  next(
    new ApiError('invalid_request_parameter', `service-version ${JSON.stringify(asked)} is not a published version; the current version is ${apiVersion}.`, {
      details: { parameter: 'service-version', acceptedValues: [apiVersion] },
    }),
  );
}

/** express.json's `verify`: keeps the bytes of bodies a route verifies a signature over. */
export function keepRawBody(req: Request, _res: Response, buffer: Buffer) {
  (req as Request & { rawBody?: Buffer }).rawBody = buffer;
}

function rawBodyOf(req: Request): string {
  return (req as Request & { rawBody?: Buffer }).rawBody?.toString('utf8') ?? '';
}

/** The route's raw params from the request; a body that was sent but not decoded as JSON is refused. */
function rawParamsOf(route: Route, req: Request): RawParams {
  if (route.params.body && req.body === undefined && Number(req.get('content-length') ?? 0) > 0) {
    throw new ApiError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
  }
  const body = route.signedBody ? { payload: rawBodyOf(req), signature: req.get(route.signedBody.header) ?? '' } : req.body;
  return { path: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body };
}

export function routeHandler(services: Services, route: Route) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { requestId } = locals(res);
      locals(res).operation = route.name;
      await runPipeline(
        services,
        { route, caller: { credentials: { apiKey: req.get('x-api-key'), authorization: req.get('authorization') } }, raw: () => rawParamsOf(route, req), requestId, clientAddress: req.socket.remoteAddress },
        {
          authenticated: (principal) => void (locals(res).orgId = principal?.orgId ?? undefined),
          // Idempotency-Key: a replay is answered here; otherwise the key is held until the answer is stored.
          admit: (principal, params) => idempotency(services, route, principal, params, req, res),
          metering: (meterClass) => void res.set('Service-Meter-Class', meterClass),
          charged: (charge) => void res.set('Service-Estimated-Cost', String(charge.priceMillicents)),
          async execute(run, ctx, params) {
            if (route.access === 'public' && route.method === 'GET') res.set('Cache-Control', route.changesState ? 'no-store' : publicCacheControl);
            if (route.stream) return await route.stream(params, ctx, res); // exports write their own download
            const answer = await run();
            if (route.page && req.accepts(['application/json', 'text/html']) === 'text/html') return void res.status(200).type('html').send(route.page(answer));
            res.status(200).json(answer);
          },
        },
      );
    } catch (error) {
      next(error);
    }
  };
}

export function mountRoutes(app: express.Express, services: Services, routes: Route[]) {
  for (const route of routes) {
    app[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](expressPath(route.path), routeHandler(services, route));
  }
  const matchers = routes.map((route) => ({ route, matches: pathMatcher(route.path) }));
  // Nothing matched: a known path with another method is 405, anything else 404.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const allowed = [...new Set(matchers.filter((m) => m.matches.test(req.path)).map((m) => m.route.method))];
    if (allowed.length) {
      res.set('Allow', allowed.join(', '));
      return next(new ApiError('method_not_allowed', `${req.method} is not supported on ${req.path}; use ${allowed.join(' or ')}.`, { details: { acceptedValues: allowed } }));
    }
    next(new ApiError('route_not_found', `No route ${req.method} ${req.path}. The contract is at /openapi/sec-api.v1.json.`));
  });
}

/** Errors raised by express.json() before any route ran. */
function bodyParserError(error: unknown): ApiError | undefined {
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return new ApiError('invalid_json', 'The request body is not valid JSON.');
  if (type === 'entity.too.large') return new ApiError('request_too_large', `The request body is larger than ${maxBodyBytes} bytes.`, { details: { maxBytes: maxBodyBytes } });
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new ApiError('unsupported_media_type', 'Send the request body as UTF-8 JSON.');
  return undefined;
}

export function errorHandler(services: Services) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { requestId, traceparent } = locals(res);
    let apiError = toApiError(error) ?? bodyParserError(error);
    if (!apiError) {
      services.logger.error({ requestId, err: error, method: req.method, path: req.path }, 'unexpected error');
      apiError = unexpectedError();
    }
    if (apiError.options.retryAfter !== undefined) res.set('Retry-After', String(apiError.options.retryAfter));
    locals(res).errorCode = apiError.code;
    res.status(apiError.status).json(envelope(apiError, requestId, traceparent));
  };
}
