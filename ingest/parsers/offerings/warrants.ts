// Warrants a filing issues, read sentence by sentence: pre-funded warrants, common (or series)
// warrants, and the placement agent's or underwriter's own warrants. Each term (share count,
// exercise price, term) is cited separately: prospectuses scatter them over several sentences.
import { cite, count, numberWord, quantity, shareCount, type Field, type Unit } from './citedText.ts';

export type WarrantKind = 'pre_funded' | 'common' | 'placement_agent' | 'underwriter';

export interface WarrantTermLength {
  /** years from issuance (or from first exercise) as stated; null for warrants that never expire */
  years: number | null;
  /** true for pre-funded warrants that "do not expire" / are exercisable "until fully exercised" */
  perpetual: boolean;
  /** what the term runs from, as printed ("the date of issuance", "the initial exercise date") */
  from: string | null;
}

export interface WarrantTerms {
  kind: WarrantKind;
  /** "Series A", "series C"; null for unnamed warrants */
  series: string | null;
  /** shares of common stock the warrants are exercisable for */
  shares: Field<number>;
  exercisePrice: Field<number>;
  term: Field<WarrantTermLength>;
}

const price = String.raw`\$\s*(\d+(?:\.\d+)?)`;

type Key = string;

class Warrants {
  private readonly byKey = new Map<Key, WarrantTerms>();
  entry(kind: WarrantKind, series: string | null): WarrantTerms {
    const key = `${kind}|${series?.toLowerCase() ?? ''}`;
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { kind, series, shares: null, exercisePrice: null, term: null };
      this.byKey.set(key, entry);
    }
    return entry;
  }
  set<K extends 'shares' | 'exercisePrice' | 'term'>(kind: WarrantKind, series: string | null, field: K, value: NonNullable<WarrantTerms[K]>) {
    const entry = this.entry(kind, series);
    if (!entry[field]) entry[field] = value as WarrantTerms[K];
  }
  list(): WarrantTerms[] {
    return [...this.byKey.values()].filter((w) => w.shares || w.exercisePrice || w.term);
  }
}

const seriesName = (text: string | undefined): string | null => (text ? text.replace(/\s+/g, ' ').trim() : null);

function kindOf(label: string): WarrantKind {
  if (/pre-?funded/i.test(label)) return 'pre_funded';
  if (/placement agent/i.test(label)) return 'placement_agent';
  if (/underwriter|representative/i.test(label)) return 'underwriter';
  return 'common';
}

/**
 * Warrant terms in the given units (in document order; earlier statements win). `confidence`
 * is the confidence given to a value read from these units.
 */
export function warrantsIn(units: Unit[], confidence: 'high' | 'medium' | 'low' = 'high'): WarrantTerms[] {
  const found = new Warrants();
  for (const unit of units) {
    const text = unit.text;
    if (!/warrant/i.test(text)) continue;
    // "The exercise price of each Series A Warrant and Pre-Funded Warrant will be $13.42 and $0.01 per share, respectively"
    const respectively = text.match(
      new RegExp(String.raw`exercise price of each ((?:Series [A-Z] )?(?:Pre-Funded |Common (?:Stock )?)?)Warrants? and ((?:Series [A-Z] )?(?:Pre-Funded |Common (?:Stock )?)?)Warrants? (?:will be|is|are) ${price} and ${price}[^.]*respectively`, 'i'),
    );
    if (respectively) {
      for (const [label, amount] of [[respectively[1]!, respectively[3]!], [respectively[2]!, respectively[4]!]] as const) {
        const kind = kindOf(label);
        const series = kind === 'common' ? seriesName(label.match(/Series [A-Z]/i)?.[0]) : null;
        found.set(kind, series, 'exercisePrice', cite(Number(amount), text, respectively, confidence, 'warrant_exercise_price_respectively'));
      }
    }
    // agents' warrants: "placement agent warrants to purchase 63,018 shares ... exercise price of $3.60"
    for (const m of text.matchAll(new RegExp(String.raw`\b(placement agent|underwriter|representative)(?:’s|'s|s’|s'|s)? warrants?\b[^.]{0,60}?to purchase (?:up to )?(?:an aggregate of )?${shareCount} shares(?:[^.$]{0,80}?exercise price of ${price})?`, 'gi'))) {
      const kind = kindOf(m[1]!);
      found.set(kind, null, 'shares', cite(count(m[2]!), text, m, confidence, 'agent_warrant_count'));
      if (m[3]) found.set(kind, null, 'exercisePrice', cite(Number(m[3]), text, m, confidence, 'agent_warrant_exercise_price'));
    }
    // "series C warrants exercisable for an aggregate of 1,333,333 shares of common stock at an exercise price of $3.26 per share"
    for (const m of text.matchAll(new RegExp(String.raw`\b(series [A-Z])(?: common stock)? warrants? (?:exercisable for|to purchase) (?:up to )?(?:an aggregate of )?(?:up to )?${shareCount} shares(?:[^.;$]{0,60}?exercise price of ${price})?`, 'gi'))) {
      const series = seriesName(m[1]);
      // "pre-funded ... and Series A warrants to purchase an aggregate of ..." is a total; "existing" warrants are not issued here
      if (/pre-funded[^.]{0,80}$|\bexisting\b[^.]{0,80}$|\band\s*$/i.test(text.slice(0, m.index)) || /\bamend/i.test(text)) continue;
      found.set('common', series, 'shares', cite(count(m[2]!), text, m, confidence, 'series_warrant_count'));
      if (m[3]) found.set('common', series, 'exercisePrice', cite(Number(m[3]), text, m, confidence, 'series_warrant_exercise_price'));
    }
    // "Each series C warrant will be exercisable commencing on November 18, 2023 and will expire two years from the initial exercise date."
    for (const m of text.matchAll(new RegExp(String.raw`\beach (series [A-Z]) warrant\b[^.]*?will expire (${numberWord}) years from (?:the )?([a-z ]{3,40}?date)`, 'gi'))) {
      found.set('common', seriesName(m[1]), 'term', cite({ years: quantity(m[2]!), perpetual: false, from: m[3]!.trim() }, text, m, confidence, 'series_warrant_term'));
    }
    // "the Series A Warrants ... will expire on the earlier of ... (b) the 5-year anniversary of the closing date"
    const anniversary = text.match(/\b(Series [A-Z]) Warrants?\b[^.]*?will expire[^.]*?\bthe (\d+|[a-z]+)-year anniversary of the ([a-z ]{3,60}?)(?:\.|$)/i);
    if (anniversary) {
      found.set('common', seriesName(anniversary[1]), 'term', cite({ years: quantity(anniversary[2]!), perpetual: false, from: anniversary[3]!.trim() }, text, anniversary, 'medium', 'warrant_term_anniversary'));
    }
    // pre-funded warrants: count, price, perpetual term
    const pfCount = text.match(new RegExp(String.raw`\bpre-funded (?:common stock )?warrants?\b(?: \([^)]{0,40}\))?[^.;]{0,30}?to purchase (?:up to )?(?:an aggregate of )?${shareCount} shares`, 'i'));
    if (pfCount) found.set('pre_funded', null, 'shares', cite(count(pfCount[1]!), text, pfCount, confidence, 'pre_funded_warrant_count'));
    const pfPrice =
      text.match(new RegExp(String.raw`\bpre-funded (?:common stock )?warrants?\b[^.]{0,60}?(?:have|has|with) an exercise price of ${price}`, 'i')) ??
      text.match(new RegExp(String.raw`\bexercise price of the pre-funded (?:common stock )?warrants? is ${price}`, 'i')) ??
      text.match(new RegExp(String.raw`\bpre-funded warrants?\b[^.]{0,60}?exercise price of ${price}`, 'i'));
    if (pfPrice) found.set('pre_funded', null, 'exercisePrice', cite(Number(pfPrice[1]), text, pfPrice, confidence, 'pre_funded_warrant_exercise_price'));
    const pfTerm = text.match(/\bpre-funded (?:common stock )?warrants?\b[\s\S]{0,200}?\b(will not expire|do not expire|does not expire|may be exercised at any time until (?:they are |fully )?exercised|until (?:all of the pre-funded warrants are )?exercised in full)/i);
    if (pfTerm) found.set('pre_funded', null, 'term', cite({ years: null, perpetual: true, from: null }, text, pfTerm, confidence, 'pre_funded_no_expiry'));
    // unnamed "Warrants" (a defined term, capitalised) next to pre-funded ones
    const plainPrice = text.match(new RegExp(String.raw`(?<!pre-funded |Pre-funded |Pre-Funded )\bWarrants? (?:have|has) an exercise price of ${price}`));
    if (plainPrice) found.set('common', null, 'exercisePrice', cite(Number(plainPrice[1]), text, plainPrice, confidence, 'warrant_exercise_price'));
    const plainCount = text.match(new RegExp(String.raw`(?<!pre-funded |Pre-funded |Pre-Funded )\bwarrants (?:\(the “Warrants”\) )?to purchase (?:up to |an aggregate of )${shareCount} shares`, 'i'));
    if (plainCount && !/series [A-Z] |placement agent|pre-funded warrants? to purchase/i.test(text.slice(Math.max(0, plainCount.index! - 30), plainCount.index!))) {
      found.set('common', null, 'shares', cite(count(plainCount[1]!), text, plainCount, confidence, 'warrant_count'));
    }
    const plainTerm = text.match(new RegExp(String.raw`(?<!pre-funded |Pre-funded |Pre-Funded )\bWarrants?\b[^.]{0,80}?(?:for a term of|expire) (${numberWord}) years (?:following|from|after) (?:the )?([a-z ]{3,40}?)(?:\.|,|$)`));
    if (plainTerm) found.set('common', null, 'term', cite({ years: quantity(plainTerm[1]!), perpetual: false, from: plainTerm[2]!.trim() }, text, plainTerm, confidence, 'warrant_term'));
  }
  return found.list();
}

/** Shares under all warrants together: "... and Pre-Funded Warrants ... to purchase up to an aggregate of 7,230,301 shares". */
export function aggregateWarrantShares(units: Unit[]): Field<number> {
  for (const unit of units) {
    if (!/pre-funded/i.test(unit.text)) continue;
    const m = unit.text.match(new RegExp(String.raw`\bwarrants?\b[^.]{0,300}?to purchase (?:up to )?an aggregate of (?:up to )?${shareCount} (?:shares|Unregistered Warrant Shares)`, 'i'));
    if (m && /(?:series [A-Z]|common stock) warrants[^.]*pre-funded|pre-funded[^.]*(?:series [A-Z]|and) (?:common stock )?warrants/i.test(unit.text)) {
      return cite(count(m[1]!), unit.text, m, 'high', 'warrants_aggregate_count');
    }
  }
  return null;
}
