// Form N-PORT (NPORT-P, NPORT-P/A): a fund series' monthly portfolio report, public for the
// quarter's last month. Kept: who the registrant and series are, the fund-level totals and every
// holding with its identifiers, amount, value, classification and debt terms. The return, flow
// and risk-metric sections are left out.
import type { ParsedForm, PartyRef } from '../records.ts';
import { attribute, child, children, cik, decimal, flag, isoDate, locateXml, parseXmlTree, text, texts, type XmlNode } from '../documents/xmlForm.ts';

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

/* values ----------------------------------------------------------------------------------- */

/** N-PORT writes 'N/A' (or a string of zeros for a CUSIP) where an identifier does not exist. */
function identifier(value: string | null): string | null {
  return value === null || /^n\/?a$/i.test(value) || /^0+$/.test(value) ? null : value;
}

/** `decimal`, also reading exponent notation (1.2E-4) in N-PORT amounts and rates. */
function decimalOrExponent(value: string | null): number | null {
  return value !== null && /^-?\d*\.?\d+E[-+]?\d+$/i.test(value) ? Number(value) : decimal(value);
}

/* holdings --------------------------------------------------------------------------------- */

const DERIVATIVE_KINDS: Record<string, string> = {
  fwdDeriv: 'forward',
  futrDeriv: 'future',
  swapDeriv: 'swap',
  optionSwaptionWarrantDeriv: 'option',
  othDeriv: 'other',
};

function holdingOf(node: XmlNode): NportHolding {
  const ids = child(node, 'identifiers');
  const asset = child(node, 'assetConditional');
  const issuer = child(node, 'issuerConditional');
  const currency = child(node, 'currencyConditional');
  const debt = child(node, 'debtSec');
  const derivative = child(node, 'derivativeInfo');
  const derivativeKey = derivative ? Object.keys(derivative).find((k) => k in DERIVATIVE_KINDS) : undefined;
  return {
    name: identifier(text(node, 'name')),
    lei: identifier(text(node, 'lei')),
    title: text(node, 'title'),
    cusip: identifier(text(node, 'cusip')),
    isin: identifier(attribute(child(ids, 'isin'), 'value')),
    ticker: identifier(attribute(child(ids, 'ticker'), 'value')),
    otherIdentifiers: children(ids, 'other').map((o) => ({ description: attribute(o, 'otherDesc'), value: attribute(o, 'value') })),
    balance: decimalOrExponent(text(node, 'balance')),
    units: text(node, 'units'),
    unitsDescription: text(node, 'descOthUnits'),
    currency: text(node, 'curCd') ?? attribute(currency, 'curCd'),
    exchangeRate: decimalOrExponent(attribute(currency, 'exchangeRt')),
    valueUsd: decimalOrExponent(text(node, 'valUSD')),
    percentOfNetAssets: decimalOrExponent(text(node, 'pctVal')),
    payoffProfile: text(node, 'payoffProfile'),
    assetCategory: text(node, 'assetCat') ?? attribute(asset, 'assetCat'),
    assetCategoryOther: identifier(attribute(asset, 'desc')),
    issuerCategory: text(node, 'issuerCat') ?? attribute(issuer, 'issuerCat'),
    issuerCategoryOther: identifier(attribute(issuer, 'desc')),
    country: identifier(text(node, 'invCountry')),
    isRestricted: flag(text(node, 'isRestrictedSec')),
    fairValueLevel: text(node, 'fairValLevel'),
    debt: debt
      ? {
          maturityDate: isoDate(text(debt, 'maturityDt')),
          couponKind: text(debt, 'couponKind'),
          annualizedRate: decimalOrExponent(text(debt, 'annualizedRt')),
          isDefault: flag(text(debt, 'isDefault')),
          areInterestPaymentsInArrears: flag(text(debt, 'areIntrstPmntsInArrs')),
          isPaidInKind: flag(text(debt, 'isPaidKind')),
        }
      : null,
    derivativeCategory: derivativeKey ? DERIVATIVE_KINDS[derivativeKey]! : null,
  };
}

/* document --------------------------------------------------------------------------------- */

export function parseNport(source: string, name: string): ParsedForm<NportData> {
  const label = `N-PORT ${name}`;
  const { xml, container } = locateXml(source, { root: 'edgarSubmission', label, missing: 'N-PORT XML document' });
  const submission = child(parseXmlTree(xml, label, { attributes: true }), 'edgarSubmission');
  const form = child(submission, 'formData');
  const general = child(form, 'genInfo');
  const fund = child(form, 'fundInfo');
  if (!submission || !general || !fund) throw new Error(`${label}: document lacks the N-PORT general or fund information`);
  const header = child(submission, 'headerData');
  const filerInfo = child(header, 'filerInfo');
  const location = child(general, 'regStateConditional');
  const signature = child(form, 'signature');

  const data: NportData = {
    registrant: {
      name: text(general, 'regName'),
      cik: cik(text(general, 'regCik')) ?? cik(text(filerInfo, 'filer', 'issuerCredentials', 'cik')),
      fileNumber: text(general, 'regFileNumber'),
      lei: identifier(text(general, 'regLei')),
      street1: text(general, 'regStreet1'),
      street2: text(general, 'regStreet2'),
      city: text(general, 'regCity'),
      state: attribute(location, 'regState'),
      country: attribute(location, 'regCountry'),
      zipCode: text(general, 'regZipOrPostalCode'),
      phone: text(general, 'regPhone'),
    },
    series: { name: text(general, 'seriesName'), seriesId: text(general, 'seriesId'), lei: identifier(text(general, 'seriesLei')) },
    classIds: texts(filerInfo, 'seriesClassInfo', 'classId'),
    reportPeriodEnd: isoDate(text(general, 'repPdEnd')),
    reportDate: isoDate(text(general, 'repPdDate')),
    isFinalFiling: flag(text(general, 'isFinalFiling')),
    totalAssets: decimalOrExponent(text(fund, 'totAssets')),
    totalLiabilities: decimalOrExponent(text(fund, 'totLiabs')),
    netAssets: decimalOrExponent(text(fund, 'netAssets')),
    holdings: children(form, 'invstOrSecs', 'invstOrSec').map(holdingOf),
    signature: { name: text(signature, 'signerName'), title: text(signature, 'title'), date: isoDate(text(signature, 'dateSigned')) },
  };

  const parties: PartyRef[] = [{ cik: data.registrant.cik, name: data.registrant.name, role: 'filer' }];
  if (data.series.name) parties.push({ cik: null, name: data.series.name, role: 'fund' });

  return {
    family: 'NPORT',
    formType: text(header, 'submissionType') ?? container?.formType ?? 'NPORT-P',
    accessionNumber: container?.accessionNumber ?? null,
    filedAt: container?.filedAt ?? null,
    // EDGAR's period of report for N-PORT is the portfolio date, not the fiscal year end
    periodOfReport: container?.periodOfReport ?? data.reportDate,
    parties,
    isSample: false,
    data,
  };
}
