// The company page's Events tab in a real browser against a real service holding Meta's and
// JPMorgan's 8-Ks from the corpus: each event is listed with the sentence it was read from, as the
// graph answers it, and its link opens the 8-K in the reader with that sentence marked and scrolled
// to; an item of lists only says why it cites no sentence. 1-800-FLOWERS' vote comes from a document
// the corpus holds without its accession number (no submissions file or index of the company names
// the filing), so it is listed as text saying why it cannot be opened. Every page is screenshot and
// checked by axe-core, and nothing may violate the CSP.
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { hasCorpus } from '../corpus.ts';
import { byName, checkPage, dashboardHarness, openTab, signedInPage, waitForHeading } from './browser.ts';

const wanted = /^(reference\/company_tickers\.json|filings\/8k\/8-K_(0001628280-25-058337_META|0000019617-26-000241_JPM|CIK0001084869_FLWS))/;
const meta = { cik: '0001326801', accession: '0001628280-25-058337' };
const jpm = { cik: '0000019617', accession: '0000019617-26-000241' };
const flowers = { cik: '0001084869' };

interface EventNode {
  item: string | null;
  type: string;
  eventDate: string | null;
  documentHeld: boolean;
  sourceSpan: string | null;
  sourceSpanNullReason: string | null;
}

describe.runIf(hasCorpus)('research: the company page’s Events tab opens the reader on an event’s sentence', { timeout: 120_000 }, () => {
  const harness = dashboardHarness({ ingest: wanted, orgName: 'Event readers' });
  const signedIn = (width = 1200) => signedInPage(harness, { width });

  async function eventsOf(accession: string): Promise<EventNode[]> {
    const answer = await fetch(`${harness.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': harness.org.key },
      body: JSON.stringify({ query: `{ filing(accessionNumber: "${accession}") { events { item type eventDate documentHeld sourceSpan sourceSpanNullReason } } }` }),
    });
    const body = (await answer.json()) as { data: { filing: { events: EventNode[] } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data.filing.events;
  }

  /** The events cell of the tab's one row: each event's link text and address, and the quoted sentence or the reason. */
  const listed = (page: Page) =>
    page.$$eval('table.research-events tbody tr td:last-child > ul > li', (items) =>
      items.map((li) => ({
        link: li.querySelector(':scope > a')?.textContent ?? null,
        href: li.querySelector(':scope > a')?.getAttribute('href') ?? null,
        sentence: li.querySelector(':scope > blockquote')?.textContent ?? null,
        reason: li.querySelector(':scope > .research-sub')?.textContent ?? null,
      })),
    );

  it('lists Meta’s director resignation with its sentence, and opens the 8-K with that sentence marked', async () => {
    const [event] = await eventsOf(meta.accession);
    expect(event).toMatchObject({ item: '5.02', type: 'officer_change', eventDate: '2025-12-19', documentHeld: true });
    const sentence = event!.sourceSpan!;
    expect(sentence).toContain('Dina Powell McCormick notified Meta Platforms, Inc.');

    const page = await signedIn();
    await page.goto(`${harness.base}/dashboard/companies/${meta.cik}`);
    await page.waitForSelector('.research-tabs', { visible: true });
    await openTab(page, 'Events');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('tab') === 'events');
    await page.waitForSelector('table.research-events', { visible: true });
    expect(await listed(page)).toEqual([
      { link: 'Officer change (Item 5.02), 2025-12-19', href: `/dashboard/filings/${meta.accession}?highlight=${encodeURIComponent(sentence)}`, sentence, reason: null },
    ]);
    await checkPage(page, 'company-events-01-tab');

    await (await byName(page, 'Officer change (Item 5.02), 2025-12-19', 'link')).click();
    await page.waitForFunction((accession) => location.pathname === `/dashboard/filings/${accession}`, {}, meta.accession);
    await waitForHeading(page, 'Meta Platforms, Inc.: 8-K');
    await page.waitForFunction(() => document.querySelector('.reader-highlight-note')?.textContent?.includes('Marked the first place'));
    const marked = await page.evaluate(() => {
      const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('reader-highlight');
      return highlight ? [...highlight][0]!.toString() : null;
    });
    expect(marked?.replace(/\s/g, ' ')).toBe(sentence);
    await checkPage(page, 'company-events-02-reader');
  });

  it('says why an item of lists only cites no sentence, at a phone’s width', async () => {
    const events = await eventsOf(jpm.accession);
    const exhibits = events.find((e) => e.item === '9.01')!;
    expect(exhibits.sourceSpan).toBeNull();
    const page = await signedIn(375);
    await page.goto(`${harness.base}/dashboard/companies/${jpm.cik}?tab=events`);
    await page.waitForSelector('table.research-events', { visible: true });
    const shown = await listed(page);
    expect(shown.map((e) => e.link)).toEqual(['Officer change (Item 5.02), 2026-06-24', 'Other (Item 9.01), 2026-06-24']);
    expect(shown[0]!.sentence).toBe(events.find((e) => e.item === '5.02')!.sourceSpan);
    expect(shown[1]).toMatchObject({ sentence: null, reason: `No source sentence: ${exhibits.sourceSpanNullReason}`, href: `/dashboard/filings/${jpm.accession}` });
    await checkPage(page, 'company-events-03-reasons-375');
  });

  it('lists 1-800-FLOWERS’ vote, whose document names no filing, as text saying why it cannot be opened', async () => {
    const answer = await fetch(`${harness.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': harness.org.key },
      body: JSON.stringify({ query: `{ entity(cik: "${flowers.cik}") { filings(first: 5) { nodes { accessionNumber } } eventsWithoutFiling(first: 5) { nodes { accessionNumber item type eventDate citationUrl citationNullReason sourceSpan } } } }` }),
    });
    const { data } = (await answer.json()) as { data: { entity: { filings: { nodes: unknown[] }; eventsWithoutFiling: { nodes: (EventNode & { accessionNumber: string | null; citationUrl: string | null; citationNullReason: string })[] } } } };
    // the data as held: no filing of the company, one vote read from its 8-K's document
    expect(data.entity.filings.nodes).toEqual([]);
    const [vote, ...others] = data.entity.eventsWithoutFiling.nodes;
    expect(others).toEqual([]);
    expect(vote).toMatchObject({ accessionNumber: null, item: '5.07', type: 'voting_results', eventDate: '2023-12-14', citationUrl: null, citationNullReason: expect.stringMatching(/no accession number/) });

    const page = await signedIn();
    await page.goto(`${harness.base}/dashboard/companies/${flowers.cik}?tab=events`);
    await page.waitForSelector('.research-events-unfiled', { visible: true });
    expect(await page.$eval('.state-empty', (e) => e.textContent)).toBe('No current report (8-K) of this company is held under a known filing.');
    const shown = await page.$$eval('ul.research-events-unfiled > li', (items) =>
      items.map((li) => ({
        label: [...li.childNodes].find((n) => n.nodeType === Node.TEXT_NODE)?.textContent ?? null,
        links: li.querySelectorAll('a').length,
        sentence: li.querySelector(':scope > blockquote')?.textContent ?? null,
        reason: [...li.querySelectorAll(':scope > .research-sub')].map((e) => e.textContent).find((text) => text?.startsWith('Not linked')) ?? null,
        proposals: li.querySelectorAll(':scope > ul > li').length,
      })),
    );
    expect(shown).toEqual([{ label: 'Voting results (Item 5.07), 2023-12-14', links: 0, sentence: vote!.sourceSpan, reason: `Not linked: ${vote!.citationNullReason}`, proposals: expect.any(Number) }]);
    expect(shown[0]!.proposals).toBeGreaterThan(0);
    await checkPage(page, 'company-events-04-without-filing');
  });
});
