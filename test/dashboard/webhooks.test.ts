// The dashboard's Webhooks section in a real browser against a real service: an owner adds an
// endpoint pointing at a receiver on this machine (test services allow 127.0.0.1 as a webhook
// host), copies the signing secret shown once, sends a test event that the receiver verifies with
// that secret (Standard Webhooks), sees the delivery succeed without reloading, replays it, rotates
// the secret, disables, enables and deletes the endpoint; a viewer sees it all read-only, with the
// reason. Every page is screenshot and checked by axe-core, the list at 375 px too, and nothing may
// violate the Content-Security-Policy.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';
import { byName, checkPage, ensureDashboardBuilt, fill, launchBrowser, openPage, waitForHeading, type PageWatch } from './browser.ts';

let t: TestService;
let browser: Browser;
let receiver: WebhookReceiver;
let base: string;
let org: Awaited<ReturnType<typeof orgWithKey>>;
const watches: PageWatch[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await ensureDashboardBuilt();
  // one after the other: the service's start (its seed transaction) is not raced by Chromium's for the CPU
  t = await startTestService({ publicUrl: base }, { port });
  [browser, receiver] = await Promise.all([launchBrowser(), new WebhookReceiver().start()]);
  org = await orgWithKey(t, 'Webhooks org');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver?.close();
});
afterEach(() => {
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

const dashboard = (route = '') => `${base}/dashboard${route}`;

/** A page signed in as a member of the organization with `role`. */
async function signedIn(role: 'owner' | 'viewer', width = 1200): Promise<Page> {
  const token = await sessionToken(t, org.orgId, `${role}.${Date.now()}@example.com`, false, role);
  const page = await openPage(browser, watches, { width, session: token });
  // the pages, and their refreshes while a delivery is pending, fit the smallest plan's window
  const throttled: PageWatch = { problems: [] };
  watches.push(throttled);
  page.on('response', (response) => {
    if (response.url().endsWith('/graphql') && response.status() === 429) throttled.problems.push(`429 from /graphql: ${response.request().postData()?.slice(0, 80)}`);
  });
  return page;
}

/** The deliveries table, row by row: status, attempt and response as shown. */
const deliveryRows = (page: Page) =>
  page.$$eval('table.deliveries tbody tr:not(.confirm-row)', (rows) =>
    rows.map((row) => ({
      status: row.querySelector('th')?.textContent?.trim() ?? '',
      attempt: row.querySelector('td[data-label="Attempt"]')?.textContent?.trim() ?? '',
      response: row.querySelector('td[data-label="Response"]')?.firstChild?.textContent?.trim() ?? '',
    })),
  );

describe('the Webhooks section', { timeout: 60_000 }, () => {
  let page: Page;
  let secret: string;
  let endpointPath: string;

  it('adds an endpoint with event types from the catalog; its signing secret is shown once', async () => {
    page = await signedIn('owner');
    await page.goto(dashboard());
    await (await byName(page, 'Webhooks', 'link')).click();
    await waitForHeading(page, 'Webhooks');
    await page.waitForFunction(() => document.body.textContent?.includes('This organization has no webhook endpoints yet.'));
    await checkPage(page, 'webhooks-01-empty');

    await (await byName(page, 'Add endpoint', 'link')).click();
    await waitForHeading(page, 'Add endpoint');
    await byName(page, 'Every event of this organization (*)', 'checkbox');
    // nothing chosen yet: said beside the picker, nothing sent
    await (await byName(page, 'Add endpoint', 'button')).click();
    await page.waitForSelector('.field-error');
    await fill(page, 'Endpoint URL', receiver.url);
    await fill(page, 'Description', 'Our receiver');
    // search narrows the catalog; a family is chosen whole with its "Select all"
    await (await byName(page, 'Search event types', 'searchbox')).type('stream');
    const selectAll = await byName(page, 'Select all stream_subscription', 'checkbox');
    await page.waitForFunction(() => / of \d+ event types match\./.test(document.body.textContent ?? ''));
    expect(await page.$('::-p-aria([name="billing.grant_reset"][role="checkbox"])')).toBeNull();
    await selectAll.click();
    for (const type of ['stream_subscription.created', 'stream_subscription.updated', 'stream_subscription.deleted']) {
      expect(await (await byName(page, type, 'checkbox')).evaluate((box) => (box as HTMLInputElement).checked)).toBe(true);
    }
    const search = await byName(page, 'Search event types', 'searchbox');
    await search.click({ count: 3 });
    await search.type('webhook.test');
    await (await byName(page, 'webhook.test', 'checkbox')).click();
    await checkPage(page, 'webhooks-02-add-endpoint');
    await (await byName(page, 'Add endpoint', 'button')).click();

    secret = await (await byName(page, 'Secret', 'textbox')).evaluate((input) => (input as HTMLInputElement).value);
    expect(secret).toMatch(/^whsec_/);
    expect(await page.$eval('main', (m) => m.textContent)).toMatch(/only time it is shown/);
    receiver.secrets = [secret];
    await checkPage(page, 'webhooks-03-secret');

    await (await byName(page, 'Open endpoint', 'link')).click();
    await waitForHeading(page, 'Webhook endpoint');
    endpointPath = new URL(page.url()).pathname;
    expect(endpointPath).toMatch(/^\/dashboard\/webhooks\/we_/);
    await page.waitForSelector('dl.pairs');
    const settings = await page.$eval('dl.pairs', (dl) => dl.textContent ?? '');
    expect(settings).toContain('Enabled');
    expect(settings).toContain('Our receiver');
    expect(settings).toMatch(/stream_subscription\.created.*webhook\.test|webhook\.test.*stream_subscription\.created/);
    // the secret is never shown again
    expect(await page.$eval('body', (b) => b.textContent)).not.toContain(secret);
    expect(await page.$eval('.endpoint-url', (p) => p.textContent)).toBe(receiver.url);
  });

  it('sends a test event: the delivery succeeds on the page without a reload, signed with the secret shown; a replay is a second attempt', async () => {
    await (await byName(page, 'Send test event', 'button')).click();
    // the page asks again by itself while the delivery is pending
    await page.waitForFunction(() => document.querySelector('table.deliveries tbody tr th')?.textContent === 'Succeeded', { timeout: 15_000 });
    expect(await deliveryRows(page)).toEqual([{ status: 'Succeeded', attempt: '1', response: '200' }]);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ body: { type: 'webhook.test' }, verifiedWith: [secret], status: 200 });
    expect(await page.$eval('table.deliveries tbody', (b) => b.textContent)).toContain('webhook.test');
    await checkPage(page, 'webhooks-04-endpoint');

    await (await byName(page, 'Replay', 'button')).click();
    await page.waitForFunction(() => [...document.querySelectorAll('table.deliveries tbody tr th')].filter((th) => th.textContent === 'Succeeded').length === 2, { timeout: 15_000 });
    const rows = await deliveryRows(page);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.response === '200')).toBe(true);
    // the newest first: the replay, marked so
    expect(await page.$eval('table.deliveries tbody tr td[data-label="Attempt"]', (td) => td.textContent)).toContain('replay');
    expect(receiver.received).toHaveLength(2);
    // the same event again: the same webhook-id, signed with the same secret
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    expect(receiver.received[1]!.verifiedWith).toEqual([secret]);

    // filtering by status is in the address
    await (await byName(page, 'Status', 'combobox')).select('failed');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('status') === 'failed');
    await page.waitForFunction(() => document.body.textContent?.includes('No failed deliveries.'));
    await page.goto(`${base}${endpointPath}?status=succeeded`);
    await waitForHeading(page, 'Webhook endpoint');
    await page.waitForSelector('table.deliveries');
    expect(await deliveryRows(page)).toHaveLength(2);
    expect(await (await byName(page, 'Status', 'combobox')).evaluate((s) => (s as HTMLSelectElement).value)).toBe('succeeded');
  });

  it('rotates the secret (shown once), disables and enables the endpoint', async () => {
    await (await byName(page, 'Rotate secret', 'button')).click();
    const rotated = await (await byName(page, 'Secret', 'textbox')).evaluate((input) => (input as HTMLInputElement).value);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.waitForFunction(() => document.querySelector('dl.pairs')?.textContent?.includes('previous secret also signs'));
    await checkPage(page, 'webhooks-05-rotated');

    await (await byName(page, 'Disable', 'button')).click();
    await byName(page, 'Enable', 'button');
    await page.waitForFunction(() => document.querySelector('dl.pairs')?.textContent?.includes('Disabled: by request'));
    expect(await (await byName(page, 'Send test event', 'button')).evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await (await byName(page, 'Enable', 'button')).click();
    await byName(page, 'Disable', 'button');
    expect(await (await byName(page, 'Send test event', 'button')).evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(false);
  });

  it('edits the description and event types on the endpoint\'s own edit page; a bad URL is refused beside the field and saves nothing', async () => {
    await (await byName(page, 'Edit settings', 'link')).click();
    await waitForHeading(page, 'Edit endpoint');
    expect(new URL(page.url()).pathname).toBe(`${endpointPath}/edit`);
    // the form starts from the endpoint as it is
    expect(await (await byName(page, 'Description', 'textbox')).evaluate((input) => (input as HTMLInputElement).value)).toBe('Our receiver');
    expect(await (await byName(page, 'webhook.test', 'checkbox')).evaluate((box) => (box as HTMLInputElement).checked)).toBe(true);

    await fill(page, 'Endpoint URL', 'not an address');
    await (await byName(page, 'Save changes', 'button')).click();
    await page.waitForSelector('.field-error');
    expect(new URL(page.url()).pathname).toBe(`${endpointPath}/edit`);

    await fill(page, 'Endpoint URL', receiver.url);
    await fill(page, 'Description', 'Our receiver, renamed');
    await (await byName(page, 'Search event types', 'searchbox')).type('api_key.created');
    await (await byName(page, 'api_key.created', 'checkbox')).click();
    await checkPage(page, 'webhooks-05b-edit');
    await (await byName(page, 'Save changes', 'button')).click();
    await waitForHeading(page, 'Webhook endpoint');
    expect(new URL(page.url()).pathname).toBe(endpointPath);
    await page.waitForFunction(() => document.querySelector('dl.pairs')?.textContent?.includes('Our receiver, renamed'));
    const settings = await page.$eval('dl.pairs', (dl) => dl.textContent ?? '');
    expect(settings).toContain('api_key.created');
    expect(settings).toContain('webhook.test');
    expect(await page.$eval('.endpoint-url', (p) => p.textContent)).toBe(receiver.url);
  });

  it('shows a viewer everything read-only, saying why', async () => {
    const viewer = await signedIn('viewer');
    await viewer.goto(`${base}${endpointPath}`);
    await waitForHeading(viewer, 'Webhook endpoint');
    await viewer.waitForFunction(() => document.body.textContent?.includes('Your role (Viewer) can see this endpoint but cannot change anything here'));
    for (const name of ['Send test event', 'Rotate secret', 'Disable', 'Delete']) {
      expect(await (await byName(viewer, name, 'button')).evaluate((b) => (b as HTMLButtonElement).disabled), name).toBe(true);
    }
    await viewer.waitForSelector('table.deliveries');
    expect(await viewer.$$eval('::-p-aria([name="Replay"][role="button"])', (buttons) => buttons.every((b) => (b as HTMLButtonElement).disabled))).toBe(true);
    await checkPage(viewer, 'webhooks-06-viewer');
    await viewer.close();
  });

  it('lists the endpoint, at 375 px too, in at most two GraphQL requests', async () => {
    const narrow = await signedIn('owner', 375);
    let graphqlRequests = 0;
    narrow.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') graphqlRequests++;
    });
    await narrow.goto(dashboard('/webhooks'));
    await waitForHeading(narrow, 'Webhooks');
    await narrow.waitForSelector('table.webhooks');
    await narrow.waitForNetworkIdle({ idleTime: 200 });
    expect(graphqlRequests).toBeLessThanOrEqual(2);
    const row = await narrow.$eval('table.webhooks tbody tr', (tr) => tr.textContent ?? '');
    expect(row).toContain(receiver.url);
    expect(row).toContain('Enabled');
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(narrow, 'webhooks-07-list-375');
    graphqlRequests = 0;
    await narrow.goto(`${base}${endpointPath}`);
    await waitForHeading(narrow, 'Webhook endpoint');
    await narrow.waitForSelector('table.deliveries');
    await narrow.waitForNetworkIdle({ idleTime: 200 });
    expect(graphqlRequests).toBeLessThanOrEqual(2);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(narrow, 'webhooks-08-endpoint-375');
    await narrow.close();
  });

  it('deletes the endpoint after a confirmation', async () => {
    await page.goto(`${base}${endpointPath}`);
    await waitForHeading(page, 'Webhook endpoint');
    await (await byName(page, 'Delete', 'button')).click();
    await byName(page, 'Delete endpoint', 'button');
    await checkPage(page, 'webhooks-09-delete-confirm');
    await (await byName(page, 'Delete endpoint', 'button')).click();
    await waitForHeading(page, 'Webhooks');
    await page.waitForFunction(() => document.body.textContent?.includes('This organization has no webhook endpoints yet.'));
    // and its page says so
    await page.goto(`${base}${endpointPath}`);
    await page.waitForSelector('[role="alert"]');
    expect(await page.$eval('[role="alert"]', (el) => el.textContent)).toContain('No webhook endpoint');
  });
});
