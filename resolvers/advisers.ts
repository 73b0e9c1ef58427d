// The advisers family: investment advisers and managers as the filings name them (see
// adviserDirectory.ts for how mentions become one adviser), with the funds they advise per N-CEN
// and their Form 13F holdings summarised per quarter. Every value cites the filing it was read
// from, or says why it is null.
import type { Form13fHolding } from '../ingest/parsers/ownership/form13f.ts';
import { ApiError } from '../core/errors.ts';
import { isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import { adviserDirectory, type AdviserEntry, type AdviserMention, type AdviserRole, cikKey, crdKey, type FilingRef, type FundAdvised, type Light13f } from './adviserDirectory.ts';
import { citeRecords, type Cited, holdingsOfPeriod, holdingsNullReason, type Page, slicePage } from './ownership.ts';

/** A directory row as shown: with its filing's SEC URL (or why there is none). */
export type CitedRow<T extends FilingRef> = Omit<T, 'filingCik'> & Cited;

/** Cites directory rows in one batch: rows are cited when shown, not when the directory is built. */
async function citeRows<T extends FilingRef>(reader: DataReader, rows: T[]): Promise<CitedRow<T>[]> {
  const cited = await citeRecords(reader, rows.map((r) => ({ cik: r.filingCik, accessionNumber: r.accessionNumber })));
  return rows.map(({ filingCik: _filingCik, ...row }, i) => ({ ...row, ...cited[i]! }));
}

/** The SEC URLs of 13F records, by record id. */
async function citeFilings(reader: DataReader, records: Light13f[]): Promise<Map<string, Cited>> {
  const cited = await citeRecords(reader, records);
  return new Map(records.map((r, i) => [r.id, cited[i]!]));
}

export interface ThirteenFQuarter extends Cited {
  period: string | null;
  formType: string;
  filedAt: string | null;
  filings: (Cited & { formType: string; filedAt: string | null; amendmentType: string | null; role: string })[];
  positionsCount: number | null;
  totalValueUsd: number | null;
  totalValueNullReason: string | null;
  tableEntryTotal: number | null;
  tableValueTotalUsd: number | null;
  valueUnit: string | null;
  valueReportedInThousands: boolean | null;
  valueUnitReason: string | null;
}

export interface TopHolding extends Cited {
  issuerName: string | null;
  classTitle: string | null;
  cusip: string | null;
  putCall: string | null;
  valueUsd: number | null;
  percentOfTotal: number | null;
  sharesOrPrincipalAmount: number | null;
  sharesOrPrincipalType: string | null;
  rows: number;
  sourceFields: string[];
}

export interface AdviserSummary {
  id: string | null;
  profilePath: string | null;
  profilePathNullReason: string | null;
  cik: string | null;
  cikNullReason: string | null;
  name: string | null;
  otherNames: string[];
  crd: string | null;
  crdNullReason: string | null;
  secFileNumber: string | null;
  secFileNumberNullReason: string | null;
  form13FFileNumber: string | null;
  lei: string | null;
  leiNullReason: string | null;
  roles: AdviserRole[];
  /** the newest filing naming the adviser, where its name and identifiers were read */
  source: CitedRow<AdviserMention>;
  filingsNamingCount: number;
  fundsAdvisedCount: number;
  fundsSubAdvisedCount: number;
  latest13f: ThirteenFQuarter | null;
  latest13fNullReason: string | null;
}

export interface AdviserProfile extends AdviserSummary {
  mentions: CitedRow<AdviserMention>[];
  fundsAdvised: CitedRow<FundAdvised>[];
  quarters: (ThirteenFQuarter & { topHoldings: TopHolding[] })[];
  quartersNullReason: string | null;
  periodsAvailable: string[];
}

/* reasons ------------------------------------------------------------------------------------ */

const namesFrom13f = (e: AdviserEntry) => e.roles.some((r) => r.startsWith('13f'));
const namesFromNcen = (e: AdviserEntry) => e.roles.some((r) => r === 'investment_adviser' || r === 'sub_adviser');

function cikNullReason(e: AdviserEntry): string | null {
  if (e.cik) return null;
  return namesFromNcen(e)
    ? 'N-CEN names advisers by SEC file number, CRD and LEI, never by CIK, and no Form 13F held (as filing manager or other manager) shares one of those identifiers with this adviser.'
    : 'The Form 13F that names this manager lists it without a CIK.';
}

function crdNullReason(e: AdviserEntry): string | null {
  if (e.crd) return null;
  return namesFromNcen(e) ? 'The N-CEN items naming this adviser leave its CRD number blank (N/A).' : 'None of the Form 13F reports naming this manager states its CRD number (an optional cover page item).';
}

function secFileNumberNullReason(e: AdviserEntry): string | null {
  if (e.secFileNumber) return null;
  return namesFromNcen(e) ? 'The N-CEN items naming this adviser leave its SEC file number blank (N/A).' : 'None of the Form 13F reports naming this manager states its SEC (801-) file number (an optional cover page item); see form13FFileNumber.';
}

function leiNullReason(e: AdviserEntry): string | null {
  if (e.lei) return null;
  return namesFromNcen(e) ? 'The N-CEN items naming this adviser leave its LEI blank (N/A).' : 'Form 13F does not ask for an LEI; only N-CEN names advisers with one, and no N-CEN held names this manager.';
}

function profilePathOf(e: AdviserEntry): { profilePath: string | null; profilePathNullReason: string | null } {
  if (e.cik) return { profilePath: `/v1/advisers/${e.cik}`, profilePathNullReason: null };
  const crd = crdKey(e.crd);
  if (crd) return { profilePath: `/v1/advisers/crd/${crd}`, profilePathNullReason: null };
  return { profilePath: null, profilePathNullReason: 'The filings name this adviser without a CIK or CRD number, so it has no profile of its own; this row carries what they state.' };
}

/* 13F quarters ------------------------------------------------------------------------------- */

/** The adviser's quarters, newest first, each with the 13F records filed for it. */
function quartersOf(e: AdviserEntry): [string | null, Light13f[]][] {
  const byPeriod = new Map<string | null, Light13f[]>();
  for (const r of e.filings13f) {
    const period = isoDay(r.periodOfReport);
    byPeriod.set(period, [...(byPeriod.get(period) ?? []), r]);
  }
  return [...byPeriod.entries()];
}

/** An information table's row count, dollar sum and rows without a value. */
interface TableTotals {
  rows: number;
  valueUsd: number;
  missing: number;
}

/** The totals of 13F information tables, summed in the database (only the quarters shown are summed, each once until the next ingest). */
async function tableTotals(reader: DataReader, ids: string[]): Promise<Map<string, TableTotals>> {
  const totals = await reader.cache.data.memoEach(
    ids.map((id) => `13f-table-totals:${id}`),
    async (missing) => {
      const rows = await reader.prisma.$queryRaw<({ id: string } & TableTotals)[]>`
        SELECT "id", jsonb_array_length("data"->'holdings')::int AS "rows",
          coalesce((SELECT sum((h->>'valueUsd')::numeric) FROM jsonb_array_elements("data"->'holdings') h), 0)::float8 AS "valueUsd",
          (SELECT count(*) FROM jsonb_array_elements("data"->'holdings') h WHERE jsonb_typeof(h->'valueUsd') IS DISTINCT FROM 'number')::int AS "missing"
        FROM "FormRecord"
        WHERE "id" = ANY(${missing.map((key) => key.slice('13f-table-totals:'.length))}::text[]) AND jsonb_typeof("data"->'holdings') = 'array'`;
      return new Map(rows.map(({ id, ...t }) => [`13f-table-totals:${id}`, t]));
    },
    { rows: 0, valueUsd: 0, missing: 0 },
  );
  return new Map(ids.map((id) => [id, totals.get(`13f-table-totals:${id}`)!]));
}

function quarterOf(period: string | null, records: Light13f[], totals: Map<string, TableTotals>, cited: Map<string, Cited>): ThirteenFQuarter {
  const { used, others } = holdingsOfPeriod(records);
  const base = used[0]?.record ?? null;
  const shown = base ?? others[others.length - 1]!.record;
  const sums = used.map(({ record }) => totals.get(record.id)!);
  const positionsCount = used.length ? sums.reduce((n, t) => n + t.rows, 0) : null;
  const missing = sums.reduce((n, t) => n + t.missing, 0);
  const totalValueUsd = used.length && !missing ? sums.reduce((sum, t) => sum + t.valueUsd, 0) : null;
  return {
    period,
    ...cited.get(shown.id)!,
    formType: shown.formType,
    filedAt: isoDay(shown.filedAt),
    filings: [...used, ...others].map(({ record, role }) => ({ ...cited.get(record.id)!, formType: record.formType, filedAt: isoDay(record.filedAt), amendmentType: record.data.amendmentType ?? null, role })),
    positionsCount,
    totalValueUsd,
    totalValueNullReason: totalValueUsd !== null ? null : !base ? holdingsNullReason(shown as never) : `${missing} information table rows carry no value, so their sum is not the quarter's total.`,
    tableEntryTotal: used.length === 1 ? (base?.data.summary?.tableEntryTotal ?? null) : null,
    tableValueTotalUsd: used.length === 1 ? (base?.data.summary?.tableValueTotalUsd ?? null) : null,
    valueUnit: base?.data.valueUnit ?? null,
    valueReportedInThousands: base?.data.valueUnit ? base.data.valueUnit === 'thousands' : null,
    valueUnitReason: base?.data.valueUnitReason ?? null,
  };
}

function latest13fNullReason(e: AdviserEntry, latest: ThirteenFQuarter | null): string | null {
  if (latest) return latest.totalValueUsd === null ? latest.totalValueNullReason : null;
  if (!e.cik) return 'A Form 13F is filed under its manager\'s CIK, and no held filing gives this adviser one (see cikNullReason).';
  return namesFrom13f(e) ? 'This manager is named on another manager\'s Form 13F; no Form 13F it filed itself is held.' : 'No Form 13F filed by this adviser is held.';
}

/* summaries ---------------------------------------------------------------------------------- */

/** The filings whose information tables make the quarters' holdings. */
const usedIds = (quarters: [string | null, Light13f[]][]) => quarters.flatMap(([, records]) => holdingsOfPeriod(records).used.map(({ record }) => record.id));

/** The list rows of advisers, their latest quarters' tables summed in one read. */
async function summariesOf(reader: DataReader, entries: AdviserEntry[]): Promise<AdviserSummary[]> {
  const latest = entries.map((e) => quartersOf(e).slice(0, 1));
  const [totals, cited, sources] = await Promise.all([tableTotals(reader, latest.flatMap(usedIds)), citeFilings(reader, latest.flatMap((q) => q.flatMap(([, records]) => records))), citeRows(reader, entries.map((e) => e.mentions[0]!))]);
  return entries.map((e, i) => summaryOf(e, sources[i]!, latest[i]![0] ? quarterOf(latest[i]![0][0], latest[i]![0][1], totals, cited) : null));
}

function summaryOf(e: AdviserEntry, source: CitedRow<AdviserMention>, latest: ThirteenFQuarter | null): AdviserSummary {
  return {
    id: e.id,
    ...profilePathOf(e),
    cik: e.cik,
    cikNullReason: cikNullReason(e),
    name: e.name,
    otherNames: e.otherNames,
    crd: e.crd,
    crdNullReason: crdNullReason(e),
    secFileNumber: e.secFileNumber,
    secFileNumberNullReason: secFileNumberNullReason(e),
    form13FFileNumber: e.form13FFileNumber,
    lei: e.lei,
    leiNullReason: leiNullReason(e),
    roles: e.roles,
    source,
    filingsNamingCount: new Set(e.mentions.map((m) => m.accessionNumber ?? m.sourceSection)).size,
    fundsAdvisedCount: e.funds.filter((f) => f.role === 'investment_adviser').length,
    fundsSubAdvisedCount: e.funds.filter((f) => f.role === 'sub_adviser').length,
    latest13f: latest,
    latest13fNullReason: latest13fNullReason(e, latest),
  };
}

export async function advisers(
  reader: DataReader,
  args: { q?: string | null; has13f?: boolean | null; role?: string | null; crd?: string | null; secFileNumber?: string | null; lei?: string | null; first?: number | null; after?: string | null },
): Promise<Page<AdviserSummary>> {
  let entries = await adviserDirectory(reader);
  if (args.q) {
    const words = args.q.toLowerCase().split(/\s+/).filter(Boolean);
    entries = entries.filter((e) => {
      const text = [e.name, ...e.otherNames].join(' ').toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }
  if (args.has13f != null) entries = entries.filter((e) => (e.filings13f.length > 0) === args.has13f);
  if (args.role) entries = entries.filter((e) => e.roles.includes(args.role as AdviserRole));
  if (args.crd) entries = entries.filter((e) => e.mentions.some((m) => crdKey(m.crd) === crdKey(args.crd)));
  if (args.secFileNumber) entries = entries.filter((e) => e.mentions.some((m) => m.secFileNumber?.toUpperCase() === args.secFileNumber!.toUpperCase() || m.form13FFileNumber?.toUpperCase() === args.secFileNumber!.toUpperCase()));
  if (args.lei) entries = entries.filter((e) => e.mentions.some((m) => m.lei?.toUpperCase() === args.lei!.toUpperCase()));
  const page = slicePage('advisers', entries, args.first, args.after);
  return { ...page, nodes: await summariesOf(reader, page.nodes) };
}

/* profile ------------------------------------------------------------------------------------ */

type HoldingValues = Pick<Form13fHolding, 'issuerName' | 'classTitle' | 'cusip' | 'putCall' | 'valueUsd' | 'sharesOrPrincipalAmount' | 'sharesOrPrincipalType'>;

/** The information tables of the filings making the quarters shown, only their rows' values. */
async function holdingsOf(reader: DataReader, ids: string[]): Promise<Map<string, HoldingValues[]>> {
  if (!ids.length) return new Map();
  const rows = await reader.prisma.$queryRaw<{ id: string; holdings: HoldingValues[] | null }[]>`
    SELECT "id", "data"->'holdings' AS "holdings" FROM "FormRecord" WHERE "id" = ANY(${ids}::text[])`;
  return new Map(rows.map((r) => [r.id, r.holdings ?? []]));
}

/** The largest positions: a security's rows of one filing (split by discretion or other manager) are one position. */
function topHoldingsOf(used: { record: Light13f }[], tables: Map<string, HoldingValues[]>, cited: Map<string, Cited>, total: number | null, top: number): TopHolding[] {
  const positions = new Map<string, TopHolding>();
  for (const { record } of used) {
    (tables.get(record.id) ?? []).forEach((h, i) => {
      const key = `${record.id}|${h.cusip ?? h.issuerName}|${h.putCall ?? ''}`;
      const held = positions.get(key);
      const sourceField = `informationTable/infoTable[${i + 1}]`;
      if (!held) {
        positions.set(key, { ...cited.get(record.id)!, issuerName: h.issuerName, classTitle: h.classTitle, cusip: h.cusip, putCall: h.putCall, valueUsd: h.valueUsd, percentOfTotal: null, sharesOrPrincipalAmount: h.sharesOrPrincipalAmount, sharesOrPrincipalType: h.sharesOrPrincipalType, rows: 1, sourceFields: [sourceField] });
        return;
      }
      held.valueUsd = held.valueUsd === null || h.valueUsd === null ? null : held.valueUsd + h.valueUsd;
      held.sharesOrPrincipalAmount = held.sharesOrPrincipalAmount === null || h.sharesOrPrincipalAmount === null || held.sharesOrPrincipalType !== h.sharesOrPrincipalType ? null : held.sharesOrPrincipalAmount + h.sharesOrPrincipalAmount;
      held.rows += 1;
      held.sourceFields.push(sourceField);
    });
  }
  return [...positions.values()]
    .sort((a, b) => (b.valueUsd ?? -1) - (a.valueUsd ?? -1) || (a.issuerName ?? '').localeCompare(b.issuerName ?? ''))
    .slice(0, top)
    .map((p) => ({ ...p, percentOfTotal: total && p.valueUsd !== null ? Math.round((p.valueUsd / total) * 10_000) / 100 : null }));
}

/** The adviser a CIK or CRD names; 404 adviser_not_found when no held filing names one. */
async function entryFor(reader: DataReader, args: { cik?: string | null; crd?: string | null }): Promise<AdviserEntry> {
  const entries = await adviserDirectory(reader);
  const cik = cikKey(args.cik);
  const crd = crdKey(args.crd);
  const entry = cik ? entries.find((e) => e.cik === cik) : crd ? entries.find((e) => e.mentions.some((m) => crdKey(m.crd) === crd)) : undefined;
  if (!entry) {
    const parameter = args.cik ? 'cik' : 'crd';
    throw new ApiError('adviser_not_found', `No held Form 13F or N-CEN names an investment adviser or manager with ${parameter.toUpperCase()} ${args.cik ?? args.crd}.`, { details: { parameter } });
  }
  return entry;
}

export async function adviser(reader: DataReader, args: { cik?: string | null; crd?: string | null; periods?: number | null; top?: number | null }): Promise<AdviserProfile> {
  const entry = await entryFor(reader, args);
  const all = quartersOf(entry);
  const shown = all.slice(0, Math.min(Math.max(args.periods ?? 4, 1), 40));
  const top = Math.min(Math.max(args.top ?? 10, 0), 50);
  const ids = usedIds(shown);
  const [totals, tables, cited, mentions, fundsAdvised] = await Promise.all([
    tableTotals(reader, ids),
    top ? holdingsOf(reader, ids) : new Map<string, HoldingValues[]>(),
    citeFilings(reader, shown.flatMap(([, records]) => records)),
    citeRows(reader, entry.mentions),
    citeRows(reader, entry.funds),
  ]);
  const plans = shown.map(([period, records]) => ({ quarter: quarterOf(period, records, totals, cited), used: holdingsOfPeriod(records).used }));
  const summary = summaryOf(entry, mentions[0]!, plans[0]?.quarter ?? null);
  return {
    ...summary,
    mentions,
    fundsAdvised,
    quarters: plans.map(({ quarter, used }) => ({ ...quarter, topHoldings: topHoldingsOf(used, tables, cited, quarter.totalValueUsd, top) })),
    quartersNullReason: all.length ? null : summary.latest13fNullReason,
    periodsAvailable: all.map(([period]) => period).filter((p): p is string => p !== null),
  };
}
