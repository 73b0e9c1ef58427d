// Cross-origin browser access, one policy for every door. Only the origins in IDS_CORS_ORIGINS
// (exact `scheme://host[:port]`, or `*` for any) may read answers from a browser; by default none.
// Browsers authenticate with a session (Authorization: Bearer); x-api-key is never allowed
// cross-origin, since a browser must not hold an API key (SPEC 5.2). No answer ever carries
// Access-Control-Allow-Credentials: the service uses no cookies.
import type { NextFunction, Request, Response } from 'express';

const allowedMethods = 'GET, POST, PUT, PATCH, DELETE';
const allowedHeaders = 'authorization, content-type, idempotency-key, service-version, traceparent';
const exposedHeaders = 'request-id, traceparent, retry-after, service-version, service-meter-class, service-estimated-cost, service-token-count, idempotent-replayed';
const preflightMaxAgeSeconds = 600;

export function corsPolicy(origins: string[]) {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    res.vary('Origin');
    if (origin && (anyOrigin || allowed.has(origin))) {
      res.set({ 'Access-Control-Allow-Origin': anyOrigin ? '*' : origin, 'Access-Control-Expose-Headers': exposedHeaders });
      if (preflight) {
        res.set({ 'Access-Control-Allow-Methods': allowedMethods, 'Access-Control-Allow-Headers': allowedHeaders, 'Access-Control-Max-Age': String(preflightMaxAgeSeconds) });
      }
    }
    // A preflight is answered here, allowed or not: without the headers above the browser refuses.
    if (preflight) return void res.status(204).end();
    next();
  };
}
