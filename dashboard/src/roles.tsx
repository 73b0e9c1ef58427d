// What a role may do with keys, as the service decides it (owner, admin and developer); the
// dashboard says so ahead of time, and the service's own refusal is shown should it differ.
import type { Role } from './gql/graphql.ts';
import { humanize } from './format.ts';

export const canManageKeys = (role: Role | null) => role === 'owner' || role === 'admin' || role === 'developer';

export function RoleNote({ role }: { role: Role | null }) {
  return (
    <p className="note">
      Your role ({role ? humanize(role) : 'none'}) can see keys but not create, rotate or revoke them: that needs owner, admin or developer. Ask an owner or admin of this
      organization.
    </p>
  );
}

// What a role may do with the organization's people and its audit log (capabilities `members`,
// `ownership` and `audit` in the service's role matrix), said ahead of time the same way.
export const canManageMembers = (role: Role | null) => role === 'owner' || role === 'admin';
export const canManageOwnership = (role: Role | null) => role === 'owner';
export const canReadAuditLog = (role: Role | null) => role === 'owner' || role === 'admin';

// Billing: plans, credits, payment methods and budgets are owner, admin and billing's (resolvers/roles.ts `billing`).
export const canManageBilling = (role: Role | null) => role === 'owner' || role === 'admin' || role === 'billing';

export function BillingRoleNote({ role }: { role: Role | null }) {
  return (
    <p className="note" id="billing-role-note">
      Your role ({role ? humanize(role) : 'none'}) can see billing but not change it: topping up, plans, payment methods, auto-top-up and budgets need owner, admin or
      billing. Ask an owner or admin of this organization.
    </p>
  );
}

// Webhooks, streams and monitors: the `integrations` capability (owner, admin and developer).
export const canManageIntegrations = (role: Role | null) => role === 'owner' || role === 'admin' || role === 'developer';

/** Why the controls of an integration page are disabled: `what` names what they change. */
export function IntegrationsRoleNote({ role, what }: { role: Role | null; what: string }) {
  return (
    <p className="note">
      Your role ({role ? humanize(role) : 'none'}) can see {what} but cannot change anything here: that needs owner, admin or developer. Ask an owner or admin of this
      organization.
    </p>
  );
}
