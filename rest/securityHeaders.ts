// Headers every answer carries: no MIME sniffing, a CSP that allows nothing (JSON needs nothing;
// the one HTML page, GraphiQL, sets its own), and no caching unless a route is public and says so
// (anything else may depend on who asked).
import type { NextFunction, Request, Response } from 'express';

export const publicCacheControl = 'public, max-age=300';

export function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  res.set({
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Cache-Control': 'no-store',
  });
  next();
}
