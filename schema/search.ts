// Full-text search over filing sections and 8-K items (resolvers/search.ts).
import { requireDataAccess } from '../resolvers/access.ts';
import { searchFilings, type SearchHit } from '../resolvers/search.ts';
import { builder } from './builder.ts';
import { companyFilter, maxPageSize } from './edgar.ts';

const Hit = builder.objectRef<SearchHit>('SearchHit').implement({
  description: 'A filing section or 8-K item matching the query, with a highlighted snippet and its citation.',
  fields: (t) => ({
    id: t.exposeString('id'),
    source: t.exposeString('source', { description: 'filing_section (a 10-K/10-Q section) or eight_k_item (an 8-K item\'s text)' }),
    accessionNumber: t.exposeString('accessionNumber'),
    cik: t.exposeString('cik'),
    companyName: t.exposeString('companyName', { nullable: true }),
    form: t.exposeString('form'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    sectionKey: t.exposeString('sectionKey'),
    sectionTitle: t.exposeString('sectionTitle'),
    item: t.exposeString('item', { nullable: true }),
    rank: t.exposeFloat('rank'),
    phraseMatch: t.exposeBoolean('phraseMatch'),
    snippet: t.exposeString('snippet'),
    citationUrl: t.exposeString('citationUrl'),
  }),
});

const Page = builder.objectRef<{ query: string; nodes: SearchHit[]; hasMore: boolean; nextCursor: string | null }>('SearchPage').implement({
  fields: (t) => ({
    query: t.exposeString('query'),
    nodes: t.field({ type: [Hit], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  search: t.field({
    type: Page,
    description: 'Full-text search over filing sections and 8-K items: websearch syntax, phrase matches first, then ts_rank_cd.',
    args: {
      q: t.arg.string({ required: true }),
      ticker: t.arg.string(),
      cik: t.arg.string(),
      form: t.arg.string(),
      filedFrom: t.arg({ type: 'Date' }),
      filedTo: t.arg({ type: 'Date' }),
      first: t.arg.int({ defaultValue: 25 }),
      after: t.arg.string(),
    },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      const first = Math.min(Math.max(args.first ?? 25, 1), maxPageSize);
      return searchFilings(ctx, { ...args, ciks: company.cik?.in }, { first, after: args.after });
    },
  }),
}));
