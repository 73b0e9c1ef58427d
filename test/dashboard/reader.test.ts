// The dashboard's filing reader in a real browser against a real service holding Apple's FY2024
// 10-K from the corpus: the rendered document with its sections, the format switch, a jump to
// Item 7, a cited value opened with ?highlight=, and the render window's 429 explained. Every
// request the browser makes is watched: none may leave 127.0.0.1 while the document shows.
// Each page is screenshot and checked by axe-core, and nothing may violate the CSP.
import type { Browser, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasCorpus } from '../corpus.ts';
import { orgWithKey, sessionToken, type TestService } from '../harness.ts';
import { byName, checkPage, dashboardHarness, openPage, waitForHeading, type DashboardHarness } from './browser.ts';

const wanted = /^(reference\/company_tickers\.json|submissions\/CIK0000320193\.json|filings\/10k\/10-K_0000320193)/;
const accession = '0000320193-24-000123';
// a sentence of Item 7 as the document states it (a reader opened from a citation lands on it)
const cited = 'Europe net sales increased during 2024 compared to 2023 due primarily to higher net sales of Services and iPhone.';

describe.runIf(hasCorpus)('the filing reader', { timeout: 90_000 }, () => {
  const harness = dashboardHarness({ ingest: wanted, orgName: 'Readers org' });
  const { watches } = harness;
  let t: TestService;
  let browser: Browser;
  let base: string;
  let org: DashboardHarness['org'];
  beforeAll(() => ({ t, browser, base, org } = harness));
  /** every address the browser asked for, from every page */
  const requested: string[] = [];

  /** A signed-in page whose every request is recorded, and refused when it is not for 127.0.0.1. */
  async function reader(orgId = org.orgId, width = 1200): Promise<Page> {
    const token = await sessionToken(t, orgId, `reader.${Date.now()}@example.com`);
    const page = await openPage(browser, watches, { width, session: token });
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      requested.push(request.url());
      const url = new URL(request.url());
      if (url.protocol === 'data:' || url.hostname === '127.0.0.1') void request.continue();
      else void request.abort();
    });
    return page;
  }

  const documentText = (page: Page) => page.$eval('.reader-document', (element) => element.textContent ?? '');

  it('shows the sanitized document with its sections and metadata; nothing is asked of another host', async () => {
    const page = await reader();
    await page.goto(`${base}/dashboard/filings`);
    await waitForHeading(page, 'Filings');
    await checkPage(page, 'reader-01-open');
    await (await byName(page, 'Accession number', 'textbox')).type(accession);
    await (await byName(page, 'Open filing', 'button')).click();
    await waitForHeading(page, 'Apple Inc.: 10-K');
    await page.waitForSelector('.reader-document h2#item_1a');
    expect(await page.$$eval('.reader-document script, .reader-document img, .reader-document iframe, .reader-document [style]', (found) => found.length)).toBe(0);
    expect(await page.$eval('.reader-meta', (element) => element.textContent)).toContain('aapl-20240928.htm at the SEC');
    const source = await page.$eval('.reader-meta a', (a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel') }));
    expect(source).toEqual({ href: 'https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm', rel: 'noopener noreferrer' });
    expect(await page.$$eval('.reader-document mark.fr-fact', (marks) => marks.some((m) => m.textContent === '391,035'))).toBe(true);
    await checkPage(page, 'reader-02-html');
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith('data:') && new URL(url).hostname !== '127.0.0.1')).toEqual([]);
  });

  it('jumps to Item 7 from the sections, and switches to Markdown and text', async () => {
    const page = await reader();
    await page.goto(`${base}/dashboard/filings/${accession}`);
    await page.waitForSelector('.reader-document h2#item_7');
    await (await byName(page, 'Management’s Discussion and Analysis of Financial Condition and Results of Operations', 'link')).click();
    await page.waitForFunction(() => location.hash === '#item_7');
    await page.waitForFunction(() => {
      const box = document.querySelector('.reader-document')!.getBoundingClientRect();
      const heading = document.getElementById('item_7')!.getBoundingClientRect();
      return heading.top >= box.top - 1 && heading.top < box.top + 200;
    });

    await (await byName(page, 'Markdown', 'radio')).click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('format') === 'markdown' && document.querySelector('.reader-markdown pre#item_7') !== null);
    const markdown = await documentText(page);
    expect(markdown).toMatch(/\n\| --- \|/);
    expect(markdown).toContain('## Item 1A. Risk Factors');
    await checkPage(page, 'reader-03-markdown');

    await (await byName(page, 'Text', 'radio')).click();
    await page.waitForFunction(() => document.querySelector('.reader-text pre#item_1a') !== null);
    expect(await documentText(page)).toMatch(/Item 1A\. Risk Factors\n=+/);
    await checkPage(page, 'reader-04-text');
    expect(requested.filter((url) => !url.startsWith('data:') && new URL(url).hostname !== '127.0.0.1')).toEqual([]);
  });

  it('opens on a cited sentence with ?highlight=, marked and scrolled to', async () => {
    const page = await reader(org.orgId, 375);
    await page.goto(`${base}/dashboard/filings/${accession}?highlight=${encodeURIComponent(cited)}`);
    await page.waitForSelector('.reader-document h2#item_7');
    await page.waitForFunction((text) => document.querySelector('.reader-highlight-note')?.textContent?.includes(text), {}, 'Marked the first place');
    const marked = await page.evaluate(() => {
      const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('reader-highlight');
      const range = highlight ? [...highlight][0]! : null;
      const item7 = document.getElementById('item_7')!;
      return { text: range?.toString(), afterItem7: range ? item7.compareDocumentPosition(range.startContainer) === Node.DOCUMENT_POSITION_FOLLOWING : false };
    });
    expect(marked.text?.replace(/\s/g, ' ')).toBe(cited);
    expect(marked.afterItem7).toBe(true);
    await checkPage(page, 'reader-05-highlight-375');
  });

  it('explains a full render window: what happened and when to try again', async () => {
    const limited = await orgWithKey(t, 'Limited readers', 'team');
    await t.service.services.prisma.orgQuota.create({ data: { orgId: limited.orgId, meterClass: 'render', period: 'day', limit: 1 } });
    t.service.services.cache.forgetOrg(limited.orgId);
    const page = await reader(limited.orgId);
    await page.goto(`${base}/dashboard/filings/${accession}?format=text`);
    await page.waitForSelector('.reader-text pre');
    await page.goto(`${base}/dashboard/filings/${accession}?format=markdown`);
    const alert = await page.waitForSelector('.problem[role="alert"]');
    const said = await alert!.evaluate((element) => element.textContent ?? '');
    expect(said).toContain('Too many requests');
    expect(said).toMatch(/Try again in \d+ seconds?\./);
    expect(said).toContain('Filing renders have a quota window of their own');
    await checkPage(page, 'reader-06-rate-limited');
  });
});
