// The "Alerts" section in a real browser against a real service: an owner finds the
// organization's open alerts (the budget's soft cap, a failed auto-top-up) from the header,
// acknowledges one, and finds it under "Acknowledged" with who did it. Every page is screenshot
// and checked by axe-core, at desktop width and 375 px, with no CSP violation.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../subscriptions/events.ts';
import { eventually, freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { byName, checkPage, ensureDashboardBuilt, launchBrowser, openPage, waitForHeading, type PageWatch } from './browser.ts';

let t: TestService;
let browser: Browser;
let base: string;
const watches: PageWatch[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await ensureDashboardBuilt();
  [t, browser] = await Promise.all([startTestService({ publicUrl: base }, { port }), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});
afterEach(() => {
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

const softCapTitle = 'Prepaid spend for 2026-11 reached the soft cap of $50.00';

/** The titles of the rows shown, top to bottom. */
const rowTitles = (page: Page) => page.$$eval('table.alerts-table tbody th[scope="row"]', (cells) => cells.map((c) => c.textContent?.trim() ?? ''));

describe('Alerts in a browser', { timeout: 60_000 }, () => {
  let page: Page;

  it('lists the open alerts, acknowledges one, and shows it acknowledged', async () => {
    const org = await orgWithKey(t, 'Alerts journey');
    const { prisma } = t.service.services;
    await prisma.$transaction((tx) => recordEvent(tx, 'billing.soft_cap_reached', org.orgId, { period: '2026-11', softCapCents: 5000, periodSpendMillicents: 5_000_200 }));
    await prisma.$transaction((tx) => recordEvent(tx, 'billing.auto_topup_failed', org.orgId, { failures: [{ paymentMethodId: 'pm_declined', code: 'card_declined' }], reason: 'card_declined' }));
    const email = `alerts.${Date.now()}@example.com`;
    const token = await sessionToken(t, org.orgId, email);

    page = await openPage(browser, watches, { session: token });
    await page.goto(`${base}/dashboard`);
    await (await byName(page, 'Alerts', 'link')).click();
    await waitForHeading(page, 'Alerts');
    const open = await eventually('both open alerts', async () => ((await rowTitles(page)).length === 2 ? rowTitles(page) : undefined));
    expect(open[0]).toMatch(/^Auto-top-up failed \(card_declined\)/); // newest first
    expect(open[1]).toBe(softCapTitle);
    expect(await page.$eval('table.alerts-table tbody tr', (tr) => tr.textContent ?? '')).toMatch(/critical/);
    await checkPage(page, 'alerts-01-open');

    await (await byName(page, `Acknowledge: ${softCapTitle}`, 'button')).click();
    await eventually('the acknowledged alert leaves the open list', async () => ((await rowTitles(page)).length === 1 ? true : undefined));

    await (await byName(page, 'Acknowledged', 'link')).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('status') === 'acknowledged');
    // the open list stays on screen (one row too) until the acknowledged one has loaded
    const done = await eventually('the acknowledged list', async () => {
      if ((await rowTitles(page)).length !== 1) return undefined;
      const row = await page.$eval('table.alerts-table tbody tr', (tr) => tr.textContent ?? '');
      return /Acknowledged .* by /.test(row) ? row : undefined;
    });
    expect(done).toContain(softCapTitle);
    expect(done).toMatch(new RegExp(`Acknowledged .* by ${email.replace(/\./g, '\\.')}`));
    await checkPage(page, 'alerts-02-acknowledged');

    const narrow = await openPage(browser, watches, { session: token, width: 375 });
    await narrow.goto(`${base}/dashboard/alerts?status=all`);
    await waitForHeading(narrow, 'Alerts');
    await eventually('every alert at 375 px', async () => ((await rowTitles(narrow)).length === 2 ? true : undefined));
    await checkPage(narrow, 'alerts-03-all-375');
  });
});
