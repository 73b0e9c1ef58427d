// Schedules 13D and 13G (beneficial ownership above 5%) in the XML format EDGAR requires since
// December 2024 (submission types 'SCHEDULE 13D', 'SCHEDULE 13G' and their /A amendments).
// The two schemas name the same facts differently; both read into one record.
import type { ParsedForm, PartyRef } from '../records.ts';
import { type Address, address, child, children, cik, decimal, flag, isoDate, isSecSample, latestDate, readXmlForm, required, text, texts, type XmlNode } from '../documents/xmlForm.ts';

export interface Schedule13ReportingPerson {
  name: string;
  cik: string | null;
  /** 'a' or 'b': the group box on the cover page */
  memberOfGroup: string | null;
  /** 13D cover page: source of funds codes (WC, PF, AF, OO, ...) */
  sourceOfFunds: string[];
  /** state or country code */
  citizenshipOrOrganization: string | null;
  soleVotingPower: number | null;
  sharedVotingPower: number | null;
  soleDispositivePower: number | null;
  sharedDispositivePower: number | null;
  aggregateAmountOwned: number | null;
  aggregateExcludesCertainShares: boolean | null;
  percentOfClass: number | null;
  /** codes such as IN, PN, CO, IA, OO */
  typeOfReportingPerson: string[];
  comment: string | null;
}

/** 13G item 4 as filed: free text there, unlike the cover page numbers. */
export interface Schedule13GOwnershipItem {
  amountBeneficiallyOwned: string | null;
  percentOfClass: string | null;
  soleVotingPower: string | null;
  sharedVotingPower: string | null;
  soleDispositivePower: string | null;
  sharedDispositivePower: string | null;
}

export interface Schedule13Signature {
  reportingPerson: string | null;
  signature: string | null;
  title: string | null;
  date: string | null;
}

export interface Schedule13Data {
  schedule: '13D' | '13G';
  isAmendment: boolean;
  amendmentNumber: number | null;
  previousAccessionNumber: string | null;
  filerCik: string | null;
  issuer: { cik: string | null; name: string; cusip: string | null; address: Address | null };
  securitiesClass: string | null;
  eventDate: string | null;
  /** 13G: Rule 13d-1(b), (c) or (d) */
  rulesDesignated: string[];
  /** 13D: the box for a person who earlier reported this holding on Schedule 13G */
  previouslyReportedOn13G: boolean | null;
  reportingPersons: Schedule13ReportingPerson[];
  /** 13D item 3: source and amount of funds */
  sourceOfFundsText: string | null;
  /** 13D item 4: purpose of the transaction */
  purposeOfTransaction: string | null;
  /** 13D item 5(c): transactions in the past sixty days */
  recentTransactions: string | null;
  /** 13G item 3: type of person filing (when not 'not applicable') */
  typeOfPersonFiling: string[];
  ownershipItem: Schedule13GOwnershipItem | null;
  signatures: Schedule13Signature[];
}

const formTypes = /^(SCHEDULE|SC) 13([DG])(\/A)?$/;

function reportingPersonOf(node: XmlNode, name: string): Schedule13ReportingPerson {
  // 13G nests the four powers one level down; 13D keeps them on the person.
  const powers = child(node, 'reportingPersonBeneficiallyOwnedNumberOfShares') ?? node;
  return {
    name: required(text(node, 'reportingPersonName'), 'reportingPersonName', name),
    cik: cik(text(node, 'reportingPersonCIK') ?? text(node, 'reportingCik') ?? text(node, 'reportingPersonCik')),
    memberOfGroup: text(node, 'memberOfGroup') ?? text(node, 'memberGroup'),
    sourceOfFunds: texts(node, 'fundType'),
    citizenshipOrOrganization: text(node, 'citizenshipOrOrganization'),
    soleVotingPower: decimal(text(powers, 'soleVotingPower')),
    sharedVotingPower: decimal(text(powers, 'sharedVotingPower')),
    soleDispositivePower: decimal(text(powers, 'soleDispositivePower')),
    sharedDispositivePower: decimal(text(powers, 'sharedDispositivePower')),
    aggregateAmountOwned: decimal(text(node, 'aggregateAmountOwned') ?? text(node, 'reportingPersonBeneficiallyOwnedAggregateNumberOfShares')),
    aggregateExcludesCertainShares: flag(text(node, 'isAggregateExcludeShares') ?? text(node, 'aggregateAmountExcludesCertainSharesFlag')),
    percentOfClass: decimal(text(node, 'percentOfClass') ?? text(node, 'classPercent')),
    typeOfReportingPerson: texts(node, 'typeOfReportingPerson'),
    comment: text(node, 'commentContent') ?? text(node, 'comments'),
  };
}

function ownershipItemOf(item4: XmlNode | null): Schedule13GOwnershipItem | null {
  if (!item4) return null;
  const shares = child(item4, 'numberOfSharesPersonHas');
  return {
    amountBeneficiallyOwned: text(item4, 'amountBeneficiallyOwned'),
    percentOfClass: text(item4, 'classPercent'),
    soleVotingPower: text(shares, 'solePowerOrDirectToVote'),
    sharedVotingPower: text(shares, 'sharedPowerOrDirectToVote'),
    soleDispositivePower: text(shares, 'solePowerOrDirectToDispose'),
    sharedDispositivePower: text(shares, 'sharedPowerOrDirectToDispose'),
  };
}

function signaturesOf(form: XmlNode): Schedule13Signature[] {
  const blocks = [
    ...children(form, 'signatureInfo', 'signaturePerson').map((p) => ({ person: text(p, 'signatureReportingPerson'), node: p })),
    ...children(form, 'signatureInformation').map((p) => ({ person: text(p, 'reportingPersonName'), node: p })),
  ];
  return blocks.flatMap(({ person, node }) =>
    children(node, 'signatureDetails').map((d) => ({ reportingPerson: person, signature: text(d, 'signature'), title: text(d, 'title'), date: isoDate(text(d, 'date')) })),
  );
}

export function parseSchedule13(source: string, name: string): ParsedForm<Schedule13Data> {
  const { documents, container } = readXmlForm(source, name, ['edgarSubmission']);
  const root = documents[0]!.node;
  const formType = required(text(root, 'headerData', 'submissionType') ?? container?.formType ?? null, 'submissionType', name);
  const kind = formType.match(formTypes);
  if (!kind) throw new Error(`${name}: not a Schedule 13D or 13G (submissionType ${formType})`);
  const form = required(child(root, 'formData'), 'formData', name);
  const cover = required(child(form, 'coverPageHeader'), 'coverPageHeader', name);
  const issuerInfo = required(child(cover, 'issuerInfo'), 'issuerInfo', name);
  const schedule = kind[2] === 'D' ? '13D' : '13G';

  const issuer = {
    cik: cik(text(issuerInfo, 'issuerCIK') ?? text(issuerInfo, 'issuerCik')),
    name: required(text(issuerInfo, 'issuerName'), 'issuerName', name),
    cusip: text(issuerInfo, 'issuerCUSIP') ?? text(issuerInfo, 'issuerCusip'),
    address: address(child(issuerInfo, 'address') ?? child(issuerInfo, 'issuerPrincipalExecutiveOfficeAddress')),
  };
  const reportingPersons = [...children(form, 'reportingPersons', 'reportingPersonInfo'), ...children(form, 'coverPageHeaderReportingPersonDetails')].map((n) =>
    reportingPersonOf(n, name),
  );
  if (reportingPersons.length === 0) throw new Error(`${name}: no reporting persons`);
  const items13D = child(form, 'items1To7');
  const items13G = child(form, 'items');
  const signatures = signaturesOf(form);
  const filerCik = cik(text(root, 'headerData', 'filerInfo', 'filer', 'filerCredentials', 'cik'));
  const eventDate = isoDate(text(cover, 'dateOfEvent') ?? text(cover, 'eventDateRequiresFilingThisStatement'));

  const data: Schedule13Data = {
    schedule,
    isAmendment: Boolean(kind[3]),
    amendmentNumber: decimal(text(cover, 'amendmentNo')),
    previousAccessionNumber: text(root, 'headerData', 'previousAccessionNumber'),
    filerCik,
    issuer,
    securitiesClass: text(cover, 'securitiesClassTitle'),
    eventDate,
    rulesDesignated: texts(cover, 'designateRulesPursuantThisScheduleFiled', 'designateRulePursuantThisScheduleFiled'),
    previouslyReportedOn13G: flag(text(cover, 'previouslyFiledFlag')),
    reportingPersons,
    sourceOfFundsText: text(items13D, 'item3', 'fundsSource'),
    purposeOfTransaction: text(items13D, 'item4', 'transactionPurpose'),
    recentTransactions: text(items13D, 'item5', 'transactionDesc'),
    typeOfPersonFiling: texts(items13G, 'item3', 'typeOfPersonFiling'),
    ownershipItem: ownershipItemOf(child(items13G, 'item4')),
    signatures,
  };

  const parties: PartyRef[] = [
    { cik: issuer.cik, name: issuer.name, role: 'issuer' },
    ...reportingPersons.map((p): PartyRef => ({ cik: p.cik, name: p.name, role: 'reporting_owner' })),
  ];
  // The filer is usually one of the reporting persons; otherwise it is an agent known only by CIK.
  if (filerCik && !reportingPersons.some((p) => p.cik === filerCik)) parties.push({ cik: filerCik, name: null, role: 'filer' });

  return {
    family: '13DG',
    formType,
    accessionNumber: container?.accessionNumber ?? null,
    filedAt: container?.filedAt ?? latestDate(signatures.map((s) => s.date)),
    // EDGAR files these under the event date as their period of report.
    periodOfReport: container?.periodOfReport ?? eventDate,
    parties,
    isSample: isSecSample(name),
    data,
  };
}
