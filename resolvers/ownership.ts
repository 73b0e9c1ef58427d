// The ownership family: a manager's Form 13F reports and holdings, and an issuer's Schedule 13D/G
// beneficial owners, read from the FormRecord rows the ingest stores (families 13F and 13DG; the
// `data` JSON is the parsers' Form13fData and Schedule13Data). Every row cites its filing.
import type { Form13fData, Form13fHolding } from '../ingest/parsers/ownership/form13f.ts';
import type { Schedule13Data, Schedule13ReportingPerson } from '../ingest/parsers/ownership/schedule13.ts';
import { ApiError } from '../core/errors.ts';
import { cursorOffset, offsetCursor } from '../core/cursor.ts';
import { citationKey, documentCitations, isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import { ciksFor } from './entities.ts';

/* pages ------------------------------------------------------------------------------------ */

export const pageSize = (first: number | null | undefined) => Math.min(Math.max(first ?? 25, 1), 100);

export interface Page<T> {
  nodes: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export function slicePage<T>(kind: string, all: T[], first: number | null | undefined, after: string | null | undefined): Page<T> {
  const offset = cursorOffset(kind, after);
  const size = pageSize(first);
  const nodes = all.slice(offset, offset + size);
  const hasMore = offset + size < all.length;
  return { nodes, hasMore, nextCursor: hasMore ? offsetCursor(kind, offset + size) : null };
}

/* citations -------------------------------------------------------------------------------- */

export const noAccessionReason = 'The ingested document carries no accession number (a standalone XML document without its EDGAR submission), so no SEC URL can be built for it.';

export interface Cited {
  accessionNumber: string | null;
  citationUrl: string | null;
  citationNullReason: string | null;
}

/** The SEC URLs of records (cik + accession), in one batch; null with the reason when a record carries no accession. */
export async function citeRecords(reader: DataReader, records: { cik: string | null; accessionNumber: string | null }[]): Promise<Cited[]> {
  const citable = records.filter((r) => r.cik && r.accessionNumber);
  const urls = await documentCitations(reader, citable.map((r) => citationKey(r.cik!, r.accessionNumber!)));
  const byAccession = new Map(citable.map((r, i) => [r.accessionNumber!, urls[i]!]));
  return records.map((r) => {
    const url = r.accessionNumber ? (byAccession.get(r.accessionNumber) ?? null) : null;
    return { accessionNumber: r.accessionNumber, citationUrl: url, citationNullReason: url ? null : noAccessionReason };
  });
}

/* identifiers ------------------------------------------------------------------------------ */

/** The CIK a `cik` parameter names, as a known entity; 404 entity_not_found otherwise. */
export async function knownCik(reader: DataReader, cik: string, parameter = 'cik'): Promise<string> {
  const ciks = await ciksFor(reader, { cik });
  if (!ciks?.length) throw new ApiError('entity_not_found', `No entity with CIK ${cik} is known.`, { details: { parameter } });
  return ciks[0]!;
}

/** Every CIK a ticker or CIK names (one of them is required); 404 entity_not_found for an unknown one. */
export async function companyCiks(reader: DataReader, args: { ticker?: string | null; cik?: string | null }): Promise<string[]> {
  if (!args.ticker && !args.cik) throw new ApiError('invalid_query_parameter', 'Name the company with ticker or cik.', { details: { parameter: 'ticker', acceptedValues: ['ticker', 'cik'] } });
  const ciks = await ciksFor(reader, args);
  if (!ciks?.length) throw new ApiError('entity_not_found', `No entity with ${args.ticker ? `ticker ${args.ticker}` : `CIK ${args.cik}`} is known.`, { details: { parameter: args.ticker ? 'ticker' : 'cik' } });
  return ciks;
}

/* 13F -------------------------------------------------------------------------------------- */

export const valueUnitRule =
  'Form 13F reported values in thousands of dollars until the SEC\'s 2022 amendments; filings made on or after 2023-01-03 report whole dollars. The unit belongs to the filing, not the period: a late filing for an older quarter made after 2023-01-03 is in dollars. ' +
  'The filing date gives the expected unit, and the rows\' own prices override it when they clearly disagree (value ÷ shares under $1 for most rows read as dollars means thousands; a median above $10 means dollars). `valueUsd` is the reported value × 1000 for a thousands filing (an exact decimal shift), as reported for a dollars filing.';

export const amendmentRule =
  'The holdings of a period are those of the manager\'s latest 13F-HR for it that is an original report or an amendment of type RESTATEMENT (a restatement replaces the whole table); each later 13F-HR/A of type NEW HOLDINGS adds its rows. A 13F-NT notice reports no holdings (other managers report them).';

interface Record13f {
  id: string;
  accessionNumber: string | null;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  periodOfReport: Date | null;
  data: Form13fData;
}

export interface ThirteenFFiling extends Cited {
  id: string;
  formType: string;
  managerCik: string | null;
  managerName: string | null;
  periodOfReport: string | null;
  filedAt: string | null;
  reportType: string | null;
  isAmendment: boolean;
  amendmentNumber: number | null;
  amendmentType: string | null;
  holdingsCount: number | null;
  holdingsNullReason: string | null;
  tableEntryTotal: number | null;
  totalValueUsd: number | null;
  totalValueAsReported: number | null;
  valueUnit: string | null;
  valueReportedInThousands: boolean | null;
  valueUnitReason: string | null;
  otherManagers: unknown;
  signedAt: string | null;
}

export function holdingsNullReason(r: Pick<Record13f, 'formType'> & { data: Pick<Form13fData, 'reportType'> & { holdings: unknown[] | null } }): string | null {
  if (r.data.holdings) return null;
  if (/NOTICE/i.test(r.data.reportType ?? '') || /13F-NT/i.test(r.formType)) return 'A 13F notice report lists no holdings: the other managers named in otherManagers report them.';
  return 'Only the primary document of this filing was ingested; its information table is not held.';
}

function filingOf(r: Record13f, cited: Cited): ThirteenFFiling {
  const d = r.data;
  return {
    id: r.id,
    ...cited,
    formType: r.formType,
    managerCik: d.manager?.cik ?? r.cik,
    managerName: d.manager?.name ?? null,
    periodOfReport: d.reportPeriod ?? isoDay(r.periodOfReport),
    filedAt: isoDay(r.filedAt),
    reportType: d.reportType ?? null,
    isAmendment: Boolean(d.isAmendment) || /\/A$/.test(r.formType),
    amendmentNumber: d.amendmentNumber ?? null,
    amendmentType: d.amendmentType ?? null,
    holdingsCount: d.holdings ? d.holdings.length : null,
    holdingsNullReason: holdingsNullReason(r),
    tableEntryTotal: d.summary?.tableEntryTotal ?? null,
    totalValueUsd: d.summary?.tableValueTotalUsd ?? null,
    totalValueAsReported: d.summary?.tableValueTotal ?? null,
    valueUnit: d.valueUnit ?? null,
    valueReportedInThousands: d.valueUnit ? d.valueUnit === 'thousands' : null,
    valueUnitReason: d.valueUnitReason ?? null,
    otherManagers: [...(d.otherReportingManagers ?? []).map((m) => ({ ...m, list: 'other_reporting_manager' })), ...(d.includedManagers ?? []).map((m) => ({ ...m, list: 'included_manager' }))],
    signedAt: d.signature?.date ?? null,
  };
}

const select13f = { id: true, accessionNumber: true, formType: true, cik: true, filedAt: true, periodOfReport: true, data: true } as const;

export async function thirteenFFilings(
  reader: DataReader,
  args: { managerCik: string; filedFrom?: string | null; filedTo?: string | null; first?: number | null; after?: string | null },
): Promise<Page<ThirteenFFiling> & { managerCik: string }> {
  const cik = await knownCik(reader, args.managerCik, 'manager_cik');
  const offset = cursorOffset('13f-filings', args.after);
  const size = pageSize(args.first);
  const range = args.filedFrom || args.filedTo ? { orderedAt: { ...(args.filedFrom ? { gte: new Date(args.filedFrom) } : {}), ...(args.filedTo ? { lte: new Date(args.filedTo) } : {}) } } : {};
  const rows = (await reader.prisma.formRecord.findMany({
    where: { family: '13F', cik, isSample: false, ...range },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    skip: offset,
    take: size + 1,
    select: select13f,
  })) as unknown as Record13f[];
  const page = rows.slice(0, size);
  const cited = await citeRecords(reader, page);
  const hasMore = rows.length > size;
  return { managerCik: cik, nodes: page.map((r, i) => filingOf(r, cited[i]!)), hasMore, nextCursor: hasMore ? offsetCursor('13f-filings', offset + size) : null };
}

export interface ThirteenFHolding extends Cited {
  id: string;
  position: number;
  sourceField: string;
  formType: string;
  filedAt: string | null;
  period: string | null;
  issuerName: string | null;
  classTitle: string | null;
  cusip: string | null;
  figi: string | null;
  valueUsd: number | null;
  valueAsReported: number | null;
  valueReportedInThousands: boolean | null;
  sharesOrPrincipalAmount: number | null;
  sharesOrPrincipalType: string | null;
  putCall: string | null;
  investmentDiscretion: string | null;
  otherManagers: string | null;
  votingSole: number | null;
  votingShared: number | null;
  votingNone: number | null;
}

export interface ThirteenFReport {
  managerCik: string;
  managerName: string | null;
  period: string | null;
  filings: (Cited & { formType: string; filedAt: string | null; amendmentType: string | null; role: string })[];
  holdingsCount: number;
  totalValueUsd: number | null;
  tableValueTotalUsd: number | null;
  valueUnit: string | null;
  valueReportedInThousands: boolean | null;
  valueUnitReason: string | null;
  holdingsNullReason: string | null;
  periodsAvailable: string[];
}

/** What the amendment rule reads of a 13F record: `data.holdings` null means no information table is held. */
export type PeriodRecord = Pick<Record13f, 'id' | 'formType' | 'filedAt'> & { data: Pick<Form13fData, 'isAmendment' | 'amendmentNumber' | 'amendmentType'> & { holdings: unknown[] | null } };

/** The filings whose rows make a period's holdings, by the amendment rule, and what each did. */
export function holdingsOfPeriod<R extends PeriodRecord>(records: R[]): { used: { record: R; role: string }[]; others: { record: R; role: string }[] } {
  const ordered = [...records].sort((a, b) => (isoDay(a.filedAt) ?? '').localeCompare(isoDay(b.filedAt) ?? '') || (a.data.amendmentNumber ?? 0) - (b.data.amendmentNumber ?? 0) || a.id.localeCompare(b.id));
  const replaces = (r: R) => r.data.holdings !== null && (!(r.data.isAmendment || /\/A$/.test(r.formType)) || /RESTATEMENT/i.test(r.data.amendmentType ?? ''));
  let baseIndex = -1;
  ordered.forEach((r, i) => {
    if (replaces(r)) baseIndex = i;
  });
  const used: { record: R; role: string }[] = [];
  const others: { record: R; role: string }[] = [];
  ordered.forEach((r, i) => {
    if (i === baseIndex) used.push({ record: r, role: r.data.isAmendment ? 'restatement' : 'original' });
    else if (i > baseIndex && r.data.holdings && /NEW HOLDINGS/i.test(r.data.amendmentType ?? '')) used.push({ record: r, role: 'new_holdings_amendment' });
    else others.push({ record: r, role: r.data.holdings ? 'superseded' : 'notice_or_cover_only' });
  });
  return { used, others };
}

export async function thirteenFHoldings(
  reader: DataReader,
  args: { managerCik: string; period?: string | null; cusip?: string | null; first?: number | null; after?: string | null },
): Promise<Page<ThirteenFHolding> & { report: ThirteenFReport }> {
  const cik = await knownCik(reader, args.managerCik, 'manager_cik');
  const periods = await reader.prisma.formRecord.findMany({ where: { family: '13F', cik, isSample: false, periodOfReport: { not: null } }, select: { periodOfReport: true }, distinct: ['periodOfReport'], orderBy: { periodOfReport: 'desc' } });
  const periodsAvailable = periods.map((p) => isoDay(p.periodOfReport)!);
  const period = args.period ?? periodsAvailable[0] ?? null;
  const records = period
    ? ((await reader.prisma.formRecord.findMany({ where: { family: '13F', cik, isSample: false, periodOfReport: new Date(period) }, select: select13f })) as unknown as Record13f[])
    : [];
  const { used, others } = holdingsOfPeriod(records);
  const all = [...used, ...others];
  const cited = await citeRecords(reader, all.map((u) => u.record));
  const citedOf = new Map(all.map((u, i) => [u.record.id, cited[i]!]));
  const manager = await reader.prisma.entity.findUnique({ where: { cik }, select: { name: true } });

  const rows: ThirteenFHolding[] = used.flatMap(({ record }) =>
    (record.data.holdings ?? []).map((h: Form13fHolding, i) => ({
      id: `${record.id}#${i + 1}`,
      ...citedOf.get(record.id)!,
      position: i + 1,
      sourceField: `informationTable/infoTable[${i + 1}]`,
      formType: record.formType,
      filedAt: isoDay(record.filedAt),
      period,
      issuerName: h.issuerName,
      classTitle: h.classTitle,
      cusip: h.cusip,
      figi: h.figi,
      valueUsd: h.valueUsd,
      valueAsReported: h.value,
      valueReportedInThousands: record.data.valueUnit ? record.data.valueUnit === 'thousands' : null,
      sharesOrPrincipalAmount: h.sharesOrPrincipalAmount,
      sharesOrPrincipalType: h.sharesOrPrincipalType,
      putCall: h.putCall,
      investmentDiscretion: h.investmentDiscretion,
      otherManagers: h.otherManagers,
      votingSole: h.votingSole,
      votingShared: h.votingShared,
      votingNone: h.votingNone,
    })),
  );
  const filtered = args.cusip ? rows.filter((h) => h.cusip?.toUpperCase() === args.cusip!.toUpperCase()) : rows;
  const base = used[0]?.record ?? null;
  const values = rows.map((h) => h.valueUsd);
  const report: ThirteenFReport = {
    managerCik: cik,
    managerName: base?.data.manager?.name ?? manager?.name ?? null,
    period,
    filings: all.map(({ record, role }) => ({ ...citedOf.get(record.id)!, formType: record.formType, filedAt: isoDay(record.filedAt), amendmentType: record.data.amendmentType ?? null, role })),
    holdingsCount: rows.length,
    totalValueUsd: values.length && values.every((v) => v !== null) ? values.reduce<number>((sum, v) => sum + v!, 0) : null,
    tableValueTotalUsd: used.length === 1 ? (base?.data.summary?.tableValueTotalUsd ?? null) : null,
    valueUnit: base?.data.valueUnit ?? null,
    valueReportedInThousands: base?.data.valueUnit ? base.data.valueUnit === 'thousands' : null,
    valueUnitReason: base?.data.valueUnitReason ?? null,
    holdingsNullReason: base
      ? null
      : !period
        ? 'No Form 13F of this manager is held.'
        : records.length === 0
          ? `No Form 13F of this manager for the period ${period} is held.`
          : holdingsNullReason(records[0]!),
    periodsAvailable,
  };
  return { ...slicePage('13f-holdings', filtered, args.first, args.after), report };
}

/* Schedules 13D/G -------------------------------------------------------------------------- */

export const supersessionRule =
  'A reporting person\'s latest Schedule 13D or 13G statement about an issuer (by event date, then filing date, then amendment number) is their current position: every amendment (13D/A, 13G/A) restates the whole cover page, so it supersedes that person\'s earlier statements, and a 13D filed after a 13G replaces it (the holder is no longer passive). Earlier statements are listed newest first in `amendments`.';

interface Record13dg {
  id: string;
  accessionNumber: string | null;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  data: Schedule13Data;
}

export interface Statement extends Cited {
  formType: string;
  schedule: string;
  isAmendment: boolean;
  amendmentNumber: number | null;
  eventDate: string | null;
  filedAt: string | null;
  percentOfClass: number | null;
  aggregateAmountOwned: number | null;
}

export interface BeneficialOwner extends Statement {
  id: string;
  ownerName: string;
  ownerCik: string | null;
  issuerCik: string | null;
  issuerName: string;
  issuerCusip: string | null;
  securitiesClass: string | null;
  sourceField: string;
  soleVotingPower: number | null;
  sharedVotingPower: number | null;
  soleDispositivePower: number | null;
  sharedDispositivePower: number | null;
  aggregateExcludesCertainShares: boolean | null;
  memberOfGroup: string | null;
  citizenshipOrOrganization: string | null;
  typeOfReportingPerson: string[];
  sourceOfFunds: string[];
  comment: string | null;
  purpose: string | null;
  purposeNullReason: string | null;
  item4: unknown;
  rulesDesignated: string[];
  filerCik: string | null;
  coReportingPersons: string[];
  amendments: Statement[];
}

const ownerKey = (p: Schedule13ReportingPerson) => (p.cik ? `cik:${p.cik}` : `name:${p.name.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()}`);

export async function beneficialOwners(
  reader: DataReader,
  args: { ticker?: string | null; cik?: string | null; schedule?: string | null; first?: number | null; after?: string | null },
): Promise<Page<BeneficialOwner> & { issuerCik: string }> {
  const ciks = await companyCiks(reader, args);
  const records = (await reader.prisma.formRecord.findMany({
    where: { family: '13DG', cik: { in: ciks }, isSample: false },
    select: { id: true, accessionNumber: true, formType: true, cik: true, filedAt: true, data: true },
  })) as unknown as Record13dg[];
  const cited = await citeRecords(reader, records);
  const positions = new Map<string, BeneficialOwner[]>();
  records.forEach((r, ri) => {
    const d = r.data;
    d.reportingPersons.forEach((p, pi) => {
      const statement: BeneficialOwner = {
        id: `${r.id}#${pi + 1}`,
        ...cited[ri]!,
        formType: r.formType,
        schedule: d.schedule,
        isAmendment: d.isAmendment,
        amendmentNumber: d.amendmentNumber,
        eventDate: d.eventDate,
        filedAt: isoDay(r.filedAt),
        percentOfClass: p.percentOfClass,
        aggregateAmountOwned: p.aggregateAmountOwned,
        ownerName: p.name,
        ownerCik: p.cik,
        issuerCik: d.issuer.cik ?? r.cik,
        issuerName: d.issuer.name,
        issuerCusip: d.issuer.cusip,
        securitiesClass: d.securitiesClass,
        sourceField: `cover page, reporting person ${pi + 1} of ${d.reportingPersons.length} (${d.schedule === '13D' ? 'rows 7–11 and 13' : 'rows 5–9 and 11'})`,
        soleVotingPower: p.soleVotingPower,
        sharedVotingPower: p.sharedVotingPower,
        soleDispositivePower: p.soleDispositivePower,
        sharedDispositivePower: p.sharedDispositivePower,
        aggregateExcludesCertainShares: p.aggregateExcludesCertainShares,
        memberOfGroup: p.memberOfGroup,
        citizenshipOrOrganization: p.citizenshipOrOrganization,
        typeOfReportingPerson: p.typeOfReportingPerson,
        sourceOfFunds: p.sourceOfFunds,
        comment: p.comment,
        purpose: d.schedule === '13D' ? d.purposeOfTransaction : null,
        purposeNullReason:
          d.schedule === '13G'
            ? 'Schedule 13G has no purpose item: its filer certifies (Item 10) that the securities are not held to change or influence control of the issuer.'
            : d.purposeOfTransaction
              ? null
              : 'The 13D states no Item 4 text.',
        item4: d.schedule === '13G' ? d.ownershipItem : null,
        rulesDesignated: d.rulesDesignated,
        filerCik: d.filerCik,
        coReportingPersons: d.reportingPersons.filter((_, i) => i !== pi).map((o) => o.name),
        amendments: [],
      };
      const key = ownerKey(p);
      positions.set(key, [...(positions.get(key) ?? []), statement]);
    });
  });
  const order = (a: Statement, b: Statement) =>
    (b.eventDate ?? b.filedAt ?? '').localeCompare(a.eventDate ?? a.filedAt ?? '') || (b.filedAt ?? '').localeCompare(a.filedAt ?? '') || (b.amendmentNumber ?? 0) - (a.amendmentNumber ?? 0);
  let owners = [...positions.values()].map((statements) => {
    const [current, ...earlier] = statements.sort(order);
    return {
      ...current!,
      amendments: earlier.map((s) => ({
        formType: s.formType,
        schedule: s.schedule,
        isAmendment: s.isAmendment,
        amendmentNumber: s.amendmentNumber,
        eventDate: s.eventDate,
        filedAt: s.filedAt,
        percentOfClass: s.percentOfClass,
        aggregateAmountOwned: s.aggregateAmountOwned,
        accessionNumber: s.accessionNumber,
        citationUrl: s.citationUrl,
        citationNullReason: s.citationNullReason,
      })),
    };
  });
  if (args.schedule) owners = owners.filter((o) => o.schedule === args.schedule);
  owners.sort((a, b) => (b.percentOfClass ?? -1) - (a.percentOfClass ?? -1) || a.ownerName.localeCompare(b.ownerName) || a.id.localeCompare(b.id));
  return { issuerCik: ciks[0]!, ...slicePage('beneficial-owners', owners, args.first, args.after) };
}


/* 13F holders of an issuer ----------------------------------------------------------------- */

export const holderMatchRule =
  'A 13F information table names a security by CUSIP and issuer name, not by CIK. A row is the company\'s when its CUSIP\'s first six characters (the issuer number) are those of a CUSIP a Schedule 13D or 13G of the company states, or, when no such CUSIP is held, when its issuer name equals the company\'s current or a former name (compared in capitals, without punctuation or a trailing INC, CORP, CO, LTD, PLC, LLC, NV, SA or AG). ' +
  'Each manager\'s latest period held is read, its rows chosen by the amendment rule; holders are ordered by value, largest first.';

export interface InstitutionalHolder extends Cited {
  id: string;
  managerCik: string | null;
  managerName: string | null;
  period: string | null;
  formType: string;
  filedAt: string | null;
  sourceField: string;
  issuerName: string | null;
  classTitle: string | null;
  cusip: string | null;
  valueUsd: number | null;
  sharesOrPrincipalAmount: number | null;
  sharesOrPrincipalType: string | null;
  putCall: string | null;
  matchedBy: 'cusip' | 'name';
}

const corporateSuffix = /(\s(INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|LTD|LIMITED|PLC|LLC|NV|SA|AG))+$/;
/** "Apple Inc." and "APPLE INC" alike: capitals, no punctuation, no trailing corporate suffix. */
const comparableName = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim().replace(corporateSuffix, '');

function namesOf(entity: { name: string; formerNames: unknown } | null): Set<string> {
  const former = Array.isArray(entity?.formerNames) ? (entity.formerNames as { name?: unknown }[]).map((n) => n.name).filter((n): n is string => typeof n === 'string') : [];
  return new Set([entity?.name, ...former].filter((n): n is string => Boolean(n)).map(comparableName).filter(Boolean));
}

/** A 13F record of a manager's latest period without its information table (`data.holdings` is empty when one is held, null when not). */
interface HolderRecord extends Omit<Record13f, 'data'> {
  data: Pick<Form13fData, 'isAmendment' | 'amendmentNumber' | 'amendmentType' | 'reportPeriod'> & { manager: Pick<Form13fData['manager'], 'cik' | 'name'> | null; holdings: [] | null };
}

/** Every manager's 13F records of its latest period held, without their information tables, which are large. */
async function latestPeriodRecords(reader: DataReader): Promise<HolderRecord[]> {
  // `d` is the record without its table, detoasted once per row (OFFSET 0 keeps it computed once)
  return reader.prisma.$queryRaw<HolderRecord[]>`
    SELECT r."id", r."accessionNumber", r."formType", r."cik", r."filedAt", r."periodOfReport",
      jsonb_build_object('isAmendment', d->'isAmendment', 'amendmentNumber', d->'amendmentNumber', 'amendmentType', d->'amendmentType', 'reportPeriod', d->'reportPeriod',
        'manager', CASE WHEN jsonb_typeof(d->'manager') = 'object' THEN jsonb_build_object('cik', d->'manager'->'cik', 'name', d->'manager'->'name') END,
        'holdings', CASE WHEN "hasTable" THEN '[]'::jsonb END) AS "data"
    FROM "FormRecord" r
    JOIN (SELECT "cik", max("periodOfReport") AS "period" FROM "FormRecord" WHERE "family" = '13F' AND NOT "isSample" AND "cik" IS NOT NULL AND "periodOfReport" IS NOT NULL GROUP BY "cik") latest
      ON latest."cik" = r."cik" AND latest."period" = r."periodOfReport"
    CROSS JOIN LATERAL (SELECT r."data" - 'holdings' AS d, jsonb_typeof(r."data"->'holdings') = 'array' AS "hasTable" OFFSET 0) light
    WHERE r."family" = '13F' AND NOT r."isSample"`;
}

/** Any character outside ASCII, which JavaScript's capitals may map to ASCII ones (ß to SS). */
const nonAscii = '[^\\u0001-\\u007F]';

/**
 * The information table rows of `ids` that may name the issuer, with their place in the table: a
 * superset of the rows matchOf keeps, chosen in the database so that only they are read. Capitals
 * are ASCII's (upper in the C collation); a value with any other character is always returned.
 * An issuer number is the CUSIP's first six characters; a comparable name's words stand in the
 * issuer name in order, each unbroken, since only punctuation and a trailing suffix come between.
 */
async function candidateRows(reader: DataReader, ids: string[], issuerNumbers: string[], names: string[]): Promise<{ id: string; row: number; holding: Form13fHolding }[]> {
  const byCusip = issuerNumbers.length > 0;
  // the words are letters and digits only, so no LIKE wildcard
  const patterns = names.map((n) => `%${n.split(' ').join('%')}%`);
  if (!ids.length || (!byCusip && !patterns.length)) return [];
  return reader.prisma.$queryRaw<{ id: string; row: number; holding: Form13fHolding }[]>`
    SELECT f."id", t.n::int AS "row", t.h AS "holding"
    FROM "FormRecord" f
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(f."data"->'holdings') = 'array' THEN f."data"->'holdings' ELSE '[]'::jsonb END) WITH ORDINALITY AS t(h, n)
    WHERE f."id" = ANY(${ids}::text[]) AND CASE WHEN ${byCusip}::boolean
      THEN upper(left(t.h->>'cusip', 6) COLLATE "C") = ANY(${issuerNumbers}::text[]) OR t.h->>'cusip' ~ ${nonAscii}
      ELSE upper(t.h->>'issuerName' COLLATE "C") LIKE ANY(${patterns}::text[]) OR t.h->>'issuerName' ~ ${nonAscii}
    END`;
}

/** The institutional managers whose held 13F information tables list the company's securities, largest value first. */
export async function institutionalHolders(
  reader: DataReader,
  args: { ticker?: string | null; cik?: string | null; first?: number | null; after?: string | null },
): Promise<Page<InstitutionalHolder> & { issuerCik: string; issuerCusips: string[]; matchRule: string; managersRead: number }> {
  const ciks = await companyCiks(reader, args);
  const [entity, schedules, records] = await Promise.all([
    reader.prisma.entity.findUnique({ where: { cik: ciks[0]! }, select: { name: true, formerNames: true } }),
    reader.prisma.formRecord.findMany({ where: { family: '13DG', cik: { in: ciks }, isSample: false }, select: { data: true } }),
    latestPeriodRecords(reader),
  ]);
  const issuerCusips = [...new Set(schedules.map((s) => (s.data as unknown as Schedule13Data).issuer.cusip?.toUpperCase()).filter((c): c is string => Boolean(c)))].sort();
  const issuerNumbers = new Set(issuerCusips.map((c) => c.slice(0, 6)));
  const names = namesOf(entity);
  const byManager = new Map<string, HolderRecord[]>();
  for (const r of records) byManager.set(r.cik!, [...(byManager.get(r.cik!) ?? []), r]);
  const used = new Map([...byManager.values()].flatMap((managerRecords) => holdingsOfPeriod(managerRecords).used.map(({ record }) => [record.id, record] as const)));

  const matchOf = (h: Form13fHolding): 'cusip' | 'name' | null => {
    if (issuerNumbers.size) return h.cusip && issuerNumbers.has(h.cusip.toUpperCase().slice(0, 6)) ? 'cusip' : null;
    return h.issuerName && names.has(comparableName(h.issuerName)) ? 'name' : null;
  };
  const found: { record: HolderRecord; holding: Form13fHolding; row: number; matchedBy: 'cusip' | 'name' }[] = [];
  for (const { id, row, holding } of await candidateRows(reader, [...used.keys()], [...issuerNumbers], [...names])) {
    const matchedBy = matchOf(holding);
    if (matchedBy) found.push({ record: used.get(id)!, holding, row, matchedBy });
  }
  const cited = await citeRecords(reader, found.map((f) => f.record));
  const holders: InstitutionalHolder[] = found.map(({ record, holding: h, row, matchedBy }, i) => ({
    id: `${record.id}#${row}`,
    ...cited[i]!,
    managerCik: record.data.manager?.cik ?? record.cik,
    managerName: record.data.manager?.name ?? null,
    period: record.data.reportPeriod ?? isoDay(record.periodOfReport),
    formType: record.formType,
    filedAt: isoDay(record.filedAt),
    sourceField: `informationTable/infoTable[${row}]`,
    issuerName: h.issuerName,
    classTitle: h.classTitle,
    cusip: h.cusip,
    valueUsd: h.valueUsd,
    sharesOrPrincipalAmount: h.sharesOrPrincipalAmount,
    sharesOrPrincipalType: h.sharesOrPrincipalType,
    putCall: h.putCall,
    matchedBy,
  }));
  holders.sort((a, b) => (b.valueUsd ?? -1) - (a.valueUsd ?? -1) || a.id.localeCompare(b.id));
  return { issuerCik: ciks[0]!, issuerCusips, matchRule: holderMatchRule, managersRead: byManager.size, ...slicePage('13f-holders', holders, args.first, args.after) };
}
