// The dashboard in a real browser (Chromium through puppeteer-core) against a real service, with
// a real SMTP server for the sign-in code: a person signs in with the emailed code, creates a key
// that a program then uses, sees a key made elsewhere appear live, rotates one, revokes one, and
// signs out; the one-time link signs in by itself; refusals (403, 402) say what to do. Every page
// is screenshot (test-results/dashboard/) and checked by axe-core, at desktop width and 375 px, and
// nothing may violate the Content-Security-Policy.
import type { Browser, BrowserContext, HTTPResponse, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { createSignInLink } from '../../resolvers/accounts/links.ts';
import { setPlan } from '../../resolvers/billing/account.ts';
import { addMember } from '../../resolvers/orgs.ts';
import { call, eventually, freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { startSmtpServer, type SmtpServer } from '../support/smtpServer.ts';
import { byName, checkPage, ensureDashboardBuilt, fill, launchBrowser, openPage, sessionCookie, waitForHeading, type PageWatch } from './browser.ts';

let smtp: SmtpServer;
let t: TestService;
let browser: Browser;
let base: string;
const watches: PageWatch[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  [smtp] = await Promise.all([startSmtpServer(), ensureDashboardBuilt()]);
  // the service's public address is the one the browser uses: its CSRF rule compares Origin with it
  [t, browser] = await Promise.all([startTestService({ email: { smtpUrl: smtp.url, from: 'IDS <signin@localhost>' }, publicUrl: base }, { port }), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
});
afterEach(() => {
  // a CSP violation or a script error anywhere fails the test that caused it
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

const newPage = (context?: BrowserContext, width = 1200) => openPage(context ?? browser, watches, { width });

const dashboard = (route = '') => `${base}/dashboard${route}`;

async function emailedCode(email: string): Promise<string> {
  const message = await eventually('the sign-in email', () => smtp.messages.find((m) => m.to.includes(email)));
  return /\b(\d{6})\b/.exec(message.subject ?? '')![1]!;
}


/** Rows of the keys table by the name in their first cell. */
const keyRowNames = (page: Page) => page.$$eval('table.keys tbody tr th[scope="row"]', (cells) => cells.map((c) => c.textContent?.trim() ?? ''));

// a browser on a busy 2-core machine: more room than an API call needs
describe('the dashboard in a browser', { timeout: 60_000 }, () => {
  let page: Page;
  const email = `journey.${Date.now()}@example.com`;
  let cookie: string;

  it('serves its HTML uncached under the strict CSP, and its hashed assets cached for a year', async () => {
    const html = await fetch(dashboard('/keys'));
    expect(html.status).toBe(200);
    expect(html.headers.get('cache-control')).toBe('no-store');
    const csp = html.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https:/);
    const body = await html.text();
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(body)![1]!;
    const js = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-type')).toMatch(/javascript/);
  });

  it('asks for a sign-in, and signs in with the code sent by email', async () => {
    page = await newPage();
    await page.goto(dashboard('/keys'));
    // no session: the sign-in page, remembering where the person was going
    await waitForHeading(page, 'Sign in');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/keys');
    await byName(page, 'Email me a code', 'button');
    await checkPage(page, '01-sign-in');

    await fill(page, 'Email', email);
    await (await byName(page, 'Email me a code', 'button')).click();
    await byName(page, 'Code', 'textbox');
    await checkPage(page, '02-sign-in-code');
    await fill(page, 'Code', await emailedCode(email));
    await (await byName(page, 'Sign in', 'button')).click();

    await waitForHeading(page, 'API keys');
    expect(new URL(page.url()).pathname).toBe('/dashboard/keys');
    cookie = await sessionCookie(page);
    const me = await call(t, 'GET', '/v1/me', { headers: { cookie } });
    expect(me.body).toMatchObject({ kind: 'session', user: { email }, role: 'owner' });
  });

  it('shows the Overview: plan, billing, credit, quota gauges, request charts and the latest errors', async () => {
    // a request the service refuses, to be listed among the latest errors
    const refused = await call(t, 'GET', '/v1/entities?limit=500', { headers: { cookie } });
    expect(refused.status).toBe(400);
    // its record is written just after the answer; the page is opened once it is
    await eventually('the refused request\'s record', () => t.service.services.prisma.requestRecord.findUnique({ where: { id: refused.headers.get('request-id')! } }));
    // the graph's answer to the page's own request, which its usage and ingest panels draw
    const overviewAnswer = new Promise<any>((resolve) => {
      const onResponse = (response: HTTPResponse) => {
        if (!response.url().endsWith('/graphql') || !response.request().postData()?.includes('"operationName":"OverviewPage"')) return;
        page.off('response', onResponse);
        resolve(response.json());
      };
      page.on('response', onResponse);
    });
    await (await byName(page, 'Overview', 'link')).click();
    await waitForHeading(page, 'Overview');
    await byName(page, 'Quota windows', 'heading');
    await byName(page, 'Requests per meter class', 'heading');
    await byName(page, 'Latest errors', 'heading');
    const text = await page.$eval('main', (m) => m.textContent ?? '');
    expect(text).toContain('Starter grant');
    expect(text).toContain('Credit balance');
    // the gauges name their window and use in words
    const gauges = await page.$$eval('.gauge svg[role="img"]', (svgs) => svgs.map((s) => s.getAttribute('aria-label')));
    expect(gauges).toContainEqual(expect.stringMatching(/^graphql, per minute: [\d,]+ of 3,000 used/));
    // this person's requests so far (sign-in, GraphQL) are drawn
    await page.waitForSelector('.chart-plot canvas');
    const errors = await byName(page, 'Latest errors', 'region');
    expect(await errors.evaluate((region) => region.textContent)).toMatch(/400.*invalid_query_parameter.*GET \/v1\/entities/);

    // requests, units, cost and errors per meter class and per day: the graph's usageAnalytics
    await byName(page, 'Requests, cost and errors', 'heading');
    const { data } = await overviewAnswer;
    const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
    const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const cells = (g: { requests: number; units: number; chargedMillicents: number; errors4xx: number; errors5xx: number }) => [count.format(g.requests), count.format(g.units), money.format(g.chargedMillicents / 100_000), count.format(g.errors4xx), count.format(g.errors5xx)];
    const tableRows = (table: string) => page.$$eval(`table.${table} tbody tr, table.${table} tfoot tr`, (rows) => rows.map((r) => [...r.children].map((c) => c.textContent?.trim() ?? '')));
    expect(await tableRows('usage-analytics-classes')).toEqual([...data.byClass.rows.map((g: any) => [g.meterClass, ...cells(g)]), ['Total', ...cells(data.byClass.totals)]]);
    expect(await tableRows('usage-analytics-days')).toEqual([...data.byDay.rows.map((g: any) => [g.day, ...cells(g)]), ['Total', ...cells(data.byDay.totals)]]);
    // the refused read is counted as an unmetered 4xx, as the graph counts it when asked again
    const asPerson = { cookie, origin: base, 'x-ids-csrf': '1' };
    const again = await call(t, 'POST', '/graphql', { headers: asPerson, body: { query: '{ usageAnalytics(groupBy: [meter_class], meterClass: "unmetered") { rows { meterClass requests errors4xx } } }' } });
    const unmetered = data.byClass.rows.find((g: any) => g.meterClass === 'unmetered');
    expect(again.body.data.usageAnalytics.rows).toEqual([{ meterClass: 'unmetered', requests: unmetered.requests, errors4xx: unmetered.errors4xx }]);
    expect(unmetered.errors4xx).toBeGreaterThanOrEqual(1);

    // what the data holds and whether a load is running: the graph's ingestStatus
    await byName(page, 'Data held', 'heading');
    const ingest = await call(t, 'POST', '/graphql', { headers: asPerson, body: { query: '{ ingestStatus { state running { id } } }' } });
    expect(ingest.body.data.ingestStatus.state).toBe(data.ingestStatus.state);
    const words = { running: 'A load is running.', idle: 'No load is running.', never_run: 'Nothing has been loaded into this service’s database yet.' } as Record<string, string>;
    expect(await page.$eval('.ingest-state', (p) => p.textContent)).toBe(words[data.ingestStatus.state]);
    await checkPage(page, '03-overview');
  });

  let secret: string;
  const keyName = 'Journey key';

  it('creates a key with scopes; the secret is shown once, copies, and works', async () => {
    await (await byName(page, 'API keys', 'link')).click();
    await waitForHeading(page, 'API keys');
    await checkPage(page, '04-api-keys-empty');
    await (await byName(page, 'Create key', 'link')).click();
    await waitForHeading(page, 'Create key');
    await checkPage(page, '05-create-key');

    // a name is required, and said so next to the field
    await (await byName(page, 'Create key', 'button')).click();
    await page.waitForSelector('.field-error');
    await fill(page, 'Name', keyName);
    await (await byName(page, 'Read only', 'radio')).click();
    await (await byName(page, 'Create key', 'button')).click();

    const field = await byName(page, 'Secret', 'textbox');
    secret = await field.evaluate((input) => (input as HTMLInputElement).value);
    expect(secret).toMatch(/^idsk_/);
    expect(await page.$eval('main', (m) => m.textContent)).toMatch(/only time it is shown/);
    await page.browserContext().overridePermissions(base, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await (await byName(page, 'Copy', 'button')).click();
    await page.waitForFunction(() => document.body.textContent?.includes('Copied to the clipboard.'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checkPage(page, '06-key-secret');

    // a program uses it
    const me = await call(t, 'GET', '/v1/me', { key: secret });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'api_key', apiKey: { name: keyName, scopes: ['read'] } });

    await (await byName(page, 'Done', 'link')).click();
    await waitForHeading(page, 'API keys');
    await page.waitForFunction((name) => [...document.querySelectorAll('table.keys th[scope="row"]')].some((c) => c.textContent === name), {}, keyName);
    const row = await page.$eval('table.keys tbody tr', (tr) => tr.textContent ?? '');
    expect(row).toContain('Read only');
    expect(row).toContain('idsk_');
    await checkPage(page, '07-api-keys');
  });

  it('shows a key created elsewhere at once (keyAdded over graphql-ws)', async () => {
    const me = await call(t, 'GET', '/v1/me', { headers: { cookie } });
    const { services } = t.service;
    await issueApiKey({ prisma: services.prisma, bus: services.bus }, me.body.organization.id, 'Made by the CLI');
    await page.waitForFunction((name) => [...document.querySelectorAll('table.keys th[scope="row"]')].some((c) => c.textContent === name), { timeout: 10_000 }, 'Made by the CLI');
    await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.includes('Made by the CLI'));
  });

  it('rotates a key step by step: replacement, in use, old key revoked', async () => {
    const rows = await page.$$('table.keys tbody tr');
    let rotate;
    for (const row of rows) if ((await row.$eval('th', (th) => th.textContent)) === 'Made by the CLI') rotate = await row.$('::-p-aria([name="Rotate"][role="link"])');
    await rotate!.click();
    await waitForHeading(page, 'Rotate key');
    await checkPage(page, '08-rotate-key');
    await (await byName(page, 'Create replacement key', 'button')).click();
    const replacement = await (await byName(page, 'Secret', 'textbox')).evaluate((input) => (input as HTMLInputElement).value);
    // the replacement's id, never its secret, is in the address
    await page.waitForFunction(() => new URL(location.href).searchParams.get('replacement')?.startsWith('key_'));
    expect(page.url()).not.toContain(replacement);
    // the program moves to the replacement
    expect((await call(t, 'GET', '/v1/me', { key: replacement })).status).toBe(200);
    await eventually('the replacement marked as used', async () => {
      await (await byName(page, 'Check again', 'button')).click();
      return page.waitForFunction(() => !document.querySelector('.pairs dd')?.textContent?.includes('Never'), { timeout: 1000 }).catch(() => null);
    });
    await (await byName(page, 'Revoke old key', 'button')).click();
    await page.waitForFunction(() => document.body.textContent?.includes('Rotation complete.'));
    await checkPage(page, '09-rotate-key-done');
  });

  it('revokes a key after a confirmation; the program is refused from then on', async () => {
    await page.goto(dashboard('/keys'));
    await waitForHeading(page, 'API keys');
    await page.waitForSelector('table.keys');
    const rows = await page.$$('table.keys tbody tr');
    for (const row of rows) {
      if ((await row.$eval('th', (th) => th.textContent)) === keyName) await (await row.$('::-p-aria([name="Revoke"][role="button"])'))!.click();
    }
    await byName(page, 'Revoke key', 'button');
    await checkPage(page, '10-revoke-confirm');
    await (await byName(page, 'Revoke key', 'button')).click();
    // revoked keys leave the list unless asked for
    await page.waitForFunction((name) => ![...document.querySelectorAll('table.keys th[scope="row"]')].some((c) => c.textContent === name), {}, keyName);
    expect((await call(t, 'GET', '/v1/me', { key: secret })).status).toBe(401);

    await (await byName(page, 'Show revoked keys (2)', 'checkbox')).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('revoked') === 'show');
    await page.waitForFunction((name) => [...document.querySelectorAll('table.keys tr.revoked th')].some((c) => c.textContent === name), {}, keyName);
    expect(await keyRowNames(page)).toContain(keyName);
    await checkPage(page, '11-api-keys-revoked');
  });

  it('is usable at 375 px wide and by keyboard alone; each page is at most two GraphQL requests', async () => {
    const narrow = await newPage(page.browserContext(), 375);
    let graphqlRequests = 0;
    narrow.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') graphqlRequests++;
    });
    for (const [route, heading, name] of [
      ['', 'Overview', '12-overview-375'],
      ['/keys?revoked=show', 'API keys', '13-api-keys-375'],
      ['/keys/new', 'Create key', '14-create-key-375'],
    ] as const) {
      graphqlRequests = 0;
      await narrow.goto(dashboard(route));
      await waitForHeading(narrow, heading);
      await narrow.waitForNetworkIdle({ idleTime: 200 });
      expect(graphqlRequests, route).toBeGreaterThan(0);
      expect(graphqlRequests, route).toBeLessThanOrEqual(2);
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await checkPage(narrow, name);
    }

    // from the top of the keys page, Tab reaches every control, and Enter follows a link
    await narrow.goto(dashboard('/keys'));
    await waitForHeading(narrow, 'API keys');
    await narrow.waitForSelector('table.keys');
    const reached: string[] = [];
    for (let i = 0; i < 30; i++) {
      await narrow.keyboard.press('Tab');
      reached.push(
        await narrow.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return '';
          const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
          return (label ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
        }),
      );
    }
    for (const name of ['Skip to content', 'Overview', 'API keys', 'Organization', 'Sign out', 'Create key', 'Rotate', 'Revoke']) expect(reached).toContain(name);
    await narrow.focus('a.button.primary');
    await narrow.keyboard.press('Enter');
    await waitForHeading(narrow, 'Create key');
    await narrow.close();
  });

  it('tells a viewer what their role allows, and shows the service\'s 403 with what to do', async () => {
    const me = await call(t, 'GET', '/v1/me', { headers: { cookie } });
    const viewer = await newPage();
    const token = await sessionToken(t, me.body.organization.id, `viewer.${Date.now()}@example.com`, false, 'viewer');
    await viewer.browserContext().setCookie({ name: 'ids_session', value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' });
    await viewer.goto(dashboard('/keys/new'));
    await waitForHeading(viewer, 'Create key');
    await viewer.waitForFunction(() => document.body.textContent?.includes('Your role (Viewer) can see keys but not create'));
    await fill(viewer, 'Name', 'Not allowed');
    await (await byName(viewer, 'Create key', 'button')).click();
    await viewer.waitForSelector('[role="alert"]');
    const alert = await viewer.$eval('[role="alert"]', (el) => el.textContent ?? '');
    expect(alert).toContain('Not allowed (403)');
    expect(alert).toMatch(/Your role \(viewer\) cannot create and revoke API keys/);
    expect(alert).toContain('Ask an owner or admin of this organization to give you the owner or admin or developer role.');
    await checkPage(viewer, '15-role-forbidden');
  });

  it('shows a past-due organization its account, why data requests are refused (402) and where to pay', async () => {
    const { orgId } = await orgWithKey(t, 'Past due org', 'personal');
    const person = `pastdue.${Date.now()}@example.com`;
    await addMember(t.service.services.prisma, orgId, person, 'owner');
    await setPlan(t.service.services, orgId, 'personal', 'past_due');
    const pastDue = await newPage();
    const token = await sessionToken(t, orgId, person);
    await pastDue.browserContext().setCookie({ name: 'ids_session', value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' });
    await pastDue.goto(dashboard());
    // the account's own pages are free to read: the Overview is there, not a refusal
    await waitForHeading(pastDue, 'Overview');
    await pastDue.waitForSelector('[role="alert"]');
    const alert = await pastDue.$eval('[role="alert"]', (el) => el.textContent ?? '');
    expect(alert).toContain('Payment needed (402)');
    expect(alert).toContain('billing state is past_due');
    await byName(pastDue, 'Billing', 'link');
    await checkPage(pastDue, '16-payment-needed');
    // while a data read over the same GraphQL door is refused, with the same reason
    const refused = await call(t, 'POST', '/graphql', { token, body: { query: '{ entities(query: "Apple", limit: 1) { total } }' } });
    expect(refused.status).toBe(402);
    expect(JSON.stringify(refused.body)).toContain('billing state is past_due');
  });

  it('shows a 429 with when to try again', async () => {
    const { prisma, cache } = t.service.services;
    const { orgId } = await orgWithKey(t, 'Busy org', 'personal');
    const person = `busy.${Date.now()}@example.com`;
    await addMember(prisma, orgId, person, 'owner');
    const busy = await newPage();
    await busy.browserContext().setCookie({ name: 'ids_session', value: await sessionToken(t, orgId, person), domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' });
    // what the Overview's two operations cost, from the service's own header
    const costs = new Map<string, number>();
    busy.on('response', (response) => {
      if (!response.url().endsWith('/graphql')) return;
      const operation = JSON.parse(response.request().postData() ?? '{}').operationName as string;
      costs.set(operation, Number(response.headers()['service-token-count']));
    });
    await busy.goto(dashboard());
    await waitForHeading(busy, 'Overview');
    await busy.waitForSelector('.quota-grid');
    const [shell, overview] = [costs.get('Shell'), costs.get('OverviewPage')];
    // the account's pages are the platform class, one unit per operation
    expect([shell, overview]).toEqual([1, 1]);
    // a minute window that holds one of the two, never both: loading the page again finds it full
    await prisma.orgQuota.create({ data: { orgId, meterClass: 'platform', period: 'minute', limit: 1 } });
    cache.forgetOrg(orgId);
    await busy.reload();
    await busy.waitForSelector('[role="alert"]');
    const alert = await busy.$eval('[role="alert"]', (el) => el.textContent ?? '');
    expect(alert).toContain('Too many requests (429)');
    expect(alert).toContain('The minute window of platform requests');
    expect(alert).toMatch(/Try again in \d+ seconds?\./);
    await byName(busy, 'Try again', 'button');
    await checkPage(busy, '17-rate-limited');
  });

  it('switches organization from the header; every page then shows the other one, with the role held there', async () => {
    const second = await orgWithKey(t, 'Second org');
    await addMember(t.service.services.prisma, second.orgId, email, 'viewer');
    const own = (await call(t, 'GET', '/v1/me', { headers: { cookie } })).body.organization.id as string;
    await page.goto(dashboard());
    await waitForHeading(page, 'Overview');
    const switcher = await byName(page, 'Organization', 'combobox');
    expect(await switcher.$$eval('option', (options) => options.map((o) => o.textContent))).toContain('Second org (Viewer)');
    await switcher.select(second.orgId);
    await page.waitForFunction(() => document.querySelector('main')?.textContent?.includes('Second org'));
    expect((await call(t, 'GET', '/v1/me', { headers: { cookie } })).body).toMatchObject({ organization: { id: second.orgId }, role: 'viewer' });
    await (await byName(page, 'API keys', 'link')).click();
    await waitForHeading(page, 'API keys');
    await page.waitForFunction(() => document.body.textContent?.includes('Your role (Viewer) can see keys'));
    await page.waitForFunction(() => document.querySelector('table.keys th[scope="row"]')?.textContent === 'test key');
    await checkPage(page, '18-switched-organization');
    await (await byName(page, 'Organization', 'combobox')).select(own);
    await page.waitForFunction(() => !document.body.textContent?.includes('Your role (Viewer)'));
  });

  it('signs in by itself from the one-time link, which then leaves the address bar', async () => {
    const link = await createSignInLink(t.service.services.prisma, base, email);
    const fresh = await newPage();
    await fresh.goto(link.url);
    await waitForHeading(fresh, 'Overview');
    expect(fresh.url()).toBe(dashboard());
    expect(await fresh.$eval('header', (h) => h.textContent)).toContain(email);
    // used once: the same link again is refused, with what to do
    const again = await newPage();
    await again.goto(link.url);
    await again.waitForSelector('[role="alert"]');
    expect(await again.$eval('[role="alert"]', (el) => el.textContent)).toMatch(/not valid: it was used/);
    expect(new URL(again.url()).searchParams.has('token')).toBe(false);
    await checkPage(again, '19-sign-in-link-used');
  });

  it('signs out: the session is gone, here and for the service', async () => {
    await (await byName(page, 'Sign out', 'button')).click();
    await waitForHeading(page, 'Sign in');
    expect((await page.browserContext().cookies()).find((c) => c.name === 'ids_session')).toBeUndefined();
    // the old cookie is refused by the service itself, not only forgotten by the browser
    expect((await call(t, 'GET', '/v1/me', { headers: { cookie } })).status).toBe(401);
    await page.goto(dashboard('/keys'));
    await waitForHeading(page, 'Sign in');
  });
});
