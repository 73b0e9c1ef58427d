// Form 13F (13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A): an institutional manager's quarterly report.
// The primary document carries the cover page, signature and summary; the information table
// lists the holdings. Input is a full submission (.txt or .nc) or a standalone primary_doc.xml.
import type { ParsedForm, PartyRef } from '../records.ts';
import type { SgmlSubmission } from '../documents/sgml.ts';
import { child, children, cik, decimal, flag, holdsElement, isoDateDroppingZone, locateXml, parseXmlTree, text, type XmlNode } from '../documents/xmlForm.ts';

export interface Form13fManagerRef {
  /** the sequence number holdings use in their other-manager column; null on the cover page list */
  sequenceNumber: number | null;
  cik: string | null;
  name: string | null;
  form13FFileNumber: string | null;
  crdNumber: string | null;
  secFileNumber: string | null;
}

export interface Form13fHolding {
  issuerName: string | null;
  classTitle: string | null;
  cusip: string | null;
  figi: string | null;
  /** as reported, in `valueUnit` */
  value: number | null;
  /** whole dollars: `value`, or `value` × 1000 for a thousands filing (decimal shift, no rounding) */
  valueUsd: number | null;
  sharesOrPrincipalAmount: number | null;
  /** 'SH' shares or 'PRN' principal amount */
  sharesOrPrincipalType: string | null;
  putCall: string | null;
  /** 'SOLE', 'DFND' (shared-defined) or 'OTR' (shared-other) */
  investmentDiscretion: string | null;
  /** sequence numbers of the included managers, as filed (e.g. "1,3") */
  otherManagers: string | null;
  votingSole: number | null;
  votingShared: number | null;
  votingNone: number | null;
}

export interface Form13fData {
  schemaVersion: string | null;
  /** YYYY-MM-DD, the quarter end the report covers */
  reportPeriod: string | null;
  /** '13F HOLDINGS REPORT', '13F NOTICE REPORT' or '13F COMBINATION REPORT' */
  reportType: string | null;
  isAmendment: boolean | null;
  amendmentNumber: number | null;
  /** 'RESTATEMENT' or 'NEW HOLDINGS' */
  amendmentType: string | null;
  confidentialTreatmentDeniedOrExpired: boolean | null;
  manager: {
    cik: string | null;
    name: string | null;
    street1: string | null;
    street2: string | null;
    city: string | null;
    stateOrCountry: string | null;
    zipCode: string | null;
    form13FFileNumber: string | null;
    crdNumber: string | null;
    secFileNumber: string | null;
  };
  /** cover page: managers whose reports cover this manager's holdings (notice and combination reports) */
  otherReportingManagers: Form13fManagerRef[];
  /** summary page: other included managers, numbered for the holdings' other-manager column */
  includedManagers: Form13fManagerRef[];
  additionalInformation: string | null;
  signature: {
    name: string | null;
    title: string | null;
    phone: string | null;
    signature: string | null;
    city: string | null;
    stateOrCountry: string | null;
    date: string | null;
  };
  /** null for a notice report, which has no summary page */
  summary: {
    otherIncludedManagersCount: number | null;
    tableEntryTotal: number | null;
    tableValueTotal: number | null;
    tableValueTotalUsd: number | null;
    isConfidentialOmitted: boolean | null;
  } | null;
  /** the unit of `value` and `tableValueTotal`; null when the filing reports no values */
  valueUnit: 'dollars' | 'thousands' | null;
  /** how the unit was decided: the filing-date rule, and price evidence when it overrides it */
  valueUnitReason: string | null;
  /** null when the input carries no information table (notice report, standalone primary doc) */
  holdings: Form13fHolding[] | null;
}

/* value units ------------------------------------------------------------------------------ */

// The SEC's 2022 Form 13F amendments moved values from thousands to whole dollars for filings
// made on or after 2023-01-03 (the first report affected is the 2022-12-31 quarter). The unit
// belongs to the filing, not the period: a late filing for an older quarter made after that date
// uses the new form and dollars, and some filers kept reporting thousands after it. So the filing
// date gives the expected unit, and the holdings' own prices override it when they clearly disagree.
const WHOLE_DOLLAR_FILINGS_FROM = '2023-01-03';

function unitByRule(filedAt: string | null, signedAt: string | null, period: string | null): { unit: 'dollars' | 'thousands'; reason: string } {
  // A standalone primary doc has no filing date; it is signed on or before the day it is filed.
  const [basis, day] = filedAt ? ['filed', filedAt] : signedAt ? ['signed', signedAt] : period ? ['period', period] : [null, null];
  if (!basis || !day) return { unit: 'dollars', reason: 'no filing date, signature date or period: assumed whole dollars' };
  const threshold = basis === 'period' ? '2022-12-31' : WHOLE_DOLLAR_FILINGS_FROM;
  const unit = day >= threshold ? 'dollars' : 'thousands';
  return { unit, reason: `${basis} ${day}, ${unit === 'dollars' ? 'on or after' : 'before'} ${threshold}: ${unit} by rule` };
}

// Read as dollars, value/shares is a share price. A thousands filing puts nearly every equity
// row under $1 a share; a dollars filing has a median share price far above $10, which read as
// thousands would be over $10,000 a share. Portfolios between the two (e.g. a thousands filing
// of pre-split >$1000 mega-caps, or penny stocks in dollars) are left to the rule.
const MIN_PRICED_ROWS = 3;
const DOLLARS_MEDIAN_PRICE = 10;

function unitByEvidence(holdings: Form13fHolding[]): { unit: 'dollars' | 'thousands'; reason: string } | null {
  const prices = holdings
    .filter((h) => h.sharesOrPrincipalType?.toUpperCase() === 'SH' && !h.putCall && (h.sharesOrPrincipalAmount ?? 0) > 0 && (h.value ?? 0) > 0)
    .map((h) => h.value! / h.sharesOrPrincipalAmount!)
    .sort((a, b) => a - b);
  if (prices.length < MIN_PRICED_ROWS) return null;
  const underOneDollar = prices.filter((p) => p < 1).length;
  const mid = Math.floor(prices.length / 2);
  const median = prices.length % 2 ? prices[mid]! : (prices[mid - 1]! + prices[mid]!) / 2;
  if (underOneDollar * 2 > prices.length) {
    return { unit: 'thousands', reason: `${underOneDollar} of ${prices.length} share rows would be priced under $1 if read as dollars: thousands by evidence` };
  }
  if (median >= DOLLARS_MEDIAN_PRICE) {
    return { unit: 'dollars', reason: `median value per share ${median.toFixed(2)} would be over $${DOLLARS_MEDIAN_PRICE},000 a share if read as thousands: dollars by evidence` };
  }
  return null;
}

/** `value` × 1000 by moving the decimal point in its text, so no floating-point product. */
function thousandsToDollars(value: number): number {
  const [whole, fraction = ''] = String(value).split('.');
  const shifted = `${whole}${fraction.padEnd(3, '0').slice(0, 3)}.${fraction.slice(3) || '0'}`;
  return Number(shifted);
}

/* sections --------------------------------------------------------------------------------- */

function managerRef(node: XmlNode | null, sequenceNumber: number | null): Form13fManagerRef {
  return {
    sequenceNumber,
    cik: cik(text(node, 'cik')),
    name: text(node, 'name'),
    form13FFileNumber: text(node, 'form13FFileNumber'),
    crdNumber: text(node, 'crdNumber'),
    secFileNumber: text(node, 'secFileNumber'),
  };
}

function holdingOf(row: XmlNode): Form13fHolding {
  const amount = child(row, 'shrsOrPrnAmt');
  const voting = child(row, 'votingAuthority');
  const value = decimal(text(row, 'value'));
  return {
    issuerName: text(row, 'nameOfIssuer'),
    classTitle: text(row, 'titleOfClass'),
    cusip: text(row, 'cusip'),
    figi: text(row, 'figi'),
    value,
    valueUsd: value,
    sharesOrPrincipalAmount: decimal(text(amount, 'sshPrnamt')),
    sharesOrPrincipalType: text(amount, 'sshPrnamtType'),
    putCall: text(row, 'putCall'),
    investmentDiscretion: text(row, 'investmentDiscretion'),
    otherManagers: text(row, 'otherManager'),
    votingSole: decimal(text(voting, 'Sole')),
    votingShared: decimal(text(voting, 'Shared')),
    votingNone: decimal(text(voting, 'None')),
  };
}

function locateDocuments(source: string, name: string): { primary: string; infoTable: string | null; container: SgmlSubmission | null } {
  const label = `13F ${name}`;
  const { xml: primary, container } = locateXml(source, { root: 'edgarSubmission', label, missing: 'XML 13F primary document' });
  if (!container) {
    if (!holdsElement(primary, 'edgarSubmission')) throw new Error(`${label}: not a 13F primary document or submission`);
    return { primary, infoTable: null, container };
  }
  const infoTable = container.documents.find((d) => d.type.toUpperCase() === 'INFORMATION TABLE' || holdsElement(d.text, 'informationTable'));
  return { primary, infoTable: infoTable?.text ?? null, container };
}

export function parseForm13f(source: string, name: string): ParsedForm<Form13fData> {
  const { primary, infoTable, container } = locateDocuments(source, name);
  const submission = child(parseXmlTree(primary, `13F ${name} (primary document)`), 'edgarSubmission');
  const form = child(submission, 'formData');
  const cover = child(form, 'coverPage');
  if (!submission || !cover) throw new Error(`13F ${name}: primary document has no cover page`);
  const header = child(submission, 'headerData');
  const filerInfo = child(header, 'filerInfo');
  const filing = child(cover, 'filingManager');
  const address = child(filing, 'address');
  const signatureBlock = child(form, 'signatureBlock');
  const summaryPage = child(form, 'summaryPage');
  const amendment = child(cover, 'amendmentInfo');

  const reportType = text(cover, 'reportType');
  const declaredType = text(header, 'submissionType') ?? container?.formType ?? null;
  const isNotice = /NOTICE/i.test(reportType ?? '') || /13F-NT/i.test(declaredType ?? '');
  const formType = declaredType ?? (isNotice ? '13F-NT' : '13F-HR');
  if (container && !isNotice && !infoTable) throw new Error(`13F ${name}: holdings report without an information table`);

  let holdings: Form13fHolding[] | null = null;
  if (infoTable) {
    const tree = parseXmlTree(infoTable, `13F ${name} (information table)`);
    if (!('informationTable' in tree)) throw new Error(`13F ${name}: information table has no informationTable element`);
    holdings = children(tree, 'informationTable', 'infoTable').map(holdingOf);
  }

  // 13F dates are MM-DD-YYYY; a YYYY-MM-DD start is taken too.
  const signedAt = isoDateDroppingZone(text(signatureBlock, 'signatureDate'));
  const reportPeriod = isoDateDroppingZone(text(cover, 'reportCalendarOrQuarter')) ?? isoDateDroppingZone(text(filerInfo, 'periodOfReport'));
  const filedAt = container?.filedAt ?? null;
  const tableValueTotal = decimal(text(summaryPage, 'tableValueTotal'));
  const reportsValues = summaryPage !== null || (holdings?.length ?? 0) > 0;

  let valueUnit: Form13fData['valueUnit'] = null;
  let valueUnitReason: string | null = null;
  if (reportsValues) {
    const rule = unitByRule(filedAt, signedAt, reportPeriod);
    const evidence = holdings ? unitByEvidence(holdings) : null;
    valueUnit = evidence?.unit ?? rule.unit;
    valueUnitReason = evidence ? `${rule.reason}; ${evidence.reason}` : rule.reason;
  }
  const toUsd = (value: number | null) => (value == null || valueUnit !== 'thousands' ? value : thousandsToDollars(value));
  if (holdings) for (const h of holdings) h.valueUsd = toUsd(h.value);

  const managerCik = cik(text(filerInfo, 'filer', 'credentials', 'cik')) ?? container?.filers[0]?.cik ?? null;
  const data: Form13fData = {
    schemaVersion: text(submission, 'schemaVersion'),
    reportPeriod,
    reportType,
    isAmendment: flag(text(cover, 'isAmendment')),
    amendmentNumber: decimal(text(cover, 'amendmentNo')),
    amendmentType: text(amendment, 'amendmentType'),
    confidentialTreatmentDeniedOrExpired: flag(text(amendment, 'confDeniedExpired')),
    manager: {
      cik: managerCik,
      name: text(filing, 'name'),
      street1: text(address, 'street1'),
      street2: text(address, 'street2'),
      city: text(address, 'city'),
      stateOrCountry: text(address, 'stateOrCountry'),
      zipCode: text(address, 'zipCode'),
      form13FFileNumber: text(cover, 'form13FFileNumber'),
      crdNumber: text(cover, 'crdNumber'),
      secFileNumber: text(cover, 'secFileNumber'),
    },
    otherReportingManagers: children(cover, 'otherManagersInfo', 'otherManager').map((m) => managerRef(m, null)),
    includedManagers: children(summaryPage, 'otherManagers2Info', 'otherManager2').map((m) => managerRef(child(m, 'otherManager'), decimal(text(m, 'sequenceNumber')))),
    additionalInformation: text(cover, 'additionalInformation'),
    signature: {
      name: text(signatureBlock, 'name'),
      title: text(signatureBlock, 'title'),
      phone: text(signatureBlock, 'phone'),
      signature: text(signatureBlock, 'signature'),
      city: text(signatureBlock, 'city'),
      stateOrCountry: text(signatureBlock, 'stateOrCountry'),
      date: signedAt,
    },
    summary: summaryPage
      ? {
          otherIncludedManagersCount: decimal(text(summaryPage, 'otherIncludedManagersCount')),
          tableEntryTotal: decimal(text(summaryPage, 'tableEntryTotal')),
          tableValueTotal,
          tableValueTotalUsd: toUsd(tableValueTotal),
          isConfidentialOmitted: flag(text(summaryPage, 'isConfidentialOmitted')),
        }
      : null,
    valueUnit,
    valueUnitReason,
    holdings,
  };

  // The filing manager comes first: the loader files the record under the first manager with a CIK.
  const parties: PartyRef[] = [{ cik: managerCik, name: data.manager.name ?? container?.filers[0]?.name ?? null, role: 'manager' }];
  for (const other of [...data.otherReportingManagers, ...data.includedManagers]) {
    if (!parties.some((p) => (other.cik && p.cik === other.cik) || (other.name && p.name === other.name))) parties.push({ cik: other.cik, name: other.name, role: 'manager' });
  }

  return {
    family: '13F',
    formType,
    accessionNumber: container?.accessionNumber ?? null,
    filedAt,
    periodOfReport: container?.periodOfReport ?? reportPeriod,
    parties,
    isSample: false,
    data,
  };
}
