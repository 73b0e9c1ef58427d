// Full-text search against the real corpus: Apple's and NVIDIA's 10-K sections,
// Apple's 10-Q, and the 8-K item texts, with PostgreSQL full-text search (PGlite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/company_tickers\.json|submissions\/CIK0000320193\.json|submissions\/CIK0001045810\.json|filings\/10k\/10-K_0000320193|filings\/10k\/10-K_0001045810|filings\/10q\/|filings\/8k\/)/;
const appleTenK = 'filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html';
const phrase = 'information technology system failures and network disruptions';

/** The document's words, as a reader sees them: tags dropped, entities decoded, spaces collapsed. */
const plainText = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&#8217;|&rsquo;/g, '’')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe.runIf(hasCorpus)('search', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const search = (params: Record<string, string | number>) => call(t, 'GET', `/v1/search?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Searchers', 'team'));
    const run = await runIngest(t.service.services, corpusSubset(wanted));
    expect(run.written).toBeGreaterThan(10);
  }, 600_000);
  afterAll(() => t?.close());

  it('finds a phrase of Apple\'s 10-K risk factors with its citation and a highlighted snippet', async () => {
    const filed = plainText(await corpusFile(appleTenK));
    expect(filed.includes(phrase)).toBe(true);
    const answer = await search({ q: `"${phrase}"` });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('list');
    const [top] = answer.body.data;
    expect(top).toMatchObject({
      object: 'search_hit',
      source: 'filing_section',
      accessionNumber: '0000320193-24-000123',
      cik: '0000320193',
      companyName: 'Apple Inc.',
      form: '10-K',
      filedAt: '2024-11-01',
      sectionKey: 'item_1a',
      sectionTitle: 'Risk Factors',
      item: null,
      phraseMatch: true,
      citationUrl: 'https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm',
    });
    expect(top.snippet).toContain('<mark>information</mark> <mark>technology</mark> <mark>system</mark> <mark>failures</mark> and <mark>network</mark> <mark>disruptions</mark>');
    // the snippet's words are the filing's own
    const unmarked = top.snippet.replace(/<\/?mark>/g, '');
    for (const fragment of unmarked.split(' … ')) expect(filed.includes(fragment.slice(0, 60)), fragment).toBe(true);
    // the section it cites holds the phrase
    const section = await t.service.services.prisma.section.findUniqueOrThrow({ where: { accessionNumber_key: { accessionNumber: top.accessionNumber, key: top.sectionKey } } });
    expect(section.text.replace(/\s+/g, ' ')).toContain(phrase);
    for (const hit of answer.body.data) {
      expect(hit.accessionNumber).toMatch(/^\d{10}-\d{2}-\d{6}$/);
      expect(hit.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/\d+\/\d{18}\//);
    }
  });

  it('ranks the section holding the words as a phrase first', async () => {
    // the same words unquoted: every section holding them all matches, the one holding the phrase comes first
    const loose = await search({ q: phrase, limit: 100 });
    expect(loose.body.data.length).toBeGreaterThan(1);
    expect(loose.body.data[0]).toMatchObject({ accessionNumber: '0000320193-24-000123', sectionKey: 'item_1a', phraseMatch: true });
    const ranks = loose.body.data.filter((h: { phraseMatch: boolean }) => !h.phraseMatch).map((h: { rank: number }) => h.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(loose.body.data.slice(1).every((h: { phraseMatch: boolean }) => !h.phraseMatch)).toBe(true);
    // stemming: the singular finds the plural
    const stemmed = await search({ q: 'network disruption', ticker: 'AAPL' });
    expect(stemmed.body.data.some((h: { sectionKey: string; snippet: string }) => h.sectionKey === 'item_1a' && h.snippet.includes('<mark>disruptions</mark>'))).toBe(true);
  });

  it('searches 8-K item texts, cited to the 8-K', async () => {
    const answer = await search({ q: 'chief financial officer', form: '8-K', limit: 100 });
    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    for (const hit of answer.body.data) {
      expect(hit).toMatchObject({ source: 'eight_k_item', form: '8-K' });
      expect(hit.item).toMatch(/^\d\.\d\d$/);
      expect(hit.sectionKey).toBe(`item_${hit.item}`);
      expect(hit.snippet).toMatch(/<mark>(chief|financial|officer)/i);
    }
    const meta = answer.body.data.find((h: { accessionNumber: string }) => h.accessionNumber === '0001628280-25-058337');
    if (meta) expect(meta.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/1326801\/000162828025058337\//);
    // Adobe's Item 2.02 says what its excerpt says
    const adobe = await search({ q: 'results of operations', cik: '796343' });
    const release = adobe.body.data.find((h: { item: string }) => h.item === '2.02');
    expect(release).toMatchObject({ accessionNumber: '0000796343-23-000044', source: 'eight_k_item', cik: '0000796343' });
  });

  it('narrows by company, form and filing date', async () => {
    const all = await search({ q: 'supply chain', limit: 100 });
    const companies = new Set(all.body.data.map((h: { cik: string }) => h.cik));
    expect(companies.has('0000320193') && companies.has('0001045810')).toBe(true);
    const nvidia = await search({ q: 'supply chain', ticker: 'NVDA', limit: 100 });
    expect(nvidia.body.data.length).toBeGreaterThan(0);
    expect(nvidia.body.data.every((h: { cik: string }) => h.cik === '0001045810')).toBe(true);
    const quarterly = await search({ q: 'supply chain', form: '10-q', limit: 100 });
    expect(quarterly.body.data.length).toBeGreaterThan(0);
    expect(quarterly.body.data.every((h: { form: string; accessionNumber: string }) => h.form === '10-Q' && h.accessionNumber === '0000320193-25-000073')).toBe(true);
    const from2025 = await search({ q: 'supply chain', filed_from: '2025-01-01', limit: 100 });
    expect(from2025.body.data.every((h: { filedAt: string }) => h.filedAt >= '2025-01-01')).toBe(true);
    expect(from2025.body.data.some((h: { accessionNumber: string }) => h.accessionNumber === '0000320193-24-000123')).toBe(false);
    const until2024 = await search({ q: 'supply chain', filed_to: '2024-12-31', limit: 100 });
    expect(until2024.body.data.length).toBeGreaterThan(0);
    expect(until2024.body.data.every((h: { filedAt: string }) => h.filedAt <= '2024-12-31')).toBe(true);
    expect(from2025.body.data.length + until2024.body.data.length).toBe(all.body.data.length);
  });

  it('pages through every hit without duplicates', async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof call>> = await search({ q: 'revenue', limit: 3, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      for (const hit of page.body.data) {
        expect(seen.has(hit.id)).toBe(false);
        seen.add(hit.id);
      }
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    const whole = await search({ q: 'revenue', limit: 100 });
    expect(seen.size).toBe(whole.body.data.length);
    expect(seen.size).toBeGreaterThan(3);
  });

  it('answers client mistakes with the envelope, and lists the MCP tool', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/search', { key }), 400, 'invalid_query_parameter');
    expectEnvelope(await search({ q: '' }), 400, 'invalid_query_parameter');
    expectEnvelope(await search({ q: '   ' }), 400, 'invalid_query_parameter');
    expectEnvelope(await search({ q: 'the of and' }), 400, 'invalid_query_parameter');
    expectEnvelope(await search({ q: '!!!' }), 400, 'invalid_query_parameter');
    expectEnvelope(await search({ q: 'x'.repeat(501) }), 400, 'invalid_query_parameter');
    expectEnvelope(await search({ q: 'revenue', ticker: 'NOSUCHTICKER' }), 404, 'entity_not_found');
    expectEnvelope(await search({ q: 'revenue', cursor: 'nope' }), 400, 'invalid_query_parameter');
    expectEnvelope(await search({ q: 'revenue', filed_from: '2024-02-30' }), 400, 'invalid_request_parameter');
    expectEnvelope(await search({ q: 'revenue', limit: 0 }), 400, 'invalid_query_parameter');
    // syntax the parser forgives is not an error: unbalanced quotes, a lone operator
    expect((await search({ q: '"supply chain' })).status).toBe(200);
    expect((await search({ q: 'supply -' })).status).toBe(200);
    expectEnvelope(await call(t, 'GET', '/v1/search?q=revenue'), 401, 'missing_api_key');
    // the GraphQL door checks the same: a date that is not one is refused before any SQL, an unknown company is 404's code
    const graphql = (variables: Record<string, unknown>) =>
      call(t, 'POST', '/graphql', { key, body: { query: 'query($q: String!, $from: Date, $ticker: String) { search(q: $q, filedFrom: $from, ticker: $ticker) { nodes { id } } }', variables } });
    const badDate = await graphql({ q: 'revenue', from: 'nope' });
    expect(badDate.status).toBeLessThan(500);
    expect(JSON.stringify(badDate.body.errors)).not.toMatch(/internal_error/);
    expect((await graphql({ q: 'revenue', ticker: 'NOSUCHTICKER' })).body.errors[0].extensions).toMatchObject({ code: 'entity_not_found', details: { parameter: 'ticker' } });
    expect((await graphql({ q: 'supply chain', from: '2025-01-01', ticker: 'AAPL' })).body.data.search.nodes.length).toBeGreaterThan(0);
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect((await response.json()).result.tools.map((tool: { name: string }) => tool.name)).toContain('search');
  });
});
