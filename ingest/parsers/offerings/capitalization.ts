// The capitalization an offering document states "as of" a date: shares outstanding before the
// offering (the count its figures are based on) and after it, and what that count leaves out, as the
// document lists it ("excludes … shares of common stock issuable upon exercise of outstanding
// options …"): options, warrants, restricted stock units, the equity plan's reserve, preferred stock
// as converted. Each figure cites its sentence or bullet and where it is printed; one the document
// does not state is null with the reason (a preliminary document's blank says so).
import type { OfferingDocument } from './offerings.ts';
import {
  blankReason,
  cite,
  count,
  firstCited as find,
  missingFigure,
  shareCount,
  statedFigure,
  toIsoDate,
  writtenDate,
  type Cited,
  type Figure,
  type Unit,
} from './citedText.ts';

export interface Capitalization {
  /** the count the offering's figures are based on ("based on 2,896,723 shares … outstanding as of September 30, 2025") */
  sharesOutstandingBefore: Figure;
  /** "Common stock outstanding after this offering: 3,226,723 shares" (no over-allotment exercised) */
  sharesOutstandingAfter: Figure;
  /** "(or … shares if the underwriters exercise in full their option to purchase additional shares)" */
  sharesOutstandingAfterOverAllotment: Figure;
  /** shares issuable on exercise of outstanding options, with their weighted-average exercise price */
  optionsOutstanding: Figure;
  /** shares issuable on exercise of outstanding warrants, with their weighted-average exercise price */
  warrantsOutstanding: Figure;
  /** shares issuable on vesting of outstanding (unvested) restricted stock units */
  restrictedStockUnits: Figure;
  /** performance-based restricted stock units (at target, as printed) */
  performanceStockUnits: Figure;
  /** shares reserved for future issuance under the equity incentive plans */
  reservedForFutureIssuance: Figure;
  /** common shares the outstanding preferred stock converts into; 0 when the document says none is outstanding */
  preferredAsConverted: Figure;
}

const price = String.raw`\$\s*(\d+(?:\.\d+)?)`;
const weighted = String.raw`(?:[^;]{0,120}?weighted[- ]average exercise price of (?:approximately )?${price})?`;

/**
 * The date an item of the "excludes" list is stated as of: its own ("… outstanding at September 30,
 * 2024"), else the list's ("excludes in each case as of September 30, 2025", "excludes as of such
 * date" after "… as of November 11, 2024").
 */
function itemDate(own: string, unit: Unit): string | null {
  const ownDate = unit.text.match(new RegExp(String.raw`\b(?:as of|at|on) (${writtenDate})`, 'i'));
  if (ownDate) return toIsoDate(ownDate[1]!);
  const lead = [...own.slice(Math.max(0, unit.start - 2000), unit.start).matchAll(new RegExp(String.raw`\b(?:as of|at) (${writtenDate})`, 'gi'))].pop();
  return lead ? toIsoDate(lead[1]!) : null;
}

interface Scope {
  /** the whole text the spans are verbatim slices of */
  text: string;
  /** the document's own part (not the base prospectus) */
  own: string;
  units: Unit[];
  coverEnd: number;
  doc: OfferingDocument;
}

/** Why a figure of the capitalization is not stated, in this kind of document. */
function notStated(doc: OfferingDocument, what: string): string {
  if (doc.offeringType === 'deregistration') return `a deregistration offers nothing and states no ${what}`;
  return `the document's own text (the prospectus supplement or the registration statement's prospectus; a base prospectus is not read for it) states no ${what}`;
}

/** The first item of the document's own text the pattern reads, dated by itself or its list. */
function item(scope: Scope, pattern: RegExp, method: string, what: string, read: (m: RegExpMatchArray) => { value: number; extras?: Partial<Figure> }): Figure {
  let extras: Partial<Figure> = {};
  const cited = find(scope.units, pattern, (m, u) => {
    const reading = read(m);
    extras = reading.extras ?? {};
    return cite(reading.value, u.text, m, 'high', method, itemDate(scope.own, u));
  });
  return cited ? statedFigure(scope.text, cited, scope.coverEnd, extras) : missingFigure(notStated(scope.doc, what));
}

/** The after-offering row of the summary ("Common stock outstanding after this offering   3,226,723 shares"), its blank, and its over-allotment variant. */
function afterOffering(scope: Scope, stated: Cited<number> | null): { after: Figure; withOption: Figure } {
  const { text, own, coverEnd, doc } = scope;
  const atm = doc.offeringType === 'atm';
  const noAfter = atm
    ? 'an at-the-market program sells an unknown number of shares from time to time: it states no count after the offering'
    : notStated(doc, 'count of shares outstanding after the offering');
  let after: Figure = stated ? statedFigure(text, stated, coverEnd) : missingFigure(noAfter);
  let withOption: Figure = missingFigure('the document states no option to purchase additional shares that would change the count after the offering');
  const label = /^[ \t]*(?:Shares of )?common stock (?:to be )?outstanding (?:immediately )?after (?:this|the) offering\b.*$/im.exec(own);
  if (!label) return { after, withOption };
  // the value follows the label on its line (after a run of spaces), or on the next line with text
  const inline = label[0].trim().split(/\s{3,}/)[1];
  const cell = inline ?? own.slice(label.index + label[0].length).split('\n').find((l) => l.trim())?.trim() ?? '';
  if (!after.value && doc.isPreliminary && /^shares\b/i.test(cell)) {
    after = missingFigure(blankReason('The count of shares outstanding after the offering'), { text, span: cell, coverEnd, method: 'offering_summary_blank' });
  }
  const option = cell.match(new RegExp(String.raw`\(or\s+(?:${shareCount}\s+)?shares if the underwriters exercise(?: in full)? their option[^)]*\)`, 'i'));
  if (option) {
    withOption = option[1]
      ? statedFigure(text, cite(count(option[1]), cell, option, 'high', 'offering_summary_with_option'), coverEnd, { asOf: after.asOf })
      : missingFigure(blankReason('The count after the offering with the option exercised'), { text, span: cell, coverEnd, method: 'offering_summary_blank' });
  }
  return { after, withOption };
}

/**
 * The capitalization stated in the document's own text. `before`, `after` and `warrants` are the
 * readings of dilutionTerms.ts (the score reads them as records); this adds where each is printed and
 * the rest of the "excludes" list.
 */
export function capitalizationOf(
  scope: Scope,
  read: { before: Cited<number> | null; after: Cited<number> | null; warrants: Cited<{ shares: number; weightedAverageExercisePrice: number | null }> | null },
): Capitalization {
  const { text, coverEnd, doc } = scope;
  const before = read.before ? statedFigure(text, read.before, coverEnd) : missingFigure(notStated(doc, 'count of shares outstanding as of a date'));
  const { after, withOption } = afterOffering(scope, read.after);
  const warrants = read.warrants
    ? statedFigure(text, { ...read.warrants, value: read.warrants.value.shares }, coverEnd, { weightedAverageExercisePrice: read.warrants.value.weightedAverageExercisePrice })
    : missingFigure(notStated(doc, 'count of shares issuable on exercise of outstanding warrants, with the date it is stated as of'));
  const options = item(
    scope,
    new RegExp(String.raw`${shareCount} shares of (?:our )?common stock (?:issuable|reserved for issuance) (?:upon|on) (?:the )?exercise of (?:(?:our )?outstanding (?:stock )?options|stock options outstanding)\b${weighted}`, 'i'),
    'capitalization_excludes_options',
    'count of shares issuable on exercise of outstanding options',
    (m) => ({ value: count(m[1]!), extras: { weightedAverageExercisePrice: m[2] ? Number(m[2]) : null } }),
  );
  const rsus = item(
    scope,
    new RegExp(String.raw`${shareCount} (?:shares of (?:our )?common stock (?:issuable|deliverable) (?:upon|on) (?:the )?(?:vesting|settlement) of (?:our )?(?:outstanding |unvested )*|(?:unvested |outstanding )+)restricted stock units\b`, 'i'),
    'capitalization_excludes_rsus',
    'count of restricted stock units outstanding',
    (m) => ({ value: count(m[1]!) }),
  );
  const psus = item(
    scope,
    new RegExp(String.raw`${shareCount} (?:shares of )?(?:unvested |outstanding )*performance[- ]based restricted stock units\b|${shareCount} (?:unvested |outstanding )*performance (?:stock|share) units\b`, 'i'),
    'capitalization_excludes_psus',
    'count of performance-based stock units outstanding',
    (m) => ({ value: count((m[1] ?? m[2])!) }),
  );
  const reserved = item(
    scope,
    new RegExp(String.raw`${shareCount} shares of (?:our )?common stock (?:reserved|available) for (?:future )?(?:issuance|grant) (?:under|pursuant to)\b`, 'i'),
    'capitalization_excludes_plan_reserve',
    'count of shares reserved for future issuance under the equity plans',
    (m) => ({ value: count(m[1]!) }),
  );
  const preferred = preferredOf(scope);
  return {
    sharesOutstandingBefore: before,
    sharesOutstandingAfter: after,
    sharesOutstandingAfterOverAllotment: withOption,
    optionsOutstanding: options,
    warrantsOutstanding: warrants,
    restrictedStockUnits: rsus,
    performanceStockUnits: psus,
    reservedForFutureIssuance: reserved,
    preferredAsConverted: preferred,
  };
}

/**
 * Preferred stock as converted: "7,440 shares of Preferred Stock, included on an as converted basis to
 * 2,976,000 of Common Stock", "… shares of common stock issuable upon conversion of … preferred stock";
 * 0 where the document says none is outstanding ("there are no shares of preferred stock designated,
 * issued or outstanding").
 */
function preferredOf(scope: Scope): Figure {
  const { text, units, coverEnd, doc, own } = scope;
  const converted = find(
    units,
    new RegExp(String.raw`${shareCount} shares of (?:our )?(?:Series [A-Z0-9-]+ )?(?:Convertible )?Preferred Stock,? (?:included )?on an as[- ]converted basis (?:to|into) ${shareCount}(?: shares)? of common stock`, 'i'),
    (m, u) => {
      const dated = u.text.slice(m.index! + m[0].length).match(new RegExp(String.raw`\b(?:outstanding )?as of (${writtenDate})`, 'i'));
      return cite({ asConverted: count(m[2]!), preferred: count(m[1]!) }, u.text, m, 'high', 'preferred_as_converted', dated ? toIsoDate(dated[1]!) : itemDate(own, u));
    },
  );
  if (converted) return statedFigure(text, { ...converted, value: converted.value.asConverted }, coverEnd, { preferredShares: converted.value.preferred });
  const issuable = find(
    units,
    new RegExp(String.raw`${shareCount} shares of (?:our )?common stock issuable (?:upon|on) (?:the )?conversion of (?:our )?(?:outstanding )?(?:shares of )?(?:Series [A-Z0-9-]+ )?(?:convertible )?preferred stock`, 'i'),
    (m, u) => cite(count(m[1]!), u.text, m, 'high', 'preferred_conversion_shares', itemDate(own, u)),
  );
  if (issuable) return statedFigure(text, issuable, coverEnd, { preferredShares: null });
  const none = find(units, /\bno shares of (?:our )?preferred stock (?:were |are )?(?:designated, )?(?:issued (?:and|or) )?outstanding\b/i, (m, u) => {
    const dated = u.text.match(new RegExp(String.raw`\bas of (${writtenDate})`, 'i'));
    const asOf = dated ? toIsoDate(dated[1]!) : /\bas of the date of this prospectus(?: supplement)?\b/i.test(u.text) ? (doc.documentDate ?? null) : null;
    return cite(0, u.text, m, 'high', 'preferred_none_outstanding', asOf);
  });
  if (none) return statedFigure(text, none, coverEnd, { preferredShares: 0 });
  return missingFigure(notStated(doc, 'preferred stock outstanding or its as-converted common shares'));
}
