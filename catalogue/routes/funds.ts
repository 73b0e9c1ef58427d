// The funds family: registered fund series as their registrants' Form N-CEN describes them
// (series, classes, auditor, service providers), and their Form N-PORT portfolios (holdings with
// identifiers, value, percent of net assets, categories, and the fund's totals).
import { z } from 'zod';
import { FundHoldingsDocument, FundsDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateParam, inView, oneOfRequired, tickerParam, type View } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import type { FundHoldingsQuery } from '../operations/generated.ts';
import { provenance } from './ownership.ts';

const common = { tag: 'Funds', access: 'org' as const, meter: 'data_read', mcp: true };

const seriesIdParam = z.string().regex(/^[Ss]\d{9}$/, 'expected a series id like S000012000');

const serviceProvider = z.object({
  name: z.string().nullable(),
  fileNumber: z.string().nullable().describe('SEC file number (801-, 84-, 85-, …)'),
  crdNumber: z.string().nullable(),
  lei: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  isAffiliated: z.boolean().nullable().describe('Affiliated with the registrant or its adviser'),
}).loose();

const fund = z
  .object({
    object: z.literal('fund'),
    id: z.string().describe('The series id, or `<filing id>#<n>` for a series N-CEN gives none'),
    ...provenance,
    source: z.enum(['N-CEN', 'N-PORT']).describe('The form that describes the series: its registrant\'s latest N-CEN, else (no N-CEN of it held) its own latest N-PORT, which says less: fund types, service providers and ETF facts are then empty or null'),
    sourceSection: z.string().describe('Where in the form: N-CEN Part C (the series) and Part B (the registrant), or N-PORT genInfo'),
    seriesId: z.string().nullable().describe('EDGAR series id, S followed by 9 digits'),
    name: z.string().nullable().describe('The fund (series) name'),
    lei: z.string().nullable().describe('The series\' Legal Entity Identifier'),
    registrantCik: z.string().nullable(),
    registrantName: z.string().nullable(),
    registrantLei: z.string().nullable(),
    investmentCompanyFileNumber: z.string().nullable().describe('The registrant\'s 811- file number'),
    classificationType: z.string().nullable().describe('N-1A (open-end), N-2 (closed-end), N-3, N-4, N-5, N-6 or S-6 (UIT)'),
    familyName: z.string().nullable().describe('The family of investment companies'),
    fundTypes: z.array(z.string()).describe('Item C.3 types as filed: Exchange-Traded Fund, Index Fund, Money Market Fund, …'),
    isEtf: z.boolean().nullable(),
    isIndexFund: z.boolean().nullable(),
    isNonDiversified: z.boolean().nullable(),
    classes: z.array(z.object({ classId: z.string().nullable(), name: z.string().nullable(), ticker: z.string().nullable() })).describe('Share classes with their tickers'),
    monthlyAverageNetAssets: z.number().nullable().describe('Average net assets over the reporting period, in dollars'),
    auditors: z.array(serviceProvider.extend({ pcaobNumber: z.string().nullable() })).describe('The registrant\'s independent public accountants (Item B.15)'),
    serviceProviders: z
      .object({
        investmentAdvisers: z.array(serviceProvider),
        subAdvisers: z.array(serviceProvider),
        administrators: z.array(serviceProvider),
        custodians: z.array(serviceProvider.extend({ isSubCustodian: z.boolean().nullable(), custodyType: z.string().nullable() })),
        transferAgents: z.array(serviceProvider),
        shareholderServicingAgents: z.array(serviceProvider),
        securitiesLendingAgents: z.array(serviceProvider),
        principalUnderwriters: z.array(serviceProvider).describe('The registrant\'s principal underwriters (Item B.16)'),
      })
      .nullable()
      .describe('Who serves the fund, per N-CEN Part C (advisers C.9, transfer agents C.10, custodians C.12, administrators C.14, …); a role the filer answered N/A is an empty list; null where only an N-PORT describes the series'),
    etf: z
      .object({ exchanges: z.array(z.object({ exchange: z.string().nullable(), ticker: z.string().nullable() })), creationUnitShares: z.number().nullable(), isInKind: z.boolean().nullable(), authorizedParticipantsCount: z.number().int() })
      .nullable()
      .describe('Exchange-traded funds only (Part E): listings, creation unit size, in-kind, number of authorized participants'),
    formType: z.string(),
    filedAt: z.string().nullable(),
    reportPeriodEnd: z.string().nullable().describe('The fiscal year end the N-CEN covers'),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, citationUrl: true, sourceSection: true });

const fundsRoute = operationRoute({
  name: 'funds_list',
  method: 'GET',
  path: '/v1/funds',
  summary: 'Registered funds (series) from Form N-CEN: classes, auditor, service providers',
  description:
    'One row per fund series, from its registrant\'s latest N-CEN (an annual census restates every series). Filter by the registrant (`cik`), a share class or ETF `ticker` (a ticker no class carries is read as a company\'s), `series_id`, or words of the fund, registrant or family name (`q`). Ordered by registrant then fund name; cursor pagination. ' +
    'An unknown CIK or ticker is 404 `entity_not_found`.',
  ...common,
  errors: ['entity_not_found'],
  params: {
    query: z.strictObject({
      cik: cikParam.describe('The registrant\'s Central Index Key'),
      ticker: tickerParam.describe('A share class or ETF ticker, e.g. CAM'),
      series_id: seriesIdParam.optional().describe('EDGAR series id, e.g. S000093944'),
      q: z.string().min(2).max(100).optional().describe('Words that must all appear in the fund, registrant or family name, series id or a class name or ticker (case-insensitive)'),
      ...pageParams,
      view: viewParam,
    }),
  },
  response: listEnvelope(fund).extend({ coverage: coverageSchema }),
  operation: FundsDocument,
  variables: ({ query }) => ({ cik: query.cik ?? null, ticker: query.ticker ?? null, seriesId: query.series_id ?? null, q: query.q ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ funds: page }, meta, { query }) => ({
  object: 'list',
  data: page.nodes.map((f) =>
    inView(
      query.view,
      { object: 'fund' as const, ...f, source: f.source as 'N-CEN' | 'N-PORT', classes: f.classes as { classId: string | null; name: string | null; ticker: string | null }[], auditors: f.auditors as never, serviceProviders: f.serviceProviders as never, etf: f.etf as never },
      { always: ['object', 'id', 'source', 'accessionNumber', 'citationUrl', 'citationNullReason', 'sourceSection', 'seriesId', 'name'], compact: ['registrantName', 'isEtf'], agent: ['registrantCik', 'registrantName', 'fundTypes', 'classes', 'auditors', 'serviceProviders', 'reportPeriodEnd'] },
    ),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  coverage: coverage(`Fund series of the N-CEN and N-PORT reports ingested${query.cik ? ` for CIK ${query.cik}` : ''}${query.ticker ? ` for ticker ${query.ticker}` : ''}${query.q ? ` matching "${query.q}"` : ''}`),
  ...meta,
}));

const holding = z
  .object({
    object: z.literal('fund_holding'),
    id: z.string().describe('`<report id>#<row>`: stable'),
    ...provenance,
    sourceField: z.string().describe('Where in the N-PORT: the Part C investment, e.g. invstOrSecs/invstOrSec[1]'),
    position: z.number().int().describe('The investment\'s place (1-based) in the report'),
    reportDate: z.string().nullable().describe('The date the portfolio is reported as of'),
    name: z.string().nullable().describe('Name of the issuer'),
    title: z.string().nullable().describe('Title of the issue or description of the investment'),
    identifiers: z
      .object({ cusip: z.string().nullable(), isin: z.string().nullable(), lei: z.string().nullable().describe('The issuer\'s LEI'), ticker: z.string().nullable(), other: z.array(z.object({ description: z.string().nullable(), value: z.string().nullable() })) })
      .describe('Identifiers where the filer gave them; N/A and all-zero CUSIPs are null'),
    balance: z.number().nullable().describe('Amount held, in `units`'),
    units: z.string().nullable().describe('NS (shares), PA (principal amount), NC (contracts) or OU (other, see unitsDescription)'),
    unitsDescription: z.string().nullable(),
    currency: z.string().nullable().describe('ISO currency of the investment'),
    exchangeRate: z.number().nullable().describe('Units of currency per US dollar, when not in dollars'),
    valueUsd: z.number().nullable().describe('Value in US dollars, as filed (Item C.4)'),
    percentOfNetAssets: z.number().nullable().describe('Value as a percent of the fund\'s net assets, as filed'),
    payoffProfile: z.string().nullable().describe('Long, Short or N/A'),
    assetCategory: z.string().nullable().describe('Item C.5 code: EC, EP, DBT, ABS-MBS, STIV, DIR, …'),
    assetCategoryLabel: z.string().nullable(),
    issuerCategory: z.string().nullable().describe('Item C.5 code: CORP, UST, USGA, USGSE, MUN, NUSS, PF, RF, OTHER'),
    issuerCategoryLabel: z.string().nullable(),
    country: z.string().nullable().describe('Country of investment or issuer'),
    isRestricted: z.boolean().nullable(),
    fairValueLevel: z.string().nullable().describe('1, 2, 3 or N/A'),
    debt: z
      .object({ maturityDate: z.string().nullable(), couponKind: z.string().nullable(), annualizedRate: z.number().nullable(), isDefault: z.boolean().nullable(), areInterestPaymentsInArrears: z.boolean().nullable(), isPaidInKind: z.boolean().nullable() })
      .nullable()
      .describe('Debt securities only (Item C.9)'),
    derivativeCategory: z.string().nullable().describe('Derivatives only: forward, future, swap, option or other'),
  })
  .partial()
  .required({ object: true, id: true, accessionNumber: true, citationUrl: true, sourceField: true });

const report = z.object({
  id: z.string().describe('The report\'s accession number, or `doc_…` for a standalone document'),
  ...provenance,
  seriesId: z.string().nullable(),
  seriesName: z.string().nullable(),
  seriesLei: z.string().nullable(),
  registrantCik: z.string().nullable(),
  registrantName: z.string().nullable(),
  registrantLei: z.string().nullable(),
  formType: z.string().describe('NPORT-P or NPORT-P/A'),
  filedAt: z.string().nullable(),
  filedAtNullReason: z.string().nullable(),
  reportDate: z.string().nullable().describe('The date the portfolio is reported as of'),
  reportPeriodEnd: z.string().nullable().describe('The fund\'s fiscal year end'),
  isFinalFiling: z.boolean().nullable(),
  totalAssets: z.number().nullable().describe('Total assets in dollars (Item B.1.a)'),
  totalLiabilities: z.number().nullable().describe('Total liabilities in dollars (Item B.1.b)'),
  netAssets: z.number().nullable().describe('Net assets in dollars (Item B.1.c)'),
  holdingsCount: z.number().int().describe('Investments in the report (before the asset_category filter)'),
  reportDatesAvailable: z.array(z.string()).describe('Report dates of the series\' N-PORT reports held, newest first'),
});

type Node = FundHoldingsQuery['fundHoldings']['nodes'][number];

function toHolding(h: Node, view: View) {
  const { cusip, isin, lei, ticker, otherIdentifiers, ...rest } = h;
  return inView(
    view,
    { object: 'fund_holding' as const, ...rest, identifiers: { cusip, isin, lei, ticker, other: otherIdentifiers as { description: string | null; value: string | null }[] }, debt: h.debt as z.input<typeof holding>['debt'] },
    { always: ['object', 'id', 'accessionNumber', 'citationUrl', 'citationNullReason', 'sourceField'], compact: ['name', 'identifiers', 'valueUsd', 'percentOfNetAssets'], agent: ['name', 'title', 'identifiers', 'balance', 'units', 'valueUsd', 'percentOfNetAssets', 'assetCategory', 'issuerCategory', 'reportDate'] },
  );
}

const holdingsResponse = listEnvelope(holding).extend({ fund: report.describe('The N-PORT report the holdings come from, with the fund\'s totals'), coverage: coverageSchema });
const holdingsDescription =
  'The investments of the fund series\' N-PORT report (Part C) as of `report_date` (the latest held when omitted), in the report\'s order; cursor pagination. Values are as filed: `valueUsd` in dollars and `percentOfNetAssets` as the percent the filer computed. `fund` carries the report\'s totals (total assets, liabilities, net assets) and its citation. ';
const holdingsFilters = {
  report_date: dateParam('The portfolio\'s report date, e.g. 2022-12-31'),
  asset_category: z.string().regex(/^[A-Za-z-]{2,8}$/, 'expected an asset category code such as EC or DBT').optional().describe('Only investments of this asset category code (EC, DBT, …)'),
  ...pageParams,
  view: viewParam,
};

function reshapeHoldings({ fundHoldings: page }: FundHoldingsQuery, meta: { requestId: string }, view: View, who: string) {
  return {
    object: 'list' as const,
    fund: page.fund,
    data: page.nodes.map((h) => toHolding(h, view)),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
    coverage: coverage(`N-PORT reports ingested for ${who}`),
    ...meta,
  };
}

const seriesHoldingsRoute = operationRoute({
  name: 'funds_series_holdings_list',
  method: 'GET',
  path: '/v1/funds/{series_id}/holdings',
  summary: 'A fund series\' N-PORT portfolio and totals',
  description: `${holdingsDescription}A series of which no N-PORT report is held is 404 \`fund_not_found\`.`,
  ...common,
  errors: ['fund_not_found'],
  params: { path: z.strictObject({ series_id: seriesIdParam.describe('EDGAR series id, e.g. S000012000') }), query: z.strictObject(holdingsFilters) },
  response: holdingsResponse,
  operation: FundHoldingsDocument,
  variables: ({ path, query }) => ({ seriesId: path.series_id.toUpperCase(), cik: null, ticker: null, reportDate: query.report_date ?? null, assetCategory: query.asset_category ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape((data, meta, { path, query }) => reshapeHoldings(data, meta, query.view, `series ${path.series_id}`));

const holdingsRoute = operationRoute({
  name: 'funds_holdings_list',
  method: 'GET',
  path: '/v1/funds/holdings',
  summary: 'A fund\'s N-PORT portfolio by registrant and series',
  description: `${holdingsDescription}Name the fund with \`series_id\`, or its registrant with \`cik\` or \`ticker\` (with \`series_id\` when the registrant reports several series: without it, 400 \`invalid_query_parameter\` lists them). An unknown CIK or ticker is 404 \`entity_not_found\`; nothing held, 404 \`fund_not_found\`.`,
  ...common,
  errors: ['entity_not_found', 'fund_not_found'],
  params: {
    query: oneOfRequired({ cik: cikParam.describe('The registrant\'s Central Index Key'), ticker: tickerParam.describe('The registrant\'s ticker'), series_id: seriesIdParam.optional().describe('EDGAR series id, e.g. S000012000'), ...holdingsFilters }, ['series_id', 'cik', 'ticker']),
  },
  response: holdingsResponse,
  operation: FundHoldingsDocument,
  variables: ({ query }) => ({ seriesId: query.series_id?.toUpperCase() ?? null, cik: query.cik ?? null, ticker: query.ticker ?? null, reportDate: query.report_date ?? null, assetCategory: query.asset_category ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape((data, meta, { query }) => reshapeHoldings(data, meta, query.view, [query.series_id && `series ${query.series_id}`, query.cik && `CIK ${query.cik}`, query.ticker && `ticker ${query.ticker}`].filter(Boolean).join(', ')));

export const fundRoutes: Route[] = [fundsRoute, holdingsRoute, seriesHoldingsRoute];
