// Idempotency-Key on /v1 writes (POST, PUT, PATCH, DELETE of routes with credentials): a client
// that retries a write after a timeout or a dropped connection gets the first answer again,
// instead of a second effect. Keys are per organization and kept 24 hours.
//
// The first request with a key claims it (a row in state in_progress, inserted or taken over by a
// conditional write, so two instances sharing the database cannot both claim it), runs, and stores
// its status and body before they are sent. A retry with the same request answers them again with
// `Idempotent-Replayed: true`, without charging quota or running anything. What is not stored, so
// that a retry runs again: a request refused before it ran (credentials, access, parameters: those
// come before the claim), a 402 or 429 (quota and billing refusals: the work did not start), a 5xx
// or an unexpected error, and an answer that is not a JSON body. Stored bodies are sealed with the
// service key (they may hold a secret shown once, such as a new API key's), and replayed byte for byte.
import { repeatEvery } from '../core/periodic.ts';
import type { Request, Response } from 'express';
import type { PrismaClient } from '../prisma/db.ts';
import { Prisma } from '../prisma/generated/client/client.ts';
import type { Services } from '../resolvers/context.ts';
import type { Principal } from '../resolvers/principal.ts';
import { ApiError } from '../core/errors.ts';
import { sha256Hex } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { decryptSecret, encryptSecret } from '../subscriptions/webhooks/signing.ts';
import { locals } from '../catalogue/requestContext.ts';
import type { Route } from '../catalogue/route.ts';

export const idempotencyKeyHeader = 'Idempotency-Key';
export const replayedHeader = 'Idempotent-Replayed';
/** how long a key is remembered */
export const keptMs = 24 * 60 * 60_000;
/** a claim still in progress after this long belongs to an instance that died: it may be taken over */
export const staleClaimMs = 5 * 60_000;
const keyShape = /^[\x20-\x7e]{1,255}$/;
const sweepEveryMs = 60 * 60_000;

/** The routes that honour the header: writes that need a credential (the key is kept per organization). */
export const idempotentRoute = (route: Pick<Route, 'method' | 'access'>) => route.method !== 'GET' && route.access !== 'public';

/** JSON with object keys sorted, so that the same request always has the same fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value && typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** sha256 of the method, the path and the parsed query and body. */
export function requestFingerprint(method: string, path: string, params: { query?: unknown; body?: unknown }): string {
  return sha256Hex(canonicalJson([method, path, params.query ?? {}, params.body ?? null]));
}

interface Claim {
  orgId: string;
  key: string;
  /** the claim's createdAt: settling touches the row only while it is still this claim */
  at: Date;
}

const inUse = () =>
  new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry after a moment to get its answer.', {
    retryAfter: 1,
    retryable: true,
    details: { parameter: idempotencyKeyHeader },
  });

/** Claims the key, or says what to answer instead: the stored answer, 409 or 422. */
async function claim(prisma: PrismaClient, orgId: string, key: string, fingerprint: string): Promise<Claim | { status: number; sealed: string }> {
  // A few rounds at most: each one ends unless another request released or took over the key meanwhile.
  for (let round = 0; round < 3; round++) {
    const at = new Date();
    const inserted = await prisma.idempotencyRecord.createMany({ data: [{ orgId, key, fingerprint, state: 'in_progress', createdAt: at }], skipDuplicates: true });
    if (inserted.count) return { orgId, key, at };
    const record = await prisma.idempotencyRecord.findUnique({ where: { orgId_key: { orgId, key } } });
    if (!record) continue;
    const age = at.getTime() - record.createdAt.getTime();
    const expired = age > keptMs;
    const abandoned = record.state === 'in_progress' && record.fingerprint === fingerprint && age > staleClaimMs;
    if (expired || abandoned) {
      // Conditional on the row as read: of two requests taking it over, exactly one changes it.
      const { count } = await prisma.idempotencyRecord.updateMany({
        where: { orgId, key, createdAt: record.createdAt, state: record.state },
        data: { fingerprint, state: 'in_progress', status: null, body: Prisma.DbNull, createdAt: at },
      });
      if (count) return { orgId, key, at };
      continue;
    }
    if (record.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request (method, path or body) in the last 24 hours. Use a new key for a new request.', {
        details: { parameter: idempotencyKeyHeader },
      });
    }
    if (record.state !== 'done' || record.status === null || typeof record.body !== 'string') throw inUse();
    return { status: record.status, sealed: record.body };
  }
  throw inUse();
}

/** The answer is stored (2xx, 4xx) or the claim released (402, 429, 5xx, no JSON body). */
async function settle(services: Services, held: Claim, status: number, text: string | undefined) {
  const where = { orgId: held.orgId, key: held.key, createdAt: held.at, state: 'in_progress' };
  const workStarted = status < 500 && status !== 402 && status !== 429;
  if (workStarted && text !== undefined) {
    await services.prisma.idempotencyRecord.updateMany({ where, data: { state: 'done', status, body: encryptSecret(services.webhooks.key, text) } });
  } else {
    await services.prisma.idempotencyRecord.deleteMany({ where });
  }
}

/**
 * Called by the route handler once the request is authenticated and its params parsed, before
 * quota is charged. Without the header (or on a route that ignores it) it does nothing. With it,
 * it either answers (a replay: returns true, the handler stops) or holds the key until the
 * handler's answer is sent, which it stores first.
 */
export async function idempotency(services: Services, route: Route, principal: Principal | null, params: { query?: unknown; body?: unknown }, req: Request, res: Response): Promise<boolean> {
  const key = req.get(idempotencyKeyHeader);
  if (key === undefined || !idempotentRoute(route) || !principal?.orgId) return false;
  if (!keyShape.test(key)) {
    throw new ApiError('invalid_request_parameter', 'Idempotency-Key must be 1 to 255 printable ASCII characters, such as a UUID.', { details: { parameter: idempotencyKeyHeader } });
  }
  const outcome = await claim(services.prisma, principal.orgId, key, requestFingerprint(route.method, req.path, params));
  if ('sealed' in outcome) {
    const text = decryptSecret(services.webhooks.key, outcome.sealed);
    if (outcome.status >= 400) locals(res).errorCode = (JSON.parse(text) as { code?: string }).code;
    res.status(outcome.status).set(replayedHeader, 'true').type('application/json').send(text);
    return true;
  }
  holdUntilAnswered(services, outcome, res);
  return false;
}

/** Whatever answers with res.json (the route, or the error handler) stores its answer before it is sent. */
function holdUntilAnswered(services: Services, held: Claim, res: Response) {
  const json = res.json.bind(res);
  let settled = false;
  const failed = (err: unknown) => services.logger.warn({ err, key: held.key, orgId: held.orgId }, 'idempotency record could not be settled');
  res.json = (body: unknown) => {
    settled = true;
    res.json = json;
    settle(services, held, res.statusCode, JSON.stringify(body))
      .catch(failed)
      .then(() => json(body))
      .catch((err) => services.logger.error({ err }, 'answer could not be sent'));
    return res;
  };
  // An answer sent otherwise (no JSON body) is not stored: the key is released.
  res.once('finish', () => {
    if (!settled) settle(services, held, res.statusCode, undefined).catch(failed);
  });
}

/** Deletes records past 24 hours (an expired record is also replaced when its key comes again). */
export async function purgeIdempotencyRecords(prisma: PrismaClient, now = new Date()): Promise<number> {
  const { count } = await prisma.idempotencyRecord.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - keptMs) } } });
  return count;
}

/** An hourly purge, started with the service: each run deletes about an hour of records. */
export function startIdempotencySweep(prisma: PrismaClient, logger: Logger, everyMs = sweepEveryMs) {
  return repeatEvery(everyMs, () => purgeIdempotencyRecords(prisma), logger, 'idempotency records could not be purged');
}
