// Form C family (Regulation Crowdfunding): C, C/A, C-U (progress update), C-AR (annual
// report), C-TR (termination of reporting). One <edgarSubmission> schema; which parts are
// present depends on the submission type.
import type { ParsedForm, PartyRef } from '../records.ts';
import { type Address, address, child, children, cik, decimal, flag, isoDate, isSecSample, latestDate, readXmlForm, required, text, texts, type XmlNode } from '../documents/xmlForm.ts';

export interface FormCIssuer {
  /** the filer's CIK: a Form C is filed by the issuer itself */
  cik: string | null;
  name: string;
  legalStatus: string | null;
  legalStatusOther: string | null;
  jurisdiction: string | null;
  dateOfIncorporation: string | null;
  address: Address | null;
  website: string | null;
}

export interface FormCIntermediary {
  name: string | null;
  cik: string | null;
  commissionFileNumber: string | null;
  crdNumber: string | null;
}

export interface FormCOffering {
  /** the intermediary's compensation, as described */
  compensation: string | null;
  intermediaryFinancialInterest: string | null;
  securityType: string | null;
  securityTypeOther: string | null;
  numberOfSecurities: number | null;
  price: number | null;
  priceDeterminationMethod: string | null;
  targetAmount: number | null;
  oversubscriptionAccepted: boolean | null;
  oversubscriptionAllocation: string | null;
  oversubscriptionDescription: string | null;
  maximumAmount: number | null;
  deadline: string | null;
}

export interface FormCFiscalYear {
  totalAssets: number | null;
  cashAndEquivalents: number | null;
  accountsReceivable: number | null;
  shortTermDebt: number | null;
  longTermDebt: number | null;
  revenues: number | null;
  costOfGoodsSold: number | null;
  taxesPaid: number | null;
  netIncome: number | null;
}

export interface FormCFinancials {
  currentEmployees: number | null;
  mostRecentFiscalYear: FormCFiscalYear;
  priorFiscalYear: FormCFiscalYear;
}

export interface FormCData {
  filerCik: string | null;
  fileNumber: string | null;
  /** C-AR: the fiscal year end reported on */
  period: string | null;
  /** C-U: what the update reports, e.g. '50% and 100% of Target Reached' */
  progressUpdate: string | null;
  /** C/A: what the amendment changes */
  natureOfAmendment: string | null;
  issuer: FormCIssuer;
  isCoIssuer: boolean | null;
  coIssuers: { name: string | null; cik: string | null }[];
  intermediary: FormCIntermediary | null;
  offering: FormCOffering | null;
  financials: FormCFinancials | null;
  /** where the securities are offered: state and country codes */
  offeringJurisdictions: string[];
  issuerSignature: { issuer: string | null; signature: string | null; title: string | null } | null;
  signatures: { signature: string | null; title: string | null; date: string | null }[];
  /** the latest date a signer put on the notice; not its filing date */
  signatureDate: string | null;
}

const formTypes = /^C(\/A|-U|-U\/A|-AR|-AR\/A|-TR|-W)?$/;

function fiscalYear(node: XmlNode, suffix: 'MostRecentFiscalYear' | 'PriorFiscalYear'): FormCFiscalYear {
  const value = (element: string) => decimal(text(node, `${element}${suffix}`));
  return {
    totalAssets: value('totalAsset'),
    cashAndEquivalents: value('cashEqui'),
    accountsReceivable: value('actReceived'),
    shortTermDebt: value('shortTermDebt'),
    longTermDebt: value('longTermDebt'),
    revenues: value('revenue'),
    costOfGoodsSold: value('costGoodsSold'),
    taxesPaid: value('taxPaid'),
    netIncome: value('netIncome'),
  };
}

function offeringOf(node: XmlNode | null): FormCOffering | null {
  if (!node) return null;
  return {
    compensation: text(node, 'compensationAmount'),
    intermediaryFinancialInterest: text(node, 'financialInterest'),
    securityType: text(node, 'securityOfferedType'),
    securityTypeOther: text(node, 'securityOfferedOtherDesc'),
    numberOfSecurities: decimal(text(node, 'noOfSecurityOffered')),
    price: decimal(text(node, 'price')),
    priceDeterminationMethod: text(node, 'priceDeterminationMethod'),
    targetAmount: decimal(text(node, 'offeringAmount')),
    oversubscriptionAccepted: flag(text(node, 'overSubscriptionAccepted')),
    oversubscriptionAllocation: text(node, 'overSubscriptionAllocationType'),
    oversubscriptionDescription: text(node, 'descOverSubscription'),
    maximumAmount: decimal(text(node, 'maximumOfferingAmount')),
    deadline: isoDate(text(node, 'deadlineDate')),
  };
}

function intermediaryOf(node: XmlNode): FormCIntermediary | null {
  const result = {
    name: text(node, 'companyName'),
    cik: cik(text(node, 'commissionCik')),
    commissionFileNumber: text(node, 'commissionFileNumber'),
    crdNumber: text(node, 'crdNumber'),
  };
  return Object.values(result).some((v) => v !== null) ? result : null;
}

export function parseFormC(source: string, name: string): ParsedForm<FormCData> {
  const { documents, container } = readXmlForm(source, name, ['edgarSubmission']);
  const root = documents[0]!.node;
  const formType = required(text(root, 'headerData', 'submissionType') ?? container?.formType ?? null, 'submissionType', name);
  if (!formTypes.test(formType)) throw new Error(`${name}: not a Form C (submissionType ${formType})`);
  const form = required(child(root, 'formData'), 'formData', name);
  const information = required(child(form, 'issuerInformation'), 'issuerInformation', name);
  const issuerInfo = required(child(information, 'issuerInfo'), 'issuerInfo', name);
  const filerInfo = child(root, 'headerData', 'filerInfo');
  const filerCik = cik(text(filerInfo, 'filer', 'filerCredentials', 'filerCik'));

  const issuer: FormCIssuer = {
    cik: filerCik,
    name: required(text(issuerInfo, 'nameOfIssuer'), 'nameOfIssuer', name),
    legalStatus: text(issuerInfo, 'legalStatus', 'legalStatusForm'),
    legalStatusOther: text(issuerInfo, 'legalStatus', 'legalStatusOtherDesc'),
    jurisdiction: text(issuerInfo, 'legalStatus', 'jurisdictionOrganization'),
    dateOfIncorporation: isoDate(text(issuerInfo, 'legalStatus', 'dateIncorporation')),
    address: address(child(issuerInfo, 'issuerAddress')),
    website: text(issuerInfo, 'issuerWebsite'),
  };
  const annual = child(form, 'annualReportDisclosureRequirements');
  const signatureInfo = child(form, 'signatureInfo');
  const issuerSignature = child(signatureInfo, 'issuerSignature');
  const signatures = children(signatureInfo, 'signaturePersons', 'signaturePerson').map((s) => ({
    signature: text(s, 'personSignature'),
    title: text(s, 'personTitle'),
    date: isoDate(text(s, 'signatureDate')),
  }));
  const intermediary = intermediaryOf(information);

  const data: FormCData = {
    filerCik,
    fileNumber: text(filerInfo, 'filer', 'fileNumber'),
    period: isoDate(text(filerInfo, 'period')),
    progressUpdate: text(information, 'progressUpdate'),
    natureOfAmendment: text(information, 'natureOfAmendment'),
    issuer,
    isCoIssuer: flag(text(information, 'isCoIssuer')),
    coIssuers: children(information, 'coIssuers', 'coIssuerInfo').map((c) => ({ name: text(c, 'nameOfCoIssuer'), cik: cik(text(c, 'coIssuerCik')) })),
    intermediary,
    offering: offeringOf(child(form, 'offeringInformation')),
    financials: annual
      ? { currentEmployees: decimal(text(annual, 'currentEmployees')), mostRecentFiscalYear: fiscalYear(annual, 'MostRecentFiscalYear'), priorFiscalYear: fiscalYear(annual, 'PriorFiscalYear') }
      : null,
    offeringJurisdictions: texts(annual, 'issueJurisdictionSecuritiesOffering'),
    issuerSignature: issuerSignature ? { issuer: text(issuerSignature, 'issuer'), signature: text(issuerSignature, 'issuerSignature'), title: text(issuerSignature, 'issuerTitle') } : null,
    signatures,
    signatureDate: latestDate(signatures.map((s) => s.date)),
  };

  const parties: PartyRef[] = [{ cik: filerCik, name: issuer.name, role: 'issuer' }, ...data.coIssuers.map((c): PartyRef => ({ ...c, role: 'issuer' }))];
  // The intermediary is the funding portal or broker-dealer running the offering.
  if (intermediary?.name || intermediary?.cik) parties.push({ cik: intermediary.cik, name: intermediary.name, role: 'other' });

  return {
    family: 'C',
    formType,
    accessionNumber: container?.accessionNumber ?? null,
    // The notice itself states no filing date: only its submission's header (or the index) does.
    filedAt: container?.filedAt ?? null,
    periodOfReport: container?.periodOfReport ?? data.period,
    parties,
    isSample: isSecSample(name),
    data,
  };
}
