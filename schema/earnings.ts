// Earnings: 8-K Item 2.02 releases joined with the quarter's revenue, net income and
// diluted EPS from the statements, and the change against the prior year (resolvers/earnings.ts).
import { requireDataAccess } from '../resolvers/access.ts';
import { earningsPage, type EarningsMetric, type EarningsQuarter, type EarningsRelease } from '../resolvers/earnings.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';
import { maxPageSize, requireCik } from './edgar.ts';

const Metric = builder.objectRef<EarningsMetric>('EarningsMetric').implement({
  description: 'One figure of a quarter, from the stored statements, with the same quarter of the prior fiscal year.',
  fields: (t) => ({
    value: t.exposeString('value', { nullable: true, description: 'Exact decimal as filed (or exact arithmetic on filed values for a derived quarter)' }),
    unit: t.exposeString('unit', { nullable: true }),
    derived: t.exposeBoolean('derived'),
    derivation: t.exposeString('derivation', { nullable: true }),
    missing: t.exposeString('missing', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    tag: t.exposeString('tag', { nullable: true }),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    form: t.exposeString('form', { nullable: true }),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    citationUrl: t.exposeString('citationUrl', { nullable: true }),
    priorYearValue: t.exposeString('priorYearValue', { nullable: true }),
    priorYearDerived: t.exposeBoolean('priorYearDerived', { nullable: true }),
    yoyChange: t.exposeString('yoyChange', { nullable: true }),
    yoyChangePercent: t.exposeFloat('yoyChangePercent', { nullable: true }),
    yoyNullReason: t.exposeString('yoyNullReason', { nullable: true }),
  }),
});

const Release = builder.objectRef<EarningsRelease>('EarningsRelease').implement({
  description: 'An 8-K reporting Item 2.02 (results of operations and financial condition).',
  fields: (t) => ({
    accessionNumber: t.exposeString('accessionNumber'),
    form: t.exposeString('form'),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    eventDate: t.exposeString('eventDate', { nullable: true }),
    items: t.exposeStringList('items'),
    exhibitNumber: t.exposeString('exhibitNumber', { nullable: true }),
    exhibitNullReason: t.exposeString('exhibitNullReason', { nullable: true }),
    excerpt: t.exposeString('excerpt', { nullable: true }),
    fromIndexOnly: t.exposeBoolean('fromIndexOnly'),
    citationUrl: t.exposeString('citationUrl'),
  }),
});

const Quarter = builder.objectRef<EarningsQuarter>('EarningsQuarter').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    cik: t.exposeString('cik'),
    fiscalYear: t.exposeInt('fiscalYear', { nullable: true }),
    fiscalPeriod: t.exposeString('fiscalPeriod', { nullable: true }),
    periodStart: t.exposeString('periodStart', { nullable: true }),
    periodEnd: t.exposeString('periodEnd', { nullable: true }),
    release: t.field({ type: Release, nullable: true, resolve: (q) => q.release }),
    releaseNullReason: t.exposeString('releaseNullReason', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
    revenue: t.field({ type: Metric, nullable: true, resolve: (q) => q.revenue }),
    netIncome: t.field({ type: Metric, nullable: true, resolve: (q) => q.netIncome }),
    epsDiluted: t.field({ type: Metric, nullable: true, resolve: (q) => q.epsDiluted }),
    financialsNullReason: t.exposeString('financialsNullReason', { nullable: true }),
    priorYearPeriodEnd: t.exposeString('priorYearPeriodEnd', { nullable: true }),
  }),
});

const Page = builder.objectRef<{ cik: string; nodes: EarningsQuarter[]; hasMore: boolean; nextCursor: string | null; statementsReason: string | null }>('EarningsPage').implement({
  fields: (t) => ({
    cik: t.exposeString('cik'),
    nodes: t.field({ type: [Quarter], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
    statementsReason: t.exposeString('statementsReason', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  earnings: t.field({
    type: Page,
    description: 'A company\'s fiscal quarters, newest first: the 8-K Item 2.02 release and the quarter\'s revenue, net income and diluted EPS with the prior-year change.',
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      fiscalYear: t.arg.int(),
      fiscalPeriod: t.arg.string({ description: 'Q1, Q2, Q3 or Q4' }),
      withRelease: t.arg.boolean({ description: 'Only quarters an 8-K Item 2.02 release was matched to' }),
      first: t.arg.int({ defaultValue: 25 }),
      after: t.arg.string(),
    },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      if (args.fiscalPeriod && !['Q1', 'Q2', 'Q3', 'Q4'].includes(args.fiscalPeriod)) throw new ApiError('invalid_query_parameter', 'fiscalPeriod must be Q1, Q2, Q3 or Q4.', { details: { parameter: 'fiscal_period' } });
      const cik = await requireCik(ctx, args);
      const first = Math.min(Math.max(args.first ?? 25, 1), maxPageSize);
      return earningsPage(ctx, cik, { fiscalYear: args.fiscalYear, fiscalPeriod: args.fiscalPeriod, withRelease: args.withRelease }, { first, after: args.after });
    },
  }),
}));
