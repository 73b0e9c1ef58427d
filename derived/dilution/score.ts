// The dilution score and its sub-ratings (`/v1/dilution/score` and `/v1/dilution/ratings`).
//
// A pure, documented method: no database, no clock, no randomness. The same inputs give deep-equal
// outputs. Every input is a number read from a filing (its value, the date it describes and where it
// came from) or `null` when the corpus has none. A missing input is never read as zero: the
// sub-ratings it feeds say so in their reasons, a sub-rating with nothing to go on is `unknown`, the
// composite is the weighted mean over the sub-ratings that have a score (weights re-normalised), and
// the confidence falls with the share of the weight whose inputs are present (`coverage`).
//
// Scale: 0–100, higher = more dilution risk. Each sub-rating lands in a band (low, moderate,
// elevated, high) by the thresholds in `methodology.subRatings[…].bands`, and its score is that
// band's fixed score (`methodology.bandScores`), so a band boundary is exact (a runway of 5.99
// months is high, 6.0 is elevated) and a sub-score never moves without its band moving.

import { babyShelfThreshold } from './rules.ts';

// ---------------------------------------------------------------------------------------------
// Inputs

/** Where an input's number came from: the filing, its URL, and the tag / sentence / cell it was read from. */
export interface InputSource {
  accessionNumber: string | null;
  citationUrl: string | null;
  /** the XBRL tag and context, the sentence or the table cell the value came from */
  sourceSpan: string;
  /**
   * how it was read: an XBRL fact, a sentence of an offering document, an 8-K item, EDGAR's index;
   * where a fact and a document both state an input, the one with the newer "as of" is used and this says which
   */
  method?: 'xbrl_fact' | 'offering_document' | 'eight_k_item' | 'filing_index';
}

/** One number read from a filing. */
export interface ScoreInput {
  value: number;
  /** the date the number describes, YYYY-MM-DD */
  asOf: string;
  source: InputSource;
}

/** Open exchange compliance notices (8-K item 3.01): `value` counts those within the 12 months to `asOf`. */
export interface ComplianceNoticesInput extends ScoreInput {
  /** days from `asOf` to the nearest cure deadline among the open notices (negative: passed); null when no notice states one */
  daysToNearestDeadline: number | null;
}

/**
 * Offerings in the 12 months to `asOf`: `value` counts those a held document establishes as closed (a
 * final, priced prospectus); `possible` counts those known only from EDGAR's index, or still
 * preliminary, whose terms are not known: they may have closed, and are reported, never scored.
 */
export interface RecentOfferingsInput extends ScoreInput {
  possible?: number;
}

export interface DilutionScoreInputs {
  /** months of cash at the current burn (cash ÷ monthly operating cash burn) */
  cashRunwayMonths?: ScoreInput | null;
  /** USD per month consumed by operations (−NetCashProvidedByUsedInOperatingActivities ÷ months); ≤ 0 means operations generate cash */
  monthlyBurn?: ScoreInput | null;
  /** USD, CashAndCashEquivalentsAtCarryingValue */
  cash?: ScoreInput | null;
  /** shares, dei:EntityCommonStockSharesOutstanding, or the count an offering document states as of a date (a final prospectus's count after its offering, as of its closing) */
  sharesOutstanding?: ScoreInput | null;
  /** shares about twelve months before `sharesOutstanding`, adjusted for any split since */
  sharesOutstanding12mAgo?: ScoreInput | null;
  /** USD, dei:EntityPublicFloat */
  publicFloat?: ScoreInput | null;
  /** USD left on effective shelf registrations, already limited by the baby-shelf rule when it applies */
  shelfCapacityRemaining?: ScoreInput | null;
  /** USD left on at-the-market programs */
  atmCapacityRemaining?: ScoreInput | null;
  /** shares issuable on exercise of outstanding warrants (pre-funded included): the newest count, plus the warrants documents establish as issued after its date */
  warrantsOutstanding?: ScoreInput | null;
  /** of those, shares whose exercise price is below the last price (optional; reported, not scored) */
  warrantsInTheMoney?: ScoreInput | null;
  /** shares issuable on conversion of convertible notes and preferred, as converted */
  convertibleShares?: ScoreInput | null;
  /** open exchange compliance notices in the last 12 months, with the days to the nearest deadline */
  openComplianceNotices?: ComplianceNoticesInput | null;
  /** reverse splits effective in the last 24 months (8-K item 5.03, XBRL split ratios) */
  reverseSplitsLast24m?: ScoreInput | null;
  /** offerings (registered direct, underwritten, shelf takedown, PIPE) closed in the last 12 months */
  recentOfferingsLast12m?: RecentOfferingsInput | null;
}

export type InputName = keyof DilutionScoreInputs;

export const inputNames = [
  'cashRunwayMonths',
  'monthlyBurn',
  'cash',
  'sharesOutstanding',
  'sharesOutstanding12mAgo',
  'publicFloat',
  'shelfCapacityRemaining',
  'atmCapacityRemaining',
  'warrantsOutstanding',
  'warrantsInTheMoney',
  'convertibleShares',
  'openComplianceNotices',
  'reverseSplitsLast24m',
  'recentOfferingsLast12m',
] as const satisfies readonly InputName[];

/** An input that cannot be read as the method defines it (not finite, negative, a count that is not whole, a bad date). */
export class DilutionInputError extends RangeError {
  constructor(readonly input: InputName, message: string) {
    super(`dilution score input ${input}: ${message}`);
    this.name = 'DilutionInputError';
  }
}

// ---------------------------------------------------------------------------------------------
// The method

export type Band = 'low' | 'moderate' | 'elevated' | 'high';
export type SubRatingKey = 'offering_ability' | 'cash_need' | 'overhang' | 'float_growth' | 'compliance';
export const subRatingKeys = ['offering_ability', 'cash_need', 'overhang', 'float_growth', 'compliance'] as const satisfies readonly SubRatingKey[];

/** A band rule: the first row (top to bottom) whose condition holds gives the band. */
export type BandRule =
  | { band: Band; atLeast: number }
  | { band: Band; below: number }
  | { band: Band; atMost: number }
  | { band: Band; otherwise: true };

/** One unit of completeness: satisfied when every input of any one of its alternatives is present. */
export interface CompletenessItem {
  name: string;
  satisfiedBy: readonly (readonly InputName[])[];
}

export interface SubRatingMethod {
  label: string;
  question: string;
  /** every input the sub-rating reads (removing any other input never changes it) */
  inputs: readonly InputName[];
  /** what counts toward its completeness; inputs read only for context are not listed */
  completeness: readonly CompletenessItem[];
  metric: string;
  /** per metric, its band rules */
  bands: Readonly<Record<string, readonly BandRule[]>>;
  combination: string;
  notes: readonly string[];
}


export const methodology = {
  version: 'dilution-score/1',
  scale: '0–100, higher = more dilution risk',
  weights: { offering_ability: 0.25, cash_need: 0.3, overhang: 0.2, float_growth: 0.15, compliance: 0.1 } satisfies Record<SubRatingKey, number>,
  /** the score of a sub-rating in each band; each lies inside the composite band of the same name */
  bandScores: { low: 10, moderate: 40, elevated: 65, high: 90 } satisfies Record<Band, number>,
  /** composite bands: min inclusive, max exclusive (the last includes 100) */
  bands: [
    { band: 'low', min: 0, max: 25 },
    { band: 'moderate', min: 25, max: 50 },
    { band: 'elevated', min: 50, max: 75 },
    { band: 'high', min: 75, max: 100 },
  ] satisfies { band: Band; min: number; max: number }[],
  composite:
    'score = Σ wᵢ·sᵢ / Σ wᵢ over the sub-ratings that have a score (weights re-normalised over those present), rounded to 2 decimals; ' +
    'its band is the row of `bands` the rounded score falls in. A sub-rating without a score is left out, never counted as 0. ' +
    'When no sub-rating has a score, the score is null and the band unknown. A sub-rating scored from part of its inputs is the floor those inputs ' +
    'establish (its lowerBound is true, its reasons name what is missing) and lowers the coverage, so the confidence.',
  confidence: {
    measure:
      'coverage = Σ wᵢ·completenessᵢ (weights sum to 1); completenessᵢ = the share of the sub-rating’s completeness items satisfied, 0 when it has no score',
    thresholds: { high: 1, medium: 0.6 },
    rule: 'high when coverage = 1 (every counted input present); medium when coverage ≥ 0.6; low otherwise',
  },
  subRatings: {
    offering_ability: {
      label: 'Offering ability',
      question: 'Can the company sell registered stock now, and how much of its float could that be?',
      inputs: ['shelfCapacityRemaining', 'atmCapacityRemaining', 'publicFloat', 'monthlyBurn'],
      completeness: [
        { name: 'publicFloat', satisfiedBy: [['publicFloat']] },
        { name: 'shelfCapacityRemaining', satisfiedBy: [['shelfCapacityRemaining']] },
        { name: 'atmCapacityRemaining', satisfiedBy: [['atmCapacityRemaining']] },
      ],
      metric:
        'sellable capacity ÷ public float, where sellable capacity = max(shelf remaining, ATM remaining) (an ATM is sold off a shelf, so they are not added), ' +
        'limited to one third of the float when the float is under $75M (Form S-3 General Instruction I.B.6)',
      bands: {
        capacityToFloat: [
          { band: 'high', atLeast: 0.3 },
          { band: 'elevated', atLeast: 0.15 },
          { band: 'moderate', atLeast: 0.05 },
          { band: 'low', otherwise: true },
        ],
      },
      combination:
        'shelf and ATM both known to be $0 is low whatever the float; otherwise capacity without a float cannot be sized (unknown); the monthly burn is context only: the reasons say how many months of burn the capacity funds',
      notes: [
        'A missing shelf or ATM figure is not zero: the other one gives a floor (lowerBound: true, unless already at the baby-shelf cap or high) and the reasons say which is missing.',
        'shelfCapacityRemaining should already carry the baby-shelf limit net of the last 12 months’ sales (babyShelfCapacity); the cap here only ensures it never exceeds one third of the float.',
      ],
    },
    cash_need: {
      label: 'Cash need',
      question: 'How soon does the company run out of cash at its current burn?',
      inputs: ['cashRunwayMonths', 'cash', 'monthlyBurn'],
      completeness: [{ name: 'runway', satisfiedBy: [['cashRunwayMonths'], ['cash', 'monthlyBurn']] }],
      metric: 'cash runway in months: cashRunwayMonths, or else cash ÷ monthlyBurn; a burn ≤ 0 (operations generate cash) is low',
      bands: {
        runwayMonths: [
          { band: 'high', below: 6 },
          { band: 'elevated', below: 12 },
          { band: 'moderate', below: 24 },
          { band: 'low', otherwise: true },
        ],
      },
      combination: 'one metric',
      notes: ['A runway read from the filings takes precedence over one derived from cash and burn.'],
    },
    overhang: {
      label: 'Overhang',
      question: 'How many shares could appear from warrants and convertibles, against those outstanding?',
      inputs: ['warrantsOutstanding', 'convertibleShares', 'sharesOutstanding', 'warrantsInTheMoney'],
      completeness: [
        { name: 'sharesOutstanding', satisfiedBy: [['sharesOutstanding']] },
        { name: 'warrantsOutstanding', satisfiedBy: [['warrantsOutstanding']] },
        { name: 'convertibleShares', satisfiedBy: [['convertibleShares']] },
      ],
      metric: '(warrant shares + as-converted shares) ÷ shares outstanding',
      bands: {
        overhangToOutstanding: [
          { band: 'high', atLeast: 0.5 },
          { band: 'elevated', atLeast: 0.25 },
          { band: 'moderate', atLeast: 0.1 },
          { band: 'low', otherwise: true },
        ],
      },
      combination:
        'one metric; with warrants or convertibles missing the other alone gives a floor (lowerBound: true); without shares outstanding it cannot be sized (unknown)',
      notes: ['warrantsInTheMoney is reported in the reasons and not scored: every warrant counts, since out-of-the-money warrants are often repriced.'],
    },
    float_growth: {
      label: 'Float growth',
      question: 'How fast has the share count grown, and how often has the company sold stock?',
      inputs: ['sharesOutstanding', 'sharesOutstanding12mAgo', 'recentOfferingsLast12m'],
      completeness: [
        { name: 'shareCountChange', satisfiedBy: [['sharesOutstanding', 'sharesOutstanding12mAgo']] },
        { name: 'recentOfferingsLast12m', satisfiedBy: [['recentOfferingsLast12m']] },
      ],
      metric: 'shares outstanding ÷ split-adjusted shares outstanding 12 months earlier; offerings closed in the last 12 months',
      bands: {
        shareCountRatio: [
          { band: 'high', atLeast: 1.5 },
          { band: 'elevated', atLeast: 1.2 },
          { band: 'moderate', atLeast: 1.05 },
          { band: 'low', otherwise: true },
        ],
        offeringsLast12m: [
          { band: 'high', atLeast: 3 },
          { band: 'elevated', atLeast: 2 },
          { band: 'moderate', atLeast: 1 },
          { band: 'low', otherwise: true },
        ],
      },
      combination: 'the higher band of the two metrics; with one missing the other gives a floor (lowerBound: true)',
      notes: ['Share counts must be split-adjusted: a reverse split would otherwise read as shrinking float.'],
    },
    compliance: {
      label: 'Compliance',
      question: 'Is the listing at risk (exchange notices), and has the company already used reverse splits?',
      inputs: ['openComplianceNotices', 'reverseSplitsLast24m'],
      completeness: [
        { name: 'openComplianceNotices', satisfiedBy: [['openComplianceNotices']] },
        { name: 'reverseSplitsLast24m', satisfiedBy: [['reverseSplitsLast24m']] },
      ],
      metric: 'open exchange notices in the last 12 months (with the days to the nearest deadline); reverse splits in the last 24 months',
      bands: {
        openNotices: [
          { band: 'high', atLeast: 2 },
          { band: 'elevated', atLeast: 1 },
          { band: 'low', otherwise: true },
        ],
        daysToNearestDeadline: [
          { band: 'high', atMost: 90 },
          { band: 'elevated', otherwise: true },
        ],
        reverseSplitsLast24m: [
          { band: 'high', atLeast: 2 },
          { band: 'moderate', atLeast: 1 },
          { band: 'low', otherwise: true },
        ],
      },
      combination:
        'the highest band of: the notice count; for an open notice, its nearest deadline (≤ 90 days, or passed, is high); the reverse-split count; and high when an open notice follows a reverse split in the last 24 months (fewer cures left); with notices or splits missing the other gives a floor (lowerBound: true)',
      notes: ['daysToNearestDeadline only applies when at least one notice is open.'],
    },
  } satisfies Record<SubRatingKey, SubRatingMethod>,
  babyShelf: {
    rule: 'Form S-3 General Instruction I.B.6',
    publicFloatBelow: babyShelfThreshold,
    fractionOfFloat: '1/3',
    windowMonths: 12,
    capacity: 'max(0, publicFloat ÷ 3 − sold in the prior 12 months) when public float < $75,000,000; not applicable otherwise',
  },
  inputs: {
    cashRunwayMonths: { unit: 'months', from: 'cash ÷ monthly operating cash burn (CashAndCashEquivalentsAtCarryingValue, NetCashProvidedByUsedInOperatingActivities)' },
    monthlyBurn: { unit: 'USD/month', from: '−NetCashProvidedByUsedInOperatingActivities ÷ months in the period' },
    cash: { unit: 'USD', from: 'CashAndCashEquivalentsAtCarryingValue' },
    sharesOutstanding: { unit: 'shares', from: 'dei:EntityCommonStockSharesOutstanding, or the count an offering document states "as of" a date ("based on 2,896,723 shares … outstanding as of September 30, 2025"), whichever is newer (source.method says which)' },
    sharesOutstanding12mAgo: { unit: 'shares', from: 'the same, about 12 months earlier, with no split between' },
    publicFloat: { unit: 'USD', from: 'dei:EntityPublicFloat, or the float an offering document states with its date, whichever is newer (source.method says which)' },
    shelfCapacityRemaining: { unit: 'USD', from: 'the baby-shelf capacity an S-3 / 424B states or leaves, from the newest float stated on or before it; not established when that float is older than the 60 days I.B.6 measures within or the document itself sells more' },
    atmCapacityRemaining: { unit: 'USD', from: 'ATM prospectus supplement program size less sales' },
    warrantsOutstanding: { unit: 'shares', from: 'ClassOfWarrantOrRightOutstanding, or the outstanding warrants an offering document counts as of a date, whichever is newer; with neither, the warrants offering documents state as issued' },
    warrantsInTheMoney: { unit: 'shares', from: 'warrants with exercise price below the last price (optional)' },
    convertibleShares: { unit: 'shares', from: 'DebtInstrumentConvertible*, PreferredStockConvertible* as converted' },
    openComplianceNotices: { unit: 'count', from: '8-K item 3.01 notices in the last 12 months not yet cured, with their deadlines' },
    reverseSplitsLast24m: { unit: 'count', from: '8-K item 5.03; StockholdersEquityReverseStockSplit' },
    recentOfferingsLast12m: {
      unit: 'count',
      from: 'final, priced offering prospectuses (424B1/3/4/5, not an ATM program) held in the last 12 months: closed; 424B filings known only from EDGAR\'s index, or preliminary, are `possible` (reported, not scored)',
    },
  } satisfies Record<InputName, { unit: string; from: string }>,
} as const;

// ---------------------------------------------------------------------------------------------
// Outputs

export interface SubRating {
  key: SubRatingKey;
  label: string;
  /** 0–100, higher = more dilution risk; null when nothing could be scored */
  score: number | null;
  band: Band | 'unknown';
  weight: number;
  /** the numbers used, with their dates, and the rule each met */
  reasons: string[];
  /** the inputs this sub-rating reads that are missing */
  missing: InputName[];
  /** share of its completeness items satisfied (0 when unknown) */
  completeness: number;
  /** true when a missing input could only raise the band: the band is a floor, not the answer (null when unknown) */
  lowerBound: boolean | null;
}

export type DilutionRatings = Record<SubRatingKey, SubRating>;

export type ListedInput =
  | { value: number; asOf: string; source: InputSource; daysToNearestDeadline?: number | null; possible?: number; optional?: true }
  | { missing: true; optional?: true; reason?: string };

/** Why an input is missing, where the reader of the records knows (e.g. items whose text was not read). */
export type MissingReasons = Partial<Record<InputName, string>>;

/** Each sub-rating states why the inputs it lacks are missing, where that is known. */
function explainMissing(ratings: DilutionRatings, why: MissingReasons): DilutionRatings {
  for (const rating of Object.values(ratings)) {
    for (const name of rating.missing) if (why[name]) rating.reasons.push(`${name} missing: ${why[name]}`);
  }
  return ratings;
}

export interface DilutionScore {
  methodologyVersion: typeof methodology.version;
  score: number | null;
  band: Band | 'unknown';
  confidence: 'high' | 'medium' | 'low';
  /** Σ weight × completeness over the sub-ratings, 4 decimals */
  coverage: number;
  /** the weights as applied: re-normalised over the sub-ratings with a score, null for the others */
  weightsApplied: Record<SubRatingKey, number | null>;
  ratings: DilutionRatings;
  inputs: Record<InputName, ListedInput>;
  missing: InputName[];
  reasons: string[];
}

// ---------------------------------------------------------------------------------------------
// Formatting (no locale: the same string on every machine)

const round = (x: number, places: number) => {
  const f = 10 ** places;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** 1234567.891 → "1,234,567.89"; whole numbers without decimals */
export function formatNumber(x: number, places = 2): string {
  const r = round(x, places);
  const sign = r < 0 ? '-' : '';
  const [whole, frac] = Math.abs(r).toFixed(places).split('.');
  const trimmed = (frac ?? '').replace(/0+$/, '');
  return `${sign}${group(whole!)}${trimmed ? `.${trimmed}` : ''}`;
}

const usd = (x: number) => (x < 0 ? `-$${formatNumber(-x)}` : `$${formatNumber(x)}`);
const pct = (fraction: number) => `${formatNumber(fraction * 100)}%`;
const at = (input: ScoreInput) => `(as of ${input.asOf})`;
const plural = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;

function describeRule(rule: BandRule, previous: BandRule | undefined, show: (x: number) => string): string {
  if ('atLeast' in rule) {
    const upper = previous && 'atLeast' in previous ? ` and < ${show(previous.atLeast)}` : '';
    return `≥ ${show(rule.atLeast)}${upper}`;
  }
  if ('below' in rule) {
    const lower = previous && 'below' in previous ? `≥ ${show(previous.below)} and ` : '';
    return `${lower}< ${show(rule.below)}`;
  }
  if ('atMost' in rule) return `≤ ${show(rule.atMost)}`;
  if (!previous) return 'any value';
  if ('atLeast' in previous) return `< ${show(previous.atLeast)}`;
  if ('below' in previous) return `≥ ${show(previous.below)}`;
  if ('atMost' in previous) return `> ${show(previous.atMost)}`;
  return 'any value';
}

/** The band a metric falls in, and the rule it met (for the reasons). */
function bandOf(rules: readonly BandRule[], x: number, show: (x: number) => string = formatNumber): { band: Band; rule: string } {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    const hit = 'atLeast' in rule ? x >= rule.atLeast : 'below' in rule ? x < rule.below : 'atMost' in rule ? x <= rule.atMost : true;
    if (hit) return { band: rule.band, rule: describeRule(rule, rules[i - 1], show) };
  }
  throw new Error('band rules must end with an `otherwise` row');
}

const bandRank: Record<Band, number> = { low: 0, moderate: 1, elevated: 2, high: 3 };
const higher = (a: Band, b: Band): Band => (bandRank[b] > bandRank[a] ? b : a);

// ---------------------------------------------------------------------------------------------
// Validation

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const counts: ReadonlySet<InputName> = new Set(['openComplianceNotices', 'reverseSplitsLast24m', 'recentOfferingsLast12m']);
const positive: ReadonlySet<InputName> = new Set(['sharesOutstanding', 'sharesOutstanding12mAgo', 'publicFloat']);
const signed: ReadonlySet<InputName> = new Set(['monthlyBurn']);

function dayNumber(name: InputName, asOf: string): number {
  const m = isoDate.exec(asOf);
  if (!m) throw new DilutionInputError(name, `asOf ${JSON.stringify(asOf)} is not YYYY-MM-DD`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    throw new DilutionInputError(name, `asOf ${asOf} is not a calendar date`);
  }
  return t / 86_400_000;
}

type Present = { [K in InputName]: NonNullable<DilutionScoreInputs[K]> | null };

function readInputs(inputs: DilutionScoreInputs): Present {
  const out = {} as Record<InputName, ScoreInput | null>;
  for (const name of inputNames) {
    const input = inputs[name] ?? null;
    if (input !== null) {
      const { value } = input;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new DilutionInputError(name, `value ${String(value)} is not a finite number`);
      if (!signed.has(name) && value < 0) throw new DilutionInputError(name, `value ${value} is negative`);
      if (positive.has(name) && value <= 0) throw new DilutionInputError(name, `value ${value} must be greater than 0`);
      if (counts.has(name) && !Number.isInteger(value)) throw new DilutionInputError(name, `value ${value} is not a whole count`);
      dayNumber(name, input.asOf);
      if (!input.source || typeof input.source.sourceSpan !== 'string') throw new DilutionInputError(name, 'source.sourceSpan is required');
      if (name === 'openComplianceNotices') {
        const days = (input as ComplianceNoticesInput).daysToNearestDeadline ?? null;
        if (days !== null && !Number.isInteger(days)) throw new DilutionInputError(name, `daysToNearestDeadline ${String(days)} is not a whole number of days`);
      }
    }
    out[name] = input;
  }
  return out as Present;
}

// ---------------------------------------------------------------------------------------------
// Sub-ratings

interface Assessed {
  band: Band | null;
  reasons: string[];
  /** a missing input could only raise the band: the band is a floor */
  lowerBound?: boolean;
}

/** When a missing input could only raise the band, say so (unless the band is already the highest). */
function floor(band: Band, reasons: string[], missingParts: string[]): Assessed {
  if (missingParts.length === 0 || band === 'high') return { band, reasons, lowerBound: false };
  reasons.push(`at least ${band}: ${missingParts.join(' and ')} missing, which could only raise it`);
  return { band, reasons, lowerBound: true };
}

function offeringAbility(x: Present): Assessed {
  const { shelfCapacityRemaining: shelf, atmCapacityRemaining: atm, publicFloat: float, monthlyBurn: burn } = x;
  const rules = methodology.subRatings.offering_ability.bands.capacityToFloat;
  if (!shelf && !atm) {
    return { band: null, reasons: ['no shelf or ATM capacity on file: offering ability cannot be assessed'] };
  }
  const reasons: string[] = [];
  const missingParts: string[] = [];
  if (shelf) reasons.push(`shelf capacity remaining ${usd(shelf.value)} ${at(shelf)}`);
  else {
    reasons.push('shelf capacity missing: the ATM capacity alone is used');
    missingParts.push('the shelf capacity');
  }
  if (atm) reasons.push(`ATM capacity remaining ${usd(atm.value)} ${at(atm)}`);
  else {
    reasons.push('ATM capacity missing: the shelf capacity alone is used');
    missingParts.push('the ATM capacity');
  }
  let capacity = Math.max(shelf?.value ?? 0, atm?.value ?? 0);
  if (shelf && atm) reasons.push(`sellable capacity ${usd(capacity)}: the larger of shelf and ATM (an ATM is sold off a shelf, so they are not added)`);

  if (capacity === 0 && shelf && atm) {
    reasons.push(`no registered capacity remaining (${usd(0)}): low`);
    if (float) reasons.push(`public float ${usd(float.value)} ${at(float)}`);
    return { band: 'low', reasons, lowerBound: false };
  }
  if (!float) {
    return { band: null, reasons: [`no public float on file: a capacity of ${usd(capacity)} cannot be sized against the float`, ...reasons] };
  }
  const limit = babyShelfCapacity(float.value, 0, float.asOf);
  let capped = false;
  if (limit.applies) {
    reasons.push(
      `public float ${usd(float.value)} ${at(float)} is under ${usd(babyShelfThreshold)}: the baby-shelf rule (Form S-3 I.B.6) limits sales to one third of the float, ${usd(limit.capacity!)}, per 12 months`,
    );
    if (capacity >= limit.capacity!) {
      if (capacity > limit.capacity!) reasons.push(`capacity ${usd(capacity)} exceeds that limit: ${usd(limit.capacity!)} is counted`);
      capacity = limit.capacity!;
      capped = true;
    }
  } else {
    reasons.push(`public float ${usd(float.value)} ${at(float)} is at least ${usd(babyShelfThreshold)}: the baby-shelf limit does not apply`);
  }
  const ratio = capacity / float.value;
  const { band, rule } = bandOf(rules, ratio, pct);
  reasons.push(`sellable capacity ${usd(capacity)} is ${pct(ratio)} of public float: ${band} (${rule})`);
  if (burn) {
    if (burn.value > 0) {
      reasons.push(`at a monthly burn of ${usd(burn.value)} ${at(burn)} that capacity funds ${formatNumber(capacity / burn.value, 1)} months (context, not scored)`);
    } else {
      reasons.push(`operations generate cash (monthly burn ${usd(burn.value)} ${at(burn)}): no need to use that capacity (context, not scored)`);
    }
  }
  // at the baby-shelf cap, a missing shelf or ATM figure cannot add capacity
  return floor(band, reasons, capped ? [] : missingParts);
}

function cashNeed(x: Present): Assessed {
  const rules = methodology.subRatings.cash_need.bands.runwayMonths;
  const { cashRunwayMonths: runway, cash, monthlyBurn: burn } = x;
  if (runway) {
    const { band, rule } = bandOf(rules, runway.value);
    return { band, reasons: [`cash runway ${formatNumber(runway.value)} months ${at(runway)}: ${band} (${rule} months)`], lowerBound: false };
  }
  if (cash && burn) {
    if (burn.value <= 0) {
      return {
        band: 'low',
        reasons: [`monthly burn ${usd(burn.value)} ${at(burn)}: operations generate cash, so cash ${usd(cash.value)} ${at(cash)} is not being used up: low`],
        lowerBound: false,
      };
    }
    const months = cash.value / burn.value;
    const { band, rule } = bandOf(rules, months);
    return {
      band,
      reasons: [
        'cash runway missing: derived from cash and burn',
        `cash ${usd(cash.value)} ${at(cash)} ÷ monthly burn ${usd(burn.value)} ${at(burn)} = runway ${formatNumber(months)} months: ${band} (${rule} months)`,
      ],
      lowerBound: false,
    };
  }
  const have = cash ? `cash ${usd(cash.value)} ${at(cash)} without a monthly burn` : burn ? `monthly burn ${usd(burn.value)} ${at(burn)} without cash` : null;
  return { band: null, reasons: [`no cash runway${have ? ` (only ${have})` : ', cash or burn on file'}: cash need cannot be assessed`] };
}

function overhang(x: Present): Assessed {
  const rules = methodology.subRatings.overhang.bands.overhangToOutstanding;
  const { warrantsOutstanding: warrants, convertibleShares: convertibles, sharesOutstanding: shares, warrantsInTheMoney: itm } = x;
  if (!warrants && !convertibles) {
    return { band: null, reasons: ['no warrant or convertible counts on file: overhang cannot be assessed'] };
  }
  if (!shares) {
    return { band: null, reasons: ['no shares outstanding on file to size warrants and convertibles against: overhang cannot be assessed'] };
  }
  const reasons: string[] = [];
  const missingParts: string[] = [];
  if (warrants) reasons.push(`warrants exercisable for ${plural(warrants.value, 'share')} ${at(warrants)}`);
  else {
    reasons.push('warrant count missing: convertibles alone are counted');
    missingParts.push('the warrant count');
  }
  if (convertibles) reasons.push(`convertibles convertible into ${plural(convertibles.value, 'share')} ${at(convertibles)}`);
  else {
    reasons.push('convertible count missing: warrants alone are counted');
    missingParts.push('the convertible count');
  }
  const potential = (warrants?.value ?? 0) + (convertibles?.value ?? 0);
  const ratio = potential / shares.value;
  const { band, rule } = bandOf(rules, ratio, pct);
  reasons.push(`${plural(potential, 'potential share')} against ${plural(shares.value, 'share')} outstanding ${at(shares)} = ${pct(ratio)}: ${band} (${rule})`);
  if (itm) reasons.push(`of the warrants, ${plural(itm.value, 'share')} ${at(itm)} are in the money, ${pct(itm.value / shares.value)} of outstanding (context, not scored)`);
  return floor(band, reasons, missingParts);
}

function floatGrowth(x: Present): Assessed {
  const { shareCountRatio, offeringsLast12m } = methodology.subRatings.float_growth.bands;
  const { sharesOutstanding: now, sharesOutstanding12mAgo: then, recentOfferingsLast12m: offerings } = x;
  if (!(now && then) && !offerings) {
    return { band: null, reasons: ['no share count history or offering count on file: float growth cannot be assessed'] };
  }
  const reasons: string[] = [];
  const missingParts: string[] = [];
  let band: Band = 'low';
  if (now && then) {
    const ratio = now.value / then.value;
    const days = dayNumber('sharesOutstanding', now.asOf) - dayNumber('sharesOutstanding12mAgo', then.asOf);
    const hit = bandOf(shareCountRatio, ratio, (r) => `×${formatNumber(r, 4)}`);
    reasons.push(
      `shares outstanding ${formatNumber(now.value)} ${at(now)} against ${formatNumber(then.value)} ${at(then)}, ${days} days apart: ×${formatNumber(ratio, 4)} (${ratio >= 1 ? '+' : ''}${pct(ratio - 1)}): ${hit.band} (${hit.rule})`,
    );
    band = higher(band, hit.band);
  } else {
    const which = [!now && 'shares outstanding', !then && 'shares outstanding 12 months earlier'].filter(Boolean).join(' and ');
    reasons.push(`no ${which} on file: the 12-month change in shares outstanding is not measured`);
    missingParts.push('the share count change');
  }
  if (offerings) {
    const hit = bandOf(offeringsLast12m, offerings.value);
    reasons.push(`${plural(offerings.value, 'offering')} closed in the 12 months to ${offerings.asOf}: ${hit.band} (${hit.rule})`);
    const possible = (offerings as RecentOfferingsInput).possible ?? 0;
    if (possible > 0) reasons.push(`${plural(possible, 'more offering')} possible in that window (known only from EDGAR's index, or preliminary: terms unknown; reported, not counted)`);
    band = higher(band, hit.band);
  } else {
    reasons.push('no count of offerings in the last 12 months on file');
    missingParts.push('the offering count');
  }
  if (now && then && offerings) reasons.push(`float growth is the higher of the two: ${band}`);
  return floor(band, reasons, missingParts);
}

function compliance(x: Present): Assessed {
  const rules = methodology.subRatings.compliance.bands;
  const { openComplianceNotices: notices, reverseSplitsLast24m: splits } = x;
  if (!notices && !splits) {
    return { band: null, reasons: ['no exchange compliance notices or reverse split history on file: compliance cannot be assessed'] };
  }
  const reasons: string[] = [];
  const missingParts: string[] = [];
  let band: Band = 'low';
  if (notices) {
    const hit = bandOf(rules.openNotices, notices.value);
    reasons.push(`${plural(notices.value, 'open exchange compliance notice')} in the 12 months to ${notices.asOf}: ${hit.band} (${hit.rule})`);
    band = higher(band, hit.band);
    const days = notices.daysToNearestDeadline ?? null;
    if (notices.value > 0) {
      if (days === null) {
        reasons.push('no deadline stated for the open notices');
      } else {
        const d = bandOf(rules.daysToNearestDeadline, days);
        const when = days < 0 ? `passed ${formatNumber(-days)} days before ${notices.asOf}` : `${formatNumber(days)} days after ${notices.asOf}`;
        reasons.push(`nearest cure deadline ${when}: ${d.band} (${d.rule} days)`);
        band = higher(band, d.band);
      }
    }
  } else {
    reasons.push('exchange compliance notices missing: reverse splits alone are used');
    missingParts.push('the compliance notices');
  }
  if (splits) {
    const hit = bandOf(rules.reverseSplitsLast24m, splits.value);
    reasons.push(`${plural(splits.value, 'reverse split')} in the 24 months to ${splits.asOf}: ${hit.band} (${hit.rule})`);
    band = higher(band, hit.band);
  } else {
    reasons.push('reverse split history missing: compliance notices alone are used');
    missingParts.push('the reverse split history');
  }
  if (notices && splits && notices.value > 0 && splits.value > 0) {
    reasons.push('an open notice after a reverse split in the last 24 months: high (fewer cures left)');
    band = 'high';
  }
  return floor(band, reasons, missingParts);
}

const assessors: Record<SubRatingKey, (x: Present) => Assessed> = {
  offering_ability: offeringAbility,
  cash_need: cashNeed,
  overhang,
  float_growth: floatGrowth,
  compliance,
};

function completenessOf(key: SubRatingKey, x: Present): number {
  const items = methodology.subRatings[key].completeness as readonly CompletenessItem[];
  const satisfied = items.filter((item) => item.satisfiedBy.some((names) => names.every((n) => x[n] !== null))).length;
  return round(satisfied / items.length, 4);
}

function rate(key: SubRatingKey, x: Present): SubRating {
  const method = methodology.subRatings[key];
  const { band, reasons, lowerBound } = assessors[key](x);
  const missing = (method.inputs as readonly InputName[]).filter((n) => x[n] === null);
  return {
    key,
    label: method.label,
    score: band === null ? null : methodology.bandScores[band],
    band: band ?? 'unknown',
    weight: methodology.weights[key],
    reasons,
    missing: inputNames.filter((n) => missing.includes(n)),
    completeness: band === null ? 0 : completenessOf(key, x),
    lowerBound: band === null ? null : (lowerBound ?? false),
  };
}

/** The five sub-ratings, each with its score, band and the reasons (numbers and dates) behind it. */
export function ratingsOf(inputs: DilutionScoreInputs, why: MissingReasons = {}): DilutionRatings {
  const x = readInputs(inputs);
  const out = {} as DilutionRatings;
  for (const key of subRatingKeys) out[key] = rate(key, x);
  return explainMissing(out, why);
}

/** The composite band of a 0–100 score. */
export function compositeBandOf(score: number): Band {
  for (const row of methodology.bands) if (score >= row.min && score < row.max) return row.band;
  return 'high';
}

/** The composite score: the weighted mean of the sub-ratings that have a score, its band, and how complete its inputs were. */
export function scoreOf(inputs: DilutionScoreInputs, why: MissingReasons = {}): DilutionScore {
  const x = readInputs(inputs);
  const ratings = {} as DilutionRatings;
  for (const key of subRatingKeys) ratings[key] = rate(key, x);
  explainMissing(ratings, why);

  const present = subRatingKeys.filter((k) => ratings[k].score !== null);
  const weightPresent = present.reduce((sum, k) => sum + methodology.weights[k], 0);
  const weightsApplied = {} as Record<SubRatingKey, number | null>;
  for (const k of subRatingKeys) weightsApplied[k] = ratings[k].score === null ? null : round(methodology.weights[k] / weightPresent, 6);

  const score = present.length === 0 ? null : round(present.reduce((sum, k) => sum + methodology.weights[k] * ratings[k].score!, 0) / weightPresent, 2);
  const band = score === null ? 'unknown' : compositeBandOf(score);
  const coverage = round(subRatingKeys.reduce((sum, k) => sum + methodology.weights[k] * ratings[k].completeness, 0), 4);
  const { thresholds } = methodology.confidence;
  const confidence = coverage >= thresholds.high ? 'high' : coverage >= thresholds.medium ? 'medium' : 'low';

  const listed = {} as Record<InputName, ListedInput>;
  const missing: InputName[] = [];
  for (const name of inputNames) {
    const input = x[name];
    const optional = name === 'warrantsInTheMoney' ? ({ optional: true } as const) : {};
    if (input === null) {
      missing.push(name);
      listed[name] = { missing: true, ...optional, ...(why[name] ? { reason: why[name] } : {}) };
    } else {
      const entry: ListedInput = { value: input.value, asOf: input.asOf, source: { ...input.source }, ...optional };
      if (name === 'openComplianceNotices') entry.daysToNearestDeadline = (input as ComplianceNoticesInput).daysToNearestDeadline ?? null;
      if (name === 'recentOfferingsLast12m' && (input as RecentOfferingsInput).possible !== undefined) entry.possible = (input as RecentOfferingsInput).possible;
      listed[name] = entry;
    }
  }

  const reasons: string[] = [];
  if (score === null) {
    reasons.push('no sub-rating could be scored: no score is given rather than a guess');
  } else {
    const terms = present.map((k) => `${methodology.weights[k]}×${ratings[k].score} (${k})`).join(' + ');
    reasons.push(`score ${formatNumber(score)} = (${terms}) ÷ ${formatNumber(weightPresent, 4)}: ${band}`);
  }
  const absent = subRatingKeys.filter((k) => ratings[k].score === null);
  if (absent.length) reasons.push(`left out, not counted as zero: ${absent.map((k) => `${k} (weight ${methodology.weights[k]})`).join(', ')}`);
  reasons.push(
    `coverage ${formatNumber(coverage, 4)} of the weight has its inputs: confidence ${confidence} (high = 1, medium ≥ ${thresholds.medium}, low below)`,
  );

  return {
    methodologyVersion: methodology.version,
    score,
    band,
    confidence,
    coverage,
    weightsApplied,
    ratings,
    inputs: listed,
    missing,
    reasons,
  };
}

// ---------------------------------------------------------------------------------------------
// Baby shelf

/**
 * Form S-3 General Instruction I.B.6 ("baby shelf"): an issuer whose public float is under $75M may
 * sell on its shelf, in any 12 months, at most one third of its public float. The capacity left is
 * float ÷ 3 less what it sold in the prior 12 months, never below 0; not applicable at $75M or more.
 */
export function babyShelfCapacity(publicFloat: number, soldLast12m: number, floatAsOf?: string): { applies: boolean; capacity: number | null; rule: string } {
  if (!Number.isFinite(publicFloat) || publicFloat < 0) throw new RangeError(`babyShelfCapacity: publicFloat ${publicFloat} must be a finite number ≥ 0`);
  if (!Number.isFinite(soldLast12m) || soldLast12m < 0) throw new RangeError(`babyShelfCapacity: soldLast12m ${soldLast12m} must be a finite number ≥ 0`);
  const floatText = `public float ${usd(publicFloat)}${floatAsOf ? ` (as of ${floatAsOf})` : ''}`;
  if (publicFloat >= babyShelfThreshold) {
    return { applies: false, capacity: null, rule: `Form S-3 General Instruction I.B.6 does not apply: ${floatText} is at least ${usd(babyShelfThreshold)}` };
  }
  const third = publicFloat / 3;
  const capacity = Math.max(0, third - soldLast12m);
  return {
    applies: true,
    capacity,
    rule: `Form S-3 General Instruction I.B.6: ${floatText} is under ${usd(babyShelfThreshold)}, so sales in any 12 months are limited to one third of it, ${usd(third)}; less ${usd(soldLast12m)} sold in the prior 12 months leaves ${usd(capacity)}`,
  };
}
