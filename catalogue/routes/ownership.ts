// The ownership family: what institutional managers hold (Form 13F) and who owns more than 5% of
// an issuer's class (Schedules 13D and 13G). Values as filed, 13F values normalised to dollars,
// every row with the filing it came from.
import { z } from 'zod';
import { BeneficialOwnersDocument, InstitutionalHoldersDocument, Ownership13fFilingsDocument, Ownership13fHoldingsDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, dateParam, inView, oneOfRequired, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import { amendmentRule, holderMatchRule, supersessionRule, valueUnitRule } from '../../resolvers/ownership.ts';

const common = { tag: 'Ownership', access: 'org' as const, meter: 'data_read', mcp: true };

const managerCikParam = z.string().regex(/^\d{1,10}$/, 'expected a CIK, up to 10 digits').describe('The institutional investment manager\'s Central Index Key (the 13F filer), e.g. 1099219');

export const provenance = {
  accessionNumber: z.string().nullable().describe('The filing the row was read from; null for a standalone document that carries none (see citationNullReason)'),
  citationUrl: z.string().nullable().describe('The SEC URL of that filing (its primary document, else its index page)'),
  citationNullReason: z.string().nullable().describe('Why citationUrl is null; null when it is set'),
};

const managerRef = z.object({
  sequenceNumber: z.number().nullable().describe('The number holdings use in their otherManagers column (included managers only)'),
  cik: z.string().nullable(),
  name: z.string().nullable(),
  form13FFileNumber: z.string().nullable(),
  crdNumber: z.string().nullable(),
  secFileNumber: z.string().nullable(),
  list: z.enum(['other_reporting_manager', 'included_manager']).describe('other_reporting_manager: a manager whose own report covers holdings of this one (cover page); included_manager: a manager whose holdings this report includes (summary page)'),
});

const units = {
  valueUnit: z.enum(['dollars', 'thousands']).nullable().describe('The unit the filing reports values in; null when it reports none (a notice)'),
  valueReportedInThousands: z.boolean().nullable().describe('True when the filing reported values in thousands of dollars, so valueUsd = reported × 1000'),
  valueUnitReason: z.string().nullable().describe(`How the unit was decided for this filing. The rule: ${valueUnitRule}`),
};

const filing13f = z
  .object({
    object: z.literal('13f_filing'),
    id: z.string().describe('Accession number, or `doc_…` for a standalone document'),
    ...provenance,
    formType: z.string().describe('13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A'),
    managerCik: z.string().nullable(),
    managerName: z.string().nullable(),
    periodOfReport: z.string().nullable().describe('The calendar quarter end the report covers, YYYY-MM-DD'),
    filedAt: z.string().nullable().describe('Filing date, YYYY-MM-DD'),
    signedAt: z.string().nullable().describe('Signature date, YYYY-MM-DD'),
    reportType: z.string().nullable().describe('13F HOLDINGS REPORT, 13F NOTICE REPORT or 13F COMBINATION REPORT'),
    isAmendment: z.boolean(),
    amendmentNumber: z.number().nullable(),
    amendmentType: z.string().nullable().describe('RESTATEMENT (replaces the table) or NEW HOLDINGS (adds rows); null for an original report'),
    holdingsCount: z.number().nullable().describe('Rows of the information table held; null when none is held (see holdingsNullReason)'),
    holdingsNullReason: z.string().nullable(),
    tableEntryTotal: z.number().nullable().describe('Summary page: the number of rows the filer declares'),
    totalValueUsd: z.number().nullable().describe('Summary page total in whole dollars (normalised)'),
    totalValueAsReported: z.number().nullable().describe('Summary page total as filed, in valueUnit'),
    ...units,
    otherManagers: z.array(managerRef).describe('Other managers named on the cover page and summary page'),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, citationUrl: true });

const holding13f = z
  .object({
    object: z.literal('13f_holding'),
    id: z.string().describe('`<filing id>#<row>`: stable'),
    ...provenance,
    sourceField: z.string().describe('Where in the filing: the information table row, e.g. informationTable/infoTable[3]'),
    position: z.number().int().describe('The row\'s place (1-based) in its filing\'s information table'),
    formType: z.string(),
    filedAt: z.string().nullable(),
    period: z.string().nullable().describe('The quarter end reported, YYYY-MM-DD'),
    issuerName: z.string().nullable().describe('Name of issuer, as filed'),
    classTitle: z.string().nullable().describe('Title of class, as filed'),
    cusip: z.string().nullable(),
    figi: z.string().nullable().describe('FIGI, when the filer gave one (optional since 2023)'),
    valueUsd: z.number().nullable().describe('Market value in whole US dollars (normalised from thousands where the filing reported thousands)'),
    valueAsReported: z.number().nullable().describe('Value exactly as filed, in the filing\'s unit'),
    valueReportedInThousands: z.boolean().nullable().describe('True when valueAsReported is in thousands of dollars'),
    sharesOrPrincipalAmount: z.number().nullable().describe('Shares, or principal amount of debt'),
    sharesOrPrincipalType: z.string().nullable().describe('SH (shares) or PRN (principal amount)'),
    putCall: z.string().nullable().describe('Put or Call for an option position; null otherwise'),
    investmentDiscretion: z.string().nullable().describe('SOLE, DFND (shared-defined) or OTR (shared-other)'),
    otherManagers: z.string().nullable().describe('Sequence numbers of the included managers sharing discretion, as filed (e.g. "1,3")'),
    votingAuthority: z.object({ sole: z.number().nullable(), shared: z.number().nullable(), none: z.number().nullable() }).describe('Shares over which the manager has sole, shared or no voting authority'),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, citationUrl: true, sourceField: true });

const filingsRoute = operationRoute({
  name: 'ownership_13f_filings_list',
  method: 'GET',
  path: '/v1/ownership/13f/filings',
  summary: 'A manager\'s Form 13F reports',
  description:
    'Every Form 13F (13F-HR, 13F-NT and amendments) the service holds for the manager, newest filed first; cursor pagination and filing-date filters. Each report states its period, type, amendment, the row count and total of its summary page (normalised to dollars) and the unit the filing used. ' +
    'An unknown manager CIK is 404 `entity_not_found`.',
  ...common,
  errors: ['entity_not_found'],
  params: { query: z.strictObject({ manager_cik: managerCikParam, ...dateFilters, ...pageParams, view: viewParam }) },
  response: listEnvelope(filing13f).extend({ valueUnitRule: z.string().describe('How 13F values are normalised to dollars'), coverage: coverageSchema }),
  operation: Ownership13fFilingsDocument,
  variables: ({ query }) => ({ managerCik: query.manager_cik, filedFrom: query.filed_from ?? null, filedTo: query.filed_to ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ ownership13fFilings: page }, meta, { query }) => ({
  object: 'list',
  data: page.nodes.map((f) =>
    inView(
      query.view,
      { object: '13f_filing' as const, ...f, valueUnit: f.valueUnit as 'dollars' | 'thousands' | null, otherManagers: f.otherManagers as z.input<typeof managerRef>[] },
      { always: ['object', 'id', 'accessionNumber', 'citationUrl', 'citationNullReason', 'formType', 'periodOfReport', 'filedAt'], compact: ['holdingsCount', 'totalValueUsd'], agent: ['managerName', 'reportType', 'amendmentType', 'holdingsCount', 'totalValueUsd', 'valueReportedInThousands'] },
    ),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  valueUnitRule: page.valueUnitRule,
  coverage: coverage(`Form 13F reports ingested for manager CIK ${query.manager_cik}`),
  ...meta,
}));

const holdingsRoute = operationRoute({
  name: 'ownership_13f_holdings_list',
  method: 'GET',
  path: '/v1/ownership/13f/holdings',
  summary: 'A manager\'s 13F holdings for a quarter, values in dollars',
  description:
    'The information table of the manager\'s Form 13F for `period` (a calendar quarter end; the latest period held when omitted), in the order filed; cursor pagination. ' +
    `Amendments: ${amendmentRule} ` +
    `Values: ${valueUnitRule} ` +
    '`report` says which filings the rows come from, their count and dollar total, the unit, and the periods held. A period with no report held answers an empty list whose report says why. An unknown manager CIK is 404 `entity_not_found`.',
  ...common,
  errors: ['entity_not_found'],
  params: {
    query: z.strictObject({
      manager_cik: managerCikParam,
      period: dateParam('Quarter end of the report, e.g. 2021-12-31'),
      cusip: z.string().regex(/^[0-9A-Za-z]{9}$/, 'expected a 9-character CUSIP').optional().describe('Only rows of this CUSIP'),
      ...pageParams,
      view: viewParam,
    }),
  },
  response: listEnvelope(holding13f).extend({
    report: z
      .object({
        managerCik: z.string(),
        managerName: z.string().nullable(),
        period: z.string().nullable().describe('The quarter end answered, YYYY-MM-DD'),
        filings: z
          .array(z.object({ ...provenance, formType: z.string(), filedAt: z.string().nullable(), amendmentType: z.string().nullable(), role: z.string().describe('original, restatement or new_holdings_amendment (rows used); superseded or notice_or_cover_only (rows not used)') }))
          .describe('Every filing held for the period, and whether its rows are used'),
        holdingsCount: z.number().int().describe('Rows across the filings used (before the cusip filter)'),
        totalValueUsd: z.number().nullable().describe('Sum of valueUsd over those rows, in dollars'),
        tableValueTotalUsd: z.number().nullable().describe('The summary page total of the one filing used, in dollars; null when rows come from several filings'),
        ...units,
        valueUnitRule: z.string(),
        amendmentRule: z.string(),
        holdingsNullReason: z.string().nullable().describe('Why there are no rows, when there are none'),
        periodsAvailable: z.array(z.string()).describe('Quarter ends of the manager\'s reports held, newest first'),
      })
      .describe('The report the rows come from'),
    coverage: coverageSchema,
  }),
  operation: Ownership13fHoldingsDocument,
  variables: ({ query }) => ({ managerCik: query.manager_cik, period: query.period ?? null, cusip: query.cusip ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ ownership13fHoldings: page }, meta, { query }) => ({
  object: 'list',
  report: { ...page.report, valueUnit: page.report.valueUnit as 'dollars' | 'thousands' | null, filings: page.report.filings as { accessionNumber: string | null; citationUrl: string | null; citationNullReason: string | null; formType: string; filedAt: string | null; amendmentType: string | null; role: string }[] },
  data: page.nodes.map(({ votingSole, votingShared, votingNone, ...h }) =>
    inView(
      query.view,
      { object: '13f_holding' as const, ...h, votingAuthority: { sole: votingSole, shared: votingShared, none: votingNone } },
      { always: ['object', 'id', 'accessionNumber', 'citationUrl', 'citationNullReason', 'sourceField'], compact: ['issuerName', 'cusip', 'valueUsd', 'sharesOrPrincipalAmount'], agent: ['issuerName', 'classTitle', 'cusip', 'valueUsd', 'sharesOrPrincipalAmount', 'sharesOrPrincipalType', 'putCall', 'investmentDiscretion', 'period'] },
    ),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  coverage: coverage(`Form 13F information tables ingested for manager CIK ${query.manager_cik}${query.period ? ` for ${query.period}` : ''}`),
  ...meta,
}));

const statement = z.object({
  ...provenance,
  formType: z.string(),
  schedule: z.string(),
  isAmendment: z.boolean(),
  amendmentNumber: z.number().nullable(),
  eventDate: z.string().nullable(),
  filedAt: z.string().nullable(),
  percentOfClass: z.number().nullable(),
  aggregateAmountOwned: z.number().nullable(),
});

const owner = z
  .object({
    object: z.literal('beneficial_owner'),
    id: z.string().describe('`<filing id>#<reporting person>`: the statement the row shows'),
    ...provenance,
    sourceField: z.string().describe('Where in the filing: the cover page of the reporting person'),
    ownerName: z.string().describe('The reporting person, as filed'),
    ownerCik: z.string().nullable().describe('The reporting person\'s CIK when the filing states it'),
    issuerCik: z.string().nullable(),
    issuerName: z.string(),
    issuerCusip: z.string().nullable(),
    securitiesClass: z.string().nullable().describe('Title of the class of securities'),
    schedule: z.enum(['13D', '13G']).describe('13D (active) or 13G (passive)'),
    formType: z.string().describe('SCHEDULE 13D, SCHEDULE 13D/A, SCHEDULE 13G or SCHEDULE 13G/A as filed'),
    isAmendment: z.boolean(),
    amendmentNumber: z.number().nullable(),
    eventDate: z.string().nullable().describe('Date of the event requiring the statement, YYYY-MM-DD'),
    filedAt: z.string().nullable().describe('Filing date (for a standalone document without its submission: the latest signature date)'),
    percentOfClass: z.number().nullable().describe('Percent of class the person beneficially owns, from their cover page (13D row 13, 13G row 11), as filed'),
    aggregateAmountOwned: z.number().nullable().describe('Shares beneficially owned (13D row 11, 13G row 9)'),
    aggregateExcludesCertainShares: z.boolean().nullable(),
    soleVotingPower: z.number().nullable(),
    sharedVotingPower: z.number().nullable(),
    soleDispositivePower: z.number().nullable(),
    sharedDispositivePower: z.number().nullable(),
    memberOfGroup: z.string().nullable().describe('The group box checked: a (a group) or b (not)'),
    citizenshipOrOrganization: z.string().nullable().describe('State or country code'),
    typeOfReportingPerson: z.array(z.string()).describe('IN, CO, PN, IA, OO, …'),
    sourceOfFunds: z.array(z.string()).describe('13D: WC, PF, AF, OO, …'),
    comment: z.string().nullable(),
    purpose: z.string().nullable().describe('13D Item 4, purpose of the transaction, as filed'),
    purposeNullReason: z.string().nullable().describe('Why purpose is null'),
    item4: z
      .object({ amountBeneficiallyOwned: z.string().nullable(), percentOfClass: z.string().nullable(), soleVotingPower: z.string().nullable(), sharedVotingPower: z.string().nullable(), soleDispositivePower: z.string().nullable(), sharedDispositivePower: z.string().nullable() })
      .nullable()
      .describe('13G Item 4 (ownership) as filed, text exactly as written: it can state the percent more precisely than the cover page (e.g. 5.08 against 5.1); null for a 13D'),
    rulesDesignated: z.array(z.string()).describe('13G: Rule 13d-1(b), (c) or (d)'),
    filerCik: z.string().nullable().describe('The CIK that submitted the filing'),
    coReportingPersons: z.array(z.string()).describe('The other reporting persons of the same filing'),
    amendments: z.array(statement).describe('The person\'s earlier statements about this issuer, superseded by this one, newest first'),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, citationUrl: true, ownerName: true });

const ownersRoute = operationRoute({
  name: 'ownership_beneficial_owners_list',
  method: 'GET',
  path: '/v1/ownership/beneficial-owners',
  summary: 'An issuer\'s 5% holders from Schedules 13D and 13G',
  description:
    'Each reporting person\'s current beneficial ownership of the issuer (name it with `ticker` or `cik`), largest percent first; cursor pagination. Percent of class, shares, sole and shared voting and dispositive power as the person\'s cover page states them, the 13D purpose (Item 4), the 13G Item 4 as filed. ' +
    `Amendments: ${supersessionRule} ` +
    'An unknown ticker or CIK is 404 `entity_not_found`.',
  ...common,
  errors: ['entity_not_found'],
  params: { query: oneOfRequired({ ticker: tickerParam, cik: cikParam.describe('The issuer\'s Central Index Key'), schedule: z.enum(['13D', '13G']).optional().describe('Only owners whose current statement is a 13D, or a 13G'), ...pageParams, view: viewParam }, ['ticker', 'cik']) },
  response: listEnvelope(owner).extend({ issuerCik: z.string(), supersessionRule: z.string(), coverage: coverageSchema }),
  operation: BeneficialOwnersDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, schedule: query.schedule ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ beneficialOwners: page }, meta, { query }) => ({
  object: 'list',
  issuerCik: page.issuerCik,
  supersessionRule: page.supersessionRule,
  data: page.nodes.map((o) =>
    inView(
      query.view,
      { object: 'beneficial_owner' as const, ...o, schedule: o.schedule as '13D' | '13G', item4: o.item4 as z.input<typeof owner>['item4'], amendments: o.amendments as z.input<typeof statement>[] },
      { always: ['object', 'id', 'accessionNumber', 'citationUrl', 'citationNullReason', 'ownerName'], compact: ['schedule', 'percentOfClass', 'aggregateAmountOwned', 'eventDate'], agent: ['schedule', 'formType', 'percentOfClass', 'aggregateAmountOwned', 'soleVotingPower', 'sharedVotingPower', 'soleDispositivePower', 'sharedDispositivePower', 'eventDate', 'purpose'] },
    ),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  coverage: coverage(`Schedule 13D and 13G statements ingested${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}`),
  ...meta,
}));

const holder = z
  .object({
    object: z.literal('institutional_holder'),
    id: z.string().describe('`<filing id>#<row>`: the information table row, as on /v1/ownership/13f/holdings'),
    ...provenance,
    managerCik: z.string().nullable().describe('The 13F filer'),
    managerName: z.string().nullable(),
    period: z.string().nullable().describe('The quarter end reported, YYYY-MM-DD'),
    formType: z.string(),
    filedAt: z.string().nullable(),
    sourceField: z.string().describe('The information table row, e.g. informationTable/infoTable[3]'),
    issuerName: z.string().nullable().describe('Name of issuer, as filed'),
    classTitle: z.string().nullable(),
    cusip: z.string().nullable(),
    valueUsd: z.number().nullable().describe('Market value in whole US dollars (normalised from thousands where the filing reported thousands)'),
    sharesOrPrincipalAmount: z.number().nullable(),
    sharesOrPrincipalType: z.string().nullable().describe('SH (shares) or PRN (principal amount)'),
    putCall: z.string().nullable(),
    matchedBy: z.enum(['cusip', 'name']).describe('How the row was matched to the company (see matchRule)'),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, citationUrl: true, managerName: true, valueUsd: true, matchedBy: true });

const holdersRoute = operationRoute({
  name: 'ownership_13f_holders_list',
  method: 'GET',
  path: '/v1/ownership/13f/holders',
  summary: 'An issuer\'s institutional holders from held Form 13F information tables',
  description:
    `The rows of the 13F-HR information tables the service holds that list the company's securities (name it with \`ticker\` or \`cik\`), largest value first; cursor pagination. ${holderMatchRule} ` +
    `Values: ${valueUnitRule} ` +
    'Only the managers whose 13F reports are ingested are read: an empty list says none of them lists the company, not that no institution holds it. An unknown ticker or CIK is 404 `entity_not_found`.',
  ...common,
  errors: ['entity_not_found'],
  params: { query: oneOfRequired({ ticker: tickerParam, cik: cikParam.describe('The issuer\'s Central Index Key'), ...pageParams, view: viewParam }, ['ticker', 'cik']) },
  response: listEnvelope(holder).extend({ issuerCik: z.string(), issuerCusips: z.array(z.string()).describe('The CUSIPs the company\'s Schedules 13D/G state; empty when none is held'), matchRule: z.string(), managersRead: z.number().int().describe('Managers whose latest 13F period was read'), coverage: coverageSchema }),
  operation: InstitutionalHoldersDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ institutionalHolders: page }, meta, { query }) => ({
  object: 'list',
  issuerCik: page.issuerCik,
  issuerCusips: page.issuerCusips,
  matchRule: page.matchRule,
  managersRead: page.managersRead,
  data: page.nodes.map((h) =>
    inView(
      query.view,
      { object: 'institutional_holder' as const, ...h, matchedBy: h.matchedBy as 'cusip' | 'name' },
      { always: ['object', 'id', 'accessionNumber', 'citationUrl', 'citationNullReason', 'managerName', 'valueUsd', 'matchedBy'], compact: ['period', 'sharesOrPrincipalAmount'], agent: ['managerCik', 'period', 'classTitle', 'sharesOrPrincipalAmount', 'sharesOrPrincipalType', 'putCall'] },
    ),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  coverage: coverage(`Form 13F information tables ingested, read for ${query.ticker ? query.ticker : `CIK ${query.cik}`}`),
  ...meta,
}));

export const ownershipRoutes: Route[] = [filingsRoute, holdingsRoute, ownersRoute, holdersRoute];
