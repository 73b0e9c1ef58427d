// Compensation and board: DEF 14A pay versus performance, and directors and officers
// over time from 8-K Item 5.02 and the director nominees of DEF 14A proxy statements.
import { z } from 'zod';
import { BoardMembersDocument, PayVersusPerformanceDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, oneOfRequired, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import type { BoardMemberEvent, PayVersusPerformanceYear } from '../../resolvers/compensation.ts';

const amount = (what: string) => z.string().nullable().describe(`${what}, US dollars, exact as tagged`);
const xbrlSource = z
  .object({
    tag: z.string().describe('The inline XBRL tag (QName), e.g. ecd:CoSelectedMeasureAmt, us-gaap:NetIncomeLoss'),
    contextRef: z.string().nullable().describe('The contextRef the fact was tagged with; null only for a record ingested before contextRefs were kept (the next ingest reads it again)'),
  })
  .describe('Where in the proxy statement\'s inline XBRL the value was read');

const pvpItem = z.object({
  object: z.literal('pay_versus_performance'),
  id: z.string().describe('The proxy statement\'s accession number, or `doc_…` for an ingested document that carries none'),
  cik: z.string(),
  companyName: z.string().nullable(),
  formType: z.string().describe('DEF 14A'),
  accessionNumber: z.string().nullable(),
  filedAt: z.string().nullable(),
  citationUrl: z.string().nullable(),
  citationNullReason: z.string().nullable(),
  sourceDocument: z.string().describe('The ingested file the values were read from'),
  companySelectedMeasureName: z.string().nullable().describe('The company-selected measure, as the statement names it (ecd:CoSelectedMeasureName)'),
  companySelectedMeasureNameNullReason: z.string().nullable(),
  companySelectedMeasureNameSource: xbrlSource.nullable(),
  mostImportantMeasures: z
    .array(z.object({ position: z.number().int().describe('1-based, in the order the statement lists them (the list need not be ranked)'), name: z.string().describe('As tagged (ecd:MeasureName)'), source: xbrlSource }))
    .describe('The tabular list of the most important financial performance measures linking compensation actually paid to performance (Item 402(v)(6)), ecd:MeasureName by ecd:MeasureAxis'),
  mostImportantMeasuresNullReason: z.string().nullable(),
  years: z
    .array(
      z.object({
        fiscalYearEnd: z.string().describe('The covered fiscal year\'s end'),
        peoSummaryCompensationTotal: amount('PEO total from the Summary Compensation Table (ecd:PeoTotalCompAmt)'),
        peoCompensationActuallyPaid: amount('PEO compensation actually paid (ecd:PeoActuallyPaidCompAmt)'),
        nonPeoNeoAverageSummaryCompensationTotal: amount('Average SCT total of the non-PEO named executive officers (ecd:NonPeoNeoAvgTotalCompAmt)'),
        nonPeoNeoAverageCompensationActuallyPaid: amount('Average compensation actually paid to the non-PEO NEOs (ecd:NonPeoNeoAvgCompActuallyPaidAmt)'),
        totalShareholderReturn: z.string().nullable().describe('Value of an initial fixed $100 investment in the company (ecd:TotalShareholderRtnAmt)'),
        peerGroupTotalShareholderReturn: z.string().nullable().describe('Value of an initial fixed $100 investment in the peer group (ecd:PeerGroupTotalShareholderRtnAmt)'),
        netIncome: amount('Net income as the table shows it (us-gaap:NetIncomeLoss, scale and sign applied)'),
        netIncomeNullReason: z.string().nullable(),
        companySelectedMeasureValue: z.string().nullable().describe('The company-selected measure\'s value (ecd:CoSelectedMeasureAmt)'),
        companySelectedMeasure: z
          .object({
            name: z.string().nullable().describe('ecd:CoSelectedMeasureName (the statement names it once, for its latest year)'),
            value: z.string().nullable().describe('This year\'s ecd:CoSelectedMeasureAmt, exact as tagged (scale and sign applied)'),
            nameSource: xbrlSource.nullable(),
            valueSource: xbrlSource.nullable(),
          })
          .nullable()
          .describe('The company-selected measure: its name and this year\'s value, each with its source'),
        adjustments: z
          .array(
            z.object({
              executive: z.enum(['peo', 'non_peo_neo_average']),
              adjustment: z.string().describe('The adjustment member as tagged, e.g. YearEndFairValueOfEquityAwardsGrantedInTheYear'),
              amount: z.string(),
              contextRef: z.string().nullable().describe('The ecd:AdjToCompAmt fact\'s contextRef'),
            }),
          )
          .describe('The reconciliation from the SCT total to compensation actually paid (ecd:AdjToCompAmt by ecd:AdjToCompAxis)'),
        sources: z
          .array(z.object({ field: z.string().describe('The year\'s field, e.g. netIncome'), tag: z.string(), contextRef: z.string().nullable() }))
          .describe('The inline XBRL tag and contextRef of each value of the year'),
      }),
    )
    .describe('Newest covered year first'),
});

const pvp = operationRoute({
  name: 'compensation_pay_versus_performance',
  method: 'GET',
  path: '/v1/compensation/pay-versus-performance',
  summary: 'DEF 14A pay versus performance: compensation actually paid vs the Summary Compensation Table, TSR, peer TSR, company-selected measure',
  description:
    'One row per proxy statement, newest first, read from the statement\'s Item 402(v) inline XBRL (ecd taxonomy, and us-gaap:NetIncomeLoss): for each covered fiscal year the PEO\'s and the non-PEO NEOs\' average Summary Compensation Table total and compensation actually paid, the company\'s and the peer group\'s cumulative TSR (value of $100), net income, the company-selected measure (name and value), and the SCT-to-CAP adjustments; for the statement, the tabular list of its most important financial performance measures. Amounts are exact as tagged (the ix `scale` and `sign` applied). Every value names the tag and contextRef it was read from (`sources`, `…Source`, an adjustment\'s `contextRef`) beside the statement\'s accession and citation. A value the statement does not tag is null with the reason.',
  tag: 'Compensation',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { query: z.strictObject({ ticker: tickerParam, cik: cikParam, view: viewParam }) },
  response: listEnvelope(pvpItem).extend({ coverage: coverageSchema }),
  errors: ['entity_not_found'],
  operation: PayVersusPerformanceDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null }),
}).reshape(({ payVersusPerformance }, meta, { query }) => ({
  object: 'list',
  data: payVersusPerformance.map((p) => ({
    object: 'pay_versus_performance' as const,
    ...p,
    years: p.years.map((y) => ({ ...y, adjustments: y.adjustments as PayVersusPerformanceYear['adjustments'] })),
  })),
  hasMore: false,
  nextCursor: null,
  coverage: coverage(`DEF 14A proxy statements ingested${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}`),
  ...meta,
}));

const memberItem = z.object({
  object: z.literal('board_member_event'),
  id: z.string(),
  cik: z.string().nullable(),
  person: z.string().describe('The director or officer, as the filing names them'),
  role: z.string().nullable().describe('The position, in the filing\'s words'),
  event: z
    .enum(['appointed', 'elected', 'departed', 'compensation', 'nominated'])
    .describe('appointed, elected (by the board or shareholders), departed (resignation, retirement, termination), or compensation (a pay arrangement reported under 5.02(e)); nominated: a director nominee standing for election in a DEF 14A'),
  effectiveDate: z.string().nullable().describe('When the change takes effect, where the text states it (null for a nominee)'),
  eventDate: z.string().nullable().describe('The 8-K\'s date of report; for a DEF 14A nominee, the proxy statement\'s filing date'),
  filedAt: z.string().nullable(),
  source: z.enum(['8-K Item 5.02', 'DEF 14A']).describe('8-K Item 5.02, or DEF 14A (the proxy statement\'s director nominees)'),
  accessionNumber: z.string().nullable(),
  citationUrl: z.string().nullable(),
  sourceDocument: z.string().nullable().describe('DEF 14A rows: the ingested file the nominee was read from (a proxy read without its submission has no accession, so no citationUrl)'),
  excerpt: z.string().nullable().describe('The Item 5.02 text the change was read from; for a DEF 14A nominee, the election proposal\'s sentence naming the nominees'),
  sourceSpan: z.string().nullable().describe('DEF 14A rows: the nominee profile\'s heading cell the name was read from, e.g. "Cynthia A. Arnold (Nominee for Election)"; null for 8-K rows'),
  confidence: z.string().nullable().describe('For DEF 14A rows: high when the profile heading, the proposal\'s sentence and its stated number of nominees agree, medium when two do, low for the heading alone'),
});

const members = operationRoute({
  name: 'board_members_list',
  method: 'GET',
  path: '/v1/board/members',
  summary: 'Directors and officers over time: appointments, elections and departures from 8-K Item 5.02, and DEF 14A director nominees',
  description:
    'One row per person and change, newest filing first: who, which role, appointed, elected or departed, and when, each cited to the 8-K whose Item 5.02 text states it; and one row per director nominee a DEF 14A names in its election-of-directors proposal (event nominated, role director nominee, source DEF 14A), read from the nominee profiles\' headings ("Name (Nominee for Election)") and checked against the proposal\'s sentence and stated number of nominees (confidence). A proxy that marks no nominee profile gives no rows; 8-Ks known only from EDGAR\'s index (no text) are left out.',
  tag: 'Board',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { query: oneOfRequired({ ticker: tickerParam, cik: cikParam, ...pageParams, view: viewParam }, ['ticker', 'cik']) },
  response: listEnvelope(memberItem).extend({ coverage: coverageSchema }),
  errors: ['entity_not_found'],
  operation: BoardMembersDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ boardMembers: page }, meta, { query }) => ({
  object: 'list',
  data: page.nodes.map((m) => ({ object: 'board_member_event' as const, ...m, event: m.event as BoardMemberEvent['event'], source: m.source as BoardMemberEvent['source'] })),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  coverage: coverage(`8-K Item 5.02 documents and DEF 14A proxy statements (director nominees) ingested${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}`),
  ...meta,
}));

export const compensationRoutes: Route[] = [pvp, members];
