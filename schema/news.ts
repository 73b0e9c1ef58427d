// News (resolvers/news.ts): filings that announce something, as dated stories citing them.
import { citationUrl } from '../derived/citations.ts';
import { itemTitle } from '../ingest/parsers/eightK/sections.ts';
import { requireDataAccess } from '../resolvers/access.ts';
import { exhibitOf, headlineOf, leadOf, newsWhere, storySelect, tickersOf, type StoryExhibit } from '../resolvers/news.ts';
import { builder } from './builder.ts';
import { companyFilter, maxPageSize } from './edgar.ts';

const NewsItem = builder.objectRef<{ item: string; title: string | null }>('NewsItem').implement({
  description: 'An 8-K item the filing reports, with the title Form 8-K gives it.',
  fields: (t) => ({ item: t.exposeString('item'), title: t.exposeString('title', { nullable: true }) }),
});

const LeadNullReason = builder.enumType('NewsLeadNullReason', {
  values: { document_not_held: { description: 'Only the index knows the filing; its document was not read' }, no_item_text: { description: 'The document was read but gave no item text' } } as const,
});

const NewsExhibit = builder.objectRef<StoryExhibit>('NewsExhibit').implement({
  description: 'The EX-99 press release a story cites: the exhibit as the submission lists it, and its title.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'The exhibit type, e.g. EX-99.1' }),
    sequence: t.exposeInt('sequence', { nullable: true, description: 'Its sequence in the submission' }),
    fileName: t.exposeString('fileName', { nullable: true }),
    description: t.exposeString('description', { nullable: true, description: 'The submission\'s description of it, as filed' }),
    title: t.exposeString('title', { nullable: true, description: 'Its first heading, else a description that names it' }),
    citationUrl: t.exposeString('citationUrl', { nullable: true, description: 'The exhibit at the SEC' }),
  }),
});

const ExhibitNullReason = builder.enumType('NewsExhibitNullReason', {
  values: {
    document_not_held: { description: 'Only the index knows the filing; its document was not read' },
    exhibits_not_read: { description: 'The document read was the primary document alone, which does not carry the exhibits' },
    no_press_release: { description: 'The full submission was read and holds no EX-99 exhibit' },
    untitled: { description: 'The press release is held (and cited) but neither a heading nor its description gives a title' },
  } as const,
});

const NewsStory = builder.prismaObject('Filing', {
  variant: 'NewsStory',
  description: 'A dated story made from a filing: the headline says what the form and its items report, the lead is the filing\'s own words. Never written by the service.',
  select: storySelect,
  fields: (t) => ({
    id: t.exposeString('accessionNumber', { description: 'The filing\'s accession number' }),
    publishedAt: t.field({ type: 'DateTime', description: 'When EDGAR accepted the filing (else its filing date)', resolve: (f) => f.acceptedAt ?? f.orderedAt }),
    filedAt: t.expose('filedAt', { type: 'Date', nullable: true }),
    form: t.exposeString('form'),
    cik: t.exposeString('cik'),
    companyName: t.string({ resolve: (f) => f.entity.name }),
    tickers: t.stringList({ description: 'The company\'s tickers (its submissions\' and the SEC ticker maps\')', resolve: (f) => tickersOf(f) }),
    headline: t.string({ description: 'What the 8-K items (a 6-K: its form) report, with the press release\'s (a 6-K: else the document\'s) title where one is held', resolve: (f) => headlineOf(f) }),
    lead: t.string({ nullable: true, description: 'The first sentence-bearing paragraph of the first reported item\'s own text (a 6-K: of its first EX-99 exhibit, else of its document past the cover), at most 600 characters', resolve: (f) => leadOf(f).text }),
    leadItem: t.string({ nullable: true, description: 'The 8-K item the lead comes from', resolve: (f) => leadOf(f).item }),
    leadNullReason: t.field({ type: LeadNullReason, nullable: true, resolve: (f) => leadOf(f).nullReason }),
    exhibit: t.field({ type: NewsExhibit, nullable: true, description: 'The first EX-99 press release of the filing, when its full submission was read', resolve: (f) => exhibitOf(f).exhibit }),
    exhibitNullReason: t.field({ type: ExhibitNullReason, nullable: true, description: 'Why the headline has no press release title', resolve: (f) => exhibitOf(f).nullReason }),
    items: t.field({ type: [NewsItem], resolve: (f) => f.items.map((item) => ({ item, title: itemTitle(item) })) }),
    accessionNumber: t.exposeString('accessionNumber'),
    citationUrl: t.string({ description: 'The filing\'s primary document (else its folder) at the SEC', resolve: (f) => citationUrl(f.cik, f.accessionNumber, f.primaryDocument) }),
  }),
});

builder.queryFields((t) => ({
  news: t.prismaConnection({
    type: NewsStory,
    cursor: 'accessionNumber',
    description: 'Stories made from held filings (8-K, 6-K, merger, tender, activist, delisting and late-filing forms), newest first.',
    defaultSize: 25,
    maxSize: maxPageSize,
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      form: t.arg.string(),
      item: t.arg.string({ description: '8-K item number, e.g. 5.02' }),
      from: t.arg({ type: 'Date' }),
      to: t.arg({ type: 'Date' }),
      q: t.arg.string({ description: 'Full text over the items\' words (websearch syntax: quotes, or, -)' }),
    },
    resolve: async (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      const where = await newsWhere(ctx, { ciks: company.cik?.in ?? null, form: args.form, item: args.item, from: args.from, to: args.to, q: args.q });
      return ctx.prisma.filing.findMany({ ...query, where, orderBy: [{ orderedAt: 'desc' }, { accessionNumber: 'desc' }] });
    },
  }),
}));
