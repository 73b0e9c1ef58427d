// Situations (resolvers/situations.ts): special situations grouped from a company's filings.
import { listSituations, situationById, situationKinds, type Situation, type TimelineEntry } from '../resolvers/situations.ts';
import { builder } from './builder.ts';
import { companyFilter, maxPageSize } from './edgar.ts';

const Entry = builder.objectRef<TimelineEntry>('SituationFiling').implement({
  description: 'A filing that moves a situation, cited.',
  fields: (t) => ({
    accessionNumber: t.exposeString('accessionNumber'),
    form: t.exposeString('form'),
    items: t.exposeStringList('items', { description: '8-K item numbers' }),
    filedAt: t.exposeString('filedAt', { description: 'YYYY-MM-DD' }),
    role: t.exposeString('role', { description: 'announcement, update or completion' }),
    what: t.exposeString('what'),
    citationUrl: t.exposeString('citationUrl'),
  }),
});

const SituationRef = builder.objectRef<Situation>('Situation').implement({
  description: 'A special situation (merger, tender offer, spin-off, going private, bankruptcy, delisting, activist campaign) tracked over its life from one company\'s filings of one kind less than 180 days apart.',
  fields: (t) => ({
    id: t.exposeString('id', { description: '`sit_<cik>_<digest of kind, CIK and first accession number>`' }),
    kind: t.exposeString('kind', { description: Object.keys(situationKinds).join(', ') }),
    stage: t.exposeString('stage', { description: 'announced, in_progress or completed' }),
    stageRule: t.exposeString('stageRule'),
    cik: t.exposeString('cik'),
    companyName: t.exposeString('companyName'),
    firstFiledAt: t.exposeString('firstFiledAt'),
    lastFiledAt: t.exposeString('lastFiledAt'),
    filingCount: t.exposeInt('filingCount'),
    timeline: t.field({ type: [Entry], resolve: (s) => s.timeline }),
  }),
});

builder.queryFields((t) => ({
  situations: t.connection({
    type: SituationRef,
    description: 'Special situations grouped from held filings, by their last filing newest first.',
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      kind: t.arg.string({ description: Object.keys(situationKinds).join(', ') }),
      stage: t.arg.string({ description: 'announced, in_progress or completed' }),
      from: t.arg({ type: 'Date', description: 'Active on or after: last filing on or after' }),
      to: t.arg({ type: 'Date', description: 'Active on or before: first filing on or before' }),
    },
    resolve: async (_root, args, ctx) => {
      const company = await companyFilter(ctx, args);
      const first = Math.min(Math.max(args.first ?? 25, 1), maxPageSize);
      const page = await listSituations(ctx, { ciks: company.cik?.in ?? null, kind: args.kind, stage: args.stage, from: args.from, to: args.to }, first, args.after ?? null);
      return {
        edges: page.records.map(({ record, cursor }) => ({ cursor, node: record })),
        pageInfo: { hasNextPage: page.hasMore, hasPreviousPage: false, startCursor: page.records[0]?.cursor ?? null, endCursor: page.endCursor },
      };
    },
  }),
  situation: t.field({
    type: SituationRef,
    nullable: true,
    description: 'One situation by id.',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => situationById(ctx, args.id),
  }),
}));
