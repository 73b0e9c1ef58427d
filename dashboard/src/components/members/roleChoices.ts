// The roles a member may hold and what each may do, in the service's own words (its role matrix),
// for the role pickers of the Members pages and the invitation page.
import type { Role } from '../../gql/graphql.ts';
import { humanize } from '../../format.ts';

export const roleChoices: readonly { value: Role; description: string }[] = [
  { value: 'owner', description: 'Everything, including ownership: makes and demotes owners, transfers ownership.' },
  { value: 'admin', description: 'Everything but ownership: members and invitations, keys, integrations, billing, the audit log.' },
  { value: 'developer', description: 'API keys, webhooks, streams and monitors; reads everything but the audit log.' },
  { value: 'billing', description: 'Plans, credits, payment methods and budgets; reads everything but the audit log.' },
  { value: 'viewer', description: 'Reads: data, usage, keys, integrations and billing, without changing anything.' },
];

export const roleName = (role: Role | null | undefined) => (role ? humanize(role) : 'none');

export const describeRole = (role: Role) => roleChoices.find((c) => c.value === role)?.description ?? '';
