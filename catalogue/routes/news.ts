// News made from filings (resolvers/news.ts): each 8-K, 6-K and material form held as a dated story
// citing its filing, never written by the service.
import { z } from 'zod';
import { NewsDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';
import { newsForms } from '../../resolvers/news.ts';

const story = z.object({
  object: z.literal('news_story'),
  id: z.string().describe('The filing\'s accession number'),
  publishedAt: z.iso.datetime().describe('When EDGAR accepted the filing (else its filing date)'),
  filedAt: z.string().nullable(),
  form: z.string(),
  cik: z.string(),
  companyName: z.string(),
  tickers: z.array(z.string()).describe('The company\'s tickers (its submissions\' and the SEC ticker maps\')'),
  headline: z.string().describe('What the 8-K items report and, where the filing\'s EX-99 press release was read, its title: "Item 2.02 Results of Operations and Financial Condition: ABVC BioPharma Announces 2024 Financial Results"; without one, the company and its items: "Apple Inc. reports Results of Operations and Financial Condition (8-K 2.02)". A 6-K (no items): the form and its press release\'s title, else its document\'s: "6-K: Acme plc Reports Third Quarter Results"'),
  lead: z.string().nullable().describe('The first sentence-bearing paragraph of the first reported item\'s own text (a 6-K: of its first EX-99 exhibit, else of its document past the cover), at most 600 characters'),
  leadItem: z.string().nullable(),
  leadNullReason: z.enum(['document_not_held', 'no_item_text']).nullable().describe('Why there is no lead: only the index knows the filing, or its document gave no item text'),
  exhibit: z
    .object({
      type: z.string().describe('e.g. EX-99.1'),
      sequence: z.number().int().nullable().describe('Its sequence in the submission'),
      fileName: z.string().nullable(),
      description: z.string().nullable().describe('The submission\'s <DESCRIPTION> of it, as filed'),
      title: z.string().nullable().describe('Its first heading, else a description that names it'),
      citationUrl: z.string().nullable().describe('The exhibit at the SEC'),
    })
    .nullable()
    .describe('The filing\'s first EX-99 press release, cited'),
  exhibitNullReason: z
    .enum(['document_not_held', 'exhibits_not_read', 'no_press_release', 'untitled'])
    .nullable()
    .describe('Why the headline has no press release title: only the index knows the filing; the primary document alone was read (it carries no exhibits); the full submission holds no EX-99; or the release is held (and cited) but untitled'),
  items: z.array(z.object({ item: z.string(), title: z.string().nullable() })),
  accessionNumber: z.string(),
  citationUrl: z.string(),
});

export const newsRoutes = [
  operationRoute({
    name: 'news_list',
    method: 'GET',
    path: '/v1/news',
    summary: 'Stories made from held filings, newest first',
    description:
      `Each held filing of a form that announces something (${Object.keys(newsForms).join(', ')}) is a dated story: its headline says what the form and its 8-K items report (item 9.01, exhibits, counts only alone) and, where the filing's full submission was read, the title of its EX-99 press release (its first heading, else a description that names it; the story cites the exhibit, else \`exhibitNullReason\` says why not), its lead is the filing's own words (the first paragraph of its first reported item, when its document was read; else \`leadNullReason\`), and it cites the filing. The service writes nothing of its own. ` +
      'Filters: company (`ticker` or `cik`), `form`, 8-K `item`, filing dates, and `q`, full text over the items\' words (websearch syntax: quotes for phrases, `or`, `-` to exclude; at most 5,000 matching filings are paged).',
    tag: 'News',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    errors: ['entity_not_found', 'invalid_query_parameter'],
    params: {
      query: z.strictObject({
        ticker: tickerParam,
        cik: cikParam,
        form: z.string().min(1).max(20).optional().describe('One of the forms that make stories'),
        item: z.string().regex(/^\d{1,2}\.\d{2}$/, 'expected an 8-K item number like 5.02').optional().describe('Only stories reporting this 8-K item'),
        ...dateFilters,
        q: z.string().min(1).max(200).optional().describe('Full text over the items\' words'),
        ...pageParams,
        view: viewParam,
      }),
    },
    response: listEnvelope(story).extend({ coverage: coverageSchema }),
    operation: NewsDocument,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, form: query.form ?? null, item: query.item ?? null, from: query.filed_from ?? null, to: query.filed_to ?? null, q: query.q ?? null, first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ news }, meta, { query }) => ({
    object: 'list',
    data: news.nodes.map((s) => ({ object: 'news_story' as const, ...s, leadNullReason: s.leadNullReason ?? null, exhibitNullReason: s.exhibitNullReason ?? null })),
    hasMore: news.pageInfo.hasNextPage,
    nextCursor: news.pageInfo.hasNextPage ? news.pageInfo.endCursor : null,
    coverage: coverage(['stories from filings', query.ticker && `of ${query.ticker}`, query.cik && `of CIK ${query.cik}`, query.form && `of form ${query.form}`, query.item && `reporting item ${query.item}`, query.q && `matching "${query.q}"`].filter(Boolean).join(' ')),
    ...meta,
  })),
];
