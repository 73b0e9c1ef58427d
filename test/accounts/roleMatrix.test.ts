// Roles × routes, generated from the route table (catalogue/routes/index.ts) and the matrix
// (resolvers/roles.ts): for every organization route whose operation needs more than `read`, a
// session of each role is refused with 403 role_forbidden exactly when the matrix says its role
// lacks a capability the route needs, at REST, GraphQL and (for tools) MCP, and never otherwise.
// A route that gains a capability, or a capability that changes hands, is checked here at once.
import fc from 'fast-check';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validate } from '../../catalogue/pipeline.ts';
import type { Route } from '../../catalogue/route.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { setPlan } from '../../resolvers/billing/account.ts';
import { capabilities, roleAllows, roles, rolesWith, type Capability, type Role } from '../../resolvers/roles.ts';
import { call, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

let t: TestService;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  t = await startTestService();
  const org = await orgWithKey(t);
  // windows wide enough that the allowed roles' calls are answered by the routes themselves
  await setPlan(t.service.services, org.orgId, 'enterprise', 'active');
  for (const role of roles) tokens[role] = await sessionToken(t, org.orgId, undefined, false, role);
});
afterAll(() => t?.close());

/** What a person's role must allow for the route, beyond reading. */
const needed = (route: Route) => (route.capabilities ?? []).filter((c): c is Exclude<Capability, 'read'> => c !== 'read');

const matrixRoutes = routes.filter((r) => (r.access === 'dashboard' || r.access === 'org') && needed(r).length > 0 && !needed(r).includes('operator'));

// ---- params each route accepts, from its own schemas (a refusal by role comes before validation,
// so these only make the allowed roles' answers the route's own) -------------------------------

type JsonSchema = Record<string, any>;

function sampleOf(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const option = schema.anyOf ?? schema.oneOf;
  if (option) return sampleOf(option.find((o: JsonSchema) => o.type !== 'null') ?? option[0]);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name: string) => [name, sampleOf(schema.properties?.[name] ?? {})]));
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, () => sampleOf(schema.items ?? {}));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.pattern) return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: 7 })[0];
      return 'A'.repeat(Math.max(schema.minLength ?? 1, 2)).slice(0, schema.maxLength ?? 200);
    default:
      return 'A';
  }
}

const sample = (schema: z.ZodType | undefined) => (schema ? (sampleOf(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) as Record<string, unknown>) : {});

/**
 * Bodies the generator cannot guess (a receiver the address guard lets through, an address), and
 * roles below owner: making an owner needs `ownership` as well, which depends on the body, not the
 * route (test/accounts/members.test.ts tries it).
 */
const refined: Record<string, Record<string, unknown>> = {
  webhook_endpoints_create: { url: 'http://127.0.0.1:9/hook' },
  webhook_endpoints_update: { url: 'http://127.0.0.1:9/hook' },
  org_invitations_create: { email: 'invitee@example.com', role: 'viewer' },
  org_members_update: { role: 'viewer' },
};

function request(route: Route) {
  const { view: _view, ...query } = sample(route.params.query);
  const raw = {
    path: Object.fromEntries(Object.entries(sample(route.params.path)).map(([k, v]) => [k, String(v)])),
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    body: route.params.body ? { ...sample(route.params.body), ...refined[route.name] } : undefined,
  };
  let valid = true;
  try {
    validate(route, raw);
  } catch {
    valid = false; // still a request of the route: the role is judged first
  }
  const url = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(raw.path[name]!)) + (Object.keys(raw.query).length ? `?${new URLSearchParams(raw.query)}` : '');
  return { url, body: raw.body, args: { ...raw.path, ...raw.query, ...(raw.body ?? {}) }, valid };
}

// ---- the doors ----------------------------------------------------------------------------

type Door = { name: string; send(route: Route, token: string): Promise<{ status: number; code: string | undefined }> };

const rest: Door = {
  name: 'REST',
  async send(route, token) {
    const { url, body } = request(route);
    const answer = await call(t, route.method, url, { token, ...(body !== undefined ? { body } : {}) });
    return { status: answer.status, code: answer.body?.code };
  },
};

const graphql: Door = {
  name: 'GraphQL',
  async send(route, token) {
    const answer = await call(t, 'POST', '/graphql', { token, body: { query: print(route.operation!) } });
    const code = answer.body?.errors?.[0]?.extensions?.code;
    return { status: code === 'role_forbidden' ? 403 : answer.status, code };
  },
};

const mcpTool: Door = {
  name: 'MCP',
  async send(route, token) {
    const answer = await call(t, 'POST', '/mcp', { token, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: route.name, arguments: request(route).args } } });
    return { status: answer.status, code: answer.body?.error?.data?.code };
  },
};

const doorsOf = (route: Route) => [rest, ...(route.operation ? [graphql] : []), ...(route.mcp ? [mcpTool] : [])];

// ---- the matrix ----------------------------------------------------------------------------

describe('the matrix', () => {
  it('grants every capability but operator to owners, and each to at least one role', () => {
    for (const capability of capabilities) {
      if (capability === 'operator') expect(rolesWith(capability)).toEqual([]);
      else expect(rolesWith(capability)).toContain('owner');
    }
    expect(roles.filter((role) => roleAllows(role, 'audit'))).toEqual(['owner', 'admin']);
    expect(roles.filter((role) => roleAllows(role, 'ownership'))).toEqual(['owner']);
  });

  it('covers the routes that need a role', () => {
    const names = matrixRoutes.map((r) => r.name);
    for (const name of ['api_keys_create', 'billing_budget_set', 'webhook_endpoints_create', 'org_members_update', 'org_ownership_transfer', 'org_invitations_create', 'org_audit_log_list']) expect(names).toContain(name);
    // the generated params are the routes' own for most of them
    expect(matrixRoutes.filter((r) => request(r).valid).length).toBeGreaterThan(matrixRoutes.length * 0.8);
  });
});

const cases = matrixRoutes.flatMap((route) => roles.map((role) => ({ route, role, forbidden: !needed(route).every((c) => roleAllows(role, c)) })));

describe.each(roles)('a session of a %s', (role) => {
  it.each(cases.filter((c) => c.role === role).map((c) => [`${c.forbidden ? 'is refused' : 'may call'} ${c.route.name} (${needed(c.route).join(', ')})`, c] as const))('%s', async (_, { route, forbidden }) => {
    for (const door of doorsOf(route)) {
      const answer = await door.send(route, tokens[role]);
      if (forbidden) expect(answer, `${door.name} ${route.name} as ${role}`).toEqual({ status: 403, code: 'role_forbidden' });
      else expect(answer.code, `${door.name} ${route.name} as ${role}: ${JSON.stringify(answer)}`).not.toBe('role_forbidden');
    }
  });
});

describe('routes that need nothing but reading', () => {
  const readRoutes = routes.filter((r) => (r.access === 'dashboard' || r.access === 'org') && r.operation && needed(r).length === 0);
  it('are never role_forbidden, even to a viewer (GraphQL, where the role is judged before the operation runs)', async () => {
    expect(readRoutes.length).toBeGreaterThan(50);
    for (const route of readRoutes) {
      const answer = await graphql.send(route, tokens.viewer);
      expect(answer.code, route.name).not.toBe('role_forbidden');
    }
  });
});
