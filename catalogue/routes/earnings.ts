// Earnings: per company and fiscal quarter, the 8-K Item 2.02 release joined with the
// quarter's revenue, net income and diluted EPS from XBRL, and the change against the same quarter
// of the prior year. No consensus estimates are held: the surprise is year over year.
import { z } from 'zod';
import { EarningsDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, inView, oneOfRequired, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';

const metric = z
  .object({
    value: z.string().nullable().describe('The quarter\'s value as an exact decimal string, as the statements give it (US dollars; EPS in dollars per share)'),
    unit: z.string().nullable().describe('USD, USD/shares …'),
    derived: z.boolean().describe('True for a quarter computed from other reported values (a fourth quarter is FY − 9M YTD, as the statements derive it); false when the filing reported the quarter itself'),
    derivation: z.string().nullable().describe('The formula of a derived value, e.g. "FY − 9M YTD"'),
    missing: z.string().nullable().describe('Why there is no value: not_reported, not_covered or not_derivable'),
    note: z.string().nullable(),
    tag: z.string().nullable().describe('The XBRL tag the value was read from, e.g. us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'),
    accessionNumber: z.string().nullable().describe('The filing that reported the value (for a derived value, its first term\'s filing)'),
    form: z.string().nullable(),
    filedAt: z.string().nullable(),
    citationUrl: z.string().nullable(),
    priorYearValue: z.string().nullable().describe('The same fiscal quarter of the prior fiscal year'),
    priorYearDerived: z.boolean().nullable(),
    yoyChange: z.string().nullable().describe('value − priorYearValue, exact'),
    yoyChangePercent: z.number().nullable().describe('Percent change against the prior-year quarter, 2 places'),
    yoyNullReason: z.string().nullable().describe('Why there is no year-over-year change'),
  })
  .nullable()
  .describe('Null for a release no quarter of the statements held could be matched to (financialsNullReason)');

const quarterItem = z
  .object({
    object: z.literal('earnings_quarter'),
    id: z.string().describe('`{cik}:{fiscalYear}{fiscalPeriod}`, or `{cik}:release:{accessionNumber}` for a release without a matched quarter'),
    cik: z.string(),
    fiscalYear: z.number().int().nullable().describe('The fiscal year, as the statements label it'),
    fiscalPeriod: z.string().nullable().describe('Q1, Q2, Q3 or Q4'),
    periodStart: z.string().nullable(),
    periodEnd: z.string().nullable(),
    release: z
      .object({
        accessionNumber: z.string(),
        form: z.string(),
        filedAt: z.string().nullable(),
        eventDate: z.string().nullable().describe('The 8-K\'s date of report: the day results were announced'),
        items: z.array(z.string()).describe('All items the 8-K reports'),
        exhibitNumber: z.string().nullable().describe('The press-release exhibit (99.1) where the Item 2.02 text names it'),
        exhibitNullReason: z.string().nullable(),
        excerpt: z.string().nullable().describe('The Item 2.02 text, when the 8-K document was ingested'),
        fromIndexOnly: z.boolean().describe('True when only EDGAR\'s submissions index tells of the 8-K (its document was not ingested)'),
        citationUrl: z.string(),
      })
      .nullable()
      .describe('The 8-K Item 2.02 earnings release: the first one filed within 100 days after the quarter ended'),
    releaseNullReason: z.string().nullable(),
    currency: z.string().nullable(),
    revenue: metric,
    netIncome: metric,
    epsDiluted: metric,
    financialsNullReason: z.string().nullable(),
    priorYearPeriodEnd: z.string().nullable().describe('The period end of the prior-year quarter compared against'),
  })
  .partial()
  .required({ object: true, id: true });

const list = operationRoute({
  name: 'earnings_list',
  method: 'GET',
  path: '/v1/earnings',
  summary: 'Quarterly earnings: the 8-K Item 2.02 release with revenue, net income and diluted EPS',
  description:
    'One row per fiscal quarter, newest first: the earnings release (an 8-K reporting Item 2.02, matched to the latest quarter that ended within 100 days before it) joined with that quarter\'s revenue, net income and diluted EPS from the company\'s XBRL statements, each cited to the filing that reported it. A fourth quarter is derived (FY − 9M YTD) and flagged `derived` with its formula, exactly as /v1/statements/all flags it. The surprise is year over year against the same quarter of the prior fiscal year: this service holds no consensus estimates. A release with no quarter in the statements held appears on its own with its figures null and the reason.',
  tag: 'Earnings',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: {
    query: oneOfRequired(
      {
        ticker: tickerParam,
        cik: cikParam,
        fiscal_year: z.coerce.number().int().min(1990).max(2100).optional().describe('Only this fiscal year'),
        fiscal_period: z.enum(['Q1', 'Q2', 'Q3', 'Q4']).optional().describe('Only this fiscal quarter'),
        with_release: z.enum(['true', 'false']).default('false').describe('true: only quarters an earnings release was matched to'),
        ...pageParams,
        view: viewParam,
      },
      ['ticker', 'cik'],
    ),
  },
  response: listEnvelope(quarterItem).extend({
    cik: z.string(),
    estimates: z.null().describe('Always null: this service holds no consensus estimates, so surprise is measured against the prior year'),
    estimatesNote: z.string(),
    coverage: coverageSchema,
  }),
  errors: ['entity_not_found'],
  operation: EarningsDocument,
  variables: ({ query }) => ({
    ticker: query.ticker ?? null,
    cik: query.cik ?? null,
    fiscalYear: query.fiscal_year ?? null,
    fiscalPeriod: query.fiscal_period ?? null,
    withRelease: query.with_release === 'true',
    first: query.limit,
    after: query.cursor ?? null,
  }),
}).reshape(({ earnings }, meta, { query }) => ({
  object: 'list',
  cik: earnings.cik,
  data: earnings.nodes.map((q) =>
    inView(query.view, { object: 'earnings_quarter' as const, ...q }, {
      always: ['object', 'id', 'fiscalYear', 'fiscalPeriod', 'periodEnd'],
      compact: ['release', 'revenue', 'netIncome', 'epsDiluted'],
      agent: ['release', 'revenue', 'netIncome', 'epsDiluted', 'releaseNullReason', 'financialsNullReason'],
    }),
  ),
  hasMore: earnings.hasMore,
  nextCursor: earnings.nextCursor,
  estimates: null,
  estimatesNote: 'No consensus estimates are held: the surprise reported is the change against the same quarter of the prior fiscal year.',
  coverage: coverage(`8-K Item 2.02 filings in the filings held and quarterly statements built from XBRL facts for CIK ${earnings.cik}`, earnings.statementsReason ? { statements: earnings.statementsReason } : {}),
  ...meta,
}));

export const earningsRoutes: Route[] = [list];
