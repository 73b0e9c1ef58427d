// News from filings, against the real corpus: NVIDIA's submissions index (8-Ks known only from
// the index) and the one 8-K document of its held (Item 5.02), ABVC's full 8-K submission (its
// EX-99.1 press release) and Adobe's primary 8-K document alone, read as stories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusSubset } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const departure = '0001045810-26-000024'; // 8-K Items 5.02, 9.01, its document held
const earnings = '0001045810-26-000019'; // 8-K Items 2.02, 9.01, known from the index only
const abvcResults = '0001213900-25-032135'; // full submission: Items 2.02, 4.02, 7.01, 9.01 and EX-99.1
const adobeResults = '0000796343-23-000044'; // the primary document alone: Items 2.02, 9.01

interface Story {
  id: string;
  form: string;
  headline: string;
  lead: string | null;
  leadItem: string | null;
  leadNullReason: string | null;
  items: { item: string; title: string | null }[];
  exhibit: { type: string; sequence: number | null; fileName: string | null; description: string | null; title: string | null; citationUrl: string | null } | null;
  exhibitNullReason: string | null;
  publishedAt: string;
  citationUrl: string;
}

let t: TestService;
let key: string;
const get = (route: string) => call(t, 'GET', route, { key });

beforeAll(async () => {
  t = await startIsolatedService();
  ({ key } = await orgWithKey(t, 'News readers', 'team'));
  await runIngest(t.service.services, corpusSubset(/^(submissions\/CIK0001045810|filings\/8k\/8-K_(0001045810|0001213900-25-032135|0000796343-23-000044))/));
}, 300_000);
afterAll(() => t?.close());

describe('news', () => {
  it('makes a held 8-K a story: headline from its items, lead in its own words, citing the filing', async () => {
    const answer = await get('/v1/news?ticker=NVDA&item=5.02');
    expect(answer.status).toBe(200);
    const story = (answer.body.data as Story[]).find((s) => s.id === departure)!;
    expect(story).toMatchObject({
      form: '8-K',
      headline: 'NVIDIA CORP reports Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers (8-K 5.02)',
      leadItem: '5.02',
      leadNullReason: null,
      items: expect.arrayContaining([{ item: '5.02', title: expect.stringMatching(/^Departure of Directors/) }, { item: '9.01', title: 'Financial Statements and Exhibits' }]),
      citationUrl: expect.stringContaining('/Archives/edgar/data/1045810/000104581026000024'),
    });
    expect(story.lead).toMatch(/^On March 2, 2026, the Compensation Committee of the Board of Directors/); // a sentence, not the item's heading
    expect(story.lead!.length).toBeLessThanOrEqual(600);
    expect((answer.body.data as Story[]).every((s) => s.items.some((i) => i.item === '5.02'))).toBe(true);
  });

  it('tells a story known only from the index without a lead, and says why', async () => {
    const answer = await get('/v1/news?ticker=NVDA&item=2.02&limit=100');
    const story = (answer.body.data as Story[]).find((s) => s.id === earnings)!;
    expect(story).toMatchObject({ headline: 'NVIDIA CORP reports Results of Operations and Financial Condition (8-K 2.02)', lead: null, leadNullReason: 'document_not_held', exhibit: null, exhibitNullReason: 'document_not_held' });
  });

  it('heads a story with its press release\'s title, citing the exhibit', async () => {
    const answer = await get('/v1/news?cik=1173313');
    expect(answer.status).toBe(200);
    const story = (answer.body.data as Story[]).find((s) => s.id === abvcResults)!;
    // the release's first heading, under its "Exhibit 99.1" label; the items it comes with, 9.01 left out
    expect(story.headline).toMatch(/^Items 2\.02 Results of Operations and Financial Condition; 4\.02 Non-Reliance on Previously Issued Financial Statements.*; 7\.01 Regulation FD Disclosure: ABVC BioPharma Announces 2024 Financial Results$/);
    expect(story.exhibit).toEqual({
      type: 'EX-99.1',
      sequence: 2,
      fileName: 'ea023837201ex99-1_abvcbio.htm',
      description: 'PRESS RELEASE',
      title: 'ABVC BioPharma Announces 2024 Financial Results',
      citationUrl: 'https://www.sec.gov/Archives/edgar/data/1173313/000121390025032135/ea023837201ex99-1_abvcbio.htm',
    });
    expect(story.exhibitNullReason).toBeNull();
  });

  it('heads a story from its items alone when no press release is held, and says why', async () => {
    const nvidia = ((await get('/v1/news?ticker=NVDA&item=5.02')).body.data as Story[]).find((s) => s.id === departure)!;
    expect(nvidia).toMatchObject({ exhibit: null, exhibitNullReason: 'no_press_release' }); // its submission's only exhibit is an EX-10.1
    const adobe = ((await get('/v1/news?cik=796343')).body.data as Story[]).find((s) => s.id === adobeResults)!;
    expect(adobe).toMatchObject({ headline: expect.stringMatching(/ reports Results of Operations and Financial Condition \(8-K 2\.02\)$/), exhibit: null, exhibitNullReason: 'exhibits_not_read' });
  });

  it('lists only forms that announce something, newest first, in disjoint pages', async () => {
    const seen: Story[] = [];
    for (let cursor = '', more = true; more; ) {
      const page = await get(`/v1/news?cik=1045810&limit=40${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data);
      ({ nextCursor: cursor, hasMore: more } = page.body);
    }
    expect(seen.length).toBeGreaterThan(10);
    expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
    expect(seen.every((s) => ['8-K', '8-K/A', 'SC 13D', 'SC 13D/A', 'S-4', '425', 'NT 10-K', 'NT 10-Q'].includes(s.form) || s.form.startsWith('8-K'))).toBe(true);
    const times = seen.map((s) => s.publishedAt);
    expect(times).toEqual([...times].sort().reverse());
    const filings = await get('/v1/filings?cik=1045810&form=10-K');
    expect(seen.some((s) => s.id === filings.body.data[0].accessionNumber)).toBe(false); // a 10-K is no story
  });

  it('finds stories by the words of their items', async () => {
    const story = ((await get('/v1/news?ticker=NVDA&item=5.02')).body.data as Story[]).find((s) => s.id === departure)!;
    const word = story.lead!.match(/[A-Za-z]{7,}/)![0];
    const found = await get(`/v1/news?q=${encodeURIComponent(word)}`);
    expect((found.body.data as Story[]).map((s) => s.id)).toContain(departure);
    const none = await get('/v1/news?q=zyxwvutsrqp');
    expect(none.body.data).toEqual([]);
  });

  it('answers the same through the graph', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: `{ news(ticker: "NVDA", item: "5.02", first: 5) { nodes { id headline leadItem exhibitNullReason } } }` } });
    expect(answer.body.data.news.nodes).toContainEqual(expect.objectContaining({ id: departure, leadItem: '5.02', exhibitNullReason: 'no_press_release' }));
    const abvc = await call(t, 'POST', '/graphql', { key, body: { query: `{ news(cik: "1173313", first: 5) { nodes { id exhibit { type title } } } }` } });
    expect(abvc.body.data.news.nodes).toContainEqual({ id: abvcResults, exhibit: { type: 'EX-99.1', title: 'ABVC BioPharma Announces 2024 Financial Results' } });
  });

  it('refuses what makes no story, and a company it does not know', async () => {
    expectEnvelope(await get('/v1/news?form=10-K'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/news?item=5'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/news?ticker=NOSUCHCO'), 404, 'entity_not_found');
    expect((await call(t, 'GET', '/v1/news')).status).toBe(401);
  });
});
