// The dilution facts of an 8-K: exchange compliance notices (Item 3.01), reverse stock splits
// (Item 5.03) and securities purchase agreements / unregistered sales (Items 1.01, 3.02). The
// item readers work on any passage of text, so the same rules read an issuer's account of those
// events elsewhere (a prospectus's risk factors). Every value cites its sentence verbatim.
import { readEightK } from './cover.ts';
import { splitItems } from './sections.ts';
import { cite, count, firstCited as first, scaled, toIsoDate, unitsOf, writtenDate, type Cited, type Confidence, type Field, type Unit } from '../offerings/citedText.ts';
import { warrantsIn, type WarrantTerms } from '../offerings/warrants.ts';

export type { Cited, Confidence, Field } from '../offerings/citedText.ts';

export type Deficiency =
  | 'minimum_bid_price'
  | 'stockholders_equity'
  | 'market_value_of_listed_securities'
  | 'market_value_of_public_float'
  | 'periodic_filing'
  | 'audit_committee'
  | 'annual_meeting'
  | 'other';

export interface ExchangeNotice {
  /** 'Nasdaq', 'NYSE American', 'NYSE' */
  exchange: Field<string>;
  /** as printed, e.g. 'Nasdaq Listing Rule 5550(b)(1)' */
  rule: Field<string>;
  deficiency: Field<Deficiency>;
  /** YYYY-MM-DD the notice was received */
  noticeDate: Field<string>;
  /** YYYY-MM-DD by which compliance must be regained (compliance period end, extension) */
  deadline: Field<string>;
}

/**
 * An account of regained compliance with a listing rule. 'confirmed': the exchange notified or
 * confirmed that the issuer regained compliance, or closed the matter. 'unconfirmed': the issuer
 * says it meets the requirement but states no confirmation by the exchange, or the sentence is
 * negated ("we have not yet been advised ... that we have regained compliance").
 */
export interface ComplianceRegained {
  exchange: Field<string>;
  rule: Field<string>;
  deficiency: Field<Deficiency>;
  /** cites the sentence that reports the regained compliance */
  status: Cited<'confirmed' | 'unconfirmed'>;
  /** YYYY-MM-DD of the exchange's confirmation, when stated (only for a confirmed cure) */
  confirmedDate: Field<string>;
}

export interface ReverseSplit {
  /** '1-for-20' */
  ratio: string;
  /** old shares combined into one new share (20 for 1-for-20) */
  factor: number;
  effectiveDate: string | null;
}

export interface SecuritiesSale {
  agreementDate: Field<string>;
  /** the agreement as named, e.g. 'securities purchase agreement' */
  agreement: Field<string>;
  purchaser: Field<string>;
  shares: Field<number>;
  pricePerShare: Field<number>;
  grossProceeds: Field<number>;
  placementAgent: Field<string>;
  warrants: WarrantTerms[];
}

export interface EightKDilution {
  accessionNumber: string | null;
  formType: string | null;
  /** the items reported (header first, else the document's headings) */
  items: string[];
  /** the header lists items the document text has no section for (an index-only record) */
  indexOnly: boolean;
  exchangeNotices: { item: string; notice: ExchangeNotice }[];
  /** Item 3.01 accounts of compliance regained (confirmed by the exchange or not) */
  complianceRegained: { item: string; cure: ComplianceRegained }[];
  reverseSplits: { item: string; split: Cited<ReverseSplit> }[];
  securitiesSales: { item: string; sale: SecuritiesSale }[];
  failures: string[];
}

const dated = (pattern: string) => new RegExp(pattern.replace('DATE', `(${writtenDate})`), 'i');

const deficiencies: [Deficiency, RegExp][] = [
  ['minimum_bid_price', /minimum (?:closing )?bid price/i],
  ['stockholders_equity', /(?:stockholders|shareholders)[’']? equity/i],
  ['market_value_of_listed_securities', /market value of listed securities/i],
  ['market_value_of_public_float', /market value of publicly held shares|public float requirement/i],
  ['periodic_filing', /(?:timely )?fil(?:e|ing) (?:its|our|the) (?:Annual Report|Quarterly Report|Form 10-[KQ])|periodic (?:report|filing)/i],
  ['audit_committee', /audit committee/i],
  ['annual_meeting', /annual meeting/i],
];

const exchangeName = /\b(Nasdaq|NYSE American|NYSE Arca|NYSE|New York Stock Exchange)\b/;
const exchangeOf = (m: RegExpMatchArray) => (m[1] === 'New York Stock Exchange' ? 'NYSE' : m[1]!);
const rulePattern = /\b((?:Nasdaq|NYSE American|NYSE)?\s?(?:Listing|Marketplace)?\s?Rules?\s(\d{3,4}(?:\([a-zA-Z0-9]+\))+))/;
const companyGuidePattern = /\bSection (\d{3,4}(?:\([a-z0-9]+\))+) of the NYSE American Company Guide/i;
const ruleOf = (m: RegExpMatchArray) => m[1]!.trim().replace(/\s+/g, ' ');

/** An exchange compliance notice in a passage (an Item 3.01 body, or an issuer's account of one). */
export function exchangeNoticeIn(text: string): ExchangeNotice | null {
  const units = unitsOf(text);
  const notice: ExchangeNotice = {
    exchange: first(units, exchangeName, (m, u) => cite(exchangeOf(m), u.text, m, 'high', 'exchange_named')),
    rule: first(units, rulePattern, (m, u) =>
      /\b(?:failure|not in compliance|deficien|no longer|below|regain|minimum)/i.test(u.text) ? cite(ruleOf(m), u.text, m, 'high', 'rule_cited_with_deficiency') : null,
    ) ?? first(units, companyGuidePattern, (m, u) => cite(m[0], u.text, m, 'high', 'company_guide_section')),
    deficiency: null,
    noticeDate:
      first(units, dated(String.raw`\b(?:notified|received (?:a |an )?(?:deficiency |written )?(?:letter|notice|notification)(?: from [^.]{0,60}?)?) on DATE`), (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'notice_received_on')) ??
      first(units, dated(String.raw`\breceived (?:a |an )?(?:deficiency |written )?(?:letter|notice|notification) (?:dated )?(?:on )?DATE`), (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'notice_letter_dated')) ??
      first(units, dated(String.raw`^On DATE,(?:[^.]|\b(?:Inc|Corp|Co|Ltd|Plc|N\.V|S\.A)\.){0,120}?received`), (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'notice_on_date_received')),
    deadline:
      first(units, dated(String.raw`\b(?:extension|until|through|by|or until) (?:to )?DATE,? to regain compliance`), (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'deadline_to_regain_compliance')) ??
      first(units, dated(String.raw`\b(?:compliance period|period of 180 calendar days)[^.]{0,80}?(?:until|through|ending on|expir\w* on) DATE`), (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'compliance_period_end')) ??
      first(units, dated(String.raw`\bgranted (?:the Company |us )?an extension (?:until|to|through) DATE`), (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'extension_granted')),
  };
  for (const unit of units) {
    if (!/\b(?:not in compliance|no longer in compliance|failure to (?:comply|satisfy|meet)|unable to meet|deficien|does not (?:comply|meet)|below the)\b/i.test(unit.text)) continue;
    const hit = deficiencies.find(([, pattern]) => pattern.test(unit.text));
    if (hit) {
      notice.deficiency = cite(hit[0], unit.text, unit.text.match(hit[1]), 'high', 'deficiency_named');
      break;
    }
  }
  return notice.rule || notice.deficiency ? notice : null;
}

// Regained compliance. A cure is a statement of status, past or present: "has regained compliance",
// "is currently in compliance with", "the matter is now closed". What a deficiency notice says will
// happen ("Nasdaq will provide written confirmation that the Company has regained compliance and
// the matter will be closed"), a deadline ("has until ... to regain compliance") and a hope ("there
// can be no assurance that we will regain compliance") are not cures.
const curePhrase =
  /\b(?:regained compliance|(?:is|are|was|were|remains?|has been|have been) (?:currently |now |again |once again |back )?in compliance with(?! (?:all |each of the |the )?(?:other|remaining)\b)|(?:evidenced|demonstrated) compliance|(?:the|this) matter (?:is|was|has been) (?:now )?closed|cured (?:the|its|this|such) deficienc(?:y|ies))/i;
/** before the cure: it is a condition, a future or a duty, not a status */
const hypothetical = /\b(?:if|unless|whether|until|provided|so long as|as long as|in order to|to the extent|in the event|assurance|will|would|may|might|could|can|shall|should|must|expects?|intends?|plans?|anticipates?|seeks?)\b/i;
/** before the cure: it is denied ("we have not yet formally been advised by Nasdaq that we have regained compliance") */
const negation = /\b(?:not|never|no|yet to|neither|nor|without)\b|n[’']t\b/i;
/** after the cure: the exchange's word is still awaited ("..., although Nasdaq has not yet confirmed it") */
const awaited = /\b(?:but|although|though|however|pending|awaiting|subject to)\b[^;]*?\b(?:not|yet to|awaiting|pending|confirm\w*)\b/i;
/** before the cure: the issuer's opinion, not the exchange's word */
const belief = /\b(?:believes?|believed|considers?|considered|understands?|estimates?)\b/i;
/** before the cure: the exchange (or its letter) notified, confirmed, determined ... that */
const exchangeSaid = /\b(?:confirm|notif|inform|advis|determin|stat|indicat)\w*\b[^;]{0,160}?\bthat\b[^;]*$/i;
const exchangeNamed = /\b(?:Nasdaq|NYSE|New York Stock Exchange|the Exchange|the Staff|the Panel|Hearings Panel|Listing Qualifications)\b|\b(?:letter|notice|notification|confirmation)\b/i;
const matterClosed = /\b(?:the|this) matter (?:is|was|has been) (?:now )?closed\b/i;
const confirmationDates = [
  dated(String.raw`^On DATE,`),
  dated(String.raw`\b(?:received|receipt of)\b[^.;]{0,100}?\b(?:on|dated) DATE`),
  dated(String.raw`\b(?:confirmed|notified|informed|advised|determined)\b[^.;]{0,60}? on DATE`),
  dated(String.raw`\b(?:letter|notice|notification|confirmation) dated DATE`),
];

/**
 * Regained compliance with a listing rule in a passage (an Item 3.01 body, or an issuer's account):
 * the first sentence the exchange's confirmation reports, else the first the issuer states alone.
 * Exchange, rule and deficiency are read from that sentence, else (medium confidence) from the
 * passage's account of the deficiency. Null when no sentence reports compliance regained or held.
 */
export function complianceRegainedIn(text: string): ComplianceRegained | null {
  const units = unitsOf(text);
  const read: { unit: Unit; index: number; status: Cited<'confirmed' | 'unconfirmed'> }[] = [];
  units.forEach((unit, index) => {
    const m = unit.text.match(curePhrase);
    if (!m) return;
    const before = unit.text.slice(0, m.index).replace(/\b(?:no|not) (?:fewer|less|more) than\b/gi, '');
    if (hypothetical.test(before)) return;
    const after = unit.text.slice(m.index! + m[0].length);
    // Imunon: "While our common stock price is currently in compliance with the Minimum Bid Price
    // Requirement, it is possible ..." is the issuer's word on the price, with no notice from Nasdaq
    // that the deficiency is closed: unconfirmed, like any statement of compliance the exchange's
    // confirmation does not report.
    const status: [value: 'confirmed' | 'unconfirmed', confidence: Confidence, method: string] = negation.test(before)
      ? ['unconfirmed', 'high', 'regain_negated']
      : awaited.test(after)
        ? ['unconfirmed', 'high', 'exchange_confirmation_awaited']
        : belief.test(before)
          ? ['unconfirmed', 'medium', 'issuer_belief']
          : exchangeSaid.test(before) && exchangeNamed.test(unit.text)
            ? ['confirmed', 'high', 'exchange_confirmed_regained']
            : matterClosed.test(unit.text)
              ? ['confirmed', 'high', 'exchange_closed_matter']
              : ['unconfirmed', 'medium', 'issuer_states_compliance'];
    read.push({ unit, index, status: cite(status[0], unit.text, m, status[1], status[2]) });
  });
  const chosen = read.find((r) => r.status.value === 'confirmed') ?? read[0];
  if (!chosen) return null;
  const { unit, index } = chosen;
  const inUnit = <T>(pattern: RegExp, value: (m: RegExpMatchArray) => T, method: string): Field<T> => {
    const m = unit.text.match(pattern);
    return m ? cite(value(m), unit.text, m, 'high', method) : null;
  };
  const passage = exchangeNoticeIn(text);
  const fallback = <T>(field: Field<T> | undefined): Field<T> => (field ? { ...field, confidence: 'medium', method: `${field.method}_in_passage` } : null);
  const hit = deficiencies.find(([, pattern]) => pattern.test(unit.text));
  let confirmedDate: Field<string> = null;
  if (chosen.status.value === 'confirmed') {
    for (const pattern of confirmationDates) {
      const m = unit.text.match(pattern);
      if (m && toIsoDate(m[1]!)) {
        confirmedDate = cite(toIsoDate(m[1]!)!, unit.text, m, 'high', 'confirmation_dated');
        break;
      }
    }
    // "On June 3, 2025, the Company received a letter from Nasdaq. The letter stated that the Company had regained compliance ..."
    const previous = units[index - 1];
    if (!confirmedDate && previous && /\b(?:letter|notice|notification|confirmation)\b/i.test(previous.text) && !/\b(?:not in compliance|no longer in compliance|deficien)/i.test(previous.text)) {
      for (const pattern of confirmationDates.slice(0, 2)) {
        const m = previous.text.match(pattern);
        if (m && toIsoDate(m[1]!)) {
          confirmedDate = cite(toIsoDate(m[1]!)!, previous.text, m, 'medium', 'confirmation_letter_dated_before');
          break;
        }
      }
    }
  }
  return {
    exchange: inUnit(exchangeName, exchangeOf, 'exchange_named') ?? fallback(passage?.exchange),
    rule: inUnit(rulePattern, ruleOf, 'rule_cited_with_cure') ?? inUnit(companyGuidePattern, (m) => m[0], 'company_guide_section') ?? fallback(passage?.rule),
    deficiency: hit ? cite(hit[0], unit.text, unit.text.match(hit[1]), 'high', 'deficiency_named') : fallback(passage?.deficiency),
    status: chosen.status,
    confirmedDate,
  };
}

/** Reverse stock splits in a passage: "1-for-15 reverse split ... effective October 31, 2023". */
export function reverseSplitsIn(text: string): Cited<ReverseSplit>[] {
  const out: Cited<ReverseSplit>[] = [];
  for (const unit of unitsOf(text)) {
    const pattern = new RegExp(String.raw`\b(1|one)[- ]for[- ](\d+|[a-z]+(?:-[a-z]+)?)(?:\s*\(\d+\))?\s+reverse (?:stock )?split\b((?:(?!\d+-for-\d+)[^;])*?)(?=\d+-for-\d+|;|$)`, 'gi');
    for (const m of unit.text.matchAll(pattern)) {
      const factor = /^\d+$/.test(m[2]!) ? Number(m[2]) : null;
      if (!factor || factor < 2) continue;
      const effective = m[3]!.match(new RegExp(String.raw`\beffective (?:as of |on |at [^,]{0,40}? on )?(${writtenDate})`, 'i'));
      out.push(cite({ ratio: `1-for-${factor}`, factor, effectiveDate: effective ? toIsoDate(effective[1]!) : null }, unit.text, m as RegExpMatchArray, effective ? 'high' : 'medium', 'reverse_split_ratio'));
    }
  }
  return out;
}

/** A securities purchase agreement or unregistered sale in a passage (Items 1.01, 3.02). */
export function securitiesSaleIn(text: string): SecuritiesSale | null {
  const units = unitsOf(text);
  const agreementSentence = dated(String.raw`On DATE,? (?:the Company|we) entered into (?:a|an) ((?:securities purchase|subscription|purchase|placement agency|underwriting) agreement)[^.]*?with ((?:a |an )?[^(]{3,120}?)\s*(?:\(the “[^”]+”\))?(?:,| pursuant| under| for|$)`);
  const sale: SecuritiesSale = {
    agreementDate: first(units, agreementSentence, (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'agreement_entered_on')),
    agreement: first(units, agreementSentence, (m, u) => cite(m[2]!.toLowerCase(), u.text, m, 'high', 'agreement_named')),
    purchaser: first(units, agreementSentence, (m, u) => cite(m[3]!.trim(), u.text, m, 'medium', 'agreement_counterparty')),
    shares: first(units, /\b(?:issued and sold|agreed to (?:issue and )?sell|to sell and issue|sold)\b[^.]{0,80}?(?:an aggregate of )?(\d{1,3}(?:,\d{3})+|\d+) shares of (?:our |the Company’s )?common stock/i, (m, u) => cite(count(m[1]!), u.text, m, 'high', 'shares_sold')),
    pricePerShare: first(units, /\b(?:purchase|offering) price of \$(\d+(?:\.\d+)?) per share\b/i, (m, u) => cite(Number(m[1]), u.text, m, 'high', 'price_per_share')),
    grossProceeds: first(units, /\bgross proceeds[^.]{0,60}?(?:were|of|was|will be) (approximately |about )?\$(\d{1,3}(?:,\d{3})*(?:\.\d+)?)(\s*(?:million|billion))?/i, (m, u) =>
      cite(scaled(m[2]!, m[3]), u.text, m, m[1] ? 'medium' : 'high', m[1] ? 'gross_proceeds_approximate' : 'gross_proceeds'),
    ),
    placementAgent: first(units, /\b(?:[Pp]lacement [Aa]gen(?:t|cy) [Aa]greement|engaged) with ((?:[A-Z][\w&.'’-]*,?\s){0,5}?(?:LLC|Inc\.|L\.P\.|Corp\.|Ltd\.|LLP))/, (m, u) => cite(m[1]!.replace(/,$/, ''), u.text, m, 'high', 'placement_agent_named')),
    warrants: warrantsIn(units),
  };
  const any = sale.agreementDate || sale.shares || sale.warrants.length;
  return any ? sale : null;
}

/** Dilution facts of one 8-K (full submission .txt or primary HTML). Never throws. */
export function eightKDilutionOf(input: { text: string; name: string }): EightKDilution {
  const result: EightKDilution = { accessionNumber: null, formType: null, items: [], indexOnly: false, exchangeNotices: [], complianceRegained: [], reverseSplits: [], securitiesSales: [], failures: [] };
  let cover;
  try {
    cover = readEightK(input);
  } catch (error) {
    result.failures.push(`${input.name}: unreadable 8-K: ${(error as Error).message}`);
    return result;
  }
  result.accessionNumber = cover.accessionNumber;
  result.formType = cover.formType;
  const { sections } = splitItems(cover.text);
  result.items = cover.headerItems ?? sections.map((s) => s.item);
  const withText = new Set(sections.filter((s) => s.body.trim()).map((s) => s.item));
  result.indexOnly = result.items.length > 0 && result.items.every((item) => !withText.has(item));
  if (!/^8-K/i.test(cover.formType)) result.failures.push(`${input.name}: not a Form 8-K (form ${cover.formType})`);
  if (!sections.length) result.failures.push(`${input.name}: no item sections in the document text`);
  for (const section of sections) {
    try {
      if (section.item === '3.01') {
        const notice = exchangeNoticeIn(section.body);
        const cure = complianceRegainedIn(section.body);
        if (notice) result.exchangeNotices.push({ item: section.item, notice });
        if (cure) result.complianceRegained.push({ item: section.item, cure });
        if (!notice && !cure) result.failures.push(`item 3.01: no rule, deficiency or regained compliance found`);
      } else if (section.item === '5.03') {
        for (const split of reverseSplitsIn(section.body)) result.reverseSplits.push({ item: section.item, split });
      } else if (section.item === '1.01' || section.item === '3.02') {
        const sale = securitiesSaleIn(section.body);
        if (sale) result.securitiesSales.push({ item: section.item, sale });
      }
    } catch (error) {
      result.failures.push(`item ${section.item}: ${(error as Error).message}`);
    }
  }
  return result;
}
