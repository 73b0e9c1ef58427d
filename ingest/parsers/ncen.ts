// Form N-CEN: the annual census report of a registered investment company. The XML is large
// (every director's other boards, every broker, every custodian per series); this keeps what a
// user asks of it — who the registrant and its funds are, what kind of funds, and who serves
// them (advisers, custodians, transfer agents, administrators, underwriters, auditor, ETFs'
// authorized participants) — and leaves out commissions, credit lines and lending detail.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ParsedForm, PartyRef } from './records.ts';
import { isSgmlSubmission, parseSgmlSubmission, type SgmlSubmission } from './sgml.ts';

/** An adviser, custodian, agent, ... as N-CEN lists them; fields a role lacks are null. */
export interface NcenServiceProvider {
  name: string | null;
  fileNumber: string | null;
  crdNumber: string | null;
  lei: string | null;
  state: string | null;
  country: string | null;
  isAffiliated: boolean | null;
}

export interface NcenCustodian extends NcenServiceProvider {
  isSubCustodian: boolean | null;
  custodyType: string | null;
}

export interface NcenAuthorizedParticipant {
  name: string | null;
  fileNumber: string | null;
  crdNumber: string | null;
  lei: string | null;
  /** dollar value of creation units purchased / redeemed by the AP in the period */
  purchaseValue: number | null;
  redeemValue: number | null;
}

export interface NcenEtf {
  exchanges: { exchange: string | null; ticker: string | null }[];
  creationUnitShares: number | null;
  isInKind: boolean | null;
  authorizedParticipants: NcenAuthorizedParticipant[];
}

export interface NcenSeries {
  name: string | null;
  seriesId: string | null;
  lei: string | null;
  isFirstFiling: boolean | null;
  /** item C.3 types as filed ('Exchange-Traded Fund', 'Index Fund', 'Money Market Fund', ...) */
  fundTypes: string[];
  isEtf: boolean;
  isIndexFund: boolean;
  isNonDiversified: boolean | null;
  classes: { classId: string | null; name: string | null; ticker: string | null }[];
  monthlyAverageNetAssets: number | null;
  investmentAdvisers: NcenServiceProvider[];
  subAdvisers: NcenServiceProvider[];
  transferAgents: NcenServiceProvider[];
  custodians: NcenCustodian[];
  administrators: NcenServiceProvider[];
  shareholderServicingAgents: NcenServiceProvider[];
  securitiesLendingAgents: NcenServiceProvider[];
  /** null unless the series is an exchange-traded fund */
  etf: NcenEtf | null;
}

export interface NcenData {
  schemaVersion: string | null;
  /** YYYY-MM-DD, the fiscal year end the report covers */
  reportPeriodEnd: string | null;
  isReportPeriodLessThan12Months: boolean | null;
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
    websites: string[];
    /** 'N-1A' (open-end), 'N-2' (closed-end), 'N-3', 'N-4', 'N-5', 'N-6', 'S-6' (UIT) */
    classificationType: string | null;
    totalSeries: number | null;
    familyName: string | null;
    isFirstFiling: boolean | null;
    isLastFiling: boolean | null;
  };
  directors: { name: string | null; crdNumber: string | null; isInterestedPerson: boolean | null }[];
  chiefComplianceOfficers: { name: string | null; crdNumber: string | null }[];
  principalUnderwriters: NcenServiceProvider[];
  publicAccountants: (NcenServiceProvider & { pcaobNumber: string | null })[];
  isPublicAccountantChanged: boolean | null;
  isMaterialWeakness: boolean | null;
  isOpinionOffered: boolean | null;
  series: NcenSeries[];
  signature: { registrantName: string | null; signer: string | null; title: string | null; date: string | null };
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

/** N-CEN writes 'N/A' where an item does not apply; that is an absent value here. */
function text(node: unknown): string | null {
  const raw = node && typeof node === 'object' ? (node as Node)['#text'] : node;
  if (raw == null) return null;
  const value = String(raw).trim();
  return value === '' || value.toUpperCase() === 'N/A' ? null : value;
}

function num(node: unknown): number | null {
  const value = text(node);
  return value != null && /^-?\d*\.?\d+$/.test(value) ? Number(value) : null;
}

function bool(node: unknown): boolean | null {
  const value = text(node)?.toUpperCase();
  return value === 'Y' || value === 'TRUE' ? true : value === 'N' || value === 'FALSE' ? false : null;
}

const attr = (node: unknown, name: string) => text(child(node, `@${name}`));
const cik = (node: unknown) => text(node)?.padStart(10, '0') ?? null;
const date = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);

/* service providers ------------------------------------------------------------------------ */

// Each role repeats one pattern under its own prefix: <transferAgentName>, <transferAgentFileNo>,
// <transferAgentLei>, <transferAgentStateCountry transferAgentState=".." transferAgentCountry="..">,
// <isTransferAgentAffiliated>; some roles spell it FileNumber/CrdNumber or put the country in an
// element. `stem` is the prefix with a capital, for the is…Affiliated flag.
function provider(node: Node, prefix: string, stem = prefix[0]!.toUpperCase() + prefix.slice(1)): NcenServiceProvider {
  const location = child(node, `${prefix}StateCountry`);
  return {
    name: text(node[`${prefix}Name`]),
    fileNumber: text(node[`${prefix}FileNo`] ?? node[`${prefix}FileNumber`]),
    crdNumber: text(node[`${prefix}CrdNo`] ?? node[`${prefix}CrdNumber`]),
    lei: text(node[`${prefix}Lei`]),
    state: attr(location, `${prefix}State`),
    country: attr(location, `${prefix}Country`) ?? text(node[`${prefix}Country`]),
    isAffiliated: bool(node[`is${stem}Affiliated`] ?? node[`is${stem}AffiliatedWithRegistrant`]),
  };
}

/** A provider named 'N/A' is the filer saying there is none. */
const providers = (parent: unknown, wrapper: string, item: string, prefix: string, stem?: string) =>
  list(child(child(parent, wrapper), item))
    .map((n) => provider(n, prefix, stem))
    .filter((p) => p.name !== null);

function custodianOf(node: Node): NcenCustodian {
  return { ...provider(node, 'custodian'), isSubCustodian: bool(node.isSubCustodian), custodyType: text(node.custodyType) };
}

function etfOf(node: Node): NcenEtf {
  return {
    exchanges: list(child(child(node, 'securityExchanges'), 'securityExchange')).map((e) => ({ exchange: attr(e, 'fundExchange'), ticker: attr(e, 'fundsTickerSymbol') })),
    creationUnitShares: num(node.creationUnitNumOfShares),
    isInKind: bool(node.isInKindETF),
    authorizedParticipants: list(child(child(node, 'authorizedParticipants'), 'authorizedParticipant')).map((ap) => ({
      name: attr(ap, 'authorizedParticipantName'),
      fileNumber: attr(ap, 'authorizedParticipantFileNo'),
      crdNumber: attr(ap, 'authorizedParticipantCrdNo'),
      lei: attr(ap, 'authorizedParticipantLei'),
      purchaseValue: num(attr(ap, 'authorizedParticipantPurchaseValue')),
      redeemValue: num(attr(ap, 'authorizedParticipantRedeemValue')),
    })),
  };
}

function seriesOf(node: Node, etfs: Map<string, Node>): NcenSeries {
  const seriesId = text(node.mgmtInvSeriesId);
  // fundType sits under <fundTypes> in newer schemas and directly on the series in older ones
  const fundTypes = [...list(child(node, 'fundTypes')?.fundType), ...list(node.fundType)].map(text).filter((t): t is string => t !== null);
  const etfNode = seriesId ? etfs.get(seriesId) : undefined;
  return {
    name: text(node.mgmtInvFundName),
    seriesId,
    lei: text(node.mgmtInvLei),
    isFirstFiling: bool(node.isFirstFilingByFund),
    fundTypes,
    isEtf: etfNode !== undefined || fundTypes.some((t) => /exchange-traded/i.test(t)),
    isIndexFund: fundTypes.some((t) => /^index fund/i.test(t)),
    isNonDiversified: bool(node.isNonDiversifiedCompany),
    classes: list(child(child(node, 'sharesOutstandings'), 'sharesOutstanding')).map((c) => ({
      classId: attr(c, 'sharesOutstandingClassId'),
      name: attr(c, 'sharesOutstandingClassName'),
      ticker: attr(c, 'sharesOutstandingTickerSymbol'),
    })),
    monthlyAverageNetAssets: num(node.mnthlyAvgNetAssets),
    investmentAdvisers: providers(node, 'investmentAdvisers', 'investmentAdviser', 'investmentAdviser'),
    subAdvisers: providers(node, 'subAdvisers', 'subAdviser', 'subAdviser'),
    transferAgents: providers(node, 'transferAgents', 'transferAgent', 'transferAgent'),
    custodians: list(child(child(node, 'custodians'), 'custodian')).map(custodianOf).filter((c) => c.name !== null),
    administrators: providers(node, 'admins', 'admin', 'admin'),
    shareholderServicingAgents: providers(node, 'shareholderServicingAgents', 'shareholderServicingAgent', 'shareholderServiceAgent'),
    securitiesLendingAgents: providers(node, 'securityLendings', 'securityLending', 'securitiesAgent'),
    etf: etfNode ? etfOf(etfNode) : null,
  };
}

/* document --------------------------------------------------------------------------------- */

function locateDocument(source: string, name: string): { document: string; container: SgmlSubmission | null } {
  if (!isSgmlSubmission(source)) return { document: source, container: null };
  const container = parseSgmlSubmission(source);
  const opened = source.match(/<DOCUMENT>/g)?.length ?? 0;
  if (opened !== container.documents.length) throw new Error(`N-CEN ${name}: truncated submission (${opened} documents opened, ${container.documents.length} complete)`);
  const document = container.documents.find((d) => /<edgarSubmission[\s>]/.test(d.text));
  if (!document) throw new Error(`N-CEN ${name}: submission has no N-CEN XML document`);
  return { document: document.text, container };
}

export function parseNcen(source: string, name: string): ParsedForm<NcenData> {
  const { document, container } = locateDocument(source, name);
  const trimmed = document.trim();
  const verdict = XMLValidator.validate(trimmed);
  if (verdict !== true) throw new Error(`N-CEN ${name}: not well-formed XML (${verdict.err.msg}, line ${verdict.err.line})`);
  const submission = child(xml.parse(trimmed), 'edgarSubmission');
  const form = child(submission, 'formData');
  const registrantInfo = child(form, 'registrantInfo');
  if (!submission || !registrantInfo) throw new Error(`N-CEN ${name}: document has no N-CEN registrant information`);
  const header = child(submission, 'headerData');
  const general = child(form, 'generalInfo');
  const signature = child(form, 'signature');

  const etfs = new Map<string, Node>();
  for (const etf of list(child(child(form, 'exchangeSeriesInfo'), 'exchangeTradedFund'))) {
    const id = text(etf.etfSeriesId);
    if (id) etfs.set(id, etf);
  }

  const family = child(registrantInfo, 'registrantFamilyInvComp');
  const data: NcenData = {
    schemaVersion: text(submission.schemaVersion),
    reportPeriodEnd: date(attr(general, 'reportEndingPeriod')),
    isReportPeriodLessThan12Months: bool(attr(general, 'isReportPeriodLt12')),
    registrant: {
      name: text(registrantInfo.registrantFullName),
      cik: cik(registrantInfo.registrantCik) ?? cik(child(child(child(header, 'filerInfo'), 'filer'), 'issuerCredentials')?.cik),
      fileNumber: text(registrantInfo.investmentCompFileNo),
      lei: text(registrantInfo.registrantLei),
      street1: text(registrantInfo.registrantstreet1),
      street2: text(registrantInfo.registrantstreet2),
      city: text(registrantInfo.registrantcity),
      state: text(registrantInfo.registrantstate),
      country: text(registrantInfo.registrantcountry),
      zipCode: text(registrantInfo.registrantzipCode),
      phone: text(registrantInfo.registrantphoneNumber),
      websites: list(child(child(registrantInfo, 'websites'), 'website')).map((w) => attr(w, 'webpage')).filter((w): w is string => w !== null),
      classificationType: text(registrantInfo.registrantClassificationType),
      totalSeries: num(registrantInfo.totalSeries),
      familyName: attr(family, 'familyInvCompFullName'),
      isFirstFiling: bool(registrantInfo.isRegistrantFirstFiling),
      isLastFiling: bool(registrantInfo.isRegistrantLastFiling),
    },
    directors: list(child(child(registrantInfo, 'directors'), 'director')).map((d) => ({
      name: text(d.directorName),
      crdNumber: text(d.crdNumber),
      isInterestedPerson: bool(d.isDirectorInterestedPerson),
    })),
    chiefComplianceOfficers: list(child(child(registrantInfo, 'chiefComplianceOfficers'), 'chiefComplianceOfficer')).map((c) => ({ name: text(c.ccoName), crdNumber: text(c.crdNumber) })),
    principalUnderwriters: list(child(child(registrantInfo, 'principalUnderwriters'), 'principalUnderwriter')).map((u) => ({
      ...provider(u, 'principalUnderwriter'),
      // the schema capitalises this one differently: principalUnderWriterStateCountry
      state: attr(child(u, 'principalUnderWriterStateCountry'), 'principalUnderWriterState'),
      country: attr(child(u, 'principalUnderWriterStateCountry'), 'principalUnderWriterCountry'),
    })),
    publicAccountants: list(child(child(registrantInfo, 'publicAccountants'), 'publicAccountant')).map((a) => ({ ...provider(a, 'publicAccountant'), pcaobNumber: text(a.pcaobNumber) })),
    isPublicAccountantChanged: bool(registrantInfo.isPublicAccountantChanged),
    isMaterialWeakness: bool(registrantInfo.isMaterialWeakness),
    isOpinionOffered: bool(registrantInfo.isOpinionOffered),
    series: list(child(child(form, 'managementInvestmentQuestionSeriesInfo'), 'managementInvestmentQuestion')).map((s) => seriesOf(s, etfs)),
    signature: {
      registrantName: attr(signature, 'registrantSignedName'),
      signer: attr(signature, 'signature'),
      title: attr(signature, 'title'),
      date: date(attr(signature, 'signedDate')),
    },
  };

  return {
    family: 'NCEN',
    formType: text(header?.submissionType) ?? container?.formType ?? 'N-CEN',
    accessionNumber: container?.accessionNumber ?? null,
    filedAt: container?.filedAt ?? null,
    periodOfReport: container?.periodOfReport ?? data.reportPeriodEnd,
    parties: partiesOf(data),
    isSample: false,
    data,
  };
}

/** The registrant, its funds, and (once each) the advisers, auditors and underwriters serving them. */
function partiesOf(data: NcenData): PartyRef[] {
  const parties: PartyRef[] = [{ cik: data.registrant.cik, name: data.registrant.name, role: 'filer' }];
  const add = (name: string | null, role: PartyRef['role']) => {
    if (name && !parties.some((p) => p.role === role && p.name === name)) parties.push({ cik: null, name, role });
  };
  for (const s of data.series) add(s.name, 'fund');
  for (const s of data.series) for (const a of [...s.investmentAdvisers, ...s.subAdvisers]) add(a.name, 'adviser');
  for (const a of data.publicAccountants) add(a.name, 'auditor');
  for (const u of data.principalUnderwriters) add(u.name, 'underwriter');
  return parties;
}
