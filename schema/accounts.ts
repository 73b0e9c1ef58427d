// Signing in, the person's signed-in devices, and which of their organizations they work in.
import { ApiError } from '../core/errors.ts';
import { assertAccess } from '../resolvers/access.ts';
import { requestEmailCode, verifyEmailCode } from '../resolvers/accounts/emailCodes.ts';
import { useSignInLink } from '../resolvers/accounts/links.ts';
import { endSession, listSessions, switchOrganization } from '../resolvers/accounts/sessions.ts';
import { completeSignIn } from '../resolvers/accounts/signIn.ts';
import type { Context } from '../resolvers/context.ts';
import type { Principal } from '../resolvers/principal.ts';
import { needs, roleDescriptions, roles } from '../resolvers/roles.ts';
import { builder } from './builder.ts';
import { Organization, PrincipalRef } from './platform.ts';

export const Role = builder.enumType('Role', {
  description: 'A person\'s role in an organization.',
  values: Object.fromEntries(roles.map((role) => [role, { description: roleDescriptions[role] }])) as Record<(typeof roles)[number], { description: string }>,
});

const Session = builder.prismaObject('Session', {
  description: 'A signed-in device of the person.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `ses_…`' }),
    method: t.exposeString('method', { description: 'How the person signed in: email_code, link, oidc or cli' }),
    rememberMe: t.exposeBoolean('rememberMe', { description: 'Kept 90 days instead of 30' }),
    userAgent: t.exposeString('userAgent', { nullable: true }),
    ipAddress: t.exposeString('ipAddress', { nullable: true, description: 'Where it signed in from' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it signed in' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', description: 'Last request, to the minute' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    endedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When it was signed out or ended' }),
    current: t.boolean({ description: 'The session of this request', resolve: (s, _a, ctx) => ctx.principal?.kind === 'session' && ctx.principal.sessionId === s.id }),
  }),
});

interface SignInResult {
  sessionId: string;
  token: string;
  expiresAt: Date;
  userId: string;
  orgId: string | null;
}

const SignIn = builder.objectRef<SignInResult>('SignIn').implement({
  description: 'A new session. `token` is a bearer token for scripts; the dashboard receives it as an httpOnly cookie instead (POST /v1/auth/*).',
  fields: (t) => ({
    token: t.exposeString('token'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    session: t.prismaField({ type: Session, resolve: (query, r, _a, ctx) => ctx.prisma.session.findUniqueOrThrow({ ...query, where: { id: r.sessionId } }) }),
    organization: t.prismaField({
      type: Organization,
      nullable: true,
      description: 'Where the session starts: the last organization used, the oldest membership, or a new personal one; null for a person who was invited and has yet to accept',
      resolve: (query, r, _a, ctx) => (r.orgId ? ctx.prisma.organization.findUnique({ ...query, where: { id: r.orgId } }) : null),
    }),
  }),
});

const EmailCodeSent = builder.objectRef<{ email: string; expiresAt: Date; resendAfterSeconds: number }>('EmailCodeSent').implement({
  description: 'A sign-in code is on its way.',
  fields: (t) => ({
    email: t.exposeString('email'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'The code works until then (10 minutes)' }),
    resendAfterSeconds: t.exposeInt('resendAfterSeconds', { description: 'Another code may be asked for after this many seconds' }),
  }),
});

const Membership = builder.prismaObject('Membership', {
  description: 'One organization the person belongs to, and their role in it.',
  fields: (t) => ({
    organization: t.relation('org', { type: Organization }),
    role: t.field({ type: Role, resolve: (m) => m.role as (typeof roles)[number] }),
    joinedAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** The signed-in person (a session, never an API key). */
function signedIn(ctx: Context): SessionPrincipal {
  assertAccess(ctx.principal, 'session');
  return ctx.principal as SessionPrincipal;
}

async function signInResult(ctx: Context, email: string, method: 'email_code' | 'link', rememberMe: boolean): Promise<SignInResult> {
  const { session, token, userId, orgId } = await completeSignIn(ctx, email, method, rememberMe);
  return { sessionId: session.id, token, expiresAt: session.expiresAt, userId, orgId };
}

builder.objectFields(PrincipalRef, (t) => ({
  role: t.field({ type: Role, nullable: true, description: 'The person\'s role in the organization (null for an API key, or without an organization)', resolve: (p) => (p.kind === 'session' ? p.role : null) }),
  operator: t.boolean({ description: 'Whether the person operates the service (/v1/operator/*)', resolve: (p) => p.kind === 'session' && p.operator }),
  memberships: t.prismaField({
    type: [Membership],
    description: 'The organizations the person belongs to, oldest first (empty for an API key)',
    resolve: (query, p, _a, ctx) => (p.kind === 'session' ? ctx.prisma.membership.findMany({ ...query, where: { userId: p.userId }, orderBy: { createdAt: 'asc' } }) : []),
  }),
}));

builder.queryFields((t) => ({
  sessions: t.prismaField({
    type: [Session],
    description: 'The signed-in person\'s live sessions (devices), newest first.',
    resolve: (query, _r, _a, ctx) => listSessions(ctx.prisma, signedIn(ctx).userId).then((rows) => ctx.prisma.session.findMany({ ...query, where: { id: { in: rows.map((r) => r.id) } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })),
  }),
}));

builder.mutationFields((t) => ({
  requestEmailCode: t.field({
    extensions: needs('read'),
    type: EmailCodeSent,
    description: 'Email a six-digit sign-in code (valid 10 minutes, 5 tries). Another code for the same address may be asked for after a minute.',
    args: { email: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => requestEmailCode(ctx, args.email),
  }),
  verifyEmailCode: t.field({
    extensions: needs('read'),
    type: SignIn,
    description: 'Sign in with an emailed code. A first sign-in creates the person, and a personal organization unless they were invited.',
    args: { email: t.arg.string({ required: true }), code: t.arg.string({ required: true }), rememberMe: t.arg.boolean({ required: false, description: 'Keep the session 90 days instead of 30' }) },
    resolve: async (_r, args, ctx) => signInResult(ctx, await verifyEmailCode(ctx, args.email, args.code), 'email_code', args.rememberMe ?? false),
  }),
  verifySignInLink: t.field({
    extensions: needs('read'),
    type: SignIn,
    description: 'Sign in with the token of a one-time sign-in link (single use, 15 minutes).',
    args: { token: t.arg.string({ required: true }), rememberMe: t.arg.boolean({ required: false }) },
    resolve: async (_r, args, ctx) => signInResult(ctx, await useSignInLink(ctx.prisma, args.token), 'link', args.rememberMe ?? false),
  }),
  signOut: t.prismaField({
    extensions: needs('read'),
    type: Session,
    description: 'End the session of this request, on every instance at once.',
    resolve: async (query, _r, _a, ctx) => {
      const person = signedIn(ctx);
      if (!person.sessionId) throw new ApiError('human_auth_required', 'This token comes from your identity provider; sign out there.');
      const ended = await endSession(ctx.prisma, person.userId, person.sessionId);
      return ctx.prisma.session.findUniqueOrThrow({ ...query, where: { id: ended.id } });
    },
  }),
  endSession: t.prismaField({
    extensions: needs('read'),
    type: Session,
    description: 'End one of the person\'s sessions (a lost device), on every instance at once.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const ended = await endSession(ctx.prisma, signedIn(ctx).userId, args.id);
      return ctx.prisma.session.findUniqueOrThrow({ ...query, where: { id: ended.id } });
    },
  }),
  switchOrganization: t.field({
    extensions: needs('read'),
    type: PrincipalRef,
    description: 'Work in another of the person\'s organizations from now on, in this session.',
    args: { organizationId: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const person = signedIn(ctx);
      await switchOrganization(ctx.prisma, person, args.organizationId);
      const membership = await ctx.prisma.membership.findUniqueOrThrow({ where: { userId_orgId: { userId: person.userId, orgId: args.organizationId } } });
      // the answer is the principal as the session's next request will see it
      return { ...person, orgId: args.organizationId, role: membership.role as SessionPrincipal['role'] } satisfies SessionPrincipal;
    },
  }),
}));
