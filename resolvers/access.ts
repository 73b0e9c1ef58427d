// Who may do what (SPEC 5): one check used by every door before and inside execution.
import { ApiError } from '../server/errors.ts';
import type { Context, Principal } from './context.ts';

export type Access = 'public' | 'authenticated' | 'org' | 'dashboard';

export function assertAccess(principal: Principal | null, access: Access): void {
  if (access === 'public') return;
  if (access === 'dashboard') {
    if (!principal) throw new ApiError('missing_browser_session', 'This action needs a signed-in dashboard session (Authorization: Bearer <session token>).');
    if (principal.kind !== 'session') throw new ApiError('browser_session_required', 'This action needs a signed-in dashboard session; an API key cannot perform it.');
  }
  if (!principal) throw new ApiError('missing_api_key', 'Send your API key in the x-api-key header.', { hint: 'Create a key in the dashboard or with `npm run ids -- keys:create --org <id>`.' });
  if ((access === 'org' || access === 'dashboard') && !principal.orgId) {
    throw new ApiError('organization_missing', 'This session has no organization context; sign in to an organization first.');
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
