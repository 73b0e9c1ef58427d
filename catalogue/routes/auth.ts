// Signing in and the person's sessions (/v1/auth). A sign-in answers with the session as an
// httpOnly cookie, which page scripts cannot read; a script that wants a bearer token instead
// asks for it with `tokenDelivery: "bearer"` (the REST door does both, see Route.session).
import { z } from 'zod';
import {
  EndSessionDocument,
  RequestEmailCodeDocument,
  SessionsDocument,
  SignOutDocument,
  SwitchOrganizationDocument,
  VerifyEmailCodeDocument,
  VerifySignInLinkDocument,
  type SessionFieldsFragment,
  type SignInFieldsFragment,
} from '../operations/generated.ts';
import { roles } from '../../resolvers/roles.ts';
import { listEnvelope, operationRoute, type ResponseMeta } from '../route.ts';

const session = z.object({
  object: z.literal('session'),
  id: z.string().describe('`ses_…`'),
  method: z.enum(['email_code', 'link', 'oidc', 'cli']).describe('How the person signed in'),
  rememberMe: z.boolean().describe('Kept 90 days instead of 30'),
  userAgent: z.string().nullable(),
  ipAddress: z.string().nullable().describe('Where it signed in from'),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime().describe('Last request, to the minute'),
  expiresAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable().describe('When it was signed out or ended'),
  current: z.boolean().describe('The session of this request'),
});

const toSession = (s: SessionFieldsFragment) => ({ object: 'session' as const, ...s, method: s.method as z.infer<typeof session>['method'] });

const tokenDelivery = z
  .enum(['cookie', 'bearer'])
  .default('cookie')
  .describe('`cookie` (default): the session is set as an httpOnly cookie and the body carries no token; `bearer`: the body carries `token` for an Authorization header, and no cookie is set.');

const signIn = z.object({
  object: z.literal('sign_in'),
  session,
  organization: z.object({ id: z.string(), name: z.string() }).nullable().describe('Where the session starts; null for a person who was invited and has yet to accept'),
  expiresAt: z.iso.datetime(),
  token: z.string().optional().describe('The bearer token, only with `tokenDelivery: "bearer"`'),
  requestId: z.string(),
});

const toSignIn = (s: SignInFieldsFragment, meta: ResponseMeta) => ({ object: 'sign_in' as const, session: toSession(s.session), organization: s.organization, expiresAt: s.expiresAt, token: s.token, ...meta });

const signInErrors = ['rate_limited', 'authentication_failed'];

export const authRoutes = [
  operationRoute({
    name: 'auth_email_code_create',
    method: 'POST',
    path: '/v1/auth/email-code',
    summary: 'Email a sign-in code',
    description:
      'Sends a six-digit code to the address (valid 10 minutes, 5 tries, then a new code is needed). Another code for the same address may be asked for after a minute (429 `verification_resend_rate_limited` with Retry-After); requests per client address are limited too (429 `rate_limited`). Without email delivery configured (IDS_SMTP_URL), or while it fails: 503 `auth_verification_unavailable`. The answer is the same whether or not the address has signed in before.',
    tag: 'Auth',
    access: 'public',
    meter: null,
    params: { body: z.strictObject({ email: z.string().min(3).max(254).describe('The address to send the code to') }) },
    response: z.object({ object: z.literal('email_code'), email: z.string(), expiresAt: z.iso.datetime(), resendAfterSeconds: z.number().int(), requestId: z.string() }),
    errors: ['verification_resend_rate_limited', 'rate_limited', 'auth_verification_unavailable'],
    operation: RequestEmailCodeDocument,
    variables: ({ body }) => ({ email: body.email }),
  }).reshape(({ requestEmailCode }, meta) => ({ object: 'email_code', ...requestEmailCode, ...meta })),
  {
    ...operationRoute({
      name: 'auth_email_code_verify',
      method: 'POST',
      path: '/v1/auth/email-code/verify',
      summary: 'Sign in with an emailed code',
      description:
        'Signs in with the code from POST /v1/auth/email-code. A first sign-in creates the person and, unless they were invited, a personal organization on the starter plan (owner). Sessions last 30 days, 90 with `rememberMe`. A wrong code is 400 `verification_code_invalid` (with `details.attemptsLeft`); an expired, used or exhausted one is 400 `verification_code_expired`; tries are limited per address and per client address (429 `rate_limited`).',
      tag: 'Auth',
      access: 'public',
      meter: null,
      params: { body: z.strictObject({ email: z.string().min(3).max(254), code: z.string().max(12).describe('The six digits from the email'), rememberMe: z.boolean().default(false), tokenDelivery }) },
      response: signIn,
      errors: ['verification_code_invalid', 'verification_code_expired', ...signInErrors],
      operation: VerifyEmailCodeDocument,
      variables: ({ body }) => ({ email: body.email, code: body.code, rememberMe: body.rememberMe }),
    }).reshape(({ verifyEmailCode }, meta) => toSignIn(verifyEmailCode, meta)),
    session: 'start' as const,
  },
  {
    ...operationRoute({
      name: 'auth_link_verify',
      method: 'POST',
      path: '/v1/auth/link/verify',
      summary: 'Sign in with a one-time link',
      description: 'Signs in with the `token` of a sign-in link (printed by the first start and by `npm run ids -- sign-in-link --email <email>`): single use, 15 minutes. An invalid, used or expired link is 401 `authentication_failed`.',
      tag: 'Auth',
      access: 'public',
      meter: null,
      params: { body: z.strictObject({ token: z.string().min(1).max(200), rememberMe: z.boolean().default(false), tokenDelivery }) },
      response: signIn,
      errors: signInErrors,
      operation: VerifySignInLinkDocument,
      variables: ({ body }) => ({ token: body.token, rememberMe: body.rememberMe }),
    }).reshape(({ verifySignInLink }, meta) => toSignIn(verifySignInLink, meta)),
    session: 'start' as const,
  },
  operationRoute({
    name: 'auth_sessions_list',
    method: 'GET',
    path: '/v1/auth/sessions',
    summary: 'The signed-in person\'s devices',
    description: 'Every live session of the person (at most 100), newest first; `current` marks this request\'s.',
    tag: 'Auth',
    access: 'session',
    meter: null,
    response: listEnvelope(session),
    operation: SessionsDocument,
  }).reshape(({ sessions }, meta) => ({ object: 'list', data: sessions.map(toSession), hasMore: false, nextCursor: null, ...meta })),
  operationRoute({
    name: 'auth_session_delete',
    method: 'DELETE',
    path: '/v1/auth/sessions/{session_id}',
    summary: 'End one of the person\'s sessions',
    description: 'Ends a session of the signed-in person (a lost device) at once, on every instance. Another person\'s session is 404 `session_not_found`.',
    tag: 'Auth',
    access: 'session',
    meter: null,
    params: { path: z.object({ session_id: z.string().regex(/^ses_[A-Za-z0-9]{1,64}$/).describe('`ses_…`') }) },
    response: session.extend({ requestId: z.string() }),
    errors: ['session_not_found'],
    operation: EndSessionDocument,
    variables: ({ path }) => ({ id: path.session_id }),
  }).reshape(({ endSession }, meta) => ({ ...toSession(endSession), ...meta })),
  {
    ...operationRoute({
      name: 'auth_sign_out',
      method: 'POST',
      path: '/v1/auth/sign-out',
      summary: 'Sign out',
      description: 'Ends this request\'s session at once, on every instance, and clears the session cookie.',
      tag: 'Auth',
      access: 'session',
      meter: null,
      response: session.extend({ requestId: z.string() }),
      errors: ['human_auth_required'],
      operation: SignOutDocument,
    }).reshape(({ signOut }, meta) => ({ ...toSession(signOut), ...meta })),
    session: 'end' as const,
  },
  operationRoute({
    name: 'auth_switch_organization',
    method: 'POST',
    path: '/v1/auth/switch-organization',
    summary: 'Work in another of the person\'s organizations',
    description: 'Moves this session to another organization the person belongs to; the next requests act there, with the person\'s role in it.',
    tag: 'Auth',
    access: 'session',
    meter: null,
    params: { body: z.strictObject({ organizationId: z.string().min(1).max(64).describe('`org_…`, one of the person\'s memberships') }) },
    response: z.object({ object: z.literal('organization_context'), organization: z.object({ id: z.string(), name: z.string() }).nullable(), role: z.enum(roles).nullable(), requestId: z.string() }),
    errors: ['organization_not_found', 'human_auth_required'],
    operation: SwitchOrganizationDocument,
    variables: ({ body }) => ({ organizationId: body.organizationId }),
  }).reshape(({ switchOrganization }, meta) => ({ object: 'organization_context', organization: switchOrganization.organization, role: switchOrganization.role, ...meta })),
];
