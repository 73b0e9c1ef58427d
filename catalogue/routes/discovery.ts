// OAuth discovery (SPEC 4.1): how an MCP client or a REST client finds out how to authenticate.
import { z } from 'zod';
import { ApiError } from '../../core/errors.ts';
import type { Config } from '../../core/config.ts';
import { handlerRoute } from '../route.ts';

const metadataCacheMs = 5 * 60_000;
let cached: { url: string; at: number; body: Record<string, unknown> } | undefined;

function unavailable(message: string, retryable: boolean) {
  return new ApiError('workos_authorization_server_unavailable', message, { retryable, ...(retryable ? { retryAfter: 30 } : {}) });
}

/** The identity provider's authorization-server metadata, fetched and cached for five minutes. */
async function authorizationServerMetadata(config: Config): Promise<Record<string, unknown>> {
  const provider = config.identityProvider;
  if (!provider) throw unavailable('No identity provider is configured for this deployment, so there is no OAuth authorization server. Use an API key in x-api-key.', false);
  const url = provider.metadataUrl ?? `${provider.issuer.replace(/\/$/, '')}/.well-known/oauth-authorization-server`;
  if (cached && cached.url === url && Date.now() - cached.at < metadataCacheMs) return cached.body;
  let body: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000), headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`status ${response.status}`);
    body = await response.json();
  } catch {
    throw unavailable('The identity provider\'s authorization-server metadata could not be fetched; retry later.', true);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw unavailable('The identity provider answered with metadata that is not a JSON object.', true);
  cached = { url, at: Date.now(), body: body as Record<string, unknown> };
  return cached.body;
}

export const discoveryRoutes = [
  handlerRoute({
    name: 'oauth_protected_resource_get',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    summary: 'OAuth protected-resource metadata (RFC 9728)',
    tag: 'Discovery',
    access: 'public',
    meter: null,
    response: z.looseObject({
      resource: z.string(),
      authorization_servers: z.array(z.string()),
      bearer_methods_supported: z.array(z.string()),
      resource_name: z.string(),
      resource_documentation: z.string(),
    }),
    run: async (ctx) => ({
      resource: ctx.config.publicUrl,
      authorization_servers: ctx.config.identityProvider ? [ctx.config.identityProvider.issuer] : [],
      bearer_methods_supported: ['header'],
      resource_name: 'Investor Data Service',
      resource_documentation: `${ctx.config.publicUrl}/openapi/sec-api.v1.json`,
      api_key_header: 'x-api-key',
    }),
  }),
  handlerRoute({
    name: 'oauth_authorization_server_get',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    summary: 'Authorization-server metadata of the configured identity provider (proxied)',
    description: 'Answers 503 `workos_authorization_server_unavailable` when no identity provider is configured or it cannot be reached.',
    tag: 'Discovery',
    access: 'public',
    meter: null,
    errors: ['workos_authorization_server_unavailable'],
    response: z.looseObject({ issuer: z.string() }),
    run: async (ctx) => (await authorizationServerMetadata(ctx.config)) as { issuer: string },
  }),
];
