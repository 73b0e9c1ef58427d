// Registered offerings (S-1, S-3, their amendments, 424B prospectuses, POS AM): the facts of the
// cover page. The input is the full submission .txt or the document's HTML; values are as printed.
import { maximumFromFeeTable } from './fees.ts';
import {
  coverOf,
  distributors,
  formTypeOnPage,
  listing,
  maximumOnCover,
  pricing,
  registrantNameOnPage,
  registrationFileNumber,
  rule415Checked,
  securitiesOffered,
  sharesOffered,
} from './cover.ts';
import { readOffering } from './source.ts';
import { toIsoDate, writtenDate } from '../eightK/text.ts';
import { classifyOffering, type Confidence, type OfferingType } from './type.ts';


export interface OfferingDocument {
  /** from the submission header; null for a bare document */
  accessionNumber: string | null;
  /** as filed: 'S-1', 'S-3/A', '424B4', '424B5', 'POS AM'; read from the page when there is no header */
  formType: string;
  filedAt: string | null;
  /** CIK is 10 digits */
  registrant: { cik: string | null; name: string | null };
  /** the Securities Act file number, e.g. '333-283312'; null while the page leaves it blank */
  registrationFileNumber: string | null;
  /** the cover's title lines, joined with '; ' ("330,000 Shares of Common Stock; Warrants to Purchase ...") */
  securitiesOffered: string | null;
  sharesOffered: number | null;
  pricePerShare: number | null;
  /** the total of the pricing table's offering-price row */
  grossProceeds: number | null;
  /** the most that may be sold ("up to $3,000,000"); null for a deregistration, which offers nothing */
  maximumAggregateOffering: number | null;
  /** where maximumAggregateOffering was read: the cover, or the filing-fee exhibit */
  maximumAggregateOfferingSource: 'cover' | 'fee_table' | null;
  exchange: string | null;
  ticker: string | null;
  /** underwriters named on the cover (they buy the securities) */
  underwriters: string[];
  /** placement agents named on the cover (best efforts; not underwriters) */
  placementAgents: string[];
  /** sales agents of an at-the-market program */
  salesAgents: string[];
  /** a red herring ("subject to completion") or a registration statement not yet effective */
  isPreliminary: boolean;
  /**
   * the date the document gives itself (YYYY-MM-DD): "Subject to Completion, dated December 12, 2024",
   * "The date of this prospectus supplement is …"; null when it prints none
   */
  documentDate?: string | null;
  /** the terms a preliminary document leaves blank (unknown until priced), by field name */
  blanks?: ('sharesOffered' | 'pricePerShare' | 'grossProceeds')[];
  /** registered for delayed or continuous offering (Rule 415 box checked), or a supplement to a base prospectus */
  isShelf: boolean;
  offeringType: OfferingType;
  /** how sure the offeringType call is */
  confidence: Confidence;
  /** the cover sentence the offeringType rests on */
  excerpt: string;
}

const registrationStatement = /^(S-1|S-3|F-1|F-3|S-11)(\/A)?$/i;

/** The date the cover gives the document itself: a red herring's "dated …", a final's "The date of this prospectus … is …". */
function documentDateOf(cover: string): string | null {
  const stated =
    cover.match(new RegExp(String.raw`subject to completion,?\s+dated\s+(${writtenDate})`, 'i')) ??
    cover.match(new RegExp(String.raw`(?:preliminary )?prospectus(?: supplement)? dated\s+(${writtenDate})(?!\))`, 'i')) ??
    cover.match(new RegExp(String.raw`The date of this prospectus(?: supplement)? is\s+(${writtenDate})`, 'i'));
  return stated ? toIsoDate(stated[1]!.replace(/\s+/g, ' ')) : null;
}

export function parseOffering(input: { text: string; name: string }): OfferingDocument {
  const source = readOffering(input);
  const cover = coverOf(source.text);
  const formType = source.formType ?? formTypeOnPage(cover);
  if (!formType) throw new Error(`${input.name}: no registration statement or prospectus form found (no header, no Rule 424 legend, no form name)`);
  const registrantName = source.registrant.name ?? registrantNameOnPage(source.text);
  const { exchange, ticker } = listing(cover);
  const { pricePerShare, grossProceeds } = pricing(cover);
  const isShelf = rule415Checked(cover) || (/^424B/i.test(formType) && /\(To (?:Base )?Prospectus dated/i.test(cover));
  const isPreliminary =
    /subject to completion|preliminary prospectus/i.test(cover) || (registrationStatement.test(formType) && /delay its effective date/i.test(source.text.slice(0, 30_000)));
  const sellers = distributors(cover);
  const classification = classifyOffering({ formType, cover, isShelf, isListed: ticker !== null, hasPrice: pricePerShare !== null, hasPlacementAgent: sellers.placementAgents.length > 0 });
  const fromCover = classification.offeringType === 'deregistration' ? null : maximumOnCover(cover);
  const fromFees = fromCover === null && classification.offeringType !== 'deregistration' && source.feeExhibit ? maximumFromFeeTable(source.feeExhibit) : null;
  return {
    accessionNumber: source.accessionNumber,
    formType,
    filedAt: source.filedAt,
    registrant: { cik: source.registrant.cik, name: registrantName },
    registrationFileNumber: registrationFileNumber(cover),
    securitiesOffered: securitiesOffered(cover, registrantName),
    sharesOffered: sharesOffered(cover),
    pricePerShare,
    grossProceeds,
    maximumAggregateOffering: fromCover ?? fromFees,
    maximumAggregateOfferingSource: fromCover !== null ? 'cover' : fromFees !== null ? 'fee_table' : null,
    exchange,
    ticker,
    ...sellers,
    isPreliminary,
    documentDate: documentDateOf(cover),
    // a preliminary supplement leaves its pricing blank: those terms are unknown until the final prospectus
    // (a registration statement is not priced on its cover at all, so it has no blanks to state)
    blanks: isPreliminary && /^424B/i.test(formType) ? (['sharesOffered', 'pricePerShare', 'grossProceeds'] as const).filter((field) => ({ sharesOffered: sharesOffered(cover), pricePerShare, grossProceeds })[field] === null) : [],
    isShelf,
    ...classification,
  };
}
