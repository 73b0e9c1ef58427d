// The graph fields the dashboard's Monitors pages read: a draft's preview (the compiled read run
// now, before anything is saved) and the matches waiting on each monitor, counted without moving
// its check. Another organization never sees a monitor's count, and a preview is refused as a
// save would be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, orgWithKey, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let mine: Awaited<ReturnType<typeof orgWithKey>>;
let theirs: Awaited<ReturnType<typeof orgWithKey>>;
/** A company only this suite files for: suites share one database in server mode. */
const company = { cik: 9100201, name: 'Dashwatch Instruments Inc.' };
const accession = (n: number) => `${String(company.cik).padStart(10, '0')}-29-${String(n).padStart(6, '0')}`;

let indexCount = 0;
async function ingestFilings(filings: { form: string; date: string; accession: string }[]) {
  const lines = filings.map((f) => `${company.cik}|${company.name}|${f.form}|${f.date}|edgar/data/${company.cik}/${f.accession}.txt`);
  const text = ['Description: Master Index of EDGAR Dissemination Feed', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  await runIngest(t.service.services, fixtureSource({ [`index/daily/master.2029${String(++indexCount).padStart(4, '0')}.idx`]: { text } }));
}

const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) => {
  const answer = await call(t, 'POST', '/graphql', { key, body: { query, variables } });
  return { data: answer.body.data, errors: answer.body.errors as { message: string; extensions: { code: string } }[] | undefined };
};

const draft = `query Draft($text: String!) { compileMonitor(text: $text) { query unparsed preview(first: 2) { items hasMore } } }`;
const listed = `{ monitors(first: 10) { nodes { id waitingMatches { count hasMore } } } }`;

beforeAll(async () => {
  t = await startTestService();
  [mine, theirs] = [await orgWithKey(t), await orgWithKey(t)];
  await ingestFilings([
    { form: '8-K', date: '2029-01-02', accession: accession(1) },
    { form: '8-K', date: '2029-01-03', accession: accession(2) },
    { form: '8-K', date: '2029-01-04', accession: accession(3) },
    { form: '10-Q', date: '2029-01-05', accession: accession(4) },
  ]);
});
afterAll(() => t?.close());

describe('a draft monitor', () => {
  it('is compiled and previewed in one request: the read as it lists records now', async () => {
    const answer = await gql(mine.key, draft, { text: 'Alert me when Dashwatch Instruments files an 8-K' });
    expect(answer.errors).toBeUndefined();
    const compiled = answer.data.compileMonitor;
    expect(compiled.query).toEqual({ route: '/v1/filings', params: { form: '8-K', cik: String(company.cik).padStart(10, '0') } });
    expect(compiled.unparsed).toEqual([]);
    // the first page of the route itself, in its order, two of three 8-Ks
    const filings = await call(t, 'GET', `/v1/filings?cik=${company.cik}&form=8-K&limit=2`, { key: mine.key });
    expect(compiled.preview.items.map((i: { accessionNumber: string }) => i.accessionNumber)).toEqual(filings.body.data.map((i: { accessionNumber: string }) => i.accessionNumber));
    expect(compiled.preview.items).toHaveLength(2);
    expect(compiled.preview.items.every((i: { form: string }) => i.form === '8-K')).toBe(true);
    expect(compiled.preview.hasMore).toBe(true);
  });

  it('is refused when the text places nothing, as the compiler refuses it', async () => {
    const answer = await gql(mine.key, draft, { text: 'zzz qqq' });
    expect(answer.errors?.[0]?.extensions.code).toBe('validation_error');
  });
});

describe('matches waiting on a monitor', () => {
  it('counts what was ingested since the last check without moving it, and only for its own organization', async () => {
    const created = await call(t, 'POST', '/v1/monitors', { key: mine.key, body: { name: 'Dashwatch 8-Ks', query: { route: '/v1/filings', params: { cik: String(company.cik), form: '8-K' } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as string;
    const count = async (key: string) => (await gql(key, listed)).data.monitors.nodes.find((m: { id: string }) => m.id === id)?.waitingMatches;
    expect(await count(mine.key)).toEqual({ count: 0, hasMore: false });

    await ingestFilings([
      { form: '8-K', date: '2029-02-01', accession: accession(11) },
      { form: '10-Q', date: '2029-02-01', accession: accession(12) },
      { form: '8-K', date: '2029-02-02', accession: accession(13) },
    ]);
    expect(await count(mine.key)).toEqual({ count: 2, hasMore: false });
    const capped = await gql(mine.key, `query One($id: String!) { monitor(id: $id) { waitingMatches(upTo: 1) { count hasMore } } }`, { id });
    expect(capped.data.monitor.waitingMatches).toEqual({ count: 1, hasMore: true });
    // counting did not move the check: the pull still has both
    const pulled = await call(t, 'GET', `/v1/monitors/${id}/matches`, { key: mine.key });
    expect(pulled.body.data.map((i: { accessionNumber: string }) => i.accessionNumber).sort()).toEqual([accession(11), accession(13)]);
    expect(await count(mine.key)).toEqual({ count: 0, hasMore: false });

    // another organization lists none of it, and cannot read it by id
    expect(await count(theirs.key)).toBeUndefined();
    const refused = await gql(theirs.key, `query One($id: String!) { monitor(id: $id) { waitingMatches { count } } }`, { id });
    expect(refused.errors?.[0]?.extensions.code).toBe('monitor_not_found');

    // a deleted monitor no longer watches: nothing is counted
    await call(t, 'DELETE', `/v1/monitors/${id}`, { key: mine.key });
    expect(await count(mine.key)).toBeNull();
  });
});
