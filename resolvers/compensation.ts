// Compensation and board (issue 14): a DEF 14A's pay-versus-performance table (Item 402(v)),
// from the ecd inline XBRL the ingest stores with the proxy (FormRecord family PROXY,
// data.payVersusPerformance), and directors and officers over time from 8-K Item 5.02 events.
import { ApiError } from '../server/errors.ts';
import { citationUrl as buildCitationUrl, isoDay } from './citations.ts';
import type { DataReader } from './dataCache.ts';

interface EcdFact { tag: string; value: string; unit: string | null; periodStart: string | null; periodEnd: string; dimensions: Record<string, string> }

export interface PayVersusPerformanceYear {
  fiscalYearEnd: string;
  peoSummaryCompensationTotal: string | null;
  peoCompensationActuallyPaid: string | null;
  nonPeoNeoAverageSummaryCompensationTotal: string | null;
  nonPeoNeoAverageCompensationActuallyPaid: string | null;
  totalShareholderReturn: string | null;
  peerGroupTotalShareholderReturn: string | null;
  netIncome: string | null;
  netIncomeNullReason: string | null;
  companySelectedMeasureValue: string | null;
  /** reconciliation of SCT total to CAP, per executive category: adjustment member → amount */
  adjustments: { executive: 'peo' | 'non_peo_neo_average'; adjustment: string; amount: string }[];
}

export interface PayVersusPerformance {
  id: string;
  cik: string;
  companyName: string | null;
  formType: string;
  accessionNumber: string | null;
  filedAt: string | null;
  citationUrl: string | null;
  citationNullReason: string | null;
  sourceDocument: string;
  companySelectedMeasureName: string | null;
  companySelectedMeasureNameNullReason: string | null;
  years: PayVersusPerformanceYear[];
}

const noAccession = 'The ingested proxy statement carries no accession number (a primary document without its submission), so no SEC URL can be built; sourceDocument names the file.';
const plain = (f: EcdFact) => Object.keys(f.dimensions ?? {}).length === 0;

export function payVersusPerformanceOf(facts: EcdFact[]): PayVersusPerformanceYear[] {
  const years = [...new Set(facts.map((f) => f.periodEnd))].sort().reverse();
  return years.map((end) => {
    const value = (tag: string) => facts.find((f) => f.tag === tag && f.periodEnd === end && plain(f))?.value ?? null;
    return {
      fiscalYearEnd: end,
      peoSummaryCompensationTotal: value('PeoTotalCompAmt'),
      peoCompensationActuallyPaid: value('PeoActuallyPaidCompAmt'),
      nonPeoNeoAverageSummaryCompensationTotal: value('NonPeoNeoAvgTotalCompAmt'),
      nonPeoNeoAverageCompensationActuallyPaid: value('NonPeoNeoAvgCompActuallyPaidAmt'),
      totalShareholderReturn: value('TotalShareholderRtnAmt'),
      peerGroupTotalShareholderReturn: value('PeerGroupTotalShareholderRtnAmt'),
      netIncome: null,
      netIncomeNullReason: 'The table tags net income with us-gaap:NetIncomeLoss; the ingest keeps the proxy\'s ecd facts only, so it is not held.',
      companySelectedMeasureValue: value('CoSelectedMeasureAmt'),
      adjustments: facts
        .filter((f) => f.tag === 'AdjToCompAmt' && f.periodEnd === end)
        .map((f) => ({
          executive: f.dimensions['ecd:ExecutiveCategoryAxis'] === 'ecd:PeoMember' ? ('peo' as const) : ('non_peo_neo_average' as const),
          adjustment: (f.dimensions['ecd:AdjToCompAxis'] ?? '').replace(/^[^:]+:/, '').replace(/Member$/, ''),
          amount: f.value,
        })),
    };
  });
}

export async function payVersusPerformance(reader: DataReader, ciks: string[] | null): Promise<PayVersusPerformance[]> {
  const rows = await reader.prisma.formRecord.findMany({
    where: { family: 'PROXY', isSample: false, ...(ciks ? { cik: { in: ciks } } : {}) },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    take: 100,
    select: { id: true, cik: true, formType: true, accessionNumber: true, filedAt: true, data: true, sourceKey: true, entity: { select: { name: true } } },
  });
  return rows.map((r) => {
    const data = r.data as { payVersusPerformance?: EcdFact[] };
    const url = r.accessionNumber && r.cik ? buildCitationUrl(r.cik, r.accessionNumber) : null;
    return {
      id: r.id,
      cik: r.cik ?? '',
      companyName: r.entity?.name ?? null,
      formType: r.formType,
      accessionNumber: r.accessionNumber,
      filedAt: isoDay(r.filedAt),
      citationUrl: url,
      citationNullReason: url ? null : noAccession,
      sourceDocument: r.sourceKey,
      companySelectedMeasureName: null,
      companySelectedMeasureNameNullReason: 'The measure\'s name is a text fact (ecd:CoSelectedMeasureName); the ingest keeps the numeric ecd facts only.',
      years: payVersusPerformanceOf(data.payVersusPerformance ?? []),
    };
  });
}

export interface BoardMemberEvent {
  id: string;
  cik: string | null;
  person: string;
  role: string | null;
  event: 'appointed' | 'elected' | 'departed' | 'compensation';
  effectiveDate: string | null;
  eventDate: string | null;
  filedAt: string | null;
  source: '8-K Item 5.02';
  accessionNumber: string | null;
  citationUrl: string | null;
  excerpt: string | null;
  confidence: string | null;
}

const eventNames: Record<string, BoardMemberEvent['event']> = { appointment: 'appointed', election: 'elected', departure: 'departed', compensation: 'compensation' };

export async function boardMembers(reader: DataReader, ciks: string[], page: { first: number; after?: string | null }) {
  const offset = page.after ? Number(Buffer.from(page.after, 'base64url').toString().match(/^board:(\d{1,6})$/)?.[1] ?? NaN) : 0;
  if (Number.isNaN(offset)) throw new ApiError('invalid_query_parameter', 'The cursor is not one this service issued; pass the nextCursor of a previous page.', { details: { parameter: 'cursor' } });
  const events = await reader.prisma.filingEvent.findMany({
    where: { type: 'officer_change', cik: { in: ciks }, fromIndexOnly: false },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    include: { filing: { select: { primaryDocument: true } } },
  });
  const rows: BoardMemberEvent[] = events.flatMap((e) => {
    const data = e.data as { changes?: { change: string; person: string; position: string | null; effectiveDate: string | null }[]; excerpt?: string };
    return (data.changes ?? []).map((c, i) => ({
      id: `${e.id}:${i}`,
      cik: e.cik,
      person: c.person,
      role: c.position,
      event: eventNames[c.change] ?? 'appointed',
      effectiveDate: c.effectiveDate,
      eventDate: isoDay(e.eventDate),
      filedAt: isoDay(e.filedAt),
      source: '8-K Item 5.02' as const,
      accessionNumber: e.accessionNumber,
      citationUrl: e.accessionNumber && e.cik ? buildCitationUrl(e.cik, e.accessionNumber, e.filing?.primaryDocument) : null,
      excerpt: data.excerpt ?? null,
      confidence: e.confidence,
    }));
  });
  const nodes = rows.slice(offset, offset + page.first);
  const hasMore = offset + page.first < rows.length;
  return { nodes, hasMore, nextCursor: hasMore ? Buffer.from(`board:${offset + page.first}`).toString('base64url') : null };
}
