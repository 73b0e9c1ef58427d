// Compensation and board (issue 14): pay versus performance from DEF 14A ecd facts, and directors
// and officers over time from 8-K Item 5.02 (resolvers/compensation.ts).
import { requireDataAccess } from '../resolvers/access.ts';
import { boardMembers, payVersusPerformance, type BoardMemberEvent, type PayVersusPerformance, type PayVersusPerformanceYear } from '../resolvers/compensation.ts';
import { ApiError } from '../server/errors.ts';
import { builder } from './builder.ts';
import { companyFilter, maxPageSize } from './edgar.ts';

const Adjustment = builder.objectRef<PayVersusPerformanceYear['adjustments'][number]>('PayVersusPerformanceAdjustment').implement({
  description: 'One line of the reconciliation from the Summary Compensation Table total to compensation actually paid (ecd:AdjToCompAmt by ecd:AdjToCompAxis).',
  fields: (t) => ({
    executive: t.exposeString('executive', { description: 'peo or non_peo_neo_average' }),
    adjustment: t.exposeString('adjustment', { description: 'The adjustment member as tagged, e.g. YearEndFairValueOfEquityAwardsGrantedInTheYear' }),
    amount: t.exposeString('amount'),
  }),
});

const Year = builder.objectRef<PayVersusPerformanceYear>('PayVersusPerformanceYear').implement({
  description: 'One covered fiscal year of the pay-versus-performance table; amounts are exact as tagged (US dollars; TSR as the value of $100).',
  fields: (t) => ({
    fiscalYearEnd: t.exposeString('fiscalYearEnd'),
    peoSummaryCompensationTotal: t.exposeString('peoSummaryCompensationTotal', { nullable: true }),
    peoCompensationActuallyPaid: t.exposeString('peoCompensationActuallyPaid', { nullable: true }),
    nonPeoNeoAverageSummaryCompensationTotal: t.exposeString('nonPeoNeoAverageSummaryCompensationTotal', { nullable: true }),
    nonPeoNeoAverageCompensationActuallyPaid: t.exposeString('nonPeoNeoAverageCompensationActuallyPaid', { nullable: true }),
    totalShareholderReturn: t.exposeString('totalShareholderReturn', { nullable: true }),
    peerGroupTotalShareholderReturn: t.exposeString('peerGroupTotalShareholderReturn', { nullable: true }),
    netIncome: t.exposeString('netIncome', { nullable: true }),
    netIncomeNullReason: t.exposeString('netIncomeNullReason', { nullable: true }),
    companySelectedMeasureValue: t.exposeString('companySelectedMeasureValue', { nullable: true }),
    adjustments: t.field({ type: [Adjustment], resolve: (y) => y.adjustments }),
  }),
});

const PayVersusPerformanceRef = builder.objectRef<PayVersusPerformance>('PayVersusPerformance').implement({
  description: 'A DEF 14A\'s pay-versus-performance table (Item 402(v)), from its ecd inline XBRL.',
  fields: (t) => ({
    id: t.exposeString('id'),
    cik: t.exposeString('cik'),
    companyName: t.exposeString('companyName', { nullable: true }),
    formType: t.exposeString('formType'),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    citationUrl: t.exposeString('citationUrl', { nullable: true }),
    citationNullReason: t.exposeString('citationNullReason', { nullable: true }),
    sourceDocument: t.exposeString('sourceDocument'),
    companySelectedMeasureName: t.exposeString('companySelectedMeasureName', { nullable: true }),
    companySelectedMeasureNameNullReason: t.exposeString('companySelectedMeasureNameNullReason', { nullable: true }),
    years: t.field({ type: [Year], description: 'Newest covered year first', resolve: (p) => p.years }),
  }),
});

const BoardMemberEventRef = builder.objectRef<BoardMemberEvent>('BoardMemberEvent').implement({
  description: 'A director or officer change a filing states (8-K Item 5.02).',
  fields: (t) => ({
    id: t.exposeString('id'),
    cik: t.exposeString('cik', { nullable: true }),
    person: t.exposeString('person'),
    role: t.exposeString('role', { nullable: true }),
    event: t.exposeString('event', { description: 'appointed, elected, departed or compensation' }),
    effectiveDate: t.exposeString('effectiveDate', { nullable: true }),
    eventDate: t.exposeString('eventDate', { nullable: true }),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    source: t.exposeString('source'),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    citationUrl: t.exposeString('citationUrl', { nullable: true }),
    excerpt: t.exposeString('excerpt', { nullable: true }),
    confidence: t.exposeString('confidence', { nullable: true }),
  }),
});

const BoardMemberPage = builder.objectRef<{ nodes: BoardMemberEvent[]; hasMore: boolean; nextCursor: string | null }>('BoardMemberPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [BoardMemberEventRef], resolve: (p) => p.nodes }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  payVersusPerformance: t.field({
    type: [PayVersusPerformanceRef],
    description: 'DEF 14A pay-versus-performance tables, newest proxy first, as GET /v1/compensation/pay-versus-performance documents them.',
    args: { ticker: t.arg.string(), cik: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      return payVersusPerformance(ctx, company.cik?.in ?? null);
    },
  }),
  boardMembers: t.field({
    type: BoardMemberPage,
    description: 'Director and officer changes of a company from 8-K Item 5.02, newest first, as GET /v1/board/members documents them.',
    args: { ticker: t.arg.string(), cik: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      if (!company.cik) throw new ApiError('invalid_query_parameter', 'Name the company with ticker or cik.', { details: { parameter: 'ticker' } });
      return boardMembers(ctx, company.cik.in, { first: Math.min(Math.max(args.first ?? 25, 1), maxPageSize), after: args.after });
    },
  }),
}));
