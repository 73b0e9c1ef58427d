// The dashboard's Streams section in a real browser against a real service: an owner creates a
// stream of API key events, opens it, starts the live tail (graphql-ws) and sees a key made
// through the API appear within seconds; pauses it, a key is made meanwhile, resumes it and sees
// that key once, after the first; the stream's page lists both; the list disables, enables and
// deletes a stream. Every page is screenshot and checked by axe-core, the list at 375 px too, and
// nothing may violate the Content-Security-Policy.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { byName, checkPage, ensureDashboardBuilt, fill, launchBrowser, openPage, waitForHeading, type PageWatch } from './browser.ts';

let t: TestService;
let browser: Browser;
let base: string;
let org: Awaited<ReturnType<typeof orgWithKey>>;
let token: string;
const watches: PageWatch[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await ensureDashboardBuilt();
  // one after the other: the service's start (its seed transaction) is not raced by Chromium's for the CPU
  t = await startTestService({ publicUrl: base }, { port });
  browser = await launchBrowser();
  org = await orgWithKey(t, 'Streams org');
  token = await sessionToken(t, org.orgId, `owner.${Date.now()}@example.com`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});
afterEach(() => {
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

const dashboard = (route = '') => `${base}/dashboard${route}`;

const ownerPage = (width = 1200) => openPage(browser, watches, { width, session: token });

/** A key made through the API, as a program would (the CLI's session): its api_key.created event. */
async function makeKey(name: string) {
  const made = await call(t, 'POST', '/graphql', { token, body: { query: 'mutation ($name: String!) { createApiKey(name: $name) { apiKey { id } } }', variables: { name } } });
  expect(made.body.errors).toBeUndefined();
}

/** The events the live tail shows, by the key name in their data. */
const tailKeys = (page: Page) =>
  page.$$eval('ol[aria-label="Live events"] li', (items) => items.map((li) => /"name":"([^"]+)"/.exec(li.querySelector('.stream-event-data')?.textContent ?? '')?.[1] ?? li.textContent ?? ''));

describe('the Streams section', { timeout: 60_000 }, () => {
  let page: Page;
  let streamPath: string;

  it('creates a stream with event-type filters and opens it', async () => {
    page = await ownerPage();
    await page.goto(dashboard());
    await (await byName(page, 'Streams', 'link')).click();
    await waitForHeading(page, 'Streams');
    await page.waitForFunction(() => document.body.textContent?.includes('This organization has no streams yet.'));
    await checkPage(page, 'streams-01-empty');

    await (await byName(page, 'Create stream', 'link')).click();
    await waitForHeading(page, 'Create stream');
    await fill(page, 'Name', 'Key changes');
    await (await byName(page, 'Search event types', 'searchbox')).type('api_key');
    await (await byName(page, 'Select all api_key', 'checkbox')).click();
    expect(await (await byName(page, 'api_key.revoked', 'checkbox')).evaluate((box) => (box as HTMLInputElement).checked)).toBe(true);
    // only creations, then
    await (await byName(page, 'api_key.revoked', 'checkbox')).click();
    await checkPage(page, 'streams-02-create');
    await (await byName(page, 'Create stream', 'button')).click();

    await waitForHeading(page, 'Stream');
    streamPath = new URL(page.url()).pathname;
    expect(streamPath).toMatch(/^\/dashboard\/streams\/ss_/);
    await page.waitForSelector('dl.pairs');
    const settings = await page.$eval('dl.pairs', (dl) => dl.textContent ?? '');
    expect(settings).toContain('api_key.created');
    expect(settings).not.toContain('api_key.revoked');
    expect(await page.$eval('.stream-name', (p) => p.textContent)).toContain('Key changes');
    await page.waitForFunction(() => document.body.textContent?.includes('No events since the stream was created.'));
    await checkPage(page, 'streams-03-stream');
  });

  it('tails events live; Pause and Resume continue from the last cursor, without a gap or a duplicate', async () => {
    await (await byName(page, 'Live tail', 'button')).click();
    await byName(page, 'Pause', 'button');
    await makeKey('Tail key one');
    await page.waitForFunction(() => document.querySelectorAll('ol[aria-label="Live events"] li').length === 1, { timeout: 10_000 });
    expect(await tailKeys(page)).toEqual(['Tail key one']);
    expect(await page.$eval('ol[aria-label="Live events"] li', (li) => li.textContent)).toContain('api_key.created');

    await (await byName(page, 'Pause', 'button')).click();
    await byName(page, 'Resume', 'button');
    await makeKey('Tail key two');
    // paused: nothing arrives
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await tailKeys(page)).toEqual(['Tail key one']);
    await checkPage(page, 'streams-04-tail-paused');

    await (await byName(page, 'Resume', 'button')).click();
    await page.waitForFunction(() => document.querySelectorAll('ol[aria-label="Live events"] li').length >= 2, { timeout: 10_000 });
    // a moment more, in which a duplicate would show
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await tailKeys(page)).toEqual(['Tail key one', 'Tail key two']);
    // and live again after the resume
    await makeKey('Tail key three');
    await page.waitForFunction(() => document.querySelectorAll('ol[aria-label="Live events"] li').length === 3, { timeout: 10_000 });
    expect(await tailKeys(page)).toEqual(['Tail key one', 'Tail key two', 'Tail key three']);
    await checkPage(page, 'streams-05-tail-live');

    // the stream's page now lists them, oldest first
    await page.reload();
    await waitForHeading(page, 'Stream');
    await page.waitForSelector('ol[aria-label="Events"] li');
    const listed = await page.$$eval('ol[aria-label="Events"] li .stream-event-data', (cells) => cells.map((c) => /"name":"([^"]+)"/.exec(c.textContent ?? '')?.[1]));
    expect(listed).toEqual(['Tail key one', 'Tail key two', 'Tail key three']);
  });

  it('ends the live tail when the stream is disabled elsewhere: the page says so without a reload', async () => {
    await (await byName(page, 'Live tail', 'button')).click();
    await byName(page, 'Pause', 'button');
    const streamId = streamPath.split('/').pop()!;
    // a program disables it, with the organization's key
    expect((await call(t, 'POST', `/v1/stream_subscriptions/${streamId}/disable`, { key: org.key })).status).toBe(200);
    await page.waitForFunction(() => document.querySelector('main .note')?.textContent?.includes('This stream is disabled'), { timeout: 15_000 });
    expect(await page.$('::-p-aria([name="Pause"][role="button"])')).toBeNull();
    expect(await page.$eval('dl', (dl) => dl.textContent)).toContain('Disabled');
    await checkPage(page, 'streams-05b-tail-ended');
    expect((await call(t, 'POST', `/v1/stream_subscriptions/${streamId}/enable`, { key: org.key })).status).toBe(200);
  });

  it('lists the stream, at 375 px too, and disables, enables and deletes it there', async () => {
    const narrow = await ownerPage(375);
    let graphqlRequests = 0;
    narrow.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') graphqlRequests++;
    });
    await narrow.goto(dashboard('/streams'));
    await waitForHeading(narrow, 'Streams');
    await narrow.waitForSelector('table.streams');
    await narrow.waitForNetworkIdle({ idleTime: 200 });
    expect(graphqlRequests).toBeLessThanOrEqual(2);
    const row = await narrow.$eval('table.streams tbody tr', (tr) => tr.textContent ?? '');
    expect(row).toContain('Key changes');
    expect(row).toContain('api_key.created');
    expect(row).toContain('Enabled');
    expect(row).toContain('From creation');
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(narrow, 'streams-06-list-375');

    await (await byName(narrow, 'Disable', 'button')).click();
    await narrow.waitForFunction(() => document.querySelector('table.streams td[data-label="Status"]')?.textContent?.startsWith('Disabled'));
    // a disabled stream's page says why it shows no events
    await narrow.goto(`${base}${streamPath}`);
    await waitForHeading(narrow, 'Stream');
    await narrow.waitForFunction(() => document.body.textContent?.includes('This stream is disabled'));
    expect(await narrow.$('::-p-aria([name="Live tail"][role="button"])')).toBeNull();
    await checkPage(narrow, 'streams-07-disabled-375');
    await (await byName(narrow, 'Enable', 'button')).click();
    await narrow.waitForSelector('ol[aria-label="Events"] li');
    await byName(narrow, 'Live tail', 'button');

    await narrow.goto(dashboard('/streams'));
    await waitForHeading(narrow, 'Streams');
    await (await byName(narrow, 'Delete', 'button')).click();
    await (await byName(narrow, 'Delete stream', 'button')).click();
    await narrow.waitForFunction(() => document.body.textContent?.includes('This organization has no streams yet.'));
    await narrow.close();
  });
});
