// The dilution score method (`/v1/dilution/score` and `/ratings`): exact band boundaries,
// weights, missing inputs lowering confidence rather than counting as zero, determinism, the
// baby-shelf rule, and reasons that name their numbers. Pure: no database.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  babyShelfCapacity,
  compositeBandOf,
  DilutionInputError,
  inputNames,
  methodology,
  ratingsOf,
  scoreOf,
  subRatingKeys,
  type ComplianceNoticesInput,
  type DilutionScoreInputs,
  type InputName,
  type ScoreInput,
  type SubRatingKey,
} from '../../derived/dilution/score.ts';

const source = { accessionNumber: '0001234567-24-000001', citationUrl: 'https://www.sec.gov/Archives/edgar/data/1/000123456724000001/x.htm', sourceSpan: 'dei:EntityCommonStockSharesOutstanding' };
const v = (value: number, asOf = '2024-03-31'): ScoreInput => ({ value, asOf, source });
const notices = (value: number, daysToNearestDeadline: number | null, asOf = '2024-03-31'): ComplianceNoticesInput => ({ ...v(value, asOf), daysToNearestDeadline });

/** every input present; each sub-rating low */
const full = (): DilutionScoreInputs => ({
  cashRunwayMonths: v(30),
  monthlyBurn: v(1_000_000),
  cash: v(30_000_000),
  sharesOutstanding: v(10_000_000),
  sharesOutstanding12mAgo: v(10_000_000, '2023-03-31'),
  publicFloat: v(200_000_000, '2023-06-30'),
  shelfCapacityRemaining: v(0),
  atmCapacityRemaining: v(0),
  warrantsOutstanding: v(100_000),
  warrantsInTheMoney: v(0),
  convertibleShares: v(0),
  openComplianceNotices: notices(0, null),
  reverseSplitsLast24m: v(0),
  recentOfferingsLast12m: v(0),
});

const without = (inputs: DilutionScoreInputs, ...names: InputName[]): DilutionScoreInputs => {
  const copy = { ...inputs };
  for (const n of names) copy[n] = null;
  return copy;
};

const rating = (key: SubRatingKey, inputs: DilutionScoreInputs) => ratingsOf(inputs)[key];

describe('methodology', () => {
  it('has a version, weights summing to 1 over the five sub-ratings, and contiguous bands', () => {
    expect(methodology.version).toBe('dilution-score/1');
    expect(Object.keys(methodology.weights)).toEqual([...subRatingKeys]);
    const sum = subRatingKeys.reduce((s, k) => s + methodology.weights[k], 0);
    expect(sum).toBe(1);
    for (const k of subRatingKeys) expect(methodology.weights[k]).toBeGreaterThan(0);
    expect(methodology.bands[0]!.min).toBe(0);
    expect(methodology.bands.at(-1)!.max).toBe(100);
    for (let i = 1; i < methodology.bands.length; i++) expect(methodology.bands[i]!.min).toBe(methodology.bands[i - 1]!.max);
    expect(methodology.confidence.thresholds).toEqual({ high: 1, medium: 0.6 });
  });

  it('gives each band a sub-score inside the composite band of the same name', () => {
    for (const band of ['low', 'moderate', 'elevated', 'high'] as const) expect(compositeBandOf(methodology.bandScores[band])).toBe(band);
  });

  it('composite band boundaries are exact', () => {
    expect(compositeBandOf(0)).toBe('low');
    expect(compositeBandOf(24.99)).toBe('low');
    expect(compositeBandOf(25)).toBe('moderate');
    expect(compositeBandOf(49.99)).toBe('moderate');
    expect(compositeBandOf(50)).toBe('elevated');
    expect(compositeBandOf(74.99)).toBe('elevated');
    expect(compositeBandOf(75)).toBe('high');
    expect(compositeBandOf(100)).toBe('high');
  });

  it('lists for each sub-rating the inputs it reads, all of them real input names', () => {
    for (const k of subRatingKeys) for (const n of methodology.subRatings[k].inputs) expect(inputNames).toContain(n);
  });
});

describe('cash need', () => {
  const band = (months: number) => rating('cash_need', { cashRunwayMonths: v(months) }).band;
  it('bands runway exactly at 6, 12 and 24 months', () => {
    expect(band(0)).toBe('high');
    expect(band(5.99)).toBe('high');
    expect(band(6)).toBe('elevated');
    expect(band(11.99)).toBe('elevated');
    expect(band(12)).toBe('moderate');
    expect(band(23.99)).toBe('moderate');
    expect(band(24)).toBe('low');
    expect(band(120)).toBe('low');
  });

  it('scores each band with its band score', () => {
    expect(rating('cash_need', { cashRunwayMonths: v(5.99) }).score).toBe(methodology.bandScores.high);
    expect(rating('cash_need', { cashRunwayMonths: v(6) }).score).toBe(methodology.bandScores.elevated);
  });

  it('derives the runway from cash ÷ burn when no runway is given, and names both numbers', () => {
    const r = rating('cash_need', { cash: v(6_000_000, '2024-03-31'), monthlyBurn: v(1_000_000, '2024-03-30') });
    expect(r.band).toBe('elevated');
    expect(r.reasons.join(' ')).toContain('$6,000,000 (as of 2024-03-31)');
    expect(r.reasons.join(' ')).toContain('$1,000,000 (as of 2024-03-30)');
    expect(r.reasons.join(' ')).toContain('runway 6 months');
    expect(rating('cash_need', { cash: v(5_990_000), monthlyBurn: v(1_000_000) }).band).toBe('high');
  });

  it('is low when operations generate cash', () => {
    expect(rating('cash_need', { cash: v(1_000), monthlyBurn: v(0) }).band).toBe('low');
    expect(rating('cash_need', { cash: v(1_000), monthlyBurn: v(-50_000) }).band).toBe('low');
  });

  it('prefers a runway read from the filings over cash ÷ burn', () => {
    expect(rating('cash_need', { cashRunwayMonths: v(30), cash: v(1), monthlyBurn: v(1_000_000) }).band).toBe('low');
  });

  it('is unknown without a runway or both cash and burn, never zero', () => {
    for (const inputs of [{}, { cash: v(5) }, { monthlyBurn: v(5) }]) {
      const r = rating('cash_need', inputs);
      expect(r).toMatchObject({ score: null, band: 'unknown', completeness: 0, lowerBound: null });
      expect(r.reasons[0]).toMatch(/^no /);
    }
  });
});

describe('offering ability', () => {
  const big = 100_000_000; // above the baby-shelf line
  const band = (shelf: number, float = big) => rating('offering_ability', { shelfCapacityRemaining: v(shelf), atmCapacityRemaining: v(0), publicFloat: v(float) }).band;

  it('bands capacity ÷ float exactly at 5%, 15% and 30%', () => {
    expect(band(30_000_000)).toBe('high');
    expect(band(29_999_999)).toBe('elevated');
    expect(band(15_000_000)).toBe('elevated');
    expect(band(14_999_999)).toBe('moderate');
    expect(band(5_000_000)).toBe('moderate');
    expect(band(4_999_999)).toBe('low');
    expect(band(0)).toBe('low');
  });

  it('takes the larger of shelf and ATM, not their sum', () => {
    const r = rating('offering_ability', { shelfCapacityRemaining: v(10_000_000), atmCapacityRemaining: v(10_000_000), publicFloat: v(big) });
    expect(r.band).toBe('moderate'); // 10%, not 20%
    expect(r.reasons.join(' ')).toContain('10% of public float');
  });

  it('limits capacity to one third of a float under $75M (baby shelf) and says so', () => {
    const r = rating('offering_ability', { shelfCapacityRemaining: v(50_000_000), atmCapacityRemaining: v(0), publicFloat: v(60_000_000, '2023-06-30') });
    expect(r.band).toBe('high');
    const text = r.reasons.join(' ');
    expect(text).toContain('public float $60,000,000 (as of 2023-06-30) is under $75,000,000');
    expect(text).toContain('$20,000,000 is counted');
    expect(text).toContain('33.33% of public float');
    const at75 = rating('offering_ability', { shelfCapacityRemaining: v(50_000_000), atmCapacityRemaining: v(0), publicFloat: v(75_000_000) });
    expect(at75.reasons.join(' ')).toContain('the baby-shelf limit does not apply');
    expect(at75.reasons.join(' ')).toContain('66.67% of public float');
  });

  it('is low when shelf and ATM are both known to be $0, even without a float', () => {
    expect(rating('offering_ability', { shelfCapacityRemaining: v(0), atmCapacityRemaining: v(0) })).toMatchObject({ band: 'low', lowerBound: false });
  });

  it('cannot size capacity without a float, and a missing shelf is not read as $0', () => {
    expect(rating('offering_ability', { shelfCapacityRemaining: v(5_000_000), atmCapacityRemaining: v(0) }).band).toBe('unknown');
    expect(rating('offering_ability', { atmCapacityRemaining: v(0) }).band).toBe('unknown');
    const floor = rating('offering_ability', { atmCapacityRemaining: v(0), publicFloat: v(big) });
    expect(floor).toMatchObject({ band: 'low', lowerBound: true });
    expect(floor.reasons.join(' ')).toContain('at least low');
    expect(floor.missing).toEqual(['monthlyBurn', 'shelfCapacityRemaining']);
  });

  it('relates the capacity to the burn as context, without scoring it', () => {
    const base = { shelfCapacityRemaining: v(20_000_000), atmCapacityRemaining: v(0), publicFloat: v(big) };
    const withBurn = rating('offering_ability', { ...base, monthlyBurn: v(2_000_000, '2024-02-29') });
    expect(withBurn.reasons.join(' ')).toContain('monthly burn of $2,000,000 (as of 2024-02-29) that capacity funds 10 months');
    expect(withBurn.score).toBe(rating('offering_ability', base).score);
  });
});

describe('overhang', () => {
  const band = (potential: number) => rating('overhang', { sharesOutstanding: v(10_000_000), warrantsOutstanding: v(potential), convertibleShares: v(0) }).band;
  it('bands (warrants + convertibles) ÷ outstanding exactly at 10%, 25% and 50%', () => {
    expect(band(5_000_000)).toBe('high');
    expect(band(4_999_999)).toBe('elevated');
    expect(band(2_500_000)).toBe('elevated');
    expect(band(2_499_999)).toBe('moderate');
    expect(band(1_000_000)).toBe('moderate');
    expect(band(999_999)).toBe('low');
  });

  it('adds warrants and convertibles and names the numbers', () => {
    const r = rating('overhang', { sharesOutstanding: v(10_000_000, '2024-05-01'), warrantsOutstanding: v(3_000_000, '2024-03-31'), convertibleShares: v(2_000_000, '2024-04-15') });
    expect(r.band).toBe('high');
    const text = r.reasons.join(' ');
    for (const s of ['3,000,000 shares (as of 2024-03-31)', '2,000,000 shares (as of 2024-04-15)', '10,000,000 shares outstanding (as of 2024-05-01)', '50%']) expect(text).toContain(s);
  });

  it('marks a band from warrants alone as a floor', () => {
    const r = rating('overhang', { sharesOutstanding: v(10_000_000), warrantsOutstanding: v(1_000_000) });
    expect(r).toMatchObject({ band: 'moderate', lowerBound: true });
    expect(r.reasons.join(' ')).toContain('convertible count missing');
    // already high: nothing missing could raise it
    expect(rating('overhang', { sharesOutstanding: v(10_000_000), warrantsOutstanding: v(6_000_000) })).toMatchObject({ band: 'high', lowerBound: false });
  });

  it('reports in-the-money warrants without scoring them', () => {
    const base = { sharesOutstanding: v(10_000_000), warrantsOutstanding: v(1_000_000), convertibleShares: v(0) };
    const r = rating('overhang', { ...base, warrantsInTheMoney: v(400_000) });
    expect(r.reasons.join(' ')).toContain('400,000 shares (as of 2024-03-31) are in the money, 4% of outstanding');
    expect(r.score).toBe(rating('overhang', base).score);
  });

  it('is unknown without shares outstanding or without any potential shares', () => {
    expect(rating('overhang', { warrantsOutstanding: v(1) }).band).toBe('unknown');
    expect(rating('overhang', { sharesOutstanding: v(1) }).band).toBe('unknown');
  });
});

describe('float growth', () => {
  const band = (now: number) => rating('float_growth', { sharesOutstanding: v(now), sharesOutstanding12mAgo: v(10_000_000, '2023-03-31'), recentOfferingsLast12m: v(0) }).band;
  it('bands the 12-month share count ratio exactly at ×1.05, ×1.2 and ×1.5', () => {
    expect(band(15_000_000)).toBe('high');
    expect(band(14_999_999)).toBe('elevated');
    expect(band(12_000_000)).toBe('elevated');
    expect(band(11_999_999)).toBe('moderate');
    expect(band(10_500_000)).toBe('moderate');
    expect(band(10_499_999)).toBe('low');
    expect(band(8_000_000)).toBe('low');
  });

  it('bands the offering count at 1, 2 and 3 and takes the higher of the two metrics', () => {
    const count = (n: number) => rating('float_growth', { recentOfferingsLast12m: v(n) }).band;
    expect([0, 1, 2, 3, 7].map(count)).toEqual(['low', 'moderate', 'elevated', 'high', 'high']);
    const both = rating('float_growth', { sharesOutstanding: v(10_100_000), sharesOutstanding12mAgo: v(10_000_000, '2023-03-31'), recentOfferingsLast12m: v(2) });
    expect(both).toMatchObject({ band: 'elevated', lowerBound: false });
  });

  it('names both share counts, their dates and the change', () => {
    const text = rating('float_growth', { sharesOutstanding: v(12_000_000, '2024-03-31'), sharesOutstanding12mAgo: v(8_000_000, '2023-03-31') }).reasons.join(' ');
    for (const s of ['12,000,000 (as of 2024-03-31)', '8,000,000 (as of 2023-03-31)', '366 days apart', '×1.5', '+50%']) expect(text).toContain(s);
  });
});

describe('compliance', () => {
  const band = (inputs: DilutionScoreInputs) => rating('compliance', inputs).band;
  it('bands open notices, deadlines and reverse splits', () => {
    expect(band({ openComplianceNotices: notices(0, null), reverseSplitsLast24m: v(0) })).toBe('low');
    expect(band({ openComplianceNotices: notices(1, null), reverseSplitsLast24m: v(0) })).toBe('elevated');
    expect(band({ openComplianceNotices: notices(1, 91), reverseSplitsLast24m: v(0) })).toBe('elevated');
    expect(band({ openComplianceNotices: notices(1, 90), reverseSplitsLast24m: v(0) })).toBe('high');
    expect(band({ openComplianceNotices: notices(1, -5), reverseSplitsLast24m: v(0) })).toBe('high');
    expect(band({ openComplianceNotices: notices(2, null), reverseSplitsLast24m: v(0) })).toBe('high');
    expect(band({ openComplianceNotices: notices(0, null), reverseSplitsLast24m: v(1) })).toBe('moderate');
    expect(band({ openComplianceNotices: notices(0, null), reverseSplitsLast24m: v(2) })).toBe('high');
    expect(band({ openComplianceNotices: notices(1, 200), reverseSplitsLast24m: v(1) })).toBe('high');
  });

  it('ignores a deadline when no notice is open', () => {
    expect(band({ openComplianceNotices: notices(0, 10), reverseSplitsLast24m: v(0) })).toBe('low');
  });

  it('names the count, the deadline and the dates', () => {
    const text = rating('compliance', { openComplianceNotices: notices(1, 45, '2024-06-30'), reverseSplitsLast24m: v(1, '2024-06-30') }).reasons.join(' ');
    for (const s of ['1 open exchange compliance notice in the 12 months to 2024-06-30', '45 days after 2024-06-30', '1 reverse split in the 24 months to 2024-06-30']) expect(text).toContain(s);
  });
});

describe('score', () => {
  it('with every input present: confidence high, every input listed back with its source', () => {
    const s = scoreOf(full());
    expect(s).toMatchObject({ methodologyVersion: 'dilution-score/1', score: 10, band: 'low', confidence: 'high', coverage: 1, missing: [] });
    expect(s.inputs.publicFloat).toEqual({ value: 200_000_000, asOf: '2023-06-30', source });
    expect(s.inputs.openComplianceNotices).toEqual({ value: 0, asOf: '2024-03-31', source, daysToNearestDeadline: null });
    expect(s.inputs.warrantsInTheMoney).toEqual({ value: 0, asOf: '2024-03-31', source, optional: true });
    expect(Object.keys(s.inputs)).toEqual([...inputNames]);
  });

  it('does not count a missing sub-rating as zero: one high sub-rating alone scores high, with low confidence', () => {
    const s = scoreOf({ cashRunwayMonths: v(3) });
    expect(s.score).toBe(90); // not 0.3 × 90 = 27
    expect(s.band).toBe('high');
    expect(s.confidence).toBe('low');
    expect(s.coverage).toBe(0.3);
    expect(s.weightsApplied).toEqual({ offering_ability: null, cash_need: 1, overhang: null, float_growth: null, compliance: null });
    expect(s.missing).toEqual(inputNames.filter((n) => n !== 'cashRunwayMonths'));
    expect(s.inputs.cash).toEqual({ missing: true });
    for (const k of ['offering_ability', 'overhang', 'float_growth', 'compliance'] as const) {
      expect(s.ratings[k]).toMatchObject({ score: null, band: 'unknown' });
      expect(s.ratings[k].reasons[0]).toMatch(/^no /);
    }
    expect(s.reasons.join(' ')).toContain('not counted as zero');
  });

  it('gives no score rather than a guess when nothing is known', () => {
    expect(scoreOf({})).toMatchObject({ score: null, band: 'unknown', confidence: 'low', coverage: 0, missing: [...inputNames] });
  });

  it('lowers confidence when any counted input is missing', () => {
    const counted = inputNames.filter((n) => !['warrantsInTheMoney', 'cash', 'monthlyBurn', 'cashRunwayMonths'].includes(n));
    for (const n of counted) {
      const s = scoreOf(without(full(), n));
      expect(s.confidence, n).not.toBe('high');
      expect(s.coverage, n).toBeLessThan(1);
      expect(s.missing, n).toContain(n);
    }
    // the runway has alternatives: cash ÷ burn stands in for it, and either alone is not needed beside it
    expect(scoreOf(without(full(), 'cashRunwayMonths')).confidence).toBe('high');
    expect(scoreOf(without(full(), 'cash', 'monthlyBurn')).confidence).toBe('high');
    expect(scoreOf(without(full(), 'cashRunwayMonths', 'cash')).confidence).not.toBe('high');
    // optional and context-only inputs do not count
    expect(scoreOf(without(full(), 'warrantsInTheMoney')).confidence).toBe('high');
  });

  it('applies the confidence thresholds: medium from 0.6 of the weight, low below', () => {
    // compliance (0.1) unknown: 0.9
    expect(scoreOf(without(full(), 'openComplianceNotices', 'reverseSplitsLast24m'))).toMatchObject({ coverage: 0.9, confidence: 'medium' });
    // offering ability (0.25) and float growth (0.15) unknown: 0.6
    expect(scoreOf(without(full(), 'shelfCapacityRemaining', 'atmCapacityRemaining', 'sharesOutstanding12mAgo', 'recentOfferingsLast12m'))).toMatchObject({
      coverage: 0.6,
      confidence: 'medium',
    });
    // offering ability, overhang and compliance unknown: 0.45
    expect(scoreOf(without(full(), 'shelfCapacityRemaining', 'atmCapacityRemaining', 'warrantsOutstanding', 'convertibleShares', 'openComplianceNotices', 'reverseSplitsLast24m'))).toMatchObject({
      coverage: 0.45,
      confidence: 'low',
    });
  });

  it('re-normalises the weights over the sub-ratings present', () => {
    const inputs = { ...without(full(), 'openComplianceNotices', 'reverseSplitsLast24m'), cashRunwayMonths: v(3) };
    const s = scoreOf(inputs);
    // offering low 10, cash high 90, overhang low 10, float growth low 10; compliance unknown
    expect(s.score).toBe(Math.round(((0.25 * 10 + 0.3 * 90 + 0.2 * 10 + 0.15 * 10) / 0.9) * 100) / 100);
    expect(s.score).toBe(36.67);
    expect(s.band).toBe('moderate');
    expect(s.weightsApplied.compliance).toBeNull();
    expect(s.weightsApplied.cash_need).toBeCloseTo(0.3 / 0.9, 6);
  });

  it('ratingsOf and scoreOf agree', () => {
    expect(scoreOf(full()).ratings).toEqual(ratingsOf(full()));
  });

  it('rejects inputs it cannot read instead of guessing', () => {
    expect(() => scoreOf({ cash: v(Number.NaN) })).toThrow(DilutionInputError);
    expect(() => scoreOf({ sharesOutstanding: v(-1) })).toThrow(/sharesOutstanding/);
    expect(() => scoreOf({ publicFloat: v(0) })).toThrow(DilutionInputError);
    expect(() => scoreOf({ reverseSplitsLast24m: v(1.5) })).toThrow(/whole count/);
    expect(() => scoreOf({ cash: v(1, '2024-02-30') })).toThrow(/calendar date/);
    expect(() => scoreOf({ cash: v(1, '31/03/2024') })).toThrow(/YYYY-MM-DD/);
    expect(() => scoreOf({ openComplianceNotices: notices(1, 1.5) })).toThrow(DilutionInputError);
    expect(scoreOf({ monthlyBurn: v(-10), cash: v(5) }).ratings.cash_need.band).toBe('low'); // a negative burn is allowed
  });
});

describe('baby shelf (Form S-3 I.B.6)', () => {
  it('float $60M, $5M sold in 12 months: $15M left', () => {
    const r = babyShelfCapacity(60_000_000, 5_000_000, '2023-06-30');
    expect(r.applies).toBe(true);
    expect(r.capacity).toBe(15_000_000);
    for (const s of ['$60,000,000', '(as of 2023-06-30)', '$20,000,000', '$5,000,000', '$15,000,000', 'I.B.6']) expect(r.rule).toContain(s);
  });

  it('float $80M: not applicable', () => {
    expect(babyShelfCapacity(80_000_000, 5_000_000)).toMatchObject({ applies: false, capacity: null });
    expect(babyShelfCapacity(75_000_000, 0)).toMatchObject({ applies: false, capacity: null });
    expect(babyShelfCapacity(74_999_999, 0).applies).toBe(true);
  });

  it('never goes below zero', () => {
    expect(babyShelfCapacity(30_000_000, 25_000_000)).toMatchObject({ applies: true, capacity: 0 });
  });

  it('rejects negative or non-finite amounts', () => {
    expect(() => babyShelfCapacity(-1, 0)).toThrow(RangeError);
    expect(() => babyShelfCapacity(1, Number.NaN)).toThrow(RangeError);
  });

  it('property: applies below $75M, capacity = max(0, float/3 − sold)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000_000 }), fc.integer({ min: 0, max: 100_000_000 }), (float, sold) => {
        const r = babyShelfCapacity(float, sold);
        expect(r.applies).toBe(float < 75_000_000);
        if (r.applies) {
          expect(r.capacity).toBe(Math.max(0, float / 3 - sold));
          expect(r.capacity!).toBeLessThanOrEqual(float / 3);
        } else expect(r.capacity).toBeNull();
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over arbitrary inputs, each present or missing

const dateArb = fc.integer({ min: Date.UTC(2018, 0, 1) / 86_400_000, max: Date.UTC(2026, 11, 31) / 86_400_000 }).map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));
const sourceArb = fc.record({
  accessionNumber: fc.option(fc.constantFrom('0001234567-24-000001', '0009876543-23-000042'), { nil: null }),
  citationUrl: fc.option(fc.constant('https://www.sec.gov/x.htm'), { nil: null }),
  sourceSpan: fc.constantFrom('dei:EntityPublicFloat', 'Item 3.01', 'the Dilution table'),
});
const inputArb = (value: fc.Arbitrary<number>) => fc.option(fc.record({ value, asOf: dateArb, source: sourceArb }), { nil: null });
const amount = (max: number) => fc.integer({ min: 0, max });
const inputsArb: fc.Arbitrary<DilutionScoreInputs> = fc.record({
  cashRunwayMonths: inputArb(fc.double({ min: 0, max: 60, noNaN: true, noDefaultInfinity: true })),
  monthlyBurn: inputArb(fc.integer({ min: -2_000_000, max: 10_000_000 })),
  cash: inputArb(amount(200_000_000)),
  sharesOutstanding: inputArb(fc.integer({ min: 1, max: 500_000_000 })),
  sharesOutstanding12mAgo: inputArb(fc.integer({ min: 1, max: 500_000_000 })),
  publicFloat: inputArb(fc.integer({ min: 1, max: 500_000_000 })),
  shelfCapacityRemaining: inputArb(amount(300_000_000)),
  atmCapacityRemaining: inputArb(amount(100_000_000)),
  warrantsOutstanding: inputArb(amount(300_000_000)),
  warrantsInTheMoney: inputArb(amount(100_000_000)),
  convertibleShares: inputArb(amount(300_000_000)),
  openComplianceNotices: fc.option(
    fc.record({ value: fc.integer({ min: 0, max: 4 }), asOf: dateArb, source: sourceArb, daysToNearestDeadline: fc.option(fc.integer({ min: -60, max: 360 }), { nil: null }) }),
    { nil: null },
  ),
  reverseSplitsLast24m: inputArb(fc.integer({ min: 0, max: 4 })),
  recentOfferingsLast12m: inputArb(fc.integer({ min: 0, max: 6 })),
});
const nameArb = fc.constantFrom(...inputNames);
const confidenceRank = { low: 0, medium: 1, high: 2 } as const;

describe('properties', () => {
  it('is deterministic: the same inputs give deep-equal outputs', () => {
    fc.assert(
      fc.property(inputsArb, (inputs) => {
        const a = scoreOf(inputs);
        expect(scoreOf(structuredClone(inputs))).toEqual(a);
        expect(ratingsOf(inputs)).toEqual(a.ratings);
      }),
    );
  });

  it('removing an input never changes a sub-rating that does not read it', () => {
    fc.assert(
      fc.property(inputsArb, nameArb, (inputs, name) => {
        const before = ratingsOf(inputs);
        const after = ratingsOf(without(inputs, name));
        for (const k of subRatingKeys) {
          if (!(methodology.subRatings[k].inputs as readonly InputName[]).includes(name)) expect(after[k], `${name} → ${k}`).toEqual(before[k]);
        }
      }),
    );
  });

  it('the composite is the weighted mean of the sub-ratings present, missing ones not counted as zero', () => {
    fc.assert(
      fc.property(inputsArb, (inputs) => {
        const s = scoreOf(inputs);
        const present = subRatingKeys.filter((k) => s.ratings[k].score !== null);
        if (present.length === 0) {
          expect(s.score).toBeNull();
          expect(s.band).toBe('unknown');
          return;
        }
        let num = 0;
        let den = 0;
        for (const k of present) {
          num += methodology.weights[k] * s.ratings[k].score!;
          den += methodology.weights[k];
        }
        expect(Math.abs(s.score! - num / den)).toBeLessThanOrEqual(0.005 + 1e-9);
        const scores = present.map((k) => s.ratings[k].score!);
        expect(s.score!).toBeGreaterThanOrEqual(Math.min(...scores) - 1e-9);
        expect(s.score!).toBeLessThanOrEqual(Math.max(...scores) + 1e-9);
        expect(s.band).toBe(compositeBandOf(s.score!));
        const applied = present.reduce((sum, k) => sum + s.weightsApplied[k]!, 0);
        expect(applied).toBeCloseTo(1, 5);
      }),
    );
  });

  it('removing an input never raises the coverage or the confidence', () => {
    fc.assert(
      fc.property(inputsArb, nameArb, (inputs, name) => {
        const before = scoreOf(inputs);
        const after = scoreOf(without(inputs, name));
        expect(after.coverage).toBeLessThanOrEqual(before.coverage);
        expect(confidenceRank[after.confidence]).toBeLessThanOrEqual(confidenceRank[before.confidence]);
        expect(after.missing).toContain(name);
      }),
    );
  });

  it('confidence follows the coverage thresholds; every sub-rating has reasons; inputs are listed back', () => {
    fc.assert(
      fc.property(inputsArb, (inputs) => {
        const s = scoreOf(inputs);
        expect(s.confidence).toBe(s.coverage >= 1 ? 'high' : s.coverage >= 0.6 ? 'medium' : 'low');
        for (const k of subRatingKeys) {
          const r = s.ratings[k];
          expect(r.reasons.length).toBeGreaterThan(0);
          if (r.score === null) {
            expect(r.band).toBe('unknown');
            expect(r.reasons[0]).toMatch(/^no /);
          } else {
            expect(r.score).toBe(methodology.bandScores[r.band as keyof typeof methodology.bandScores]);
          }
        }
        for (const n of inputNames) {
          const given = inputs[n] ?? null;
          const listed = s.inputs[n];
          if (given === null) {
            expect('missing' in listed && listed.missing).toBe(true);
            expect(s.missing).toContain(n);
          } else {
            expect(listed).toMatchObject({ value: given.value, asOf: given.asOf, source: given.source });
            expect(s.missing).not.toContain(n);
          }
        }
      }),
    );
  });

  it('the reasons name the date of every number a scored sub-rating is built on', () => {
    fc.assert(
      fc.property(inputsArb, (inputs) => {
        const r = ratingsOf(inputs);
        const check = (k: SubRatingKey, ...names: InputName[]) => {
          if (r[k].score === null) return;
          for (const n of names) {
            const input = inputs[n];
            if (input) expect(r[k].reasons.join(' '), `${k} ${n}`).toContain(input.asOf);
          }
        };
        check('overhang', 'sharesOutstanding', 'warrantsOutstanding', 'convertibleShares');
        check('compliance', 'openComplianceNotices', 'reverseSplitsLast24m');
        if (inputs.cashRunwayMonths) check('cash_need', 'cashRunwayMonths');
        if (inputs.shelfCapacityRemaining?.value || inputs.atmCapacityRemaining?.value) check('offering_ability', 'shelfCapacityRemaining', 'atmCapacityRemaining', 'publicFloat');
        if (inputs.sharesOutstanding && inputs.sharesOutstanding12mAgo) check('float_growth', 'sharesOutstanding', 'sharesOutstanding12mAgo', 'recentOfferingsLast12m');
      }),
    );
  });
});
