// The dashboard's research pages in a real browser against a real service holding Apple's files
// and the SEC's ticker maps from the corpus: "Search" finds AAPL and opens Apple's company page,
// whose profile and coverage say what the service holds; "Financials" shows FY2021 revenue in
// full, linked to the 10-K it was read from (the SEC's copy, as the corpus lacks that document),
// and FY2024 revenue opens the reader on its 10-K with the figure marked as the document prints
// it; "Filings" narrows to 10-K and opens one in the reader; "Segments" shows each axis's latest
// members linked to their filing; BLK, which the two ticker maps give to two companies, shows
// both. A plan whose data window is spent sees the refusal on the page. Every page is screenshot
// and checked by axe-core (at 375 px too), and nothing may violate the CSP. The company page's
// time to its Financials table is printed as a figure.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, corpusFile, hasCorpus } from '../corpus.ts';
import { orgWithKey, sessionToken, type TestService } from '../harness.ts';
import { byName, checkPage, dashboardHarness, openPage, openTab, waitForHeading, type DashboardHarness } from './browser.ts';

const wanted = /^(reference\/company_tickers(_exchange)?\.json|submissions\/CIK0000320193\.json|companyfacts\/CIK0000320193\.json|filings\/10k\/10-K_0000320193|forms\/ownership\/4_0000320193)/;
const apple = '0000320193';
// the acceptance figure: Apple's FY2021 revenue as its FY2021 10-K states it
const revenue2021 = { text: '365,817,000,000', accession: '0000320193-21-000105' };
// FY2024 revenue, from the one 10-K whose document the corpus holds, which prints it "in millions"
const revenue2024 = { text: '391,035,000,000', printed: '391,035', accession: '0000320193-24-000123' };

describe.runIf(hasCorpus)('research: search and the company page', { timeout: 120_000 }, () => {
  // a statements read costs about 1,800 units: the team plan's minute holds the journey
  const harness = dashboardHarness({ ingest: wanted, orgName: 'Research org', plan: 'team' });
  const { watches } = harness;
  let t: TestService;
  let browser: Browser;
  let base: string;
  let org: DashboardHarness['org'];
  beforeAll(() => ({ t, browser, base, org } = harness));

  const dashboard = (route = '') => `${base}/dashboard${route}`;

  async function signedIn(orgId = org.orgId, width = 1200): Promise<Page> {
    const token = await sessionToken(t, orgId, `research.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`);
    return openPage(browser, watches, { width, session: token });
  }

  interface SourceFact {
    accessionNumber: string;
    citationUrl: string;
    documentHeld: boolean;
    decimals: string | null;
  }

  /** The graph's answer: the fact behind each annual revenue figure, by fiscal year. */
  async function annualRevenueSources(): Promise<Map<number, SourceFact>> {
    const answer = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ query: `{ statements(cik: "${apple}", period: "annual", limit: 10) { periods { fiscalYear income { key fact { accessionNumber citationUrl documentHeld decimals } } } } }` }),
    });
    const { periods } = ((await answer.json()) as { data: { statements: { periods: { fiscalYear: number; income: { key: string; fact: SourceFact | null }[] }[] } } }).data.statements;
    return new Map(periods.flatMap((p) => p.income.filter((l) => l.key === 'revenue' && l.fact).map((l) => [p.fiscalYear, l.fact!] as const)));
  }

  const text = (page: Page, selector: string) => page.$eval(selector, (element) => (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

  async function search(page: Page, identifier: string): Promise<void> {
    const box = await byName(page, 'Company, ticker or CIK', 'searchbox');
    await box.click({ count: 3 });
    await box.type(identifier);
    await page.keyboard.press('Enter');
    await page.waitForFunction((q) => new URLSearchParams(location.search).get('q') === q, {}, identifier);
    await page.waitForSelector('#best-match', { visible: true });
  }

  /** The cell of a statement table at a line (row header) and a period (column header), with its link. */
  const statementCell = (page: Page, statement: string, line: string, period: string) =>
    page.evaluate(
      (statement, line, period) => {
        const region = document.querySelector(`[role="region"][aria-label="${statement}"]`);
        const table = region?.querySelector('table');
        if (!table) return null;
        const column = [...table.querySelectorAll('thead th')].findIndex((th) => th.firstChild?.textContent?.trim() === period);
        const row = [...table.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('th')?.firstChild?.textContent?.trim() === line);
        const cell = row && column > 0 ? row.children[column] : null;
        const link = cell?.querySelector('a');
        return cell ? { value: link?.textContent?.trim() ?? cell.textContent?.trim(), href: link?.getAttribute('href') ?? null } : null;
      },
      statement,
      line,
      period,
    );

  it('searches AAPL, opens Apple’s page, reads FY2021 revenue from its filing, opens a 10-K; BLK shows the disagreement', async () => {
    const submissions = JSON.parse(await corpusFile(`submissions/CIK${apple}.json`)) as { name: string; sic: string; sicDescription: string; stateOfIncorporation: string; tickers: string[]; exchanges: string[]; formerNames: { name: string }[] };
    const page = await signedIn();
    await page.goto(dashboard());
    await (await byName(page, 'Search', 'link')).click();
    await waitForHeading(page, 'Search');
    expect(new URL(page.url()).pathname).toBe('/dashboard/search');
    await checkPage(page, 'research-01-search');

    await search(page, 'AAPL');
    const best = await text(page, '.research-match');
    expect(best).toContain(submissions.name);
    expect(best).toMatch(/Match confidence 100% by Ticker/);
    await checkPage(page, 'research-02-search-aapl');

    await (await byName(page, submissions.name, 'link')).click();
    await waitForHeading(page, submissions.name);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/companies/${apple}`);
    await page.waitForFunction(() => !document.querySelector('.research-coverage')?.textContent?.includes('Counting facts'));
    const profile = await text(page, '.research-profile');
    for (const expected of [...submissions.tickers, ...submissions.exchanges, submissions.sic, submissions.sicDescription, submissions.stateOfIncorporation, `Formerly ${submissions.formerNames[0]!.name}`]) expect(profile).toContain(expected);
    const filings = await t.service.services.prisma.filing.count({ where: { cik: apple } });
    const documents = await t.service.services.prisma.filing.count({ where: { cik: apple, documentSourceKey: { not: null } } });
    const coverage = await text(page, '.research-coverage');
    expect(coverage).toContain(`The service holds ${filings.toLocaleString('en-US')} filings of ${submissions.name}`);
    expect(coverage).toMatch(/\d+ annual reports \(10-K/);
    expect(coverage).toContain(`It holds the documents of ${documents.toLocaleString('en-US')} filing`);
    expect(coverage).toMatch(/[\d,]+ XBRL facts .* annual statement periods/);
    await checkPage(page, 'research-03-company');

    await openTab(page, 'Financials');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('tab') === 'financials');
    await page.waitForSelector('table.research-statement', { visible: true });
    expect(await page.$eval('[role="tab"][aria-selected="true"]', (tab) => tab.textContent)).toBe('Financials');
    // the 10-K of FY2021 is not among the documents held: the value opens the SEC's copy, and says so
    const sources = await annualRevenueSources();
    expect(sources.get(2021)).toMatchObject({ accessionNumber: revenue2021.accession, documentHeld: false });
    const cell = await statementCell(page, 'Income statement', 'Revenue', 'FY2021');
    expect(cell).toEqual({ value: revenue2021.text, href: sources.get(2021)!.citationUrl });
    expect(cell!.href).toContain(revenue2021.accession.replace(/-/g, ''));
    // a value a later filing changed (Apple's share counts after its 2020 split) shows the first-reported value and both filings
    const restated = await page.$$eval('td:has(.research-restated)', (cells) => cells.map((cell) => [...cell.querySelectorAll('a')].map((a) => a.getAttribute('href'))));
    expect(restated.length).toBeGreaterThan(0);
    for (const links of restated) {
      expect(links).toHaveLength(2);
      expect(links[0]).not.toBe(links[1]);
      for (const href of links) expect(href).toMatch(/^(\/dashboard\/filings\/\d{10}-\d{2}-\d{6}(\?highlight=.+)?|https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/\d+\/\d{18}\/.+)$/);
    }
    await checkPage(page, 'research-04-financials');

    await (await byName(page, 'Quarterly', 'radio')).click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('period') === 'quarterly' && document.querySelector('table.research-statement thead th:nth-child(2)')?.textContent?.startsWith('Q'));
    // derived quarters say how they were computed; wide tables scroll inside their box, not the page
    expect(await page.$$eval('td.research-derived .research-formula', (cells) => cells.length)).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await checkPage(page, 'research-05-financials-quarterly');

    await openTab(page, 'Events');
    await page.waitForSelector('table.research-events', { visible: true });
    const reports = await page.$$eval('table.research-events tbody tr th a', (links) => links.map((a) => a.getAttribute('href')));
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((href) => /^\/dashboard\/filings\/\d{10}-\d{2}-\d{6}$/.test(href ?? ''))).toBe(true);
    await checkPage(page, 'research-06-events');

    // the Form 4 held: its transactions, each figure linked to that filing
    const form4 = /4_(\d{10}-\d{2}-\d{6})_/.exec((await readdir(path.join(corpusDir, 'forms/ownership'))).find((f) => f.startsWith('4_0000320193'))!)![1]!;
    await openTab(page, 'Insiders and ownership');
    await page.waitForSelector('table.research-insiders', { visible: true });
    const cited = await page.$$eval('table.research-insiders tbody a', (links) => [...new Set(links.map((a) => a.getAttribute('href')))]);
    expect(cited).toEqual([`/dashboard/filings/${form4}`]);
    await checkPage(page, 'research-07-insiders');

    await openTab(page, 'Filings');
    await page.waitForSelector('table.research-filings', { visible: true });
    const form = await byName(page, 'Form', 'combobox');
    await form.select('10-K');
    await page.waitForFunction(() => {
      const forms = [...document.querySelectorAll('table.research-filings tbody tr td:nth-child(2)')].map((td) => td.textContent);
      return new URLSearchParams(location.search).get('form') === '10-K' && forms.length > 0 && forms.every((f) => f === '10-K');
    });
    const annual = await page.$$eval('table.research-filings tbody tr th a', (links) => links.map((a) => a.textContent ?? ''));
    expect(annual.length).toBe(await t.service.services.prisma.filing.count({ where: { cik: apple, form: '10-K' } }));
    await checkPage(page, 'research-08-filings-10k');
    await (await byName(page, annual[0]!, 'link')).click();
    await page.waitForFunction((accession) => location.pathname === `/dashboard/filings/${accession}`, {}, annual[0]!);

    // BLK: the two ticker maps name two companies; the page shows both, and why
    const maps = {
      tickers: Object.values(JSON.parse(await corpusFile('reference/company_tickers.json')) as Record<string, { cik_str: number; ticker: string }>).filter((r) => r.ticker === 'BLK').map((r) => String(r.cik_str).padStart(10, '0')),
      exchange: (JSON.parse(await corpusFile('reference/company_tickers_exchange.json')) as { data: [number, string, string, string][] }).data.filter((r) => r[2] === 'BLK').map((r) => String(r[0]).padStart(10, '0')),
    };
    expect(maps.tickers).not.toEqual(maps.exchange);
    await page.goto(dashboard('/search'));
    await waitForHeading(page, 'Search');
    await search(page, 'BLK');
    await byName(page, 'Alternatives: the sources disagree', 'heading');
    const shown = await page.$$eval('.research-match dd, table.research-alternatives tbody td:nth-child(2)', (cells) => cells.map((c) => c.textContent?.trim() ?? ''));
    for (const cik of [...maps.tickers, ...maps.exchange]) expect(shown).toContain(cik);
    expect(await text(page, '.research-match')).toMatch(/Match confidence \d+%/);
    expect(await text(page, '.research-reason')).toMatch(/disagree/);
    await checkPage(page, 'research-09-search-blk');
  });

  it('opens a value in the reader on its filing, marked where the document prints it', async () => {
    const sources = await annualRevenueSources();
    expect(sources.get(2024)).toMatchObject({ accessionNumber: revenue2024.accession, documentHeld: true });
    const page = await signedIn();
    await page.goto(dashboard(`/companies/${apple}?tab=financials`));
    await page.waitForSelector('table.research-statement', { visible: true });
    // the document prints the figure in millions: the link asks the reader to mark "391,035"
    const cell = await statementCell(page, 'Income statement', 'Revenue', 'FY2024');
    expect(cell).toEqual({ value: revenue2024.text, href: `/dashboard/filings/${revenue2024.accession}?highlight=${encodeURIComponent(revenue2024.printed)}` });
    await (await page.waitForSelector(`table.research-statement a[href="${cell!.href}"]`))!.click();
    await page.waitForFunction((accession) => location.pathname === `/dashboard/filings/${accession}`, {}, revenue2024.accession);
    await page.waitForFunction(() => /Marked|does not appear/.test(document.querySelector('.reader-highlight-note')?.textContent ?? ''));
    expect(await text(page, '.reader-highlight-note')).toBe(`Marked the first place “${revenue2024.printed}” appears.`);
    const marked = await page.evaluate(() => {
      const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('reader-highlight');
      return highlight ? [...highlight].map((range) => range.toString()) : [];
    });
    expect(marked).toEqual([revenue2024.printed]);
    await checkPage(page, 'research-14-reader-marked');
  });

  it('shows revenue by segment: each axis\'s latest members, their share, each figure linked to its filing', async () => {
    const answer = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ query: `{ segments(cik: "${apple}") { axes { axis periods { periodEnd members { member revenue inBreakdown fact { accessionNumber } } } } } }` }),
    });
    const { axes } = ((await answer.json()) as { data: { segments: { axes: { axis: string; periods: { periodEnd: string; members: { member: string; revenue: string; inBreakdown: boolean; fact: { accessionNumber: string } }[] }[] }[] } } }).data.segments;
    expect(axes.length).toBeGreaterThan(0);
    const page = await signedIn();
    await page.goto(dashboard(`/companies/${apple}`));
    await waitForHeading(page, 'Apple Inc.');
    await openTab(page, 'Segments');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('tab') === 'segments');
    await page.waitForSelector('table.segments-table', { visible: true });
    const rendered = await page.$$eval('section.segment-axis', (sections) =>
      sections.map((section) => ({
        heading: section.querySelector('h3')?.textContent ?? '',
        rows: [...section.querySelectorAll('tbody tr')].map((tr) => ({ member: tr.querySelector('th')?.textContent ?? '', revenue: tr.querySelector('td a')?.textContent ?? '', href: tr.querySelector('td a')?.getAttribute('href') ?? '' })),
      })),
    );
    expect(rendered).toHaveLength(axes.length);
    for (const [i, axis] of axes.entries()) {
      const latest = [...axis.periods].sort((a, b) => b.periodEnd.localeCompare(a.periodEnd))[0]!;
      const members = latest.members.filter((m) => m.inBreakdown);
      expect(rendered[i]!.heading).toContain(axis.axis);
      expect(rendered[i]!.rows).toEqual(members.map((m) => ({ member: m.member, revenue: BigInt(m.revenue.split('.')[0]!).toLocaleString('en-US') + (m.revenue.includes('.') ? `.${m.revenue.split('.')[1]}` : ''), href: `/dashboard/filings/${m.fact.accessionNumber}` })));
    }
    await checkPage(page, 'research-13-segments');
  });

  it('fits 375 px: the search and the company page at a phone’s width', async () => {
    const page = await signedIn(org.orgId, 375);
    await page.goto(dashboard('/search?q=AAPL'));
    await page.waitForSelector('#best-match', { visible: true });
    await checkPage(page, 'research-10-search-375');
    await page.goto(dashboard(`/companies/${apple}?tab=financials`));
    await page.waitForSelector('table.research-statement', { visible: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(page, 'research-11-company-375');
  });

  it('prints the company page’s time to interactive: navigation start to the Financials table shown', async () => {
    const page = await signedIn();
    await page.goto(dashboard(`/companies/${apple}?tab=financials`));
    await page.waitForSelector('table.research-statement', { visible: true });
    const shownAt = await page.evaluate(() => performance.now());
    console.log(`company page time to interactive (navigation start to the Financials table visible): ${Math.round(shownAt)} ms`);
    expect(await statementCell(page, 'Income statement', 'Revenue', 'FY2021')).toMatchObject({ value: revenue2021.text });
  });

  it('shows a data read the quota refuses as the service’s 429, with what to do', async () => {
    const limited = await orgWithKey(t, 'Research, limited', 'team');
    // room for the profile and one statements read (about 1,800 units), not for a second
    await t.service.services.prisma.orgQuota.create({ data: { orgId: limited.orgId, meterClass: 'graphql', period: 'day', limit: 2_500 } });
    t.service.services.cache.forgetOrg(limited.orgId);
    const page = await signedIn(limited.orgId);
    await page.goto(dashboard(`/companies/${apple}?tab=financials`));
    await page.waitForSelector('table.research-statement', { visible: true });
    await (await byName(page, 'Quarterly', 'radio')).click();
    const alert = await page.waitForSelector('.research-tabpanel .problem[role="alert"]', { visible: true });
    const said = await alert!.evaluate((element) => element.textContent ?? '');
    expect(said).toContain('Too many requests (429)');
    expect(said).toContain('The quota window starts again by itself');
    // the account itself is still readable: the header and the profile stay
    expect(await text(page, 'h1')).toBe('Apple Inc.');
    await checkPage(page, 'research-12-refused');
  });
});
