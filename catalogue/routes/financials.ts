// Facts, normalized statements and segments (SPEC 4.5).
import { z } from 'zod';
import { FactsDocument, SegmentsDocument, StatementsDocument, type LineFieldsFragment } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateParam, oneOfRequired, tickerParam, type View } from '../dataParams.ts';
import { operationRoute, pageParams, viewParam } from '../route.ts';
import { factDurations, factDurationTable } from '../../resolvers/financials.ts';
import { factsData } from '../factsData.ts';
import { statementsData } from '../statementsData.ts';

const source = z.object({
  taxonomy: z.string(),
  tag: z.string(),
  value: z.string(),
  accessionNumber: z.string(),
  form: z.string().nullable(),
  filedAt: z.string().nullable(),
  periodStart: z.string().nullable(),
  periodEnd: z.string(),
  citationUrl: z.string(),
});

const fact = z.object({
  taxonomy: z.string(),
  tag: z.string().describe('The tag this value was reported with (a stitched series reads several)'),
  value: z.string().describe('The exact decimal as filed'),
  unit: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string(),
  fy: z.number().int().nullable(),
  fp: z.string().nullable(),
  form: z.string().nullable(),
  frame: z.string().nullable(),
  accessionNumber: z.string(),
  filedAt: z.string().nullable(),
  citationUrl: z.string(),
}).partial().required({ value: true, periodEnd: true, accessionNumber: true, citationUrl: true });

const line = z.object({
  key: z.string(),
  label: z.string(),
  value: z.string().nullable(),
  unit: z.string().nullable(),
  derived: z.boolean(),
  derivation: z.unknown().nullable(),
  missing: z.string().nullable().describe('not_reported, not_covered or not_derivable when there is no value'),
  accessionNumber: z.string().nullable().describe('agent view: the filing the value came from'),
  citationUrl: z.string().nullable(),
  note: z.string().nullable(),
  fact: source.nullable(),
  restatedFrom: source.nullable().describe('as_reported=latest: the value as first filed, when a later filing changed it'),
  restatedTo: source.nullable().describe('as_reported=first: the value a later filing changed it to'),
}).partial().required({ key: true, value: true, missing: true });

const company = { ticker: tickerParam, cik: cikParam };

function toLine(l: LineFieldsFragment, view: View) {
  if (view === 'default') return l;
  const base = { key: l.key, value: l.value, unit: l.unit, missing: l.missing, derived: l.derived };
  return view === 'compact' ? base : { ...base, accessionNumber: l.fact?.accessionNumber ?? null, citationUrl: l.fact?.citationUrl ?? null };
}

export const financialRoutes = [
  operationRoute({
    name: 'facts_get',
    method: 'GET',
    path: '/v1/facts',
    summary: 'Reported XBRL facts of a company for a tag',
    description:
      'A tag the issuer reports is answered with that tag (`resolution: "exact"`), with or without its taxonomy. A line item (`revenue`), or a tag the issuer never reported, is answered with the tags the issuer uses for that line (`resolution: "alias"`, listed in `resolvedTags`), stitched by period: each period comes from the first of them that reports it, and each fact names its own tag. Newest period first, a page at a time (`limit`, `cursor`), narrowed by `period_from`/`period_to` (period end) and `fy`/`fp` (of the reporting filing); each fact cites its filing. A tag the company does not report answers an empty list with `resolution: "not_reported"`; a company of which the service holds no facts, `resolution: "not_covered"`; never a 0.',
    tag: 'Facts',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      query: oneOfRequired({
        ...company,
        tag: z.string().min(1).max(200).describe('A tag (Revenues, us-gaap:NetIncomeLoss) or a line item (revenue, net_income)'),
        form: z.string().min(1).max(20).optional().describe('Only facts reported in this form, e.g. 10-K'),
        unit: z.string().min(1).max(40).optional().describe('e.g. USD, shares, USD/shares'),
        period_from: dateParam('Period end on or after'),
        period_to: dateParam('Period end on or before'),
        period_start: dateParam('Period start on exactly this day'),
        duration: z.enum(factDurations).optional().describe('How long the period runs: `instant` (a balance at a point in time), `3m`, `6m`, `9m` or `12m` (80–100, 170–195, 260–285, 350–380 days, first and last day counted); tells apart a quarter and nine months ending the same day'),
        fy: z.coerce.number().int().min(1990).max(2100).optional().describe('Fiscal year of the filing that reported the fact'),
        fp: z.enum(['FY', 'Q1', 'Q2', 'Q3', 'Q4']).optional().describe('Fiscal period of the filing that reported the fact'),
        limit: z.coerce.number().int().min(1).max(100).default(25).describe('How many facts, 1 to 100 (default 25)'),
        cursor: pageParams.cursor,
        view: viewParam,
      }, ['ticker', 'cik']),
    },
    response: z.object({
      object: z.literal('fact_series'),
      cik: z.string(),
      requestedTag: z.string(),
      resolvedTag: z.string().nullable(),
      resolvedTags: z.array(z.string()).describe('Every tag the series reads, preferred first (taxonomy:tag)'),
      taxonomy: z.string().nullable(),
      resolution: z.enum(['exact', 'alias', 'not_reported', 'not_covered']),
      explanation: z.string(),
      label: z.string().nullable(),
      facts: z.array(fact),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
      coverage: coverageSchema,
      requestId: z.string(),
    }),
    errors: ['entity_not_found'],
    operation: FactsDocument,
    data: factsData,
    watch: { records: 'fact', restrict: 'accession' },
    variables: ({ query }) => ({
      ticker: query.ticker ?? null,
      cik: query.cik ?? null,
      tag: query.tag,
      form: query.form ?? null,
      unit: query.unit ?? null,
      periodFrom: query.period_from ?? null,
      periodTo: query.period_to ?? null,
      periodStart: query.period_start ?? null,
      duration: query.duration ? factDurationTable[query.duration].graph : null,
      fy: query.fy ?? null,
      fp: query.fp ?? null,
      limit: query.limit,
      after: query.cursor ?? null,
    }),
  }).reshape(({ facts: s }, meta, { query }) => ({
    object: 'fact_series',
    cik: s.cik,
    requestedTag: s.requestedTag,
    resolvedTag: s.resolvedTag,
    resolvedTags: s.resolvedTags,
    taxonomy: s.taxonomy,
    resolution: s.resolution as 'exact' | 'alias' | 'not_reported' | 'not_covered',
    explanation: s.explanation,
    label: s.label,
    facts: s.facts.map((f) =>
      query.view === 'compact'
        ? { tag: f.tag, value: f.value, unit: f.unit, periodStart: f.periodStart, periodEnd: f.periodEnd, accessionNumber: f.accessionNumber, citationUrl: f.citationUrl }
        : query.view === 'agent'
          ? { tag: f.tag, value: f.value, unit: f.unit, periodStart: f.periodStart, periodEnd: f.periodEnd, fp: f.fp, form: f.form, accessionNumber: f.accessionNumber, filedAt: f.filedAt, citationUrl: f.citationUrl }
          : f,
    ),
    hasMore: s.hasMore,
    nextCursor: s.nextCursor ?? null,
    coverage: coverage(`XBRL facts of CIK ${s.cik}`, { factsHeld: s.factsCovered }),
    ...meta,
  })),
  operationRoute({
    name: 'statements_get',
    method: 'GET',
    path: '/v1/statements/all',
    summary: 'Normalized income statement, balance sheet and cash flow',
    description: 'Annual or quarterly. Quarterly flow values are true three-month values: a quarter not reported as such is derived from the latest year-to-date figures of one tag (Q4 = FY − 9M YTD), or FY − Q1 − Q2 − Q3 where no year-to-date figure is reported, and flagged `derived` with its formula and terms; a year-to-date value is never presented as a quarter. Periods are built when the company\'s facts are ingested and read as stored. A line without a value says why in `missing` (not_reported, not_covered, not_derivable).',
    tag: 'Statements',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      query: oneOfRequired({
        ...company,
        period: z.enum(['annual', 'quarterly']).default('annual'),
        limit: z.coerce.number().int().min(1).max(40).default(4).describe('How many periods, 1 to 40 (default 4)'),
        as_reported: z
          .enum(['latest', 'first'])
          .default('latest')
          .describe(
            'Which version of a restated value to show: `latest` (default: a later filing\'s restatement replaces the value first filed, which is kept in the line\'s `restatedFrom`) or `first` (each value as first filed, what was known at the time; a later restatement is in `restatedTo`). A later report that only rounds an earlier, more precise one is not a restatement: the precise figure stands in both.',
          ),
        view: viewParam,
      }, ['ticker', 'cik']),
    },
    response: z.object({
      object: z.literal('statement_bundle'),
      cik: z.string(),
      period: z.string(),
      asReported: z.enum(['latest', 'first']),
      taxonomy: z.string().nullable(),
      currency: z.string().nullable(),
      periods: z.array(z.object({ fiscalYear: z.number().int(), fiscalPeriod: z.string(), periodStart: z.string(), periodEnd: z.string(), income: z.array(line), balanceSheet: z.array(line), cashFlow: z.array(line) })),
      reason: z.string().nullable().describe('Why `periods` is empty, when it is: not_covered, not_reported or not_derivable, and the detail'),
      coverage: coverageSchema,
      requestId: z.string(),
    }),
    errors: ['entity_not_found'],
    operation: StatementsDocument,
    data: statementsData,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, period: query.period, limit: query.limit, asReported: query.as_reported }),
  }).reshape(({ statements: s }, meta, { query }) => ({
    object: 'statement_bundle',
    cik: s.cik,
    period: s.period,
    asReported: s.asReported as 'latest' | 'first',
    taxonomy: s.taxonomy,
    currency: s.currency,
    periods: s.periods.map((p) => ({ ...p, income: p.income.map((l) => toLine(l, query.view)), balanceSheet: p.balanceSheet.map((l) => toLine(l, query.view)), cashFlow: p.cashFlow.map((l) => toLine(l, query.view)) })),
    reason: s.emptyReason ?? null,
    coverage: coverage(`XBRL statement facts of CIK ${s.cik}`, { factsHeld: s.factsCovered }),
    ...meta,
  })),
  operationRoute({
    name: 'companies_segments_get',
    method: 'GET',
    path: '/v1/companies/segments',
    summary: 'Revenue by product, geography and operating segment',
    description: 'From dimensional XBRL facts. Each axis is flagged `reported` when its members add up to the consolidated revenue, else `low_confidence`. Shares, margins and growth are exact decimals rounded to 4 places.',
    tag: 'Companies',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: { query: oneOfRequired({ ...company, view: viewParam }, ['ticker', 'cik']) },
    response: z.object({ object: z.literal('segment_report'), cik: z.string(), rounding: z.string(), axes: z.array(z.looseObject({ axis: z.string(), kind: z.string(), confidence: z.enum(['reported', 'low_confidence']) })), coverage: coverageSchema, requestId: z.string() }),
    errors: ['entity_not_found'],
    operation: SegmentsDocument,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null }),
  }).reshape(({ segments: s }, meta, { query }) => ({
    object: 'segment_report',
    cik: s.cik,
    rounding: s.rounding,
    axes: s.axes.map((a) => ({
      ...a,
      confidence: a.confidence as 'reported' | 'low_confidence',
      periods: query.view === 'default' ? a.periods : a.periods.slice(0, 2).map((p) => ({ ...p, members: p.members.map(({ fact, ...m }) => ({ ...m, accessionNumber: fact.accessionNumber, citationUrl: fact.citationUrl })) })),
    })),
    coverage: coverage(`dimensional XBRL facts of CIK ${s.cik} (from the filings' own XBRL; companyfacts carries no segments)`),
    ...meta,
  })),
];
