// The Monitors and Operator sections in a real browser against a real service. An owner turns a
// sentence into a monitor: its compiled query, what it could not place, a preview of the read,
// an email destination, then a webhook one; a filing ingested afterwards is found by "Check now";
// the monitor is listed and deleted after a confirmation. An operator finds an organization by
// name and adjusts its credit with a reason; anyone else has no "Operator" link, and is refused
// at its address with the service's 403. Every page is screenshot and checked by axe-core.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { createOperator } from '../../resolvers/operators.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { startSmtpServer, type SmtpServer } from '../support/smtpServer.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';
import { byName, checkPage, ensureDashboardBuilt, fill, launchBrowser, openPage, waitForHeading, type PageWatch } from './browser.ts';

let smtp: SmtpServer;
let t: TestService;
let browser: Browser;
let base: string;
const receiver = new WebhookReceiver();
const watches: PageWatch[] = [];
const run = Date.now().toString(36);

/** A company only this suite files for: suites share one database in server mode. */
const company = { cik: 9100211, name: 'Quillfeather Robotics Inc.' };
const accession = (n: number) => `${String(company.cik).padStart(10, '0')}-28-${String(n).padStart(6, '0')}`;
let indexCount = 0;
async function ingestFilings(filings: { form: string; date: string; accession: string }[]) {
  const lines = filings.map((f) => `${company.cik}|${company.name}|${f.form}|${f.date}|edgar/data/${company.cik}/${f.accession}.txt`);
  const text = ['Description: Master Index of EDGAR Dissemination Feed', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  await runIngest(t.service.services, fixtureSource({ [`index/daily/master.2028${String(++indexCount).padStart(4, '0')}.idx`]: { text } }));
}

let org: Awaited<ReturnType<typeof orgWithKey>>;
const orgName = `Monitor Journey ${run}`;
let ownerToken: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  [smtp] = await Promise.all([startSmtpServer(), ensureDashboardBuilt(), receiver.start()]);
  // one after the other: the service seeds its database in a transaction with a deadline
  t = await startTestService({ email: { smtpUrl: smtp.url, from: 'IDS <monitors@localhost>' }, publicUrl: base }, { port });
  browser = await launchBrowser();
  await ingestFilings([
    { form: '8-K', date: '2028-01-03', accession: accession(1) },
    { form: '8-K', date: '2028-01-10', accession: accession(2) },
    { form: '10-Q', date: '2028-01-11', accession: accession(3) },
  ]);
  org = await orgWithKey(t, orgName);
  ownerToken = await sessionToken(t, org.orgId, `owner.${run}@example.com`);
  const endpoint = await call(t, 'POST', '/v1/webhook_endpoints', { key: org.key, body: { url: receiver.url, eventTypes: ['api_key.created'] } });
  expect(endpoint.status).toBe(200);
  receiver.secrets.push(endpoint.body.secret);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
  await receiver.close();
});
afterEach(() => {
  // a CSP violation or a script error anywhere fails the test that caused it
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

const dashboard = (route = '') => `${base}/dashboard${route}`;

/** A page of a new browser context signed in with this session token. */
const signedIn = (token: string, width = 1200) => openPage(browser, watches, { width, session: token });

const mainText = (page: Page) => page.$eval('main', (m) => m.textContent ?? '');
const waitForText = (page: Page, text: string, timeout = 15_000) => page.waitForFunction((wanted) => document.querySelector('main')?.textContent?.includes(wanted), { timeout }, text);
const rowHeads = (page: Page, table: string) => page.$$eval(`table.${table} tbody th[scope="row"]`, (cells) => cells.map((c) => c.textContent?.trim() ?? ''));

/** Replaces the sentence, as a person selects it all and types another. */
async function typeSentence(page: Page, sentence: string) {
  const field = await byName(page, 'Type a sentence', 'textbox');
  await field.click();
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await field.type(sentence);
  await page.waitForFunction((q) => new URL(location.href).searchParams.get('q') === q, { timeout: 10_000 }, sentence);
}

// a browser and an ingest on a busy 2-core machine: more room than an API call needs
describe('Monitors', { timeout: 90_000 }, () => {
  let page: Page;
  const sentence = 'Alert me when Quillfeather Robotics files an 8-K';
  let monitorUrl: string;

  it('turns a sentence into a query, says what it could not place, and previews the read', async () => {
    page = await signedIn(ownerToken);
    await page.goto(dashboard());
    await waitForHeading(page, 'Overview');
    await (await byName(page, 'Monitors', 'link')).click();
    await waitForHeading(page, 'Monitors');
    await waitForText(page, 'This organization has no monitors yet.');
    await checkPage(page, 'monitors-01-empty');

    await (await byName(page, 'New monitor', 'link')).click();
    await waitForHeading(page, 'New monitor');
    // a company the service does not know is left out, and said so
    await typeSentence(page, 'Alert me when Foobarco files an 8-K');
    await waitForText(page, 'Could not place these words');
    expect(await page.$$eval('ul.unparsed li', (items) => items.map((i) => i.textContent))).toEqual(['“Foobarco”']);

    await typeSentence(page, sentence);
    await waitForText(page, 'Every part of the sentence was placed.');
    const spec = await page.$eval('dl.monitor-spec', (dl) => dl.textContent ?? '');
    expect(spec).toContain('/v1/filings');
    expect(spec).toContain('form=8-K');
    expect(spec).toContain(`cik=${String(company.cik).padStart(10, '0')}`);
    // the preview is the read as it lists records now: the two 8-Ks, not the 10-Q
    await byName(page, 'Preview', 'heading');
    await page.waitForSelector('table.matches tbody tr');
    const previewed = await page.$$eval('table.matches tbody td a, table.matches tbody td code', (cells) => cells.map((c) => c.textContent));
    expect(previewed.sort()).toEqual([accession(1), accession(2)]);
    expect(await rowHeads(page, 'matches')).toEqual([company.name, company.name]);
    // the draft is in the address: opened elsewhere, it compiles the same
    expect(new URL(page.url()).searchParams.get('q')).toBe(sentence);
    await checkPage(page, 'monitors-02-new');
  });

  it('saves it with an email destination, changes that to a webhook, and finds a new filing with "Check now"', async () => {
    await (await byName(page, 'Email', 'radio')).click();
    await (await byName(page, 'Save monitor', 'button')).click();
    // the address is required, and said so
    await waitForText(page, 'Type the address the digests go to.');
    await fill(page, 'Email address', 'analyst@example.com');
    await (await byName(page, 'Save monitor', 'button')).click();
    await waitForHeading(page, sentence);
    monitorUrl = page.url();
    expect(new URL(monitorUrl).pathname).toMatch(/^\/dashboard\/monitors\/mon_/);
    await waitForText(page, 'Email to analyst@example.com');
    await waitForText(page, '0 matches waiting since the monitor was created.');
    await checkPage(page, 'monitors-03-monitor');

    await (await byName(page, 'Webhook endpoint', 'radio')).click();
    const select = await byName(page, 'Webhook endpoint', 'combobox');
    expect(await select.$$eval('option', (options) => options.map((o) => o.textContent))).toEqual([receiver.url]);
    await (await byName(page, 'Change destination', 'button')).click();
    await waitForText(page, 'Destination changed.');
    await waitForText(page, `Webhook ${receiver.url}`);

    // a filing ingested after the monitor was saved is a match; the 10-Q is not
    await ingestFilings([
      { form: '8-K', date: '2028-02-01', accession: accession(11) },
      { form: '10-Q', date: '2028-02-01', accession: accession(12) },
    ]);
    await (await byName(page, 'Check now', 'button')).click();
    await waitForText(page, '1 new match since the monitor was created.');
    expect(await page.$$eval('table.matches tbody td a, table.matches tbody td code', (cells) => cells.map((c) => c.textContent))).toEqual([accession(11)]);
    // the check moved on: nothing waits any more
    await waitForText(page, '0 matches waiting since');
    await checkPage(page, 'monitors-04-checked');

    // and the new destination received it by itself
    await t.service.webhookWorker!.drain();
    const delivery = await eventually('the monitor.matched delivery', () => receiver.received.find((d) => d.body.type === 'monitor.matched'), 15_000);
    expect(delivery.verifiedWith).toHaveLength(1);
    expect(delivery.body.data.items.map((i: { accessionNumber: string }) => i.accessionNumber)).toEqual([accession(11)]);
  });

  it('lists the monitor with what it watches, its destination and its checks; at 375 px too', async () => {
    await (await byName(page, 'Monitors', 'link')).click();
    await waitForHeading(page, 'Monitors');
    await page.waitForSelector('table.monitors');
    expect(await rowHeads(page, 'monitors')).toEqual([sentence]);
    const row = await page.$eval('table.monitors tbody tr', (tr) => tr.textContent ?? '');
    expect(row).toContain('/v1/filings');
    expect(row).toContain(`Webhook ${receiver.url}`);
    expect(row).not.toContain('Never');
    await checkPage(page, 'monitors-05-list');

    const narrow = await signedIn(ownerToken, 375);
    for (const [route, heading, name] of [
      ['/monitors', 'Monitors', 'monitors-06-list-375'],
      [`/monitors/new?q=${encodeURIComponent(sentence)}`, 'New monitor', 'monitors-07-new-375'],
    ] as const) {
      await narrow.goto(dashboard(route));
      await waitForHeading(narrow, heading);
      await narrow.waitForSelector(heading === 'Monitors' ? 'table.monitors' : 'table.matches');
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await checkPage(narrow, name);
    }
    await narrow.close();
  });

  it('tells a viewer they cannot save monitors, and deletes one after a confirmation', async () => {
    const viewer = await signedIn(await sessionToken(t, org.orgId, `viewer.${run}@example.com`, false, 'viewer'));
    await viewer.goto(dashboard(`/monitors/new?q=${encodeURIComponent(sentence)}`));
    await waitForHeading(viewer, 'New monitor');
    await waitForText(viewer, 'Your role (Viewer) can see monitors');
    expect(await (await byName(viewer, 'Save monitor', 'button')).evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await viewer.close();

    await page.goto(monitorUrl);
    await waitForHeading(page, sentence);
    await (await byName(page, 'Delete', 'button')).click();
    await byName(page, 'Delete monitor', 'button');
    await checkPage(page, 'monitors-08-delete-confirm');
    await (await byName(page, 'Delete monitor', 'button')).click();
    await waitForText(page, 'this monitor no longer watches');
    expect(await (await byName(page, 'Check now', 'button')).evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    const id = new URL(monitorUrl).pathname.split('/').pop()!;
    expect((await call(t, 'GET', `/v1/monitors/${id}`, { key: org.key })).body.is_active).toBe(false);
  });
});

describe('Operator', { timeout: 90_000 }, () => {
  let operator: Page;

  it('is linked for an operator, who finds an organization by name and adjusts its credit with a reason', async () => {
    const home = await orgWithKey(t, `Operators Home ${run}`);
    const email = `operator.${run}@example.com`;
    const token = await sessionToken(t, home.orgId, email);
    await createOperator(t.service.services.prisma, email);
    operator = await signedIn(token);
    await operator.goto(dashboard());
    await waitForHeading(operator, 'Overview');
    await (await byName(operator, 'Operator', 'link')).click();
    await waitForHeading(operator, 'Operator');
    await operator.waitForSelector('table.operator-orgs');
    await checkPage(operator, 'operator-01-organizations');

    await (await byName(operator, 'Find an organization', 'searchbox')).type(orgName);
    await (await byName(operator, 'Search', 'button')).click();
    await operator.waitForFunction((q) => new URL(location.href).searchParams.get('q') === q, {}, orgName);
    await operator.waitForFunction((name) => [...document.querySelectorAll('table.operator-orgs tbody th a')].map((a) => a.textContent).join('|') === name, {}, orgName);
    await (await byName(operator, orgName, 'link')).click();
    await waitForHeading(operator, orgName);
    expect(await operator.$eval('dd.credit-balance', (dd) => dd.textContent)).toBe('$0.00');
    await waitForText(operator, `owner.${run}@example.com`);
    await checkPage(operator, 'operator-02-organization');

    // a reason is required: it goes to the organization's audit log
    await fill(operator, 'Amount in dollars', '25');
    await (await byName(operator, 'Adjust credits', 'button')).click();
    await waitForText(operator, 'Say why');
    await fill(operator, 'Reason', 'Goodwill credit after the outage');
    await (await byName(operator, 'Adjust credits', 'button')).click();
    await waitForText(operator, 'the balance is now $25.00');
    await operator.waitForFunction(() => document.querySelector('dd.credit-balance')?.textContent === '$25.00');
    // the organization's audit log names the operator and the reason
    const audit = await t.service.services.prisma.auditEntry.findFirst({ where: { orgId: org.orgId, actorType: 'operator' }, orderBy: { createdAt: 'desc' } });
    expect(audit?.actorEmail).toBe(email);
    expect(JSON.stringify(audit?.details)).toContain('Goodwill credit after the outage');
    await checkPage(operator, 'operator-03-credit-adjusted');

    // suspended with a reason, its owner is refused; unsuspended, let in again
    await fill(operator, 'Reason for suspending', 'Chargeback under review');
    await (await byName(operator, 'Suspend', 'button')).click();
    await waitForText(operator, 'Suspended for: Chargeback under review');
    expect((await call(t, 'GET', '/v1/limits', { key: org.key })).body.code).toBe('organization_suspended');
    await (await byName(operator, 'Unsuspend', 'button')).click();
    await byName(operator, 'Reason for suspending', 'textbox');
    expect((await call(t, 'GET', '/v1/limits', { key: org.key })).status).toBe(200);
  });

  it('lists the ingest runs and failures, and is usable at 375 px', async () => {
    await (await byName(operator, 'Ingest runs', 'link')).click();
    await waitForHeading(operator, 'Ingest runs');
    await operator.waitForSelector('table tbody tr');
    expect(await mainText(operator)).toContain('test fixtures');
    await checkPage(operator, 'operator-04-ingest-runs');
    await (await byName(operator, 'Ingest failures', 'link')).click();
    await waitForHeading(operator, 'Ingest failures');
    await operator.waitForFunction(() => document.querySelector('table, .state-empty'));
    await checkPage(operator, 'operator-05-ingest-failures');

    const narrow = await signedIn(await operator.browserContext().cookies().then((c) => c.find((x) => x.name === 'ids_session')!.value), 375);
    await narrow.goto(dashboard(`/operator?q=${encodeURIComponent(orgName)}`));
    await waitForHeading(narrow, 'Operator');
    await narrow.waitForSelector('table.operator-orgs');
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(narrow, 'operator-06-organizations-375');
    await narrow.close();
  });

  it('is neither linked nor shown to anyone else: the address answers with the service\'s refusal', async () => {
    const owner = await signedIn(ownerToken);
    await owner.goto(dashboard());
    await waitForHeading(owner, 'Overview');
    const nav = await owner.$$eval('nav[aria-label="Main"] a', (links) => links.map((a) => a.textContent));
    expect(nav).toContain('Monitors');
    expect(nav).not.toContain('Operator');
    await owner.goto(dashboard('/operator'));
    await waitForHeading(owner, 'Operator');
    await owner.waitForSelector('[role="alert"]');
    const alert = await owner.$eval('[role="alert"]', (el) => el.textContent ?? '');
    expect(alert).toContain('Not allowed (403)');
    expect(alert).toContain('This action is for the service\'s operators.');
    expect(alert).toContain('Only the service\'s operators (made with `ids operators:create`) can open these pages');
    await checkPage(owner, 'operator-07-refused');
  });
});
