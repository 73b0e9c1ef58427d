// Every door refuses the same way, because every door runs the same request pipeline
// (catalogue/pipeline.ts). Generated from the route table: each route an API key may call, through
// each door it is exposed on (REST; the MCP tool of a route marked `mcp`; the MCP resource that
// reads it; /graphql with the route's persisted operation), is refused
//   (a) 429 rate_limit_exceeded when its meter's quota window is full,
//   (b) 402 with the same billing code when nothing pays for it (a payg organization with no credit),
//   (c) 403 insufficient_scope when a `read` key calls a route that changes the organization.
// A door that skipped a step (as MCP resources once did: unmetered and unbilled) fails here.
import fc from 'fast-check';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routes } from '../../catalogue/routes/index.ts';
import { operationMeter } from '../../graphql/meters.ts';
import { schema } from '../../schema/index.ts';
import { validate } from '../../catalogue/pipeline.ts';
import type { Route } from '../../catalogue/route.ts';
import { meterClasses } from '../../prisma/seed.ts';
import { setPlan } from '../../resolvers/billing/account.ts';
import { quotaRefusalCode } from '../../resolvers/metering.ts';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { resourceRoutes } from '../../rest/mcp/resources.ts';
import { call, orgWithKey, startTestService, type Answer, type TestService } from '../harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ billing: { enforced: true, settleMs: 100 } });
});
afterAll(() => t?.close());

// ---- valid params for every route, generated from its own schemas -------------------------

type JsonSchema = Record<string, any>;

/** A value the schema accepts: the first enum value, the smallest number, a string of its pattern. */
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
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'uri') return 'https://example.com/hook';
      if (schema.format === 'email') return 'ops@example.com';
      if (schema.format === 'date') return '2024-01-02';
      if (schema.format === 'date-time') return '2024-01-02T00:00:00Z';
      if (schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return '2024-01-02';
      if (schema.pattern) return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: 7 })[0];
      return 'A'.repeat(Math.max(schema.minLength ?? 1, 2)).slice(0, schema.maxLength ?? 200);
    }
    default:
      return 'A';
  }
}

function requiredSample(schema: z.ZodType | undefined): Record<string, unknown> {
  if (!schema) return {};
  return sampleOf(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) as Record<string, unknown>;
}

/**
 * Params the route accepts (a refusal by quota or billing comes only after validation). The
 * generated body is checked against the route's own validation, so a sample that does not pass
 * names the route and its issue instead of passing for a refusal.
 */
function sampleParams(route: Route) {
  const { view: _view, ...query } = requiredSample(route.params.query) as Record<string, string>;
  const refined = refinedParams[route.name] ?? {};
  // a company read needs one of ticker or cik, which JSON Schema cannot say of query parameters
  const company: Record<string, string> = !refined.query && route.params.query && 'ticker' in route.params.query.shape ? { ticker: 'AAPL' } : {};
  const raw = {
    path: Object.fromEntries(Object.entries(requiredSample(route.params.path)).map(([k, v]) => [k, String(v)])),
    query: { ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), ...company, ...refined.query },
    body: route.params.body ? (refined.wholeBody ?? { ...requiredSample(route.params.body), ...refined.body }) : undefined,
  };
  try {
    validate(route, raw);
  } catch (error) {
    throw new Error(`the sample params of ${route.name} do not validate: ${JSON.stringify(raw)} ${JSON.stringify((error as { options?: unknown }).options)}`);
  }
  return raw;
}

/** What a route's schema refines beyond its JSON Schema (one field of several, a relation between two), given by hand; `wholeBody` replaces the generated one (a choice of fields). */
const refinedParams: Record<string, { query?: Record<string, string>; body?: Record<string, unknown>; wholeBody?: Record<string, unknown> }> = {
  entities_resolve: { query: { cik: '0000320193' } },
  billing_quote: { wholeBody: { meterClass: 'data_read', calls: 1000 } },
  portfolio_attribution: { body: { from: '2024-01-02', to: '2024-06-28' } },
};

// ---- the doors ----------------------------------------------------------------------------

interface Refusal {
  status: number;
  code: string;
}

type Door = { name: string; send(route: Route, key: string): Promise<Refusal> };

const restDoor: Door = {
  name: 'REST',
  async send(route, key) {
    const { path, query, body } = sampleParams(route);
    const url = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name]!)) + (Object.keys(query).length ? `?${new URLSearchParams(query)}` : '');
    const answer = await call(t, route.method, url, { key, ...(body !== undefined ? { body } : {}) });
    return { status: answer.status, code: answer.body?.code };
  },
};

async function mcp(key: string, method: string, params: Record<string, unknown>): Promise<Refusal> {
  const answer = await call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method, params } });
  return { status: answer.status, code: answer.body?.error?.data?.code ?? mcpResultCode(answer) };
}

/** A tool that ran answers 200 with a result, not a refusal: say so in the failure. */
function mcpResultCode(answer: Answer): string {
  return answer.body?.result ? `answered: ${JSON.stringify(answer.body.result).slice(0, 200)}` : JSON.stringify(answer.body).slice(0, 200);
}

const mcpToolDoor: Door = {
  name: 'MCP tool',
  send(route, key) {
    const { path, query, body } = sampleParams(route);
    return mcp(key, 'tools/call', { name: route.name, arguments: { ...path, ...query, ...((body as object) ?? {}) } });
  },
};

/** The resource URI of a route's template, with its params as the template names them. */
function resourceUri(uriTemplate: string): string {
  const values: Record<string, string> = { cik: '0000320193', accession_number: '0000320193-24-000123', section_key: 'item_1a' };
  return uriTemplate.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
}

const mcpResourceDoor: Door = {
  name: 'MCP resource',
  send(route, key) {
    const { uriTemplate } = resourceRoutes.find((r) => r.route === route.name)!;
    return mcp(key, 'resources/read', { uri: resourceUri(uriTemplate) });
  },
};

/** GraphQL prices the operation in cost units (README "GraphQL cost") on its own meter, `graphql`. */
const graphqlDoor: Door = {
  name: 'GraphQL',
  async send(route, key) {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: print(route.operation!) } });
    return { status: answer.status, code: answer.body?.errors?.[0]?.extensions?.code ?? JSON.stringify(answer.body).slice(0, 200) };
  },
};

/** The doors a route is exposed on. */
function doorsOf(route: Route): Door[] {
  return [
    restDoor,
    ...(route.mcp ? [mcpToolDoor] : []),
    ...(resourceRoutes.some((r) => r.route === route.name) ? [mcpResourceDoor] : []),
    ...(route.operation ? [graphqlDoor] : []),
  ];
}

/** What an API key may call: every route with a credential, except the dashboard's own and the operators'. */
const keyRoutes = routes.filter((r) => (r.access === 'authenticated' || r.access === 'org') && !r.capabilities?.includes('operator'));

/** The class a door charges for a route: over GraphQL, its operation's (the account's own fields are the platform class there too). */
const meterOf = (route: Route, door: Door) => (door === graphqlDoor ? operationMeter(schema, route.operation!, undefined, 1).meterClass : route.meter!);

/** The classes with a price (the seeded rates): the ones billing can refuse. */
const priced = new Set(meterClasses.filter((m) => m.ratePer1000CallsCents > 0).map((m) => m.key));

// ---- (a) the quota window is full -----------------------------------------------------------

describe('a full quota window is 429 rate_limit_exceeded at every door', () => {
  let key: string;
  beforeAll(async () => {
    const org = await orgWithKey(t);
    // a plan that includes every class, so that the only refusal is the window
    await setPlan(t.service.services, org.orgId, 'team', 'active');
    // A day window per class, filled: the largest operation GraphQL may run fits in the graphql one.
    const limits: Record<string, number> = { platform: 1, data_read: 1, analytics: 1, render: 1, ai_query: 1, graphql: t.service.services.config.graphqlMaxCost };
    for (const [meterClass, limit] of Object.entries(limits)) {
      await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass, period: 'day', limit } });
      await t.service.services.limiter.consume(`${org.orgId}:${meterClass}`, [{ period: 'day', limit }], 'open', limit);
    }
    t.service.services.cache.forgetOrg(org.orgId);
    key = org.key;
  });

  const cases = keyRoutes.flatMap((route) => doorsOf(route).map((door) => ({ route, door })));
  it.each(cases.map((c) => [`${c.door.name} ${c.route.name}`, c] as const))('%s', async (_, { route, door }) => {
    // a class with a window of its own (render) keeps its own code at every door
    const code = quotaRefusalCode(meterOf(route, door));
    expect(await door.send(route, key), `${door.name} ${route.name} (${meterOf(route, door)})`).toEqual({ status: 429, code: door.name.startsWith('MCP') && code === 'rate_limit_exceeded' ? 'ai_query_quota_exceeded' : code });
  });
});

// ---- (b) billing refuses --------------------------------------------------------------------

describe('a refusal by billing is the same 402 at every door', () => {

  // A price-free class (platform) is always served, so that an organization can see why: only
  // the doors that charge a priced class for the route are refused.
  const cases = keyRoutes.flatMap((route) => doorsOf(route).filter((door) => priced.has(meterOf(route, door))).map((door) => ({ route, door })));
  it.each(cases.map((c) => [`${c.door.name} ${c.route.name}`, c] as const))('%s', async (_, { route, door }) => {
    // Pay as you go, with no credit: every priced class is refused. An organization of its own per
    // case: a refused request still counts in the quota windows, which many would fill.
    const { key } = await orgWithKey(t, undefined, 'payg');
    expect(await door.send(route, key), `${door.name} ${route.name} (${meterOf(route, door)})`).toEqual({ status: 402, code: 'insufficient_credits' });
  });
});

// ---- (c) the key's scope is wrong ------------------------------------------------------------

describe('a read key is 403 insufficient_scope on every route that changes the organization, at every door', () => {
  let key: string;
  beforeAll(async () => {
    const org = await orgWithKey(t);
    const { prisma, bus } = t.service.services;
    key = (await issueApiKey({ prisma, bus }, org.orgId, 'read key', null, undefined, ['read'])).secret;
  });

  const cases = keyRoutes.filter((r) => r.scope === 'organization').flatMap((route) => doorsOf(route).map((door) => ({ route, door })));
  it('covers the routes that need the organization scope', () => expect(cases.length).toBeGreaterThan(10));
  it.each(cases.map((c) => [`${c.door.name} ${c.route.name}`, c] as const))('%s', async (_, { route, door }) => {
    expect(await door.send(route, key), `${door.name} ${route.name}`).toEqual({ status: 403, code: 'insufficient_scope' });
  });
});
