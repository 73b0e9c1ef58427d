// Compensation and board: a DEF 14A's pay-versus-performance table (Item 402(v)),
// from the inline XBRL the ingest stores with the proxy (FormRecord family PROXY,
// data.payVersusPerformance and data.payVersusPerformanceText, ingest/parsers/proxy/proxyStatement.ts),
// and directors and officers over time from 8-K Item 5.02 events and the proxy's director nominees.
import { ApiError } from '../core/errors.ts';
import { cursorOffset, offsetCursor } from '../core/cursor.ts';
import { citationUrl as buildCitationUrl, isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';

/** A numeric fact as stored; taxonomy and contextRef are missing on records ingested before they were kept. */
interface StoredFact { tag: string; taxonomy?: string; contextRef?: string; value: string; unit: string | null; periodStart: string | null; periodEnd: string; dimensions: Record<string, string> }
interface StoredTextFact { tag: string; taxonomy: string; contextRef: string; text: string; periodStart: string | null; periodEnd: string; dimensions: Record<string, string> }
interface StoredNominees { nominees: { name: string; sourceSpan: string; confidence: string }[]; sentence: string | null; statedCount: number | null }

/** Where a value was read: the inline XBRL tag and the contextRef it was tagged with. */
export interface XbrlSource {
  tag: string;
  /** null only for a record ingested before contextRefs were kept (the next ingest reads it again) */
  contextRef: string | null;
}

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
  /** the measure's name (one per statement, ecd:CoSelectedMeasureName) and this year's value (ecd:CoSelectedMeasureAmt) */
  companySelectedMeasure: { name: string | null; value: string | null; nameSource: XbrlSource | null; valueSource: XbrlSource | null } | null;
  /** reconciliation of SCT total to CAP, per executive category: adjustment member → amount */
  adjustments: { executive: 'peo' | 'non_peo_neo_average'; adjustment: string; amount: string; contextRef: string | null }[];
  /** the tag and contextRef of every value of the year above, by field */
  sources: ({ field: string } & XbrlSource)[];
}

export interface MostImportantMeasure {
  /** 1-based, in the order the statement lists them (the list need not be ranked) */
  position: number;
  name: string;
  source: XbrlSource;
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
  companySelectedMeasureNameSource: XbrlSource | null;
  mostImportantMeasures: MostImportantMeasure[];
  mostImportantMeasuresNullReason: string | null;
  years: PayVersusPerformanceYear[];
}

const noAccession = 'The ingested proxy statement carries no accession number (a primary document without its submission), so no SEC URL can be built; sourceDocument names the file.';
const reread = 'The proxy statement was ingested before this value was kept; the next ingest reads it again.';
const plain = (f: StoredFact) => Object.keys(f.dimensions ?? {}).length === 0;
const qname = (f: { tag: string; taxonomy?: string }, fallback: string) => `${f.taxonomy ?? fallback}:${f.tag}`;

/** The table's columns: field, tag (local name) and taxonomy. */
const columns = [
  ['peoSummaryCompensationTotal', 'PeoTotalCompAmt', 'ecd'],
  ['peoCompensationActuallyPaid', 'PeoActuallyPaidCompAmt', 'ecd'],
  ['nonPeoNeoAverageSummaryCompensationTotal', 'NonPeoNeoAvgTotalCompAmt', 'ecd'],
  ['nonPeoNeoAverageCompensationActuallyPaid', 'NonPeoNeoAvgCompActuallyPaidAmt', 'ecd'],
  ['totalShareholderReturn', 'TotalShareholderRtnAmt', 'ecd'],
  ['peerGroupTotalShareholderReturn', 'PeerGroupTotalShareholderRtnAmt', 'ecd'],
  ['netIncome', 'NetIncomeLoss', 'us-gaap'],
  ['companySelectedMeasureValue', 'CoSelectedMeasureAmt', 'ecd'],
] as const;
const tableTags = new Set<string>([...columns.map(([, tag]) => tag), 'AdjToCompAmt']);

export function payVersusPerformanceOf(facts: StoredFact[], measureName: StoredTextFact | null = null): PayVersusPerformanceYear[] {
  // a record read before us-gaap facts were kept holds ecd facts only, without their taxonomy
  const keptNetIncome = facts.some((f) => f.taxonomy !== undefined);
  const years = [...new Set(facts.filter((f) => tableTags.has(f.tag)).map((f) => f.periodEnd))].sort().reverse();
  return years.map((end) => {
    const fact = (tag: string, taxonomy: string) => facts.find((f) => f.tag === tag && (f.taxonomy ?? 'ecd') === taxonomy && f.periodEnd === end && plain(f)) ?? null;
    const found = Object.fromEntries(columns.map(([field, tag, taxonomy]) => [field, fact(tag, taxonomy)])) as Record<(typeof columns)[number][0], StoredFact | null>;
    const value = (field: (typeof columns)[number][0]) => found[field]?.value ?? null;
    const source = (f: StoredFact | null, taxonomy: string): XbrlSource | null => (f ? { tag: qname(f, taxonomy), contextRef: f.contextRef ?? null } : null);
    const measureValue = found.companySelectedMeasureValue;
    return {
      fiscalYearEnd: end,
      peoSummaryCompensationTotal: value('peoSummaryCompensationTotal'),
      peoCompensationActuallyPaid: value('peoCompensationActuallyPaid'),
      nonPeoNeoAverageSummaryCompensationTotal: value('nonPeoNeoAverageSummaryCompensationTotal'),
      nonPeoNeoAverageCompensationActuallyPaid: value('nonPeoNeoAverageCompensationActuallyPaid'),
      totalShareholderReturn: value('totalShareholderReturn'),
      peerGroupTotalShareholderReturn: value('peerGroupTotalShareholderReturn'),
      netIncome: value('netIncome'),
      netIncomeNullReason: found.netIncome ? null : keptNetIncome ? 'The statement tags no us-gaap:NetIncomeLoss without dimensions for this fiscal year.' : reread,
      companySelectedMeasureValue: value('companySelectedMeasureValue'),
      companySelectedMeasure:
        measureName || measureValue
          ? { name: measureName?.text ?? null, value: measureValue?.value ?? null, nameSource: measureName ? { tag: qname(measureName, 'ecd'), contextRef: measureName.contextRef } : null, valueSource: source(measureValue, 'ecd') }
          : null,
      adjustments: facts
        .filter((f) => f.tag === 'AdjToCompAmt' && f.periodEnd === end)
        .map((f) => ({
          executive: f.dimensions['ecd:ExecutiveCategoryAxis'] === 'ecd:PeoMember' ? ('peo' as const) : ('non_peo_neo_average' as const),
          adjustment: (f.dimensions['ecd:AdjToCompAxis'] ?? '').replace(/^[^:]+:/, '').replace(/Member$/, ''),
          amount: f.value,
          contextRef: f.contextRef ?? null,
        })),
      sources: columns.flatMap(([field, , taxonomy]) => {
        const from = source(found[field], taxonomy);
        return from ? [{ field, ...from }] : [];
      }),
    };
  });
}

/** The tabular list (Item 402(v)(6)): ecd:MeasureName by ecd:MeasureAxis, in document order. */
export function mostImportantMeasuresOf(text: StoredTextFact[]): MostImportantMeasure[] {
  return text
    .filter((f) => f.tag === 'MeasureName' && f.text)
    .map((f, i) => ({ position: i + 1, name: f.text, source: { tag: qname(f, 'ecd'), contextRef: f.contextRef } }));
}

export async function payVersusPerformance(reader: DataReader, ciks: string[] | null): Promise<PayVersusPerformance[]> {
  const rows = await reader.prisma.formRecord.findMany({
    where: { family: 'PROXY', isSample: false, ...(ciks ? { cik: { in: ciks } } : {}) },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    take: 100,
    select: { id: true, cik: true, formType: true, accessionNumber: true, filedAt: true, data: true, sourceKey: true, entity: { select: { name: true } } },
  });
  return rows.map((r) => {
    const data = r.data as { payVersusPerformance?: StoredFact[]; payVersusPerformanceText?: StoredTextFact[] };
    const url = r.accessionNumber && r.cik ? buildCitationUrl(r.cik, r.accessionNumber) : null;
    const text = data.payVersusPerformanceText;
    // the measure is named once, for the latest year; the newest such fact if a statement repeats it
    const measureName = (text ?? []).filter((f) => f.tag === 'CoSelectedMeasureName' && f.text && Object.keys(f.dimensions ?? {}).length === 0).sort((a, b) => b.periodEnd.localeCompare(a.periodEnd))[0] ?? null;
    const measures = mostImportantMeasuresOf(text ?? []);
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
      companySelectedMeasureName: measureName?.text ?? null,
      companySelectedMeasureNameNullReason: measureName ? null : text ? 'The statement tags no ecd:CoSelectedMeasureName.' : reread,
      companySelectedMeasureNameSource: measureName ? { tag: qname(measureName, 'ecd'), contextRef: measureName.contextRef } : null,
      mostImportantMeasures: measures,
      mostImportantMeasuresNullReason: measures.length ? null : text ? 'The statement tags no ecd:MeasureName (the tabular list of most important measures).' : reread,
      years: payVersusPerformanceOf(data.payVersusPerformance ?? [], measureName),
    };
  });
}

export interface BoardMemberEvent {
  id: string;
  cik: string | null;
  person: string;
  role: string | null;
  event: 'appointed' | 'elected' | 'departed' | 'compensation' | 'nominated';
  effectiveDate: string | null;
  eventDate: string | null;
  filedAt: string | null;
  source: '8-K Item 5.02' | 'DEF 14A';
  accessionNumber: string | null;
  citationUrl: string | null;
  /** DEF 14A rows: the ingested file (a proxy read without its submission has no accession) */
  sourceDocument: string | null;
  excerpt: string | null;
  /** DEF 14A rows: the heading cell naming the nominee; 8-K rows: null (excerpt is the item's text) */
  sourceSpan: string | null;
  confidence: string | null;
}

const eventNames: Record<string, BoardMemberEvent['event']> = { appointment: 'appointed', election: 'elected', departure: 'departed', compensation: 'compensation' };

export async function boardMembers(reader: DataReader, ciks: string[], page: { first: number; after?: string | null }) {
  const offset = cursorOffset('board', page.after);
  const [events, proxies] = await Promise.all([
    reader.prisma.filingEvent.findMany({
      where: { type: 'officer_change', cik: { in: ciks }, fromIndexOnly: false },
      orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      include: { filing: { select: { primaryDocument: true } } },
    }),
    reader.prisma.formRecord.findMany({
      where: { family: 'PROXY', isSample: false, cik: { in: ciks } },
      orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      select: { id: true, cik: true, accessionNumber: true, filedAt: true, orderedAt: true, sourceKey: true, data: true },
    }),
  ]);
  const fromEightK = events.flatMap((e) => {
    const data = e.data as { changes?: { change: string; person: string; position: string | null; effectiveDate: string | null }[]; excerpt?: string };
    return (data.changes ?? []).map((c, i) => ({
      orderedAt: e.orderedAt.getTime(),
      row: {
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
        sourceDocument: null,
        excerpt: data.excerpt ?? null,
        sourceSpan: null,
        confidence: e.confidence,
      } satisfies BoardMemberEvent,
    }));
  });
  const fromProxies = proxies.flatMap((r) => {
    const nominees = (r.data as { directorNominees?: StoredNominees }).directorNominees;
    return (nominees?.nominees ?? []).map((n, i) => ({
      orderedAt: r.orderedAt.getTime(),
      row: {
        id: `${r.id}:nominee:${i}`,
        cik: r.cik,
        person: n.name,
        role: 'director nominee',
        event: 'nominated' as const,
        effectiveDate: null,
        eventDate: isoDay(r.filedAt),
        filedAt: isoDay(r.filedAt),
        source: 'DEF 14A' as const,
        accessionNumber: r.accessionNumber,
        citationUrl: r.accessionNumber && r.cik ? buildCitationUrl(r.cik, r.accessionNumber) : null,
        sourceDocument: r.sourceKey,
        excerpt: nominees?.sentence ?? null,
        sourceSpan: n.sourceSpan,
        confidence: n.confidence,
      } satisfies BoardMemberEvent,
    }));
  });
  // newest first across both sources (stable: each source keeps its own order on ties)
  const rows: BoardMemberEvent[] = [...fromEightK, ...fromProxies].sort((a, b) => b.orderedAt - a.orderedAt).map((r) => r.row);
  const nodes = rows.slice(offset, offset + page.first);
  const hasMore = offset + page.first < rows.length;
  return { nodes, hasMore, nextCursor: hasMore ? offsetCursor('board', offset + page.first) : null };
}
