// Who may do what (SPEC 5): one check used by every door before and inside execution.
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { operationRoots } from '../core/rootFields.ts';
import { ApiError } from '../core/errors.ts';
import type { ApiKeyScope } from './principal.ts';
import type { Context } from './context.ts';
import type { Principal } from './principal.ts';

/**
 * `public`: anyone; `authenticated`: any credential; `org`: a credential with an organization;
 * `session`: a signed-in person, in an organization or none (their devices, switching);
 * `dashboard`: a signed-in person in an organization (keys, money).
 */
export type Access = 'public' | 'authenticated' | 'org' | 'session' | 'dashboard';

/** `scope`: what an API key needs for the operation (operationScope); a session may do either. */
export function assertAccess(principal: Principal | null, access: Access, scope: ApiKeyScope = 'read'): void {
  if (access === 'public') return;
  if (access === 'dashboard' || access === 'session') {
    if (!principal) throw new ApiError('missing_browser_session', 'This action needs a signed-in dashboard session (Authorization: Bearer <session token>).');
    if (principal.kind !== 'session') throw new ApiError('browser_session_required', 'This action needs a signed-in dashboard session; an API key cannot perform it.');
  }
  if (!principal) throw new ApiError('missing_api_key', 'Send your API key in the x-api-key header.', { hint: 'Create a key in the dashboard or with `npm run ids -- keys:create --org <id>`.' });
  if ((access === 'org' || access === 'dashboard') && !principal.orgId) {
    throw new ApiError('organization_missing', 'This session has no organization context; sign in to an organization first.');
  }
  if ((access === 'org' || access === 'dashboard') && principal.orgSuspendedAt) {
    throw new ApiError('organization_suspended', 'This organization is suspended by the service\'s operators: its API keys and sessions are refused until it is unsuspended.', {
      details: { suspendedAt: principal.orgSuspendedAt.toISOString() },
      hint: 'Contact the service\'s operators. A member may still sign in and switch to another organization.',
    });
  }
  assertScope(principal, scope);
}

/**
 * A mutation field a `read` key may run (`extensions: readScope` on the field): a computation or a
 * read whose only effect is on what the caller reads next (an analytics artifact, a monitor's pull
 * cursor, a stream ticket), never the organization's configuration.
 */
export const readScope = { apiKeyScope: 'read' } as const;

/** The scope an operation needs: `read` for queries, subscriptions and mutations of readScope fields only. */
export function operationScope(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): ApiKeyScope {
  const roots = operationRoots(document, operationName);
  if (roots?.operation.operation !== 'mutation') return 'read';
  const fields = schema.getMutationType()?.getFields() ?? {};
  // a fragment at the root is not looked into: only fields written out can be read-only
  const readOnly = roots.direct && roots.fields.every((name) => name === '__typename' || fields[name]?.extensions.apiKeyScope === 'read');
  return readOnly ? 'read' : 'organization';
}

/**
 * An API key runs what its scopes allow (a dashboard session may do anything its route allows).
 * A `read` key is refused here, at every door, before anything is charged or runs.
 */
export function assertScope(principal: Principal | null, needed: ApiKeyScope): void {
  if (needed === 'organization' && principal?.kind === 'api_key' && !principal.scopes.includes('organization')) {
    throw new ApiError('insufficient_scope', 'This API key has the read scope: it cannot change anything.', {
      details: { granted: [...principal.scopes], required: 'organization' },
      hint: 'Use a key with the organization scope, created in the dashboard.',
    });
  }
}

export function requireOrg(ctx: Context): string {
  assertAccess(ctx.principal, 'org');
  return ctx.principal!.orgId!;
}

export function requireDashboard(ctx: Context): Extract<Principal, { kind: 'session' }> & { orgId: string } {
  assertAccess(ctx.principal, 'dashboard');
  return ctx.principal as Extract<Principal, { kind: 'session' }> & { orgId: string };
}

/** Data reads are metered per organization, so they need a credential with one. */
export function requireDataAccess(ctx: Context): void {
  assertAccess(ctx.principal, 'org');
}
