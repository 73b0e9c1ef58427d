// Who is asking: an API key or a signed-in person, as authentication established it.
import type { ApiKey } from '../prisma/generated/client/client.ts';

/**
 * What a key may do. `organization`: every route an API key may call (data reads, analytics,
 * account reads, monitors, webhooks, streams); `read`: the same without mutations, at every door
 * (REST, GraphQL, MCP). Keys never do dashboard-only writes (keys, money), whatever their scope.
 */
export const apiKeyScopes = ['organization', 'read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

export type Principal =
  /** `key`: the key's row as authentication read it (requests about the caller need not read it again) */
  | { kind: 'api_key'; apiKeyId: string; orgId: string; scopes: readonly string[]; key?: ApiKey }
  | { kind: 'session'; userId: string; email: string; orgId: string | null; expiresAt: Date };
