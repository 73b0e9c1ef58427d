// The Insiders family (Forms 3, 4 and 5): insider transactions by issuer and/or insider, derivative
// transactions, a per-issuer buy/sell summary by role, and one filing whole. Amendments (3/A, 4/A,
// 5/A) supersede the filings they amend (the rule is in resolvers/insiders.ts and in the route
// descriptions below).
import { z } from 'zod';
import { InsiderFilingDocument, InsiderSummaryDocument, InsiderTransactionsDocument, type InsiderTransactionFieldsFragment } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, dateParam, inView, oneOfRequired, tickerParam, type View } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import { ApiError } from '../../core/errors.ts';
import { transactionCodes } from '../../resolvers/insiders.ts';

const amendmentRule =
  'Amendments: a 3/A, 4/A or 5/A supersedes the earlier filings of the same base form, issuer, reporting owners (by CIK) and period of report; when it states the date of the original submission, only the originals filed that day (and earlier amendments of the group) are superseded. ' +
  'The latest amendment is in force: rows of superseded filings are left out unless `include_superseded=true`, and then carry `supersededBy`.';

const codeTable = Object.entries(transactionCodes)
  .map(([code, meaning]) => `${code} ${meaning}`)
  .join('; ');

const owner = z.object({
  cik: z.string().nullable().describe('The reporting owner\'s CIK (10 digits)'),
  name: z.string().nullable().describe('As filed, e.g. "Adams Katherine L."'),
  isDirector: z.boolean(),
  isOfficer: z.boolean(),
  officerTitle: z.string().nullable().describe('As filed, e.g. "SVP, GC and Secretary"; null when not an officer or not stated'),
  isTenPercentOwner: z.boolean(),
  isOther: z.boolean(),
  otherText: z.string().nullable().describe('The relationship an "other" owner states'),
  roles: z.array(z.enum(['officer', 'director', 'ten_percent_owner', 'other'])).describe('Every relationship box the filing checks'),
});

const footnoteRef = z.object({
  field: z.string().describe('The field the footnote annotates: securityTitle, transactionDate, transactionCode, shares, pricePerShare, sharesOwnedFollowing, directOrIndirect, natureOfOwnership, conversionOrExercisePrice, exerciseDate, expirationDate, underlyingSecurityTitle, underlyingSecurityShares, …'),
  id: z.string().describe('The footnote id in the filing, e.g. F2'),
  text: z.string().nullable().describe('The footnote\'s text, whitespace collapsed; null when the filing lacks the footnote it cites'),
});

const nullReason = z.object({ field: z.string(), reason: z.string() }).describe('Why a field is null (not stated, stated only in a footnote, reported as a value instead of shares, …)');

const provenance = {
  accessionNumber: z.string().nullable().describe('The filing\'s accession number; null only for a document ingested without its submission (see nullReasons)'),
  filingId: z.string().describe('The accession number, or `doc_…` for a document that carries none: what /v1/insiders/filings/{accession_number} takes'),
  formType: z.string().describe('3, 4, 5, 3/A, 4/A or 5/A'),
  filedAt: z.string().nullable().describe('Filing date, YYYY-MM-DD'),
  periodOfReport: z.string().nullable().describe('Period of report, YYYY-MM-DD (for a Form 4 the earliest transaction date)'),
  citationUrl: z.string().nullable().describe('The SEC URL of the filing\'s document (its index page when the document is unknown)'),
  isAmendment: z.boolean(),
  supersededBy: z.string().nullable().describe('The accession of the amendment in force instead of this filing; null when this filing is in force'),
};

const transaction = z
  .object({
    object: z.literal('insider_transaction'),
    id: z.string().describe('`itx_<filing>_<n|d><row>`: stable across re-ingests'),
    ...provenance,
    table: z.enum(['non_derivative', 'derivative']).describe('Table I (non-derivative securities) or Table II (derivative securities)'),
    sourceField: z.string().describe('Where in the ownership XML, e.g. `nonDerivativeTable/nonDerivativeTransaction[3]` (1-based)'),
    issuer: z.object({ cik: z.string().nullable(), name: z.string().nullable(), ticker: z.string().nullable().describe('The trading symbol the filing states') }),
    owners: z.array(owner).describe('The filing\'s reporting owners (a joint filing has several; the row is reported once for all of them)'),
    securityTitle: z.string().nullable(),
    transactionDate: z.string().nullable().describe('YYYY-MM-DD'),
    deemedExecutionDate: z.string().nullable(),
    transactionCode: z.string().nullable().describe(`The SEC transaction code: ${codeTable}`),
    transactionCodeMeaning: z.string().nullable().describe('The code\'s meaning from the fixed table above'),
    equitySwapInvolved: z.boolean().nullable(),
    timeliness: z.enum(['early', 'late']).nullable().describe('When the filing marks the transaction as reported early or late'),
    acquiredDisposed: z.enum(['acquired', 'disposed']).nullable(),
    shares: z.number().nullable().describe('Shares (or units) transacted'),
    pricePerShare: z.number().nullable().describe('Dollars per share; a weighted average when a footnote says so'),
    value: z.number().nullable().describe('shares × pricePerShare in dollars, computed exactly and rounded to the cent'),
    totalValue: z.number().nullable().describe('A dollar amount the filing states instead of shares (some derivative rows)'),
    sharesOwnedFollowing: z.number().nullable().describe('Shares owned after the transaction, in this ownership form'),
    valueOwnedFollowing: z.number().nullable(),
    ownership: z.enum(['direct', 'indirect']).nullable(),
    natureOfOwnership: z.string().nullable().describe('For indirect ownership, e.g. "By Trust"'),
    derivative: z
      .object({
        conversionOrExercisePrice: z.number().nullable(),
        exerciseDate: z.string().nullable(),
        expirationDate: z.string().nullable(),
        underlyingSecurityTitle: z.string().nullable(),
        underlyingShares: z.number().nullable(),
        underlyingValue: z.number().nullable(),
      })
      .nullable()
      .describe('Derivative rows only (null on non-derivative rows): the exercise price, dates and underlying security'),
    footnotes: z.array(footnoteRef).describe('Footnotes attached to the fields they annotate'),
    nullReasons: z.array(nullReason),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, filingId: true, citationUrl: true, sourceField: true });

function toTransaction(r: InsiderTransactionFieldsFragment, view: View) {
  const full = {
    object: 'insider_transaction' as const,
    id: r.id,
    accessionNumber: r.accessionNumber ?? null,
    filingId: r.formId,
    formType: r.formType,
    filedAt: (r.filedAt as string | null) ?? null,
    periodOfReport: (r.periodOfReport as string | null) ?? null,
    citationUrl: r.citationUrl ?? null,
    isAmendment: r.isAmendment,
    supersededBy: r.supersededBy ?? null,
    table: r.table as 'non_derivative' | 'derivative',
    sourceField: r.sourceField,
    issuer: { cik: r.issuerCik ?? null, name: r.issuerName ?? null, ticker: r.issuerTicker ?? null },
    owners: r.owners.map((o) => ({ ...o, roles: o.roles as ('officer' | 'director' | 'ten_percent_owner' | 'other')[] })),
    securityTitle: r.securityTitle ?? null,
    transactionDate: (r.transactionDate as string | null) ?? null,
    deemedExecutionDate: (r.deemedExecutionDate as string | null) ?? null,
    transactionCode: r.transactionCode ?? null,
    transactionCodeMeaning: r.transactionCodeMeaning ?? null,
    equitySwapInvolved: r.equitySwapInvolved ?? null,
    timeliness: (r.timeliness as 'early' | 'late' | null) ?? null,
    acquiredDisposed: (r.acquiredDisposed as 'acquired' | 'disposed' | null) ?? null,
    shares: r.shares ?? null,
    pricePerShare: r.pricePerShare ?? null,
    value: r.value ?? null,
    totalValue: r.totalValue ?? null,
    sharesOwnedFollowing: r.sharesOwnedFollowing ?? null,
    valueOwnedFollowing: r.valueOwnedFollowing ?? null,
    ownership: (r.ownership as 'direct' | 'indirect' | null) ?? null,
    natureOfOwnership: r.natureOfOwnership ?? null,
    derivative:
      r.table === 'derivative'
        ? {
            conversionOrExercisePrice: r.conversionOrExercisePrice ?? null,
            exerciseDate: (r.exerciseDate as string | null) ?? null,
            expirationDate: (r.expirationDate as string | null) ?? null,
            underlyingSecurityTitle: r.underlyingSecurityTitle ?? null,
            underlyingShares: r.underlyingShares ?? null,
            underlyingValue: r.underlyingValue ?? null,
          }
        : null,
    footnotes: r.footnotes.map((f) => ({ field: f.field, id: f.id, text: f.text ?? null })),
    nullReasons: r.nullReasons,
  };
  return inView(view, full, {
    always: ['object', 'id', 'accessionNumber', 'filingId', 'citationUrl', 'sourceField'],
    compact: ['formType', 'filedAt', 'owners', 'transactionDate', 'transactionCode', 'acquiredDisposed', 'shares', 'pricePerShare', 'sharesOwnedFollowing', 'ownership'],
    agent: ['formType', 'filedAt', 'issuer', 'owners', 'securityTitle', 'transactionDate', 'transactionCode', 'transactionCodeMeaning', 'acquiredDisposed', 'shares', 'pricePerShare', 'value', 'sharesOwnedFollowing', 'ownership', 'natureOfOwnership', 'derivative', 'footnotes', 'supersededBy'],
  });
}

const codesParam = z
  .string()
  .regex(/^[A-Za-z](,[A-Za-z])*$/, { message: 'expected transaction codes separated by commas, e.g. P,S', abort: true })
  .refine((v) => v.split(',').every((c) => c.toUpperCase() in transactionCodes), { message: `unknown transaction code; accepted: ${Object.keys(transactionCodes).join(', ')}` })
  .optional()
  .describe(`Only these transaction codes, comma-separated (e.g. \`P,S\`): ${codeTable}`);

const transactionQuery = z.strictObject({
  ticker: tickerParam.describe('Issuer ticker, e.g. AAPL'),
  cik: cikParam.describe('Issuer CIK'),
  owner_cik: z.string().regex(/^\d{1,10}$/, 'expected a CIK, up to 10 digits').optional().describe('Reporting owner (insider) CIK: that insider\'s transactions, at every issuer or at the one named'),
  transaction_code: codesParam,
  acquired_disposed: z.enum(['acquired', 'disposed']).optional().describe('Only acquisitions or only dispositions'),
  from: dateParam('Transaction date on or after'),
  to: dateParam('Transaction date on or before'),
  ...dateFilters,
  include_superseded: z.enum(['true', 'false']).default('false').describe('Include rows of filings an amendment superseded (they carry supersededBy)'),
  ...pageParams,
  view: viewParam,
});

function listRoute(table: 'non_derivative' | 'derivative'): Route {
  const derivative = table === 'derivative';
  const title = derivative ? 'derivative transactions (Table II: options, RSUs, warrants, convertibles)' : 'transactions in non-derivative securities (Table I: common stock)';
  return operationRoute({
    name: derivative ? 'insiders_derivative_transactions_list' : 'insiders_transactions_list',
    method: 'GET',
    path: derivative ? '/v1/insiders/derivative-transactions' : '/v1/insiders/transactions',
    summary: `Insider ${title} from Forms 4 and 5`,
    description:
      `One row per transaction reported on Forms 4 and 5 (and their amendments), by issuer (\`ticker\` or \`cik\`), by insider (\`owner_cik\`) or both; with neither, every insider filing ingested. ` +
      'Newest filed first, then in the order the filing lists them; cursor pagination. `from`/`to` filter on the transaction date, `filed_from`/`filed_to` on the filing date. ' +
      'Each row names the reporting owners and their relationship (director, officer with title, 10% owner, other), the transaction code and its meaning, date, shares, price, acquired/disposed, shares owned after, direct/indirect ownership, the footnotes attached to each field, and its filing\'s accession number and SEC citation. ' +
      `${amendmentRule} Specification samples (fictitious data) are never listed.`,
    tag: 'Insiders',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    errors: ['entity_not_found'],
    params: { query: transactionQuery },
    response: listEnvelope(transaction).extend({ coverage: coverageSchema }),
    operation: InsiderTransactionsDocument,
    variables: ({ query }) => ({
      table,
      ticker: query.ticker ?? null,
      cik: query.cik ?? null,
      ownerCik: query.owner_cik ?? null,
      codes: query.transaction_code ? query.transaction_code.toUpperCase().split(',') : null,
      acquiredDisposed: query.acquired_disposed ?? null,
      from: query.from ?? null,
      to: query.to ?? null,
      filedFrom: query.filed_from ?? null,
      filedTo: query.filed_to ?? null,
      includeSuperseded: query.include_superseded === 'true',
      first: query.limit,
      after: query.cursor ?? null,
    }),
  }).reshape(({ insiderTransactions }, meta, { query }) => ({
    object: 'list',
    data: insiderTransactions.nodes.map((r) => toTransaction(r, query.view)),
    hasMore: insiderTransactions.pageInfo.hasNextPage,
    nextCursor: insiderTransactions.pageInfo.hasNextPage ? (insiderTransactions.pageInfo.endCursor ?? null) : null,
    coverage: coverage(
      `Forms 3/4/5 ingested: ${title}${query.ticker ? ` of ${query.ticker}` : ''}${query.cik ? ` of CIK ${query.cik}` : ''}${query.owner_cik ? ` by insider CIK ${query.owner_cik}` : ''}${query.from ? ` from ${query.from}` : ''}${query.to ? ` to ${query.to}` : ''}`,
    ),
    ...meta,
  }));
}

const flow = z.object({
  transactions: z.number().int(),
  shares: z.string().describe('Shares, exact decimal'),
  value: z.string().describe('Dollars, exact decimal: the sum of shares × price of the priced transactions'),
  unpricedTransactions: z.number().int().describe('Transactions without a price per share, counted in shares but not in value'),
});

const roleFields = {
  insiders: z.number().int().describe('Distinct reporting owners with transactions'),
  bought: flow.describe('Open-market or private purchases (code P)'),
  sold: flow.describe('Open-market or private sales (code S)'),
  netShares: z.string().describe('bought.shares − sold.shares'),
  netValue: z.string().describe('bought.value − sold.value, dollars'),
  otherAcquiredShares: z.string().describe('Shares acquired by every other code (A grants, M option exercises, G gifts received, …)'),
  otherDisposedShares: z.string().describe('Shares disposed by every other code (F tax withholding, G gifts, D, …)'),
};

const summaryRoute = operationRoute({
  name: 'insiders_summary',
  method: 'GET',
  path: '/v1/insiders/summary',
  summary: 'Net insider buying and selling of one issuer over a window, by role',
  description:
    'Over non-derivative transactions (Table I) of Forms 4 and 5 whose transaction date falls in [`from`, `to`] (both optional, inclusive): shares and dollar value bought (code P) and sold (code S), net, and shares acquired or disposed by other codes, in total and by role. ' +
    'Each transaction counts once, under the highest role any of its filing\'s reporting owners holds, in the order officer, director, ten_percent_owner, other. Values are exact decimal strings. ' +
    `${amendmentRule} \`sources\` lists every filing counted, with its citation.`,
  tag: 'Insiders',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  errors: ['entity_not_found'],
  params: {
    query: oneOfRequired(
      {
        ticker: tickerParam.describe('Issuer ticker'),
        cik: cikParam.describe('Issuer CIK'),
        from: dateParam('Transaction date on or after'),
        to: dateParam('Transaction date on or before'),
        view: viewParam,
      },
      ['ticker', 'cik'],
    ),
  },
  response: z.object({
    object: z.literal('insider_summary'),
    cik: z.string().describe('The issuer\'s CIK'),
    from: z.string().nullable(),
    to: z.string().nullable(),
    filings: z.number().int().describe('Filings with transactions in the window'),
    transactions: z.number().int(),
    total: z.object(roleFields),
    roles: z.array(z.object({ role: z.enum(['officer', 'director', 'ten_percent_owner', 'other']), ...roleFields })).describe('One entry per role, always all four'),
    sources: z.array(z.object(provenance)).optional().describe('The filings counted (left out of the agent and compact views)'),
    coverage: coverageSchema,
    requestId: z.string(),
  }),
  operation: InsiderSummaryDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, from: query.from ?? null, to: query.to ?? null }),
}).reshape(({ insiderSummary: s }, meta, { query }) => ({
  object: 'insider_summary',
  cik: s.cik,
  from: s.from ?? null,
  to: s.to ?? null,
  filings: s.filings,
  transactions: s.transactions,
  total: s.total,
  roles: s.roles.map((r) => ({ ...r, role: r.role as 'officer' | 'director' | 'ten_percent_owner' | 'other' })),
  ...(query.view === 'default'
    ? { sources: s.sources.map(({ formId, ...p }) => ({ ...p, filingId: formId, filedAt: (p.filedAt as string | null) ?? null, periodOfReport: (p.periodOfReport as string | null) ?? null, accessionNumber: p.accessionNumber ?? null, citationUrl: p.citationUrl ?? null, supersededBy: p.supersededBy ?? null })) }
    : {}),
  coverage: coverage(`Forms 4 and 5 ingested for ${query.ticker ?? `CIK ${query.cik}`}${query.from ? ` from ${query.from}` : ''}${query.to ? ` to ${query.to}` : ''}`),
  ...meta,
}));

const holding = z.object({
  table: z.enum(['non_derivative', 'derivative']),
  sourceField: z.string().describe('e.g. `derivativeTable/derivativeHolding[1]`'),
  securityTitle: z.string().nullable(),
  sharesOwned: z.number().nullable(),
  valueOwned: z.number().nullable(),
  ownership: z.enum(['direct', 'indirect']).nullable(),
  natureOfOwnership: z.string().nullable(),
  conversionOrExercisePrice: z.number().nullable(),
  exerciseDate: z.string().nullable(),
  expirationDate: z.string().nullable(),
  underlyingSecurityTitle: z.string().nullable(),
  underlyingShares: z.number().nullable(),
  footnotes: z.array(footnoteRef),
});

const filingRoute = operationRoute({
  name: 'insiders_filing_get',
  method: 'GET',
  path: '/v1/insiders/filings/{accession_number}',
  summary: 'One Form 3, 4 or 5 whole: owners, transactions, holdings and footnotes',
  description:
    'The path takes the accession number (0000320193-22-000061), or the `doc_…` filingId a list gave for a document ingested without its submission. ' +
    `Transactions of both tables in filing order, holdings (Form 3 and holding rows of Forms 4/5), every footnote, remarks and signatures. ${amendmentRule} An amendment lists what it supersedes in \`supersedes\`.`,
  tag: 'Insiders',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  errors: ['form_not_found'],
  params: {
    path: z.strictObject({ accession_number: z.string().regex(/^(\d{10}-\d{2}-\d{6}|doc_[0-9a-f]{32})$/, 'expected an accession number like 0000320193-22-000061').describe('Accession number, or a `doc_…` filingId') }),
    query: z.strictObject({ view: viewParam }),
  },
  response: z.object({
    object: z.literal('insider_filing'),
    ...provenance,
    documentType: z.string(),
    issuer: z.object({ cik: z.string().nullable(), name: z.string().nullable(), ticker: z.string().nullable() }),
    dateOfOriginalSubmission: z.string().nullable().describe('Amendments: the filing date of the filing amended'),
    supersedes: z.array(z.string()).describe('The filings this amendment supersedes (accessions)'),
    noSecuritiesOwned: z.boolean().nullable().describe('Form 3: the owner reports no securities'),
    aff10b5One: z.boolean().nullable().describe('The Rule 10b5-1(c) plan checkbox (filings since April 2023); null when absent'),
    owners: z.array(owner),
    transactions: z.array(transaction),
    holdings: z.array(holding),
    footnotes: z.array(z.object({ id: z.string(), text: z.string() })),
    remarks: z.string().nullable(),
    signatures: z.array(z.object({ name: z.string().nullable(), date: z.string().nullable() })),
    requestId: z.string(),
  }),
  operation: InsiderFilingDocument,
  variables: ({ path }) => ({ id: path.accession_number }),
}).reshape(({ insiderFiling: f }, meta, { path, query }) => {
  if (!f) throw new ApiError('form_not_found', `No Form 3, 4 or 5 ${path.accession_number} is in the filings this service has ingested.`);
  return {
    object: 'insider_filing',
    accessionNumber: f.accessionNumber ?? null,
    filingId: f.formId,
    formType: f.formType,
    filedAt: (f.filedAt as string | null) ?? null,
    periodOfReport: (f.periodOfReport as string | null) ?? null,
    citationUrl: f.citationUrl ?? null,
    isAmendment: f.isAmendment,
    supersededBy: f.supersededBy ?? null,
    documentType: f.documentType,
    issuer: { cik: f.issuerCik ?? null, name: f.issuerName ?? null, ticker: f.issuerTicker ?? null },
    dateOfOriginalSubmission: (f.dateOfOriginalSubmission as string | null) ?? null,
    supersedes: f.supersedes,
    noSecuritiesOwned: f.noSecuritiesOwned ?? null,
    aff10b5One: f.aff10b5One ?? null,
    owners: f.owners.map((o) => ({ ...o, roles: o.roles as ('officer' | 'director' | 'ten_percent_owner' | 'other')[] })),
    transactions: f.transactions.map((r) => toTransaction(r, query.view)),
    holdings: f.holdings.map((h) => ({
      ...h,
      table: h.table as 'non_derivative' | 'derivative',
      ownership: (h.ownership as 'direct' | 'indirect' | null) ?? null,
      exerciseDate: (h.exerciseDate as string | null) ?? null,
      expirationDate: (h.expirationDate as string | null) ?? null,
      footnotes: h.footnotes.map((n) => ({ ...n, text: n.text ?? null })),
    })),
    footnotes: f.footnotes,
    remarks: f.remarks ?? null,
    signatures: f.signatures.map((s) => ({ name: s.name ?? null, date: s.date ?? null })),
    ...meta,
  };
});

export const insiderRoutes: Route[] = [listRoute('non_derivative'), listRoute('derivative'), summaryRoute, filingRoute];
