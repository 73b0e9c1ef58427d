// The funds family: registered funds (series) from Form N-CEN, and portfolios from Form N-PORT,
// read from the FormRecord rows the ingest stores (families NCEN and NPORT; `data` is the parsers'
// NcenData and NportData). Every row cites its filing.
import type { NcenData, NcenSeries } from '../ingest/parsers/funds/ncen.ts';
import type { NportData, NportHolding } from '../ingest/parsers/funds/nport.ts';
import { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import { ciksFor, tickerOf } from './entities.ts';
import { citeRecords, type Cited, companyCiks, type Page, slicePage } from './ownership.ts';

/* N-CEN ------------------------------------------------------------------------------------ */

interface NcenRecord {
  id: string;
  accessionNumber: string | null;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  periodOfReport: Date | null;
  data: NcenData;
}

export interface Fund extends Cited {
  id: string;
  /** the form that describes the series: its registrant's N-CEN, else its own latest N-PORT */
  source: 'N-CEN' | 'N-PORT';
  seriesId: string | null;
  name: string | null;
  lei: string | null;
  registrantCik: string | null;
  registrantName: string | null;
  registrantLei: string | null;
  investmentCompanyFileNumber: string | null;
  classificationType: string | null;
  familyName: string | null;
  fundTypes: string[];
  /** null where only an N-PORT describes the series: it does not say */
  isEtf: boolean | null;
  isIndexFund: boolean | null;
  isNonDiversified: boolean | null;
  classes: NcenSeries['classes'];
  monthlyAverageNetAssets: number | null;
  auditors: unknown;
  serviceProviders: unknown;
  etf: unknown;
  formType: string;
  filedAt: string | null;
  reportPeriodEnd: string | null;
  sourceSection: string;
}

/** The latest N-CEN of each registrant: an annual census restates every series. */
async function latestCensus(reader: DataReader, ciks: string[] | null): Promise<NcenRecord[]> {
  const rows = (await reader.prisma.formRecord.findMany({
    where: { family: 'NCEN', isSample: false, ...(ciks ? { cik: { in: ciks } } : {}) },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    select: { id: true, accessionNumber: true, formType: true, cik: true, filedAt: true, periodOfReport: true, data: true },
  })) as unknown as NcenRecord[];
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = r.cik ?? r.data.registrant?.cik ?? r.id;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function fundOf(r: NcenRecord, s: NcenSeries, index: number, cited: Cited): Fund {
  const d = r.data;
  return {
    id: s.seriesId ?? `${r.id}#${index + 1}`,
    source: 'N-CEN',
    ...cited,
    seriesId: s.seriesId,
    name: s.name,
    lei: s.lei,
    registrantCik: d.registrant.cik ?? r.cik,
    registrantName: d.registrant.name,
    registrantLei: d.registrant.lei,
    investmentCompanyFileNumber: d.registrant.fileNumber,
    classificationType: d.registrant.classificationType,
    familyName: d.registrant.familyName,
    fundTypes: s.fundTypes,
    isEtf: s.isEtf,
    isIndexFund: s.isIndexFund,
    isNonDiversified: s.isNonDiversified,
    classes: s.classes,
    monthlyAverageNetAssets: s.monthlyAverageNetAssets,
    auditors: d.publicAccountants,
    serviceProviders: {
      investmentAdvisers: s.investmentAdvisers,
      subAdvisers: s.subAdvisers,
      administrators: s.administrators,
      custodians: s.custodians,
      transferAgents: s.transferAgents,
      shareholderServicingAgents: s.shareholderServicingAgents,
      securitiesLendingAgents: s.securitiesLendingAgents,
      principalUnderwriters: d.principalUnderwriters,
    },
    etf: s.etf ? { exchanges: s.etf.exchanges, creationUnitShares: s.etf.creationUnitShares, isInKind: s.etf.isInKind, authorizedParticipantsCount: s.etf.authorizedParticipants.length } : null,
    formType: r.formType,
    filedAt: isoDay(r.filedAt),
    reportPeriodEnd: d.reportPeriodEnd ?? isoDay(r.periodOfReport),
    sourceSection: `managementInvestmentQuestionSeriesInfo/managementInvestmentQuestion[${index + 1}] (Part C), registrantInfo (Part B)`,
  };
}

interface PortfolioSeriesRow {
  id: string;
  accessionNumber: string | null;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  periodOfReport: Date | null;
  registrant: NportData['registrant'] | null;
  series: NportData['series'] | null;
  classIds: string[] | null;
  reportPeriodEnd: string | null;
}

/**
 * The series that file N-PORT, each from its latest report (its genInfo, not its holdings): a
 * registrant whose N-CEN is not held is still known by the series its portfolios name.
 */
async function portfolioSeries(reader: DataReader, ciks: string[] | null): Promise<PortfolioSeriesRow[]> {
  return reader.prisma.$queryRaw<PortfolioSeriesRow[]>`
    SELECT DISTINCT ON (coalesce("data"->'series'->>'seriesId', "id"))
      "id", "accessionNumber", "formType", "cik", "filedAt", "periodOfReport",
      "data"->'registrant' AS "registrant", "data"->'series' AS "series", "data"->'classIds' AS "classIds", "data"->>'reportPeriodEnd' AS "reportPeriodEnd"
    FROM "FormRecord"
    WHERE "family" = 'NPORT' AND NOT "isSample"${ciks ? Prisma.sql` AND "cik" = ANY(${ciks}::text[])` : Prisma.empty}
    ORDER BY coalesce("data"->'series'->>'seriesId', "id"), "orderedAt" DESC, "id" DESC`;
}

function portfolioFundOf(r: PortfolioSeriesRow, cited: Cited): Fund {
  return {
    id: r.series?.seriesId ?? r.id,
    source: 'N-PORT',
    ...cited,
    seriesId: r.series?.seriesId ?? null,
    name: r.series?.name ?? null,
    lei: r.series?.lei ?? null,
    registrantCik: r.registrant?.cik ?? r.cik,
    registrantName: r.registrant?.name ?? null,
    registrantLei: r.registrant?.lei ?? null,
    investmentCompanyFileNumber: r.registrant?.fileNumber ?? null,
    classificationType: null,
    familyName: null,
    fundTypes: [],
    isEtf: null,
    isIndexFund: null,
    isNonDiversified: null,
    classes: (r.classIds ?? []).map((classId) => ({ classId, name: null, ticker: null })),
    monthlyAverageNetAssets: null,
    auditors: [],
    serviceProviders: null,
    etf: null,
    formType: r.formType,
    filedAt: isoDay(r.filedAt),
    reportPeriodEnd: r.reportPeriodEnd ?? isoDay(r.periodOfReport),
    sourceSection: 'genInfo (Part A): registrant, series name, id and LEI, class ids; the series\'s N-CEN is not held',
  };
}

export async function funds(
  reader: DataReader,
  args: { cik?: string | null; ticker?: string | null; seriesId?: string | null; q?: string | null; first?: number | null; after?: string | null },
): Promise<Page<Fund>> {
  // A ticker is a share class's (N-CEN item C.2), else a company's that files N-CEN.
  const classTicker = args.ticker ? (tickerOf(args.ticker) ?? args.ticker.toUpperCase()) : null;
  let ciks: string[] | null = args.cik ? await companyCiks(reader, { cik: args.cik }) : null;
  const census = await latestCensus(reader, ciks);
  const cited = await citeRecords(reader, census);
  let rows: { fund: Fund; series: Pick<NcenSeries, 'seriesId' | 'classes' | 'etf'> }[] = census.flatMap((r, ri) => r.data.series.map((s, si) => ({ fund: fundOf(r, s, si, cited[ri]!), series: s })));
  const described = new Set(rows.map(({ fund }) => fund.seriesId).filter(Boolean));
  const portfolios = (await portfolioSeries(reader, ciks)).filter((p) => !p.series?.seriesId || !described.has(p.series.seriesId));
  const portfolioCited = await citeRecords(reader, portfolios);
  rows = rows.concat(portfolios.map((p, i) => { const fund = portfolioFundOf(p, portfolioCited[i]!); return { fund, series: { seriesId: fund.seriesId, classes: fund.classes, etf: null } }; }));
  if (classTicker) {
    const byClass = rows.filter(({ series }) => series.classes.some((c) => c.ticker?.toUpperCase() === classTicker) || series.etf?.exchanges.some((e) => e.ticker?.toUpperCase() === classTicker));
    if (byClass.length) rows = byClass;
    else {
      ciks = await ciksFor(reader, { ticker: args.ticker });
      if (!ciks?.length) throw new ApiError('entity_not_found', `No fund share class or entity with ticker ${args.ticker} is known.`, { details: { parameter: 'ticker' } });
      rows = rows.filter(({ fund }) => fund.registrantCik && ciks!.includes(fund.registrantCik));
    }
  }
  if (args.seriesId) rows = rows.filter(({ series }) => series.seriesId?.toUpperCase() === args.seriesId!.toUpperCase());
  if (args.q) {
    const words = args.q.toLowerCase().split(/\s+/).filter(Boolean);
    rows = rows.filter(({ fund, series }) => {
      const text = [fund.name, fund.registrantName, fund.familyName, fund.seriesId, ...series.classes.flatMap((c) => [c.name, c.ticker])].filter(Boolean).join(' ').toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }
  const all = rows.map((r) => r.fund).sort((a, b) => (a.registrantName ?? '').localeCompare(b.registrantName ?? '') || (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id));
  return slicePage('funds', all, args.first, args.after);
}

/* N-PORT ----------------------------------------------------------------------------------- */

interface NportRecord {
  id: string;
  accessionNumber: string | null;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  periodOfReport: Date | null;
  data: NportData;
}

const assetCategories: Record<string, string> = {
  EC: 'Equity-common',
  EP: 'Equity-preferred',
  DBT: 'Debt',
  'ABS-MBS': 'Asset-backed: mortgage-backed',
  'ABS-ASBS': 'Asset-backed: asset-backed',
  'ABS-CBDO': 'Asset-backed: collateralized bond/debt obligation',
  'ABS-O': 'Asset-backed: other',
  DCO: 'Derivative-commodity',
  DCR: 'Derivative-credit',
  DE: 'Derivative-equity',
  DFE: 'Derivative-foreign exchange',
  DIR: 'Derivative-interest rate',
  DO: 'Derivative-other',
  SN: 'Structured note',
  LON: 'Loan',
  RA: 'Repurchase agreement',
  STIV: 'Short-term investment vehicle (e.g. money market fund, liquidity pool)',
  RE: 'Real estate',
  COMM: 'Commodity',
  OTHER: 'Other',
};

const issuerCategories: Record<string, string> = {
  CORP: 'Corporate',
  UST: 'U.S. Treasury',
  USGA: 'U.S. government agency',
  USGSE: 'U.S. government sponsored entity',
  MUN: 'Municipal',
  NUSS: 'Non-U.S. sovereign',
  PF: 'Private fund',
  RF: 'Registered fund',
  OTHER: 'Other',
};

export interface FundReport extends Cited {
  id: string;
  seriesId: string | null;
  seriesName: string | null;
  seriesLei: string | null;
  registrantCik: string | null;
  registrantName: string | null;
  registrantLei: string | null;
  formType: string;
  filedAt: string | null;
  filedAtNullReason: string | null;
  reportDate: string | null;
  reportPeriodEnd: string | null;
  isFinalFiling: boolean | null;
  totalAssets: number | null;
  totalLiabilities: number | null;
  netAssets: number | null;
  holdingsCount: number;
  reportDatesAvailable: string[];
}

export interface FundHolding extends Cited {
  id: string;
  position: number;
  sourceField: string;
  name: string | null;
  title: string | null;
  cusip: string | null;
  isin: string | null;
  lei: string | null;
  ticker: string | null;
  otherIdentifiers: unknown;
  balance: number | null;
  units: string | null;
  unitsDescription: string | null;
  currency: string | null;
  exchangeRate: number | null;
  valueUsd: number | null;
  percentOfNetAssets: number | null;
  payoffProfile: string | null;
  assetCategory: string | null;
  assetCategoryLabel: string | null;
  issuerCategory: string | null;
  issuerCategoryLabel: string | null;
  country: string | null;
  isRestricted: boolean | null;
  fairValueLevel: string | null;
  debt: unknown;
  derivativeCategory: string | null;
  reportDate: string | null;
}

function holdingOf(h: NportHolding, i: number, report: FundReport): FundHolding {
  return {
    id: `${report.id}#${i + 1}`,
    accessionNumber: report.accessionNumber,
    citationUrl: report.citationUrl,
    citationNullReason: report.citationNullReason,
    position: i + 1,
    sourceField: `invstOrSecs/invstOrSec[${i + 1}]`,
    name: h.name,
    title: h.title,
    cusip: h.cusip,
    isin: h.isin,
    lei: h.lei,
    ticker: h.ticker,
    otherIdentifiers: h.otherIdentifiers,
    balance: h.balance,
    units: h.units,
    unitsDescription: h.unitsDescription,
    currency: h.currency,
    exchangeRate: h.exchangeRate,
    valueUsd: h.valueUsd,
    percentOfNetAssets: h.percentOfNetAssets,
    payoffProfile: h.payoffProfile,
    assetCategory: h.assetCategory,
    assetCategoryLabel: h.assetCategory ? (assetCategories[h.assetCategory] ?? null) : null,
    issuerCategory: h.issuerCategory,
    issuerCategoryLabel: h.issuerCategory ? (issuerCategories[h.issuerCategory] ?? null) : null,
    country: h.country,
    isRestricted: h.isRestricted,
    fairValueLevel: h.fairValueLevel,
    debt: h.debt,
    derivativeCategory: h.derivativeCategory,
    reportDate: report.reportDate,
  };
}

export async function fundHoldings(
  reader: DataReader,
  args: { seriesId?: string | null; cik?: string | null; ticker?: string | null; reportDate?: string | null; assetCategory?: string | null; first?: number | null; after?: string | null },
): Promise<Page<FundHolding> & { fund: FundReport }> {
  const ciks = args.cik || args.ticker ? await companyCiks(reader, args) : null;
  if (!args.seriesId && !ciks) throw new ApiError('invalid_query_parameter', 'Name the fund with series_id, or its registrant with cik or ticker.', { details: { parameter: 'series_id', acceptedValues: ['series_id', 'cik', 'ticker'] } });
  // the reports' series and dates only (a report's holdings can run to thousands of rows): the one chosen is read whole below
  const reports = await reader.prisma.$queryRaw<{ id: string; seriesId: string | null; reportDate: string | null }[]>`
    SELECT "id", "data"->'series'->>'seriesId' AS "seriesId", coalesce("data"->>'reportDate', to_char("periodOfReport", 'YYYY-MM-DD')) AS "reportDate"
    FROM "FormRecord"
    WHERE "family" = 'NPORT' AND NOT "isSample"${ciks ? Prisma.sql` AND "cik" = ANY(${ciks}::text[])` : Prisma.empty}${args.seriesId ? Prisma.sql` AND "data"->'series'->>'seriesId' = ${args.seriesId.toUpperCase()}` : Prisma.empty}
    ORDER BY "periodOfReport" DESC, "orderedAt" DESC, "id" DESC`;
  const who = args.seriesId ? `series ${args.seriesId}` : args.ticker ? `ticker ${args.ticker}` : `CIK ${args.cik}`;
  if (!reports.length) throw new ApiError('fund_not_found', `No N-PORT portfolio report of ${who} is held.`, { details: { parameter: args.seriesId ? 'series_id' : args.ticker ? 'ticker' : 'cik' } });
  const seriesIds = [...new Set(reports.map((r) => r.seriesId))];
  if (!args.seriesId && seriesIds.length > 1) {
    throw new ApiError('invalid_query_parameter', `The registrant files N-PORT for ${seriesIds.length} series; name one with series_id.`, { details: { parameter: 'series_id', acceptedValues: seriesIds.filter((s): s is string => s !== null) } });
  }
  const reportDatesAvailable = [...new Set(reports.map((r) => r.reportDate).filter((d): d is string => d !== null))];
  const head = args.reportDate ? reports.find((r) => r.reportDate === args.reportDate) : reports[0];
  if (!head) throw new ApiError('fund_not_found', `No N-PORT report of ${who} as of ${args.reportDate} is held; held report dates: ${reportDatesAvailable.join(', ')}.`, { details: { parameter: 'report_date', acceptedValues: reportDatesAvailable } });
  const chosen = (await reader.prisma.formRecord.findUniqueOrThrow({
    where: { id: head.id },
    select: { id: true, accessionNumber: true, formType: true, cik: true, filedAt: true, periodOfReport: true, data: true },
  })) as unknown as NportRecord;
  const [cited] = await citeRecords(reader, [chosen]);
  const d = chosen.data;
  const fund: FundReport = {
    id: chosen.id,
    ...cited!,
    seriesId: d.series?.seriesId ?? null,
    seriesName: d.series?.name ?? null,
    seriesLei: d.series?.lei ?? null,
    registrantCik: d.registrant?.cik ?? chosen.cik,
    registrantName: d.registrant?.name ?? null,
    registrantLei: d.registrant?.lei ?? null,
    formType: chosen.formType,
    filedAt: isoDay(chosen.filedAt),
    filedAtNullReason: chosen.filedAt ? null : ((d as NportData & { filedAtReason?: string }).filedAtReason ?? 'The filing date is not known.'),
    reportDate: d.reportDate ?? isoDay(chosen.periodOfReport),
    reportPeriodEnd: d.reportPeriodEnd,
    isFinalFiling: d.isFinalFiling,
    totalAssets: d.totalAssets,
    totalLiabilities: d.totalLiabilities,
    netAssets: d.netAssets,
    holdingsCount: d.holdings.length,
    reportDatesAvailable,
  };
  let holdings = d.holdings.map((h, i) => holdingOf(h, i, fund));
  if (args.assetCategory) holdings = holdings.filter((h) => h.assetCategory?.toUpperCase() === args.assetCategory!.toUpperCase());
  return { fund, ...slicePage('fund-holdings', holdings, args.first, args.after) };
}
