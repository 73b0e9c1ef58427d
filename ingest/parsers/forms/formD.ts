// Form D (notice of an exempt offering, Regulation D / 4(a)(5)): the primary_doc.xml
// <edgarSubmission> with the issuer(s), related persons and the offering data.
import type { ParsedForm, PartyRef } from '../records.ts';
import { type Address, address, child, children, cik, decimal, flag, isoDate, isSecSample, latestDate, readXmlForm, required, text, texts, type XmlNode } from '../documents/xmlForm.ts';

export type FormDAddress = Address & { stateOrCountryDescription: string | null };

export interface FormDIssuer {
  cik: string | null;
  name: string;
  entityType: string | null;
  /** the description filed when entityType is 'Other' */
  entityTypeOther: string | null;
  jurisdictionOfIncorporation: string | null;
  /** the year filed, when the issuer was incorporated within five years */
  yearOfIncorporation: string | null;
  /** which box was ticked: 'Over Five Years Ago', 'Within Last Five Years', 'Yet to Be Formed' */
  incorporationAge: string | null;
  address: FormDAddress | null;
  phone: string | null;
  previousNames: string[];
}

export interface FormDRelatedPerson {
  name: string;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  /** 'Executive Officer', 'Director', 'Promoter' */
  relationships: string[];
  clarification: string | null;
  address: FormDAddress | null;
}

export interface FormDSalesCompensationRecipient {
  name: string | null;
  crdNumber: string | null;
  associatedBrokerDealerName: string | null;
  associatedBrokerDealerCrdNumber: string | null;
  /** state codes, or 'All States' */
  statesOfSolicitation: string[];
  foreignSolicitation: boolean | null;
}

export interface FormDAmount {
  amount: number | null;
  isEstimate: boolean;
}

export interface FormDSignature {
  issuerName: string | null;
  signature: string | null;
  nameOfSigner: string | null;
  title: string | null;
  date: string | null;
}

export interface FormDData {
  testOrLive: string | null;
  issuer: FormDIssuer;
  /** further issuers filing the same notice */
  coIssuers: FormDIssuer[];
  relatedPersons: FormDRelatedPerson[];
  industryGroup: string | null;
  /** for pooled investment funds: 'Hedge Fund', 'Private Equity Fund', 'Venture Capital Fund', ... */
  investmentFundType: string | null;
  is40ActFund: boolean | null;
  revenueRange: string | null;
  aggregateNetAssetValueRange: string | null;
  /** as filed: '06b', '06c', '04a5', '3C', '3C.1', '3C.7', ... */
  federalExemptions: string[];
  isAmendment: boolean | null;
  previousAccessionNumber: string | null;
  dateOfFirstSale: string | null;
  firstSaleYetToOccur: boolean;
  moreThanOneYear: boolean | null;
  /** the boxes ticked, in the form's own words; 'Other' comes with securityTypeOtherDescription */
  securityTypes: string[];
  securityTypeOtherDescription: string | null;
  isBusinessCombination: boolean | null;
  businessCombinationClarification: string | null;
  minimumInvestmentAccepted: number | null;
  salesCompensation: FormDSalesCompensationRecipient[];
  /** null when the amount was filed as a word (see totalOfferingAmountText) */
  totalOfferingAmount: number | null;
  /** the filed text when it is not a number, e.g. 'Indefinite' */
  totalOfferingAmountText: string | null;
  totalAmountSold: number | null;
  totalRemaining: number | null;
  /** the filed text when it is not a number, e.g. 'Indefinite' */
  totalRemainingText: string | null;
  salesAmountsClarification: string | null;
  hasNonAccreditedInvestors: boolean | null;
  numberOfNonAccreditedInvestors: number | null;
  totalNumberAlreadyInvested: number | null;
  salesCommissions: FormDAmount | null;
  findersFees: FormDAmount | null;
  feesClarification: string | null;
  /** gross proceeds used for payments to executive officers, directors or promoters */
  grossProceedsUsed: FormDAmount | null;
  useOfProceedsClarification: string | null;
  authorizedRepresentative: boolean | null;
  signatures: FormDSignature[];
  /** the latest date a signer put on the notice; not its filing date */
  signatureDate: string | null;
}

const securityTypeLabels: [element: string, label: string][] = [
  ['isEquityType', 'Equity'],
  ['isDebtType', 'Debt'],
  ['isOptionToAcquireType', 'Option, Warrant or Other Right to Acquire Another Security'],
  ['isSecurityToBeAcquiredType', 'Security to be Acquired Upon Exercise of Option, Warrant or Other Right to Acquire Security'],
  ['isPooledInvestmentFundType', 'Pooled Investment Fund Interests'],
  ['isTenantInCommonType', 'Tenant-in-Common Securities'],
  ['isMineralPropertyType', 'Mineral Property Securities'],
  ['isOtherType', 'Other'],
];

const incorporationAges: [element: string, label: string][] = [
  ['overFiveYears', 'Over Five Years Ago'],
  ['withinFiveYears', 'Within Last Five Years'],
  ['yetToBeFormed', 'Yet to Be Formed'],
];

/** Form D fills empty list entries with the word 'None'. */
const meaningful = (value: string | null) => (value !== null && value.toLowerCase() !== 'none' ? value : null);

function formDAddress(node: XmlNode | null): FormDAddress | null {
  const base = address(node);
  return base ? { ...base, stateOrCountryDescription: text(node, 'stateOrCountryDescription') } : null;
}

function issuerOf(node: XmlNode, name: string): FormDIssuer {
  const yearOfInc = child(node, 'yearOfInc');
  return {
    cik: cik(text(node, 'cik')),
    name: required(text(node, 'entityName'), 'issuer entityName', name),
    entityType: text(node, 'entityType'),
    entityTypeOther: text(node, 'entityTypeOtherDesc'),
    jurisdictionOfIncorporation: text(node, 'jurisdictionOfInc'),
    yearOfIncorporation: text(yearOfInc, 'value'),
    incorporationAge: incorporationAges.find(([element]) => flag(text(yearOfInc, element)) === true)?.[1] ?? null,
    address: formDAddress(child(node, 'issuerAddress')),
    phone: text(node, 'issuerPhoneNumber'),
    previousNames: [...texts(node, 'issuerPreviousNameList', 'previousName'), ...texts(node, 'issuerPreviousNameList', 'value')].filter((n) => meaningful(n) !== null),
  };
}

function relatedPersonOf(node: XmlNode): FormDRelatedPerson {
  const firstName = text(node, 'relatedPersonName', 'firstName');
  const middleName = text(node, 'relatedPersonName', 'middleName');
  const lastName = text(node, 'relatedPersonName', 'lastName');
  return {
    name: [firstName, middleName, lastName].filter(Boolean).join(' '),
    firstName,
    middleName,
    lastName,
    relationships: texts(node, 'relatedPersonRelationshipList', 'relationship'),
    clarification: text(node, 'relationshipClarification'),
    address: formDAddress(child(node, 'relatedPersonAddress')),
  };
}

function recipientOf(node: XmlNode): FormDSalesCompensationRecipient {
  const states = child(node, 'statesOfSolicitationList');
  return {
    name: meaningful(text(node, 'recipientName')),
    crdNumber: meaningful(text(node, 'recipientCRDNumber')),
    associatedBrokerDealerName: meaningful(text(node, 'associatedBDName')),
    associatedBrokerDealerCrdNumber: meaningful(text(node, 'associatedBDCRDNumber')),
    statesOfSolicitation: [...texts(states, 'state'), ...texts(states, 'value')],
    foreignSolicitation: flag(text(node, 'foreignSolicitation')),
  };
}

function amountOf(node: XmlNode | null): FormDAmount | null {
  if (!node) return null;
  return { amount: decimal(text(node, 'dollarAmount')), isEstimate: flag(text(node, 'isEstimate')) === true };
}

/** A sales amount that may be filed as a word ('Indefinite') instead of dollars. */
function amountOrWord(value: string | null): { amount: number | null; word: string | null } {
  const amount = decimal(value);
  return { amount, word: amount === null ? value : null };
}

export function parseFormD(source: string, name: string): ParsedForm<FormDData> {
  const { documents, container } = readXmlForm(source, name, ['edgarSubmission']);
  const root = documents[0]!.node;
  const formType = required(text(root, 'submissionType') ?? container?.formType ?? null, 'submissionType', name);
  if (!/^D(\/A)?$/.test(formType)) throw new Error(`${name}: not a Form D (submissionType ${formType})`);
  const primary = required(child(root, 'primaryIssuer'), 'primaryIssuer', name);
  const offering = required(child(root, 'offeringData'), 'offeringData', name);

  const issuer = issuerOf(primary, name);
  const coIssuers = children(root, 'issuerList', 'issuer').map((n) => issuerOf(n, name));
  const relatedPersons = children(root, 'relatedPersonsList', 'relatedPersonInfo').map(relatedPersonOf);
  const fund = child(offering, 'industryGroup', 'investmentFundInfo');
  const filing = child(offering, 'typeOfFiling');
  const securities = child(offering, 'typesOfSecuritiesOffered');
  const sales = child(offering, 'offeringSalesAmounts');
  const offered = amountOrWord(text(sales, 'totalOfferingAmount'));
  const remaining = amountOrWord(text(sales, 'totalRemaining'));
  const fees = child(offering, 'salesCommissionsFindersFees');
  const signatures = children(offering, 'signatureBlock', 'signature').map((s) => ({
    issuerName: text(s, 'issuerName'),
    signature: text(s, 'signatureName'),
    nameOfSigner: text(s, 'nameOfSigner'),
    title: text(s, 'signatureTitle'),
    date: isoDate(text(s, 'signatureDate')),
  }));

  const data: FormDData = {
    testOrLive: text(root, 'testOrLive'),
    issuer,
    coIssuers,
    relatedPersons,
    industryGroup: text(offering, 'industryGroup', 'industryGroupType'),
    investmentFundType: text(fund, 'investmentFundType'),
    is40ActFund: flag(text(fund, 'is40Act')),
    revenueRange: text(offering, 'issuerSize', 'revenueRange'),
    aggregateNetAssetValueRange: text(offering, 'issuerSize', 'aggregateNetAssetValueRange'),
    federalExemptions: texts(offering, 'federalExemptionsExclusions', 'item'),
    isAmendment: flag(text(filing, 'newOrAmendment', 'isAmendment')),
    previousAccessionNumber: text(filing, 'newOrAmendment', 'previousAccessionNumber'),
    dateOfFirstSale: isoDate(text(filing, 'dateOfFirstSale', 'value')),
    firstSaleYetToOccur: flag(text(filing, 'dateOfFirstSale', 'yetToOccur')) === true,
    moreThanOneYear: flag(text(offering, 'durationOfOffering', 'moreThanOneYear')),
    securityTypes: securityTypeLabels.filter(([element]) => flag(text(securities, element)) === true).map(([, label]) => label),
    securityTypeOtherDescription: text(securities, 'descriptionOfOtherType'),
    isBusinessCombination: flag(text(offering, 'businessCombinationTransaction', 'isBusinessCombinationTransaction')),
    businessCombinationClarification: text(offering, 'businessCombinationTransaction', 'clarificationOfResponse'),
    minimumInvestmentAccepted: decimal(text(offering, 'minimumInvestmentAccepted')),
    // A recipient named 'None' is how the form says nobody was compensated.
    salesCompensation: children(offering, 'salesCompensationList', 'recipient').map(recipientOf).filter((r) => r.name !== null || r.crdNumber !== null),
    totalOfferingAmount: offered.amount,
    totalOfferingAmountText: offered.word,
    totalAmountSold: decimal(text(sales, 'totalAmountSold')),
    totalRemaining: remaining.amount,
    totalRemainingText: remaining.word,
    salesAmountsClarification: text(sales, 'clarificationOfResponse'),
    hasNonAccreditedInvestors: flag(text(offering, 'investors', 'hasNonAccreditedInvestors')),
    numberOfNonAccreditedInvestors: decimal(text(offering, 'investors', 'numberNonAccreditedInvestors')),
    totalNumberAlreadyInvested: decimal(text(offering, 'investors', 'totalNumberAlreadyInvested')),
    salesCommissions: amountOf(child(fees, 'salesCommissions')),
    findersFees: amountOf(child(fees, 'findersFees')),
    feesClarification: text(fees, 'clarificationOfResponse'),
    grossProceedsUsed: amountOf(child(offering, 'useOfProceeds', 'grossProceedsUsed')),
    useOfProceedsClarification: text(offering, 'useOfProceeds', 'clarificationOfResponse'),
    authorizedRepresentative: flag(text(offering, 'signatureBlock', 'authorizedRepresentative')),
    signatures,
    signatureDate: latestDate(signatures.map((s) => s.date)),
  };

  const parties: PartyRef[] = [
    { cik: issuer.cik, name: issuer.name, role: 'issuer' },
    ...coIssuers.map((i): PartyRef => ({ cik: i.cik, name: i.name, role: 'issuer' })),
    ...relatedPersons.filter((p) => p.name !== '').map((p): PartyRef => ({ cik: null, name: p.name, role: 'related_person' })),
  ];

  return {
    family: 'D',
    formType,
    accessionNumber: container?.accessionNumber ?? null,
    // The notice itself states no filing date: only its submission's header (or the index) does.
    filedAt: container?.filedAt ?? null,
    periodOfReport: container?.periodOfReport ?? null,
    parties,
    isSample: isSecSample(name),
    data,
  };
}
