// Reported facts (with the tag the issuer actually uses), normalized statements and segments.
import { requireDataAccess } from '../resolvers/access.ts';
import { citationKey, citationUrl, documentCitations, documentsHeld } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import type { Context } from '../resolvers/context.ts';
import { companySegments, companyStatements, factDurations, factDurationTable, factSeries, factsCursor, factsOffset, type FactDuration as Duration, type FactFilters, type FactRow } from '../resolvers/financials.ts';
import type { SegmentAxis, SegmentMember, SegmentPeriod, SegmentReport } from '../derived/segments.ts';
import type { FactSource, StatementBundle, StatementLine, StatementPeriod } from '../derived/statements.ts';
import { builder } from './builder.ts';
import { maxPageSize, requireCik } from './edgar.ts';

const FactRef = builder.objectRef<FactRow>('Fact').implement({
  description: 'One reported XBRL value, as filed, with the filing it came from.',
  fields: (t) => ({
    taxonomy: t.exposeString('taxonomy'),
    tag: t.exposeString('tag'),
    unit: t.exposeString('unit'),
    value: t.exposeString('value', { description: 'The exact decimal as filed' }),
    periodStart: t.expose('periodStart', { type: 'Date', nullable: true }),
    periodEnd: t.expose('periodEnd', { type: 'Date', description: 'The instant, for an instant fact' }),
    isInstant: t.exposeBoolean('isInstant'),
    fy: t.exposeInt('fy', { nullable: true }),
    fp: t.exposeString('fp', { nullable: true }),
    form: t.exposeString('form', { nullable: true }),
    frame: t.exposeString('frame', { nullable: true }),
    accessionNumber: t.exposeString('accessionNumber'),
    filedAt: t.expose('filedAt', { type: 'Date', nullable: true }),
    dimensions: t.expose('dimensions', { type: 'JSON' }),
    // the series read its filing's primary document with the fact
    citationUrl: t.string({ description: 'The filing\'s primary document (its index page when the document is not known)', resolve: (f) => citationUrl(f.cik, f.accessionNumber, f.primaryDocument) }),
  }),
});

const Source = builder.objectRef<FactSource & { cik: string }>('FactSource').implement({
  description: 'The fact a value came from.',
  fields: (t) => ({
    taxonomy: t.exposeString('taxonomy'),
    tag: t.exposeString('tag'),
    value: t.exposeString('value'),
    accessionNumber: t.exposeString('accessionNumber'),
    form: t.exposeString('form', { nullable: true }),
    filedAt: t.exposeString('filedAt', { nullable: true }),
    periodStart: t.exposeString('periodStart', { nullable: true }),
    periodEnd: t.exposeString('periodEnd'),
    citationUrl: t.loadable({ type: 'String', load: (keys: string[], ctx) => documentCitations(ctx, keys), resolve: (s) => citationKey(s.cik, s.accessionNumber) }),
    decimals: t.string({
      nullable: true,
      description: 'The XBRL `decimals` of the fact as filed (-6: rounded to the million, as a table "in millions" prints it; INF: exact); null where the source does not carry them (the SEC\'s companyfacts)',
      resolve: (s) => s.decimals ?? null,
    }),
    documentHeld: t.loadable({
      type: 'Boolean',
      description: 'Whether the service stores the document of the filing the value was read from, so that filing.render shows it',
      load: (accessions: string[], ctx: DataReader) => documentsHeld(ctx, accessions),
      resolve: (s) => s.accessionNumber,
    }),
  }),
});

const withCik = (cik: string, source: FactSource | null) => (source ? { ...source, cik } : null);

const Line = builder.objectRef<StatementLine & { cik: string }>('StatementLine').implement({
  description: 'A normalized statement line: its value and the fact behind it, or why there is none.',
  fields: (t) => ({
    key: t.exposeString('key'),
    label: t.exposeString('label'),
    value: t.exposeString('value', { nullable: true }),
    unit: t.exposeString('unit', { nullable: true }),
    fact: t.field({ type: Source, nullable: true, resolve: (l) => withCik(l.cik, l.fact) }),
    restatedFrom: t.field({ type: Source, nullable: true, description: 'Statements of latest values: the value as first filed, when a later filing changed it', resolve: (l) => withCik(l.cik, l.restatedFrom) }),
    restatedTo: t.field({ type: Source, nullable: true, description: 'Statements as first reported: the value a later filing changed it to', resolve: (l) => withCik(l.cik, l.restatedTo ?? null) }),
    derived: t.exposeBoolean('derived', { description: 'True for a quarter computed from other reported values (Q4 = FY − Q1 − Q2 − Q3)' }),
    derivation: t.field({ type: 'JSON', nullable: true, resolve: (l) => l.derivation }),
    missing: t.exposeString('missing', { nullable: true, description: 'not_reported, not_covered or not_derivable; never a 0 in place of a value' }),
    note: t.exposeString('note', { nullable: true }),
  }),
});

const lines = (cik: string, record: Record<string, StatementLine>) => Object.values(record).map((line) => ({ ...line, cik }));

const Period = builder.objectRef<StatementPeriod & { cik: string }>('StatementPeriod').implement({
  fields: (t) => ({
    fiscalYear: t.exposeInt('fiscalYear'),
    fiscalPeriod: t.exposeString('fiscalPeriod', { description: 'FY, Q1, Q2, Q3 or Q4' }),
    periodStart: t.exposeString('periodStart'),
    periodEnd: t.exposeString('periodEnd'),
    income: t.field({ type: [Line], resolve: (p) => lines(p.cik, p.income) }),
    balanceSheet: t.field({ type: [Line], resolve: (p) => lines(p.cik, p.balanceSheet) }),
    cashFlow: t.field({ type: [Line], resolve: (p) => lines(p.cik, p.cashFlow) }),
  }),
});

const Bundle = builder.objectRef<StatementBundle & { cik: string; coverage: { facts: number }; emptyReason: string | null }>('StatementBundle').implement({
  description: 'Income statement, balance sheet and cash flow, most recent period first.',
  fields: (t) => ({
    cik: t.exposeString('cik'),
    period: t.exposeString('period', { description: 'annual or quarterly' }),
    asReported: t.exposeString('asReported', { description: asReportedDescription }),
    taxonomy: t.exposeString('taxonomy', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
    periods: t.field({ type: [Period], resolve: (b) => b.periods.map((p) => ({ ...p, cik: b.cik })) }),
    factsCovered: t.int({ description: 'How many facts of this company are held', resolve: (b) => b.coverage.facts }),
    emptyReason: t.exposeString('emptyReason', { nullable: true, description: 'Why there are no periods, when there are none: not_covered, not_reported or not_derivable, and the detail' }),
  }),
});

const Member = builder.objectRef<SegmentMember & { cik: string }>('SegmentMember').implement({
  fields: (t) => ({
    member: t.exposeString('member'),
    revenue: t.exposeString('revenue'),
    fact: t.field({ type: Source, resolve: (m) => withCik(m.cik, m.fact)! }),
    shareOfTotal: t.exposeString('shareOfTotal', { nullable: true, description: 'Share of consolidated revenue, 4 decimal places' }),
    inBreakdown: t.exposeBoolean('inBreakdown', { description: 'False for a subtotal of other members' }),
    operatingIncome: t.exposeString('operatingIncome', { nullable: true }),
    operatingMargin: t.exposeString('operatingMargin', { nullable: true }),
    priorRevenue: t.exposeString('priorRevenue', { nullable: true }),
    yoyGrowth: t.exposeString('yoyGrowth', { nullable: true }),
  }),
});

const SegPeriod = builder.objectRef<SegmentPeriod & { cik: string }>('SegmentPeriod').implement({
  fields: (t) => ({
    periodStart: t.exposeString('periodStart'),
    periodEnd: t.exposeString('periodEnd'),
    revenueTag: t.exposeString('revenueTag'),
    unit: t.exposeString('unit'),
    total: t.string({ nullable: true, resolve: (p) => p.total?.value ?? null }),
    breakdownSum: t.exposeString('breakdownSum'),
    confidence: t.exposeString('confidence', { description: 'reported or low_confidence' }),
    reason: t.exposeString('reason'),
    members: t.field({ type: [Member], resolve: (p) => p.members.map((m) => ({ ...m, cik: p.cik })) }),
  }),
});

const Axis = builder.objectRef<SegmentAxis & { cik: string }>('SegmentAxis').implement({
  fields: (t) => ({
    axis: t.exposeString('axis'),
    kind: t.exposeString('kind', { description: 'product, geographic or operating' }),
    confidence: t.exposeString('confidence', { description: 'reported when the members add up to the consolidated total, else low_confidence' }),
    periods: t.field({ type: [SegPeriod], resolve: (a) => a.periods.map((p) => ({ ...p, cik: a.cik })) }),
  }),
});

const Segments = builder.objectRef<SegmentReport & { cik: string }>('SegmentReport').implement({
  description: 'Revenue by product line, geography and operating segment, from dimensional XBRL facts.',
  fields: (t) => ({
    cik: t.exposeString('cik'),
    rounding: t.exposeString('rounding'),
    axes: t.field({ type: [Axis], resolve: (r) => r.axes.map((a) => ({ ...a, cik: r.cik })) }),
  }),
});

/** A page of a fact series, as the facts field reads it (readFactSeries). */
type Series = Awaited<ReturnType<typeof factSeries>> & { cik: string; offset: number };

/** `resolution` of a series: not_covered when the service holds no fact of the company. */
export const seriesResolution = (s: Series) => (s.coverage.facts === 0 ? 'not_covered' : s.resolution.reason);
export const seriesExplanation = (s: Series) =>
  s.coverage.facts === 0 ? 'The service holds no XBRL facts of this company, so it cannot say whether the issuer reports this tag.' : s.resolution.explanation;
export const seriesNextCursor = (s: Series) => (s.hasMore ? factsCursor(s.offset + s.facts.length) : null);
export const seriesResolvedTags = (s: Series) => s.resolution.tags.map((r) => `${r.taxonomy}:${r.tag}`);

const FactSeries = builder.objectRef<Series>('FactSeries').implement({
  description: 'Reported values of one concept: the tag asked for, the tags the issuer uses, and the facts, a page at a time.',
  fields: (t) => ({
    cik: t.exposeString('cik'),
    requestedTag: t.string({ resolve: (s) => s.resolution.requestedTag }),
    resolvedTag: t.string({ nullable: true, description: 'The tag read first (the requested one when the issuer reports it)', resolve: (s) => s.resolution.resolvedTag }),
    resolvedTags: t.stringList({ description: 'Every tag the series reads, preferred first (taxonomy:tag); several when a line is stitched by period', resolve: seriesResolvedTags }),
    taxonomy: t.string({ nullable: true, resolve: (s) => s.resolution.taxonomy }),
    resolution: t.string({
      description: 'exact, alias, not_reported (the issuer reports none of the tags), or not_covered (the service holds no facts of this company)',
      resolve: seriesResolution,
    }),
    explanation: t.string({ resolve: seriesExplanation }),
    label: t.exposeString('label', { nullable: true }),
    facts: t.field({ type: [FactRef], resolve: (s) => s.facts }),
    hasMore: t.exposeBoolean('hasMore'),
    nextCursor: t.string({ nullable: true, description: 'Pass as `after` for the next page', resolve: seriesNextCursor }),
    factsCovered: t.int({ description: 'How many facts of this company are held', resolve: (s) => s.coverage.facts }),
  }),
});

/** The facts field's arguments, as the field resolves them (its duration the enum's value): the filters, a company and a page. */
export type FactSeriesArgs = Omit<FactFilters, 'limit' | 'offset'> & { ticker?: string | null; cik?: string | null; limit?: number | null; after?: string | null };

/** The facts field's read, which the REST door also builds its answer from without executing the field (catalogue/factsData.ts). */
export async function readFactSeries(ctx: Context, args: FactSeriesArgs): Promise<Series> {
  requireDataAccess(ctx);
  const cik = await requireCik(ctx, args);
  const limit = Math.min(Math.max(args.limit ?? 25, 1), maxPageSize);
  const offset = factsOffset(args.after);
  const filters = { tag: args.tag, form: args.form, unit: args.unit, periodFrom: args.periodFrom, periodTo: args.periodTo, periodStart: args.periodStart, duration: args.duration, fy: args.fy, fp: args.fp, limit, offset };
  return { ...(await factSeries(ctx, cik, filters)), cik, offset };
}

/** The statements field's read, which the REST door also builds its answer from without executing the field (catalogue/statementsData.ts). */
export async function readStatements(ctx: Context, args: { ticker?: string | null; cik?: string | null; period?: string | null; limit?: number | null; asReported?: 'latest' | 'first' | null }) {
  requireDataAccess(ctx);
  const cik = await requireCik(ctx, args);
  const period = args.period === 'quarterly' ? 'quarterly' : 'annual';
  return { ...(await companyStatements(ctx, cik, period, Math.min(Math.max(args.limit ?? 4, 1), 40), args.asReported ?? 'latest')), cik };
}

const asReportedDescription =
  'Which version of a restated value the statements show: `latest` (default; a later filing\'s restatement replaces the value first filed, which stays in `restatedFrom`) or `first` (each value as first filed, what was known then; a later restatement is in `restatedTo`). A refinement that agrees at the first value\'s precision (4,462,383,000 then 4,462,400,000) is not a restatement in either: the more precise figure stands.';

const AsReportedEnum = builder.enumType('AsReported', { values: ['latest', 'first'] as const });

const FactDuration = builder.enumType('FactDuration', {
  description: 'How long a fact\'s period runs: `instant` (a balance at a point in time), or a duration of about 3, 6, 9 or 12 months (80–100, 170–195, 260–285 and 350–380 days, first and last day counted)',
  values: Object.fromEntries(factDurations.map((duration) => [factDurationTable[duration].graph, { value: duration }])) as Record<(typeof factDurationTable)[Duration]['graph'], { value: Duration }>,
});

builder.queryFields((t) => ({
  facts: t.field({
    type: FactSeries,
    description: 'Reported facts of a company for a tag or line item, newest period first. A tag the issuer reports is answered with that tag; a line item (revenue), or a tag never reported, with the tags the issuer uses for that line, stitched by period.',
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      tag: t.arg.string({ required: true }),
      form: t.arg.string(),
      unit: t.arg.string(),
      periodFrom: t.arg({ type: 'Date', description: 'Period end on or after' }),
      periodTo: t.arg({ type: 'Date', description: 'Period end on or before' }),
      periodStart: t.arg({ type: 'Date', description: 'Period start on exactly this day' }),
      duration: t.arg({ type: FactDuration, description: 'How long the period runs' }),
      fy: t.arg.int({ description: 'Fiscal year of the reporting filing' }),
      fp: t.arg.string({ description: 'Fiscal period of the reporting filing: FY, Q1, Q2, Q3, Q4' }),
      limit: t.arg.int({ defaultValue: 25 }),
      after: t.arg.string({ description: 'The previous page\'s nextCursor' }),
    },
    resolve: (_root, args, ctx) => readFactSeries(ctx, args),
  }),
  statements: t.field({
    type: Bundle,
    description: 'Normalized income statement, balance sheet and cash flow.',
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      period: t.arg.string({ defaultValue: 'annual' }),
      limit: t.arg.int({ defaultValue: 4 }),
      asReported: t.arg({ type: AsReportedEnum, defaultValue: 'latest', description: asReportedDescription }),
    },
    resolve: (_root, args, ctx) => readStatements(ctx, args),
  }),
  segments: t.field({
    type: Segments,
    args: { ticker: t.arg.string(), cik: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const cik = await requireCik(ctx, args);
      return { ...(await companySegments(ctx, cik)), cik };
    },
  }),
}));
