// Forms 3, 4 and 5 (and their amendments): insiders' initial statements, changes and annual
// statements of beneficial ownership. Input is the ownershipDocument XML, bare or inside a full
// submission (.txt/.nc). Any value may be replaced or qualified by footnotes, so every row keeps
// the footnote ids of each field next to the values.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ParsedForm, PartyRef } from './records.ts';
import { isSgmlSubmission, parseSgmlSubmission, type SgmlSubmission } from './sgml.ts';

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

function num(value: string | null): number | null {
  const clean = value?.replace(/,/g, '');
  return clean != null && /^-?\d*\.?\d+$/.test(clean) ? Number(clean) : null;
}

function bool(node: unknown): boolean | null {
  const value = text(node)?.toLowerCase();
  if (value === '1' || value === 'true' || value === 'y') return true;
  if (value === '0' || value === 'false' || value === 'n') return false;
  return null;
}

/** Dates are YYYY-MM-DD, sometimes with a time-zone suffix (2022-05-04-05:00). */
const date = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);

const cik = (node: unknown) => text(node)?.padStart(10, '0') ?? null;

/* rows ------------------------------------------------------------------------------------- */

/**
 * Reads `<field><value>…</value><footnoteId id="F1"/></field>` elements, remembering each
 * field's footnote ids under the name the record uses for it.
 */
class RowReader {
  readonly footnoteRefs: FootnoteRefs = {};

  value(node: unknown, as: string): string | null {
    this.note(node, as);
    return text(child(node, 'value'));
  }

  /** footnotes that sit on a wrapper element (e.g. transactionCoding) rather than on a value */
  note(node: unknown, as: string): void {
    const ids = list(child(node, 'footnoteId')).map((f) => text(f['@id'])).filter((id): id is string => id !== null);
    if (ids.length) this.footnoteRefs[as] = [...(this.footnoteRefs[as] ?? []), ...ids];
  }
}

function ownershipPart(row: Node, read: RowReader): Omit<OwnershipRow, 'footnoteRefs'> {
  const post = child(row, 'postTransactionAmounts');
  const nature = child(row, 'ownershipNature');
  return {
    securityTitle: read.value(row.securityTitle, 'securityTitle'),
    sharesOwnedFollowing: num(read.value(post?.sharesOwnedFollowingTransaction, 'sharesOwnedFollowing')),
    valueOwnedFollowing: num(read.value(post?.valueOwnedFollowingTransaction, 'valueOwnedFollowing')),
    directOrIndirect: read.value(nature?.directOrIndirectOwnership, 'directOrIndirect'),
    natureOfOwnership: read.value(nature?.natureOfOwnership, 'natureOfOwnership'),
  };
}

function transactionPart(row: Node, read: RowReader): TransactionFields {
  const coding = child(row, 'transactionCoding');
  const amounts = child(row, 'transactionAmounts');
  read.note(coding, 'transactionCode');
  return {
    transactionDate: date(read.value(row.transactionDate, 'transactionDate')),
    deemedExecutionDate: date(read.value(row.deemedExecutionDate, 'deemedExecutionDate')),
    transactionFormType: text(coding?.transactionFormType),
    transactionCode: text(coding?.transactionCode),
    equitySwapInvolved: bool(coding?.equitySwapInvolved),
    timeliness: read.value(row.transactionTimeliness, 'timeliness'),
    shares: num(read.value(amounts?.transactionShares, 'shares')),
    totalValue: num(read.value(amounts?.transactionTotalValue, 'totalValue')),
    pricePerShare: num(read.value(amounts?.transactionPricePerShare, 'pricePerShare')),
    acquiredDisposed: read.value(amounts?.transactionAcquiredDisposedCode, 'acquiredDisposed'),
  };
}

function derivativePart(row: Node, read: RowReader): DerivativeFields {
  const underlying = child(row, 'underlyingSecurity');
  return {
    conversionOrExercisePrice: num(read.value(row.conversionOrExercisePrice, 'conversionOrExercisePrice')),
    exerciseDate: date(read.value(row.exerciseDate, 'exerciseDate')),
    expirationDate: date(read.value(row.expirationDate, 'expirationDate')),
    underlyingSecurityTitle: read.value(underlying?.underlyingSecurityTitle, 'underlyingSecurityTitle'),
    underlyingSecurityShares: num(read.value(underlying?.underlyingSecurityShares, 'underlyingSecurityShares')),
    underlyingSecurityValue: num(read.value(underlying?.underlyingSecurityValue, 'underlyingSecurityValue')),
  };
}

function rows<T>(table: Node | undefined, tag: string, build: (row: Node, read: RowReader) => Omit<T, 'footnoteRefs'>): T[] {
  return list(child(table, tag)).map((row) => {
    const read = new RowReader();
    const fields = build(row, read);
    return { ...fields, footnoteRefs: read.footnoteRefs } as T;
  });
}

function reportingOwnerOf(node: Node): OwnershipReportingOwner {
  const id = child(node, 'reportingOwnerId');
  const address = child(node, 'reportingOwnerAddress');
  const relationship = child(node, 'reportingOwnerRelationship');
  return {
    cik: cik(id?.rptOwnerCik),
    name: text(id?.rptOwnerName),
    street1: text(address?.rptOwnerStreet1),
    street2: text(address?.rptOwnerStreet2),
    city: text(address?.rptOwnerCity),
    state: text(address?.rptOwnerState),
    zipCode: text(address?.rptOwnerZipCode),
    // newer schemas omit unchecked boxes entirely
    isDirector: bool(relationship?.isDirector) ?? false,
    isOfficer: bool(relationship?.isOfficer) ?? false,
    officerTitle: text(relationship?.officerTitle),
    isTenPercentOwner: bool(relationship?.isTenPercentOwner) ?? false,
    isOther: bool(relationship?.isOther) ?? false,
    otherText: text(relationship?.otherText),
  };
}

/* document --------------------------------------------------------------------------------- */

function locateDocument(source: string, name: string): { document: string; container: SgmlSubmission | null } {
  if (!isSgmlSubmission(source)) return { document: source, container: null };
  const container = parseSgmlSubmission(source);
  const opened = source.match(/<DOCUMENT>/g)?.length ?? 0;
  if (opened !== container.documents.length) throw new Error(`ownership ${name}: truncated submission (${opened} documents opened, ${container.documents.length} complete)`);
  const document = container.documents.find((d) => /<ownershipDocument[\s>]/.test(d.text));
  if (!document) throw new Error(`ownership ${name}: submission has no ownershipDocument XML`);
  return { document: document.text, container };
}

export function parseOwnership(source: string, name: string): ParsedForm<OwnershipData> {
  const { document, container } = locateDocument(source, name);
  const trimmed = document.trim();
  if (!/<ownershipDocument[\s>]/.test(trimmed)) throw new Error(`ownership ${name}: not an ownership (Form 3/4/5) document`);
  const verdict = XMLValidator.validate(trimmed);
  if (verdict !== true) throw new Error(`ownership ${name}: not well-formed XML (${verdict.err.msg}, line ${verdict.err.line})`);
  const doc = child(xml.parse(trimmed), 'ownershipDocument');
  const documentType = text(doc?.documentType);
  const issuerNode = child(doc, 'issuer');
  if (!doc || !documentType || !issuerNode) throw new Error(`ownership ${name}: ownershipDocument lacks its document type or issuer`);
  const reportingOwners = list(doc.reportingOwner).map(reportingOwnerOf);
  if (reportingOwners.length === 0) throw new Error(`ownership ${name}: ownershipDocument names no reporting owner`);

  const nonDerivative = child(doc, 'nonDerivativeTable');
  const derivative = child(doc, 'derivativeTable');
  const footnotes: Record<string, string> = {};
  for (const f of list(child(child(doc, 'footnotes'), 'footnote'))) {
    const id = text(f['@id']);
    if (id) footnotes[id] = (text(f) ?? '').replace(/\s+/g, ' ');
  }

  const data: OwnershipData = {
    schemaVersion: text(doc.schemaVersion),
    documentType,
    periodOfReport: date(text(doc.periodOfReport)),
    dateOfOriginalSubmission: date(text(doc.dateOfOriginalSubmission)),
    noSecuritiesOwned: bool(doc.noSecuritiesOwned),
    notSubjectToSection16: bool(doc.notSubjectToSection16),
    form3HoldingsReported: bool(doc.form3HoldingsReported),
    form4TransactionsReported: bool(doc.form4TransactionsReported),
    aff10b5One: bool(doc.aff10b5One),
    issuer: { cik: cik(issuerNode.issuerCik), name: text(issuerNode.issuerName), tradingSymbol: text(issuerNode.issuerTradingSymbol) },
    reportingOwners,
    nonDerivativeTransactions: rows<NonDerivativeTransaction>(nonDerivative, 'nonDerivativeTransaction', (r, read) => ({ ...ownershipPart(r, read), ...transactionPart(r, read) })),
    nonDerivativeHoldings: rows<NonDerivativeHolding>(nonDerivative, 'nonDerivativeHolding', (r, read) => ownershipPart(r, read)),
    derivativeTransactions: rows<DerivativeTransaction>(derivative, 'derivativeTransaction', (r, read) => ({ ...ownershipPart(r, read), ...transactionPart(r, read), ...derivativePart(r, read) })),
    derivativeHoldings: rows<DerivativeHolding>(derivative, 'derivativeHolding', (r, read) => ({ ...ownershipPart(r, read), ...derivativePart(r, read) })),
    footnotes,
    remarks: text(doc.remarks),
    signatures: list(doc.ownerSignature).map((s) => ({ name: text(s.signatureName), date: date(text(s.signatureDate)) })),
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
