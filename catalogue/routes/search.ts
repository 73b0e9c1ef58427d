// Full-text search: /v1/search over the sections of 10-K/10-Q filings and the items of
// 8-K reports, with PostgreSQL full-text search (resolvers/search.ts).
import { z } from 'zod';
import { SearchDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, inView, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';

const hit = z
  .object({
    object: z.literal('search_hit'),
    id: z.string().describe('`{accessionNumber}:{sectionKey}` for a section, `{accessionNumber}:event:{eventId}` for an 8-K item'),
    source: z.enum(['filing_section', 'eight_k_item']).describe('`filing_section`: a section of a 10-K or 10-Q (the whole section text is searched); `eight_k_item`: one item of an 8-K (the item\'s text excerpt, up to about 1,500 characters, is what is kept and searched)'),
    accessionNumber: z.string().describe('The filing the text is from'),
    cik: z.string().describe('The filer\'s CIK, 10 digits'),
    companyName: z.string().nullable().describe('The filer\'s name as held; null when the entity has no name on record'),
    form: z.string().describe('The filing\'s form type, e.g. 10-K, 10-Q, 8-K'),
    filedAt: z.string().nullable().describe('Filing date, YYYY-MM-DD; null when only the document is known and it does not state the date'),
    sectionKey: z.string().describe('The section\'s key (e.g. `item_1a` for a 10-K\'s risk factors, as GET /v1/filings/{accession}/sections uses), or `item_{number}` for an 8-K item (e.g. `item_2.02`)'),
    sectionTitle: z.string().describe('The section\'s heading, or `Item 2.02 (results_of_operations)` for an 8-K item'),
    item: z.string().nullable().describe('The 8-K item number; null for a filing section'),
    rank: z.number().describe('ts_rank_cd cover-density rank of the hit against the query (higher is better; comparable within one query only)'),
    phraseMatch: z.boolean().describe('The text holds the query\'s words as a phrase, in order: such hits rank first'),
    snippet: z.string().describe('Up to two fragments of the text around the matches, joined by " … ", each matching word wrapped in `<mark>` and `</mark>` (the text is otherwise plain, not HTML-escaped)'),
    citationUrl: z.string().describe('The SEC URL of the filing\'s primary document (or its index page when the document is unknown)'),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, citationUrl: true });

const search = operationRoute({
  name: 'search',
  method: 'GET',
  path: '/v1/search',
  summary: 'Full-text search over filing sections and 8-K items, ranked, with highlighted snippets',
  description:
    'PostgreSQL full-text search (English stemming: `risks` finds `risk`) over every ingested 10-K/10-Q section and every 8-K item text. `q` takes web-search syntax: words are all required, `"quoted words"` must appear as a phrase, `or` between words accepts either, and `-word` excludes a word. Hits that hold the query\'s words as a phrase come first, then by ts_rank_cd (cover density), then newest filing first. Each hit names its filing, section and citation, with a snippet where the matched words are wrapped in `<mark>…</mark>`. Filters: the company (`ticker` or `cik`; unknown is 404), the `form` and the filing dates. A `q` with no searchable word (only stop words or punctuation) is 400. Pages go up to 1,000 hits deep.',
  tag: 'Search',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: {
    query: z.strictObject({
      q: z.string().trim().min(1).max(500).describe('Search text, web-search syntax: `"supply chain" disruption`, `tariff or tariffs`, `cybersecurity -insurance`'),
      ticker: tickerParam,
      cik: cikParam,
      form: z.string().trim().min(1).max(20).regex(/^[0-9A-Za-z/ -]+$/, 'expected a form type such as 10-K or 8-K').optional().describe('Only filings of this form type, e.g. 10-K, 10-Q, 8-K (case-insensitive; amendments are their own form, e.g. 10-K/A)'),
      ...dateFilters,
      ...pageParams,
      view: viewParam,
    }),
  },
  response: listEnvelope(hit).extend({
    query: z.string().describe('The search text as applied'),
    coverage: coverageSchema,
  }),
  errors: ['entity_not_found'],
  operation: SearchDocument,
  variables: ({ query }) => ({
    q: query.q,
    ticker: query.ticker ?? null,
    cik: query.cik ?? null,
    form: query.form ?? null,
    filedFrom: query.filed_from ?? null,
    filedTo: query.filed_to ?? null,
    first: query.limit,
    after: query.cursor ?? null,
  }),
}).reshape(({ search: page }, meta, { query }) => ({
  object: 'list',
  query: page.query,
  data: page.nodes.map((h) =>
    inView(query.view, { object: 'search_hit' as const, ...h, source: h.source as 'filing_section' | 'eight_k_item' }, {
      always: ['object', 'id', 'accessionNumber', 'form', 'filedAt', 'sectionKey', 'citationUrl'],
      compact: ['cik', 'sectionTitle', 'snippet'],
      agent: ['cik', 'companyName', 'sectionTitle', 'snippet', 'rank'],
    }),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  coverage: coverage('10-K and 10-Q sections and 8-K item texts of the filings whose documents were ingested'),
  ...meta,
}));

export const searchRoutes: Route[] = [search];
