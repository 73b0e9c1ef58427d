// Form N-CEN: the annual census report of a registered investment company. The XML is large
// (every director's other boards, every broker, every custodian per series); this keeps what a
// user asks of it — who the registrant and its funds are, what kind of funds, and who serves
// them (advisers, custodians, transfer agents, administrators, underwriters, auditor, ETFs'
// authorized participants) — and leaves out commissions, credit lines and lending detail.
import type { ParsedForm, PartyRef } from '../records.ts';
import { attribute, child, children, cik, decimal, flag, isoDate, locateXml, parseXmlTree, text, texts, type XmlNode } from '../documents/xmlForm.ts';

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

/* values ----------------------------------------------------------------------------------- */

/** N-CEN writes 'N/A' where an item does not apply; that is an absent value here. */
const applicable = (value: string | null) => (value?.toUpperCase() === 'N/A' ? null : value);
/** The text of an item, null when absent or 'N/A'. */
const answer = (node: XmlNode | null, ...path: string[]) => applicable(text(node, ...path));
/** The text of an attribute, null when absent or 'N/A'. */
const answerAttribute = (node: XmlNode | null, name: string) => applicable(attribute(node, name));

/* service providers ------------------------------------------------------------------------ */

// Each role repeats one pattern under its own prefix: <transferAgentName>, <transferAgentFileNo>,
// <transferAgentLei>, <transferAgentStateCountry transferAgentState=".." transferAgentCountry="..">,
// <isTransferAgentAffiliated>; some roles spell it FileNumber/CrdNumber or put the country in an
// element. `stem` is the prefix with a capital, for the is…Affiliated flag.
function provider(node: XmlNode, prefix: string, stem = prefix[0]!.toUpperCase() + prefix.slice(1)): NcenServiceProvider {
  const location = child(node, `${prefix}StateCountry`);
  return {
    name: answer(node, `${prefix}Name`),
    fileNumber: answer(node, `${prefix}FileNo`) ?? answer(node, `${prefix}FileNumber`),
    crdNumber: answer(node, `${prefix}CrdNo`) ?? answer(node, `${prefix}CrdNumber`),
    lei: answer(node, `${prefix}Lei`),
    state: answerAttribute(location, `${prefix}State`),
    country: answerAttribute(location, `${prefix}Country`) ?? answer(node, `${prefix}Country`),
    isAffiliated: flag(text(node, `is${stem}Affiliated`) ?? text(node, `is${stem}AffiliatedWithRegistrant`)),
  };
}

/** A provider named 'N/A' is the filer saying there is none. */
const providers = (parent: XmlNode | null, wrapper: string, item: string, prefix: string, stem?: string) =>
  children(parent, wrapper, item)
    .map((n) => provider(n, prefix, stem))
    .filter((p) => p.name !== null);

function custodianOf(node: XmlNode): NcenCustodian {
  return { ...provider(node, 'custodian'), isSubCustodian: flag(text(node, 'isSubCustodian')), custodyType: answer(node, 'custodyType') };
}

function etfOf(node: XmlNode): NcenEtf {
  return {
    exchanges: children(node, 'securityExchanges', 'securityExchange').map((e) => ({ exchange: answerAttribute(e, 'fundExchange'), ticker: answerAttribute(e, 'fundsTickerSymbol') })),
    creationUnitShares: decimal(text(node, 'creationUnitNumOfShares')),
    isInKind: flag(text(node, 'isInKindETF')),
    authorizedParticipants: children(node, 'authorizedParticipants', 'authorizedParticipant').map((ap) => ({
      name: answerAttribute(ap, 'authorizedParticipantName'),
      fileNumber: answerAttribute(ap, 'authorizedParticipantFileNo'),
      crdNumber: answerAttribute(ap, 'authorizedParticipantCrdNo'),
      lei: answerAttribute(ap, 'authorizedParticipantLei'),
      purchaseValue: decimal(attribute(ap, 'authorizedParticipantPurchaseValue')),
      redeemValue: decimal(attribute(ap, 'authorizedParticipantRedeemValue')),
    })),
  };
}

function seriesOf(node: XmlNode, etfs: Map<string, XmlNode>): NcenSeries {
  const seriesId = answer(node, 'mgmtInvSeriesId');
  // fundType sits under <fundTypes> in newer schemas and directly on the series in older ones
  const fundTypes = [...texts(node, 'fundTypes', 'fundType'), ...texts(node, 'fundType')].map(applicable).filter((t): t is string => t !== null);
  const etfNode = seriesId ? etfs.get(seriesId) : undefined;
  return {
    name: answer(node, 'mgmtInvFundName'),
    seriesId,
    lei: answer(node, 'mgmtInvLei'),
    isFirstFiling: flag(text(node, 'isFirstFilingByFund')),
    fundTypes,
    isEtf: etfNode !== undefined || fundTypes.some((t) => /exchange-traded/i.test(t)),
    isIndexFund: fundTypes.some((t) => /^index fund/i.test(t)),
    isNonDiversified: flag(text(node, 'isNonDiversifiedCompany')),
    classes: children(node, 'sharesOutstandings', 'sharesOutstanding').map((c) => ({
      classId: answerAttribute(c, 'sharesOutstandingClassId'),
      name: answerAttribute(c, 'sharesOutstandingClassName'),
      ticker: answerAttribute(c, 'sharesOutstandingTickerSymbol'),
    })),
    monthlyAverageNetAssets: decimal(text(node, 'mnthlyAvgNetAssets')),
    investmentAdvisers: providers(node, 'investmentAdvisers', 'investmentAdviser', 'investmentAdviser'),
    subAdvisers: providers(node, 'subAdvisers', 'subAdviser', 'subAdviser'),
    transferAgents: providers(node, 'transferAgents', 'transferAgent', 'transferAgent'),
    custodians: children(node, 'custodians', 'custodian').map(custodianOf).filter((c) => c.name !== null),
    administrators: providers(node, 'admins', 'admin', 'admin'),
    shareholderServicingAgents: providers(node, 'shareholderServicingAgents', 'shareholderServicingAgent', 'shareholderServiceAgent'),
    securitiesLendingAgents: providers(node, 'securityLendings', 'securityLending', 'securitiesAgent'),
    etf: etfNode ? etfOf(etfNode) : null,
  };
}

/* document --------------------------------------------------------------------------------- */

export function parseNcen(source: string, name: string): ParsedForm<NcenData> {
  const label = `N-CEN ${name}`;
  const { xml, container } = locateXml(source, { root: 'edgarSubmission', label, missing: 'N-CEN XML document' });
  const submission = child(parseXmlTree(xml, label, { attributes: true }), 'edgarSubmission');
  const form = child(submission, 'formData');
  const registrantInfo = child(form, 'registrantInfo');
  if (!submission || !registrantInfo) throw new Error(`${label}: document has no N-CEN registrant information`);
  const header = child(submission, 'headerData');
  const general = child(form, 'generalInfo');
  const signature = child(form, 'signature');

  const etfs = new Map<string, XmlNode>();
  for (const etf of children(form, 'exchangeSeriesInfo', 'exchangeTradedFund')) {
    const id = answer(etf, 'etfSeriesId');
    if (id) etfs.set(id, etf);
  }

  const data: NcenData = {
    schemaVersion: answer(submission, 'schemaVersion'),
    reportPeriodEnd: isoDate(attribute(general, 'reportEndingPeriod')),
    isReportPeriodLessThan12Months: flag(attribute(general, 'isReportPeriodLt12')),
    registrant: {
      name: answer(registrantInfo, 'registrantFullName'),
      cik: cik(text(registrantInfo, 'registrantCik')) ?? cik(text(header, 'filerInfo', 'filer', 'issuerCredentials', 'cik')),
      fileNumber: answer(registrantInfo, 'investmentCompFileNo'),
      lei: answer(registrantInfo, 'registrantLei'),
      street1: answer(registrantInfo, 'registrantstreet1'),
      street2: answer(registrantInfo, 'registrantstreet2'),
      city: answer(registrantInfo, 'registrantcity'),
      state: answer(registrantInfo, 'registrantstate'),
      country: answer(registrantInfo, 'registrantcountry'),
      zipCode: answer(registrantInfo, 'registrantzipCode'),
      phone: answer(registrantInfo, 'registrantphoneNumber'),
      websites: children(registrantInfo, 'websites', 'website').map((w) => answerAttribute(w, 'webpage')).filter((w): w is string => w !== null),
      classificationType: answer(registrantInfo, 'registrantClassificationType'),
      totalSeries: decimal(text(registrantInfo, 'totalSeries')),
      familyName: answerAttribute(child(registrantInfo, 'registrantFamilyInvComp'), 'familyInvCompFullName'),
      isFirstFiling: flag(text(registrantInfo, 'isRegistrantFirstFiling')),
      isLastFiling: flag(text(registrantInfo, 'isRegistrantLastFiling')),
    },
    directors: children(registrantInfo, 'directors', 'director').map((d) => ({
      name: answer(d, 'directorName'),
      crdNumber: answer(d, 'crdNumber'),
      isInterestedPerson: flag(text(d, 'isDirectorInterestedPerson')),
    })),
    chiefComplianceOfficers: children(registrantInfo, 'chiefComplianceOfficers', 'chiefComplianceOfficer').map((c) => ({ name: answer(c, 'ccoName'), crdNumber: answer(c, 'crdNumber') })),
    principalUnderwriters: children(registrantInfo, 'principalUnderwriters', 'principalUnderwriter').map((u) => ({
      ...provider(u, 'principalUnderwriter'),
      // the schema capitalises this one differently: principalUnderWriterStateCountry
      state: answerAttribute(child(u, 'principalUnderWriterStateCountry'), 'principalUnderWriterState'),
      country: answerAttribute(child(u, 'principalUnderWriterStateCountry'), 'principalUnderWriterCountry'),
    })),
    publicAccountants: children(registrantInfo, 'publicAccountants', 'publicAccountant').map((a) => ({ ...provider(a, 'publicAccountant'), pcaobNumber: answer(a, 'pcaobNumber') })),
    isPublicAccountantChanged: flag(text(registrantInfo, 'isPublicAccountantChanged')),
    isMaterialWeakness: flag(text(registrantInfo, 'isMaterialWeakness')),
    isOpinionOffered: flag(text(registrantInfo, 'isOpinionOffered')),
    series: children(form, 'managementInvestmentQuestionSeriesInfo', 'managementInvestmentQuestion').map((s) => seriesOf(s, etfs)),
    signature: {
      registrantName: answerAttribute(signature, 'registrantSignedName'),
      signer: answerAttribute(signature, 'signature'),
      title: answerAttribute(signature, 'title'),
      date: isoDate(attribute(signature, 'signedDate')),
    },
  };

  return {
    family: 'NCEN',
    formType: answer(header, 'submissionType') ?? container?.formType ?? 'N-CEN',
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
