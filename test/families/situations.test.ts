// Special situations from filings, against the real corpus: EDGAR's daily form index of 2020-03-18
// (425s, a Form 10, tender offers, 13Ds and 25-NSE delistings across companies) and NVIDIA's
// submissions (8-K 1.01 and 2.01 reports: the Mellanox acquisition, completed in April 2020).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusSubset } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

interface Situation {
  id: string;
  kind: string;
  stage: string;
  stageRule: string;
  company: { cik: string; name: string };
  firstFiledAt: string;
  lastFiledAt: string;
  filingCount: number;
  timeline: { accessionNumber: string; form: string; items: string[]; filedAt: string; role: string; what: string; citationUrl: string }[];
}

let t: TestService;
let key: string;
const get = (route: string) => call(t, 'GET', route, { key });

async function all(query: string): Promise<Situation[]> {
  const seen: Situation[] = [];
  for (let cursor = '', more = true; more; ) {
    const page = await get(`/v1/situations?limit=9&${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    seen.push(...page.body.data);
    ({ nextCursor: cursor, hasMore: more } = page.body);
  }
  return seen;
}
const holding = (situations: Situation[], accession: string) => situations.filter((s) => s.timeline.some((f) => f.accessionNumber === accession));

beforeAll(async () => {
  t = await startIsolatedService();
  ({ key } = await orgWithKey(t, 'Situation readers', 'team'));
  await runIngest(t.service.services, corpusSubset(/^(index\/daily\/form\.20200318|submissions\/CIK0001045810)/));
}, 300_000);
afterAll(() => t?.close());

describe('situations', () => {
  it('groups one company\'s merger communications of a day into one situation, each filing cited', async () => {
    const carey = await all('cik=1609471&kind=merger');
    expect(carey).toHaveLength(1);
    expect(carey[0]).toMatchObject({ kind: 'merger', stage: 'in_progress', company: { cik: '0001609471', name: 'Carey Watermark Investors 2 Inc' }, firstFiledAt: '2020-03-18', lastFiledAt: '2020-03-18', filingCount: 3 });
    expect(carey[0]!.timeline.map((f) => [f.accessionNumber, f.form, f.role])).toEqual([
      ['0001104659-20-034915', '425', 'announcement'],
      ['0001104659-20-034916', '425', 'update'],
      ['0001104659-20-035422', '425', 'update'],
    ]);
    expect(carey[0]!.timeline[0]!.citationUrl).toContain('/Archives/edgar/data/1609471/000110465920034915');
  });

  it('reads spin-offs, tender offers, activist campaigns and delistings off the index day', async () => {
    const day = await all('filed_from=2020-03-18&filed_to=2020-03-18');
    expect(holding(day, '0001193125-20-076863')[0]).toMatchObject({ kind: 'spin_off', stage: 'announced', company: { name: 'MSG ENTERTAINMENT SPINCO, INC.' }, filingCount: 1 });
    expect(holding(day, '0001193125-20-077148')[0]).toMatchObject({ kind: 'tender_offer', timeline: [expect.objectContaining({ form: 'SC TO-T/A' })] });
    const mechel = holding(day, '0001193125-20-076794')[0]!;
    expect(mechel).toMatchObject({ kind: 'activist_campaign', stage: 'in_progress', filingCount: 3 });
    expect(mechel.timeline.every((f) => f.form === 'SC 13D/A')).toBe(true);
    expect(holding(day, '0001354457-20-000128')[0]).toMatchObject({ kind: 'delisting', stage: 'completed', company: { name: 'Habit Restaurants, Inc.' }, timeline: [expect.objectContaining({ form: '25-NSE', role: 'completion' })] });
    // a 25-NSE held under the exchange that filed it names no issuer: no situation of the exchange
    expect(day.some((s) => s.company.cik === '0000876661')).toBe(false);
    const kinds = new Set(day.map((s) => s.kind));
    expect([...kinds].sort()).toEqual(['activist_campaign', 'delisting', 'merger', 'spin_off', 'tender_offer']);
  });

  it('completes an acquisition at its 2.01 report and opens a new situation for a later agreement', async () => {
    const nvidia = await all('cik=1045810&kind=merger');
    const mellanox = holding(nvidia, '0001045810-20-000052');
    expect(mellanox).toHaveLength(1);
    expect(mellanox[0]!.stage).toBe('completed');
    expect(mellanox[0]!.timeline.find((f) => f.accessionNumber === '0001045810-20-000052')).toMatchObject({ form: '8-K', role: 'completion', what: expect.stringContaining('Completion of Acquisition or Disposition of Assets (2.01)') });
    expect(mellanox[0]!.stageRule).toContain('2.01');
    // the September 2020 agreement (8-K 1.01) is not part of the completed acquisition
    const arm = holding(nvidia, '0001193125-20-244601');
    expect(arm).toHaveLength(1);
    expect(arm[0]!.id).not.toBe(mellanox[0]!.id);
    expect(arm[0]!.timeline[0]).toMatchObject({ accessionNumber: '0001193125-20-244601', role: 'announcement' });
  });

  it('answers one situation by its id, the same as the list, and 404 for an id it does not make', async () => {
    const [carey] = await all('cik=1609471&kind=merger');
    const one = await get(`/v1/situations/${carey!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ object: 'situation', id: carey!.id, kind: 'merger', filingCount: 3, timeline: carey!.timeline });
    expect((await get(`/v1/situations/${carey!.id}`)).body.id).toBe(carey!.id); // stable
    expectEnvelope(await get(`/v1/situations/sit_0001609471_${'0'.repeat(32)}`), 404, 'situation_not_found');
    expectEnvelope(await get('/v1/situations/merger-42'), 400, 'invalid_request_parameter');
  });

  it('pages newest first without overlap and filters by kind and stage', async () => {
    const everything = await all('');
    expect(new Set(everything.map((s) => s.id)).size).toBe(everything.length);
    expect(everything.map((s) => s.lastFiledAt)).toEqual(everything.map((s) => s.lastFiledAt).sort().reverse());
    const completed = await all('stage=completed');
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.every((s) => s.stage === 'completed' && s.timeline.some((f) => f.role === 'completion'))).toBe(true);
    expect((await all('kind=delisting')).every((s) => s.kind === 'delisting')).toBe(true);
  });

  it('answers the same through the graph', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: '{ situations(cik: "1609471", first: 5) { nodes { id kind filingCount timeline { accessionNumber } } } }' } });
    expect(answer.body.data.situations.nodes).toContainEqual(expect.objectContaining({ kind: 'merger', filingCount: 3 }));
  });

  it('refuses an unknown kind or stage and an unknown company', async () => {
    expectEnvelope(await get('/v1/situations?kind=rumour'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/situations?stage=done'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/situations?ticker=NOSUCHCO'), 404, 'entity_not_found');
    expect((await call(t, 'GET', '/v1/situations')).status).toBe(401);
  });
});
