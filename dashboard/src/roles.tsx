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
