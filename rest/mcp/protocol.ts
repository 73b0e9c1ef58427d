// JSON-RPC 2.0 and the parts of the Model Context Protocol (2025-11-25) the endpoint speaks.
import { ApiError, type ErrorCode } from '../../core/errors.ts';

/** Newest first; initialize answers with the client's version when it is one of these. */
export const supportedProtocolVersions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const latestProtocolVersion = supportedProtocolVersions[0];

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export const rpcCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  unauthorized: -32001,
  toolTimeout: -32004,
  quotaExceeded: -32005,
  circuitOpen: -32006,
  billing: -32007,
} as const;

/** A protocol-level failure: its HTTP status, JSON-RPC code, and `data.code` (SPEC 7.3). */
export class McpError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly rpcCode: number,
    readonly dataCode: string,
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string, dataCode: 'invalid_request' | 'validation_error' = 'invalid_request', data: Record<string, unknown> = {}) =>
  new McpError(400, rpcCodes.invalidParams, dataCode, message, data);

const billingCodes = new Set<ErrorCode>(['billing_required', 'insufficient_credits', 'billing_budget_hard_cap_exceeded', 'billing_budget_approval_required']);

/** The protocol error an ApiError becomes when it stops a call before or around the tool itself. */
export function fromApiError(error: ApiError): McpError {
  const data = { ...(error.options.details ?? {}) };
  if (error.code === 'rate_limit_exceeded') return new McpError(429, rpcCodes.quotaExceeded, 'ai_query_quota_exceeded', error.message, data, error.options.retryAfter);
  // a class with a window of its own keeps its own reason (the filing render window)
  if (error.status === 429 && error.code !== 'rate_limited' && error.code !== 'verification_resend_rate_limited') return new McpError(429, rpcCodes.quotaExceeded, error.code, error.message, data, error.options.retryAfter);
  if (billingCodes.has(error.code)) return new McpError(402, rpcCodes.billing, error.code, error.message, data);
  if (error.status === 401 || error.status === 403) return new McpError(error.status, rpcCodes.unauthorized, error.code, error.message, data);
  if (error.status === 400) return invalidParams(error.message, 'validation_error', data);
  if (error.status === 503) return new McpError(503, rpcCodes.internalError, error.code, error.message, data, error.options.retryAfter);
  return new McpError(500, rpcCodes.internalError, 'internal_error', 'The request could not be completed because of an error on our side; retry later.');
}

export function rpcError(id: JsonRpcId | null, error: McpError, requestId: string) {
  return { jsonrpc: '2.0' as const, id, error: { code: error.rpcCode, message: error.message, data: { code: error.dataCode, requestId, ...error.data, ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}) } } };
}
