// The sign-in routes (/v1/auth/*): the only REST the dashboard calls. They set and clear the
// httpOnly session cookie, which GraphQL cannot do.
import { csrfHeaders } from './client.tsx';

/** An error envelope the service answered with (SPEC 2.1). */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
    readonly requestId?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...csrfHeaders },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ServiceError(0, 'network_error', 'The service did not answer.');
  }
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ServiceError(
      response.status,
      typeof json?.code === 'string' ? json.code : `http_${response.status}`,
      typeof json?.message === 'string' ? json.message : `The service answered ${response.status}.`,
      typeof json?.hint === 'string' ? json.hint : undefined,
      (json?.details as Record<string, unknown> | undefined) ?? undefined,
      response.headers.get('request-id') ?? undefined,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return json as T;
}

export type SignInMethod =
  | { method: 'email_code'; label: string }
  | { method: 'link'; label: string; command: string }
  | { method: 'oidc'; label: string; provider: { name: string }; start: string };

export const authApi = {
  providers: () => request<{ methods: SignInMethod[] }>('GET', '/v1/auth/providers'),
  requestCode: (email: string) => request<{ expiresAt: string; resendAfterSeconds?: number }>('POST', '/v1/auth/email-code', { email }),
  verifyCode: (email: string, code: string, rememberMe: boolean) => request<{ organization: { id: string } | null }>('POST', '/v1/auth/email-code/verify', { email, code, rememberMe }),
  verifyLink: (token: string) => request<{ organization: { id: string } | null }>('POST', '/v1/auth/link/verify', { token, rememberMe: false }),
  signOut: () => request<unknown>('POST', '/v1/auth/sign-out'),
};
