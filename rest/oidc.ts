// The two protocol endpoints of OpenID Connect sign-in (resolvers/accounts/oidc.ts): the browser
// is sent to the provider from /start and comes back to /callback. They answer with redirects
// and a cookie, which the route table's JSON pipeline does not do, so they are served here. A
// failure is the error envelope, or for a browser a small page saying what to do.
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { ApiError, toApiError } from '../core/errors.ts';
import type { Services } from '../resolvers/context.ts';
import { setSessionCookie } from '../resolvers/accounts/cookie.ts';
import { beginOidcSignIn, finishOidcSignIn, oidcCallbackPath, oidcStartPath, safeReturnTo } from '../resolvers/accounts/oidc.ts';
import { locals } from '../catalogue/requestContext.ts';

const signInPage = '/dashboard/sign-in';

const startQuery = z.strictObject({
  remember_me: z.enum(['true', 'false']).optional(),
  return_to: z.string().optional(),
});

function startParams(query: unknown): { rememberMe: boolean; returnTo?: string } {
  const parsed = startQuery.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const parameter = issue.code === 'unrecognized_keys' ? issue.keys[0]! : String(issue.path[0] ?? 'query');
    const accepted = parameter === 'remember_me' ? ['true', 'false'] : Object.keys(startQuery.shape);
    throw new ApiError('invalid_query_parameter', issue.code === 'unrecognized_keys' ? `Unknown parameter \`${parameter}\`.` : `Parameter \`${parameter}\` must be one string: ${accepted.join(' or ')}.`, {
      details: { parameter, acceptedValues: accepted },
    });
  }
  return { rememberMe: parsed.data.remember_me === 'true', returnTo: parsed.data.return_to };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function failurePage(error: ApiError): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in failed</title></head><body><h1>Sign-in failed</h1><p>${escape(error.message)}</p><p><a href="${signInPage}">Back to sign-in</a></p></body></html>`;
}

/** A browser (Accept: text/html first) gets a page; anything else the error envelope. */
function refuse(services: Services, req: Request, res: Response, next: NextFunction, error: unknown) {
  const apiError = toApiError(error);
  if (!apiError || req.accepts(['application/json', 'text/html']) !== 'text/html') return next(error);
  const { requestId } = locals(res);
  locals(res).errorCode = apiError.code;
  if (apiError.options.retryAfter !== undefined) res.set('Retry-After', String(apiError.options.retryAfter));
  services.logger.debug({ requestId, code: apiError.code }, 'OpenID sign-in refused');
  res.status(apiError.status).type('html').send(failurePage(apiError));
}

export function oidcRouter(services: Services): express.Router {
  const router = express.Router();

  router.get(oidcStartPath, async (req, res, next) => {
    locals(res).operation = 'auth_oidc_start';
    try {
      const params = startParams(req.query);
      const returnTo = safeReturnTo(services.config, params.returnTo);
      const location = await beginOidcSignIn(services, { rememberMe: params.rememberMe, returnTo, clientAddress: req.socket.remoteAddress });
      res.redirect(302, location.href);
    } catch (error) {
      refuse(services, req, res, next, error);
    }
  });

  router.get(oidcCallbackPath, async (req, res, next) => {
    locals(res).operation = 'auth_oidc_callback';
    try {
      const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      const ctx = { ...services, principal: null, requestId: locals(res).requestId, clientAddress: req.socket.remoteAddress, userAgent: req.get('user-agent') };
      const { token, expiresAt, returnTo } = await finishOidcSignIn(ctx, query);
      res.set('Set-Cookie', setSessionCookie(services.config.publicUrl, token, expiresAt));
      res.redirect(302, returnTo);
    } catch (error) {
      refuse(services, req, res, next, error);
    }
  });

  // Another method on either path is the same 405 the route table answers.
  router.all([oidcStartPath, oidcCallbackPath], (req, res, next) => {
    res.set('Allow', 'GET');
    next(new ApiError('method_not_allowed', `${req.method} is not supported on ${req.path}; use GET.`, { details: { acceptedValues: ['GET'] } }));
  });
  return router;
}

const redirectHeaders = {
  'Request-Id': { description: 'Identifier of this request', required: true, schema: { type: 'string' } },
  traceparent: { description: 'W3C trace context of this request', required: true, schema: { type: 'string' } },
};

const failure = (codes: string, extra: Record<string, unknown> = {}) => ({
  description: `Error envelope (a small HTML page with a link back to ${signInPage} when the client prefers text/html); \`code\` is ${codes}`,
  headers: { ...redirectHeaders, ...extra },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } }, 'text/html': { schema: { type: 'string' } } },
});

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } };
const allowGet = { Allow: { description: 'The methods of this path', required: true, schema: { type: 'string', const: 'GET' } } };
const serviceVersion = { $ref: '#/components/parameters/ServiceVersion' };

/** The two endpoints in the OpenAPI contract (rest/openapi.ts): protocol redirects, not routes of the table. */
export const oidcOpenApiPaths = {
  [oidcStartPath]: {
    get: {
      operationId: 'auth_oidc_start',
      summary: 'Start signing in at the OpenID provider (authorization code with PKCE)',
      description:
        'Redirects the browser to the provider configured with IDS_AUTH_ISSUER and IDS_AUTH_CLIENT_ID (its authorization endpoint, discovered from the issuer), asking for `openid email` with `state`, `nonce` and an S256 `code_challenge`. What the callback needs is kept by the service for 10 minutes and used once. 404 `route_not_found` when OpenID sign-in is not configured (GET /v1/auth/providers says which ways to sign in there are).',
      tags: ['Auth'],
      'x-access': 'public',
      security: [],
      parameters: [
        { name: 'remember_me', in: 'query', required: false, description: 'Keep the session 90 days instead of 30.', schema: { type: 'string', enum: ['true', 'false'], default: 'false' } },
        { name: 'return_to', in: 'query', required: false, description: 'Where to land after signing in: a path of this service under /dashboard (default /dashboard). Anything else is refused.', schema: { type: 'string', maxLength: 2000 } },
        serviceVersion,
      ],
      responses: {
        302: { description: 'To the provider\'s authorization endpoint', headers: { ...redirectHeaders, Location: { description: 'The provider\'s authorization URL', required: true, schema: { type: 'string' } } } },
        400: failure('`invalid_query_parameter` (`details.parameter`: `remember_me`, `return_to` or an unknown one), or `invalid_request_parameter` (an unpublished `service-version`)'),
        404: failure('`route_not_found` (OpenID sign-in is not configured)'),
        405: failure('`method_not_allowed`', allowGet),
        429: failure('`rate_limited` (too many sign-ins started from this client address)', retryAfter),
        503: failure('`auth_verification_unavailable` (the provider could not be reached)', retryAfter),
      },
    },
  },
  [oidcCallbackPath]: {
    get: {
      operationId: 'auth_oidc_callback',
      summary: 'Where the OpenID provider sends the browser back: finishes signing in',
      description:
        'Exchanges the `code` for tokens (with the PKCE verifier, expected `state` and `nonce`), reads the ID token\'s verified `email` (or UserInfo\'s, when the ID token carries none; `email_verified: false` is refused), signs the person in (made on their first sign-in, with a personal organization unless invited), starts a session (30 days, 90 with remember-me), sets the httpOnly session cookie and redirects to the `return_to` given at the start (default /dashboard).',
      tags: ['Auth'],
      'x-access': 'public',
      security: [],
      parameters: [
        { name: 'code', in: 'query', required: false, description: 'The provider\'s authorization code', schema: { type: 'string' } },
        { name: 'state', in: 'query', required: true, description: 'The state of the sign-in under way', schema: { type: 'string' } },
        { name: 'error', in: 'query', required: false, description: 'The provider\'s refusal, instead of a code', schema: { type: 'string' } },
        serviceVersion,
      ],
      responses: {
        302: {
          description: 'Signed in: to the page asked for at the start',
          headers: {
            ...redirectHeaders,
            Location: { description: 'A path under /dashboard', required: true, schema: { type: 'string' } },
            'Set-Cookie': { description: 'The session cookie (`__Host-ids_session` over https, else `ids_session`; httpOnly, SameSite=Lax)', required: true, schema: { type: 'string' } },
          },
        },
        400: failure('`invalid_request_parameter` with `details.parameter` `state`: unknown, altered, expired or already used (or `service-version`: not a published version)'),
        401: failure('`authentication_failed`: the provider refused, the code was replayed, or the ID token did not verify (wrong nonce, issuer, audience); or the email is not verified'),
        404: failure('`route_not_found` (OpenID sign-in is not configured)'),
        405: failure('`method_not_allowed`', allowGet),
        503: failure('`auth_verification_unavailable` (the provider could not be reached; the same answer may be brought back once it can)', retryAfter),
      },
    },
  },
};
