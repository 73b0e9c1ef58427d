import { describe, expect, it } from 'vitest';
import { dilutionTermsOf, dilutionTermsOfFiling, type DilutionTerms } from '../../ingest/parsers/offerings/dilutionTerms.ts';
import { parseOffering } from '../../ingest/parsers/offerings/offerings.ts';
import { corpusFile, hasCorpus } from '../corpus.ts';

async function read(file: string) {
  return dilutionTermsOfFiling({ text: await corpusFile(`filings/offerings/${file}`), name: file });
}

/** Every cited value in the result: its span is verbatim document text, at most 400 characters. */
function expectSpansReal(terms: DilutionTerms, text: string) {
  const spans: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      // a figure the document does not state has no span (its reason says why); its conflicting statements have theirs
      if ('sourceSpan' in v) {
        if ((v as { sourceSpan: string | null }).sourceSpan !== null) spans.push((v as { sourceSpan: string }).sourceSpan);
        if ('conflicting' in v) walk((v as { conflicting: unknown }).conflicting);
      } else Object.values(v).forEach(walk);
    }
  };
  walk(terms);
  expect(spans.length).toBeGreaterThan(0);
  for (const span of spans) {
    expect(span.length).toBeLessThanOrEqual(400);
    expect(text.includes(span), span).toBe(true);
  }
}

describe.runIf(hasCorpus)('dilution terms from the corpus offering documents', () => {
  it('Traws Pharma 424B4: registered direct, warrants in the concurrent placement, lock-ups, NTBV dilution', async () => {
    const { terms, text } = await read('424B4_0001104659-24-132924_Traws-Pharma.txt');
    expectSpansReal(terms, text);
    expect(terms.failures).toEqual([]);
    expect(terms.offeringType).toMatchObject({ value: 'registered_direct', confidence: 'high' });
    expect(terms.shelfTakedown?.value).toBe(true);
    // "Public offering price   $ 5.103   $ 3,103,629.29"
    expect(terms.sharesOffered?.value).toBe(608197);
    expect(terms.pricePerShare?.value).toBe(5.103);
    expect(terms.grossProceeds?.value).toBe(3103629.29);
    // "... Unregistered Warrants, to purchase up to an aggregate of 7,230,301 shares"
    expect(terms.warrantSharesAggregate?.value).toBe(7230301);
    // "The exercise price of each Series A Warrant and Pre-Funded Warrant will be $13.42 and $0.01 per share, respectively."
    const seriesA = terms.warrants.find((w) => w.series === 'Series A')!;
    expect(seriesA.exercisePrice?.value).toBe(13.42);
    expect(seriesA.shares).toBeNull(); // only the combined count is printed
    // "... and (b) the 5-year anniversary of the closing date of the securities purchase agreement."
    expect(seriesA.term?.value).toEqual({ years: 5, perpetual: false, from: 'closing date of the securities purchase agreement' });
    const preFunded = terms.warrants.find((w) => w.kind === 'pre_funded')!;
    expect(preFunded.exercisePrice?.value).toBe(0.01);
    expect(preFunded.term?.value.perpetual).toBe(true);
    expect(terms.distributors.map((d) => d.value)).toEqual([{ role: 'placement_agent', name: 'Tungsten Advisors' }]);
    // "Our officers and directors and certain of our stockholders have agreed with the placement agent to be subject to a lock-up period of 90 days following the date of this prospectus."
    expect(terms.lockups[0]!.value).toMatchObject({ kind: 'lockup', parties: ['officers', 'directors', 'stockholders'], length: 90, unit: 'days' });
    // "We have also agreed ... to similar lock-up restrictions on the issuance and sale of our securities for 30 trading days following ..."
    expect(terms.lockups[1]!.value).toMatchObject({ kind: 'lockup', parties: ['company'], length: 30, unit: 'trading_days' });
    expect(terms.rightsOfFirstRefusal).toEqual([]);
    // base prospectus: "The aggregate offering price of all securities sold by us under this prospectus may not exceed $150,000,000."
    expect(terms.shelfSize?.value).toBe(150000000);
    // "based on 3,025,554 shares outstanding as of November 11, 2024"; "3,633,751 shares of common stock (excluding ...)"
    expect(terms.sharesOutstandingBefore).toMatchObject({ value: 3025554, asOf: '2024-11-11' });
    expect(terms.sharesOutstandingAfter?.value).toBe(3633751);
    // Dilution table: "Historical net tangible book value (deficit) per share at September 30, 2024  $ (0.339)",
    // "As adjusted net tangible book value per share ... 0.057", "Dilution per share to investors ... $ 5.046"
    expect(terms.hasDilutionSection).toBe(true);
    expect(terms.ntbvPerShareBefore).toMatchObject({ value: -0.339, asOf: '2024-09-30', method: 'dilution_table_historical_ntbv' });
    expect(terms.ntbvPerShareAfter?.value).toBe(0.057);
    expect(terms.dilutionPerShare?.value).toBe(5.046);
  });

  it('Imunon 424B5: shares, pre-funded warrants and five-year warrants, standstills, NTBV dilution', async () => {
    const { terms, text } = await read('424B5_0001493152-25-029712_Imunon.txt');
    expectSpansReal(terms, text);
    expect(terms.offeringType?.value).toBe('registered_direct');
    expect(terms.sharesOffered?.value).toBe(330000);
    expect(terms.pricePerShare?.value).toBe(3.61);
    expect(terms.grossProceeds?.value).toBe(7000040.63);
    // "The Pre-funded Warrants have an exercise price of $0.0001 per share and will not expire."
    const preFunded = terms.warrants.find((w) => w.kind === 'pre_funded')!;
    expect([preFunded.shares?.value, preFunded.exercisePrice?.value, preFunded.term?.value.perpetual]).toEqual([1609114, 0.0001, true]);
    // "The Warrants have an exercise price of $3.482 per share and will be exercisable immediately for a term of five years following the date of issuance."
    const common = terms.warrants.find((w) => w.kind === 'common')!;
    expect([common.shares?.value, common.exercisePrice?.value, common.term?.value.years]).toEqual([1939114, 3.482, 5]);
    expect(terms.distributors.map((d) => d.value.name)).toEqual(['Maxim Group LLC', 'Brookline Capital Markets']);
    // "Each of our executive officers and directors has agreed ... through the 60 days after the closing of this offering."
    // "... we are prohibited from entering into any agreement to issue ... expiring 60 days from the closing date of this offering."
    // "... Variable Rate Transaction ... expiring six months from the closing date of this offering."
    expect(terms.lockups.map((l) => [l.value.kind, l.value.parties.join('+'), l.value.length, l.value.unit])).toEqual([
      ['lockup', 'officers+directors', 60, 'days'],
      ['issuer_standstill', 'company', 60, 'days'],
      ['variable_rate_prohibition', 'company', 6, 'months'],
    ]);
    expect(terms.rightsOfFirstRefusal).toEqual([]);
    expect(terms.shelfSize?.value).toBe(75000000);
    // base prospectus: "... held by non-affiliates ... is $18,075,494 ... as of May 10, 2024 ... we have sold 243,534 shares of common stock for gross proceeds of $334,659"
    expect(terms.babyShelf.publicFloat).toMatchObject({ value: 18075494, asOf: '2024-05-10' });
    expect(terms.babyShelf.soldPrior12Months?.value).toBe(334659);
    expect(terms.babyShelf.oneThirdLimit).toMatchObject({ value: 6025164, method: 'baby_shelf_one_third_computed', confidence: 'medium' });
    expect(terms.babyShelf.remainingCapacity).toMatchObject({ value: 5690505, method: 'baby_shelf_remaining_computed' });
    expect(terms.sharesOutstandingBefore).toMatchObject({ value: 2896723, asOf: '2025-09-30' });
    // "Common stock outstanding after this offering       3,226,723 shares, ..."
    expect(terms.sharesOutstandingAfter?.value).toBe(3226723);
    // "Net tangible book value per share as of September 30, 2025  $ 1.41" / "As adjusted ... $ 2.14" / "Dilution per share ... $ 1.47"
    expect([terms.ntbvPerShareBefore?.value, terms.ntbvPerShareAfter?.value, terms.dilutionPerShare?.value]).toEqual([1.41, 2.14, 1.47]);
  });

  it('Alzamend 424B5: an ATM program with the baby-shelf capacity as printed; no Dilution section gives null, not 0', async () => {
    const { terms, text } = await read('424B5_0001214659-26-002941_Alzamend.txt');
    expectSpansReal(terms, text);
    expect(terms.offeringType?.value).toBe('atm');
    // "... having an aggregate offering price of up to $3,000,000 through the Sales Agent"
    expect(terms.atmProgramSize?.value).toBe(3000000);
    expect(terms.distributors.map((d) => d.value)).toEqual([{ role: 'sales_agent', name: 'Ascendiant Capital Markets, LLC' }]);
    // "As of March 6, 2026, the aggregate market value of our outstanding common stock held by non-affiliates, or the public float, was $9,188,860, ..."
    expect(terms.babyShelf.publicFloat).toMatchObject({ value: 9188860, asOf: '2026-03-06', confidence: 'high' });
    // "... one-third of the aggregate market value ... in any 12-month period, or $3,062,953, ..."
    expect(terms.babyShelf.oneThirdLimit).toMatchObject({ value: 3062953, method: 'baby_shelf_one_third_stated' });
    // "... we have sold shares of our common stock in the aggregate amount of $1,020, ... leaving $3,061,933 that could be sold under this prospectus supplement."
    expect(terms.babyShelf.soldPrior12Months?.value).toBe(1020);
    expect(terms.babyShelf.remainingCapacity).toMatchObject({ value: 3061933, method: 'baby_shelf_remaining_stated', confidence: 'high' });
    // base prospectus: "... having an aggregate initial offering price not exceeding $25,000,000."
    expect(terms.shelfSize?.value).toBe(25000000);
    expect(terms.sharesOffered).toBeNull();
    expect(terms.pricePerShare).toBeNull();
    expect(terms.hasDilutionSection).toBe(false);
    expect(terms.ntbvPerShareBefore).toBeNull();
    expect(terms.ntbvPerShareAfter).toBeNull();
    expect(terms.dilutionPerShare).toBeNull();
    expect(terms.warrants).toEqual([]);
    expect(terms.lockups).toEqual([]);
  });

  it('Flushing Financial preliminary 424B5: underwritten, blanks stay null, 90-day officer and director lock-up', async () => {
    const { terms, text } = await read('424B5_FFIC_Flushing-Financial_preliminary_2024-12-12.html');
    expectSpansReal(terms, text);
    expect(terms.offeringType?.value).toBe('underwritten');
    expect(terms.distributors.map((d) => d.value.name)).toEqual(['Keefe, Bruyette & Woods', 'Piper Sandler', 'Raymond James']);
    expect([terms.sharesOffered, terms.pricePerShare, terms.grossProceeds, terms.sharesOutstandingAfter]).toEqual([null, null, null, null]);
    // "All of our executive officers and all of our directors, have agreed, for the period beginning on ... through and including the date that is 90 days after the date of this prospectus supplement ..."
    expect(terms.lockups.map((l) => l.value)).toEqual([{ kind: 'lockup', parties: ['officers', 'directors'], length: 90, unit: 'days', days: 90, from: 'date of this prospectus supplement' }]);
    // "... based on 29,068,903 shares of our common stock issued and outstanding as of September 30, 2024."
    expect(terms.sharesOutstandingBefore).toMatchObject({ value: 29068903, asOf: '2024-09-30' });
    // base prospectus: "... up to a total dollar amount of $400,000,000 ..."
    expect(terms.shelfSize?.value).toBe(400000000);
    expect(terms.ntbvPerShareBefore).toBeNull();
  });

  it('Acurx S-1: a resale of warrant shares; the warrants behind it; no Dilution section', async () => {
    const { terms, text } = await read('S-1_0001104659-23-076317_Acurx.txt');
    expectSpansReal(terms, text);
    expect(terms.offeringType?.value).toBe('resale');
    expect(terms.sharesOffered?.value).toBe(2666666);
    // "(i) series C warrants exercisable for an aggregate of 1,333,333 shares of common stock at an exercise price of $3.26 per share"
    // "Each series C warrant ... will expire two years from the initial exercise date." / series D: "six years"
    const byName = Object.fromEntries(terms.warrants.map((w) => [w.series ?? w.kind, w]));
    expect([byName['series C']!.shares?.value, byName['series C']!.exercisePrice?.value, byName['series C']!.term?.value.years]).toEqual([1333333, 3.26, 2]);
    expect([byName['series D']!.shares?.value, byName['series D']!.exercisePrice?.value, byName['series D']!.term?.value.years]).toEqual([1333333, 3.26, 6]);
    // "The pre-funded warrants sold to the Investor have an exercise price of $0.0001, ... may be exercised at any time until fully exercised."
    expect([byName.pre_funded!.shares?.value, byName.pre_funded!.exercisePrice?.value, byName.pre_funded!.term?.value.perpetual]).toEqual([731482, 0.0001, true]);
    // the amended "existing Series A warrants" are not warrants issued here
    expect(terms.warrants.map((w) => w.series ?? w.kind)).toEqual(['pre_funded', 'series C', 'series D']);
    // "we entered into a Placement Agent Agreement with Maxim Group LLC (the “Placement Agent”)"
    expect(terms.distributors.map((d) => [d.value.role, d.value.name, d.confidence])).toEqual([['placement_agent', 'Maxim Group LLC', 'medium']]);
    expect(terms.hasDilutionSection).toBe(false);
    expect([terms.ntbvPerShareBefore, terms.ntbvPerShareAfter, terms.dilutionPerShare]).toEqual([null, null, null]);
  });

  it('Vincerx S-3: a $100,000,000 universal shelf under the baby-shelf limit with nothing sold', async () => {
    const { terms, text } = await read('S-3_0001193125-25-012209_Vincerx.txt');
    expectSpansReal(terms, text);
    expect(terms.offeringType?.value).toBe('shelf_registration');
    // "The aggregate initial offering price of all securities sold under this prospectus will not exceed $100,000,000."
    expect(terms.shelfSize?.value).toBe(100000000);
    // "We have not sold any securities pursuant to General Instruction I.B.6 of Form S-3 during the 12 calendar months prior to ..."
    expect(terms.babyShelf.soldPrior12Months).toMatchObject({ value: 0, method: 'baby_shelf_none_sold' });
    // "our public float is below $75.0 million" gives no figure: no float, so no computed capacity
    expect(terms.babyShelf.publicFloat).toBeNull();
    expect(terms.babyShelf.remainingCapacity).toBeNull();
    expect(terms.ntbvPerShareBefore).toBeNull();
  });

  it('Vincerx POS AM and S-3/A: a deregistration and an exhibit-only amendment carry no terms', async () => {
    const posAm = await read('POSAM_0001193125-25-110092_Vincerx.txt');
    expectSpansReal(posAm.terms, posAm.text);
    expect(posAm.terms.offeringType?.value).toBe('deregistration');
    expect([posAm.terms.sharesOffered, posAm.terms.shelfSize, posAm.terms.ntbvPerShareBefore]).toEqual([null, null, null]);
    const amendment = await read('S-3A_0001193125-25-068723_Vincerx.txt');
    expect(amendment.terms.offeringType?.value).toBe('shelf_registration');
    expect(amendment.terms.warrants).toEqual([]);
    expect(amendment.terms.failures).toEqual([]);
  });
});

describe('dilution terms failures', () => {
  it('returns a failure reason, not an exception, for a document it cannot read', () => {
    const result = dilutionTermsOfFiling({ text: '<html><body><p>Quarterly letter to shareholders</p></body></html>', name: 'letter.htm' });
    expect(result.document).toBeNull();
    expect(result.terms.failures).toHaveLength(1);
    expect(result.terms.failures[0]).toMatch(/letter\.htm/);
    expect(result.terms.ntbvPerShareBefore).toBeNull();
  });

  it('outstanding warrants the share count excludes, as of the date the list states', async () => {
    // "… based on 2,896,723 shares of common stock outstanding as of September 30, 2025 and excludes in each case as of September 30, 2025:
    //  ● 965,247 shares of common stock issuable upon the exercise of outstanding warrants having a weighted average exercise price of $8.18 per share"
    const imunon = await read('424B5_0001493152-25-029712_Imunon.txt');
    expect(imunon.terms.warrantsOutstanding).toMatchObject({ value: { shares: 965247, weightedAverageExercisePrice: 8.18 }, asOf: '2025-09-30', confidence: 'high' });
    expect(imunon.terms.sharesOutstandingBefore).toMatchObject({ value: 2896723, asOf: '2025-09-30' });
    expectSpansReal(imunon.terms, imunon.text);
    // "12,650 shares of common stock issuable upon the exercise of outstanding warrants at September 30, 2024 with a weighted average exercise price of approximately $92.99 per share"
    const traws = await read('424B4_0001104659-24-132924_Traws-Pharma.txt');
    expect(traws.terms.warrantsOutstanding).toMatchObject({ value: { shares: 12650, weightedAverageExercisePrice: 92.99 }, asOf: '2024-09-30' });
    // a resale S-1 that counts none states none
    expect((await read('S-1_0001104659-23-076317_Acurx.txt')).terms.warrantsOutstanding).toBeNull();
  });

  it('the offering and its terms name one type: a placement agent\'s direct sale is registered_direct in both', async () => {
    for (const file of ['424B5_0001493152-25-029712_Imunon.txt', '424B4_0001104659-24-132924_Traws-Pharma.txt']) {
      const { terms, document } = await read(file);
      expect(document?.offeringType, file).toBe('registered_direct');
      expect(terms.offeringType, file).toMatchObject({ value: 'registered_direct', method: 'cover_placement_agent_direct_sale' });
    }
  });

  it('an empty text gives a failure and nulls', () => {
    const doc = parseOffering({ text: 'Filed Pursuant to Rule 424(b)(5)\nPROSPECTUS SUPPLEMENT\nWe are offering 100 shares.', name: 'tiny.txt' });
    const terms = dilutionTermsOf('', doc);
    expect(terms.failures).toEqual(['no readable prospectus text']);
    expect(terms.sharesOffered).toBeNull();
  });
});

describe.runIf(hasCorpus)('capitalization and economics of every corpus offering document', () => {
  const files = [
    '424B4_0001104659-24-132924_Traws-Pharma.txt',
    '424B5_0001214659-26-002941_Alzamend.txt',
    '424B5_0001493152-25-029712_Imunon.txt',
    '424B5_FFIC_Flushing-Financial_preliminary_2024-12-12.html',
    'POSAM_0001193125-25-110092_Vincerx.txt',
    'S-1_0001104659-23-076317_Acurx.txt',
    'S-3A_0001193125-25-068723_Vincerx.txt',
    'S-3_0001193125-25-012209_Vincerx.txt',
  ];
  it.each(files)('%s: a stated figure cites verbatim text and where it is printed; one not stated says why', async (file) => {
    const { terms, text } = await read(file);
    expect(terms.failures).toEqual([]);
    const figures = { ...terms.capitalization!, ...terms.economics! } as Record<string, unknown>;
    expect(Object.keys(figures).length).toBe(20);
    for (const [name, f] of Object.entries(figures)) {
      if (name === 'feeType') continue;
      const figure = f as { value: unknown; reason: string | null; sourceSpan: string | null; section: string | null; method: string | null };
      if (figure.value === null) expect(figure.reason, name).toMatch(/\w{3,}/);
      else {
        expect(figure.reason, name).toBeNull();
        expect(figure.method, name).toEqual(expect.any(String));
        // a document-stated value's text is in the document (the EFFECT notice is the resolver's, not the parser's)
        expect(text, name).toContain(figure.sourceSpan);
      }
      if (figure.sourceSpan) expect(text, name).toContain(figure.sourceSpan);
    }
    // a count or amount is never 0 for "not stated": a 0 is a sentence that says none
    for (const [name, f] of Object.entries(figures)) {
      if (name !== 'feeType' && (f as { value: unknown }).value === 0) expect((f as { method: string }).method, name).toMatch(/none/);
    }
  });
});
