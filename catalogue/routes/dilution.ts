// The dilution family (SPEC 4.5): a company's dilution records by table, its events, one event with
// its linked instruments, the coverage of each table, and the documented score and sub-ratings.
// Every record carries its verification: the filing, its URL, the tag or sentence, a confidence, a method.
import { z } from 'zod';
import {
  DilutionCoverageDocument,
  DilutionEventDocument,
  DilutionRatingsDocument,
  DilutionRecordsDocument,
  DilutionScoreDocument,
  type DilutionRecordFieldsFragment,
} from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, inView, oneOfRequired, tickerParam, type View } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import { ApiError } from '../../core/errors.ts';
import { runwayRule } from '../../derived/dilution/rules.ts';

const verification = z
  .object({
    accessionNumber: z.string().nullable().describe('The filing the values were read from'),
    citationUrl: z.string().nullable().describe('The SEC URL of that filing\'s document (its index page when the document is not known)'),
    sourceSpan: z.string().describe('The XBRL tag and context (`dei:EntityPublicFloat, context instant 2024-06-28, unit USD`), or the sentence, table row or 8-K item the values were read from'),
    confidence: z.enum(['high', 'medium', 'low']).describe('high: an XBRL fact, or a term stated in a form the parser reads exactly; medium: a reading worth a look, or an 8-K item known from EDGAR\'s index without its text; low: a weak reading'),
    method: z.string().describe('xbrl_fact, offering_document, eight_k_item or filing_index'),
  })
  .describe('Where the record came from and how sure its reading is');

const record = z
  .object({
    object: z.literal('dilution_record'),
    id: z.string().describe('`dil_…`, stable across re-ingests of the same source'),
    cik: z.string(),
    kind: z.string().describe('shares_outstanding, public_float, cash_position, warrant, convertible, reverse_split, stock_split, offering, atm_program, shelf, lockup, rofr, compliance_notice or corporate_action'),
    isEvent: z.boolean(),
    date: z.string().nullable().describe('Observation date (an XBRL context\'s end) or event date, YYYY-MM-DD; null when the source states none'),
    accessionNumber: z.string().nullable(),
    form: z.string().nullable(),
    filedAt: z.string().nullable(),
    fromIndexOnly: z.boolean().describe('Only EDGAR\'s index tells of it: the document was not ingested, so `values` hold no terms'),
    values: z.record(z.string(), z.unknown()).describe(
      `Per kind. shares_outstanding: shares (exact as filed), class, basis (\`after_offering\`: a final prospectus's count after its offering, dated by its expected closing). public_float: publicFloat, babyShelf {applies, threshold, publicFloat, floatDate, capacity12m, label} (Form S-3 I.B.6: under $75,000,000 of float, one third of it per 12 months). cash_position: cash, operatingCashFlow12m, monthlyBurn, runwayMonths, reason, runwayRule (${runwayRule}). warrant: outstanding, exercisePrice, measures (XBRL), or warrantKind (\`aggregate\` for a total the document gives without each warrant's count), series, shares, exercisePrice, term, documentStatus (preliminary or final), established (issued: a final document's, or a resale registration's, which registers securities already issued) (an offering document). convertible: measures (XBRL), or instrument preferred_stock, asConverted, preferredShares (a document's "as converted basis"). offering / atm_program / shelf: the cover page (offeringType, sharesOffered, pricePerShare, grossProceeds, maximumAggregateOffering, distributors), babyShelf on S-3 and 424B3/424B5 (the limit computed from the newer of the XBRL public float reported on or before the filing and the float the document states; floatSource xbrl or document, with its sourceSpan) and, when read, terms (each figure with its own sentence, and the capitalization and economics as on GET /v1/offerings); a sale a document recounts ("On May 16, 2023, we … issued and sold in a registered direct offering …") is an offering record with recountedBy offering_document and status closed (a final document recounts it) or possible (only a preliminary one does). compliance_notice: item, exchange, rule, deficiency, noticeDate, deadline, status (open; cured, with curedBy {accessionNumber, date} of the later 8-K reporting the exchange's confirmation of regained compliance and cureMatchedOn deficiency/rule/exchange; regained, that 8-K itself, with regainedDate; unknown, known from EDGAR's index only), unconfirmedRegain {deficiency, rule, sourceSpan, method} when the issuer says it meets the requirement but the exchange's confirmation is not reported. reverse_split: ratio, factor, effectiveDate. corporate_action: item, agreement, shares, pricePerShare, grossProceeds (8-K); or action registration_effective (EDGAR's EFFECT notice: fileNumber, effectiveForm, effectiveAccessionNumber, effectiveAt) or delisting_notice (Form 25 by the issuer, 25-NSE by the exchange: filedBy), with statedIn {accessionNumber, form, sourceSpan} when an offering document recounts it.`,
    ),
    verification,
  })
  .partial()
  .required({ object: true, id: true, kind: true, verification: true });

function toRecord(r: DilutionRecordFieldsFragment, view: View) {
  const full = { object: 'dilution_record' as const, ...r, verification: { ...r.verification, confidence: r.verification.confidence as 'high' | 'medium' | 'low' }, date: (r.date as string | null) ?? null, filedAt: (r.filedAt as string | null) ?? null, values: r.values as Record<string, unknown> };
  return inView(view, full, { always: ['object', 'id', 'kind', 'date', 'verification'], compact: ['accessionNumber', 'fromIndexOnly'], agent: ['values', 'fromIndexOnly'] });
}

const company = { ticker: tickerParam, cik: cikParam };
const who = (query: { ticker?: string; cik?: string }) => `${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}`;

const common = { tag: 'Dilution', access: 'org' as const, meter: 'data_read', mcp: true, errors: ['entity_not_found'] };

const tables: { slug: string; table: string | null; eventsOnly?: boolean; summary: string; description: string }[] = [
  { slug: 'cash-position', table: 'cash-position', summary: 'Cash, operating burn and runway in months', description: `One record per reported cash balance (us-gaap CashAndCashEquivalentsAtCarryingValue, ifrs-full CashAndCashEquivalents), with the 12-month operating cash flow and the runway it gives. Rule: ${runwayRule}` },
  { slug: 'convertibles', table: 'convertibles', summary: 'Convertible debt and preferred (XBRL)', description: 'The DebtInstrumentConvertible* and PreferredStockConvertible* facts of one context first reported by one filing, together.' },
  { slug: 'corporate-actions', table: 'corporate-actions', summary: 'Securities sales and charter amendments (8-K 1.01, 3.02, 5.03), stock splits, registration effectiveness, delisting notices', description: 'Item 3.02 unregistered sales, Item 1.01 agreements that sell securities (the document says so, or the 8-K also reports Item 3.02), Item 5.03 amendments that are not a reverse split the parser reads, and forward splits (XBRL split ratios over 1). Registration effectiveness (the SEC\'s EFFECT notice of a Securities Act file number) and delisting notices (Form 25 filed by the issuer, 25-NSE by the exchange), from EDGAR\'s index, each confirmed by the sentence of an offering document that recounts it (`values.statedIn`); one a document recounts that the index held does not list is a record of its own, cited to that sentence. Items known only from EDGAR\'s index are marked `fromIndexOnly`.' },
  { slug: 'exchange-compliance', table: 'exchange-compliance', summary: 'Exchange compliance notices (8-K Item 3.01): the rule, the deadline, open or cured', description: 'One record per Item 3.01 of an 8-K. From the item\'s text: exchange, rule, deficiency, notice date and deadline, and a `status`: `open`; `cured` when a later 8-K of the company (dated on or after the notice) reports the exchange\'s confirmation of regained compliance with the same deficiency (else the same rule; a confirmation naming neither closes the newest earlier open notice of the same exchange), with `curedBy` {accessionNumber, date}; `regained` for that confirming 8-K itself, with `regainedDate` when stated and its sentence as the sourceSpan. An issuer\'s own statement that it complies, or a denied one ("we have not yet been advised that we have regained compliance"), is no cure: the notice stays open, the sentence in `unconfirmedRegain`. Known only from EDGAR\'s index: marked `fromIndexOnly`, status `unknown`, with no terms.' },
  { slug: 'lockups', table: 'lockups', summary: 'Lock-up agreements stated in offering documents', description: 'Holders\' lock-ups, issuer standstills and variable-rate prohibitions, each with the sentence it was read from.' },
  { slug: 'reverse-splits', table: 'reverse-splits', summary: 'Reverse stock splits (8-K Item 5.03, XBRL, recounted in prospectuses)', description: 'From an 8-K Item 5.03 that states a ratio; from StockholdersEquityReverseStockSplit / StockholdersEquityNoteStockSplitConversionRatio1 facts (a ratio under 1 is read as a reverse split); and from the splits an offering document recounts with their effective dates (`values.recountedBy: "offering_document"`), once per split, cited from the earliest such document, unless an 8-K or XBRL record of the same factor lies within 400 days.' },
  { slug: 'rofr', table: 'rofr', summary: 'Rights of first refusal and participation rights in offering documents', description: 'Each with its length in months and the financings it covers, as printed, and the sentence it was read from.' },
  { slug: 'share-float-history', table: 'share-float-history', summary: 'Shares outstanding and public float over time (dei cover facts)', description: 'dei:EntityCommonStockSharesOutstanding (per class when the cover reports classes) and dei:EntityPublicFloat, each value from the first filing that reported it; and the shares outstanding and public float an offering document states as of a date of its own ("based on 2,896,723 shares … outstanding as of September 30, 2025"), dated by that "as of" and cited to its sentence (verification.method offering_document). A public float record carries the baby-shelf computation (Form S-3 General Instruction I.B.6): under $75,000,000, capacity is one third of the float per 12 months, labelled with the float and its date.' },
  { slug: 'warrants', table: 'warrants', summary: 'Warrants outstanding (XBRL) and warrants issued in offerings', description: 'ClassOfWarrantOrRight* facts of one context together (outstanding, exercise price), the warrants an offering document issues (pre-funded, common, placement agent; shares, exercise price, term), and the outstanding warrants it counts as of a date (outstanding, weighted-average exercisePrice).' },
  { slug: 'events', table: null, eventsOnly: true, summary: 'Dilution events: offerings, ATM programs, shelves, warrant issuances, reverse splits, compliance notices, securities sales', description: 'Every event record of the company, newest first. `GET /v1/dilution/events/{event_id}` returns one with the records linked to it.' },
];

const listRoutes: Route[] = tables.map(({ slug, table, eventsOnly, summary, description }) =>
  operationRoute({
    name: `dilution_${slug.replace(/-/g, '_')}_list`,
    method: 'GET',
    path: `/v1/dilution/${slug}`,
    summary,
    description: `${description} Newest first; cursor pagination. Name the company with \`ticker\` or \`cik\`. A table the service holds nothing of answers an empty list with its coverage; it never guesses.`,
    ...common,
    params: { query: oneOfRequired({ ...company, ...pageParams, view: viewParam }, ['ticker', 'cik']) },
    response: listEnvelope(record).extend({ coverage: coverageSchema }),
    operation: DilutionRecordsDocument,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, table, eventsOnly: eventsOnly ?? false, first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ dilutionRecords }, meta, { query }) => ({
    object: 'list',
    data: dilutionRecords.nodes.map((r) => toRecord(r, query.view)),
    hasMore: dilutionRecords.pageInfo.hasNextPage,
    nextCursor: dilutionRecords.pageInfo.hasNextPage ? dilutionRecords.pageInfo.endCursor : null,
    coverage: coverage(`Dilution ${table ?? 'events'} built from the XBRL facts, offering documents and 8-K filings ingested${who(query)}`),
    ...meta,
  })),
);

const eventById = operationRoute({
  name: 'dilution_event_get',
  method: 'GET',
  path: '/v1/dilution/events/{event_id}',
  summary: 'One dilution event with its linked instruments',
  description: 'The event, and the other records read from the same filing (warrants issued, lock-ups, rights of first refusal). With `ticker` or `cik`, an event of another company is not found. An id that is not an event the service holds: 404 `dilution_event_not_found`.',
  ...common,
  errors: ['entity_not_found', 'dilution_event_not_found'],
  params: { path: z.strictObject({ event_id: z.string().regex(/^dil_[0-9a-f]{32}$/, 'expected a dilution event id like dil_0123…(32 hex digits)') }), query: z.strictObject({ ...company, view: viewParam }) },
  response: z.object({ object: z.literal('dilution_event'), event: record, linked: z.array(record).describe('Records of the same filing'), requestId: z.string() }),
  operation: DilutionEventDocument,
  variables: ({ path, query }) => ({ id: path.event_id, ticker: query.ticker ?? null, cik: query.cik ?? null }),
}).reshape(({ dilutionEvent }, meta, { path, query }) => {
  if (!dilutionEvent) throw new ApiError('dilution_event_not_found', `No dilution event ${path.event_id} is held${who(query)}.`);
  return { object: 'dilution_event', event: toRecord(dilutionEvent.event, query.view), linked: dilutionEvent.linked.map((r) => toRecord(r, query.view)), ...meta };
});

const coverageRoute = operationRoute({
  name: 'dilution_coverage_get',
  method: 'GET',
  path: '/v1/dilution/coverage',
  summary: 'What the service holds of each dilution table for a company',
  description: 'Per table: rows, verified rows (confidence high), rows known from EDGAR\'s index alone, and the latest observation or event date. Zero rows do not establish that the company made no such disclosure.',
  ...common,
  params: { query: oneOfRequired({ ...company, view: viewParam }, ['ticker', 'cik']) },
  response: z.object({
    object: z.literal('dilution_coverage'),
    cik: z.string(),
    builtAt: z.string().describe('When the records were built from the data held'),
    rulesVersion: z.number().int(),
    tables: z.array(z.object({ table: z.string(), kinds: z.array(z.string()), rows: z.number().int(), verifiedRows: z.number().int(), indexOnlyRows: z.number().int(), latestDate: z.string().nullable() })),
    coverage: coverageSchema,
    requestId: z.string(),
  }),
  operation: DilutionCoverageDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null }),
}).reshape(({ dilutionCoverage: c }, meta, { query }) => ({
  object: 'dilution_coverage',
  cik: c.cik,
  builtAt: String(c.builtAt),
  rulesVersion: c.rulesVersion,
  tables: c.tables.map((t) => ({ ...t, latestDate: t.latestDate ?? null })),
  coverage: coverage(`Dilution records${who(query)}`),
  ...meta,
}));

const scoreBody = z.record(z.string(), z.unknown());

const scoreRoute = operationRoute({
  name: 'dilution_score_get',
  method: 'GET',
  path: '/v1/dilution/score',
  summary: 'The dilution score: a documented, deterministic method',
  description:
    'Composite 0–100 (higher = more dilution risk) over five weighted sub-ratings, with its band, methodology version, weights, every input with its source (or marked missing) and the reasons. As of the latest date the company\'s records hold (never the clock). A missing input lowers the confidence; it is never read as zero.',
  ...common,
  params: { query: oneOfRequired({ ...company, view: viewParam }, ['ticker', 'cik']) },
  response: z.object({
    object: z.literal('dilution_score'),
    cik: z.string(),
    asOf: z.string().nullable(),
    methodologyVersion: z.string(),
    score: z.number().nullable(),
    band: z.string(),
    confidence: z.enum(['high', 'medium', 'low']),
    coverage: z.number().describe('Σ weight × completeness over the sub-ratings'),
    weightsApplied: scoreBody,
    ratings: scoreBody,
    inputs: scoreBody.describe('Every input: value, asOf and source, or {missing: true, reason?} (reason: why, where it is known, e.g. 8-K items 3.01 known only from EDGAR\'s index)'),
    missing: z.array(z.string()),
    reasons: z.array(z.string()),
    methodology: scoreBody.optional().describe('Weights, bands and rules (default view)'),
    requestId: z.string(),
  }),
  operation: DilutionScoreDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null }),
}).reshape(({ dilutionScore: s }, meta, { query }) => {
  const result = s.result as { methodologyVersion: string; score: number | null; band: string; confidence: 'high' | 'medium' | 'low'; coverage: number; weightsApplied: Record<string, unknown>; ratings: Record<string, unknown>; inputs: Record<string, unknown>; missing: string[]; reasons: string[] };
  return { object: 'dilution_score', cik: s.cik, asOf: s.asOf ?? null, ...result, ...(query.view === 'default' ? { methodology: s.methodology as Record<string, unknown> } : {}), ...meta };
});

const ratingsRoute = operationRoute({
  name: 'dilution_ratings_get',
  method: 'GET',
  path: '/v1/dilution/ratings',
  summary: 'Dilution sub-ratings: offering ability, cash need, overhang, float growth, compliance',
  description: 'Each sub-rating with its band, score, weight, reasons (the numbers used, with their dates, and the rule each met), missing inputs and completeness. The same method as `/v1/dilution/score`.',
  ...common,
  params: { query: oneOfRequired({ ...company, view: viewParam }, ['ticker', 'cik']) },
  response: z.object({ object: z.literal('dilution_ratings'), cik: z.string(), asOf: z.string().nullable(), ratings: scoreBody, requestId: z.string() }),
  operation: DilutionRatingsDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null }),
}).reshape(({ dilutionRatings: r }, meta) => ({ object: 'dilution_ratings', cik: r.cik, asOf: r.asOf ?? null, ratings: r.result as Record<string, unknown>, ...meta }));

export const dilutionRoutes: Route[] = [...listRoutes, eventById, coverageRoute, scoreRoute, ratingsRoute];
