// Compensation and board (issue 14): DEF 14A pay versus performance, and directors and officers
// over time from 8-K Item 5.02.
import { z } from 'zod';
import { BoardMembersDocument, PayVersusPerformanceDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import type { BoardMemberEvent, PayVersusPerformanceYear } from '../../resolvers/compensation.ts';

const amount = (what: string) => z.string().nullable().describe(`${what}, US dollars, exact as tagged`);

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
  companySelectedMeasureName: z.string().nullable(),
  companySelectedMeasureNameNullReason: z.string().nullable(),
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
        netIncome: z.string().nullable(),
        netIncomeNullReason: z.string().nullable(),
        companySelectedMeasureValue: z.string().nullable().describe('The company-selected measure\'s value (ecd:CoSelectedMeasureAmt)'),
        adjustments: z
          .array(z.object({ executive: z.enum(['peo', 'non_peo_neo_average']), adjustment: z.string().describe('The adjustment member as tagged, e.g. YearEndFairValueOfEquityAwardsGrantedInTheYear'), amount: z.string() }))
          .describe('The reconciliation from the SCT total to compensation actually paid (ecd:AdjToCompAmt by ecd:AdjToCompAxis)'),
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
    'One row per proxy statement, newest first, read from the statement\'s Item 402(v) inline XBRL (ecd taxonomy): for each covered fiscal year the PEO\'s and the non-PEO NEOs\' average Summary Compensation Table total and compensation actually paid, the company\'s and the peer group\'s cumulative TSR (value of $100), the company-selected measure\'s value, and the SCT-to-CAP adjustments. Net income (tagged us-gaap) and the measure\'s name (a text fact) are not held: they are null with the reason.',
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
  event: z.enum(['appointed', 'elected', 'departed', 'compensation']).describe('appointed, elected (by the board or shareholders), departed (resignation, retirement, termination), or compensation (a pay arrangement reported under 5.02(e))'),
  effectiveDate: z.string().nullable().describe('When the change takes effect, where the text states it'),
  eventDate: z.string().nullable().describe('The 8-K\'s date of report'),
  filedAt: z.string().nullable(),
  source: z.literal('8-K Item 5.02'),
  accessionNumber: z.string().nullable(),
  citationUrl: z.string().nullable(),
  excerpt: z.string().nullable().describe('The Item 5.02 text the change was read from'),
  confidence: z.string().nullable(),
});

const members = operationRoute({
  name: 'board_members_list',
  method: 'GET',
  path: '/v1/board/members',
  summary: 'Directors and officers over time: appointments, elections and departures from 8-K Item 5.02',
  description:
    'One row per person and change, newest filing first: who, which role, appointed, elected or departed, and when, each cited to the 8-K whose Item 5.02 text states it. DEF 14A director slates are not parsed yet, so the list is the 8-K record only; 8-Ks known only from EDGAR\'s index (no text) are left out.',
  tag: 'Board',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { query: z.strictObject({ ticker: tickerParam, cik: cikParam, ...pageParams, view: viewParam }) },
  response: listEnvelope(memberItem).extend({ coverage: coverageSchema }),
  errors: ['entity_not_found'],
  operation: BoardMembersDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ boardMembers: page }, meta, { query }) => ({
  object: 'list',
  data: page.nodes.map((m) => ({ object: 'board_member_event' as const, ...m, event: m.event as BoardMemberEvent['event'], source: m.source as BoardMemberEvent['source'] })),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  coverage: coverage(`8-K Item 5.02 documents ingested${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}; DEF 14A director slates are not parsed`),
  ...meta,
}));

export const compensationRoutes: Route[] = [pvp, members];
