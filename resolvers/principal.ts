// Who is asking: an API key or a signed-in person, as authentication established it.
import type { ApiKey } from '../prisma/generated/client/client.ts';


/**
 * What a key may do. `organization`: every route an API key may call (data reads, analytics,
 * account reads, monitors, webhooks, streams); `read`: the same without mutations, at every door
 * (REST, GraphQL, MCP). Keys never do dashboard-only writes (keys, money), whatever their scope.
 */
export const apiKeyScopes = ['organization', 'read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** A person's role in an organization (what each may do: resolvers/roles.ts). */
export const roles = ['owner', 'admin', 'developer', 'billing', 'viewer'] as const;
export type Role = (typeof roles)[number];

export type Principal =
  /** `key`: the key's row as authentication read it (requests about the caller need not read it again) */
  | {
      kind: 'api_key';
      apiKeyId: string;
      orgId: string;
      scopes: readonly string[];
      key?: ApiKey;
      /** when an operator suspended the organization (authentication reads it from the cached organization) */
      orgSuspendedAt?: Date;
    }
  | {
      kind: 'session';
      userId: string;
      email: string;
      orgId: string | null;
      expiresAt: Date;
      /** the person's role in `orgId` (null without one) */
      role: Role | null;
      /** the service's operators (`ids operators:create`) */
      operator: boolean;
      /** the row behind a session this service issued; null for a token of an external provider */
      sessionId: string | null;
      /** how the person signed in: email_code, link, oidc, cli; `external` for a provider's bearer token */
      method: string;
      /** when an operator suspended `orgId` (authentication reads it from the cached organization) */
      orgSuspendedAt?: Date;
    };
