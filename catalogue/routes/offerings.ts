// Offerings: one view across registered offerings (S-1, S-3, F-1, F-3, amendments,
// 424B prospectuses, POS AM), Regulation D (Form D), Regulation Crowdfunding (Form C) and
// Regulation A (Form 1-A), with the amounts, price, exemptions and linked filings normalized.
import { z } from 'zod';
import { OfferingDocument, OfferingsDocument, type OfferingFieldsFragment } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateParam, inView, tickerParam, type View } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import { ApiError } from '../../core/errors.ts';
import { offeringTypes } from '../../resolvers/offerings.ts';

const typeVocabulary =
  '`ipo`, `follow_on` (priced or best-efforts sale off an effective registration: underwritten, or through a placement agent without a direct sale), `registered_direct` (a sale off an effective registration that a placement agent arranges directly with the investors: "We are offering directly to …", or a securities purchase agreement with each investor; the same type the offering document\'s dilution terms state), `shelf` (a Rule 415 shelf registration), `atm` (at-the-market program), `resale` (selling holders), `deregistration`, `other_registered`: registered offerings, as classified from the cover page; `reg_d`: a Form D notice of an exempt offering; `reg_cf`: a Regulation Crowdfunding Form C filing; `reg_a`: a Regulation A Form 1-A (none ingested yet)';

const spanLocation = {
  section: z.string().nullable().describe('The heading the text is printed under, as printed ("THE OFFERING", "CAPITALIZATION", "USE OF PROCEEDS"), `cover page`, or `accompanying base prospectus`'),
  page: z.string().nullable().describe('The page number printed at the foot of that page ("S-3"); `cover` for the cover page; null when the document prints none there'),
};
const figureFields = {
  reason: z.string().nullable().describe('Why `value` is null: the document does not state it (and why, for this kind of offering), it is left blank in a preliminary document (unknown until priced; `sourceSpan` is the text that leaves it blank), or the document was read before these figures were; null when the value is stated'),
  asOf: z.string().nullable().describe('The date the figure is stated as of, YYYY-MM-DD: the "as of" of a share count, the item\'s own date in an "excludes" list, the expected closing for the count after the offering'),
  approximate: z.boolean().describe('A rounded estimate as printed ("approximately $6.3 million")'),
  sourceSpan: z.string().nullable().describe('The sentence, list item or table row the value was read from, verbatim (at most 400 characters)'),
  ...spanLocation,
  confidence: z.enum(['high', 'medium', 'low']).nullable().describe('high: read from a sentence or row of a form the parser reads exactly; medium: computed from stated figures, or the document states the figure twice and the two differ (see `conflicting`)'),
  method: z.string().nullable().describe('The rule that read it: outstanding_based_on, offering_summary_row, capitalization_excludes_options, pricing_table_fee_total, fee_percent_stated, net_proceeds_estimate, expected_delivery_date, over_allotment_option, edgar_effect_notice_of_file_number …'),
};
const figure = (unit: string) =>
  z
    .object({
      value: z.number().nullable().describe(unit),
      ...figureFields,
      weightedAverageExercisePrice: z.number().nullable().optional().describe('Options and warrants: the weighted-average exercise price the same text gives, US dollars per share'),
      preferredShares: z.number().nullable().optional().describe('Preferred stock as converted: the preferred shares outstanding'),
      days: z.number().nullable().optional().describe('Over-allotment: the days the option may be exercised in'),
      conflicting: z
        .array(z.object({ value: z.number(), sourceSpan: z.string(), ...spanLocation }))
        .optional()
        .describe('Other statements of the same figure in the document that give a different value (the figure is the Use of Proceeds section\'s)'),
    })
    .describe(`${unit}; null with a reason where the document does not state it`);
const dateFigure = (what: string) => z.object({ value: z.string().nullable().describe(`${what}, YYYY-MM-DD`), ...figureFields }).describe(`${what}; null with a reason where the document does not state it`);

const capitalization = z
  .object({
    sharesOutstandingBefore: figure('Shares of common stock outstanding as of `asOf`: the count the offering\'s figures are based on ("based on 2,896,723 shares of common stock outstanding as of September 30, 2025"), else the count the document states ("As of December 31, 2024, there were 44,791,609 shares …")'),
    sharesOutstandingAfter: figure('Shares outstanding after the offering (the summary\'s "Common stock outstanding after this offering"), no over-allotment exercised; `asOf` is the expected closing'),
    sharesOutstandingAfterOverAllotment: figure('Shares outstanding after the offering if the underwriters exercise their option to purchase additional shares in full'),
    optionsOutstanding: figure('Shares issuable on exercise of outstanding stock options, as the share count\'s "excludes" list states them, with `weightedAverageExercisePrice`'),
    warrantsOutstanding: figure('Shares issuable on exercise of outstanding warrants (before this offering), with `weightedAverageExercisePrice`'),
    restrictedStockUnits: figure('Restricted stock units outstanding (unvested), in shares'),
    performanceStockUnits: figure('Performance-based restricted stock units outstanding, in shares (at target, as printed)'),
    reservedForFutureIssuance: figure('Shares reserved for future issuance under the equity incentive plans'),
    preferredAsConverted: figure('Common shares the outstanding preferred stock converts into (`preferredShares`: the preferred shares); 0 where the document says no preferred stock is outstanding'),
  })
  .nullable()
  .describe('The capitalization a registered offering\'s document states "as of" a date (its own text: the prospectus supplement or the registration statement\'s prospectus, not the base prospectus). Null for Forms D and C');

const economics = z
  .object({
    offeringDate: dateFigure('The date of the final prospectus, when the offering is priced ("The date of this prospectus is December 30, 2024")'),
    closingDate: dateFigure('The expected delivery (closing) date ("Delivery of the securities is expected to be made on or about December 31, 2025")'),
    feeType: z.enum(['placement_agent_fee', 'underwriting_discount', 'sales_agent_commission']).nullable().describe('What the distributor is paid; null when the document states no fee'),
    feeAmount: figure('The distributor\'s fee in US dollars: the pricing table\'s total (placement agent fees, underwriting discount)'),
    feePerShare: figure('The fee per share (per unit), US dollars: the pricing table\'s first column'),
    feePercent: figure('The fee as a percent of the gross proceeds, as stated ("a cash fee equal to 7.0% of the aggregate gross proceeds"); else the table\'s fee over its total (method computed_fee_total_over_gross_proceeds)'),
    proceedsBeforeExpenses: figure('The pricing table\'s proceeds to the company before expenses, US dollars'),
    netProceeds: figure('The net proceeds the document estimates, US dollars (`approximate`: "approximately $6.3 million")'),
    overAllotmentShares: figure('The additional shares an over-allotment option covers ("option to purchase up to an additional … shares"), with `days`'),
    babyShelfSalesPrior12Months: figure('US dollars sold under Form S-3 General Instruction I.B.6 (baby shelf) in the 12 months to `asOf`, as the document states; 0 when it says none'),
    registrationEffective: dateFigure('When the registration statement was declared effective: as the document states it, else EDGAR\'s EFFECT notice of its file number (method edgar_effect_notice_…, sourceSpan the index line)'),
  })
  .nullable()
  .describe('The economics of a registered offering as its document states them. Null for Forms D and C');

export const offeringItem = z
  .object({
    object: z.literal('offering'),
    id: z.string().describe('The offering filing\'s id: its accession number, or `doc_…` for an ingested document that carries none. Use it with GET /v1/offerings/{offering_id}.'),
    regime: z.enum(['registered', 'reg_d', 'reg_cf', 'reg_a']).describe('The registration regime: a Securities Act registration, or the exemption family (Regulation D, Crowdfunding, Regulation A)'),
    offeringType: z.enum(offeringTypes).describe(`The normalized offering type, one vocabulary across forms: ${typeVocabulary}`),
    offeringTypeConfidence: z.string().describe('`high`, `medium` or `low`: how sure the classification is. Forms D, C and 1-A state their regime (always high); a registered offering\'s type is read from its cover page'),
    formType: z.string().describe('As filed: S-1, S-3/A, 424B4, POS AM, D, D/A, C, C-U, C-AR, C-TR …'),
    filingRole: z
      .string()
      .describe('What this filing is within its offering: registration_statement, registration_statement_amendment, post_effective_amendment, prospectus (registered); notice, notice_amendment (Form D); offering_statement, offering_statement_amendment, progress_update, annual_report, termination_of_reporting, withdrawal (Form C)'),
    issuer: z.object({ cik: z.string().nullable(), name: z.string().nullable(), ticker: z.string().nullable().describe('As printed on a prospectus cover; null for Forms D and C'), exchange: z.string().nullable() }),
    securitiesOffered: z.string().nullable().describe('The securities, in the filing\'s words (cover title lines; Form D security types; Form C security type)'),
    amountOffered: z
      .number()
      .nullable()
      .describe('US dollars. Form D: totalOfferingAmount. Form C: maximumOfferingAmount (the most the offering may raise; the target is `targetAmount`). 424B: the pricing table\'s total public offering price (gross proceeds). S-1/S-3: the maximum aggregate offering price on the cover or in the filing-fee exhibit'),
    amountOfferedField: z.string().nullable().describe('The field `amountOffered` was read from'),
    amountOfferedNullReason: z.string().nullable().describe('Why `amountOffered` is null (an indefinite Form D amount, a preliminary prospectus, a deregistration, a Form C report without offering information)'),
    targetAmount: z.number().nullable().describe('Form C only: the target offering amount (`offeringAmount`), the minimum the offering must reach'),
    amountSold: z.number().nullable().describe('US dollars. Form D: totalAmountSold. Null for the other forms, which do not report it (see amountSoldNullReason)'),
    amountSoldField: z.string().nullable(),
    amountSoldNullReason: z.string().nullable(),
    amountRemaining: z.number().nullable().describe('Form D: totalRemaining'),
    pricePerUnit: z.number().nullable().describe('US dollars per share or unit: a prospectus\'s public offering price per share; a Form C\'s price per security. Null for Form D, which states none'),
    pricePerUnitNullReason: z.string().nullable(),
    unitsOffered: z.number().nullable().describe('Shares or securities offered, where the filing states a number'),
    currency: z.string().describe('Currency of the amounts: USD'),
    exemptions: z
      .array(z.object({ code: z.string().describe('As filed: 06b, 06c, 04, 04a5, 3C.1, 3C.7 …; 4(a)(6) for Regulation Crowdfunding'), description: z.string() }))
      .describe('The exemptions claimed: Form D item 6 (Rule 504, 506(b), 506(c), Section 4(a)(5), Investment Company Act 3(c)); Section 4(a)(6) for Form C; empty for a registered offering'),
    date: z.string().nullable().describe('The offering filing\'s date (YYYY-MM-DD): the filing date; for a document that states none, the signature date (see dateField)'),
    dateField: z.enum(['filedAt', 'signatureDate', 'documentDate']).describe('Which date `date` is: `documentDate` is the date a document read without its filing record gives itself ("Subject to Completion, dated December 12, 2024")'),
    filedAt: z.string().nullable().describe('The filing date; null for an ingested document that states none'),
    dateOfFirstSale: z.string().nullable().describe('Form D: the date of first sale'),
    deadline: z.string().nullable().describe('Form C: the offering deadline'),
    isAmendment: z.boolean(),
    isPreliminary: z.boolean().nullable().describe('A registered offering\'s red herring or not-yet-effective registration; null for Forms D and C'),
    status: z.enum(['preliminary', 'final']).nullable().describe('A registered offering\'s document: `preliminary` (a red herring: an offering whose pricing is not yet set, its blanks listed in `unknownTerms`) or `final`; null for Forms D and C'),
    unknownTerms: z.array(z.string()).describe('The fields of this row a preliminary document leaves blank (unitsOffered, pricePerUnit, amountOffered): unknown until the final prospectus, never zero'),
    registrationFileNumber: z.string().nullable().describe('The Securities Act file number (333-…) a registered offering\'s filings share'),
    fileNumber: z.string().nullable().describe('The file number the filing states (333-… registered; 020-… Form C)'),
    previousAccessionNumber: z.string().nullable().describe('Form D/A: the notice it amends'),
    intermediaries: z.array(z.string()).describe('Underwriters, placement and sales agents (registered); broker-dealers paid sales compensation (Form D); the funding portal or broker (Form C)'),
    linkedFilings: z
      .array(z.object({ offeringId: z.string(), accessionNumber: z.string().nullable(), formType: z.string(), filingRole: z.string(), date: z.string().nullable(), link: z.string().describe('Why they are linked: a shared registration or Form C file number, the notice a D/A amends') }))
      .describe('The other ingested filings of the same offering: a registration statement\'s amendments and prospectuses, a Form C\'s updates, a Form D\'s amendments'),
    accessionNumber: z.string().nullable(),
    citationUrl: z.string().nullable().describe('The filing\'s primary document on sec.gov; null when the ingested document carries no accession number (citationNullReason)'),
    citationNullReason: z.string().nullable(),
    sourceDocument: z.string().describe('The ingested file the values were read from'),
    details: z.record(z.string(), z.unknown()).describe('Form-specific fields: underwriters, placement and sales agents, shelf flag (registered); industry group, fund type, minimum investment, investors, commissions and finders\' fees (Form D); intermediary and its compensation, oversubscription (Form C)'),
    capitalization,
    economics,
  })
  .partial()
  .required({ object: true, id: true, offeringType: true, formType: true, accessionNumber: true, citationUrl: true });

function toOffering(o: OfferingFieldsFragment, view: View) {
  const full = { object: 'offering' as const, ...o, details: o.details as Record<string, unknown>, capitalization: o.capitalization as z.input<typeof capitalization>, economics: o.economics as z.input<typeof economics> };
  return inView(view, full as z.input<typeof offeringItem> & Record<string, unknown>, {
    always: ['object', 'id', 'offeringType', 'formType', 'accessionNumber', 'citationUrl'],
    compact: ['issuer', 'amountOffered', 'amountSold', 'pricePerUnit', 'date'],
    agent: ['regime', 'issuer', 'securitiesOffered', 'amountOffered', 'amountSold', 'pricePerUnit', 'exemptions', 'date', 'linkedFilings', 'sourceDocument'],
  });
}

const list = operationRoute({
  name: 'offerings_list',
  method: 'GET',
  path: '/v1/offerings',
  summary: 'Offerings across S-1/S-3/424B, Form D, Form C and Form 1-A',
  description: `One row per offering filing, newest first: by filing date, or for a document read without its filing record by the date the document gives itself (\`dateField: documentDate\`; the \`from\`/\`to\` filters read the same date), documents that state neither last. In one normalized vocabulary: issuer, offering type, amount offered and sold (US dollars), price per unit, exemptions claimed, date and the linked filings of the same offering. Filter by company (ticker or cik), type (${typeVocabulary}) and date. Every row cites its filing. Regulation A (Form 1-A) documents are not in the ingested corpus yet, so type=reg_a answers an empty list that says so.`,
  tag: 'Offerings',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: {
    query: z.strictObject({
      ticker: tickerParam,
      cik: cikParam,
      type: z.enum(offeringTypes).optional().describe('Normalized offering type'),
      from: dateParam('Offering date on or after'),
      to: dateParam('Offering date on or before'),
      ...pageParams,
      view: viewParam,
    }),
  },
  response: listEnvelope(offeringItem).extend({ coverage: coverageSchema }),
  errors: ['entity_not_found'],
  operation: OfferingsDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, type: query.type ?? null, from: query.from ?? null, to: query.to ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ offerings }, meta, { query }) => ({
  object: 'list',
  data: offerings.nodes.map((o) => toOffering(o, query.view)),
  hasMore: offerings.hasMore,
  nextCursor: offerings.nextCursor,
  coverage: coverage(
    `Offering filings ingested (registered offerings, Form D, Form C, Form 1-A)${query.type ? ` of type ${query.type}` : ''}${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}${query.from ? ` from ${query.from}` : ''}${query.to ? ` to ${query.to}` : ''}`,
    query.type === 'reg_a' ? { unavailable: true, reason: 'Form 1-A documents are not in the ingested corpus yet.' } : {},
  ),
  ...meta,
}));

const byId = operationRoute({
  name: 'offerings_get',
  method: 'GET',
  path: '/v1/offerings/{offering_id}',
  summary: 'One offering filing, normalized',
  description: 'The path takes the `id` a list gave: the accession number (0001104659-24-132924), or `doc_…` for an ingested document that carries none.',
  tag: 'Offerings',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: {
    path: z.strictObject({ offering_id: z.string().regex(/^(\d{10}-\d{2}-\d{6}|doc_[0-9a-f]{32})$/, 'expected an accession number like 0001234567-24-000001 or a doc_… id') }),
    query: z.strictObject({ view: viewParam }),
  },
  response: offeringItem.extend({ requestId: z.string() }),
  errors: ['offering_not_found'],
  operation: OfferingDocument,
  variables: ({ path }) => ({ id: path.offering_id }),
}).reshape(({ offering }, meta, { path, query }) => {
  if (!offering) throw new ApiError('offering_not_found', `No offering filing ${path.offering_id} is in the offerings this service has ingested.`);
  return { ...toOffering(offering, query.view), ...meta };
});

export const offeringRoutes: Route[] = [list, byId];
