// People's roles in an organization and what each may do. One matrix, checked by the one
// authorization step (catalogue/pipeline.ts authorize) for every door: a GraphQL field names the
// capability it needs (`extensions: { capability }`), and an operation needs every capability of
// its top-level fields. Roles bind people only: an API key is bounded by its scopes instead.
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { operationRoots } from '../core/rootFields.ts';
import { ApiError } from '../core/errors.ts';
import { roles, type Principal, type Role } from './principal.ts';

export { roles, type Role } from './principal.ts';

export const roleDescriptions: Record<Role, string> = {
  owner: 'Everything, including ownership: makes and demotes owners, transfers ownership.',
  admin: 'Everything but ownership: members and invitations, keys, integrations, billing, the audit log.',
  developer: 'API keys, webhooks, streams and monitors; reads everything but the audit log.',
  billing: 'Plans, credits, payment methods and budgets; reads everything but the audit log.',
  viewer: 'Reads: data, usage, keys, integrations and billing, without changing anything.',
};

/**
 * What a field may need. `read`: any member; `operator`: the service's operators, in any
 * organization or none (checked against the person, not a membership).
 */
export const capabilities = ['read', 'keys', 'integrations', 'billing', 'members', 'ownership', 'audit', 'operator'] as const;
export type Capability = (typeof capabilities)[number];

export const capabilityDescriptions: Record<Capability, string> = {
  read: 'read the organization and its data',
  keys: 'create and revoke API keys',
  integrations: 'manage webhooks, streams and monitors',
  billing: 'manage plans, credits, payment methods and budgets',
  members: 'invite, remove and change the roles of members',
  ownership: 'make, demote or transfer owners',
  audit: 'read the audit log',
  operator: 'operate the service',
};

const granted: Record<Exclude<Capability, 'operator'>, readonly Role[]> = {
  read: roles,
  keys: ['owner', 'admin', 'developer'],
  integrations: ['owner', 'admin', 'developer'],
  billing: ['owner', 'admin', 'billing'],
  members: ['owner', 'admin'],
  ownership: ['owner'],
  audit: ['owner', 'admin'],
};

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}

/** The roles that have a capability (operator: none; it is a property of the person). */
export function rolesWith(capability: Capability): readonly Role[] {
  return capability === 'operator' ? [] : granted[capability];
}

export function roleAllows(role: Role, capability: Capability): boolean {
  return rolesWith(capability).includes(role);
}

/**
 * Refuses a principal without the capabilities. A person needs a role that grants them in the
 * current organization; an operator capability needs an operator. API keys are not people:
 * their scope was checked before this (assertScope), and `operator` is never theirs.
 */
export function assertCapabilities(principal: Principal | null, needed: Iterable<Capability>): void {
  for (const capability of needed) {
    if (capability === 'operator') {
      if (principal?.kind !== 'session' || !principal.operator) {
        throw new ApiError('operator_scope_required', 'This action is for the service\'s operators.', {
          hint: 'An operator is made with `npm run ids -- operators:create --email <email>` and signs in like anyone.',
        });
      }
      continue;
    }
    if (principal?.kind !== 'session' || !principal.orgId || capability === 'read') continue;
    if (!principal.role || !roleAllows(principal.role, capability)) {
      const needs = rolesWith(capability);
      throw new ApiError('role_forbidden', `Your role (${principal.role ?? 'none'}) cannot ${capabilityDescriptions[capability]}; that needs ${needs.join(' or ')}.`, {
        details: { role: principal.role, required: needs, capability },
        hint: 'Ask an owner or admin of the organization to change your role.',
      });
    }
  }
}

/**
 * The capabilities an operation needs: those its top-level fields name. A mutation field that
 * names none needs `integrations` unless it is a read-scope computation (access.ts readScope):
 * changing the organization's configuration is never a viewer's.
 */
export function operationCapabilities(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): Set<Capability> {
  const roots = operationRoots(document, operationName);
  const needed = new Set<Capability>();
  if (!roots) return needed;
  const { operation } = roots;
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const fields = root?.getFields() ?? {};
  for (const name of roots.fields) {
    if (name.startsWith('__')) continue;
    const extensions = fields[name]?.extensions ?? {};
    const named = extensions.capability as Capability | undefined;
    if (named) needed.add(named);
    else if (operation.operation === 'mutation' && extensions.apiKeyScope !== 'read') needed.add('integrations');
  }
  return needed;
}

/** A GraphQL field's `extensions`: the capability a person's role must grant to run it. */
export const needs = (capability: Capability) => ({ capability }) as const;
