// The company page's Dilution tab and the Insiders tab's 13F holders and Form 144 notices, in a
// real browser against a real service holding Alzamend's submissions and ATM prospectus, the 13F
// reports and Apple's Form 144 from the corpus: the score, each component and each record row are
// what the graph answers, a record's link opens its prospectus in the reader, and the Insiders tab
// lists Apple's 13F holders and 144 notice, and says plainly that Alzamend has none. Every page is
// screenshot and checked by axe-core.
import type { Browser, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasCorpus } from '../corpus.ts';
import { sessionToken, type TestService } from '../harness.ts';
import { byName, checkPage, dashboardHarness, openPage, openTab, type DashboardHarness } from './browser.ts';

const wanted = /^(reference\/company_tickers\.json|submissions\/CIK0001677077\.json|filings\/offerings\/424B5_0001214659-26-002941_Alzamend|forms\/13f\/|forms\/form144\/144_issuer-CIK0000320193)/;
const alzamend = '0001677077';
const apple = '0000320193';

/** A number as filed, in full with thousands separators (11588537.76 → 11,588,537.76). */
const full = (n: number) => {
  const [whole, fraction] = String(n).split('.');
  return `${BigInt(whole!).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
};

/** Where a figure's source links: the reader (marking a document's sentence) when the document is stored, else the SEC's copy. */
function linkTo(source: { accessionNumber: string | null; citationUrl: string | null; sourceSpan: string; method?: string; documentHeld: boolean }): string | null {
  if (!source.accessionNumber || !source.documentHeld) return source.citationUrl;
  const highlight = source.method === 'offering_document' ? `?highlight=${encodeURIComponent(source.sourceSpan.split(' … ')[0]!)}` : '';
  return `/dashboard/filings/${source.accessionNumber}${highlight}`;
}

/** The dashboard's label of a key: "atm_program" → "Atm program". */
const label = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');

interface RecordNode {
  id: string;
  kind: string;
  date: string | null;
  filedAt: string | null;
  form: string | null;
  documentHeld: boolean;
  verification: { accessionNumber: string | null; citationUrl: string | null; sourceSpan: string; method: string };
}

describe.runIf(hasCorpus)('research: the company page’s dilution, 13F holders and Form 144 notices', { timeout: 120_000 }, () => {
  const harness = dashboardHarness({ ingest: wanted, orgName: 'Dilution readers' });
  const { watches } = harness;
  let t: TestService;
  let browser: Browser;
  let base: string;
  let org: DashboardHarness['org'];
  beforeAll(() => ({ t, browser, base, org } = harness));

  const dashboard = (route = '') => `${base}/dashboard${route}`;

  async function graph<T>(query: string): Promise<T> {
    const answer = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': org.key }, body: JSON.stringify({ query }) });
    const body = (await answer.json()) as { data: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  async function signedIn(width = 1200): Promise<Page> {
    const token = await sessionToken(t, org.orgId, `dilution.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`);
    return openPage(browser, watches, { width, session: token });
  }

  const text = (page: Page, selector: string) => page.$eval(selector, (element) => (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

  /** The rows of a table: each cell's text (the row header first), and its links' addresses and texts. */
  const rows = (page: Page, table: string) =>
    page.$$eval(`table.${table} tbody tr`, (trs) =>
      trs.map((tr) => ({
        cells: [...tr.children].map((c) => (c as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
        links: [...tr.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
        linkTexts: [...tr.querySelectorAll('a')].map((a) => a.textContent ?? ''),
      })),
    );

  it('shows Alzamend’s dilution score, its components and records as the graph answers, and opens a record’s prospectus', async () => {
    type Input = { value: number; asOf: string; source: { accessionNumber: string | null; citationUrl: string | null; sourceSpan: string; method?: string } } | { missing: true };
    const { dilutionScore, dilutionRecords } = await graph<{ dilutionScore: { documentsHeld: string[]; result: { score: number | null; band: string; ratings: Record<string, { label: string; band: string; score: number | null }>; inputs: Record<string, Input> } }; dilutionRecords: { nodes: RecordNode[] } }>(
      `{ dilutionScore(cik: "${alzamend}") { result documentsHeld } dilutionRecords(cik: "${alzamend}", first: 25) { nodes { id kind date filedAt form documentHeld verification { accessionNumber citationUrl sourceSpan method } } } }`,
    );
    expect(dilutionRecords.nodes.length).toBeGreaterThan(0);
    const page = await signedIn();
    await page.goto(dashboard(`/companies/${alzamend}`));
    await page.waitForSelector('.research-tabs', { visible: true });
    await openTab(page, 'Dilution');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('tab') === 'dilution');
    await page.waitForSelector('table.dilution-records', { visible: true });
    expect(await page.$eval('[role="tab"][aria-selected="true"]', (tab) => tab.textContent)).toBe('Dilution');

    const { score, band, ratings, inputs: answered } = dilutionScore.result;
    expect(await text(page, '.dilution-score-value')).toBe(score === null ? 'No score' : `${score} of 100`);
    expect(await text(page, '.dilution-score .status-badge')).toBe(label(band));
    const components = await rows(page, 'dilution-components');
    expect(components.map((r) => ({ label: r.cells[0], band: r.cells[2]!.split(' at least')[0], score: r.cells[3] }))).toEqual(
      Object.values(ratings).map((r) => ({ label: r.label, band: label(r.band), score: r.score === null ? '—' : String(r.score) })),
    );
    // every input: its value in full, its date and a link to the filing it was read from, or marked not held
    const inputs = await rows(page, 'dilution-inputs');
    expect(inputs).toHaveLength(Object.keys(answered).length);
    Object.values(answered).forEach((input, i) => {
      const row = inputs[i]!;
      if ('missing' in input) return expect(row.cells[1]).toMatch(/^Not held/);
      expect(row.cells[1]).toContain(full(input.value));
      expect(row.cells[2]).toBe(input.asOf);
      expect(row.links).toEqual([linkTo({ ...input.source, documentHeld: dilutionScore.documentsHeld.includes(input.source.accessionNumber ?? '') })].filter(Boolean));
    });

    const shown = await rows(page, 'dilution-records');
    const expected = dilutionRecords.nodes.map((r) => ({
      date: r.date ?? r.filedAt ?? 'Not stated',
      kind: label(r.kind),
      span: r.verification.sourceSpan.replace(/\s+/g, ' ').trim(),
      link: linkTo({ ...r.verification, documentHeld: r.documentHeld }),
    }));
    expect(shown.map((r) => ({ date: r.cells[0], span: r.cells[3], link: r.links.at(-1) ?? null }))).toEqual(expected.map(({ kind: _kind, ...rest }) => rest));
    shown.forEach((r, i) => expect(r.cells[1]!.startsWith(`${expected[i]!.kind} `)).toBe(true));
    // a record read from a document the service holds opens it in the reader, the sentence marked
    const held = dilutionRecords.nodes.find((r) => r.documentHeld && r.verification.method === 'offering_document');
    expect(held).toBeDefined();
    // a record known only from a filing the service does not hold links to the SEC's copy, and says so
    const elsewhere = dilutionRecords.nodes.findIndex((r) => !r.documentHeld && r.verification.citationUrl);
    if (elsewhere >= 0) expect(shown[elsewhere]!.cells[4]).toContain('the service does not hold this document');
    await checkPage(page, 'company-dilution-01-tab');

    const row = dilutionRecords.nodes.indexOf(held!);
    await page.click(`table.dilution-records tbody tr:nth-child(${row + 1}) td:last-child a`);
    await page.waitForFunction((accession) => location.pathname === `/dashboard/filings/${accession}`, {}, held!.verification.accessionNumber);
    await page.waitForSelector('.reader-document', { visible: true });
    expect(new URL(page.url()).searchParams.get('highlight')).toBe(held!.verification.sourceSpan.split(' … ')[0]);
    await checkPage(page, 'company-dilution-02-reader');
  });

  it('fits 375 px: the Dilution tab at a phone’s width, its tables scrolling in their own boxes', async () => {
    const page = await signedIn(375);
    await page.goto(dashboard(`/companies/${alzamend}?tab=dilution`));
    await page.waitForSelector('table.dilution-records', { visible: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(page, 'company-dilution-05-tab-375');
  });

  it('lists Apple’s 13F holders and Form 144 notice as the graph answers; says plainly that Alzamend has none', async () => {
    type Answer = {
      institutionalHolders: { managersRead: number; nodes: { managerName: string | null; period: string | null; valueUsd: number | null; citationUrl: string | null }[] };
      forms: { nodes: { data: { personForWhoseAccount: string | null; securitiesToBeSold: { numberOfUnits: number | null; aggregateMarketValue: number | null }[] } }[] };
    };
    const query = (cik: string) => `{ institutionalHolders(cik: "${cik}", first: 25) { managersRead nodes { managerName period valueUsd citationUrl } } forms(family: "144", cik: "${cik}", first: 10) { nodes { data } } }`;
    const appleAnswer = await graph<Answer>(query(apple));
    expect(appleAnswer.institutionalHolders.nodes.length).toBeGreaterThan(0);
    expect(appleAnswer.forms.nodes.length).toBe(1);

    const page = await signedIn();
    await page.goto(dashboard(`/companies/${apple}?tab=insiders`));
    await page.waitForSelector('table.research-holders', { visible: true });
    const holders = await rows(page, 'research-holders');
    expect(holders.map((r) => ({ manager: r.cells[0], period: r.cells[1], value: r.linkTexts[0] ?? r.cells[3], link: r.links[0] ?? null }))).toEqual(
      appleAnswer.institutionalHolders.nodes.map((h) => ({ manager: h.managerName, period: h.period, value: h.valueUsd === null ? '' : `$${full(h.valueUsd)}`, link: h.valueUsd === null ? null : h.citationUrl })),
    );
    const notices = await rows(page, 'research-notices');
    const sales = appleAnswer.forms.nodes.flatMap((n) => n.data.securitiesToBeSold.map((s) => ({ seller: n.data.personForWhoseAccount, units: s.numberOfUnits, value: s.aggregateMarketValue })));
    expect(notices.map((r) => ({ seller: r.cells[1]!.split(' ').slice(0, 2).join(' '), units: r.cells[3], value: r.cells[4] }))).toEqual(
      sales.map((s) => ({ seller: s.seller!.split(' ').slice(0, 2).join(' '), units: s.units === null ? '' : full(s.units), value: s.value === null ? '' : `$${full(s.value)}` })),
    );
    await checkPage(page, 'company-dilution-03-insiders-apple');

    const alzamendAnswer = await graph<Answer>(query(alzamend));
    expect(alzamendAnswer.institutionalHolders.nodes).toEqual([]);
    expect(alzamendAnswer.forms.nodes).toEqual([]);
    await page.goto(dashboard(`/companies/${alzamend}`));
    await page.waitForSelector('.research-tabs', { visible: true });
    await openTab(page, 'Insiders and ownership');
    await byName(page, 'Institutional holders (Form 13F)', 'heading');
    const empties = await page.$$eval('.research-tabpanel .state-empty', (ps) => ps.map((p) => p.textContent ?? ''));
    expect(empties).toContain('No Form 144 notice of this company is held. A notice would list who proposes to sell, how many securities, their market value and the approximate sale date, from the Form 144 filed by the seller.');
    expect(empties.some((e) => e.startsWith(`None of the ${alzamendAnswer.institutionalHolders.managersRead} institutional managers whose Form 13F reports the service holds lists this company`))).toBe(true);
    expect(alzamendAnswer.institutionalHolders.managersRead).toBeGreaterThan(0);
    expect(await page.$$('table.research-holders, table.research-notices')).toHaveLength(0);
    await checkPage(page, 'company-dilution-04-insiders-empty');
  });
});
