// GraphQL operations are priced before they run: refused past the documented limits with a 400
// the client can act on, charged to the graphql meter by their cost, and told their cost.
import { getIntrospectionQuery, parse } from 'graphql';
import { operationMeter } from '../graphql/meters.ts';
import { schema } from '../schema/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgWithKey, startTestService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startTestService();
  ({ key } = await orgWithKey(t, 'GraphQL cost', 'team'));
});
afterAll(() => t?.close());

const graphql = (query: string, options: { key?: string; variables?: Record<string, unknown> } = {}) => call(t, 'POST', '/graphql', { key: options.key ?? key, body: { query, variables: options.variables } });

function refusal(answer: Awaited<ReturnType<typeof graphql>>, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  const [error] = answer.body.errors;
  expect(error.extensions.code).toBe(code);
  expect(answer.body.data ?? null).toBeNull();
  return error.extensions.details;
}

describe('refused before they run', () => {
  it('60 aliases of a 40-period quarterly statement: query_cost_exceeded, with the cost and the limit', async () => {
    const attack = `{ ${Array.from({ length: 60 }, (_, i) => `s${i}: statements(ticker: "AAPL", period: "quarterly", limit: 40) { periods { periodEnd } }`).join(' ')} }`;
    const details = refusal(await graphql(attack), 'query_cost_exceeded');
    expect(details.limit).toBe(10_000);
    expect(details.cost).toBeGreaterThan(60_000);
  });

  it('a large page given by a variable counts as large', async () => {
    const lines = '{ key label value unit derived fact { tag value accessionNumber } }';
    const query = `query($n: Int) { ${Array.from({ length: 5 }, (_, i) => `s${i}: statements(ticker: "AAPL", limit: $n) { periods { periodEnd income ${lines} balanceSheet ${lines} cashFlow ${lines} } }`).join(' ')} }`;
    refusal(await graphql(query, { variables: { n: 40 } }), 'query_cost_exceeded');
    const small = await graphql(query, { variables: { n: 4 } });
    expect(small.body.errors?.[0]?.extensions?.code).not.toBe('query_cost_exceeded');
    expect(small.body.extensions.cost.requested).toBeLessThan(10_000);
  });

  it('deep nesting: query_depth_exceeded', async () => {
    let inner = 'cik';
    for (let i = 0; i < 8; i++) inner = `filings(first: 1) { nodes { entity { ${inner} } } }`;
    const details = refusal(await graphql(`{ entities(limit: 1) { items { ${inner} } } }`), 'query_depth_exceeded');
    expect(details.limit).toBe(15);
  });

  it('introspection is measured too: a deep __schema query is refused, the standard one (GraphiQL\'s) is served', async () => {
    let ofType = 'name';
    for (let i = 0; i < 22; i++) ofType = `ofType { ${ofType} }`;
    const details = refusal(await graphql(`{ __schema { types { fields { type { ${ofType} } } } } }`), 'query_depth_exceeded');
    expect(details.limit).toBe(20);
    const standard = await graphql(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }));
    expect(standard.status).toBe(200);
    expect(standard.body.data.__schema.queryType.name).toBe('Query');
    expect(standard.body.extensions.cost.requested).toBeGreaterThan(100); // its fields are priced like any others
  });

  it('many aliases: query_aliases_exceeded', async () => {
    refusal(await graphql(`{ ${Array.from({ length: 31 }, (_, i) => `m${i}: me { kind }`).join(' ')} }`), 'query_aliases_exceeded');
  });

  it('a huge document: query_tokens_exceeded', async () => {
    refusal(await graphql(`{ me { ${'kind '.repeat(6000)} } }`), 'query_tokens_exceeded');
  });

  it('a batch of operations: batching_not_supported', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: [{ query: '{ me { kind } }' }, { query: '{ me { kind } }' }] });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('batching_not_supported');
  });
});

describe('charged by cost', () => {
  it('reports its cost in extensions.cost and Service-Token-Count', async () => {
    const answer = await graphql('{ entities(query: "Apple", limit: 5) { total items { cik name } } }');
    expect(answer.status).toBe(200);
    const cost = answer.body.extensions.cost;
    expect(cost).toEqual({ requested: expect.any(Number), limit: 10_000 });
    expect(cost.requested).toBeGreaterThan(1);
    expect(answer.headers.get('service-token-count')).toBe(String(cost.requested));
  });

  it('counts the cost against the graphql quota, not one request', async () => {
    const org = await orgWithKey(t);
    const query = '{ entities(query: "Apple", limit: 5) { total items { cik name } } }';
    const { requested } = (await graphql(query, { key: org.key })).body.extensions.cost;
    // room for two more of these today, not for a third
    await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'graphql', period: 'day', limit: 3 * requested } });
    t.service.services.cache.forgetOrg(org.orgId);
    expect((await graphql(query, { key: org.key })).status).toBe(200);
    expect((await graphql(query, { key: org.key })).status).toBe(200);
    const third = await graphql(query, { key: org.key });
    expect(third.status).toBe(429);
    expect(third.body.errors[0].extensions.code).toBe('rate_limit_exceeded');
  });

  it('a REST read runs the same operation without touching the graphql meter', async () => {
    const org = await orgWithKey(t);
    await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'graphql', period: 'day', limit: 0, allowed: false } });
    expect((await graphql('{ entities(query: "Apple", limit: 1) { total } }', { key: org.key })).status).toBe(402);
    expect((await call(t, 'GET', '/v1/entities?q=Apple&limit=1', { key: org.key })).status).toBe(200);
  });
});

describe('the account itself is the platform class', () => {
  it('charges an operation of account fields only (me, limits, billing, members) one free platform unit, not its cost', async () => {
    const org = await orgWithKey(t);
    // the graphql class is not even in the plan: the account still answers
    await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'graphql', period: 'day', limit: 0, allowed: false } });
    t.service.services.cache.forgetOrg(org.orgId);
    const answer = await graphql('{ me { kind organization { id } } limits { quotas { meterClass } } billing { billingState } members(first: 5) { nodes { role } } }', { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('service-meter-class')).toBe('platform');
    expect(answer.headers.get('service-token-count')).toBe('1');
    expect(answer.headers.get('service-estimated-cost')).toBe('0');
    expect(answer.body.extensions.cost.requested).toBeGreaterThan(1);
  });

  it('counts the live feeds of the account\'s own keys and streams as platform, and a feed of filings as graphql', () => {
    const meterOf = (source: string) => operationMeter(schema, parse(source), undefined, 7);
    expect(meterOf('subscription { keyAdded { eventId } }')).toEqual({ meterClass: 'platform', units: 1 });
    expect(meterOf('subscription { filingAdded(ticker: "AAPL") { eventId } }')).toEqual({ meterClass: 'graphql', units: 7 });
    expect(meterOf('{ __schema { queryType { name } } }')).toEqual({ meterClass: 'graphql', units: 7 });
  });

  it('charges an operation that mixes in one data field as graphql, by its whole cost', async () => {
    const org = await orgWithKey(t);
    const answer = await graphql('{ me { kind } entities(query: "Apple", limit: 1) { total } }', { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('service-meter-class')).toBe('graphql');
    expect(answer.headers.get('service-token-count')).toBe(String(answer.body.extensions.cost.requested));
  });
});
