// A persisted read sent to /graphql as it is persisted is answered without Yoga's generic machinery
// (graphql/persistedHttp.ts), and must answer exactly as Yoga does: each request here is sent as
// persisted and again with an empty `extensions`, which that path leaves to Yoga, and the two
// answers compared (status, headers, body), for answers with data and every way of failing: no
// key, a bad key, an operation name of another operation, variables that do not coerce or are
// missing, an unknown company, a NUL in a variable, over POST and GET; and the requests' records.
import { print } from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { loadFacts } from '../ingest/load/facts.ts';
import { withinTransaction } from '../ingest/handlers.ts';
import { FactsDocument } from '../catalogue/operations/generated.ts';
import { orgWithKey, startIsolatedService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
const cik = '0000000317';

beforeAll(async () => {
  t = await startIsolatedService(); // the facts loaded are no other suite's to see
  key = (await orgWithKey(t, undefined, 'team')).key;
  const facts: FactRecord[] = [2022, 2023, 2024].map((fy) => ({
    cik, taxonomy: 'us-gaap', tag: 'Revenues', unit: 'USD', value: String(1000 + fy), periodStart: `${fy - 1}-01-01`, periodEnd: `${fy - 1}-12-31`, isInstant: false, fy, fp: 'FY',
    form: '10-K', frame: null, accessionNumber: `${cik}-${String(fy % 100).padStart(2, '0')}-000001`, filedAt: `${fy}-02-01`, dimensions: {}, decimals: '-6',
  }));
  await t.service.services.prisma.$transaction((tx) => loadFacts(withinTransaction(tx), facts, [], 'companyfacts'), { timeout: 60_000 });
});
afterAll(() => t?.close());

/** What differs between any two requests: their ids, dates, and the windows' counts. */
const perRequest = ['date', 'request-id', 'x-request-id', 'traceparent', 'ratelimit', 'ratelimit-remaining', 'ratelimit-reset'];

async function send(params: Record<string, unknown>, headers: Record<string, string>, method: 'GET' | 'POST') {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]));
  const response =
    method === 'GET'
      ? await fetch(`${t.url}/graphql?${query}`, { headers })
      : await fetch(`${t.url}/graphql`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(params) });
  const kept: Record<string, string> = {};
  response.headers.forEach((value, name) => void (perRequest.includes(name) ? undefined : (kept[name] = value)));
  sentIds.push(response.headers.get('request-id')!);
  return { status: response.status, headers: kept, body: JSON.parse((await response.text()).replace(/req_\w+/g, 'req_')) as unknown };
}

const sentIds: string[] = [];

/** What the request's record says of it (resolvers/requestLog.ts), but its id and timing. */
async function recordOf(id: string) {
  const record = await t.service.services.prisma.requestRecord.findUnique({ where: { id } });
  const { orgId, apiKeyId, door, operation, method, path, status, errorCode, meterClass, cost } = record!;
  return { orgId, apiKeyId, door, operation, method, path, status, errorCode, meterClass, cost };
}

const query = print(FactsDocument);
const cases: [string, Record<string, unknown>][] = [
  ['data', { query, variables: { cik, tag: 'Revenues', form: '10-K', limit: 2 } }],
  ['data again, kept', { query, variables: { cik, tag: 'Revenues', form: '10-K', limit: 2 } }],
  ['named', { query, operationName: 'Facts', variables: { cik, tag: 'Revenues' } }],
  ['another operation name', { query, operationName: 'Other', variables: { cik, tag: 'Revenues' } }],
  ['a variable that does not coerce', { query, variables: { cik, tag: 'Revenues', limit: 'many' } }],
  ['a required variable missing', { query, variables: { cik } }],
  ['no variables', { query }],
  ['an unknown company', { query, variables: { cik: '0000000001', tag: 'Revenues' } }],
  ['a NUL in a variable', { query, variables: { cik, tag: 'Reve\u0000nues' } }],
];

it('answers a persisted read as Yoga does, whoever asks and however it fails', async () => {
  const callers: [string, Record<string, string>, 'GET' | 'POST'][] = [
    ['key', { 'x-api-key': key }, 'POST'],
    ['key, Accept: application/json', { 'x-api-key': key, accept: 'application/json' }, 'POST'],
    ['no key', {}, 'POST'],
    ['a bad key', { 'x-api-key': 'idsk_not_a_key' }, 'POST'],
    ['key, GET', { 'x-api-key': key }, 'GET'],
    ['no key, GET', {}, 'GET'],
  ];
  for (const [name, params] of cases) {
    for (const [caller, headers, method] of callers) {
      const fast = await send(params, headers, method);
      const yoga = await send({ ...params, extensions: {} }, headers, method);
      expect(fast, `${name}, ${caller}`).toEqual(yoga);
    }
  }
  // and the requests' records alike, pair by pair
  await t.service.services.requestLog.flush();
  for (let i = 0; i < sentIds.length; i += 2) expect(await recordOf(sentIds[i]!), `request ${i}`).toEqual(await recordOf(sentIds[i + 1]!));
  // the answers compared include data, and the errors of each kind
  const statuses = new Set<number>();
  for (const [, params] of cases) statuses.add((await send(params, { 'x-api-key': key }, 'POST')).status);
  expect([...statuses].sort()).toEqual([200, 400, 404]);
});
