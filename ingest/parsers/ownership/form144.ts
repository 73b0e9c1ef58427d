// Form 144 (notice of proposed sale of restricted or control securities): the
// <edgarSubmission> of the ownership schema, issuer, seller, the sale, how the shares were
// acquired and what the seller sold in the past three months.
import type { ParsedForm, PartyRef } from '../records.ts';
import { type Address, address, child, children, cik, decimal, flag, isoDate, isSecSample, readXmlForm, required, text, texts } from '../documents/xmlForm.ts';

export interface Form144SaleIntent {
  securitiesClass: string | null;
  brokerName: string | null;
  brokerAddress: Address | null;
  numberOfUnits: number | null;
  aggregateMarketValue: number | null;
  unitsOutstanding: number | null;
  approximateSaleDate: string | null;
  exchange: string | null;
}

export interface Form144Acquisition {
  securitiesClass: string | null;
  acquiredDate: string | null;
  natureOfAcquisition: string | null;
  acquiredFrom: string | null;
  isGift: boolean | null;
  /** when a gift: the date the donor acquired them */
  donorAcquiredDate: string | null;
  amountAcquired: number | null;
  paymentDate: string | null;
  natureOfPayment: string | null;
}

export interface Form144RecentSale {
  sellerName: string | null;
  sellerAddress: Address | null;
  securitiesClass: string | null;
  saleDate: string | null;
  amountSold: number | null;
  grossProceeds: number | null;
}

export interface Form144Data {
  previousAccessionNumber: string | null;
  filerCik: string | null;
  issuer: {
    cik: string | null;
    name: string;
    secFileNumber: string | null;
    address: Address | null;
    phone: string | null;
  };
  personForWhoseAccount: string | null;
  relationshipsToIssuer: string[];
  /** the sale being noticed: one entry per class and broker (Table I of the form is "securities to be sold") */
  securitiesToBeSold: Form144SaleIntent[];
  /** how the securities to be sold were acquired */
  securitiesAcquired: Form144Acquisition[];
  nothingToReportForPast3Months: boolean | null;
  salesInPast3Months: Form144RecentSale[];
  remarks: string | null;
  noticeDate: string | null;
  /** Rule 10b5-1 trading plan adoption dates */
  planAdoptionDates: string[];
  signature: string | null;
}

export function parseForm144(source: string, name: string): ParsedForm<Form144Data> {
  const { documents, container } = readXmlForm(source, name, ['edgarSubmission']);
  const root = documents[0]!.node;
  const formType = required(text(root, 'headerData', 'submissionType') ?? container?.formType ?? null, 'submissionType', name);
  if (!/^144(\/A)?$/.test(formType)) throw new Error(`${name}: not a Form 144 (submissionType ${formType})`);
  const form = required(child(root, 'formData'), 'formData', name);
  const issuerInfo = required(child(form, 'issuerInfo'), 'issuerInfo', name);

  const issuer = {
    cik: cik(text(issuerInfo, 'issuerCik')),
    name: required(text(issuerInfo, 'issuerName'), 'issuerName', name),
    secFileNumber: text(issuerInfo, 'secFileNumber'),
    address: address(child(issuerInfo, 'issuerAddress')),
    phone: text(issuerInfo, 'issuerContactPhone'),
  };
  const filerCik = cik(text(root, 'headerData', 'filerInfo', 'filer', 'filerCredentials', 'cik'));
  const person = text(issuerInfo, 'nameOfPersonForWhoseAccountTheSecuritiesAreToBeSold');

  const securitiesToBeSold = children(form, 'securitiesInformation').map((n) => ({
    securitiesClass: text(n, 'securitiesClassTitle'),
    brokerName: text(n, 'brokerOrMarketmakerDetails', 'name'),
    brokerAddress: address(child(n, 'brokerOrMarketmakerDetails', 'address')),
    numberOfUnits: decimal(text(n, 'noOfUnitsSold')),
    aggregateMarketValue: decimal(text(n, 'aggregateMarketValue')),
    unitsOutstanding: decimal(text(n, 'noOfUnitsOutstanding')),
    approximateSaleDate: isoDate(text(n, 'approxSaleDate')),
    exchange: text(n, 'securitiesExchangeName'),
  }));
  // The schema calls the acquisition table <securitiesToBeSold>; it describes how they were acquired.
  const securitiesAcquired = children(form, 'securitiesToBeSold').map((n) => ({
    securitiesClass: text(n, 'securitiesClassTitle'),
    acquiredDate: isoDate(text(n, 'acquiredDate')),
    natureOfAcquisition: text(n, 'natureOfAcquisitionTransaction'),
    acquiredFrom: text(n, 'nameOfPersonfromWhomAcquired'),
    isGift: flag(text(n, 'isGiftTransaction')),
    donorAcquiredDate: isoDate(text(n, 'donarAcquiredDate')),
    amountAcquired: decimal(text(n, 'amountOfSecuritiesAcquired')),
    paymentDate: isoDate(text(n, 'paymentDate')),
    natureOfPayment: text(n, 'natureOfPayment'),
  }));
  const salesInPast3Months = children(form, 'securitiesSoldInPast3Months').map((n) => ({
    sellerName: text(n, 'sellerDetails', 'name'),
    sellerAddress: address(child(n, 'sellerDetails', 'address')),
    securitiesClass: text(n, 'securitiesClassTitle'),
    saleDate: isoDate(text(n, 'saleDate')),
    amountSold: decimal(text(n, 'amountOfSecuritiesSold')),
    grossProceeds: decimal(text(n, 'grossProceeds')),
  }));
  const noticeDate = isoDate(text(form, 'noticeSignature', 'noticeDate'));

  const data: Form144Data = {
    previousAccessionNumber: text(root, 'headerData', 'previousAccessionNumber'),
    filerCik,
    issuer,
    personForWhoseAccount: person,
    relationshipsToIssuer: texts(issuerInfo, 'relationshipsToIssuer', 'relationshipToIssuer'),
    securitiesToBeSold,
    securitiesAcquired,
    nothingToReportForPast3Months: flag(text(form, 'nothingToReportFlagOnSecuritiesSoldInPast3Months')),
    salesInPast3Months,
    remarks: text(form, 'remarks'),
    noticeDate,
    planAdoptionDates: texts(form, 'noticeSignature', 'planAdoptionDates', 'planAdoptionDate')
      .map(isoDate)
      .filter((d): d is string => d !== null),
    signature: text(form, 'noticeSignature', 'signature'),
  };

  // The notice is filed under the seller's own CIK, even when a broker signs on their behalf; the
  // seller is an insider or affiliate of the issuer, as on Forms 3/4/5.
  const parties: PartyRef[] = [{ cik: issuer.cik, name: issuer.name, role: 'issuer' }];
  if (filerCik || person) parties.push({ cik: filerCik, name: person, role: 'reporting_owner' });

  return {
    family: '144',
    formType,
    accessionNumber: container?.accessionNumber ?? null,
    filedAt: container?.filedAt ?? noticeDate,
    periodOfReport: container?.periodOfReport ?? null,
    parties,
    isSample: isSecSample(name),
    data,
  };
}
