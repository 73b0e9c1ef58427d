// The request log (GET /v1/requests, GraphQL `requests`, the MCP tool requests_list): the
// organization's requests newest first, each filter narrowing to exactly its records, cursor
// pages that together hold every record once, bad parameters refused with the envelope, and
// another organization's key or session never seeing any of them, at every door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from './harness.ts';

let t: TestService;
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let other: Awaited<ReturnType<typeof orgWithKey>>;
let second: { id: string; key: string };
let acmeSession: string;
/** ids of acme's requests made in setup, by what they were */
const made: Record<string, string[]> = {};
/** every request of the setup was answered before this: reads bounded by it see exactly those */
let until: string;

interface Item {
  id: string;
  createdAt: string;
  door: string;
  method: string;
  path: string;
  operation: string | null;
  status: number;
  errorCode: string | null;
  meterClass: string | null;
  cost: number | null;
  durationMs: number;
  apiKey: { id: string; name: string; hint: string } | null;
}

async function remember(what: string, answer: Promise<{ status: number; headers: Headers }>, status: number) {
  const done = await answer;
  expect(done.status, what).toBe(status);
  (made[what] ??= []).push(done.headers.get('request-id')!);
}

const list = (query: Record<string, string | number>, key = acme.key) =>
  call(t, 'GET', `/v1/requests?${new URLSearchParams(Object.entries({ to: until, limit: 100, ...query }).map(([k, v]) => [k, String(v)]))}`, { key });

const ids = (items: { id: string }[]) => items.map((i) => i.id);
const sorted = (values: string[]) => [...values].sort();

const gqlRequests = `query Requests($first: Int, $after: String, $last: Int, $before: String, $status: String, $apiKeyId: String, $to: DateTime) {
  requests(first: $first, after: $after, last: $last, before: $before, status: $status, apiKeyId: $apiKeyId, to: $to) {
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    nodes { id status apiKeyId apiKey { id name hint } }
  }
}`;
const gql = (credentials: { key?: string; token?: string }, variables: Record<string, unknown>) => call(t, 'POST', '/graphql', { ...credentials, body: { query: gqlRequests, variables: { to: until, ...variables } } });

const mcpList = (key: string, args: Record<string, unknown>) =>
  call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'requests_list', arguments: { to: until, limit: 100, ...args } } } });

/** every SQL statement the service sent */
const statements: string[] = [];

beforeAll(async () => {
  t = await startTestService({}, { onQuery: (sql) => void statements.push(sql) });
  acme = await orgWithKey(t, 'Request log Acme');
  other = await orgWithKey(t, 'Request log Other');
  const issued = await issueApiKey(t.service.services, acme.orgId, 'second key');
  second = { id: issued.apiKey.id, key: issued.secret };
  acmeSession = await sessionToken(t, acme.orgId, `log.${Date.now()}@example.com`);

  for (let i = 0; i < 3; i++) await remember('me', call(t, 'GET', '/v1/me', { key: acme.key }), 200);
  await remember('refused', call(t, 'GET', '/v1/entities?limit=500', { key: acme.key }), 400);
  await remember('missing', call(t, 'GET', '/v1/diagnostics/requests/req_000000000000000000000000', { key: acme.key }), 404);
  for (let i = 0; i < 2; i++) await remember('limits', call(t, 'GET', '/v1/limits', { key: second.key }), 200);
  await remember('graphql', call(t, 'POST', '/graphql', { key: acme.key, body: { query: 'query WhoAmI { me { kind } }', operationName: 'WhoAmI' } }), 200);
  await remember('session', call(t, 'GET', '/v1/me', { token: acmeSession }), 200);
  await remember('theirs', call(t, 'GET', '/v1/me', { key: other.key }), 200);
  await new Promise((resolve) => setTimeout(resolve, 20));
  until = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
});
afterAll(() => t?.close());

const acmeIds = () => Object.entries(made).flatMap(([what, list]) => (what === 'theirs' ? [] : list));

describe('GET /v1/requests', () => {
  it('lists every request of the organization newest first, with its key', async () => {
    const answer = await list({});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'list', hasMore: false, nextCursor: null });
    const data = answer.body.data as Item[];
    expect(sorted(ids(data))).toEqual(sorted(acmeIds()));
    const order = data.map((r) => [r.createdAt, r.id].join(' '));
    expect(order).toEqual([...order].sort().reverse());

    const me = data.find((r) => r.id === made.me![0])!;
    expect(me).toMatchObject({ object: 'request', door: 'rest', method: 'GET', path: '/v1/me', operation: 'me_get', status: 200, errorCode: null, meterClass: 'platform', cost: 1 });
    expect(me.apiKey).toEqual({ id: acme.keyId, name: 'test key', hint: expect.stringMatching(/.{4}$/) });
    expect(me.durationMs).toBeGreaterThanOrEqual(0);
    expect(data.find((r) => r.id === made.limits![0])!.apiKey).toMatchObject({ id: second.id, name: 'second key' });
    expect(data.find((r) => r.id === made.session![0])!.apiKey).toBeNull();
    expect(data.find((r) => r.id === made.refused![0])).toMatchObject({ status: 400, errorCode: 'invalid_query_parameter' });
    expect(data.find((r) => r.id === made.graphql![0])).toMatchObject({ door: 'graphql', operation: 'WhoAmI', meterClass: 'platform' });
  });

  it('narrows by status class, errors, one code, operation, key, door and time', async () => {
    const only = async (query: Record<string, string>) => {
      const answer = await list(query);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return sorted(ids(answer.body.data));
    };
    const errors = sorted([...made.refused!, ...made.missing!]);
    expect(await only({ status: 'errors' })).toEqual(errors);
    expect(await only({ status: '4xx' })).toEqual(errors);
    expect(await only({ status: '5xx' })).toEqual([]);
    expect(await only({ status: '404' })).toEqual(made.missing);
    expect(await only({ status: '2xx' })).toEqual(sorted([...made.me!, ...made.limits!, ...made.graphql!, ...made.session!]));
    expect(await only({ operation: 'me_get' })).toEqual(sorted([...made.me!, ...made.session!]));
    expect(await only({ operation: 'WhoAmI' })).toEqual(made.graphql);
    expect(await only({ api_key_id: second.id })).toEqual(sorted(made.limits!));
    expect(await only({ api_key_id: acme.keyId, status: 'errors' })).toEqual(errors);
    expect(await only({ door: 'graphql' })).toEqual(made.graphql);
    expect(await only({ door: 'mcp' })).toEqual([]);

    // [from, to): from a record's own time on, and up to (not including) another's
    const all = (await list({})).body.data as Item[];
    const middle = all[Math.floor(all.length / 2)]!;
    const fromMiddle = await only({ from: middle.createdAt });
    expect(fromMiddle).toEqual(sorted(ids(all.filter((r) => r.createdAt >= middle.createdAt))));
    expect(fromMiddle).toContain(middle.id);
    const beforeMiddle = await only({ to: middle.createdAt });
    expect(beforeMiddle).toEqual(sorted(ids(all.filter((r) => r.createdAt < middle.createdAt))));
  });

  it('pages through every record exactly once, in order, by cursor', async () => {
    const whole = ids((await list({})).body.data);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...ids(answer.body.data));
      cursor = answer.body.nextCursor;
      expect(answer.body.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(whole.length / 2));
    expect(seen).toEqual(whole);
  });

  it('refuses bad parameters with the documented 400 envelope', async () => {
    const refused = async (query: Record<string, string | number>, code: string, parameter: string) => {
      const body = expectEnvelope(await list(query), 400, code);
      expect(body.details?.parameter).toBe(parameter);
    };
    await refused({ status: 'bad' }, 'invalid_query_parameter', 'status');
    await refused({ status: '600' }, 'invalid_query_parameter', 'status');
    await refused({ door: 'ftp' }, 'invalid_query_parameter', 'door');
    await refused({ limit: 0 }, 'invalid_query_parameter', 'limit');
    await refused({ limit: 101 }, 'invalid_query_parameter', 'limit');
    await refused({ api_key_id: 'not-a-key' }, 'invalid_query_parameter', 'api_key_id');
    await refused({ from: 'yesterday' }, 'invalid_request_parameter', 'from');
    await refused({ cursor: 'bm90LWEtY3Vyc29y' }, 'invalid_query_parameter', 'cursor');
    await refused({ sort: 'asc' }, 'invalid_query_parameter', 'sort');
    await refused({ from: until }, 'invalid_request_parameter', 'from');
  });
});

describe('GraphQL requests', () => {
  it('pages forward with first/after and back with last/before, newest first both ways', async () => {
    const whole = ids((await list({})).body.data);
    const first = (await gql({ key: acme.key }, { first: 3 })).body.data.requests;
    expect(ids(first.nodes)).toEqual(whole.slice(0, 3));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = (await gql({ key: acme.key }, { first: 3, after: first.pageInfo.endCursor })).body.data.requests;
    expect(ids(next.nodes)).toEqual(whole.slice(3, 6));
    expect(next.pageInfo.hasPreviousPage).toBe(true);
    const back = (await gql({ key: acme.key }, { last: 3, before: next.pageInfo.startCursor })).body.data.requests;
    expect(ids(back.nodes)).toEqual(whole.slice(0, 3));
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const mixed = await gql({ key: acme.key }, { first: 3, before: next.pageInfo.startCursor });
    expect(mixed.body.errors[0].extensions.code).toBe('invalid_query_parameter');
    const badStatus = await gql({ key: acme.key }, { first: 3, status: 'teapots' });
    expect(badStatus.body.errors[0].extensions).toMatchObject({ code: 'invalid_query_parameter', details: { parameter: 'status' } });
  });

  it('is open to a viewer and names each request\'s key, the session\'s none', async () => {
    const viewer = await sessionToken(t, acme.orgId, `viewer.${Date.now()}@example.com`, false, 'viewer');
    const answer = await gql({ token: viewer }, { first: 100 });
    expect(answer.body.errors).toBeUndefined();
    // reading the account's own log is the free platform class, as at the REST door
    expect(answer.headers.get('service-meter-class')).toBe('platform');
    const nodes = answer.body.data.requests.nodes as { id: string; apiKeyId: string | null; apiKey: { id: string } | null }[];
    expect(sorted(ids(nodes))).toEqual(sorted(acmeIds()));
    for (const node of nodes) expect(node.apiKey?.id ?? null).toBe(node.apiKeyId);
    expect(nodes.find((n) => n.id === made.session![0])).toMatchObject({ apiKeyId: null, apiKey: null });
  });

  it('reads the keys of a whole page in one query, however many rows name them', async () => {
    const viewer = await sessionToken(t, acme.orgId, `counting.${Date.now()}@example.com`, false, 'viewer');
    const keyReads = async (first: number) => {
      statements.length = 0;
      const answer = await gql({ token: viewer }, { first });
      expect(answer.body.data.requests.nodes.filter((n: { apiKey: unknown }) => n.apiKey).length).toBeGreaterThanOrEqual(2);
      return statements.filter((sql) => /SELECT[\s\S]*FROM "public"\."ApiKey"/.test(sql)).length;
    };
    expect(await keyReads(3)).toBe(1);
    expect(await keyReads(100)).toBe(1);
  });
});

describe('another organization', () => {
  it('sees none of these records at any door, even naming their key', async () => {
    const mine = new Set(acmeIds());
    const rest = await list({}, other.key);
    expect(rest.status).toBe(200);
    expect(ids(rest.body.data)).toEqual(made.theirs);
    expect((await list({ api_key_id: acme.keyId }, other.key)).body.data).toEqual([]);

    const otherSession = await sessionToken(t, other.orgId, `other.${Date.now()}@example.com`);
    for (const credentials of [{ key: other.key }, { token: otherSession }]) {
      const answer = await gql(credentials, { first: 100 });
      expect(answer.body.errors).toBeUndefined();
      expect(ids(answer.body.data.requests.nodes)).toEqual(made.theirs);
      expect((await gql(credentials, { first: 100, apiKeyId: acme.keyId })).body.data.requests.nodes).toEqual([]);
    }

    const mcp = await mcpList(other.key, {});
    expect(mcp.status).toBe(200);
    const content = mcp.body.result.structuredContent as { data: { id: string }[] };
    expect(ids(content.data).filter((id) => mine.has(id))).toEqual([]);
    expect(ids(content.data)).toEqual(made.theirs);
    expect((await mcpList(acme.key, { api_key_id: second.id })).body.result.structuredContent.data.map((r: { id: string }) => r.id).sort()).toEqual(sorted(made.limits!));

    // a cursor of acme's pages the other organization's records only
    const cursor = (await list({ limit: 1 })).body.nextCursor as string;
    expect(ids((await list({ cursor }, other.key)).body.data).filter((id: string) => mine.has(id))).toEqual([]);
  });

  it('without a credential, nothing', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/requests'), 401, 'missing_api_key');
    const anonymous = await call(t, 'POST', '/graphql', { body: { query: gqlRequests, variables: {} } });
    expect(anonymous.body.errors[0].extensions.code).toBe('missing_api_key');
  });
});
