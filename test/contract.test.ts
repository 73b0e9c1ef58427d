// The contract is exactly as strict as the service. Every answer to the requests below is checked
// against the OpenAPI document the service serves: its status is one the operation documents, its
// documented headers are there and match, and its body matches the documented response (a 2xx its
// schema, a 4xx or 5xx the error envelope). And the other way: a request the document calls valid
// is not refused as malformed. The requests: every undocumented method on every documented path,
// one valid request per GET route of the table, and the fuzz suite's requests under a valid
// credential (test/support/fuzzRequests.ts; FUZZ_SEED replays another run, CONTRACT_RUNS scales it).
import { request } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredOneOf } from '../catalogue/dataParams.ts';
import type { Route } from '../catalogue/route.ts';
import { routes } from '../catalogue/routes/index.ts';
import { runIngest } from '../ingest/run.ts';
import { storeArtifact } from '../resolvers/analytics/artifacts.ts';
import type { Context } from '../resolvers/context.ts';
import { signUnsubscribeToken } from '../subscriptions/email/unsubscribeToken.ts';
import { fixtureCorpus, fixtureSource } from './data/fixtureSource.ts';
import { call, orgWithKey, scratchDatabase, sessionToken, startTestService, type TestService } from './harness.ts';
import { body as fuzzBody, pathFor, queryFor } from './support/fuzzRequests.ts';

const seed = Number(process.env.FUZZ_SEED ?? 20261126);
const runs = Number(process.env.CONTRACT_RUNS ?? 3);

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let org: { orgId: string; key: string };
let token: string;
let contract: any;
let ajv: Ajv2020;

/**
 * Values of path and query parameters a valid request gives, by name; beforeAll adds the ids of
 * what it makes. An id parameter not named here gets one of the shape its schema names.
 */
const examples: Record<string, string> = {
  accession_number: '0000320193-24-000123',
  accessionNumber: '0000320193-24-000123',
  offering_id: '0000320193-24-000123',
  section_key: 'item_1a',
  series_id: 'S000012000',
  event_id: `dil_${'0'.repeat(32)}`,
  situation_id: `sit_0000320193_${'0'.repeat(32)}`,
  payment_method_id: 'pm_none',
  ticker: 'AAPL',
  cik: '320193',
  identifier: 'AAPL',
  manager_cik: '1',
  crd: '108477',
  tag: 'Revenues',
  q: 'Apple',
  model: 'ff3',
};

beforeAll(async () => {
  database = await scratchDatabase(); // its own ingest state, apart from other suites'
  t = await startTestService({ database: database.target, recordRequests: false });
  // a plan whose windows the requests below do not fill: a 429 would check nothing of the shapes
  org = await orgWithKey(t, 'Contract', 'enterprise');
  token = await sessionToken(t, org.orgId);
  await runIngest(t.service.services, fixtureSource(fixtureCorpus));
  contract = (await call(t, 'GET', '/openapi/sec-api.v1.json')).body;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(contract, 'contract');

  const made = async (path: string, body: unknown) => {
    const answer = await call(t, 'POST', path, { key: org.key, body });
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  };
  examples.webhook_id = (await made('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/contract', eventTypes: ['webhook.test'] })).id;
  examples.monitor_id = (await made('/v1/monitors', { name: 'contract', query: { route: '/v1/filings', params: { cik: '320193' } } })).id;
  examples.stream_id = (await made('/v1/stream_subscriptions', {})).id;
  // an unsubscribe link of the monitor, signed as the service signs its digests' links
  examples.token = signUnsubscribeToken(t.service.services.email.unsubscribeKey, { monitorId: examples.monitor_id, address: 'ops@example.com' });
  examples.request_id = (await call(t, 'GET', '/v1/me', { key: org.key })).headers.get('request-id')!;
  // an artifact as the analytics POSTs store theirs
  const ctx: Context = { ...t.service.services, principal: { kind: 'api_key', apiKeyId: 'contract', orgId: org.orgId, scopes: ['organization'] }, requestId: examples.request_id };
  examples.artifact_id = (
    await storeArtifact(ctx, {
      kind: 'portfolio_risk',
      route: '/v1/portfolio/risk',
      title: 'Portfolio risk',
      request: { holdings: [{ ticker: 'AAPL', weight: 1 }] },
      result: { object: 'portfolio_risk', volatility: 0.19 },
      sources: [],
      model: null,
      window: null,
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

/** Any method, a raw body: fetch refuses TRACE, so node:http sends that one. */
async function send(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  if (method !== 'TRACE') {
    const response = await fetch(`${t.url}${path}`, { method, headers: options.headers, body: options.body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
  return new Promise((resolve, reject) => {
    const sent = request(`${t.url}${path}`, { method, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: res.statusCode!, headers, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction>();

/** The validator of a schema of the document, by its JSON pointer (its $refs resolve within the document). */
function validatorAt(at: string): ValidateFunction {
  let validate = validators.get(at);
  if (!validate) {
    validate = ajv.getSchema(`contract#/${at}`);
    if (!validate) throw new Error(`no schema at ${at}`);
    validators.set(at, validate);
  }
  return validate;
}

const errorsOf = (validate: ValidateFunction) => (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues).slice(0, 80)}` : ''}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}${e.params && 'missingProperty' in e.params ? ` (${e.params.missingProperty})` : ''}`).join('; ');

/**
 * How `reply` departs from the documented response of `method path` for its status: nothing when
 * it is one. The status must be documented; each documented header that is required must be
 * there, and each one present must match its schema; the content type must be documented and the
 * body must match its schema (NDJSON: every line).
 */
function departures(path: string, method: string, reply: Reply): string[] {
  const operationAt = pointer('paths', path, method.toLowerCase());
  const documented = contract.paths[path]?.[method.toLowerCase()];
  if (!documented) return [`${method} ${path} is not in the document`];
  const response = documented.responses[String(reply.status)];
  if (!response) return [`status ${reply.status} is not documented (${reply.text.slice(0, 160)})`];
  const found: string[] = [];
  for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
    const value = reply.headers.get(name);
    if (value === null) {
      if (header.required) found.push(`${reply.status}: required header ${name} is missing`);
      continue;
    }
    const typed = header.schema.type === 'integer' ? (/^-?\d+$/.test(value) ? Number(value) : value) : value;
    const validate = validatorAt(pointer('paths', path, method.toLowerCase(), 'responses', String(reply.status), 'headers', name, 'schema'));
    if (!validate(typed)) found.push(`${reply.status}: header ${name}: ${JSON.stringify(value)} ${errorsOf(validate)}`);
  }
  if (!response.content) {
    if (reply.text) found.push(`${reply.status}: a body where none is documented`);
    return found;
  }
  const type = (reply.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!response.content[type]) return [...found, `${reply.status}: content type ${JSON.stringify(type)} is not documented (${Object.keys(response.content).join(', ')})`];
  const validate = validatorAt(`${operationAt}/${pointer('responses', String(reply.status), 'content', type, 'schema')}`);
  const bodies = type === 'application/x-ndjson' ? reply.text.split('\n').filter(Boolean) : [reply.text];
  for (const text of bodies) {
    let value: unknown = text;
    if (type.endsWith('json')) {
      try {
        value = JSON.parse(text);
      } catch {
        found.push(`${reply.status}: the ${type} body is not JSON: ${text.slice(0, 80)}`);
        continue;
      }
    }
    if (!validate(value)) found.push(`${reply.status}: body: ${errorsOf(validate)}`);
  }
  return found;
}

/** The credential a route takes: none for a public one, a person's session where a key cannot do, else the key. */
function credentialFor(route: Route): Record<string, string> {
  if (route.access === 'public') return {};
  if (route.access === 'dashboard' || route.access === 'session') return { authorization: `Bearer ${token}` };
  return { 'x-api-key': org.key };
}

/** The path with a value for each parameter: an example, else an id of the shape its schema names (`^key_[0-9A-Za-z]{24}$`). */
function fill(path: string) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name in examples) return encodeURIComponent(examples[name]!);
    const pattern = Object.values<any>(contract.paths[path]).flatMap((o) => o.parameters ?? []).find((p) => p.name === name)?.schema?.pattern as string | undefined;
    const id = /^\^(\w+_)\[(?:A-Za-z0-9|0-9A-Za-z)\]\{(?:1,)?(\d+)\}\$$/.exec(pattern ?? '');
    if (!id) throw new Error(`no example value for path parameter ${name}: add one to test/contract.test.ts`);
    return `${id[1]}${'A'.repeat(Math.min(Number(id[2]), 24))}`;
  });
}

/** A value the document accepts for a required query parameter without an example. */
function fromSchema(name: string, schema: any): string {
  if (schema.enum) return String(schema.enum[0]);
  if (schema.format === 'date') return '2024-01-02';
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  throw new Error(`no example value for query parameter ${name}: add one to test/contract.test.ts`);
}

/** The query of a request the document calls valid: its required parameters, and the first of a one-of rule. */
function validQuery(route: Route): Record<string, string> {
  const query: Record<string, string> = {};
  for (const parameter of contract.paths[route.path][route.method.toLowerCase()].parameters ?? []) {
    if (parameter.in === 'query' && parameter.required) query[parameter.name] = examples[parameter.name] ?? fromSchema(parameter.name, parameter.schema);
  }
  const rule = route.params.query && requiredOneOf.get(route.params.query);
  if (rule) query[rule.names[0]!] = examples[rule.names[0]!]!;
  return query;
}

const withQuery = (path: string, query: Record<string, string>) => (Object.keys(query).length ? `${path}?${new URLSearchParams(query)}` : path);

/** Runs `check` over `items`, a few at a time: the service answers one while the next is on its way. */
async function inBatches<T>(items: T[], check: (item: T) => Promise<void>, size = 8) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(check));
}

describe('the OpenAPI document and the service agree', () => {
  it('answers every method a path does not document with 405, Allow listing the methods it does, in the envelope', async () => {
    const problems: string[] = [];
    const asked = Object.entries<Record<string, any>>(contract.paths).flatMap(([path, operations]) => {
      const documented = Object.keys(operations).map((m) => m.toUpperCase());
      return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'].filter((m) => !documented.includes(m)).map((method) => ({ path, method, documented }));
    });
    await inBatches(asked, async ({ path, method, documented }) => {
      const reply = await send(method, fill(path));
      const what = `${method} ${path}`;
      if (reply.status !== 405) return void problems.push(`${what}: ${reply.status}, not 405 (${reply.text.slice(0, 120)})`);
      const allow = (reply.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      if ([...allow].sort().join() !== [...documented].sort().join()) problems.push(`${what}: Allow ${JSON.stringify(reply.headers.get('allow'))}, documented ${documented.join(', ')}`);
      // what a wrong method gets is the 405 the path's operations document: envelope, Allow
      problems.push(...departures(path, documented[0]!, reply).map((p) => `${what}: ${p}`));
    });
    // the GraphQL door is not in this document, but answers a wrong method the same way (in its own error format)
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']) {
      const reply = await send(method, '/graphql', { headers: { 'x-api-key': org.key } });
      if (reply.status !== 405 || reply.headers.get('allow') !== 'GET, POST') problems.push(`${method} /graphql: ${reply.status}, Allow ${reply.headers.get('allow')}`);
    }
    expect(problems).toEqual([]);
  });

  it('answers one valid request of every GET route as documented, and refuses none as malformed', async () => {
    const problems: string[] = [];
    const statuses: number[] = [];
    await inBatches(
      routes.filter((r) => r.method === 'GET'),
      async (route) => {
        const query = validQuery(route);
        const url = withQuery(fill(route.path), query);
        const reply = await send('GET', url, { headers: credentialFor(route) });
        statuses.push(reply.status);
        const what = `GET ${url}`;
        // a 400 means the document accepts what the service refuses; a 5xx, that the route failed
        if (reply.status === 400) problems.push(`${what}: valid by the document, refused: ${reply.text.slice(0, 200)}`);
        if (reply.status >= 500 && !(route.errors ?? []).includes(JSON.parse(reply.text).code)) problems.push(`${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
        problems.push(...departures(route.path, 'GET', reply).map((p) => `${what}: ${p}`));

        // the rule across parameters the document states is the service's: without them, the 400 it documents
        const rule = route.params.query && requiredOneOf.get(route.params.query);
        if (rule) {
          const without = Object.fromEntries(Object.entries(query).filter(([name]) => !rule.names.includes(name)));
          const refused = await send('GET', withQuery(fill(route.path), without), { headers: credentialFor(route) });
          if (refused.status !== 400 || JSON.parse(refused.text).code !== 'invalid_query_parameter') problems.push(`${what} without ${rule.names.join(', ')}: ${refused.status}, not the documented 400 (${refused.text.slice(0, 160)})`);
          problems.push(...departures(route.path, 'GET', refused).map((p) => `${what} without ${rule.names.join(', ')}: ${p}`));
        }
      },
    );
    const answered = [...new Set(statuses)].sort().map((status) => `${statuses.filter((s) => s === status).length}× ${status}`);
    console.log(`contract: ${statuses.length} valid GETs answered ${answered.join(', ')}`);
    expect(problems).toEqual([]);
  });

  it('refuses a request exactly when the document does', async () => {
    // each a value the document may get wrong either way: a calendar date, an enum of reference
    // data, a body that must name something, a rule across body fields
    const cases: { method: string; path: string; query?: Record<string, string>; body?: unknown }[] = [
      { method: 'GET', path: '/v1/filings', query: { filed_from: '2024-02-29' } },
      { method: 'GET', path: '/v1/filings', query: { filed_from: '2024-02-30' } },
      { method: 'GET', path: '/v1/insiders/summary', query: { ticker: 'AAPL', to: '2023-02-29' } },
      { method: 'POST', path: '/v1/billing/quote', body: { meterClass: 'data_read', calls: 1 } },
      { method: 'POST', path: '/v1/billing/quote', body: { meterClass: '0', calls: 1 } },
      { method: 'POST', path: '/v1/billing/quote', body: { meterClass: 'data_read', workflow: 'company_snapshot', calls: 1 } },
      { method: 'POST', path: '/v1/billing/quote', body: { calls: 1 } },
      { method: 'PUT', path: '/v1/billing/budget', body: {} },
      { method: 'PUT', path: '/v1/billing/budget', body: { softCapCents: 500 } },
    ];
    const problems: string[] = [];
    for (const c of cases) {
      const operation = contract.paths[c.path][c.method.toLowerCase()];
      const at = pointer('paths', c.path, c.method.toLowerCase());
      let accepts = true;
      (operation.parameters as any[]).forEach((p, i) => {
        if (p.in !== 'query') return;
        const value = c.query?.[p.name];
        if (value === undefined) accepts &&= !p.required;
        else accepts &&= validatorAt(`${at}/parameters/${i}/schema`)(p.schema.type === 'integer' ? Number(value) : value);
      });
      if (c.body !== undefined) accepts &&= validatorAt(`${at}/${pointer('requestBody', 'content', 'application/json', 'schema')}`)(c.body);
      const route = routes.find((r) => r.path === c.path && r.method === c.method)!;
      const reply = await send(c.method, withQuery(c.path, c.query ?? {}), { headers: { ...credentialFor(route), 'content-type': 'application/json' }, ...(c.body !== undefined ? { body: JSON.stringify(c.body) } : {}) });
      const refused = reply.status === 400;
      if (accepts === refused) problems.push(`${c.method} ${withQuery(c.path, c.query ?? {})} ${JSON.stringify(c.body ?? '')}: the document ${accepts ? 'accepts' : 'refuses'} it, the service answers ${reply.status} ${reply.text.slice(0, 160)}`);
      problems.push(...departures(c.path, c.method, reply).map((p) => `${c.method} ${c.path}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('answers the fuzz suite\'s requests under a valid credential as documented, whatever the status', async () => {
    const problems: string[] = [];
    const asked = routes.flatMap((route) => fc.sample(fc.tuple(pathFor(route), queryFor(route), fuzzBody), { seed, numRuns: runs }).map((request) => ({ route, request })));
    let accepted = 0;
    await inBatches(asked, async ({ route, request: [path, query, payload] }) => {
      const withBody = route.method !== 'GET' && route.method !== 'DELETE';
      const url = `${path}${query ? `?${query}` : ''}`;
      const reply = await send(route.method, url, {
        headers: { ...credentialFor(route), ...(withBody ? { 'content-type': payload.type } : {}) },
        ...(withBody ? { body: payload.raw } : {}),
      });
      if (reply.status < 300) accepted++;
      problems.push(...departures(route.path, route.method, reply).map((p) => `${route.method} ${url.slice(0, 160)}: ${p}`));
    });
    console.log(`contract: ${asked.length} fuzz requests (seed ${seed}), ${accepted} accepted`);
    expect(problems).toEqual([]);
  }, 60_000);
});
