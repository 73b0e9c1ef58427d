// The /graphql request body, read before GraphQL sees any of it. GraphQL Yoga reads and parses a
// body of any size, and before credentials are checked; here it is bounded like a REST or MCP
// body (413 request_too_large past the limit, whether Content-Length says so up front or a
// chunked body only grows past it) and JSON nested past core/json.ts maxJsonDepth is refused
// (400 invalid_json) before anything of GraphQL walks it. Both answers are the error envelope (SPEC 2.1):
// nothing of GraphQL has run yet. A JSON body is handed to Yoga parsed, as a framework's parsed
// body: Yoga would otherwise enumerate every byte of a kept Buffer (Object.keys) and read it again
// through a stream. Anything else (not JSON, or not a JSON object) Yoga reads and answers as before.
import express, { type NextFunction, type Request, type Response } from 'express';
import { parseJsonWithinDepth, refuseDeepJson } from '../core/json.ts';

const json = /^application\/([\w.-]+\+)?json\b/i;
/** the bodies Yoga reads as JSON (its POST JSON parser matches the type as written) */
const graphqlJson = /^application\/(graphql\+)?json(;|,|$)/;

/**
 * The body as a JSON object Yoga can take parsed; undefined when Yoga should read the bytes itself
 * (it answers their errors). Its depth is checked with the parse, in one pass (parseJsonWithinDepth).
 */
function parsedObject(bytes: Buffer): object | undefined {
  const parsed = parseJsonWithinDepth(bytes.toString('utf8'));
  // an empty object or list would make Yoga read the (consumed) request stream instead
  return parsed && typeof parsed === 'object' && Object.keys(parsed).length ? parsed : undefined;
}

/** A body Yoga takes parsed: a POSTed GraphQL JSON body. */
const takenParsed = (req: Request) => req.method === 'POST' && graphqlJson.test(req.headers['content-type'] ?? '');

/** Express middleware for /graphql, before Yoga: bounds and keeps the body (`req.body`: the JSON object it holds, else its Buffer). */
export function graphqlBody(maxBytes: number) {
  const read = express.raw({
    type: () => true,
    limit: maxBytes,
    verify: (req, _res, bytes) => {
      // one Yoga takes parsed is checked as it is parsed, below
      if (json.test(req.headers['content-type'] ?? '') && !takenParsed(req as Request)) refuseDeepJson(bytes);
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // A GET carries its variables and extensions as JSON in the query string.
    try {
      for (const name of ['variables', 'extensions']) {
        const value = (req.query as Record<string, unknown>)[name];
        if (typeof value === 'string') refuseDeepJson(value);
      }
    } catch (error) {
      return next(error);
    }
    read(req, res, (error?: unknown) => {
      if (error) return next(error);
      // The bytes kept are the decoded ones: Yoga must not decode them again.
      if (Buffer.isBuffer(req.body) && req.headers['content-encoding']) {
        delete req.headers['content-encoding'];
        req.headers['content-length'] = String(req.body.length);
      }
      if (Buffer.isBuffer(req.body) && takenParsed(req)) {
        try {
          req.body = parsedObject(req.body) ?? req.body;
        } catch (refused) {
          return next(refused);
        }
      }
      next();
    });
  };
}
