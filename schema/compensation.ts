// Compensation and board: pay versus performance from DEF 14A inline XBRL, and directors
// and officers over time from 8-K Item 5.02 and DEF 14A director nominees (resolvers/compensation.ts).
import { requireDataAccess } from '../resolvers/access.ts';
import { boardMembers, payVersusPerformance, type BoardMemberEvent, type MostImportantMeasure, type PayVersusPerformance, type PayVersusPerformanceYear, type XbrlSource } from '../resolvers/compensation.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';
import { companyFilter, maxPageSize } from './edgar.ts';

const XbrlSourceRef = builder.objectRef<XbrlSource>('XbrlSource').implement({
  description: 'Where a value was read in the filing\'s inline XBRL: the tag and the contextRef it was tagged with.',
  fields: (t) => ({
    tag: t.exposeString('tag', { description: 'QName, e.g. ecd:PeoTotalCompAmt, us-gaap:NetIncomeLoss' }),
    contextRef: t.exposeString('contextRef', { nullable: true, description: 'null only for a record ingested before contextRefs were kept (the next ingest reads it again)' }),
  }),
});

const FieldSource = builder.objectRef<PayVersusPerformanceYear['sources'][number]>('PayVersusPerformanceSource').implement({
  description: 'The tag and contextRef one value of a pay-versus-performance year was read from.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The year\'s field, e.g. netIncome' }),
    tag: t.exposeString('tag'),
    contextRef: t.exposeString('contextRef', { nullable: true }),
  }),
});

const CompanySelectedMeasure = builder.objectRef<NonNullable<PayVersusPerformanceYear['companySelectedMeasure']>>('CompanySelectedMeasure').implement({
  description: 'The company-selected measure (Item 402(v)(2)(vi)): its name (ecd:CoSelectedMeasureName, stated once for the statement) and the year\'s value (ecd:CoSelectedMeasureAmt).',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true }),
    value: t.exposeString('value', { nullable: true, description: 'Exact as tagged (scale and sign applied)' }),
    nameSource: t.field({ type: XbrlSourceRef, nullable: true, resolve: (m) => m.nameSource }),
    valueSource: t.field({ type: XbrlSourceRef, nullable: true, resolve: (m) => m.valueSource }),
  }),
});

const MostImportantMeasureRef = builder.objectRef<MostImportantMeasure>('MostImportantMeasure').implement({
  description: 'One measure of the tabular list of the most important financial performance measures (Item 402(v)(6), ecd:MeasureName by ecd:MeasureAxis).',
  fields: (t) => ({
    position: t.exposeInt('position', { description: '1-based, in the order the statement lists them (the list need not be ranked)' }),
    name: t.exposeString('name'),
    source: t.field({ type: XbrlSourceRef, resolve: (m) => m.source }),
  }),
});

const Adjustment = builder.objectRef<PayVersusPerformanceYear['adjustments'][number]>('PayVersusPerformanceAdjustment').implement({
  description: 'One line of the reconciliation from the Summary Compensation Table total to compensation actually paid (ecd:AdjToCompAmt by ecd:AdjToCompAxis).',
  fields: (t) => ({
    executive: t.exposeString('executive', { description: 'peo or non_peo_neo_average' }),
    adjustment: t.exposeString('adjustment', { description: 'The adjustment member as tagged, e.g. YearEndFairValueOfEquityAwardsGrantedInTheYear' }),
    amount: t.exposeString('amount'),
    contextRef: t.exposeString('contextRef', { nullable: true, description: 'The ecd:AdjToCompAmt fact\'s contextRef' }),
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
    netIncome: t.exposeString('netIncome', { nullable: true, description: 'Net income as the table shows it (us-gaap:NetIncomeLoss), exact as tagged (scale and sign applied)' }),
    netIncomeNullReason: t.exposeString('netIncomeNullReason', { nullable: true }),
    companySelectedMeasureValue: t.exposeString('companySelectedMeasureValue', { nullable: true }),
    companySelectedMeasure: t.field({ type: CompanySelectedMeasure, nullable: true, resolve: (y) => y.companySelectedMeasure }),
    adjustments: t.field({ type: [Adjustment], resolve: (y) => y.adjustments }),
    sources: t.field({ type: [FieldSource], description: 'The tag and contextRef of each value of the year', resolve: (y) => y.sources }),
  }),
});

const PayVersusPerformanceRef = builder.objectRef<PayVersusPerformance>('PayVersusPerformance').implement({
  description: 'A DEF 14A\'s pay-versus-performance table (Item 402(v)), from its inline XBRL (ecd, and us-gaap:NetIncomeLoss).',
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
    companySelectedMeasureNameSource: t.field({ type: XbrlSourceRef, nullable: true, resolve: (p) => p.companySelectedMeasureNameSource }),
    mostImportantMeasures: t.field({ type: [MostImportantMeasureRef], description: 'The tabular list of the most important financial performance measures, as listed', resolve: (p) => p.mostImportantMeasures }),
    mostImportantMeasuresNullReason: t.exposeString('mostImportantMeasuresNullReason', { nullable: true }),
    years: t.field({ type: [Year], description: 'Newest covered year first', resolve: (p) => p.years }),
  }),
});

const BoardMemberEventRef = builder.objectRef<BoardMemberEvent>('BoardMemberEvent').implement({
  description: 'A director or officer change a filing states (8-K Item 5.02), or a director nominee a proxy statement names (DEF 14A).',
  fields: (t) => ({
    id: t.exposeString('id'),
    cik: t.exposeString('cik', { nullable: true }),
    person: t.exposeString('person'),
    role: t.exposeString('role', { nullable: true }),
    event: t.exposeString('event', { description: 'appointed, elected, departed, compensation (8-K) or nominated (DEF 14A)' }),
    effectiveDate: t.exposeString('effectiveDate', { nullable: true }),
    eventDate: t.exposeString('eventDate', { nullable: true }),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    source: t.exposeString('source', { description: '8-K Item 5.02 or DEF 14A' }),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    citationUrl: t.exposeString('citationUrl', { nullable: true }),
    sourceDocument: t.exposeString('sourceDocument', { nullable: true, description: 'DEF 14A rows: the ingested file the nominee was read from' }),
    excerpt: t.exposeString('excerpt', { nullable: true }),
    sourceSpan: t.exposeString('sourceSpan', { nullable: true, description: 'DEF 14A rows: the heading cell naming the nominee' }),
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
    description: 'Director and officer changes of a company from 8-K Item 5.02 and director nominees from DEF 14A, newest first, as GET /v1/board/members documents them.',
    args: { ticker: t.arg.string(), cik: t.arg.string(), first: t.arg.int({ defaultValue: 25 }), after: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      if (!company.cik) throw new ApiError('invalid_query_parameter', 'Name the company with ticker or cik.', { details: { parameter: 'ticker' } });
      return boardMembers(ctx, company.cik.in, { first: Math.min(Math.max(args.first ?? 25, 1), maxPageSize), after: args.after });
    },
  }),
}));
