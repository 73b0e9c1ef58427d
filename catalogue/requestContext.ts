// Per-request identity (SPEC 7): every response carries Request-Id and traceparent (a valid
// incoming W3C traceparent is echoed), and every request is logged once, without its query string.
import type { NextFunction, Request, Response } from 'express';
import { newId, randomHex } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import type { Principal } from '../resolvers/principal.ts';
import type { RequestLog } from '../resolvers/requestLog.ts';

const traceparentShape = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

export function traceparentFor(incoming: string | undefined): string {
  if (incoming && traceparentShape.test(incoming)) return incoming;
  return `00-${randomHex(16)}-${randomHex(8)}-01`;
}

export interface RequestLocals {
  requestId: string;
  traceparent: string;
  orgId?: string;
  /** the API key that made the request (none for a session) */
  apiKeyId?: string;
  /** the route's operationId, the GraphQL operation name, or the MCP method and tool */
  operation?: string;
  errorCode?: string;
}

export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** Who made the request, for its record: the organization, and the key when it was one. */
export function noteCaller(res: Response, principal: Principal | null): void {
  Object.assign(locals(res), { orgId: principal?.orgId ?? undefined, apiKeyId: principal?.kind === 'api_key' ? principal.apiKeyId : undefined });
}

/** Which door a path belongs to; requests outside the three doors are not recorded. */
function doorOf(path: string): 'rest' | 'graphql' | 'mcp' | null {
  if (path.startsWith('/v1/') || path === '/v1') return 'rest';
  if (path === '/graphql') return 'graphql';
  if (path === '/mcp') return 'mcp';
  return null;
}

export function requestContext(logger: Logger, requestLog: RequestLog) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const requestId = newId('req');
    const traceparent = traceparentFor(req.get('traceparent'));
    // read now: a router mounted on a path (/graphql) rewrites req.path while it answers
    const { path, method } = req;
    const door = doorOf(path);
    Object.assign(res.locals, { requestId, traceparent });
    res.set({ 'Request-Id': requestId, traceparent });
    res.on('finish', () => {
      const ms = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      const { orgId, apiKeyId, operation, errorCode } = locals(res);
      if (door) {
        const meterClass = res.getHeader('service-meter-class');
        const cost = Number(res.getHeader('service-token-count') ?? (meterClass ? 1 : NaN));
        requestLog.record({
          id: requestId,
          orgId: orgId ?? null,
          apiKeyId: apiKeyId ?? null,
          door,
          operation: operation ?? null,
          method,
          path: path.slice(0, 500),
          status: res.statusCode,
          errorCode: errorCode ?? null,
          meterClass: typeof meterClass === 'string' ? meterClass : null,
          cost: Number.isFinite(cost) ? cost : null,
          durationMs: ms,
          createdAt: new Date(),
        });
      }
      logger.info(
        {
          requestId,
          traceparent,
          method,
          path,
          status: res.statusCode,
          orgId,
          ms,
        },
        'request',
      );
    });
    next();
  };
}
