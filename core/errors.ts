// The error contract (SPEC 2.1, 7): one class for every failure a client can be told about,
// one catalog of codes and statuses, and one envelope for every door.
import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { newId } from './ids.ts';

/** Every code the service answers with, and its HTTP status. */
export const errorStatus = {
  invalid_json: 400,
  unsubscribe_link_invalid: 400,
  validation_error: 400,
  invalid_query_parameter: 400,
  invalid_request_parameter: 400,
  malformed_request: 400,
  query_cost_exceeded: 400,
  query_depth_exceeded: 400,
  query_aliases_exceeded: 400,
  query_tokens_exceeded: 400,
  batching_not_supported: 400,
  missing_api_key: 401,
  authentication_failed: 401,
  missing_browser_session: 401,
  billing_required: 402,
  insufficient_credits: 402,
  billing_budget_hard_cap_exceeded: 402,
  billing_budget_approval_required: 402,
  browser_session_required: 403,
  human_auth_required: 403,
  operator_scope_required: 403,
  role_forbidden: 403,
  csrf_check_failed: 403,
  organization_suspended: 403,
  verification_code_invalid: 400,
  verification_code_expired: 400,
  invitation_invalid: 400,
  session_not_found: 404,
  member_not_found: 404,
  invitation_not_found: 404,
  user_not_found: 404,
  organization_must_keep_owner: 409,
  invitation_not_pending: 409,
  already_a_member: 409,
  rate_limited: 429,
  verification_resend_rate_limited: 429,
  insufficient_scope: 403,
  organization_missing: 403,
  route_not_found: 404,
  organization_not_found: 404,
  api_key_not_found: 404,
  entity_not_found: 404,
  filing_not_found: 404,
  section_not_found: 404,
  document_not_found: 404,
  form_not_found: 404,
  fund_not_found: 404,
  adviser_not_found: 404,
  offering_not_found: 404,
  dilution_event_not_found: 404,
  webhook_endpoint_not_found: 404,
  delivery_not_found: 404,
  event_not_found: 404,
  request_not_found: 404,
  trace_not_found: 404,
  stream_subscription_not_found: 404,
  payment_method_not_found: 404,
  top_up_not_found: 404,
  monitor_not_found: 404,
  alert_not_found: 404,
  artifact_not_found: 404,
  market_data_not_found: 404,
  sponsor_token_not_found: 404,
  situation_not_found: 404,
  strategy_not_found: 404,
  country_not_covered: 404,
  grant_reset_too_soon: 409,
  payment_method_limit_reached: 409,
  refund_not_allowed: 409,
  subscription_already_active: 409,
  processor_signature_invalid: 400,
  method_not_allowed: 405,
  webhook_endpoint_disabled: 409,
  stream_subscription_disabled: 409,
  monitor_inactive: 409,
  strategy_name_taken: 409,
  idempotency_key_in_use: 409,
  request_too_large: 413,
  request_headers_too_large: 431,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  optimization_infeasible: 422,
  optimization_failed: 422,
  question_not_understood: 422,
  rate_limit_exceeded: 429,
  render_rate_limited: 429,
  ai_query_quota_exceeded: 429,
  internal_error: 500,
  auth_verification_unavailable: 503,
  payment_processor_unavailable: 503,
  email_delivery_unavailable: 503,
  rate_limiter_unavailable: 503,
  workos_authorization_server_unavailable: 503,
  service_unavailable: 503,
  database_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetails {
  parameter?: string;
  acceptedValues?: string[];
  issues?: { path: string; message: string; code?: string }[];
  [key: string]: unknown;
}

export interface ApiErrorOptions {
  details?: ErrorDetails;
  /** seconds; sent as `Retry-After` */
  retryAfter?: number;
  retryable?: boolean;
  hint?: string;
  /** more response headers the answer carries, whatever the door (the quota's RateLimit fields on a 429) */
  headers?: Record<string, string>;
}

/** The longest client value an error message repeats; past it, the value is cut with an ellipsis. */
export const maxEchoedLength = 200;

/** A value the client sent, as an error message may repeat it: at most maxEchoedLength characters. */
export function clipped(value: string, max = maxEchoedLength): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/**
 * Our own words never run 200 characters without a space, a client's value may (an id, a path,
 * a name sent to GraphQL unchecked): whatever message repeats one, it is cut there.
 */
const unbrokenRun = new RegExp(`\\S{${maxEchoedLength + 1},}`, 'g');
const clipRuns = (message: string) =>
  message.replace(unbrokenRun, (run) => {
    // the quotes and punctuation around a value are not part of it, and a value already clipped stays as it is
    const [, before, value, after] = /^([`"'([]*)(.*?)([`"')\].,;:]*)$/s.exec(run)!;
    return value!.length === maxEchoedLength + 1 && value!.endsWith('…') ? run : `${before}${clipped(value!)}${after}`;
  });

/**
 * A failure the client caused or may act on. It is a GraphQLError so that resolvers throw it
 * as is: GraphQL puts `code` in `extensions`, REST and MCP turn it into their envelope.
 */
export class ApiError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly options: ApiErrorOptions;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    const status = errorStatus[code];
    const headers = { ...options.headers, ...(options.retryAfter !== undefined ? { 'Retry-After': String(options.retryAfter) } : {}) };
    super(clipRuns(message), {
      extensions: {
        code,
        ...(options.details ? { details: options.details } : {}),
        http: { status, ...(Object.keys(headers).length ? { headers } : {}) },
      },
    });
    this.code = code;
    this.status = status;
    this.options = options;
  }
}

export interface ErrorEnvelope {
  object: 'error';
  id: string;
  code: string;
  message: string;
  requestId: string;
  traceparent: string;
  retryable?: boolean;
  hint?: string;
  details?: ErrorDetails;
}

export function envelope(error: ApiError, requestId: string, traceparent: string): ErrorEnvelope {
  const { details, retryable, hint } = error.options;
  return {
    object: 'error',
    id: newId('err'),
    code: error.code,
    message: error.message,
    requestId,
    traceparent,
    ...(retryable !== undefined ? { retryable } : error.status === 429 || error.status >= 500 ? { retryable: true } : {}),
    ...(hint ? { hint } : {}),
    ...(details ? { details } : {}),
  };
}

/** What a client is told about a failure we did not foresee: nothing about its cause. */
export function unexpectedError(): ApiError {
  return new ApiError('internal_error', 'The request could not be completed because of an error on our side. It has been logged; retry later or quote the requestId.', { retryable: true });
}

/** The ApiError inside a GraphQL error (resolvers throw it; GraphQL wraps it with a path). */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  // Pothos refuses input it cannot use, such as a cursor it did not issue: the client's mistake.
  if (error instanceof PothosValidationError) {
    const cursor = /cursor/i.test(error.message);
    return new ApiError('invalid_query_parameter', cursor ? 'The cursor is not one this service issued; pass the nextCursor of a previous page.' : error.message, {
      details: cursor ? { parameter: 'cursor' } : {},
    });
  }
  // A cursor of a connection's encoding whose value is not of its field's type (a number where an
  // id is a string) passes Pothos and is refused by the client's validation, which marks the bad
  // argument with ~~: the same mistake as a cursor it did not issue.
  if (error instanceof Error && error.name === 'PrismaClientValidationError' && /\bcursor: \{[^}]*~~/.test(error.message)) return toApiError(new PothosValidationError('Invalid cursor'));
  // A variable the schema cannot coerce (a date cursor naming no calendar day) fails before any
  // resolver runs, and graphql-js names the variable only in its message. The REST and MCP doors
  // pass request parameters as variables, so this is a syntactically invalid parameter; their
  // `cursor` is the operation's `$after`.
  const variable = error instanceof GraphQLError && !(error.originalError instanceof ApiError) ? /^Variable "\$(\w+)" got invalid value [^;]*; (.*)$/s.exec(error.message) : null;
  if (variable) {
    const parameter = variable[1] === 'after' ? 'cursor' : variable[1]!;
    // graphql-js repeats the value it refused, however long
    const reason = clipped(variable[2]!.replace(/^Expected type "\w+"\. /, ''));
    return new ApiError('invalid_request_parameter', `Parameter \`${parameter}\`: ${reason}.`, { details: { parameter } });
  }
  if (databaseUnreachable(error)) {
    return new ApiError('database_unavailable', 'The database is not reachable for the moment; nothing was changed. Retry after the time given.', { retryAfter: databaseRetryAfterSeconds, retryable: true });
  }
  if (error instanceof GraphQLError && error.originalError) return toApiError(error.originalError);
  return undefined;
}

/** Long enough for a restarting PostgreSQL to accept connections again; the pool reconnects by itself. */
const databaseRetryAfterSeconds = 2;

/** Prisma's codes for a database it cannot reach or that dropped the connection (P1xxx), and its pool's timeout. */
const unreachableCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** The driver adapter's own kinds for the same. */
const unreachableKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseDoesNotExist']);

/**
 * A failure of the database itself rather than of the request: stopped, restarting, refusing
 * connections (SQLSTATE class 08, connection exceptions; 57P, an operator's shutdown or a crash;
 * 53300, too many connections). Read by shape, since this floor does not import the client.
 */
export function databaseUnreachable(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: string; code?: string } } }; cause?: { kind?: string; code?: string } } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && unreachableCodes.has(e.code)) return true;
  const cause = e.meta?.driverAdapterError?.cause ?? ((error as { name?: string }).name === 'DriverAdapterError' ? e.cause : undefined);
  if (!cause) return false;
  if (cause.kind && unreachableKinds.has(cause.kind)) return true;
  return cause.kind === 'postgres' && typeof cause.code === 'string' && (/^(08|57P)/.test(cause.code) || cause.code === '53300');
}
