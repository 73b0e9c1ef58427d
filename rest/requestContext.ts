// Per-request identity (SPEC 7): every response carries Request-Id and traceparent (a valid
// incoming W3C traceparent is echoed), and every request is logged once, without its query string.
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { newId } from '../server/ids.ts';
import type { Logger } from '../server/logger.ts';

const traceparentShape = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

export function traceparentFor(incoming: string | undefined): string {
  if (incoming && traceparentShape.test(incoming)) return incoming;
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

export interface RequestLocals {
  requestId: string;
  traceparent: string;
  orgId?: string;
}

export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const requestId = newId('req');
    const traceparent = traceparentFor(req.get('traceparent'));
    Object.assign(res.locals, { requestId, traceparent });
    res.set({ 'Request-Id': requestId, traceparent });
    res.on('finish', () => {
      logger.info(
        {
          requestId,
          traceparent,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          orgId: locals(res).orgId,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        },
        'request',
      );
    });
    next();
  };
}
