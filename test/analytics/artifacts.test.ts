// Analytics artifacts (SPEC 4.5): stored by storeArtifact as the analytics POSTs store them, then
// listed, read back and exported (JSON and Markdown) over HTTP; each announced by artifact.created.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../resolvers/context.ts';
import { canonicalJson, storeArtifact, type ArtifactInput } from '../../resolvers/analytics/artifacts.ts';
import { call, expectEnvelope, orgWithKey, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let acme: { orgId: string; key: string };
let other: { orgId: string; key: string };

const contextOf = (orgId: string): Context => ({ ...t.service.services, principal: { kind: 'api_key', apiKeyId: 'test', orgId, scopes: ['organization'] }, requestId: 'req_test' });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const analysis: ArtifactInput = {
  kind: 'portfolio_analysis',
  route: '/v1/portfolio/analyze',
  title: 'Portfolio analysis: AAPL and IWM',
  request: { holdings: [{ ticker: 'AAPL', weight: 0.6 }, { ticker: 'IWM', weight: 0.4 }], lookbackDays: 252, model: 'ff5' },
  result: {
    object: 'portfolio_analysis',
    requestId: 'req_should_not_be_kept',
    holdings: [
      { ticker: 'AAPL', weight: 0.6, beta: 1.234567891, alpha: -0.00012 },
      { ticker: 'IWM', weight: 0.4, beta: 0.987654321, alpha: 0.0003 },
    ],
    risk: { volatility: 0.2113, var: { p95: -0.031, p99: -0.052 } },
    exposures: { 'Mkt-RF': 1.02, SMB: 0.31, HML: -0.12 },
  },
  sources: [
    { sourceKey: 'market/prices/AAPL.daily.csv', kind: 'market_prices', subject: 'AAPL', vintage: null, firstDate: new Date('2019-01-02T00:00:00Z'), lastDate: new Date('2024-06-28T00:00:00Z') },
    { sourceKey: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV', kind: 'factor_returns', subject: 'ff5', vintage: '202408', firstDate: '1963-07-01', lastDate: '2024-06-28' },
  ],
  model: 'ff5',
  window: { from: '2023-06-29', to: '2024-06-28', days: 252 },
};

const risk: ArtifactInput = {
  ...analysis,
  kind: 'portfolio_risk',
  route: '/v1/portfolio/risk',
  title: 'Portfolio risk',
  result: { object: 'portfolio_risk', volatility: 0.19, drawdown: { max: -0.33, from: '2020-02-19', to: '2020-03-23' } },
  model: null,
  window: null,
};

/** acme's artifacts in the order they were stored */
const stored: { id: string; contentHash: string; input: ArtifactInput }[] = [];

beforeAll(async () => {
  t = await startTestService();
  acme = await orgWithKey(t);
  other = await orgWithKey(t);
  for (const input of [analysis, risk, { ...analysis, title: 'Portfolio analysis again' }]) {
    const made = await storeArtifact(contextOf(acme.orgId), input);
    stored.push({ ...made, input });
    await pause(5); // distinct creation times: the list is newest first
  }
  await storeArtifact(contextOf(other.orgId), { ...risk, title: 'Other organization\'s risk' });
});
afterAll(() => t?.close());

const get = (path: string, key = acme.key) => call(t, 'GET', path, { key });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('storeArtifact', () => {
  it('hashes the canonical JSON of the result: keys sorted recursively, requestId left out', () => {
    const [first] = stored;
    expect(first!.id).toMatch(/^art_[0-9A-Za-z]{24}$/);
    const { requestId: _dropped, ...result } = analysis.result;
    expect(first!.contentHash).toBe(sha256(canonicalJson(result)));
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson({ b: 2, a: 1, skipped: undefined })).toBe(canonicalJson({ a: 1, b: 2 }));
  });

  it('gives the same result the same hash, whatever its key order', async () => {
    expect(stored[2]!.contentHash).toBe(stored[0]!.contentHash);
    const reordered = Object.fromEntries(Object.entries(analysis.result).reverse().map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v]));
    const again = await storeArtifact(contextOf(other.orgId), { ...analysis, result: reordered });
    expect(again.contentHash).toBe(stored[0]!.contentHash);
    expect(again.id).not.toBe(stored[0]!.id);
    expect(stored[1]!.contentHash).not.toBe(stored[0]!.contentHash);
  });
});

describe('GET /v1/artifacts', () => {
  it('lists the organization\'s artifacts newest first, by cursor, without their results', async () => {
    const first = await get('/v1/artifacts?limit=2');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('service-meter-class')).toBe('platform');
    expect(first.body).toMatchObject({ object: 'list', hasMore: true, requestId: first.headers.get('request-id') });
    const rest = await get(`/v1/artifacts?limit=2&cursor=${first.body.nextCursor}`);
    expect(rest.body).toMatchObject({ hasMore: false, nextCursor: null });
    const all = [...first.body.data, ...rest.body.data];
    expect(all.map((a: { id: string }) => a.id)).toEqual(stored.map((s) => s.id).reverse());
    const item = all[2];
    expect(item).toEqual({
      object: 'artifact',
      id: stored[0]!.id,
      kind: 'portfolio_analysis',
      route: '/v1/portfolio/analyze',
      title: analysis.title,
      contentHash: stored[0]!.contentHash,
      createdByRequestId: 'req_test',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      manifest: {
        inputs: analysis.request,
        sources: [
          { sourceKey: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV', kind: 'factor_returns', subject: 'ff5', vintage: '202408', firstDate: '1963-07-01', lastDate: '2024-06-28' },
          { sourceKey: 'market/prices/AAPL.daily.csv', kind: 'market_prices', subject: 'AAPL', vintage: null, firstDate: '2019-01-02', lastDate: '2024-06-28' },
        ],
        model: 'ff5',
        window: analysis.window,
        contentHash: stored[0]!.contentHash,
      },
    });
    expect(all.every((a: object) => !('result' in a))).toBe(true);
  });

  it('filters by kind', async () => {
    const risks = await get('/v1/artifacts?kind=portfolio_risk');
    expect(risks.body.data.map((a: { id: string }) => a.id)).toEqual([stored[1]!.id]);
    const analyses = await get('/v1/artifacts?kind=portfolio_analysis');
    expect(analyses.body.data.map((a: { id: string }) => a.id)).toEqual([stored[2]!.id, stored[0]!.id]);
    expect((await get('/v1/artifacts?kind=nothing_like_it')).body.data).toEqual([]);
    expectEnvelope(await get('/v1/artifacts?kind=Not%20A%20Kind'), 400, 'invalid_query_parameter');
  });
});

describe('GET /v1/artifacts/{artifact_id}', () => {
  it('answers the artifact with its result and manifest', async () => {
    const answer = await get(`/v1/artifacts/${stored[0]!.id}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { requestId: _dropped, ...result } = analysis.result;
    expect(answer.body).toMatchObject({ object: 'artifact', id: stored[0]!.id, kind: 'portfolio_analysis', title: analysis.title, contentHash: stored[0]!.contentHash, createdByRequestId: 'req_test', requestId: answer.headers.get('request-id') });
    expect(answer.body.result).toEqual(result);
    expect(answer.body.manifest.contentHash).toBe(stored[0]!.contentHash);
    expect(sha256(canonicalJson(answer.body.result))).toBe(answer.body.contentHash);
  });
});

describe('GET /v1/artifacts/{artifact_id}/export', () => {
  it('downloads the artifact as JSON by default: the same as GET, less its requestId', async () => {
    const id = stored[0]!.id;
    const response = await fetch(`${t.url}/v1/artifacts/${id}/export`, { headers: { 'x-api-key': acme.key } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.json"`);
    expect(response.headers.get('service-meter-class')).toBe('platform');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const exported = JSON.parse(await response.text());
    const { requestId: _dropped, ...artifact } = (await get(`/v1/artifacts/${id}`)).body;
    expect(exported).toEqual(artifact);
    expect((await get(`/v1/artifacts/${id}/export?format=json`)).body).toEqual(artifact);
  });

  it('renders a Markdown report: title, manifest with vintages and hash, result tables with numbers as stored', async () => {
    const id = stored[0]!.id;
    const response = await fetch(`${t.url}/v1/artifacts/${id}/export?format=markdown`, { headers: { 'x-api-key': acme.key } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.md"`);
    const text = await response.text();
    expect(text.startsWith(`# ${analysis.title}\n`)).toBe(true);
    expect(text).toContain(stored[0]!.contentHash);
    expect(text).toContain('| Request id | req_test |');
    // the market files with their vintages
    expect(text).toContain('| market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV | factor_returns | ff5 | 202408 | 1963-07-01 | 2024-06-28 |');
    expect(text).toContain('| Window | 2023-06-29 to 2024-06-28 (252 days) |');
    // a list of flat objects is a table; numbers are printed as stored
    expect(text).toContain('| ticker | weight | beta | alpha |\n| --- | --- | --- | --- |\n| AAPL | 0.6 | 1.234567891 | -0.00012 |\n| IWM | 0.4 | 0.987654321 | 0.0003 |');
    // nested objects are sections with key/value tables
    expect(text).toMatch(/### risk\n\n\| Field \| Value \|\n\| --- \| --- \|\n\| volatility \| 0\.2113 \|\n\n#### var\n\n\| Field \| Value \|\n\| --- \| --- \|\n\| p95 \| -0\.031 \|/);
    expect(text).toContain('| Mkt-RF | 1.02 |');
    expect(text).not.toContain('req_should_not_be_kept');
  });

  it('refuses an unknown format', async () => {
    expectEnvelope(await get(`/v1/artifacts/${stored[0]!.id}/export?format=pdf`), 400, 'invalid_query_parameter');
  });
});

describe('artifact.created', () => {
  it('is an event of the organization, for each artifact it stored', async () => {
    const answer = await get('/v1/delivery/events?type=artifact.created&limit=100');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const data = answer.body.data.map((e: { type: string; orgId: string; requestId: string; data: unknown }) => ({ type: e.type, orgId: e.orgId, requestId: e.requestId, data: e.data }));
    expect(data).toEqual(stored.map((s) => ({ type: 'artifact.created', orgId: acme.orgId, requestId: 'req_test', data: { artifactId: s.id, kind: s.input.kind, route: s.input.route, contentHash: s.contentHash } })));
    const theirs = await get('/v1/delivery/events?type=artifact.created&limit=100', other.key);
    expect(theirs.body.data.some((e: { data: { artifactId: string } }) => stored.some((s) => s.id === e.data.artifactId))).toBe(false);
  });
});

describe('ids', () => {
  it('answers 404 artifact_not_found for another organization\'s artifact on every route', async () => {
    const id = stored[0]!.id;
    for (const path of [`/v1/artifacts/${id}`, `/v1/artifacts/${id}/export`, `/v1/artifacts/${id}/export?format=markdown`]) {
      expectEnvelope(await get(path, other.key), 404, 'artifact_not_found');
    }
    const theirs = await get('/v1/artifacts', other.key);
    expect(theirs.body.data.some((a: { id: string }) => stored.some((s) => s.id === a.id))).toBe(false);
  });

  it('answers 400 invalid_request_parameter for an id that is not art_ and 24 letters or digits', async () => {
    for (const bad of ['art_short', 'mon_0123456789abcdefABCDEFGH', `art_${'x'.repeat(23)}-`]) {
      expectEnvelope(await get(`/v1/artifacts/${bad}`), 400, 'invalid_request_parameter');
      expectEnvelope(await get(`/v1/artifacts/${bad}/export`), 400, 'invalid_request_parameter');
    }
  });

  it('answers 401 without a credential', async () => {
    expect((await call(t, 'GET', '/v1/artifacts')).status).toBe(401);
    expect((await call(t, 'GET', `/v1/artifacts/${stored[0]!.id}/export`)).status).toBe(401);
  });
});
