// The economics of an offering as its document states them: the distributor's fee (placement agent
// fees, underwriting discount, sales agent commission) in dollars and as a percent, the proceeds
// before expenses, the estimated net proceeds, the offering (pricing) and closing dates, an
// over-allotment option, sales under Form S-3 General Instruction I.B.6 in the prior 12 months, and
// when the registration statement became effective. And the corporate actions a document recounts
// (a registration declared effective, a Form 25 filed to delist). Each figure cites its text and
// where it is printed; a figure not stated is null with the reason.
import type { OfferingDocument } from './offerings.ts';
import {
  blankReason,
  cite,
  count,
  firstCited as find,
  locate,
  missingFigure,
  numberWord,
  quantity,
  scaled,
  shareCount,
  statedFigure,
  toIsoDate,
  writtenDate,
  type Cited,
  type Figure,
  type Unit,
} from './citedText.ts';

export type FeeType = 'placement_agent_fee' | 'underwriting_discount' | 'sales_agent_commission';

export interface Economics {
  /** the date of the final prospectus, when the offering is priced ("The date of this prospectus is December 30, 2024") */
  offeringDate: Figure<string>;
  /** when the securities are expected to be delivered, the offering to close ("on or about December 31, 2025") */
  closingDate: Figure<string>;
  /** what the distributor is paid: null when the document states no fee */
  feeType: FeeType | null;
  /** the fee in US dollars, the pricing table's total */
  feeAmount: Figure;
  /** the fee per share (per unit), the pricing table's first column */
  feePerShare: Figure;
  /** the fee as a percent of the gross proceeds, as stated (or, marked by its method, the table's fee over its total) */
  feePercent: Figure;
  /** the pricing table's proceeds to the company before expenses, in US dollars */
  proceedsBeforeExpenses: Figure;
  /** the net proceeds the document estimates ("approximately $6.3 million"), in US dollars */
  netProceeds: Figure;
  /** an over-allotment option: the additional shares (value) and the days it runs (`days`) */
  overAllotmentShares: Figure;
  /** sold under Form S-3 General Instruction I.B.6 (baby shelf) in the 12 months before the document, in US dollars */
  babyShelfSalesPrior12Months: Figure;
  /** when the registration statement this document belongs to was declared effective, as the document states it */
  registrationEffective: Figure<string>;
}

export interface RecountedAction {
  action: 'registration_effective' | 'delisting_notice';
  date: string;
  /** the registration's file number (333-…) the sentence names; null when it names none */
  fileNumber: string | null;
  /** delisting: the exchange and the securities named */
  exchange: string | null;
  securities: string | null;
}

interface Scope {
  text: string;
  own: string;
  units: Unit[];
  coverEnd: number;
  doc: OfferingDocument;
}

const dollars = String.raw`\$\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`;
const amountsOf = (row: string) => [...row.matchAll(new RegExp(dollars, 'g'))].map((m) => count(m[1]!));

const feeRow = /^(?:(Placement Agents?(?:’|')?s?)(?:’|')? (?:cash )?(?:fees?|commissions?)|(Underwriting discounts?)(?: and commissions)?|(Sales agents?(?:’|')?s?)(?:’|')? (?:fees?|commissions?))/i;
const proceedsRow = /^Proceeds(?:,? before expenses,?)? to (?:us|the company|the registrant)\b|^Proceeds to us,? before expenses\b/i;

function feeTypeOf(doc: OfferingDocument, label: RegExpMatchArray | null): FeeType | null {
  if (label?.[1]) return 'placement_agent_fee';
  if (label?.[2]) return 'underwriting_discount';
  if (label?.[3]) return 'sales_agent_commission';
  if (doc.offeringType === 'atm' || doc.salesAgents.length) return 'sales_agent_commission';
  if (doc.placementAgents.length) return 'placement_agent_fee';
  if (doc.underwriters.length) return 'underwriting_discount';
  return null;
}

/** Why the document has no figure for what an offering of its kind does not have. */
function noneFor(doc: OfferingDocument, what: string): string {
  switch (doc.offeringType) {
    case 'deregistration':
      return `a deregistration offers nothing: no ${what}`;
    case 'resale':
      return `a resale registration: the selling holders sell, the company receives no proceeds of the sale, so there is no ${what} of the company's`;
    case 'shelf':
      return `a shelf registration sells nothing itself: each takedown's prospectus supplement states its own ${what}`;
    case 'atm':
      return `an at-the-market program sells from time to time: the document states no ${what} (sales, if any, are reported in periodic reports)`;
    default:
      return `the document states no ${what}`;
  }
}

/** The pricing table's fee and proceeds rows, the fee percent, and what kind of fee it is. */
function feesOf(scope: Scope, grossProceeds: number | null) {
  const { text, units, coverEnd, doc } = scope;
  const row = units.find((u) => feeRow.test(u.text));
  const label = row ? row.text.match(feeRow) : null;
  const feeType = feeTypeOf(doc, label);
  const noFee = noneFor(doc, 'distributor fee in its pricing table');
  let feeAmount: Figure = missingFigure(noFee);
  let feePerShare: Figure = missingFigure(noFee);
  if (row) {
    const amounts = amountsOf(row.text);
    if (amounts.length >= 2) {
      feePerShare = statedFigure(text, cite(amounts[0]!, row.text, null, 'high', 'pricing_table_fee_per_share'), coverEnd);
      feeAmount = statedFigure(text, cite(amounts[amounts.length - 1]!, row.text, null, 'high', 'pricing_table_fee_total'), coverEnd);
    } else if (amounts.length === 0 && doc.isPreliminary) {
      feeAmount = missingFigure(blankReason('The fee'), { text, span: row.text, coverEnd, method: 'pricing_table_blank' });
      feePerShare = missingFigure(blankReason('The fee per share'), { text, span: row.text, coverEnd, method: 'pricing_table_blank' });
    }
  }
  // "a cash fee equal to 7.0% of the aggregate gross proceeds", "an aggregate fee of 3.0% of the gross sales price"
  const percent = find(
    units,
    /\b(?:fee|commission|compensation|discount)\b[^.%]{0,100}?\b(?:equal to|of)\s+(\d{1,2}(?:\.\d+)?)\s?%\s+of the (?:aggregate )?(?:gross (?:proceeds|sales price)|(?:public )?offering price)/i,
    (m, u) => (/\b(?:management|tail|advisory|expense)\b[^.%]{0,40}$/i.test(u.text.slice(0, m.index! + m[0].indexOf(m[1]!))) ? null : cite(Number(m[1]), u.text, m, 'high', 'fee_percent_stated')),
  );
  let feePercent: Figure;
  if (percent) feePercent = statedFigure(text, percent, coverEnd);
  else if (feeAmount.value !== null && grossProceeds) {
    // the table's own fee over its own total, both cited by the row
    feePercent = { ...feeAmount, value: Math.round((feeAmount.value / grossProceeds) * 1_000_000) / 10_000, confidence: 'medium', method: 'computed_fee_total_over_gross_proceeds' };
  } else feePercent = feeAmount.value === null && feeAmount.sourceSpan ? { ...feeAmount, reason: blankReason('The fee percent') } : missingFigure(noneFor(doc, 'fee percent'));
  const proceeds = units.find((u) => proceedsRow.test(u.text));
  let proceedsBeforeExpenses: Figure = missingFigure(noneFor(doc, 'proceeds before expenses in its pricing table'));
  if (proceeds) {
    const amounts = amountsOf(proceeds.text);
    if (amounts.length) proceedsBeforeExpenses = statedFigure(text, cite(amounts[amounts.length - 1]!, proceeds.text, null, 'high', 'pricing_table_proceeds_before_expenses'), coverEnd);
    else if (doc.isPreliminary) proceedsBeforeExpenses = missingFigure(blankReason('The proceeds before expenses'), { text, span: proceeds.text, coverEnd, method: 'pricing_table_blank' });
  }
  // the kind of fee is named only where the document speaks of one (its table row, blank or not, or its percent)
  return { feeType: row || percent ? feeType : null, feeAmount, feePerShare, feePercent, proceedsBeforeExpenses };
}

/**
 * The net proceeds estimate: "The net proceeds to us from this offering will be approximately $2.4
 * million", "We expect to receive net proceeds from this offering of approximately $6.3 million". The
 * Use of Proceeds section's statement is the figure; a statement elsewhere that differs is listed in
 * `conflicting` (and lowers the confidence). A figure for the option exercised in full is not it.
 */
function netProceedsOf(scope: Scope): Figure {
  const { text, units, coverEnd, doc } = scope;
  const statement = /\bnet proceeds\b[^.$]{0,160}?\b(?:will be|to be|of|are|is|at|be)\s+approximately\s+\$\s*(\d[\d,]*(?:\.\d+)?)(\s*(?:million|billion))?/i;
  const found: { cited: Cited<number>; located: ReturnType<typeof locate> }[] = [];
  for (const u of units) {
    const m = u.text.match(statement);
    if (!m || /\bif the underwriters exercise\b|\bin full\b/i.test(u.text.slice(0, m.index! + m[0].length))) continue;
    const cited = cite(scaled(m[1]!, m[2]), u.text, m, 'high', 'net_proceeds_estimate');
    found.push({ cited, located: locate(text, u.start, coverEnd) });
  }
  if (found.length) {
    const chosen = found.find((f) => /^USE OF PROCEEDS$/i.test(f.located.section ?? '')) ?? found[0]!;
    const others = found.filter((f) => f.cited.value !== chosen.cited.value);
    const conflicting = [...new Map(others.map((f) => [f.cited.value, { value: f.cited.value, sourceSpan: f.cited.sourceSpan, ...f.located }])).values()];
    return statedFigure(text, { ...chosen.cited, confidence: conflicting.length ? 'medium' : 'high' }, coverEnd, { approximate: true, ...(conflicting.length ? { conflicting } : {}) });
  }
  const blank = find(units, /\bnet proceeds\b[^.$]{0,160}?\bapproximately\s+\$(?=\s*(?:,|after\b|\.|$))/i, (m, u) => cite(0, u.text, m, 'high', 'net_proceeds_blank'));
  if (blank) return missingFigure(blankReason('The net proceeds estimate'), { text, span: blank.sourceSpan, coverEnd, method: 'net_proceeds_blank' });
  const undeterminable = find(units, /\bproceeds to us,? if any,? (?:are|is) not determinable\b/i, (m, u) => cite(0, u.text, m, 'high', 'net_proceeds_not_determinable'));
  if (undeterminable) return missingFigure('the document says the proceeds are not determinable (an at-the-market program: what is sold, if anything, is not known in advance)', { text, span: undeterminable.sourceSpan, coverEnd, method: 'net_proceeds_not_determinable' });
  return missingFigure(noneFor(doc, 'estimate of net proceeds'));
}

function datesOf(scope: Scope): { offeringDate: Figure<string>; closingDate: Figure<string> } {
  const { text, units, coverEnd, doc } = scope;
  let offeringDate: Figure<string>;
  const dated = find(units, new RegExp(String.raw`^(?:The date of this prospectus(?: supplement)? is|Prospectus(?: Supplement)? dated)\s+(${writtenDate})`, 'i'), (m, u) => cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'prospectus_date'));
  if (dated && !doc.isPreliminary) offeringDate = statedFigure(text, { ...dated, asOf: null }, coverEnd);
  else {
    const blank = find(units, /^The date of this prospectus(?: supplement)? is\s*(?:,\s*\d{4}|\.?$)/i, (m, u) => cite('', u.text, m, 'high', 'prospectus_date_blank'));
    const sellsNothing = doc.offeringType === 'resale' || doc.offeringType === 'shelf' || doc.offeringType === 'deregistration';
    offeringDate = blank
      ? missingFigure(blankReason('The date of the prospectus (the pricing date)'), { text, span: blank.sourceSpan, coverEnd, method: 'prospectus_date_blank' })
      : doc.isPreliminary && !sellsNothing
        ? missingFigure(`a preliminary document is not priced: its own date${doc.documentDate ? ` (${doc.documentDate})` : ''} is not the offering date`)
        : missingFigure(noneFor(doc, 'offering (pricing) date'));
  }
  // the cover's delivery sentence first: a concurrent private placement's closing is not the offering's
  const closingPattern = new RegExp(
    String.raw`\b(?:deliver(?:y|ed)?|closing|settlement)\b[^.]{0,200}?\bon or about (${writtenDate})|\bclosing of (?:this|the) offering is expected to (?:occur|take place) on (?:or about )?(${writtenDate})`,
    'i',
  );
  const closing = find(units, closingPattern, (m, u) => (/private placement/i.test(u.text.slice(0, m.index! + m[0].length)) ? null : cite(toIsoDate((m[1] ?? m[2])!)!, u.text, m, 'high', 'expected_delivery_date')));
  let closingDate: Figure<string>;
  if (closing) closingDate = statedFigure(text, closing, coverEnd, { asOf: null });
  else {
    const blank = find(units, /\bon or about\s*,\s*\d{4}\b/i, (m, u) => cite('', u.text, m, 'high', 'expected_delivery_blank'));
    closingDate = blank ? missingFigure(blankReason('The expected delivery (closing) date'), { text, span: blank.sourceSpan, coverEnd, method: 'expected_delivery_blank' }) : missingFigure(noneFor(doc, 'expected closing (delivery) date'));
  }
  return { offeringDate, closingDate };
}

/** "an option to purchase up to an additional 450,000 shares … within 30 days": the shares (blank in a preliminary) and the days. */
function overAllotmentOf(scope: Scope): Figure {
  const { text, units, coverEnd, doc } = scope;
  const pattern = new RegExp(
    String.raw`\boption to purchase up to (?:an )?(?:aggregate of )?(?:additional\s+)?(?:${shareCount}\s+)?(?:additional\s+)?shares\b[^.]{0,200}?(?:within|for a period of|exercisable (?:for|within)|for) (${numberWord})[- ](?:calendar )?days\b|\b(${numberWord})-day option to purchase up to (?:an )?(?:additional\s+)?(?:${shareCount}\s+)?(?:additional\s+)?shares`,
    'i',
  );
  const found = find(units, pattern, (m, u) => {
    const shares = m[1] ?? m[4];
    const days = quantity((m[2] ?? m[3])!);
    return cite({ shares: shares ? count(shares) : null, days }, u.text, m, 'high', shares ? 'over_allotment_option' : 'over_allotment_option_blank');
  });
  if (!found) return missingFigure(noneFor(doc, 'option to purchase additional shares (over-allotment)'));
  const { shares, days } = found.value;
  if (shares === null) {
    const blank = missingFigure(blankReason('The number of additional shares'), { text, span: found.sourceSpan, coverEnd, method: found.method });
    return { ...blank, days, reason: doc.isPreliminary ? blank.reason : 'the option is stated but not the number of shares it covers' };
  }
  return statedFigure(text, { ...found, value: shares }, coverEnd, { days });
}

/** "… declared effective on April 2, 2025": the document's own registration (its file number), else a sentence that speaks of this registration statement. */
function registrationEffectiveOf(scope: Scope): Figure<string> {
  const { text, units, coverEnd, doc } = scope;
  const found = find(units, new RegExp(String.raw`\bdeclared effective(?: by the (?:SEC|Securities and Exchange Commission|Commission))? on (${writtenDate})`, 'i'), (m, u) => {
    const named = u.text.match(/\bFile No\.?\s*(333-\d{3,})/i)?.[1] ?? null;
    const own = named ? named === doc.registrationFileNumber : /\b(?:this|the) registration statement\b/i.test(u.text.slice(0, m.index!)) && !/\bprior registration statement\b/i.test(u.text);
    return own ? cite(toIsoDate(m[1]!)!, u.text, m, 'high', 'declared_effective_stated') : null;
  });
  if (found) return statedFigure(text, found, coverEnd, { asOf: null });
  return missingFigure("the document does not state when its registration statement was declared effective (EDGAR's EFFECT notice of the same file number gives it, when held)");
}

/**
 * The I.B.6 sales the document states for the 12 months before it ("we have sold … in the aggregate
 * amount of $1,020"). The 12 months run to the date of the document that says so: a statement of the
 * accompanying base prospectus is as of the base prospectus's date, not the supplement's.
 */
function babyShelfSalesOf(scope: Scope, sold: Cited<number> | null): Figure {
  const { text, own, coverEnd, doc } = scope;
  if (!sold) return missingFigure('the document states no sales under Form S-3 General Instruction I.B.6 (baby shelf) for the prior 12 months (it does not sell under that limit, or does not say)');
  const at = text.indexOf(sold.sourceSpan);
  if (at >= own.length) {
    const baseDate = own.match(new RegExp(String.raw`\(To (?:Base )?Prospectus dated (${writtenDate})\)`, 'i'));
    return statedFigure(text, { ...sold, asOf: baseDate ? toIsoDate(baseDate[1]!) : null }, coverEnd, { section: 'accompanying base prospectus', page: null });
  }
  // "During the prior 12-months as of the date of this prospectus supplement": the document's own date
  return statedFigure(text, { ...sold, asOf: sold.asOf ?? doc.documentDate ?? null }, coverEnd);
}

export function economicsOf(scope: Scope, read: { grossProceeds: number | null; soldPrior12Months: Cited<number> | null }): Economics {
  const { doc } = scope;
  // a registration that sells nothing of the company's itself: a fee or proceeds it recounts are another sale's
  const sellsNothing = doc.offeringType === 'resale' || doc.offeringType === 'shelf' || doc.offeringType === 'deregistration';
  const none = (what: string) => missingFigure(noneFor(doc, what));
  return {
    ...datesOf(scope),
    ...(sellsNothing
      ? { feeType: null, feeAmount: none('distributor fee'), feePerShare: none('distributor fee per share'), feePercent: none('fee percent'), proceedsBeforeExpenses: none('proceeds before expenses') }
      : feesOf(scope, read.grossProceeds)),
    netProceeds: sellsNothing ? none('estimate of net proceeds') : netProceedsOf(scope),
    overAllotmentShares: sellsNothing ? none('option to purchase additional shares (over-allotment)') : overAllotmentOf(scope),
    babyShelfSalesPrior12Months: babyShelfSalesOf(scope, read.soldPrior12Months),
    registrationEffective: registrationEffectiveOf(scope),
  };
}

/**
 * Corporate actions the document recounts: a registration statement declared effective ("Form S-3
 * (File No. 333-262239) that was declared effective on January 28, 2022"), a Form 25 filed to delist
 * ("On April 28, 2025, the Registrant filed a Notification of Removal From Listing and/or Registration
 * on Form 25 with the SEC to delist its common stock from The Nasdaq Stock Market LLC").
 */
export function recountedActionsIn(units: Unit[]): Cited<RecountedAction>[] {
  const out: Cited<RecountedAction>[] = [];
  for (const u of units) {
    const effective = u.text.match(new RegExp(String.raw`\bdeclared effective(?: by the (?:SEC|Securities and Exchange Commission|Commission))? on (${writtenDate})`, 'i'));
    if (effective) {
      const fileNumber = u.text.match(/\bFile No\.?\s*(333-\d{3,})/i)?.[1] ?? null;
      out.push(cite({ action: 'registration_effective', date: toIsoDate(effective[1]!)!, fileNumber, exchange: null, securities: null }, u.text, effective, fileNumber ? 'high' : 'medium', 'declared_effective_stated'));
    }
    // the exchange is the capitalised name after "from" (case matters: "… LLC and to deregister …" ends it)
    const delisting = u.text.match(new RegExp(String.raw`\b[Oo]n (${writtenDate}),? (?:[Tt]he Registrant|[Tt]he Company|we) filed (?:a |an )?(?:Notification of Removal [Ff]rom Listing and/or Registration )?on Form 25\b[^.]*?\bto delist (?:its|our|the) ([^.]{3,60}?) from (?:[Tt]he )?([A-Z][\w.&]*(?: [A-Z][\w.&]*)*)`));
    if (delisting) {
      out.push(cite({ action: 'delisting_notice', date: toIsoDate(delisting[1]!)!, fileNumber: null, exchange: delisting[3]!.trim(), securities: delisting[2]!.trim() }, u.text, delisting, 'high', 'form_25_filed_stated'));
    }
  }
  return out;
}

export interface RecountedOffering {
  /** the date the document gives the sale (the agreement's or the closing's, as printed) */
  date: string;
  offeringType: 'registered_direct' | 'underwritten' | 'public_offering' | 'best_efforts' | 'private_placement';
  /** shares of common stock sold */
  shares: number | null;
  /** shares under pre-funded warrants sold in lieu of shares, when the sentence gives them */
  preFundedWarrantShares: number | null;
}

/**
 * Sales of stock the document recounts as done ("On May 16, 2023, we entered into a securities
 * purchase agreement … pursuant to which we issued and sold in a registered direct offering an
 * aggregate of 601,851 shares of our common stock and pre-funded warrants to purchase an aggregate of
 * 731,482 shares"): past tense only, each with its date.
 */
export function recountedOfferingsIn(units: Unit[]): Cited<RecountedOffering>[] {
  const out: Cited<RecountedOffering>[] = [];
  const pattern = new RegExp(
    String.raw`\bOn (${writtenDate}),? we (?:entered into|closed|completed|consummated)\b.{0,300}?\b(?:issued and sold|sold)\b[^.]{0,40}?\bin (?:a|an|our) (registered direct offering|underwritten (?:public )?offering|best[- ]efforts (?:public )?offering|public offering|private placement)\b[^.]{0,60}?\b(?:an aggregate of |a total of )?${shareCount} shares of (?:our )?common stock(?:[^.]{0,80}?\bpre-funded warrants to purchase (?:up to )?(?:an aggregate of )?${shareCount} shares)?`,
    'i',
  );
  for (const u of units) {
    const m = u.text.match(pattern);
    if (!m) continue;
    const kind = m[2]!.toLowerCase();
    const offeringType: RecountedOffering['offeringType'] = /registered direct/.test(kind) ? 'registered_direct' : /underwritten/.test(kind) ? 'underwritten' : /best/.test(kind) ? 'best_efforts' : /private/.test(kind) ? 'private_placement' : 'public_offering';
    const date = toIsoDate(m[1]!)!;
    if (out.some((o) => o.value.date === date && o.value.offeringType === offeringType)) continue;
    out.push(cite({ date, offeringType, shares: count(m[3]!), preFundedWarrantShares: m[4] ? count(m[4]) : null }, u.text, m, 'high', 'offering_recounted'));
  }
  return out;
}
