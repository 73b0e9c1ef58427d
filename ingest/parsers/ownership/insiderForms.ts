// Forms 3, 4 and 5 (and their amendments): insiders' initial statements, changes and annual
// statements of beneficial ownership. Input is the ownershipDocument XML, bare or inside a full
// submission (.txt/.nc). Any value may be replaced or qualified by footnotes, so every row keeps
// the footnote ids of each field next to the values.
import type { ParsedForm, PartyRef } from '../records.ts';
import { attribute, child, children, cik, decimal, flag, holdsElement, isoDateDroppingZone, locateXml, parseXmlTree, text, type XmlNode } from '../documents/xmlForm.ts';

export interface OwnershipReportingOwner {
  cik: string | null;
  name: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  isDirector: boolean;
  isOfficer: boolean;
  officerTitle: string | null;
  isTenPercentOwner: boolean;
  isOther: boolean;
  otherText: string | null;
}

/** field name → footnote ids (e.g. { pricePerShare: ['F2'] }); only fields that carry any */
export type FootnoteRefs = Record<string, string[]>;

interface OwnershipRow {
  securityTitle: string | null;
  /** post-transaction (or held) amount: shares, or a value for securities not counted in shares */
  sharesOwnedFollowing: number | null;
  valueOwnedFollowing: number | null;
  /** 'D' direct or 'I' indirect */
  directOrIndirect: string | null;
  natureOfOwnership: string | null;
  footnoteRefs: FootnoteRefs;
}

interface TransactionFields {
  transactionDate: string | null;
  deemedExecutionDate: string | null;
  /** the form the transaction is reported on ('4', '5', ...) */
  transactionFormType: string | null;
  /** P purchase, S sale, A grant, M option exercise, F tax withholding, G gift, ... */
  transactionCode: string | null;
  equitySwapInvolved: boolean | null;
  /** 'E' early or 'L' late, when marked */
  timeliness: string | null;
  shares: number | null;
  /** some derivative transactions are reported as a dollar value rather than shares */
  totalValue: number | null;
  pricePerShare: number | null;
  /** 'A' acquired or 'D' disposed */
  acquiredDisposed: string | null;
}

interface DerivativeFields {
  conversionOrExercisePrice: number | null;
  exerciseDate: string | null;
  expirationDate: string | null;
  underlyingSecurityTitle: string | null;
  underlyingSecurityShares: number | null;
  underlyingSecurityValue: number | null;
}

export type NonDerivativeTransaction = OwnershipRow & TransactionFields;
export type NonDerivativeHolding = OwnershipRow;
export type DerivativeTransaction = OwnershipRow & TransactionFields & DerivativeFields;
export type DerivativeHolding = OwnershipRow & DerivativeFields;

export interface OwnershipData {
  schemaVersion: string | null;
  /** '3', '3/A', '4', '4/A', '5', '5/A' */
  documentType: string;
  periodOfReport: string | null;
  /** amendments: the date of the filing amended */
  dateOfOriginalSubmission: string | null;
  /** Form 3: the owner reports no securities at all */
  noSecuritiesOwned: boolean | null;
  notSubjectToSection16: boolean | null;
  /** Form 5: holdings/transactions that should have been on an earlier Form 3/4 */
  form3HoldingsReported: boolean | null;
  form4TransactionsReported: boolean | null;
  /** the 10b5-1 plan checkbox (filings since April 2023) */
  aff10b5One: boolean | null;
  issuer: { cik: string | null; name: string | null; tradingSymbol: string | null };
  reportingOwners: OwnershipReportingOwner[];
  nonDerivativeTransactions: NonDerivativeTransaction[];
  nonDerivativeHoldings: NonDerivativeHolding[];
  derivativeTransactions: DerivativeTransaction[];
  derivativeHoldings: DerivativeHolding[];
  /** footnote id → text */
  footnotes: Record<string, string>;
  remarks: string | null;
  signatures: { name: string | null; date: string | null }[];
}

/* rows ------------------------------------------------------------------------------------- */

/**
 * Reads `<field><value>…</value><footnoteId id="F1"/></field>` elements, remembering each
 * field's footnote ids under the name the record uses for it.
 */
class RowReader {
  readonly footnoteRefs: FootnoteRefs = {};

  /** the value of the `key` field of `parent`, its footnotes noted under `as` */
  value(parent: XmlNode | null, key: string, as = key): string | null {
    const field = child(parent, key);
    this.note(field, as);
    return text(field, 'value');
  }

  /** footnotes that sit on a wrapper element (e.g. transactionCoding) rather than on a value */
  note(node: XmlNode | null, as: string): void {
    const ids = children(node, 'footnoteId').map((f) => attribute(f, 'id')).filter((id): id is string => id !== null);
    if (ids.length) this.footnoteRefs[as] = [...(this.footnoteRefs[as] ?? []), ...ids];
  }
}

/** Dates are YYYY-MM-DD, sometimes with a time-zone suffix (2022-05-04-05:00). */
const date = isoDateDroppingZone;

function ownershipPart(row: XmlNode, read: RowReader): Omit<OwnershipRow, 'footnoteRefs'> {
  const post = child(row, 'postTransactionAmounts');
  const nature = child(row, 'ownershipNature');
  return {
    securityTitle: read.value(row, 'securityTitle'),
    sharesOwnedFollowing: decimal(read.value(post, 'sharesOwnedFollowingTransaction', 'sharesOwnedFollowing')),
    valueOwnedFollowing: decimal(read.value(post, 'valueOwnedFollowingTransaction', 'valueOwnedFollowing')),
    directOrIndirect: read.value(nature, 'directOrIndirectOwnership', 'directOrIndirect'),
    natureOfOwnership: read.value(nature, 'natureOfOwnership'),
  };
}

function transactionPart(row: XmlNode, read: RowReader): TransactionFields {
  const coding = child(row, 'transactionCoding');
  const amounts = child(row, 'transactionAmounts');
  read.note(coding, 'transactionCode');
  return {
    transactionDate: date(read.value(row, 'transactionDate')),
    deemedExecutionDate: date(read.value(row, 'deemedExecutionDate')),
    transactionFormType: text(coding, 'transactionFormType'),
    transactionCode: text(coding, 'transactionCode'),
    equitySwapInvolved: flag(text(coding, 'equitySwapInvolved')),
    timeliness: read.value(row, 'transactionTimeliness', 'timeliness'),
    shares: decimal(read.value(amounts, 'transactionShares', 'shares')),
    totalValue: decimal(read.value(amounts, 'transactionTotalValue', 'totalValue')),
    pricePerShare: decimal(read.value(amounts, 'transactionPricePerShare', 'pricePerShare')),
    acquiredDisposed: read.value(amounts, 'transactionAcquiredDisposedCode', 'acquiredDisposed'),
  };
}

function derivativePart(row: XmlNode, read: RowReader): DerivativeFields {
  const underlying = child(row, 'underlyingSecurity');
  return {
    conversionOrExercisePrice: decimal(read.value(row, 'conversionOrExercisePrice')),
    exerciseDate: date(read.value(row, 'exerciseDate')),
    expirationDate: date(read.value(row, 'expirationDate')),
    underlyingSecurityTitle: read.value(underlying, 'underlyingSecurityTitle'),
    underlyingSecurityShares: decimal(read.value(underlying, 'underlyingSecurityShares')),
    underlyingSecurityValue: decimal(read.value(underlying, 'underlyingSecurityValue')),
  };
}

function rows<T>(table: XmlNode | null, tag: string, build: (row: XmlNode, read: RowReader) => Omit<T, 'footnoteRefs'>): T[] {
  return children(table, tag).map((row) => {
    const read = new RowReader();
    const fields = build(row, read);
    return { ...fields, footnoteRefs: read.footnoteRefs } as T;
  });
}

function reportingOwnerOf(node: XmlNode): OwnershipReportingOwner {
  const id = child(node, 'reportingOwnerId');
  const address = child(node, 'reportingOwnerAddress');
  const relationship = child(node, 'reportingOwnerRelationship');
  return {
    cik: cik(text(id, 'rptOwnerCik')),
    name: text(id, 'rptOwnerName'),
    street1: text(address, 'rptOwnerStreet1'),
    street2: text(address, 'rptOwnerStreet2'),
    city: text(address, 'rptOwnerCity'),
    state: text(address, 'rptOwnerState'),
    zipCode: text(address, 'rptOwnerZipCode'),
    // newer schemas omit unchecked boxes entirely
    isDirector: flag(text(relationship, 'isDirector')) ?? false,
    isOfficer: flag(text(relationship, 'isOfficer')) ?? false,
    officerTitle: text(relationship, 'officerTitle'),
    isTenPercentOwner: flag(text(relationship, 'isTenPercentOwner')) ?? false,
    isOther: flag(text(relationship, 'isOther')) ?? false,
    otherText: text(relationship, 'otherText'),
  };
}

/** footnote id → its text, whitespace collapsed */
function footnotesOf(doc: XmlNode): Record<string, string> {
  const footnotes: Record<string, string> = {};
  for (const f of children(doc, 'footnotes', 'footnote')) {
    const id = attribute(f, 'id');
    if (id) footnotes[id] = (text(f) ?? '').replace(/\s+/g, ' ');
  }
  return footnotes;
}

/* document --------------------------------------------------------------------------------- */

export function parseOwnership(source: string, name: string): ParsedForm<OwnershipData> {
  const label = `ownership ${name}`;
  const { xml, container } = locateXml(source, { root: 'ownershipDocument', label, missing: 'ownershipDocument XML' });
  if (!holdsElement(xml, 'ownershipDocument')) throw new Error(`${label}: not an ownership (Form 3/4/5) document`);
  const doc = child(parseXmlTree(xml, label, { attributes: true }), 'ownershipDocument');
  const documentType = text(doc, 'documentType');
  const issuerNode = child(doc, 'issuer');
  if (!doc || !documentType || !issuerNode) throw new Error(`${label}: ownershipDocument lacks its document type or issuer`);
  const reportingOwners = children(doc, 'reportingOwner').map(reportingOwnerOf);
  if (reportingOwners.length === 0) throw new Error(`${label}: ownershipDocument names no reporting owner`);

  const nonDerivative = child(doc, 'nonDerivativeTable');
  const derivative = child(doc, 'derivativeTable');
  const data: OwnershipData = {
    schemaVersion: text(doc, 'schemaVersion'),
    documentType,
    periodOfReport: date(text(doc, 'periodOfReport')),
    dateOfOriginalSubmission: date(text(doc, 'dateOfOriginalSubmission')),
    noSecuritiesOwned: flag(text(doc, 'noSecuritiesOwned')),
    notSubjectToSection16: flag(text(doc, 'notSubjectToSection16')),
    form3HoldingsReported: flag(text(doc, 'form3HoldingsReported')),
    form4TransactionsReported: flag(text(doc, 'form4TransactionsReported')),
    aff10b5One: flag(text(doc, 'aff10b5One')),
    issuer: { cik: cik(text(issuerNode, 'issuerCik')), name: text(issuerNode, 'issuerName'), tradingSymbol: text(issuerNode, 'issuerTradingSymbol') },
    reportingOwners,
    nonDerivativeTransactions: rows<NonDerivativeTransaction>(nonDerivative, 'nonDerivativeTransaction', (r, read) => ({ ...ownershipPart(r, read), ...transactionPart(r, read) })),
    nonDerivativeHoldings: rows<NonDerivativeHolding>(nonDerivative, 'nonDerivativeHolding', (r, read) => ownershipPart(r, read)),
    derivativeTransactions: rows<DerivativeTransaction>(derivative, 'derivativeTransaction', (r, read) => ({ ...ownershipPart(r, read), ...transactionPart(r, read), ...derivativePart(r, read) })),
    derivativeHoldings: rows<DerivativeHolding>(derivative, 'derivativeHolding', (r, read) => ({ ...ownershipPart(r, read), ...derivativePart(r, read) })),
    footnotes: footnotesOf(doc),
    remarks: text(doc, 'remarks'),
    signatures: children(doc, 'ownerSignature').map((s) => ({ name: text(s, 'signatureName'), date: date(text(s, 'signatureDate')) })),
  };

  const parties: PartyRef[] = [
    { cik: data.issuer.cik, name: data.issuer.name, role: 'issuer' },
    ...reportingOwners.map((o): PartyRef => ({ cik: o.cik, name: o.name, role: 'reporting_owner' })),
  ];

  return {
    family: 'OWNERSHIP',
    formType: container?.formType ?? documentType,
    accessionNumber: container?.accessionNumber ?? null,
    filedAt: container?.filedAt ?? null,
    periodOfReport: data.periodOfReport ?? container?.periodOfReport ?? null,
    parties,
    isSample: false,
    data,
  };
}
