import { describe, expect, it } from 'vitest';
import { eightKDilutionOf, exchangeNoticeIn, reverseSplitsIn, securitiesSaleIn } from '../../ingest/parsers/eightKDilution.ts';
import { readOffering } from '../../ingest/parsers/offeringSource.ts';
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
