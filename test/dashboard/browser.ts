// What the dashboard's browser tests share: the build they test, a real Chromium (Debian's
// `chromium` package, driven by puppeteer-core), a screenshot of every page saved with the run,
// axe-core's check of every page, and a watch for Content-Security-Policy violations and script
// errors, which fail the test that caused them; and the setup every one of them starts from
// (dashboardHarness): the service on a scratch database with corpus files, a browser, an organization.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusSubset } from '../corpus.ts';
import { freePort, orgWithKey, scratchDatabase, sessionToken, startTestService, type TestService } from '../harness.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Builds dist/dashboard unless it is current, as `npm start` does (scripts/build-dashboard.mjs). */
export async function ensureDashboardBuilt(): Promise<void> {
  await promisify(execFile)(process.execPath, ['scripts/build-dashboard.mjs'], { cwd: root, env: { ...process.env, NODE_ENV: 'production' } });
}

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const found = candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
  if (!found) throw new Error('No Chromium found: install Debian\'s package (apt-get install chromium), as .ci/run does, or set CHROMIUM_PATH.');
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // root in CI has no user namespace sandbox; /dev/shm is small in containers
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--no-default-browser-check', '--lang=en-US'],
    env: { ...process.env, TZ: 'UTC', LANG: 'en_US.UTF-8' },
  });
}

/** Where this run's screenshots go: test-results/dashboard/<embedded|server>/. */
export const screenshotDir = path.join(root, 'test-results', 'dashboard', process.env.DATABASE_URL ? 'server' : 'embedded');

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  return file;
}

const axeSource: string = createRequire(import.meta.url)('axe-core').source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core on the page as it is now; throws on any serious or critical violation. The script goes
 * in through the DevTools protocol, which the page's CSP does not govern.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined'))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  })) as AxeViolation[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) {
    const lines = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`);
    throw new Error(`axe-core found ${bad.length} serious or critical violation(s) on ${what}:\n${lines.join('\n')}`);
  }
}

/** Screenshot and axe-core check of one page: what every page of the dashboard gets. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectAccessible(page, name);
}

export interface PageWatch {
  /** CSP violations, page errors and failed same-origin requests seen so far */
  problems: string[];
}

/** A page that records what must never happen: a CSP violation, an uncaught error. */
export async function watchedPage(browser: Browser | Awaited<ReturnType<Browser['createBrowserContext']>>): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  const watch: PageWatch = { problems: [] };
  page.on('pageerror', (error) => watch.problems.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) watch.problems.push(`console: ${message.text()}`);
  });
  // Injected through the DevTools protocol, so the page's CSP does not apply to it.
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, watch };
}

/**
 * A watched page at a desktop width (or `width`), in a new browser context when given the browser,
 * signed in when given a session token; its watch joins `watches`, which each test's afterEach empties.
 */
export async function openPage(owner: Browser | BrowserContext, watches: PageWatch[], options: { width?: number; session?: string } = {}): Promise<Page> {
  const context = 'createBrowserContext' in owner ? await owner.createBrowserContext() : owner;
  const { page, watch } = await watchedPage(context);
  watches.push(watch);
  await page.setViewport({ width: options.width ?? 1200, height: 900 });
  if (options.session) await context.setCookie({ name: 'ids_session', value: options.session, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' });
  return page;
}

/** The page's session as a Cookie header, for calls the test makes as the signed-in person; the cookie must be HttpOnly. */
export async function sessionCookie(page: Page): Promise<string> {
  const session = (await page.browserContext().cookies()).find((c) => c.name === 'ids_session');
  if (!session?.httpOnly) throw new Error(session ? 'the session cookie is readable by scripts' : 'no session cookie');
  return `ids_session=${session.value}`;
}

/** Waits for an element by its accessible name (and role), as a person or a screen reader finds it. */
export async function byName(page: Page, name: string, role?: string, timeout = 10_000) {
  const selector = role ? `::-p-aria([name="${name}"][role="${role}"])` : `::-p-aria(${name})`;
  const handle = await page.waitForSelector(selector, { timeout, visible: true });
  if (!handle) throw new Error(`nothing named ${JSON.stringify(name)}${role ? ` (${role})` : ''}`);
  return handle;
}

/**
 * Opens a company tab as a person does, once the text above the tab bar has stopped moving: the
 * coverage counts arrive after the page and push the tabs down, so a click aimed before they land
 * can fall on whatever moved under the pointer.
 */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.waitForSelector('.research-coverage:not([aria-busy="true"])');
  await (await byName(page, name, 'tab')).click();
  await page.waitForFunction((label) => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent === label, {}, name);
}

/** The page's first-level heading, once it is the expected one. */
export async function waitForHeading(page: Page, text: string, timeout = 15_000): Promise<void> {
  await page.waitForFunction((expected) => document.querySelector('h1')?.textContent?.trim() === expected, { timeout }, text);
}

/** Types into a field found by its label, replacing what it held. */
export async function fill(page: Page, label: string, value: string): Promise<void> {
  const field = await byName(page, label, 'textbox');
  await field.click({ count: 3 });
  await field.type(value);
}

export interface DashboardHarness {
  /** the service on its own port and scratch database, holding the corpus files asked for */
  t: TestService;
  /** http://127.0.0.1:<port> */
  base: string;
  browser: Browser;
  /** the organization the tests act for, with an API key */
  org: Awaited<ReturnType<typeof orgWithKey>>;
  /** every page's watch; each test ends with none of them having seen a problem */
  watches: PageWatch[];
}

/**
 * Registers, in the calling describe block, what every dashboard browser test needs: the built
 * dashboard, the service on a free port over a scratch database with the corpus files `ingest`
 * matches (all must load), a Chromium, an organization on `plan` named `orgName`; after each test,
 * no page may have seen a CSP violation or a script error; after all, everything is closed and the
 * database dropped. The returned object is filled in once the block's first hook has run.
 */
export function dashboardHarness(options: { ingest: RegExp; orgName: string; plan?: string }): DashboardHarness {
  const harness = { watches: [] as PageWatch[] } as DashboardHarness;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const port = await freePort();
    harness.base = `http://127.0.0.1:${port}`;
    await ensureDashboardBuilt();
    const database = await scratchDatabase();
    drop = database.drop;
    harness.t = await startTestService({ publicUrl: harness.base, database: database.target }, { port });
    expect((await runIngest(harness.t.service.services, corpusSubset(options.ingest))).failed).toBe(0);
    harness.browser = await launchBrowser();
    harness.org = await orgWithKey(harness.t, options.orgName, options.plan ?? 'team');
  }, 600_000);
  afterAll(async () => {
    await harness.browser?.close();
    await harness.t?.close();
    await drop?.();
  });
  afterEach(() => {
    const problems = harness.watches.flatMap((w) => w.problems.splice(0));
    expect(problems).toEqual([]);
  });
  return harness;
}

/** A page of a new member (an owner) of `orgId`, signed in, at a desktop width or `width`. */
export async function signedInPage(harness: DashboardHarness, options: { orgId?: string; width?: number; email?: string } = {}): Promise<Page> {
  const email = options.email ?? `member.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const token = await sessionToken(harness.t, options.orgId ?? harness.org.orgId, email);
  return openPage(harness.browser, harness.watches, { width: options.width, session: token });
}
