// The dilution terms of a registered offering, read from the prospectus text: what kind of
// offering, how many shares at what price, warrants, who sells, lock-ups, rights of first refusal,
// shelf and at-the-market capacity (with the baby-shelf limit), shares outstanding before and
// after, and the Dilution section's net tangible book value figures. Every value cites the exact
// sentence or table row it came from; a value the document does not state is null, never 0.
import type { OfferingDocument } from './offerings.ts';
import { parseOffering } from './offerings.ts';
import { readOffering } from './source.ts';
import { registeredDirect } from './type.ts';
import {
  cite,
  count,
  firstCited as find,
  firstDate,
  money,
  numberWord,
  quantity,
  scaled,
  sectionUnder,
  shareCount,
  unitsOf,
  writtenDate,
  toIsoDate,
  type Cited,
  type Confidence,
  type Field,
  type Unit,
} from './citedText.ts';
import { aggregateWarrantShares, warrantsIn, type WarrantTerms } from './warrants.ts';
import { capitalizationOf, type Capitalization } from './capitalization.ts';
import { economicsOf, recountedActionsIn, recountedOfferingsIn, type Economics, type RecountedAction, type RecountedOffering } from './economics.ts';
import { reverseSplitsIn, type ReverseSplit } from '../eightK/dilution.ts';

export type { Cited, Confidence, Field } from './citedText.ts';
export type { WarrantKind, WarrantTermLength, WarrantTerms } from './warrants.ts';
export type { Capitalization } from './capitalization.ts';
export type { Economics, FeeType, RecountedAction, RecountedOffering } from './economics.ts';
export type { Figure, SpanLocation } from './citedText.ts';

export type DilutionOfferingType =
  | 'atm'
  | 'registered_direct'
  | 'underwritten'
  | 'best_efforts'
  | 'shelf_takedown'
  | 'ipo'
  | 'shelf_registration'
  | 'resale'
  | 'deregistration'
  | 'other';

export interface Distributor {
  role: 'underwriter' | 'placement_agent' | 'sales_agent';
  name: string;
}

export type LockupParty = 'officers' | 'directors' | 'stockholders' | 'company';

export interface Lockup {
  /** a holders' lock-up, the issuer's standstill on new issuance, or its ban on variable-rate deals */
  kind: 'lockup' | 'issuer_standstill' | 'variable_rate_prohibition';
  parties: LockupParty[];
  /** the length as printed, in its unit */
  length: number;
  unit: 'days' | 'trading_days' | 'months';
  /** approximate length in calendar days (months x 30, trading days x 7/5); for sorting only */
  days: number;
  /** what the period runs from, as printed ("the date of this prospectus") */
  from: string | null;
}

export interface RightOfFirstRefusal {
  kind: 'right_of_first_refusal' | 'participation_right';
  /** the length as printed, in months; null when the sentence gives none */
  months: number | null;
  /** the financings it covers, as printed */
  scope: string | null;
}

export interface BabyShelf {
  /** public float (non-affiliate market value) as the document states it; asOf = the stated date */
  publicFloat: Field<number>;
  /** one third of the float, as printed, or computed from the float (method says which) */
  oneThirdLimit: Field<number>;
  /** sold under General Instruction I.B.6 in the prior 12 months, as printed */
  soldPrior12Months: Field<number>;
  /** what may still be sold: as printed ("leaving $X"), else one third of the float less the sales */
  remainingCapacity: Field<number>;
}

export interface DilutionTerms {
  accessionNumber: string | null;
  formType: string | null;
  offeringType: Field<DilutionOfferingType>;
  /** a takedown from an effective shelf: a 424B supplement "(To Prospectus dated ...)" */
  shelfTakedown: Field<boolean>;
  sharesOffered: Field<number>;
  pricePerShare: Field<number>;
  grossProceeds: Field<number>;
  warrants: WarrantTerms[];
  /** all warrant shares together, when the document gives only the total */
  warrantSharesAggregate: Field<number>;
  distributors: Cited<Distributor>[];
  lockups: Cited<Lockup>[];
  rightsOfFirstRefusal: Cited<RightOfFirstRefusal>[];
  /** the base prospectus's most that may be sold (the universal shelf) */
  shelfSize: Field<number>;
  /** an at-the-market program's maximum aggregate offering price */
  atmProgramSize: Field<number>;
  babyShelf: BabyShelf;
  /** reverse splits the document recounts (its share figures are adjusted for them), each with its sentence */
  reverseSplits: Cited<ReverseSplit>[];
  sharesOutstandingBefore: Field<number>;
  sharesOutstandingAfter: Field<number>;
  /**
   * warrants already outstanding before this offering, as the document counts them ("965,247 shares of
   * common stock issuable upon the exercise of outstanding warrants having a weighted average exercise
   * price of $8.18 per share"); asOf = the date the list is stated as of
   */
  warrantsOutstanding?: Field<{ shares: number; weightedAverageExercisePrice: number | null }>;
  /** the Dilution section: historical NTBV per share (negative for a deficit) */
  ntbvPerShareBefore: Field<number>;
  ntbvPerShareAfter: Field<number>;
  dilutionPerShare: Field<number>;
  /** true when the document has a Dilution section heading */
  hasDilutionSection: boolean;
  /**
   * the capitalization the document states as of a date (shares before and after, and the options,
   * warrants, RSUs, plan reserve and preferred its share count excludes); absent on a record read
   * before these were read
   */
  capitalization?: Capitalization;
  /** fees, proceeds, dates, over-allotment, I.B.6 sales, effectiveness; absent on a record read before these were read */
  economics?: Economics;
  /** sales of stock the document recounts as done, each with its date and sentence */
  recountedOfferings?: Cited<RecountedOffering>[];
  /** corporate actions the document recounts: a registration declared effective, a Form 25 filed to delist */
  recountedActions?: Cited<RecountedAction>[];
  /** why parts of the document could not be read; empty on a clean parse */
  failures: string[];
}

const emptyTerms = (doc: Pick<OfferingDocument, 'accessionNumber' | 'formType'> | null): DilutionTerms => ({
  accessionNumber: doc?.accessionNumber ?? null,
  formType: doc?.formType ?? null,
  offeringType: null,
  shelfTakedown: null,
  sharesOffered: null,
  pricePerShare: null,
  grossProceeds: null,
  warrants: [],
  warrantSharesAggregate: null,
  distributors: [],
  lockups: [],
  rightsOfFirstRefusal: [],
  shelfSize: null,
  atmProgramSize: null,
  babyShelf: { publicFloat: null, oneThirdLimit: null, soldPrior12Months: null, remainingCapacity: null },
  reverseSplits: [],
  sharesOutstandingBefore: null,
  sharesOutstandingAfter: null,
  warrantsOutstanding: null,
  ntbvPerShareBefore: null,
  ntbvPerShareAfter: null,
  dilutionPerShare: null,
  hasDilutionSection: false,
  recountedOfferings: [],
  recountedActions: [],
  failures: [],
});

const dollars = String.raw`\$\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`;

/** Where the supplement (or the registration statement's prospectus) ends and the base prospectus or Part II begins. */
function prospectusScope(text: string, formType: string): { own: string; base: string } {
  const partTwo = text.search(/^\s*PART II\b/m);
  if (/^424B/i.test(formType)) {
    const baseCover = /^\s*\$\d{1,3}(?:,\d{3}){2,}\s*$/m.exec(text.slice(5000));
    if (baseCover) {
      const at = baseCover.index + 5000;
      const before = text.slice(Math.max(0, at - 600), at);
      const heading = before.search(/^\s*(?:PROSPECTUS|Prospectus)\s*$/m);
      const cut = heading >= 0 ? at - before.length + heading : at;
      return { own: text.slice(0, cut), base: text.slice(cut) };
    }
  }
  if (partTwo > 0) return { own: text.slice(0, partTwo), base: '' };
  return { own: text, base: '' };
}

function mapOfferingType(doc: OfferingDocument, cover: Unit[], isShelfTakedown: boolean): Field<DilutionOfferingType> {
  // prose before table rows: a sentence says more than a pricing-table label
  const ordered = [...cover.filter((u) => !/\S {3,}\S/.test(u.text)), ...cover.filter((u) => /\S {3,}\S/.test(u.text))];
  const pick = (type: DilutionOfferingType, pattern: RegExp, confidence: Confidence, method: string) =>
    find(ordered, pattern, (m, u) => cite(type, u.text, m, confidence, method));
  switch (doc.offeringType) {
    case 'atm':
      return pick('atm', /\bat[- ]the[- ]market\b|\bsales agreement\b|\bequity distribution agreement\b/i, doc.confidence, 'cover_atm_agreement');
    case 'ipo':
      return pick('ipo', /\binitial public offering\b|\bno public market\b/i, doc.confidence, 'cover_initial_public_offering');
    case 'resale':
      return pick('resale', /\bselling (?:stock|share)holders?\b|\bresale\b/i, doc.confidence, 'cover_resale');
    case 'deregistration':
      return pick('deregistration', /\bderegist/i, doc.confidence, 'cover_deregistration');
    case 'shelf':
      return pick('shelf_registration', /\bfrom time to time\b|\bRule 415\b/i, doc.confidence, 'cover_shelf_registration');
    // the cover's classification decides the type (type.ts); the terms cite the sentence it rests on,
    // so an offering and its terms never name two types
    case 'registered_direct':
      return pick('registered_direct', registeredDirect, 'high', 'cover_placement_agent_direct_sale') ?? cite('registered_direct', doc.excerpt, null, doc.confidence, 'cover_placement_agent_direct_sale');
    case 'follow_on': {
      if (doc.placementAgents.length) return pick('best_efforts', /\bplacement agents?\b|\bbest efforts\b/i, 'medium', 'cover_placement_agent_best_efforts');
      if (doc.underwriters.length) return pick('underwritten', /\bunderwriters?\b|\bunderwriting\b/i, 'high', 'cover_underwriters');
      if (isShelfTakedown) return pick('shelf_takedown', /\(To (?:Base )?Prospectus dated/i, 'medium', 'supplement_to_base_prospectus');
      return pick('other', /\bwe are offering\b|\boffering\b/i, 'low', 'cover_offering');
    }
    default:
      return null;
  }
}

function distributorsOf(doc: OfferingDocument, units: Unit[]): Cited<Distributor>[] {
  const out: Cited<Distributor>[] = [];
  const roles: [Distributor['role'], string[], RegExp][] = [
    ['underwriter', doc.underwriters, /underwrit|book-?running|manager/i],
    ['placement_agent', doc.placementAgents, /placement agent/i],
    ['sales_agent', doc.salesAgents, /sales agent|sales agreement|agent/i],
  ];
  for (const [role, names, context] of roles) {
    for (const name of names) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern = new RegExp(escaped);
      const withRole = units.find((u) => pattern.test(u.text) && context.test(u.text));
      const any = withRole ?? units.find((u) => pattern.test(u.text));
      if (!any) continue;
      out.push(cite({ role, name }, any.text, any.text.match(pattern), withRole ? 'high' : 'medium', withRole ? 'cover_distributor_with_role' : 'cover_distributor_heading'));
    }
  }
  return out;
}

/** A placement agent named in the text, when the cover names none: "a Placement Agent Agreement with Maxim Group LLC". */
function agentInText(units: Unit[]): Cited<Distributor>[] {
  const pattern = /\b(?:[Pp]lacement [Aa]gent [Aa]greement|[Pp]lacement [Aa]gency [Aa]greement|[Ee]ngagement [Ll]etter|[Uu]nderwriting [Aa]greement) with ((?:[A-Z][\w&.'’-]*,?\s){0,5}?(?:LLC|Inc\.|L\.P\.|Corp\.|Ltd\.|LLP))(?:\s*\(the “(Placement Agent|Underwriter|Representative)”\))?/;
  for (const unit of units) {
    const m = unit.text.match(pattern);
    if (!m) continue;
    const role: Distributor['role'] = /underwrit|representative/i.test(m[0]) ? 'underwriter' : 'placement_agent';
    return [cite({ role, name: m[1]!.replace(/,$/, '') }, unit.text, m, 'medium', 'agreement_with_agent')];
  }
  return [];
}

function partiesOf(text: string): LockupParty[] {
  const parties: LockupParty[] = [];
  if (/\bofficers?\b/i.test(text)) parties.push('officers');
  if (/\bdirectors?\b/i.test(text)) parties.push('directors');
  if (/\b(?:stockholders|shareholders|holders of (?:our|the) (?:outstanding )?(?:common stock|shares))\b/i.test(text)) parties.push('stockholders');
  return parties;
}

function lockupsOf(priority: Unit[]): Cited<Lockup>[] {
  const out: Cited<Lockup>[] = [];
  const period = new RegExp(String.raw`(?:period of|for|through(?: and including)?(?: the date that is)?|expiring|continuing through(?: the)?|until(?: the date that is)?)\s+(${numberWord})\s+(calendar days|trading days|days|months)\s+(?:following|after|from)\s+(?:the\s+)?([a-z][a-z ()]{3,60}?(?:offering|prospectus(?: supplement)?|agreement|date|closing))`, 'i');
  for (const unit of priority) {
    const text = unit.text;
    const m = text.match(period);
    if (!m) continue;
    let kind: Lockup['kind'] | null = null;
    let parties: LockupParty[] = [];
    if (/variable rate transaction/i.test(text)) {
      kind = 'variable_rate_prohibition';
      parties = ['company'];
    } else if (/\b(?:we (?:have )?(?:also )?agreed|we are (?:also )?prohibited|the company has agreed)\b[^.]*\b(?:issu|lock-up)/i.test(text)) {
      kind = /lock-up/i.test(text) ? 'lockup' : 'issuer_standstill';
      parties = ['company'];
    } else if (/lock-?up|not to (?:offer|sell|dispose)|not to sell|dispose of or hedge/i.test(text)) {
      kind = 'lockup';
      parties = partiesOf(text.slice(0, m.index));
    }
    if (!kind || !parties.length) continue;
    const length = quantity(m[1]!)!;
    const unitName: Lockup['unit'] = /trading/i.test(m[2]!) ? 'trading_days' : /month/i.test(m[2]!) ? 'months' : 'days';
    const days = unitName === 'months' ? length * 30 : unitName === 'trading_days' ? Math.round((length * 7) / 5) : length;
    const value: Lockup = { kind, parties, length, unit: unitName, days, from: m[3]!.trim() };
    if (out.some((l) => l.value.kind === kind && l.value.length === length && l.value.unit === unitName && l.value.parties.join() === parties.join())) continue;
    out.push(cite(value, text, m, 'high', kind === 'lockup' ? 'lockup_sentence' : `${kind}_sentence`));
  }
  return out;
}

function rofrOf(units: Unit[]): Cited<RightOfFirstRefusal>[] {
  const out: Cited<RightOfFirstRefusal>[] = [];
  for (const unit of units) {
    const text = unit.text;
    const m = text.match(/\bright of first refusal\b|\bparticipation rights?\b|\bright to participate in (?:any |future |subsequent )?(?:offerings?|financings?|sales?|issuances?)/i);
    if (!m) continue;
    const months = text.match(new RegExp(String.raw`(${numberWord})[- ]months?\b`, 'i'));
    const scope = text.match(/\b(?:for|in|on) (?:any |each |all )?((?:future |subsequent )?(?:public or private |equity, equity-linked or debt |equity or debt )?(?:offerings?|financings?|capital[- ]raising transactions?)[^.,;]{0,80})/i);
    out.push(
      cite(
        { kind: /first refusal/i.test(m[0]) ? 'right_of_first_refusal' : 'participation_right', months: months ? quantity(months[1]!) : null, scope: scope ? scope[1]!.trim() : null },
        text,
        m,
        months ? 'high' : 'medium',
        'rofr_sentence',
      ),
    );
  }
  return out;
}

function shelfSizeOf(units: Unit[]): Field<number> {
  const patterns = [
    new RegExp(String.raw`aggregate (?:initial )?offering price of (?:all )?(?:the )?securities[^.]{0,60}?(?:will|may) not exceed ${dollars}(?!\s*(?:million|billion))`, 'i'),
    new RegExp(String.raw`\b(?:any combination|in one or more offerings)\b[^.]{0,200}?(?:aggregate (?:initial )?offering price (?:not exceeding|of up to|of)|maximum aggregate offering price of|total (?:maximum offering price not to exceed|dollar amount of)|up to a total dollar amount of)\s+${dollars}`, 'i'),
    new RegExp(String.raw`primary offering by us of up to an aggregate offering price of ${dollars}`, 'i'),
  ];
  for (const pattern of patterns) {
    const hit = find(units, pattern, (m, u) => (/sales agreement|at[- ]the[- ]market/i.test(u.text) ? null : cite(count(m[1]!), u.text, m, 'high', 'base_prospectus_shelf_amount')));
    if (hit) return hit;
  }
  return null;
}

function babyShelfOf(units: Unit[]): BabyShelf {
  const result: BabyShelf = { publicFloat: null, oneThirdLimit: null, soldPrior12Months: null, remainingCapacity: null };
  for (const unit of units) {
    const text = unit.text;
    if (!result.publicFloat) {
      const m = text.match(new RegExp(String.raw`aggregate market value of our (?:outstanding )?(?:voting and non-voting )?common (?:stock|equity)[^.]{0,40}?held by non-affiliates[^$]{0,120}?\b(?:was|is|of)\s+(?:approximately\s+)?${dollars}(\s*(?:million|billion))?`, 'i'));
      if (m) {
        const stated = text.match(new RegExp(String.raw`^As of (${writtenDate})`)) ?? text.match(new RegExp(String.raw`held by non-affiliates as of (${writtenDate})`));
        result.publicFloat = cite(scaled(m[1]!, m[2]), text, m, 'high', 'baby_shelf_public_float', stated ? toIsoDate(stated[1]!) : firstDate(text));
      }
    }
    if (!result.oneThirdLimit) {
      const m = text.match(new RegExp(String.raw`one-third of the aggregate market value[^.]{0,120}?, or ${dollars}`, 'i'));
      if (m) result.oneThirdLimit = cite(count(m[1]!), text, m, 'high', 'baby_shelf_one_third_stated');
    }
    if (!result.soldPrior12Months && /\b12(?:-| calendar | )months?\b/i.test(text)) {
      const sold = text.match(new RegExp(String.raw`we have sold[^.]{0,120}?(?:aggregate amount of|gross proceeds of|for an aggregate of)\s+${dollars}`, 'i'));
      const none = text.match(/\bwe have not (?:offered or )?sold any securities pursuant to General Instruction I\.B\.6/i);
      if (sold) result.soldPrior12Months = cite(count(sold[1]!), text, sold, 'high', 'baby_shelf_sold_prior_12_months');
      else if (none) result.soldPrior12Months = cite(0, text, none, 'high', 'baby_shelf_none_sold');
    }
    if (!result.remainingCapacity) {
      const m = text.match(new RegExp(String.raw`leaving ${dollars} (?:that|which) (?:could|may) be sold`, 'i'));
      if (m) result.remainingCapacity = cite(count(m[1]!), text, m, 'high', 'baby_shelf_remaining_stated');
    }
  }
  const float = result.publicFloat;
  if (float && float.value < 75_000_000) {
    if (!result.oneThirdLimit) {
      result.oneThirdLimit = { value: Math.floor(float.value / 3), sourceSpan: float.sourceSpan, confidence: 'medium', method: 'baby_shelf_one_third_computed', asOf: float.asOf ?? null };
    }
    const sold = result.soldPrior12Months;
    if (!result.remainingCapacity && sold) {
      result.remainingCapacity = {
        value: Math.max(0, result.oneThirdLimit.value - sold.value),
        sourceSpan: sold.sourceSpan,
        confidence: 'medium',
        method: 'baby_shelf_remaining_computed',
        asOf: float.asOf ?? null,
      };
    }
  }
  return result;
}

/** The value at the end of a table row: "$   (0.339)", "0.057", "$ 1.41". */
function rowValue(row: string): number | null {
  const m = row.match(/(\(?\$?\s*\(?-?\d[\d,]*(?:\.\d+)?\)?)\s*$/);
  return m ? money(m[1]!) : null;
}

function ntbvOf(text: string, terms: DilutionTerms) {
  const section = sectionUnder(text, /^DILUTION$/i);
  if (!section) return;
  terms.hasDilutionSection = true;
  const units = unitsOf(section.text);
  const rows = units.filter((u) => /\S {3,}\S/.test(u.text));
  const fromRow = (pattern: RegExp, method: string): Field<number> => {
    const row = rows.find((u) => pattern.test(u.text));
    if (!row) return null;
    const value = rowValue(row.text);
    return value === null ? null : cite(value, row.text, null, 'high', method, firstDate(row.text));
  };
  terms.ntbvPerShareBefore =
    fromRow(/^(?:Historical )?net tangible book value(?: \(deficit\))? per (?:share|common share)\b/i, 'dilution_table_historical_ntbv') ??
    find(units, new RegExp(String.raw`historical net tangible book value(?: \(deficit\))? (?:was|of) [^,]{1,40}, or (?:approximately )?\$\s*(\(?[\d.]+\)?) per share`, 'i'), (m, u) =>
      cite(money(m[1]!)!, u.text, m, 'medium', 'dilution_prose_historical_ntbv', firstDate(u.text)),
    );
  terms.ntbvPerShareAfter =
    fromRow(/^(?:Pro forma )?as[- ]adjusted net tangible book value(?: \(deficit\))? per (?:share|common share)\b/i, 'dilution_table_as_adjusted_ntbv') ??
    find(units, new RegExp(String.raw`as[- ]adjusted net tangible book value[^.]{0,80}?, or (?:approximately )?\$\s*(\(?[\d.]+\)?) per share`, 'i'), (m, u) =>
      cite(money(m[1]!)!, u.text, m, 'medium', 'dilution_prose_as_adjusted_ntbv', firstDate(u.text)),
    );
  terms.dilutionPerShare =
    fromRow(/^(?:Immediate )?dilution per share to (?:new )?(?:investors|purchasers)/i, 'dilution_table_dilution_per_share') ??
    find(units, new RegExp(String.raw`immediate dilution[^.]{0,60}? of (?:approximately )?\$\s*([\d.]+) per share to (?:new )?(?:investors|purchasers)`, 'i'), (m, u) =>
      cite(Number(m[1]), u.text, m, 'medium', 'dilution_prose_dilution_per_share'),
    );
}

function outstandingOf(units: Unit[], lines: string[], terms: DilutionTerms, documentDate: string | null) {
  // the count the offering's figures are based on first; else the count the document states of itself
  // ("As of December 31, 2024, there were 44,791,609 shares of common stock and no shares of preferred
  // stock outstanding", "As of the date of this prospectus supplement, there were 3,804,741 shares …")
  terms.sharesOutstandingBefore =
    find(
      units,
      new RegExp(String.raw`\bbased on ${shareCount} shares (?:of (?:our )?common stock )?(?:issued and )?outstanding as of (${writtenDate})`, 'i'),
      (m, u) => cite(count(m[1]!), u.text, m, 'high', 'outstanding_based_on', toIsoDate(m[2]!)),
    ) ??
    find(units, new RegExp(String.raw`\b(?:there (?:were|are)|we had) ${shareCount} shares of (?:our )?common stock(?: and [^.]{0,60}?)? (?:issued and )?outstanding\b`, 'i'), (m, u) => {
      const dated = u.text.match(new RegExp(String.raw`\bas of (${writtenDate})`, 'i'));
      const asOf = dated ? toIsoDate(dated[1]!) : /\bas of the date of this prospectus(?: supplement)?\b/i.test(u.text) ? documentDate : null;
      // a count without the date it describes cannot be placed against anything
      return asOf ? cite(count(m[1]!), u.text, m, 'high', 'outstanding_stated', asOf) : null;
    });
  // "Common stock outstanding after this offering     3,226,723 shares, ..." (a row) or the label with its value on the next line
  const label = /^(?:Shares of )?common stock (?:to be )?outstanding (?:immediately )?after (?:this|the) offering\b/i;
  for (let i = 0; i < lines.length && !terms.sharesOutstandingAfter; i++) {
    const line = lines[i]!.trim();
    if (!label.test(line)) continue;
    const inline = line.match(new RegExp(String.raw`\s{3,}${shareCount} shares\b`));
    if (inline) {
      terms.sharesOutstandingAfter = cite(count(inline[1]!), line, inline, 'high', 'offering_summary_row');
      break;
    }
    const next = lines.slice(i + 1).find((l) => l.trim())?.trim() ?? '';
    const below = next.match(new RegExp(String.raw`^${shareCount} shares\b`));
    if (below) terms.sharesOutstandingAfter = cite(count(below[1]!), next, below, 'high', 'offering_summary_cell');
    break;
  }
}

/**
 * The outstanding warrants of the list of what the share count "excludes … as of <date>": the item's
 * own date when it gives one ("… outstanding warrants at September 30, 2024 …"), else the list's.
 */
function outstandingWarrantsOf(own: string, units: Unit[], terms: DilutionTerms) {
  const pattern = new RegExp(
    String.raw`${shareCount} shares of (?:our )?common stock (?:issuable|reserved for issuance) (?:upon|on) (?:the )?exercise of (?:our )?(?:outstanding (?:or issuable )?(?:common stock )?warrants|(?:common stock )?warrants outstanding)\b(?:[^.;]{0,80}?weighted[- ]average exercise price of (?:approximately )?\$\s*(\d+(?:\.\d+)?))?`,
    'i',
  );
  terms.warrantsOutstanding = find(units, pattern, (m, u) => {
    const lead = [...own.slice(Math.max(0, u.start - 2000), u.start).matchAll(new RegExp(String.raw`\b(?:as of|at) (${writtenDate})`, 'gi'))].pop();
    const asOf = firstDate(u.text) ?? (lead ? toIsoDate(lead[1]!) : null);
    // a count without the date it describes cannot be placed against a share count
    if (!asOf) return null;
    return cite({ shares: count(m[1]!), weightedAverageExercisePrice: m[2] ? Number(m[2]) : null }, u.text, m, 'high', 'outstanding_warrants_excluded', asOf);
  });
}

function pricingOf(doc: OfferingDocument, coverUnits: Unit[], terms: DilutionTerms) {
  const row = coverUnits.find((u) => /^(?:(?:Initial )?public offering price|Price to (?:the )?public|Offering price)\b/i.test(u.text) && /\d/.test(u.text));
  if (row) {
    const amounts = [...row.text.matchAll(new RegExp(dollars, 'g'))].map((m) => count(m[1]!));
    if (amounts.length >= 1) terms.pricePerShare = cite(amounts[0]!, row.text, null, doc.pricePerShare === amounts[0] ? 'high' : 'medium', 'cover_pricing_table_per_share');
    if (amounts.length >= 2) terms.grossProceeds = cite(amounts[amounts.length - 1]!, row.text, null, doc.grossProceeds === amounts[amounts.length - 1] ? 'high' : 'medium', 'cover_pricing_table_total');
  }
  if (!terms.pricePerShare) {
    terms.pricePerShare = find(coverUnits, /\b(?:public )?offering price (?:of|is)\s+\$(\d+(?:\.\d+)?) per share/i, (m, u) => cite(Number(m[1]), u.text, m, 'medium', 'cover_offering_price_sentence'));
  }
  terms.sharesOffered =
    find(coverUnits, new RegExp(String.raw`^(?:Up to\s+)?${shareCount}\s+Shares\b`, 'i'), (m, u) =>
      /\bwarrants?\b/i.test(u.text.slice(0, 40)) ? null : cite(count(m[1]!), u.text, m, doc.sharesOffered === count(m[1]!) ? 'high' : 'medium', 'cover_title_shares'),
    ) ??
    find(coverUnits, new RegExp(String.raw`\b(?:we are|are being) offering\s+(?:directly to [^.]{0,80}?\s)?(?:up to\s+)?${shareCount}\s+shares\b`, 'i'), (m, u) =>
      cite(count(m[1]!), u.text, m, 'medium', 'cover_offering_sentence'),
    );
}

/**
 * Dilution terms of one offering document. `text` is the document as readable text (what
 * `readOffering(...).text` gives); `doc` its cover facts from `parseOffering`. Never throws:
 * what cannot be read is listed in `failures`.
 */
export function dilutionTermsOf(text: string, doc: OfferingDocument): DilutionTerms {
  const terms = emptyTerms(doc);
  if (!text || text.trim().length < 200) {
    terms.failures.push('no readable prospectus text');
    return terms;
  }
  const step = (name: string, run: () => void) => {
    try {
      run();
    } catch (error) {
      terms.failures.push(`${name}: ${(error as Error).message}`);
    }
  };
  const { own, base } = prospectusScope(text, doc.formType);
  const allUnits = unitsOf(text);
  const ownUnits = unitsOf(own);
  const coverEnd = own.search(/^[ \t]*(?:The date of this prospectus(?: supplement)? is|Prospectus(?: Supplement)? dated)\b.*$/im);
  const cover = coverEnd >= 0 ? own.slice(0, coverEnd + 200) : own.slice(0, 20_000);
  const coverUnits = unitsOf(cover);
  const isTakedown = /^424B/i.test(doc.formType) && /\(To (?:Base )?Prospectus dated/i.test(cover);

  step('offering type', () => {
    terms.offeringType = mapOfferingType(doc, coverUnits, isTakedown);
    if (isTakedown) terms.shelfTakedown = find(coverUnits, /\(To (?:Base )?Prospectus dated[^)]*\)/i, (m, u) => cite(true, u.text, m, 'high', 'supplement_to_base_prospectus'));
  });
  step('pricing', () => pricingOf(doc, coverUnits, terms));
  step('warrants', () => {
    terms.warrants = warrantsIn(ownUnits);
    terms.warrantSharesAggregate = aggregateWarrantShares(ownUnits);
  });
  step('distributors', () => {
    terms.distributors = distributorsOf(doc, coverUnits.length ? coverUnits : ownUnits);
    if (!terms.distributors.length) terms.distributors = agentInText(ownUnits);
  });
  step('lock-ups', () => {
    const distribution = sectionUnder(own, /^(?:PLAN OF DISTRIBUTION|UNDERWRITING)$/i);
    const priority = distribution ? [...unitsOf(distribution.text), ...ownUnits] : ownUnits;
    terms.lockups = lockupsOf(priority);
  });
  step('rights of first refusal', () => {
    terms.rightsOfFirstRefusal = rofrOf(ownUnits);
  });
  step('shelf size', () => {
    terms.shelfSize = shelfSizeOf(base ? unitsOf(base) : allUnits);
  });
  step('at-the-market program', () => {
    if (terms.offeringType?.value !== 'atm' && doc.offeringType !== 'atm') return;
    terms.atmProgramSize = find(ownUnits, new RegExp(String.raw`\b(?:sales agreement|distribution agreement|at[- ]the[- ]market)\b[^.]{0,300}?aggregate (?:gross )?(?:offering price|sales price|proceeds) of up to ${dollars}`, 'i'), (m, u) =>
      cite(count(m[1]!), u.text, m, 'high', 'atm_agreement_maximum'),
    );
  });
  step('baby shelf', () => {
    terms.babyShelf = babyShelfOf(allUnits);
  });
  step('reverse splits', () => {
    terms.reverseSplits = reverseSplitsIn(own);
  });
  step('shares outstanding', () => outstandingOf(ownUnits, own.split('\n'), terms, doc.documentDate ?? null));
  step('outstanding warrants', () => outstandingWarrantsOf(own, ownUnits, terms));
  step('dilution section', () => ntbvOf(own, terms));
  const scope = { text, own, units: ownUnits, coverEnd: coverEnd >= 0 ? coverEnd : -1, doc };
  step('economics', () => {
    terms.economics = economicsOf(scope, { grossProceeds: terms.grossProceeds?.value ?? doc.grossProceeds, soldPrior12Months: terms.babyShelf.soldPrior12Months });
  });
  step('capitalization', () => {
    const capitalization = capitalizationOf(scope, { before: terms.sharesOutstandingBefore, after: terms.sharesOutstandingAfter, warrants: terms.warrantsOutstanding ?? null });
    // the count after the offering is as of its closing (the expected delivery date), else the prospectus's date
    const after = capitalization.sharesOutstandingAfter;
    if (after.value !== null) after.asOf = terms.economics?.closingDate.value ?? terms.economics?.offeringDate.value ?? null;
    terms.capitalization = capitalization;
  });
  step('recounted sales and actions', () => {
    terms.recountedOfferings = recountedOfferingsIn(ownUnits);
    terms.recountedActions = recountedActionsIn(ownUnits);
  });
  return terms;
}

/**
 * Read a filing (full submission .txt or the document's HTML) and return its dilution terms, or a
 * failure reason when it is no offering document we can read. Also returns the text the spans cite.
 */
export function dilutionTermsOfFiling(input: { text: string; name: string }): { terms: DilutionTerms; text: string; document: OfferingDocument | null } {
  let text = '';
  try {
    text = readOffering(input).text;
  } catch (error) {
    const terms = emptyTerms(null);
    terms.failures.push(`${input.name}: unreadable submission: ${(error as Error).message}`);
    return { terms, text, document: null };
  }
  let document: OfferingDocument;
  try {
    document = parseOffering(input);
  } catch (error) {
    const terms = emptyTerms(null);
    terms.failures.push((error as Error).message);
    return { terms, text, document: null };
  }
  return { terms: dilutionTermsOf(text, document), text, document };
}
