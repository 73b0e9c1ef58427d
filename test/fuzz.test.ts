// Bad input stays harmless, for every route of the table, every MCP tool and the GraphQL door:
// generated bad path and query parameters, bodies, content types and credentials. Each answer is a
// 4xx in the error envelope (SPEC 2.1; 7.3 for MCP) or a success, never a 5xx, never a stack trace
// or SQL, and another organization's data is left as it was. Driven by the route table, so a new
// route is fuzzed as soon as it exists. FUZZ_SEED replays a run; FUZZ_RUNS scales it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../catalogue/routes/index.ts';
import type { Route } from '../catalogue/route.ts';
import { errorStatus } from '../core/errors.ts';
import { call, orgWithKey, sessionToken, startTestService, type Answer, type TestService } from './harness.ts';
import { badScalar, body, pathFor, queryFor, unknownParam } from './support/fuzzRequests.ts';

const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const runs = Number(process.env.FUZZ_RUNS ?? 300);
let cases = 0;

let t: TestService;
let attacker: { key: string; token: string; orgId: string };
let victim: { key: string; keyId: string; orgId: string };

beforeAll(async () => {
  t = await startTestService();
  const a = await orgWithKey(t, 'Fuzzer');
  attacker = { key: a.key, orgId: a.orgId, token: await sessionToken(t, a.orgId) };
  victim = await orgWithKey(t, 'Bystander');
  console.log(`fuzz seed ${seed} (FUZZ_SEED=${seed} replays this run), ${runs} runs per property`);
});
afterAll(async () => {
  console.log(`fuzz: ${cases} requests sent`);
  await t?.close();
});

/** What another organization holds, to compare before and after. */
async function victimState() {
  const { prisma } = t.service.services;
  const [org, keys, quotas, events] = await Promise.all([
    prisma.organization.findUnique({ where: { id: victim.orgId } }),
    prisma.apiKey.findMany({ where: { orgId: victim.orgId }, orderBy: { id: 'asc' } }),
    prisma.orgQuota.findMany({ where: { orgId: victim.orgId } }),
    prisma.event.count({ where: { orgId: victim.orgId } }),
  ]);
  return JSON.stringify({ org, keys: keys.map(({ lastUsedAt: _l, ...k }) => k), quotas, events });
}

const leaks = /\bat .+\.(ts|js|mjs):\d+|\b(SELECT|INSERT|UPDATE|DELETE)\s.+\b(FROM|INTO|SET)\b|prisma\.|PrismaClient|invocation:|node_modules/i;

/** A 5xx is a defect unless the route documents it as its own answer (e.g. 503 when a dependency is not configured). */
function harmless(answer: Answer, what: string, route?: Route) {
  cases++;
  const documented = (route?.errors ?? []).filter((code) => errorStatus[code as keyof typeof errorStatus] >= 500);
  if (!(answer.status >= 500 && documented.includes(answer.body?.code))) {
    expect(answer.status, `${what} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`).toBeLessThan(500);
  }
  expect(JSON.stringify(answer.body) ?? '', what).not.toMatch(leaks);
  if (answer.status >= 400 && !what.startsWith('POST /graphql') && !what.startsWith('POST /mcp')) {
    expect(answer.body, what).toMatchObject({ object: 'error', code: expect.any(String), message: expect.any(String), requestId: answer.headers.get('request-id') });
  }
}

const credentials = fc.constantFrom<'key' | 'session' | 'none' | 'foreign' | 'garbage' | 'both'>('key', 'session', 'none', 'foreign', 'garbage', 'both');

function headersFor(kind: 'key' | 'session' | 'none' | 'foreign' | 'garbage' | 'both'): Record<string, string> {
  switch (kind) {
    case 'key':
      return { 'x-api-key': attacker.key };
    case 'session':
      return { authorization: `Bearer ${attacker.token}` };
    case 'foreign':
      return { 'x-api-key': `idsk_${'A'.repeat(40)}` };
    case 'garbage':
      return { 'x-api-key': 'not a key', authorization: 'Basic Zm9vOmJhcg==' };
    case 'both':
      return { 'x-api-key': attacker.key, authorization: `Bearer ${attacker.token}` };
    default:
      return {};
  }
}

describe('every route of the table', () => {
  it('answers bad parameters, bodies and credentials with a 4xx envelope, and touches no other organization', async () => {
    const before = await victimState();
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(pathFor(route), queryFor(route), credentials, body, async (path, query, who, payload) => {
          const withBody = route.method !== 'GET' && route.method !== 'DELETE';
          const answer = await call(t, route.method, `${path}${query ? `?${query}` : ''}`, {
            headers: { ...headersFor(who), ...(withBody ? { 'content-type': payload.type } : {}) },
            ...(withBody ? { rawBody: payload.raw } : {}),
          });
          harmless(answer, `${route.method} ${path}?${query} (${who})`, route);
        }),
        { seed, numRuns: Math.ceil(runs / 4), endOnFailure: true },
      );
    }
    // Ids of another organization are not found, whoever asks. Asked by an organization that has
    // sent nothing yet: the fuzzer's own may be past its rate limit by now, and a 429 proves nothing.
    const asker = await orgWithKey(t, 'Fuzzer, second');
    const foreign = await call(t, 'DELETE', `/v1/api_keys/${victim.keyId}`, { token: await sessionToken(t, asker.orgId) });
    harmless(foreign, 'DELETE another organization\'s key');
    expect(foreign.status).toBe(404);
    expect(await victimState()).toBe(before);
    // its length grows with the route table: 75 cases per route
  }, 240_000);
});

describe('the MCP door', () => {
  const tools = routes.filter((r) => r.mcp);
  const rpc = (message: unknown, headers: Record<string, string> = { 'x-api-key': attacker.key }) =>
    call(t, 'POST', '/mcp', { rawBody: typeof message === 'string' ? message : JSON.stringify(message), headers: { accept: 'application/json, text/event-stream', ...headers } });

  it('answers bad tool calls and malformed messages with JSON-RPC errors, never a 5xx', async () => {
    const argumentsArb = fc.dictionary(fc.oneof(fc.constantFrom('ticker', 'cik', 'tag', 'limit', 'cursor', 'filed_from', 'filed_to', 'identifier', 'form', 'period', 'accession_number', 'key'), unknownParam), fc.oneof(badScalar, fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tools.map((r) => r.name), 'no_such_tool'), fc.oneof(argumentsArb, fc.jsonValue({ maxDepth: 2 })), credentials, async (name, args, who) => {
        const answer = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, headersFor(who));
        harmless(answer, `POST /mcp tools/call ${name} ${JSON.stringify(args).slice(0, 100)} (${who})`);
        if (answer.status >= 400) expect(answer.body, name).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
      }),
      { seed, numRuns: runs },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v))), async (raw) => {
        harmless(await rpc(raw), `POST /mcp ${raw.slice(0, 80)}`);
      }),
      { seed, numRuns: runs / 2 },
    );
  });
});

describe('the GraphQL door', () => {
  const graphql = (raw: string, type = 'application/json') => call(t, 'POST', '/graphql', { rawBody: raw, headers: { 'x-api-key': attacker.key, 'content-type': type } });
  const fieldName = fc.constantFrom('me', 'organization', 'limits', 'facts', 'statements', 'segments', 'entities', 'filings', 'forms', 'events', 'resolveEntity', 'filing', '__schema', '__typename');

  it('answers malformed, hostile and oversized documents with errors, never a 5xx', async () => {
    const document = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.tuple(fieldName, fc.dictionary(fc.constantFrom('ticker', 'cik', 'tag', 'limit', 'first', 'after', 'query', 'identifier', 'type', 'family'), fc.oneof(fc.integer().map(String), fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)), fc.constantFrom('null', 'true', '[1]', '{a: 1}', '$v')), { maxKeys: 3 })).map(
        ([field, args]) => `{ ${field}${Object.keys(args).length ? `(${Object.entries(args).map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''} { __typename } }`,
      ),
      fc.constant(`{ ${'me { kind } '.repeat(20_000)} }`),
      fc.constant('{'.repeat(5000)),
    );
    const variables = fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }), fc.dictionary(fc.constantFrom('v', 'n', 'ticker'), fc.jsonValue({ maxDepth: 1 })));
    await fc.assert(
      fc.asyncProperty(document, variables, async (query, vars) => {
        harmless(await graphql(JSON.stringify({ query, variables: vars })), `POST /graphql ${query.slice(0, 80)}`);
      }),
      { seed, numRuns: runs },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v))), fc.constantFrom('application/json', 'text/plain', 'application/graphql', 'application/x-www-form-urlencoded'), async (raw, type) => {
        harmless(await graphql(raw, type), `POST /graphql raw ${type} ${raw.slice(0, 80)}`);
      }),
      { seed, numRuns: runs / 2 },
    );
    // a bad variable value of a declared type
    harmless(await graphql(JSON.stringify({ query: 'query($n: Int) { entities(limit: $n) { total } }', variables: { n: 'many' } })), 'POST /graphql bad variable');
    harmless(await graphql(JSON.stringify({ query: 'query($d: Date) { filings(filedFrom: $d, first: 1) { totalCount } }', variables: { d: '2024-13-45' } })), 'POST /graphql bad date variable');
  });
});
