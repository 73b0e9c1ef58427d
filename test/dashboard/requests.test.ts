// The "Requests" section in a real browser against a real service: an owner sees the requests a
// program made with the organization's keys (a success and a failure), narrows the log to the
// errors and to one key (the filters in the URL), pages through it with "Next" and "Previous",
// watches a new request arrive with "Live", and opens one request's page with what it used.
// Every page is screenshot (test-results/dashboard/) and checked by axe-core, at desktop width and
// 375 px, and nothing may violate the Content-Security-Policy.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { call, eventually, freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { byName, checkPage, ensureDashboardBuilt, launchBrowser, openPage, waitForHeading, type PageWatch } from './browser.ts';

let t: TestService;
let browser: Browser;
let base: string;
const watches: PageWatch[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await ensureDashboardBuilt();
  // the service's public address is the one the browser uses: its CSRF rule compares Origin with it
  [t, browser] = await Promise.all([startTestService({ publicUrl: base }, { port }), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});
afterEach(() => {
  // a CSP violation or a script error anywhere fails the test that caused it
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

const dashboard = (route = '') => `${base}/dashboard${route}`;

const signedInPage = (token: string, width = 1200) => openPage(browser, watches, { width, session: token });

/** What each row of the log asks for ("GET /v1/me", "GraphQL Shell"), top to bottom. */
const rowLabels = (page: Page) => page.$$eval('table.requests tbody th[scope="row"] a', (links) => links.map((a) => a.textContent?.trim() ?? ''));

/** Waits until the rows shown pass `check`, and returns them. */
const rowsWhen = (page: Page, what: string, check: (rows: string[]) => boolean) =>
  eventually(what, async () => {
    const rows = await rowLabels(page);
    return check(rows) ? rows : undefined;
  });

const search = (page: Page) => new URL(page.url()).searchParams;

describe('Requests in a browser', { timeout: 60_000 }, () => {
  let org: Awaited<ReturnType<typeof orgWithKey>>;
  let other: { id: string; key: string };
  let token: string;
  let meRequestId: string;
  let page: Page;

  beforeAll(async () => {
    org = await orgWithKey(t, 'Requests journey');
    const issued = await issueApiKey(t.service.services, org.orgId, 'Nightly job');
    other = { id: issued.apiKey.id, key: issued.secret };
    token = await sessionToken(t, org.orgId, `requests.${Date.now()}@example.com`);
    // the programs: 30 reads with the second key, so the log has pages; then one success and one
    // failure with the first
    for (let i = 0; i < 30; i += 10) await Promise.all(Array.from({ length: 10 }, () => call(t, 'GET', '/v1/limits', { key: other.key })));
    const me = await call(t, 'GET', '/v1/me', { key: org.key });
    expect(me.status).toBe(200);
    meRequestId = me.headers.get('request-id')!;
    expect((await call(t, 'GET', '/v1/entities?limit=500', { key: org.key })).status).toBe(400);
  });

  it('lists the requests, newest first, and narrows them to the errors and to one key, in the URL', async () => {
    page = await signedInPage(token);
    await page.goto(dashboard('/requests'));
    await waitForHeading(page, 'Requests');
    // records are written within a second of each answer: a refresh or two at most
    await eventually('both requests of the first key', async () => {
      const rows = await rowLabels(page);
      if (rows.includes('GET /v1/entities') && rows.includes('GET /v1/me')) return true;
      await (await byName(page, 'Refresh', 'button')).click();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return undefined;
    });
    await byName(page, 'Table of requests', 'region');
    await checkPage(page, 'requests-01-list');

    const status = await byName(page, 'Status', 'combobox');
    await status.select('errors');
    const errors = await rowsWhen(page, 'only the failing request', (rows) => rows.length === 1);
    expect(errors).toEqual(['GET /v1/entities']);
    expect(search(page).get('status')).toBe('errors');
    expect(await page.$eval('table.requests tbody tr', (tr) => tr.textContent ?? '')).toMatch(/400\s*invalid_query_parameter/);
    await checkPage(page, 'requests-02-errors');

    // the same view from its address alone
    await page.goto(page.url());
    await waitForHeading(page, 'Requests');
    expect(await rowsWhen(page, 'the view from its address', (rows) => rows.length === 1)).toEqual(['GET /v1/entities']);
    expect(await page.$eval('main select', (s) => (s as HTMLSelectElement).value)).toBe('errors');

    await (await byName(page, 'Key', 'combobox')).select(org.keyId);
    await page.waitForFunction((id) => new URL(location.href).searchParams.get('key') === id, {}, org.keyId);
    expect(search(page).get('status')).toBe('errors');
    await (await byName(page, 'Status', 'combobox')).select('');
    const mine = await rowsWhen(page, 'the first key\'s requests', (rows) => rows.length === 2);
    expect(mine).toEqual(['GET /v1/entities', 'GET /v1/me']);
    expect(search(page).get('key')).toBe(org.keyId);
    expect(search(page).has('status')).toBe(false);
    const keyCells = await page.$$eval('table.requests tbody td[data-label="Key"]', (cells) => cells.map((c) => c.textContent ?? ''));
    expect(keyCells.every((c) => c.startsWith('test key'))).toBe(true);

    await (await byName(page, 'Key', 'combobox')).select(other.id);
    expect(await rowsWhen(page, 'the second key\'s requests', (rows) => rows.length === 25)).toEqual(Array(25).fill('GET /v1/limits'));
  });

  it('pages with "Next" and "Previous", each page in the URL', async () => {
    await page.goto(dashboard(`/requests?key=${other.id}`));
    await waitForHeading(page, 'Requests');
    await rowsWhen(page, 'the first page', (rows) => rows.length === 25);
    const firstIds = await page.$$eval('table.requests tbody th[scope="row"] a', (links) => links.map((a) => a.getAttribute('href')));
    await (await byName(page, 'Next', 'link')).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.has('after'));
    expect(await rowsWhen(page, 'the second page', (rows) => rows.length === 5)).toEqual(Array(5).fill('GET /v1/limits'));
    expect(await page.$('::-p-aria([name="Next"][role="link"])')).toBeNull();
    await (await byName(page, 'Previous', 'link')).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.has('before'));
    await rowsWhen(page, 'the first page again', (rows) => rows.length === 25);
    expect(await page.$$eval('table.requests tbody th[scope="row"] a', (links) => links.map((a) => a.getAttribute('href')))).toEqual(firstIds);
    expect(await page.$('::-p-aria([name="Previous"][role="link"])')).toBeNull();
  });

  it('shows a new request by itself when "Live" is on', async () => {
    await page.goto(dashboard(`/requests?key=${org.keyId}&live=on`));
    await waitForHeading(page, 'Requests');
    await rowsWhen(page, 'the first key\'s requests', (rows) => rows.length === 2);
    expect((await call(t, 'GET', '/v1/diagnostics/requests/req_000000000000000000000000', { key: org.key })).status).toBe(404);
    const rows = await eventually('the new request, without a reload', async () => {
      const shown = await rowLabels(page);
      return shown.length === 3 ? shown : undefined;
    }, 20_000);
    expect(rows[0]).toBe('GET /v1/diagnostics/requests/req_000000000000000000000000');
  }, 30_000);

  it('opens a request\'s page with its usage, and its empty events and deliveries', async () => {
    await page.goto(dashboard(`/requests?key=${org.keyId}`));
    await waitForHeading(page, 'Requests');
    await (await byName(page, 'GET /v1/me', 'link')).click();
    await waitForHeading(page, `Request ${meRequestId}`);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/requests/${meRequestId}`);
    await byName(page, 'Usage', 'heading');
    const usage = await page.$eval('section[aria-labelledby="request-usage"]', (s) => s.textContent ?? '');
    expect(usage).toContain('Meter classPlatform');
    expect(usage).toContain('Units counted1');
    expect(usage).toContain('Nothing charged to prepaid credit');
    const summary = await page.$eval('section[aria-labelledby="request-summary"]', (s) => s.textContent ?? '');
    expect(summary).toContain('GET /v1/me');
    expect(summary).toContain('me_get');
    expect(summary).toContain('test key');
    expect(await page.$eval('main', (m) => m.textContent ?? '')).toContain('This request caused no events.');
    await checkPage(page, 'requests-03-request');

    // another organization's request is not found, and says so
    const stranger = await orgWithKey(t, 'Requests stranger');
    const theirs = (await call(t, 'GET', '/v1/me', { key: stranger.key })).headers.get('request-id')!;
    await page.goto(dashboard(`/requests/${theirs}`));
    await waitForHeading(page, `Request ${theirs}`);
    await page.waitForFunction(() => document.querySelector('main')?.textContent?.includes('This organization has no request'));
    await checkPage(page, 'requests-04-not-found');
    await page.close();
  });

  it('works at 375 px: the log as cards, the request page', async () => {
    const narrow = await signedInPage(token, 375);
    await narrow.goto(dashboard(`/requests?key=${org.keyId}`));
    await waitForHeading(narrow, 'Requests');
    await rowsWhen(narrow, 'the first key\'s requests', (rows) => rows.length >= 2);
    // no sideways scrolling
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(narrow, 'requests-05-list-375');
    await narrow.goto(dashboard(`/requests/${meRequestId}`));
    await waitForHeading(narrow, `Request ${meRequestId}`);
    await byName(narrow, 'Usage', 'heading');
    await checkPage(narrow, 'requests-06-request-375');
    await narrow.close();
  });
});
