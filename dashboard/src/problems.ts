// What went wrong, in words a person can act on: the service's own message, and what to do about
// it. GraphQL errors carry the code in `extensions.code`; the sign-in routes answer the REST
// envelope; both come here.
import type { CombinedError } from 'urql';
import { ServiceError } from './auth.ts';

export interface Problem {
  status: number;
  code: string;
  title: string;
  message: string;
  /** what the person can do about it */
  action: string;
  requestId?: string;
  retryAfterSeconds?: number;
  /** signing in again is the way out */
  signedOut: boolean;
}

const signedOutCodes = new Set(['missing_api_key', 'authentication_failed', 'missing_browser_session', 'session_expired']);

const statusOf: Record<string, number> = {
  billing_required: 402,
  insufficient_credits: 402,
  billing_budget_hard_cap_exceeded: 402,
  billing_budget_approval_required: 402,
  role_forbidden: 403,
  csrf_check_failed: 403,
  organization_suspended: 403,
  organization_missing: 403,
  insufficient_scope: 403,
  browser_session_required: 403,
  rate_limit_exceeded: 429,
  render_rate_limited: 429,
  rate_limited: 429,
  verification_resend_rate_limited: 429,
};

function titleFor(status: number): string {
  if (status === 402) return 'Payment needed';
  if (status === 403) return 'Not allowed';
  if (status === 429) return 'Too many requests';
  if (status === 401) return 'Signed out';
  if (status === 0) return 'No answer from the service';
  if (status >= 500) return 'The service had a problem';
  return 'Something went wrong';
}

function actionFor(status: number, code: string, details: Record<string, unknown> | undefined, hint: string | undefined, retryAfter: number | undefined): string {
  const wait = retryAfter ? `Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.` : 'Wait a moment and try again.';
  switch (code) {
    case 'role_forbidden': {
      const required = Array.isArray(details?.required) ? (details.required as string[]).join(' or ') : 'another role';
      return `Ask an owner or admin of this organization to give you the ${required} role.`;
    }
    case 'operator_scope_required':
      return 'Only the service\'s operators (made with `ids operators:create`) can open these pages; your own organization\'s pages are in the menu above.';
    case 'csrf_check_failed':
      return 'Reload the page and try again from the dashboard itself.';
    case 'organization_suspended':
      return 'Contact the service\'s operators, or switch to another of your organizations.';
    case 'organization_missing':
      return 'Accept an invitation to an organization, or sign out and sign in again.';
    case 'billing_required':
    case 'insufficient_credits':
      return 'An owner, admin or billing member can add prepaid credit or move the organization to a plan that includes this.';
    case 'billing_budget_hard_cap_exceeded':
    case 'billing_budget_approval_required':
      return 'An owner, admin or billing member can raise the monthly budget or approve the spend.';
    case 'rate_limit_exceeded':
    case 'rate_limited':
      return `${wait} The quota window starts again by itself; a larger plan has larger windows.`;
    case 'render_rate_limited':
      return `${wait} Filing renders have a quota window of their own (see the Overview); it starts again by itself.`;
    case 'verification_resend_rate_limited':
      return `${wait} Use the code already sent, if you have it.`;
    case 'query_cost_exceeded':
      return 'This read is larger than one request may be (or than the plan\'s whole quota window): ask for less, such as fewer periods or a smaller page; a larger plan has larger windows.';
  }
  if (hint) return hint;
  if (status === 401) return 'Sign in again.';
  if (status === 402) return 'An owner, admin or billing member can add credit or choose a plan.';
  if (status === 403) return 'Ask an owner or admin of this organization for access.';
  if (status === 429) return wait;
  if (status === 0) return 'Check your connection, then try again.';
  if (status >= 500) return 'Try again shortly. If it keeps happening, quote the request id to the service\'s operators.';
  return 'Check what you entered and try again.';
}

function problem(status: number, code: string, message: string, details?: Record<string, unknown>, hint?: string, requestId?: string, retryAfterSeconds?: number): Problem {
  return {
    status,
    code,
    title: titleFor(status),
    message,
    action: actionFor(status, code, details, hint, retryAfterSeconds),
    requestId,
    retryAfterSeconds,
    signedOut: status === 401 || signedOutCodes.has(code),
  };
}

function retryAfterOf(response: Response | undefined): number | undefined {
  const value = Number(response?.headers?.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** A GraphQL error (urql's CombinedError), a sign-in route's error, or anything thrown. */
export function describeProblem(error: unknown): Problem {
  if (error instanceof ServiceError) return problem(error.status, error.code, error.message, error.details, error.hint, error.requestId, error.retryAfterSeconds);
  const combined = error as Partial<CombinedError> | undefined;
  if (combined && (combined.graphQLErrors || combined.networkError)) {
    const response = combined.response as Response | undefined;
    const requestId = response?.headers?.get?.('request-id') ?? undefined;
    const first = combined.graphQLErrors?.[0];
    if (first) {
      const code = typeof first.extensions?.code === 'string' ? first.extensions.code : 'graphql_error';
      const details = first.extensions?.details as Record<string, unknown> | undefined;
      const status = statusOf[code] ?? (response && response.status >= 400 ? response.status : signedOutCodes.has(code) ? 401 : 400);
      return problem(status, code, first.message, details, undefined, requestId, retryAfterOf(response));
    }
    const status = response?.status ?? 0;
    return problem(status, status ? `http_${status}` : 'network_error', status ? `The service answered ${status}.` : 'The service did not answer.', undefined, undefined, requestId, retryAfterOf(response));
  }
  return problem(0, 'unexpected', error instanceof Error ? error.message : String(error));
}
