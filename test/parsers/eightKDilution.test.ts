import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { complianceRegainedIn, eightKDilutionOf, exchangeNoticeIn, reverseSplitsIn, securitiesSaleIn } from '../../ingest/parsers/eightK/dilution.ts';
import { readOffering } from '../../ingest/parsers/offerings/source.ts';
import { corpusFile, hasCorpus } from '../corpus.ts';

// The corpus holds no 8-K with Item 3.01, 5.03, 1.01 or 3.02. The item readers are therefore checked
// on the issuers' own accounts of those events in their prospectuses (real text), and the 8-K
// driver on the corpus 8-Ks, which report none of those items.

async function offeringText(file: string): Promise<string> {
  return readOffering({ text: await corpusFile(`filings/offerings/${file}`), name: file }).text;
}
const between = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));

function spansOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(spansOf);
  if (value && typeof value === 'object') return 'sourceSpan' in value ? [(value as { sourceSpan: string }).sourceSpan] : Object.values(value).flatMap(spansOf);
  return [];
}
function expectSpansReal(value: unknown, text: string) {
  const spans = spansOf(value);
  expect(spans.length).toBeGreaterThan(0);
  for (const span of spans) {
    expect(span.length).toBeLessThanOrEqual(400);
    expect(text.includes(span), span).toBe(true);
  }
}

describe.runIf(hasCorpus)('8-K dilution item readers on real issuer text', () => {
  it('Traws: the Nasdaq stockholders’ equity notice, its rule and the Panel’s deadline (as reported on Form 8-K)', async () => {
    const text = await offeringText('424B4_0001104659-24-132924_Traws-Pharma.txt');
    const notice = exchangeNoticeIn(between(text, 'We are required to meet certain qualitative', 'If we cease to be eligible'))!;
    expectSpansReal(notice, text);
    // "we were notified on November 20, 2024 by Nasdaq that we were not in compliance with the minimum stockholders’ equity requirement under Nasdaq Listing Rule 5550(b)(1)"
    expect(notice.exchange?.value).toBe('Nasdaq');
    expect(notice.rule?.value).toBe('Nasdaq Listing Rule 5550(b)(1)');
    expect(notice.deficiency?.value).toBe('stockholders_equity');
    expect(notice.noticeDate?.value).toBe('2024-11-20');
    // "The Panel granted an extension to February 18, 2025 to regain compliance ..."
    expect(notice.deadline?.value).toBe('2025-02-18');
  });

  it('Imunon: a deficiency letter under Rule 5550(b)(1); no deadline stated gives null', async () => {
    const text = await offeringText('424B5_0001493152-25-029712_Imunon.txt');
    const notice = exchangeNoticeIn(between(text, 'We received a deficiency letter on May 19, 2025', 'We have not yet formally been advised'))!;
    expectSpansReal(notice, text);
    // "We received a deficiency letter on May 19, 2025 from Nasdaq notifying us that we were no longer in compliance with the minimum stockholders’ equity requirement ... pursuant to Nasdaq Listing Rule 5550(b)(1)."
    expect(notice.rule?.value).toBe('Nasdaq Listing Rule 5550(b)(1)');
    expect(notice.deficiency?.value).toBe('stockholders_equity');
    expect(notice.noticeDate?.value).toBe('2025-05-19');
    expect(notice.deadline).toBeNull();
    // the bid-price paragraph: "... minimum closing bid price of $1.00 per share, as set forth in Nasdaq Listing Rule 5550(a)(2)"
    const bid = exchangeNoticeIn(between(text, 'We have in the past been unable to meet', 'We received a deficiency letter'))!;
    expect([bid.rule?.value, bid.deficiency?.value, bid.noticeDate]).toEqual(['Nasdaq Listing Rule 5550(a)(2)', 'minimum_bid_price', null]);
  });

  it('Alzamend: three reverse splits with their ratios and effective dates', async () => {
    const text = await offeringText('424B5_0001214659-26-002941_Alzamend.txt');
    const splits = reverseSplitsIn(between(text, 'All share and per share amounts presented', 'Investing in our common stock involves'));
    expectSpansReal(splits, text);
    // "(i) 1-for-15 reverse split ... effective October 31, 2023, (ii) 1-for-10 reverse split ... effective July 16, 2024 and (iii) 1-for-9 reverse split ... effective May 6, 2025."
    expect(splits.map((s) => s.value)).toEqual([
      { ratio: '1-for-15', factor: 15, effectiveDate: '2023-10-31' },
      { ratio: '1-for-10', factor: 10, effectiveDate: '2024-07-16' },
      { ratio: '1-for-9', factor: 9, effectiveDate: '2025-05-06' },
    ]);
  });

  it('Acurx: the May 16, 2023 securities purchase agreement, its shares, warrants and placement agent', async () => {
    const text = await offeringText('S-1_0001104659-23-076317_Acurx.txt');
    const sale = securitiesSaleIn(between(text, 'On May 16, 2023, we entered into a securities purchase agreement', 'Implication of Being'))!;
    expectSpansReal(sale, text);
    // "On May 16, 2023, we entered into a securities purchase agreement (the “Purchase Agreement”) with a single healthcare-focused U.S. institutional investor (the “Investor”) pursuant to which we issued and sold in a registered direct offering an aggregate of 601,851 shares of our common stock and pre-funded warrants to purchase an aggregate of 731,482 shares"
    expect(sale.agreementDate?.value).toBe('2023-05-16');
    expect(sale.agreement?.value).toBe('securities purchase agreement');
    expect(sale.purchaser?.value).toBe('a single healthcare-focused U.S. institutional investor');
    expect(sale.shares?.value).toBe(601851);
    // "The gross proceeds to us from the Offerings were approximately $4.0 million ..."
    expect(sale.grossProceeds).toMatchObject({ value: 4000000, confidence: 'medium' });
    expect(sale.placementAgent?.value).toBe('Maxim Group LLC');
    expect(sale.pricePerShare).toBeNull(); // the passage prints no per-share price
    expect(sale.warrants.map((w) => [w.series ?? w.kind, w.shares?.value, w.exercisePrice?.value])).toEqual([
      ['pre_funded', 731482, 0.0001],
      ['series C', 1333333, 3.26],
      ['series D', 1333333, 3.26],
    ]);
  });

  it('text with no notice, split or sale gives nothing', () => {
    expect(exchangeNoticeIn('The Company announced its results for the quarter.')).toBeNull();
    expect(reverseSplitsIn('The board approved a new bylaw.')).toEqual([]);
    expect(securitiesSaleIn('The Company held its annual meeting.')).toBeNull();
  });
});

describe.runIf(hasCorpus)('regained compliance on real issuer text', () => {
  // The corpus holds no exchange's confirmation of a cure: its offering documents tell of compliance
  // only in the issuer's words, which are no cure until the exchange confirms it.
  it('Imunon: "not yet formally been advised by Nasdaq that we have regained compliance" is a denied cure of the stockholders’ equity deficiency', async () => {
    const text = await offeringText('424B5_0001493152-25-029712_Imunon.txt');
    const sentence = between(text, 'We have not yet formally been advised', 'If we are unable to maintain');
    const cure = complianceRegainedIn(sentence)!;
    expectSpansReal(cure, text);
    expect(cure.status).toMatchObject({ value: 'unconfirmed', method: 'regain_negated' });
    expect(cure.status.sourceSpan).toMatch(/^We have not yet formally been advised by Nasdaq that we have regained compliance with the Minimum Stockholders’ Equity Requirement, although/);
    expect([cure.exchange?.value, cure.deficiency?.value, cure.rule, cure.confirmedDate]).toEqual(['Nasdaq', 'stockholders_equity', null, null]);
    // read with the deficiency letter before it: the rule comes from the passage, at medium confidence
    const passage = complianceRegainedIn(between(text, 'We received a deficiency letter on May 19, 2025', 'If we are unable to maintain'))!;
    expectSpansReal(passage, text);
    expect(passage.status.value).toBe('unconfirmed');
    expect(passage.deficiency?.value).toBe('stockholders_equity');
    expect(passage.rule).toMatchObject({ value: 'Nasdaq Listing Rule 5550(b)(1)', confidence: 'medium' });
  });

  it('Imunon: "While our common stock price is currently in compliance with the Minimum Bid Price Requirement" is the issuer’s word, unconfirmed', async () => {
    const text = await offeringText('424B5_0001493152-25-029712_Imunon.txt');
    const cure = complianceRegainedIn(between(text, 'We have in the past been unable to meet', 'We received a deficiency letter'))!;
    expectSpansReal(cure, text);
    expect(cure.status).toMatchObject({ value: 'unconfirmed', method: 'issuer_states_compliance' });
    expect(cure.status.sourceSpan).toMatch(/^While our common stock price is currently in compliance with the Minimum Bid Price Requirement/);
    expect(cure.deficiency).toMatchObject({ value: 'minimum_bid_price', confidence: 'high' });
    expect(cure.rule).toMatchObject({ value: 'Nasdaq Listing Rule 5550(a)(2)', confidence: 'medium' });
    expect(cure.exchange?.value).toBe('Nasdaq');
    expect(cure.confirmedDate).toBeNull();
  });

  it('Traws: a Panel\'s extension "to regain compliance" is a deadline, not a cure', async () => {
    const text = await offeringText('424B4_0001104659-24-132924_Traws-Pharma.txt');
    expect(complianceRegainedIn(between(text, 'We are required to meet certain qualitative', 'If we cease to be eligible'))).toBeNull();
  });
});

describe('regained compliance: confirmed cures, denials and conditions (synthetic sentences)', () => {
  const read = (text: string) => {
    const cure = complianceRegainedIn(text);
    if (cure) expectSpansReal(cure, text);
    return cure && { status: cure.status.value, exchange: cure.exchange?.value ?? null, rule: cure.rule?.value ?? null, deficiency: cure.deficiency?.value ?? null, confirmedDate: cure.confirmedDate?.value ?? null };
  };

  it('the exchange notified or confirmed the cure, or closed the matter: confirmed, with the date when stated', () => {
    expect(read('On June 3, 2025, the Company received a letter from Nasdaq notifying it that it has regained compliance with Listing Rule 5550(a)(2) and that the matter is now closed.')).toEqual({
      status: 'confirmed', exchange: 'Nasdaq', rule: 'Listing Rule 5550(a)(2)', deficiency: null, confirmedDate: '2025-06-03',
    });
    expect(read('Nasdaq confirmed that the Company regained compliance with the minimum bid price requirement.')).toEqual({ status: 'confirmed', exchange: 'Nasdaq', rule: null, deficiency: 'minimum_bid_price', confirmedDate: null });
    expect(read('On September 12, 2024, NYSE American notified the Company that it had regained compliance with the stockholders’ equity requirements of Section 1003(a)(i) of the NYSE American Company Guide.')).toEqual({
      status: 'confirmed', exchange: 'NYSE American', rule: 'Section 1003(a)(i) of the NYSE American Company Guide', deficiency: 'stockholders_equity', confirmedDate: '2024-09-12',
    });
    // the cure in its own sentence, the deficiency from the passage's account of the notice
    expect(read('As previously reported, on December 5, 2024, the Company received a deficiency letter from Nasdaq stating that it was not in compliance with the minimum bid price requirement under Nasdaq Listing Rule 5550(a)(2). The Company has since regained compliance, and the matter is now closed.')).toEqual({
      status: 'confirmed', exchange: 'Nasdaq', rule: 'Nasdaq Listing Rule 5550(a)(2)', deficiency: 'minimum_bid_price', confirmedDate: null,
    });
    // the letter's date in the sentence before the one that reports its content
    expect(read('On July 1, 2025, the Company received written notice from the Listing Qualifications Department of Nasdaq. The notice stated that the Company had regained compliance with Listing Rule 5550(a)(2).')).toMatchObject({ status: 'confirmed', rule: 'Listing Rule 5550(a)(2)', confirmedDate: '2025-07-01' });
  });

  it('a denied, awaited or believed cure is unconfirmed; negations never read as cures', () => {
    expect(read('The Company has not regained compliance with the minimum bid price requirement.')).toMatchObject({ status: 'unconfirmed', deficiency: 'minimum_bid_price' });
    expect(read('Nasdaq has not notified the Company that it has regained compliance with Listing Rule 5550(b)(1).')).toMatchObject({ status: 'unconfirmed', rule: 'Listing Rule 5550(b)(1)' });
    expect(read('The Company has regained compliance with Rule 5550(a)(2), although Nasdaq has not yet confirmed it.')).toMatchObject({ status: 'unconfirmed' });
    expect(read('The Company believes it has regained compliance with Listing Rule 5550(b)(1).')).toMatchObject({ status: 'unconfirmed' });
    expect(read('The Company’s stockholders’ equity is now in compliance with the Nasdaq requirement.')).toMatchObject({ status: 'unconfirmed', deficiency: 'stockholders_equity', confirmedDate: null });
  });

  it('a condition, a future, a deadline or "all other requirements" is no cure at all', () => {
    for (const sentence of [
      'If at any time during the compliance period the closing bid price is at least $1.00 for a minimum of 10 consecutive business days, Nasdaq will provide written confirmation that the Company has regained compliance and the matter will be closed.',
      'There can be no assurance that the Company will regain compliance with the minimum bid price requirement.',
      'The Company has 180 calendar days, or until July 7, 2025, to regain compliance.',
      'The Company is currently in compliance with all other continued listing requirements of Nasdaq.',
      'We received a deficiency letter from Nasdaq notifying us that we were no longer in compliance with the minimum stockholders’ equity requirement.',
      'The Company announced its results for the quarter.',
    ]) expect(read(sentence), sentence).toBeNull();
  });
});

describe('8-K dilution driver on the Lakeshore fixtures (Item 3.01)', () => {
  const fixture = (name: string) => readFile(fileURLToPath(new URL(`../fixtures/eightk/${name}`, import.meta.url)), 'utf8');

  it('the bid price notice: rule, deficiency, notice date and 180-day deadline; no cure', async () => {
    const result = eightKDilutionOf({ text: await fixture('nasdaq-bid-price-notice-3.01.txt'), name: 'notice.txt' });
    expect(result).toMatchObject({ accessionNumber: '0001999902-25-000040', items: ['3.01'], complianceRegained: [], failures: [] });
    const { notice } = result.exchangeNotices[0]!;
    expect([notice.exchange?.value, notice.rule?.value, notice.deficiency?.value, notice.noticeDate?.value, notice.deadline?.value]).toEqual(['Nasdaq', 'Nasdaq Listing Rule 5550(a)(2)', 'minimum_bid_price', '2025-01-08', '2025-07-07']);
  });

  it('the later 8-K: Nasdaq\'s confirmation of regained compliance, dated', async () => {
    const result = eightKDilutionOf({ text: await fixture('nasdaq-regained-compliance-3.01.txt'), name: 'cure.txt' });
    expect(result).toMatchObject({ accessionNumber: '0001999902-25-000052', items: ['3.01'], failures: [] });
    const { cure } = result.complianceRegained[0]!;
    expect([cure.status.value, cure.confirmedDate?.value, cure.rule?.value, cure.deficiency?.value]).toEqual(['confirmed', '2025-04-22', 'Nasdaq Listing Rule 5550(a)(2)', 'minimum_bid_price']);
  });
});

describe.runIf(hasCorpus)('8-K dilution driver on the corpus 8-Ks', () => {
  it('ABVC 8-K (2.02, 4.02, 7.01, 9.01): items read, no dilution items, no failures', async () => {
    const file = '8-K_0001213900-25-032135_ABVC_item4.02.txt';
    const result = eightKDilutionOf({ text: await corpusFile(`filings/8k/${file}`), name: file });
    expect(result).toMatchObject({ accessionNumber: '0001213900-25-032135', items: ['2.02', '4.02', '7.01', '9.01'], indexOnly: false, exchangeNotices: [], reverseSplits: [], securitiesSales: [], failures: [] });
  });

  it('a document that is no 8-K is a failure with its reason, not an exception', () => {
    const result = eightKDilutionOf({ text: '<html><body><p>Hello</p></body></html>', name: 'hello.htm' });
    expect(result.failures.length).toBeGreaterThan(0);
    expect(result.failures.join(' ')).toMatch(/hello\.htm/);
  });
});
