// The dashboard's Portfolio lab in a real browser against a real service holding the corpus's
// price files of AAPL, MSFT, JPM and SPY and the Fama-French five-factor file: holdings pasted
// into the box are read line by line (a bad line says why, and nothing is sent); exposures,
// risk, a stress test and an optimization run through the graph, and every figure shown equals
// the graph's own answer to the same request, with the files and vintages it was computed from
// (each beta with its 95% interval from the answer's standard error, in the table and as a whisker);
// each run is listed as an artifact, reopens on its own page and downloads as the artifacts
// route's Markdown and JSON. A ticker without held prices is the service's refusal, shown on its
// line; a viewer's runs are answered as the graph answers a viewer. Every page is screenshot and checked by axe-core (at 375 px too), and nothing may violate
// the CSP.
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasCorpus } from '../corpus.ts';
import { call, eventually, sessionToken, type TestService } from '../harness.ts';
import { byName, checkPage, dashboardHarness, openPage, signedInPage, waitForHeading, type DashboardHarness } from './browser.ts';

const marketFiles = /^market\/(prices\/(AAPL|MSFT|JPM|SPY)\.daily\.csv|factors\/F-F_Research_Data_5_Factors_2x3_daily\.CSV)$/;
const holdings = [
  { ticker: 'AAPL', weight: 0.4 },
  { ticker: 'MSFT', weight: 0.35 },
  { ticker: 'JPM', weight: 0.25 },
];
const pasted = 'AAPL 0.4\nMSFT 35%\nJPM 0.25';

// the page's own way of writing numbers (dashboard/src/pages/portfolio/figures.ts)
const fixed = (value: number, digits = 4) => value.toFixed(digits);
const pct = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

type Json = Record<string, any>;

describe.runIf(hasCorpus)('the Portfolio lab', { timeout: 180_000 }, () => {
  const harness = dashboardHarness({ ingest: marketFiles, orgName: 'Portfolio org' });
  const { watches } = harness;
  let t: TestService;
  let browser: Browser;
  let base: string;
  let org: DashboardHarness['org'];
  let page: Page;
  beforeAll(async () => {
    ({ t, browser, base, org } = harness);
    page = await signedInPage(harness, { email: `lab.${Date.now()}@example.com` });
  });

  const dashboard = (route = '') => `${base}/dashboard${route}`;

  /** The graph's answer to an operation, asked with the organization's API key. */
  async function graph(query: string, variables: Json = {}): Promise<{ data: Json; errors?: { message: string; extensions: Json }[] }> {
    const answer = await call(t, 'POST', '/graphql', { key: org.key, body: { query, variables } });
    return answer.body;
  }

  const artifactOf = async (id: string) => (await graph('query A($id: String!) { artifact(id: $id) { id kind title contentHash manifest result createdAt route requestId } }', { id })).data.artifact as Json;

  async function pasteHoldings(text: string): Promise<void> {
    const box = await byName(page, 'Holdings', 'textbox');
    await box.click({ count: 3 });
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await box.type(text);
  }

  /** The "Holdings as read" table: line, holding, problem. */
  const linesRead = () =>
    page.$$eval('table.portfolio-lines tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));

  /** A table of a run's section: each row's header and cells. */
  const tableOf = (artifactId: string, table: string) =>
    page.$$eval(`[data-artifact="${artifactId}"] table.${table} tbody tr`, (rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));

  /** The label and value pairs above a run's figures. */
  const summaryOf = (artifactId: string) =>
    page.$eval(`[data-artifact="${artifactId}"] .portfolio-summary`, (dl) => Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? ''])));

  it('reads pasted holdings line by line: a bad line says why, and nothing is sent', async () => {
    await page.goto(dashboard());
    await waitForHeading(page, 'Overview');
    await (await byName(page, 'Portfolio lab', 'link')).click();
    await waitForHeading(page, 'Portfolio lab');
    expect(new URL(page.url()).pathname).toBe('/dashboard/portfolio');
    await byName(page, 'Runs', 'heading');
    await checkPage(page, 'portfolio-01-empty');

    await pasteHoldings('AAPL 0.4\nMSFT 0.2x\n\nJPM,100\nAAPL 0.1');
    expect(await linesRead()).toEqual([
      ['1', 'AAPL, weight 0.4', ''],
      ['2', 'MSFT 0.2x', '“0.2x” is not a number'],
      ['4', 'JPM,100', 'give every holding as a weight, as the first one'],
      ['5', 'AAPL 0.1', 'AAPL is already on line 1'],
    ]);
    let mutations = 0;
    const count = (request: { url(): string; postData(): string | undefined }) => {
      if (request.url().endsWith('/graphql') && (request.postData() ?? '').includes('mutation')) mutations++;
    };
    page.on('request', count);
    await (await byName(page, 'Run analyses', 'button')).click();
    const alert = await page.waitForSelector('.portfolio-line-summary[role="alert"]', { visible: true });
    expect(await alert!.evaluate((el) => el.textContent)).toBe('3 lines cannot be used, as marked below; nothing was sent.');
    expect(await page.$eval('textarea', (box) => box.getAttribute('aria-invalid'))).toBe('true');
    page.off('request', count);
    expect(mutations).toBe(0);
    await checkPage(page, 'portfolio-02-bad-lines');
  });

  let runIds: string[] = [];

  it('runs exposures, risk, a stress test and an optimization: every figure is the graph’s answer to the same request, with its sources', async () => {
    await pasteHoldings(pasted);
    expect((await linesRead()).map((row) => row[2])).toEqual(['', '', '']);
    await (await byName(page, 'Stress test', 'checkbox')).click();
    await (await byName(page, 'Optimize', 'checkbox')).click();
    await (await byName(page, 'Run analyses', 'button')).click();
    await page.waitForFunction(() => (new URLSearchParams(location.search).get('runs') ?? '').split(',').filter(Boolean).length === 4, { timeout: 60_000 });
    runIds = new URLSearchParams(new URL(page.url()).search).get('runs')!.split(',');
    for (const id of runIds) await page.waitForSelector(`[data-artifact="${id}"] .portfolio-figure`, { visible: true, timeout: 30_000 });

    const stored = await Promise.all(runIds.map(artifactOf));
    const byKind = Object.fromEntries(stored.map((a) => [a.kind, a]));
    expect(Object.keys(byKind).sort()).toEqual(['portfolio_analysis', 'portfolio_optimization', 'portfolio_risk', 'portfolio_stress_test']);

    // the graph's own answers to the same requests: the same results, by content hash too
    const common = 'holdings: $holdings, asOf: null, lookbackDays: 252, model: null';
    const scenarios = ((await graph('{ stressScenarios }')).data.stressScenarios as { id: string }[]).map((s) => s.id);
    const own = (
      await graph(
        `mutation Same($holdings: [PortfolioHoldingInput!]!, $scenarios: [String!]!) {
          analyzePortfolio(${common}, benchmark: "SPY") { contentHash result }
          portfolioRisk(${common}, benchmark: "SPY") { contentHash result }
          portfolioStressTest(${common}, scenarios: $scenarios) { contentHash result }
          portfolioOptimize(${common}, benchmark: "SPY", objective: "factor_neutral") { contentHash result }
        }`,
        { holdings, scenarios },
      )
    ).data;
    const answers: Record<string, Json> = { portfolio_analysis: own.analyzePortfolio, portfolio_risk: own.portfolioRisk, portfolio_stress_test: own.portfolioStressTest, portfolio_optimization: own.portfolioOptimize };
    for (const [kind, answer] of Object.entries(answers)) {
      expect(byKind[kind]!.result, kind).toEqual(answer.result);
      expect(byKind[kind]!.contentHash, kind).toBe(answer.contentHash);
      expect(await page.$eval(`[data-artifact="${byKind[kind]!.id}"] .portfolio-hash`, (c) => c.textContent)).toBe(answer.contentHash);
    }

    const analysis = answers.portfolio_analysis!.result;
    const betas = await tableOf(byKind.portfolio_analysis!.id, 'portfolio-betas');
    expect(betas.map((row) => [row[0], row[1]])).toEqual(Object.entries(analysis.portfolio.betas as Record<string, { beta: number }>).map(([factor, b]) => [factor, fixed(b.beta)]));
    expect(await page.$eval(`[data-artifact="${byKind.portfolio_analysis!.id}"] table.portfolio-betas thead`, (h) => h.textContent)).toContain('AAPL (40.00%)MSFT (35.00%)JPM (25.00%)');
    expect((await summaryOf(byKind.portfolio_analysis!.id))['R²']).toBe(fixed(analysis.portfolio.rSquared));
    // each beta's 95% interval, as the caption defines it: beta ± 1.96 × its standard error in the answer
    const captions = await page.$eval(`[data-artifact="${byKind.portfolio_analysis!.id}"] .portfolio-figure`, (figure) => `${figure.querySelector('figcaption')?.textContent} ${figure.querySelector('table caption')?.textContent}`);
    expect(captions).toContain('95% confidence interval is beta ± 1.96 × its standard error');
    expect(captions).toContain('95% confidence interval (beta ± 1.96 × its standard error');
    expect(betas.map((row) => [row[0], row[2], row[3]])).toEqual(
      Object.entries(analysis.portfolio.betas as Record<string, { beta: number; stdError: number }>).map(([factor, b]) => [factor, fixed(b.beta - 1.96 * b.stdError), fixed(b.beta + 1.96 * b.stdError)]),
    );

    const risk = answers.portfolio_risk!.result;
    expect((await summaryOf(byKind.portfolio_risk!.id))['Tracking error against SPY']).toBe(pct(risk.trackingError));
    expect((await tableOf(byKind.portfolio_risk!.id, 'portfolio-risk-groups')).map((row) => [row[0], row[1]])).toEqual(Object.entries(risk.contributionsByGroup as Record<string, number>).map(([g, v]) => [g, fixed(v, 6)]));

    const stress = answers.portfolio_stress_test!.result;
    expect((await tableOf(byKind.portfolio_stress_test!.id, 'portfolio-stress')).map((row) => [row[0], row[2]])).toEqual(stress.scenarios.map((s: Json) => [s.title, pct(s.portfolioReturn)]));

    const optimized = answers.portfolio_optimization!.result;
    expect((await tableOf(byKind.portfolio_optimization!.id, 'portfolio-weights')).map((row) => [row[0], row[1], row[2]])).toEqual(optimized.weights.map((w: Json) => [w.ticker, pct(w.before), pct(w.after)]));

    // each figure names the files it was computed from, with their vintages, and the window
    for (const artifact of stored) {
      const captions = await page.$$eval(`[data-artifact="${artifact.id}"] .portfolio-figure figcaption`, (caps) => caps.map((c) => c.textContent ?? ''));
      expect(captions.length).toBeGreaterThan(0);
      for (const caption of captions) {
        for (const source of artifact.manifest.sources) expect(caption).toContain(`${source.sourceKey}, vintage ${source.vintage ?? 'not stated'}`);
        expect(caption).toContain(`window ${artifact.manifest.window.from} to ${artifact.manifest.window.to} (${artifact.manifest.window.days} days)`);
      }
      expect(artifact.manifest.sources.map((s: Json) => s.subject)).toEqual(expect.arrayContaining(['AAPL', 'MSFT', 'JPM']));
    }
    // the charts: one bar per factor of the analysis, drawn with SVG attributes, each with a whisker from its interval's low end to its high end across the bar's end
    const drawn = await page.$$eval(`[data-artifact="${byKind.portfolio_analysis!.id}"] svg.portfolio-bars`, (svgs) =>
      [...svgs[0]!.querySelectorAll('g')]
        .filter((g) => g.querySelector(':scope > rect'))
        .map((g) => {
          const rect = g.querySelector(':scope > rect')!;
          const span = g.querySelector('.portfolio-bar-whisker line');
          const x = Number(rect.getAttribute('x'));
          const end = rect.getAttribute('class') === 'portfolio-bar-negative' ? x : x + Number(rect.getAttribute('width'));
          return { end, low: Number(span?.getAttribute('x1')), high: Number(span?.getAttribute('x2')) };
        }),
    );
    expect(drawn).toHaveLength(Object.keys(analysis.portfolio.betas).length);
    for (const bar of drawn) {
      expect(bar.low).toBeLessThanOrEqual(bar.end);
      expect(bar.high).toBeGreaterThanOrEqual(bar.end);
    }
    await checkPage(page, 'portfolio-03-results');
  });

  it('lists every run; reopens one on its own page; downloads it as Markdown and JSON', async () => {
    const listed = await page.$$eval('table.portfolio-run-list tbody th a', (links) => links.map((a) => a.getAttribute('href')));
    for (const id of runIds) expect(listed).toContain(`/dashboard/portfolio/artifacts/${id}`);

    const analysis = (await Promise.all(runIds.map(artifactOf))).find((a) => a.kind === 'portfolio_analysis')!;
    await (await page.waitForSelector(`table.portfolio-run-list a[href="/dashboard/portfolio/artifacts/${analysis.id}"]`))!.click();
    await waitForHeading(page, analysis.title);
    await page.waitForSelector('table.portfolio-betas', { visible: true });
    const betas = await tableOf(analysis.id, 'portfolio-betas');
    expect(betas.map((row) => [row[0], row[1]])).toEqual(Object.entries(analysis.result.portfolio.betas as Record<string, { beta: number }>).map(([factor, b]) => [factor, fixed(b.beta)]));
    await checkPage(page, 'portfolio-04-reopened');

    const folder = await mkdtemp(path.join(tmpdir(), 'ids-portfolio-downloads-'));
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: folder, browserContextId: page.browserContext().id });
    await (await byName(page, 'Download Markdown', 'link')).click();
    await (await byName(page, 'Download JSON', 'link')).click();
    const downloaded = await eventually('both downloads', async () => {
      const names = await readdir(folder);
      return names.includes(`${analysis.id}.md`) && names.includes(`${analysis.id}.json`) && names;
    });
    expect(downloaded.sort()).toEqual([`${analysis.id}.json`, `${analysis.id}.md`]);

    const markdown = await readFile(path.join(folder, `${analysis.id}.md`), 'utf8');
    expect(markdown.startsWith(`# ${analysis.title}\n`)).toBe(true);
    expect(markdown).toContain(`| Artifact | ${analysis.id} |`);
    expect(markdown).toContain(`| Content hash (sha256) | ${analysis.contentHash} |`);
    for (const source of analysis.manifest.sources) expect(markdown).toContain(`| ${source.sourceKey} | ${source.kind} | ${source.subject} |`);
    expect(markdown).toContain('## Result');

    const json = JSON.parse(await readFile(path.join(folder, `${analysis.id}.json`), 'utf8'));
    expect(json).toMatchObject({ object: 'artifact', id: analysis.id, kind: 'portfolio_analysis', contentHash: analysis.contentHash, manifest: analysis.manifest, result: analysis.result });
    await cdp.detach();
  });

  it('shows the service’s refusal on the line it names: a ticker without held prices', async () => {
    await page.goto(dashboard('/portfolio'));
    await waitForHeading(page, 'Portfolio lab');
    await pasteHoldings('AAPL 0.5\nTSLA 0.5');
    await (await byName(page, 'Risk', 'checkbox')).click(); // exposures alone
    await (await byName(page, 'Run analyses', 'button')).click();
    await page.waitForSelector('form .problem[role="alert"]', { visible: true, timeout: 30_000 });

    const refused = await graph('mutation R($holdings: [PortfolioHoldingInput!]!) { analyzePortfolio(holdings: $holdings) { artifactId } }', { holdings: [{ ticker: 'AAPL', weight: 0.5 }, { ticker: 'TSLA', weight: 0.5 }] });
    const error = refused.errors![0]!;
    expect(error.extensions.code).toBe('validation_error');
    const notice = await page.$eval('form .problem[role="alert"]', (el) => el.textContent ?? '');
    expect(notice).toContain(`Factor exposures: Something went wrong`);
    expect(notice).toContain(error.message);
    const issue = error.extensions.details.issues[0];
    expect(issue.path).toBe('holdings[1].ticker');
    expect(await linesRead()).toEqual([
      ['1', 'AAPL, weight 0.5', ''],
      ['2', 'TSLA, weight 0.5', issue.message],
    ]);
    expect(new URL(page.url()).searchParams.get('runs')).toBeNull();
    await checkPage(page, 'portfolio-05-refused');
  });

  it('shows a viewer what the service answers a viewer: runs are reads, open to every role', async () => {
    const token = await sessionToken(t, org.orgId, `viewer.${Date.now()}@example.com`, false, 'viewer');
    const viewer = await openPage(browser, watches, { session: token });
    const own = await call(t, 'POST', '/graphql', { token, body: { query: 'mutation V($holdings: [PortfolioHoldingInput!]!) { analyzePortfolio(holdings: $holdings) { contentHash } }', variables: { holdings } } });
    expect(own.body.errors).toBeUndefined();
    await viewer.goto(dashboard('/portfolio'));
    await waitForHeading(viewer, 'Portfolio lab');
    await (await byName(viewer, 'Holdings', 'textbox')).type(pasted);
    await (await byName(viewer, 'Risk', 'checkbox')).click(); // exposures alone
    await (await byName(viewer, 'Run analyses', 'button')).click();
    await viewer.waitForFunction(() => new URLSearchParams(location.search).get('runs')?.startsWith('art_'), { timeout: 60_000 });
    const id = new URL(viewer.url()).searchParams.get('runs')!;
    const hash = await viewer.waitForSelector(`[data-artifact="${id}"] .portfolio-hash`, { visible: true });
    expect(await hash!.evaluate((c) => c.textContent)).toBe(own.body.data.analyzePortfolio.contentHash);
    await viewer.close();
  });

  it('is usable at 375 px wide', async () => {
    const narrow = await openPage(page.browserContext(), watches, { width: 375 });
    await narrow.goto(dashboard(`/portfolio?runs=${runIds.join(',')}`));
    await waitForHeading(narrow, 'Portfolio lab');
    for (const id of runIds) await narrow.waitForSelector(`[data-artifact="${id}"] .portfolio-figure`, { visible: true });
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(narrow, 'portfolio-06-results-375');
    await narrow.close();
  });

  it('shows on the Overview what the data holds: the load that finished, as the graph answers', async () => {
    const status = (await graph('{ ingestStatus { state lastFinished { id source read written records } } }')).data.ingestStatus;
    expect(status.state).toBe('idle');
    await page.goto(dashboard());
    await waitForHeading(page, 'Overview');
    await byName(page, 'Data held', 'heading');
    expect(await page.$eval('.ingest-state', (p) => p.textContent)).toBe('No load is running.');
    const last = await page.$eval(`.ingest-run[data-run="${status.lastFinished.id}"]`, (li) => li.textContent ?? '');
    expect(last).toContain(status.lastFinished.source);
    expect(last).toContain(`${status.lastFinished.written.toLocaleString('en-US')} written`);
    expect(last).toContain(`${status.lastFinished.records.toLocaleString('en-US')} records written`);
    await checkPage(page, 'portfolio-07-overview-data-held');
  });
});
