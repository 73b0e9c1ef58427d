// Facts, normalized statements and segments (SPEC 4.5).
import { z } from 'zod';
import { FactsDocument, SegmentsDocument, StatementsDocument, type LineFieldsFragment } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, tickerParam, type View } from '../dataParams.ts';
import { operationRoute, viewParam } from '../route.ts';

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
  restatedFrom: source.nullable(),
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
    description: 'The response names the requested tag and the tag the issuer actually uses (e.g. `Revenues` resolves to `RevenueFromContractWithCustomerExcludingAssessedTax` for Apple) and why. Newest period first; each fact cites its filing. A tag the company does not report answers an empty list with `resolution: "not_reported"`, not a 0.',
    tag: 'Facts',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      query: z.strictObject({
        ...company,
        tag: z.string().min(1).max(200).describe('A tag (Revenues, us-gaap:NetIncomeLoss) or a line item (revenue, net_income)'),
        form: z.string().min(1).max(20).optional().describe('Only facts reported in this form, e.g. 10-K'),
        unit: z.string().min(1).max(40).optional().describe('e.g. USD, shares, USD/shares'),
        limit: z.coerce.number().int().min(1).max(100).default(25).describe('How many facts, 1 to 100 (default 25)'),
        view: viewParam,
      }),
    },
    response: z.object({
      object: z.literal('fact_series'),
      cik: z.string(),
      requestedTag: z.string(),
      resolvedTag: z.string().nullable(),
      taxonomy: z.string().nullable(),
      resolution: z.enum(['exact', 'alias', 'not_reported']),
      explanation: z.string(),
      label: z.string().nullable(),
      facts: z.array(fact),
      coverage: coverageSchema,
      requestId: z.string(),
    }),
    errors: ['entity_not_found'],
    operation: FactsDocument,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, tag: query.tag, form: query.form ?? null, unit: query.unit ?? null, limit: query.limit }),
  }).reshape(({ facts: s }, meta, { query }) => ({
    object: 'fact_series',
    cik: s.cik,
    requestedTag: s.requestedTag,
    resolvedTag: s.resolvedTag,
    taxonomy: s.taxonomy,
    resolution: s.resolution as 'exact' | 'alias' | 'not_reported',
    explanation: s.explanation,
    label: s.label,
    facts: s.facts.map(({ taxonomy: _t, tag: _g, ...f }) =>
      query.view === 'compact' ? { value: f.value, unit: f.unit, periodEnd: f.periodEnd, accessionNumber: f.accessionNumber, citationUrl: f.citationUrl } : query.view === 'agent' ? { value: f.value, unit: f.unit, periodStart: f.periodStart, periodEnd: f.periodEnd, fp: f.fp, form: f.form, accessionNumber: f.accessionNumber, filedAt: f.filedAt, citationUrl: f.citationUrl } : f,
    ),
    coverage: coverage(`XBRL facts of CIK ${s.cik}`, { factsHeld: s.factsCovered }),
    ...meta,
  })),
  operationRoute({
    name: 'statements_get',
    method: 'GET',
    path: '/v1/statements/all',
    summary: 'Normalized income statement, balance sheet and cash flow',
    description: 'Annual or quarterly. Quarterly flow values are true three-month values: Q4 is derived (FY − Q1 − Q2 − Q3) only where all four are reported, and flagged `derived`; a year-to-date value is never presented as a quarter. A line without a value says why in `missing` (not_reported, not_covered, not_derivable).',
    tag: 'Statements',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      query: z.strictObject({
        ...company,
        period: z.enum(['annual', 'quarterly']).default('annual'),
        limit: z.coerce.number().int().min(1).max(40).default(4).describe('How many periods, 1 to 40 (default 4)'),
        view: viewParam,
      }),
    },
    response: z.object({
      object: z.literal('statement_bundle'),
      cik: z.string(),
      period: z.string(),
      taxonomy: z.string().nullable(),
      currency: z.string().nullable(),
      periods: z.array(z.object({ fiscalYear: z.number().int(), fiscalPeriod: z.string(), periodStart: z.string(), periodEnd: z.string(), income: z.array(line), balanceSheet: z.array(line), cashFlow: z.array(line) })),
      requestId: z.string(),
    }),
    errors: ['entity_not_found'],
    operation: StatementsDocument,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, period: query.period, limit: query.limit }),
  }).reshape(({ statements: s }, meta, { query }) => ({
    object: 'statement_bundle',
    cik: s.cik,
    period: s.period,
    taxonomy: s.taxonomy,
    currency: s.currency,
    periods: s.periods.map((p) => ({ ...p, income: p.income.map((l) => toLine(l, query.view)), balanceSheet: p.balanceSheet.map((l) => toLine(l, query.view)), cashFlow: p.cashFlow.map((l) => toLine(l, query.view)) })),
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
    params: { query: z.strictObject({ ...company, view: viewParam }) },
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
