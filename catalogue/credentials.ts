// What a request presents as credentials, read the same way by every HTTP door: an API key in
// x-api-key, a bearer session in Authorization, or the browser's session cookie (with what its
// CSRF rule needs: the method, Origin and x-ids-csrf).
import { csrfHeader, sessionCookieFrom } from '../resolvers/accounts/cookie.ts';
import type { Credentials } from '../resolvers/authenticate.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requestCredentials(header: (name: string) => string | undefined, method: string, publicUrl: string): Credentials {
  const token = sessionCookieFrom(header('cookie'), publicUrl);
  return {
    apiKey: header('x-api-key'),
    authorization: header('authorization'),
    ...(token ? { cookie: { token, changesState: !safeMethods.has(method.toUpperCase()), origin: header('origin'), csrf: header(csrfHeader) } } : {}),
  };
}
