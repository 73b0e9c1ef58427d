// Form N-PORT (NPORT-P, NPORT-P/A): a fund series' monthly portfolio report, public for the
// quarter's last month. Kept: who the registrant and series are, the fund-level totals and every
// holding with its identifiers, amount, value, classification and debt terms. The return, flow
// and risk-metric sections are left out.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ParsedForm, PartyRef } from './records.ts';
import { isSgmlSubmission, parseSgmlSubmission, type SgmlSubmission } from './sgml.ts';

export interface NportHolding {
  name: string | null;
  lei: string | null;
  title: string | null;
  cusip: string | null;
  isin: string | null;
  ticker: string | null;
  /** other identifiers the filer gave, e.g. { description: 'Internal', value: '49151FGH' } */
  otherIdentifiers: { description: string | null; value: string | null }[];
  balance: number | null;
  /** 'NS' shares, 'PA' principal amount, 'NC' contracts, 'OU' other units (see unitsDescription) */
  units: string | null;
  unitsDescription: string | null;
  currency: string | null;
  /** units of `currency` per US dollar, when the holding is not in dollars */
  exchangeRate: number | null;
  valueUsd: number | null;
  percentOfNetAssets: number | null;
  /** 'Long', 'Short' or 'N/A' */
  payoffProfile: string | null;
  /** 'EC' equity-common, 'DBT' debt, 'STIV' short-term vehicle, ... */
  assetCategory: string | null;
  assetCategoryOther: string | null;
  /** 'CORP', 'UST' treasury, 'MUN' municipal, 'RF' registered fund, ... */
  issuerCategory: string | null;
  issuerCategoryOther: string | null;
  country: string | null;
  isRestricted: boolean | null;
  /** '1', '2', '3', or 'N/A' */
  fairValueLevel: string | null;
  debt: {
    maturityDate: string | null;
    /** 'Fixed', 'Floating', 'Variable', 'None' */
    couponKind: string | null;
    annualizedRate: number | null;
    isDefault: boolean | null;
    areInterestPaymentsInArrears: boolean | null;
    isPaidInKind: boolean | null;
  } | null;
  /** for derivatives, the instrument kind: 'forward', 'future', 'swap', 'option', ... */
  derivativeCategory: string | null;
}

export interface NportData {
  registrant: {
    name: string | null;
    cik: string | null;
    fileNumber: string | null;
    lei: string | null;
    street1: string | null;
    street2: string | null;
    city: string | null;
    state: string | null;
    country: string | null;
    zipCode: string | null;
    phone: string | null;
  };
  series: { name: string | null; seriesId: string | null; lei: string | null };
  classIds: string[];
  /** YYYY-MM-DD: the fund's fiscal year end, and the date the portfolio is reported as of */
  reportPeriodEnd: string | null;
  reportDate: string | null;
  isFinalFiling: boolean | null;
  totalAssets: number | null;
  totalLiabilities: number | null;
  netAssets: number | null;
  holdings: NportHolding[];
  signature: { name: string | null; title: string | null; date: string | null };
}

/* XML plumbing ---------------------------------------------------------------------------- */

type Node = Record<string, unknown>;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
});

const child = (node: unknown, key: string): Node | undefined => (node && typeof node === 'object' ? ((node as Node)[key] as Node | undefined) : undefined);
const list = (node: unknown): Node[] => (node == null || node === '' ? [] : Array.isArray(node) ? node : [node]) as Node[];

function text(node: unknown): string | null {
  const raw = node && typeof node === 'object' ? (node as Node)['#text'] : node;
  if (raw == null) return null;
  const value = String(raw).trim();
  return value === '' ? null : value;
}

/** N-PORT writes 'N/A' (or a string of zeros for a CUSIP) where an identifier does not exist. */
function identifier(node: unknown): string | null {
  const value = text(node);
  return value === null || /^n\/?a$/i.test(value) || /^0+$/.test(value) ? null : value;
}

function num(node: unknown): number | null {
  const value = text(node);
  return value != null && /^-?\d*\.?\d+(E[-+]?\d+)?$/i.test(value) ? Number(value) : null;
}

function bool(node: unknown): boolean | null {
  const value = text(node)?.toUpperCase();
  return value === 'Y' || value === 'TRUE' ? true : value === 'N' || value === 'FALSE' ? false : null;
}

const attr = (node: unknown, name: string) => text(child(node, `@${name}`));
const cik = (node: unknown) => text(node)?.padStart(10, '0') ?? null;
const date = (node: unknown) => {
  const value = text(node);
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
};

/* holdings --------------------------------------------------------------------------------- */

const DERIVATIVE_KINDS: Record<string, string> = {
  fwdDeriv: 'forward',
  futrDeriv: 'future',
  swapDeriv: 'swap',
  optionSwaptionWarrantDeriv: 'option',
  othDeriv: 'other',
};

function holdingOf(node: Node): NportHolding {
  const ids = child(node, 'identifiers');
  const asset = child(node, 'assetConditional');
  const issuer = child(node, 'issuerConditional');
  const currency = child(node, 'currencyConditional');
  const debt = child(node, 'debtSec');
  const derivative = child(node, 'derivativeInfo');
  const derivativeKey = derivative ? Object.keys(derivative).find((k) => k in DERIVATIVE_KINDS) : undefined;
  return {
    name: identifier(node.name),
    lei: identifier(node.lei),
    title: text(node.title),
    cusip: identifier(node.cusip),
    isin: identifier(attr(child(ids, 'isin'), 'value')),
    ticker: identifier(attr(child(ids, 'ticker'), 'value')),
    otherIdentifiers: list(child(ids, 'other')).map((o) => ({ description: attr(o, 'otherDesc'), value: attr(o, 'value') })),
    balance: num(node.balance),
    units: text(node.units),
    unitsDescription: text(node.descOthUnits),
    currency: text(node.curCd) ?? attr(currency, 'curCd'),
    exchangeRate: num(attr(currency, 'exchangeRt')),
    valueUsd: num(node.valUSD),
    percentOfNetAssets: num(node.pctVal),
    payoffProfile: text(node.payoffProfile),
    assetCategory: text(node.assetCat) ?? attr(asset, 'assetCat'),
    assetCategoryOther: identifier(attr(asset, 'desc')),
    issuerCategory: text(node.issuerCat) ?? attr(issuer, 'issuerCat'),
    issuerCategoryOther: identifier(attr(issuer, 'desc')),
    country: identifier(node.invCountry),
    isRestricted: bool(node.isRestrictedSec),
    fairValueLevel: text(node.fairValLevel),
    debt: debt
      ? {
          maturityDate: date(debt.maturityDt),
          couponKind: text(debt.couponKind),
          annualizedRate: num(debt.annualizedRt),
          isDefault: bool(debt.isDefault),
          areInterestPaymentsInArrears: bool(debt.areIntrstPmntsInArrs),
          isPaidInKind: bool(debt.isPaidKind),
        }
      : null,
    derivativeCategory: derivativeKey ? DERIVATIVE_KINDS[derivativeKey]! : null,
  };
}

/* document --------------------------------------------------------------------------------- */

function locateDocument(source: string, name: string): { document: string; container: SgmlSubmission | null } {
  if (!isSgmlSubmission(source)) return { document: source, container: null };
  const container = parseSgmlSubmission(source);
  const opened = source.match(/<DOCUMENT>/g)?.length ?? 0;
  if (opened !== container.documents.length) throw new Error(`N-PORT ${name}: truncated submission (${opened} documents opened, ${container.documents.length} complete)`);
  const document = container.documents.find((d) => /<edgarSubmission[\s>]/.test(d.text));
  if (!document) throw new Error(`N-PORT ${name}: submission has no N-PORT XML document`);
  return { document: document.text, container };
}

export function parseNport(source: string, name: string): ParsedForm<NportData> {
  const { document, container } = locateDocument(source, name);
  const trimmed = document.trim();
  const verdict = XMLValidator.validate(trimmed);
  if (verdict !== true) throw new Error(`N-PORT ${name}: not well-formed XML (${verdict.err.msg}, line ${verdict.err.line})`);
  const submission = child(xml.parse(trimmed), 'edgarSubmission');
  const form = child(submission, 'formData');
  const general = child(form, 'genInfo');
  const fund = child(form, 'fundInfo');
  if (!submission || !general || !fund) throw new Error(`N-PORT ${name}: document lacks the N-PORT general or fund information`);
  const header = child(submission, 'headerData');
  const filerInfo = child(header, 'filerInfo');
  const location = child(general, 'regStateConditional');
  const signature = child(form, 'signature');

  const data: NportData = {
    registrant: {
      name: text(general.regName),
      cik: cik(general.regCik) ?? cik(child(child(filerInfo, 'filer'), 'issuerCredentials')?.cik),
      fileNumber: text(general.regFileNumber),
      lei: identifier(general.regLei),
      street1: text(general.regStreet1),
      street2: text(general.regStreet2),
      city: text(general.regCity),
      state: attr(location, 'regState'),
      country: attr(location, 'regCountry'),
      zipCode: text(general.regZipOrPostalCode),
      phone: text(general.regPhone),
    },
    series: { name: text(general.seriesName), seriesId: text(general.seriesId), lei: identifier(general.seriesLei) },
    classIds: list(filerInfo?.seriesClassInfo).map((s) => text(s.classId)).filter((id): id is string => id !== null),
    reportPeriodEnd: date(general.repPdEnd),
    reportDate: date(general.repPdDate),
    isFinalFiling: bool(general.isFinalFiling),
    totalAssets: num(fund.totAssets),
    totalLiabilities: num(fund.totLiabs),
    netAssets: num(fund.netAssets),
    holdings: list(child(child(form, 'invstOrSecs'), 'invstOrSec')).map(holdingOf),
    signature: { name: text(signature?.signerName), title: text(signature?.title), date: date(signature?.dateSigned) },
  };

  const parties: PartyRef[] = [{ cik: data.registrant.cik, name: data.registrant.name, role: 'filer' }];
  if (data.series.name) parties.push({ cik: null, name: data.series.name, role: 'fund' });

  return {
    family: 'NPORT',
    formType: text(header?.submissionType) ?? container?.formType ?? 'NPORT-P',
    accessionNumber: container?.accessionNumber ?? null,
    filedAt: container?.filedAt ?? null,
    // EDGAR's period of report for N-PORT is the portfolio date, not the fiscal year end
    periodOfReport: container?.periodOfReport ?? data.reportDate,
    parties,
    isSample: false,
    data,
  };
}
