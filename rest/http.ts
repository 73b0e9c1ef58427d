// Serves the route table over HTTP through the request pipeline (catalogue/pipeline.ts:
// credentials, access, params, Idempotency-Key, quota and billing, then the route's operation);
// every failure becomes the error envelope (SPEC 2.1).
import express, { type NextFunction, type Request, type Response } from 'express';
import { looksLikeApiKey } from '../resolvers/apiKeys.ts';
import type { Services } from '../resolvers/context.ts';
import { ApiError, clipped, envelope, toApiError, unexpectedError } from '../core/errors.ts';
import { refuseDeepJson } from '../core/json.ts';
import { publicCacheControl } from './securityHeaders.ts';
import { idempotency } from './idempotency.ts';
import { runPipeline, type RawParams } from '../catalogue/pipeline.ts';
import { locals, noteCaller } from '../catalogue/requestContext.ts';
import { requestCredentials } from '../catalogue/credentials.ts';
import { clearSessionCookie, setSessionCookie } from '../resolvers/accounts/cookie.ts';
import type { Route } from '../catalogue/route.ts';
import { apiVersion } from './version.ts';

export { maxBodyBytes } from '../core/json.ts';
import { maxBodyBytes } from '../core/json.ts';

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The table's paths in the order they are mounted: express dispatches a request to the first path
 * that matches it, so where two paths of one length differ by a literal segment and a parameter at
 * the same place (`/v1/monitors/compile`, `/v1/monitors/{monitor_id}`), the literal one comes
 * first, as the contract reads them: `compile` is never a monitor id. Paths of different lengths
 * never match the same request; within one order the table's order is kept.
 */
export function mountOrder(paths: string[]): string[] {
  const key = (path: string) => path.split('/').map((segment) => (/^\{\w+\}$/.test(segment) ? '1' : '0')).join('');
  return [...paths].sort((a, b) => a.split('/').length - b.split('/').length || key(a).localeCompare(key(b)));
}

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
    new ApiError('invalid_request_parameter', `service-version ${JSON.stringify(clipped(asked))} is not a published version; the current version is ${apiVersion}.`, {
      details: { parameter: 'service-version', acceptedValues: [apiVersion] },
    }),
  );
}

/**
 * express.json's `verify`, which sees the bytes before JSON.parse does: JSON nested past
 * core/json.ts maxJsonDepth is refused there (400 invalid_json), before anything recurses into it.
 */
export function refuseDeepJsonBody(_req: Request, _res: Response, buffer: Buffer) {
  refuseDeepJson(buffer);
}

/** express.json's `verify` for bodies a route verifies a signature over: keeps their bytes too. */
export function keepRawBody(req: Request, res: Response, buffer: Buffer) {
  refuseDeepJsonBody(req, res, buffer);
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
        { route, caller: { credentials: requestCredentials((name) => req.get(name), req.method, services.config.publicUrl) }, raw: () => rawParamsOf(route, req), requestId, clientAddress: req.socket.remoteAddress, userAgent: req.get('user-agent') },
        {
          authenticated: (principal) => noteCaller(res, principal),
          // Idempotency-Key: a replay is answered here; otherwise the key is held until the answer is stored.
          admit: (principal, params) => idempotency(services, route, principal, params, req, res),
          metering: (meterClass) => void res.set('Service-Meter-Class', meterClass),
          charged: (charge) => void res.set({ 'Service-Estimated-Cost': String(charge.priceMillicents), ...charge.rateLimit }),
          async execute(run, ctx, params) {
            if (route.access === 'public' && route.method === 'GET') res.set('Cache-Control', route.changesState ? 'no-store' : publicCacheControl);
            if (route.stream) return await route.stream(params, ctx, res); // exports write their own download
            const answer = await run();
            if (route.session) deliverSession(route.session, answer as SessionAnswer, params.body as { tokenDelivery?: string } | undefined, res, services.config.publicUrl);
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

type SessionAnswer = { token?: string; expiresAt?: string };

/** A sign-in's token becomes the httpOnly session cookie, unless the client asked for a bearer token; a sign-out clears the cookie. */
function deliverSession(kind: 'start' | 'end', answer: SessionAnswer, body: { tokenDelivery?: string } | undefined, res: Response, publicUrl: string) {
  res.set('Cache-Control', 'no-store');
  if (kind === 'end') return void res.append('Set-Cookie', clearSessionCookie(publicUrl));
  if (body?.tokenDelivery === 'bearer') return;
  res.append('Set-Cookie', setSessionCookie(publicUrl, answer.token!, new Date(answer.expiresAt!)));
  delete answer.token;
}

export function mountRoutes(app: express.Express, services: Services, routes: Route[]) {
  const byPath = new Map<string, Route[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  for (const path of mountOrder([...byPath.keys()])) {
    const onPath = byPath.get(path)!;
    const mounted = app.route(expressPath(path));
    for (const route of onPath) mounted[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](routeHandler(services, route));
    // Another method on this path is 405. Decided by the routing that dispatched the request, so
    // Allow names the methods of the path that request reached, never those of a sibling path.
    const allowed = [...new Set(onPath.map((route) => route.method))];
    mounted.all((req: Request, res: Response, next: NextFunction) => {
      res.set('Allow', allowed.join(', '));
      next(new ApiError('method_not_allowed', `${req.method} is not supported on ${req.path}; use ${allowed.join(' or ')}.`, { details: { acceptedValues: allowed } }));
    });
  }
  app.use((req: Request, _res: Response, next: NextFunction) => {
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
    if (apiError.options.headers) res.set(apiError.options.headers);
    if (apiError.options.retryAfter !== undefined) res.set('Retry-After', String(apiError.options.retryAfter));
    locals(res).errorCode = apiError.code;
    res.status(apiError.status).json(envelope(apiError, requestId, traceparent));
  };
}
