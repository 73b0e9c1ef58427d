// Offerings: one view across registered offerings (S-1, S-3, F-1, F-3, their
// amendments, 424B prospectuses, POS AM: FormRecord family OFFERING), exempt offerings under
// Regulation D (Form D: family D), Regulation Crowdfunding (Form C: family C) and Regulation A
// (Form 1-A: family 1-A, none ingested yet). Each row is one filing, normalized to the same
// fields; the values are the parsed ones the ingest stored (ingest/parsers/offerings/offerings.ts,
// formD.ts, formC.ts), never estimated.
import type { Prisma } from '../prisma/generated/client/client.ts';
import type { OfferingDocument } from '../ingest/parsers/offerings/offerings.ts';
import type { Capitalization, DilutionTerms, Economics, Figure } from '../ingest/parsers/offerings/dilutionTerms.ts';
import type { FormDData } from '../ingest/parsers/forms/formD.ts';
import type { FormCData } from '../ingest/parsers/forms/formC.ts';
import { ApiError } from '../core/errors.ts';
import { z } from 'zod';
import { cursorDay, pageCursor } from '../core/cursor.ts';
import { isoDay } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import { citeRecords } from './ownership.ts';

/** The normalized offering types, across forms. */
export const offeringTypes = ['ipo', 'follow_on', 'registered_direct', 'shelf', 'atm', 'resale', 'deregistration', 'other_registered', 'reg_d', 'reg_cf', 'reg_a'] as const;
export type NormalizedOfferingType = (typeof offeringTypes)[number];

export type Regime = 'registered' | 'reg_d' | 'reg_cf' | 'reg_a';

export interface OfferingExemption {
  /** as filed, e.g. 06b, 3C.1; 4(a)(6) for Regulation Crowdfunding */
  code: string;
  /** what the code means */
  description: string;
}

export interface LinkedFiling {
  offeringId: string;
  accessionNumber: string | null;
  formType: string;
  filingRole: string;
  date: string | null;
  /** why the two are linked: the registration file number they share, the Form C file number, or the notice a Form D/A amends */
  link: string;
}

export interface Offering {
  id: string;
  regime: Regime;
  offeringType: NormalizedOfferingType;
  /** how sure the classification is: high for Form D, C and 1-A (the form says), the classifier's confidence for a registered offering */
  offeringTypeConfidence: string;
  formType: string;
  filingRole: string;
  issuer: { cik: string | null; name: string | null; ticker: string | null; exchange: string | null };
  securitiesOffered: string | null;
  amountOffered: number | null;
  amountOfferedField: string | null;
  amountOfferedNullReason: string | null;
  targetAmount: number | null;
  amountSold: number | null;
  amountSoldField: string | null;
  amountSoldNullReason: string | null;
  amountRemaining: number | null;
  pricePerUnit: number | null;
  pricePerUnitNullReason: string | null;
  unitsOffered: number | null;
  currency: string;
  exemptions: OfferingExemption[];
  date: string | null;
  dateField: string;
  filedAt: string | null;
  dateOfFirstSale: string | null;
  deadline: string | null;
  isAmendment: boolean;
  isPreliminary: boolean | null;
  /** a registered offering's document: `preliminary` (a red herring, its blanks unknown) or `final`; null for Forms D and C */
  status: 'preliminary' | 'final' | null;
  /** the terms a preliminary document leaves blank, each unknown until the final prospectus (field names of this row) */
  unknownTerms: string[];
  registrationFileNumber: string | null;
  fileNumber: string | null;
  previousAccessionNumber: string | null;
  intermediaries: string[];
  linkedFilings: LinkedFiling[];
  accessionNumber: string | null;
  citationUrl: string | null;
  citationNullReason: string | null;
  sourceDocument: string;
  details: Record<string, unknown>;
  /** a registered offering's capitalization as its document states it, each figure cited; null for Forms D and C */
  capitalization: Capitalization | null;
  /** a registered offering's fees, proceeds, dates, over-allotment, I.B.6 sales and effectiveness; null for Forms D and C */
  economics: Economics | null;
}

const exemptionNames: Record<string, string> = {
  '04': 'Rule 504(b)(1) (not (i), (ii) or (iii))',
  '04.1': 'Rule 504(b)(1)(i)',
  '04.2': 'Rule 504(b)(1)(ii)',
  '04.3': 'Rule 504(b)(1)(iii)',
  '06b': 'Rule 506(b)',
  '06c': 'Rule 506(c)',
  '04a5': 'Securities Act Section 4(a)(5)',
  '3C': 'Investment Company Act Section 3(c)',
  '4(a)(6)': 'Securities Act Section 4(a)(6) (Regulation Crowdfunding)',
};

function exemption(code: string): OfferingExemption {
  const threeC = code.match(/^3C\.(\d+)$/);
  return { code, description: exemptionNames[code] ?? (threeC ? `Investment Company Act Section 3(c)(${threeC[1]})` : `As filed: ${code}`) };
}

const registeredRoles: [RegExp, string][] = [
  [/^424B/, 'prospectus'],
  [/^POS AM$/, 'post_effective_amendment'],
  [/\/A$/, 'registration_statement_amendment'],
  [/./, 'registration_statement'],
];
const formCRoles: Record<string, string> = { C: 'offering_statement', 'C/A': 'offering_statement_amendment', 'C-U': 'progress_update', 'C-U/A': 'progress_update', 'C-AR': 'annual_report', 'C-AR/A': 'annual_report', 'C-TR': 'termination_of_reporting', 'C-W': 'withdrawal' };

export interface FormRow {
  id: string;
  accessionNumber: string | null;
  family: string;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  orderedAt: Date;
  data: unknown;
  sourceKey: string;
  entity?: { name: string } | null;
}

const noAccession = 'The ingested document carries no accession number (a primary document without its submission), so no SEC URL can be built; sourceDocument names the file it was read from.';

const capitalizationFields = [
  'sharesOutstandingBefore',
  'sharesOutstandingAfter',
  'sharesOutstandingAfterOverAllotment',
  'optionsOutstanding',
  'warrantsOutstanding',
  'restrictedStockUnits',
  'performanceStockUnits',
  'reservedForFutureIssuance',
  'preferredAsConverted',
] as const satisfies readonly (keyof Capitalization)[];
const economicsFigures = [
  'offeringDate',
  'closingDate',
  'feeAmount',
  'feePerShare',
  'feePercent',
  'proceedsBeforeExpenses',
  'netProceeds',
  'overAllotmentShares',
  'babyShelfSalesPrior12Months',
  'registrationEffective',
] as const satisfies readonly Exclude<keyof Economics, 'feeType'>[];

// a document stored before these figures were read: every one is unknown, and says why
const notRead = 'not read: this document was ingested before the capitalization and economics of offering documents were read; ingesting the document again reads them';
const unread = <T>(): Figure<T> => ({ value: null, reason: notRead, asOf: null, approximate: false, sourceSpan: null, section: null, page: null, confidence: null, method: null });

function figuresOf(d: OfferingDocument): { capitalization: Capitalization; economics: Economics } {
  const terms = (d as { dilutionTerms?: DilutionTerms }).dilutionTerms;
  const capitalization = terms?.capitalization ?? (Object.fromEntries(capitalizationFields.map((k) => [k, unread()])) as unknown as Capitalization);
  const economics = terms?.economics ?? ({ feeType: null, ...Object.fromEntries(economicsFigures.map((k) => [k, unread()])) } as unknown as Economics);
  return { capitalization, economics };
}

function registered(row: FormRow): Omit<Offering, 'linkedFilings' | 'citationUrl' | 'citationNullReason'> {
  const d = row.data as OfferingDocument;
  const type: NormalizedOfferingType = d.offeringType === 'other' ? 'other_registered' : d.offeringType;
  const isProspectus = /^424B/.test(row.formType);
  const amountOffered = d.grossProceeds ?? d.maximumAggregateOffering;
  const amountOfferedField = d.grossProceeds !== null ? 'cover.pricingTable.totalOfferingPrice' : d.maximumAggregateOffering !== null ? (d.maximumAggregateOfferingSource === 'fee_table' ? 'filingFeeExhibit.maximumAggregateOfferingPrice' : 'cover.maximumAggregateOffering') : null;
  return {
    id: row.id,
    regime: 'registered',
    offeringType: type,
    offeringTypeConfidence: d.confidence,
    formType: row.formType,
    filingRole: registeredRoles.find(([p]) => p.test(row.formType))![1],
    issuer: { cik: row.cik ?? d.registrant.cik, name: d.registrant.name ?? row.entity?.name ?? null, ticker: d.ticker, exchange: d.exchange },
    securitiesOffered: d.securitiesOffered,
    amountOffered,
    amountOfferedField,
    amountOfferedNullReason:
      amountOffered !== null ? null : d.offeringType === 'deregistration' ? 'A deregistration offers nothing.' : d.isPreliminary ? 'A preliminary document leaves the amount blank.' : 'The cover page and fee exhibit state no total offering price.',
    targetAmount: null,
    amountSold: null,
    amountSoldField: null,
    amountSoldNullReason: 'Registration statements and prospectuses state what is offered, not what was sold.',
    amountRemaining: null,
    pricePerUnit: d.pricePerShare,
    pricePerUnitNullReason: d.pricePerShare !== null ? null : d.isPreliminary && isProspectus ? 'A preliminary prospectus leaves the price blank: unknown until the final prospectus.' : isProspectus ? 'The cover states no per-share public offering price (preliminary, at-the-market or unpriced).' : 'A registration statement is not priced on its cover.',
    unitsOffered: d.sharesOffered,
    currency: 'USD',
    exemptions: [],
    // a document read without its submission or index entry has no filing date: the date it gives itself stands in
    date: d.filedAt ?? isoDay(row.filedAt) ?? d.documentDate ?? null,
    dateField: d.filedAt ?? row.filedAt ? 'filedAt' : d.documentDate ? 'documentDate' : 'filedAt',
    filedAt: d.filedAt ?? isoDay(row.filedAt),
    dateOfFirstSale: null,
    deadline: null,
    isAmendment: /\/A$|^POS AM$/.test(row.formType),
    isPreliminary: d.isPreliminary,
    status: d.isPreliminary ? 'preliminary' : 'final',
    unknownTerms: (d.blanks ?? []).map((field) => ({ sharesOffered: 'unitsOffered', pricePerShare: 'pricePerUnit', grossProceeds: 'amountOffered' })[field]),
    registrationFileNumber: d.registrationFileNumber,
    fileNumber: d.registrationFileNumber,
    previousAccessionNumber: null,
    intermediaries: [...d.underwriters, ...d.placementAgents, ...d.salesAgents],
    accessionNumber: row.accessionNumber,
    sourceDocument: row.sourceKey,
    details: { underwriters: d.underwriters, placementAgents: d.placementAgents, salesAgents: d.salesAgents, isShelf: d.isShelf, classificationExcerpt: d.excerpt },
    ...figuresOf(d),
  };
}

function formD(row: FormRow): Omit<Offering, 'linkedFilings' | 'citationUrl' | 'citationNullReason'> {
  const d = row.data as FormDData;
  return {
    id: row.id,
    regime: 'reg_d',
    offeringType: 'reg_d',
    offeringTypeConfidence: 'high',
    formType: row.formType,
    filingRole: row.formType === 'D/A' ? 'notice_amendment' : 'notice',
    issuer: { cik: row.cik ?? d.issuer.cik, name: d.issuer.name, ticker: null, exchange: null },
    securitiesOffered: d.securityTypes.length ? d.securityTypes.join('; ') + (d.securityTypeOtherDescription ? ` (${d.securityTypeOtherDescription})` : '') : null,
    amountOffered: d.totalOfferingAmount,
    amountOfferedField: 'offeringSalesAmounts.totalOfferingAmount',
    amountOfferedNullReason: d.totalOfferingAmount === null ? (d.totalOfferingAmountText ? `The notice states the amount as "${d.totalOfferingAmountText}".` : 'The notice states no total offering amount.') : null,
    targetAmount: null,
    amountSold: d.totalAmountSold,
    amountSoldField: 'offeringSalesAmounts.totalAmountSold',
    amountSoldNullReason: d.totalAmountSold === null ? 'The notice states no amount sold.' : null,
    amountRemaining: d.totalRemaining,
    pricePerUnit: null,
    pricePerUnitNullReason: 'Form D states no price per unit; minimumInvestmentAccepted is in details.',
    unitsOffered: null,
    currency: 'USD',
    exemptions: d.federalExemptions.map(exemption),
    date: isoDay(row.filedAt) ?? d.signatureDate,
    dateField: row.filedAt ? 'filedAt' : 'signatureDate',
    filedAt: isoDay(row.filedAt),
    dateOfFirstSale: d.dateOfFirstSale,
    deadline: null,
    isAmendment: d.isAmendment ?? row.formType === 'D/A',
    isPreliminary: null,
    status: null,
    unknownTerms: [],
    registrationFileNumber: null,
    fileNumber: null,
    previousAccessionNumber: d.previousAccessionNumber,
    intermediaries: d.salesCompensation.map((s) => s.associatedBrokerDealerName ?? s.name).filter((n, i, all): n is string => !!n && all.indexOf(n) === i),
    accessionNumber: row.accessionNumber,
    sourceDocument: row.sourceKey,
    details: {
      industryGroup: d.industryGroup,
      investmentFundType: d.investmentFundType,
      minimumInvestmentAccepted: d.minimumInvestmentAccepted,
      totalNumberAlreadyInvested: d.totalNumberAlreadyInvested,
      hasNonAccreditedInvestors: d.hasNonAccreditedInvestors,
      salesCommissions: d.salesCommissions,
      findersFees: d.findersFees,
      moreThanOneYear: d.moreThanOneYear,
      isBusinessCombination: d.isBusinessCombination,
      coIssuers: d.coIssuers.map((c) => ({ cik: c.cik, name: c.name })),
    },
    capitalization: null,
    economics: null,
  };
}

function formC(row: FormRow): Omit<Offering, 'linkedFilings' | 'citationUrl' | 'citationNullReason'> {
  const d = row.data as FormCData;
  const o = d.offering;
  const security = o ? (o.securityType === 'Other' && o.securityTypeOther ? o.securityTypeOther : (o.securityType ?? o.securityTypeOther)) : null;
  return {
    id: row.id,
    regime: 'reg_cf',
    offeringType: 'reg_cf',
    offeringTypeConfidence: 'high',
    formType: row.formType,
    filingRole: formCRoles[row.formType] ?? 'other',
    issuer: { cik: row.cik ?? d.issuer.cik, name: d.issuer.name, ticker: null, exchange: null },
    securitiesOffered: security,
    amountOffered: o?.maximumAmount ?? o?.targetAmount ?? null,
    amountOfferedField: o?.maximumAmount != null ? 'offeringInformation.maximumOfferingAmount' : o?.targetAmount != null ? 'offeringInformation.offeringAmount' : null,
    amountOfferedNullReason: o ? (o.maximumAmount === null && o.targetAmount === null ? 'The offering information states no amount.' : null) : `A ${row.formType} carries no offering information.`,
    targetAmount: o?.targetAmount ?? null,
    amountSold: null,
    amountSoldField: null,
    amountSoldNullReason: 'Form C states the target and maximum amounts; the amount sold is not a field of the form.',
    amountRemaining: null,
    pricePerUnit: o?.price ?? null,
    pricePerUnitNullReason: o?.price != null ? null : o ? 'The offering information states no price.' : `A ${row.formType} carries no offering information.`,
    unitsOffered: o?.numberOfSecurities ?? null,
    currency: 'USD',
    exemptions: [exemption('4(a)(6)')],
    date: isoDay(row.filedAt) ?? d.signatureDate,
    dateField: row.filedAt ? 'filedAt' : 'signatureDate',
    filedAt: isoDay(row.filedAt),
    dateOfFirstSale: null,
    deadline: o?.deadline ?? null,
    isAmendment: /\/A$/.test(row.formType),
    isPreliminary: null,
    status: null,
    unknownTerms: [],
    registrationFileNumber: null,
    fileNumber: d.fileNumber,
    previousAccessionNumber: null,
    intermediaries: d.intermediary?.name ? [d.intermediary.name] : [],
    accessionNumber: row.accessionNumber,
    sourceDocument: row.sourceKey,
    details: {
      oversubscriptionAccepted: o?.oversubscriptionAccepted ?? null,
      intermediaryCompensation: o?.compensation ?? null,
      progressUpdate: d.progressUpdate,
      natureOfAmendment: d.natureOfAmendment,
      period: d.period,
      intermediary: d.intermediary,
    },
    capitalization: null,
    economics: null,
  };
}

/** The FormRecord families offerings are read from: registered, Regulation D, Crowdfunding, Regulation A. */
const offeringFamilies = ['OFFERING', 'D', 'C', '1-A'];

function normalize(row: FormRow) {
  if (row.family === 'OFFERING') return registered(row);
  if (row.family === 'D') return formD(row);
  return formC(row);
}

export interface OfferingFilter {
  ciks?: string[] | null;
  type?: NormalizedOfferingType | null;
  from?: string | null;
  to?: string | null;
}

function whereOf(filter: OfferingFilter): Prisma.FormRecordWhereInput {
  const type = filter.type;
  const byType: Prisma.FormRecordWhereInput =
    !type ? { family: { in: offeringFamilies } }
    : type === 'reg_d' ? { family: 'D' }
    : type === 'reg_cf' ? { family: 'C' }
    : type === 'reg_a' ? { family: '1-A' }
    : { family: 'OFFERING', data: { path: ['offeringType'], equals: type === 'other_registered' ? 'other' : type } };
  return {
    ...byType,
    isSample: false,
    ...(filter.ciks ? { cik: { in: filter.ciks } } : {}),
    ...(filter.from || filter.to ? { orderedAt: { ...(filter.from ? { gte: new Date(filter.from) } : {}), ...(filter.to ? { lte: new Date(filter.to) } : {}) } } : {}),
  };
}

const select = { id: true, accessionNumber: true, family: true, formType: true, cik: true, filedAt: true, orderedAt: true, data: true, sourceKey: true, entity: { select: { name: true } } } as const;

/** Newest first by (orderedAt, id). */
const offeringsCursor = pageCursor('offerings', z.tuple([cursorDay, z.string()]).transform(([day, id]) => ({ orderedAt: new Date(day), id })));
const placeOf = (row: { orderedAt: Date; id: string }): [string, string] => [row.orderedAt.toISOString().slice(0, 10), row.id];

/**
 * Offerings, newest first, keyset-paginated: by filing date; a document read without its filing date by
 * the date it gives itself ("Subject to Completion, dated December 12, 2024"); one that states neither last.
 */
export async function listOfferings(reader: DataReader, filter: OfferingFilter, page: { first: number; after?: string | null }) {
  const where = whereOf(filter);
  const after = page.after ? offeringsCursor.decode(page.after) : null;
  const rows = await reader.prisma.formRecord.findMany({
    where: after ? { AND: [where, { OR: [{ orderedAt: { lt: after.orderedAt } }, { orderedAt: after.orderedAt, id: { lt: after.id } }] }] } : where,
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    take: page.first + 1,
    select,
  });
  const hasMore = rows.length > page.first;
  const pageRows = rows.slice(0, page.first);
  const nodes = await finish(reader, pageRows);
  return { nodes, hasMore, nextCursor: hasMore ? offeringsCursor.encode(placeOf(pageRows[pageRows.length - 1]!)) : null };
}

export async function getOffering(reader: DataReader, id: string): Promise<Offering | null> {
  const row = await reader.prisma.formRecord.findFirst({ where: { id, family: { in: offeringFamilies } }, select });
  if (!row) return null;
  return (await finish(reader, [row]))[0]!;
}

/**
 * When the registration a filing belongs to was declared effective, from EDGAR's EFFECT notices of its
 * file number: the notice that names the filing, else for a registration statement (or its amendment,
 * or a post-effective amendment) the first notice on or after it, and for a prospectus the last one on
 * or before it (the registration it is sold under).
 */
function effectiveFor(o: Omit<Offering, 'linkedFilings' | 'citationUrl' | 'citationNullReason'>, fileNumber: string | null, effects: { accessionNumber: string; cik: string; filedAt: Date | null; fileNumber: string | null; items: string[] }[]): Figure<string> | null {
  if (!fileNumber || !o.date) return null;
  const mine = effects.filter((e) => e.cik === o.issuer.cik && e.fileNumber === fileNumber);
  const day = (e: (typeof mine)[number]) => isoDay(e.filedAt)!;
  const named = mine.find((e) => o.accessionNumber && e.items.includes(o.accessionNumber));
  const effect = named ?? (o.filingRole === 'prospectus' ? mine.filter((e) => day(e) <= o.date!).pop() : mine.find((e) => day(e) >= o.date!));
  if (!effect) return null;
  // the notice's index line may give the moment ("S-3,,2022-01-28 16:30:00"); else its filing date
  const stated = effect.items.find((item) => /^\d{4}-\d{2}-\d{2}/.test(item))?.slice(0, 10) ?? day(effect);
  return {
    value: stated,
    reason: null,
    asOf: null,
    approximate: false,
    sourceSpan: `EDGAR index: EFFECT ${effect.accessionNumber} filed ${day(effect)}, file number ${fileNumber}${effect.items.length ? ` (${effect.items.join(', ')})` : ''}`,
    section: null,
    page: null,
    confidence: 'high',
    method: named ? 'edgar_effect_notice_naming_filing' : 'edgar_effect_notice_of_file_number',
  };
}

/** Citations and the filings each offering is linked to. */
async function finish(reader: DataReader, rows: FormRow[]): Promise<Offering[]> {
  const normalized = rows.map(normalize);
  // the other filings of the same issuers: linked where a file number or an amended accession ties them
  const ciks = [...new Set(normalized.map((o) => o.issuer.cik).filter((c): c is string => !!c))];
  const registeredCiks = [...new Set(normalized.filter((o) => o.regime === 'registered').map((o) => o.issuer.cik).filter((c): c is string => !!c))];
  const [cited, siblings, registrationFilings] = await Promise.all([
    citeRecords(reader, rows),
    ciks.length
      ? reader.prisma.formRecord.findMany({ where: { cik: { in: ciks }, family: { in: offeringFamilies }, isSample: false }, select, orderBy: [{ orderedAt: 'asc' }, { id: 'asc' }] }).then((found) => found.map(normalize))
      : [],
    // the file numbers of the registered filings (a registration statement's own cover names none until
    // the SEC assigns it) and the EFFECT notices of those companies
    registeredCiks.length
      ? reader.prisma.filing.findMany({
          where: { cik: { in: registeredCiks }, OR: [{ form: 'EFFECT' }, { accessionNumber: { in: normalized.map((o) => o.accessionNumber).filter((a): a is string => !!a) } }] },
          select: { accessionNumber: true, cik: true, form: true, filedAt: true, fileNumber: true, items: true },
          orderBy: [{ filedAt: 'asc' }, { accessionNumber: 'asc' }],
        })
      : [],
  ]);
  const effects = registrationFilings.filter((f) => f.form === 'EFFECT' && f.fileNumber && f.filedAt);
  const fileNumberOf = new Map(registrationFilings.filter((f) => f.form !== 'EFFECT').map((f) => [f.accessionNumber, f.fileNumber]));
  return normalized.map((o, i) => {
    if (o.economics && o.economics.registrationEffective.value === null) {
      const effective = effectiveFor(o, o.registrationFileNumber ?? (o.accessionNumber ? (fileNumberOf.get(o.accessionNumber) ?? null) : null), effects);
      if (effective) o.economics = { ...o.economics, registrationEffective: effective };
    }
    const linkedFilings: LinkedFiling[] = [];
    for (const s of siblings) {
      if (s.id === o.id || s.issuer.cik !== o.issuer.cik) continue;
      let link: string | null = null;
      if (o.regime === 'registered' && s.regime === 'registered') {
        if (o.registrationFileNumber && s.registrationFileNumber === o.registrationFileNumber) link = `registration file number ${o.registrationFileNumber}`;
        // a shelf's amendments and post-effective amendments name no file number until effective: same issuer, registration-statement forms
        else if (!o.registrationFileNumber || !s.registrationFileNumber) link = `same issuer's registration statement filings (no shared file number stated: ${o.registrationFileNumber ?? 'this filing states none'})`;
      } else if (o.regime === 'reg_cf' && s.regime === 'reg_cf' && o.fileNumber && s.fileNumber === o.fileNumber) link = `Form C file number ${o.fileNumber}`;
      else if (o.regime === 'reg_d' && s.regime === 'reg_d') {
        if (o.previousAccessionNumber && s.accessionNumber === o.previousAccessionNumber) link = `amends ${o.previousAccessionNumber}`;
        else if (s.previousAccessionNumber && s.previousAccessionNumber === o.accessionNumber) link = `amended by ${s.accessionNumber ?? s.id}`;
      }
      if (link) linkedFilings.push({ offeringId: s.id, accessionNumber: s.accessionNumber, formType: s.formType, filingRole: s.filingRole, date: s.date, link });
    }
    const { citationUrl } = cited[i]!;
    return { ...o, linkedFilings, citationUrl, citationNullReason: citationUrl ? null : noAccession };
  });
}
