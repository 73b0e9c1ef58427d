// Billing in a real browser against a real service whose payment processor is our Stripe-speaking
// stand-in (test/support/stripeServer.ts): an owner tops up $25 in the processor's own form (its
// script, served for https://js.stripe.com, under the dashboard's CSP), the processor confirms and
// its signed notice arrives, and the credit and the ledger entry appear without a reload; the
// ledger's type filter narrows it from the address; a hard cap is saved; the quote calculator
// estimates; the processor's checkout and portal open; a developer sees every control disabled and
// why; and an organization refused 402 for data still opens Billing and pays, without a card form
// (no publishable key for live mode). Every page is screenshot and checked by axe-core.
import type { Browser, Page } from 'puppeteer-core';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adjustCredits } from '../../resolvers/billing/account.ts';
import { starterGrant } from '../../resolvers/billing/catalog.ts';
import { topUpTerms } from '../../resolvers/billing/processor.ts';
import { call, eventually, freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { startStripeServer, type StripeServer } from '../support/stripeServer.ts';
import { byName, checkPage, ensureDashboardBuilt, fill, launchBrowser, openPage, screenshot, waitForHeading, type PageWatch } from './browser.ts';

const webhookSecret = 'whsec_dashboard';
const publishableKey = 'pk_test_dashboard_billing';

let stripe: StripeServer;
let t: TestService;
let browser: Browser;
let base: string;
const watches: PageWatch[] = [];
/** what the pages asked of the processor's origin */
const processorRequests: string[] = [];

// The processor's browser library as far as the dashboard uses it: a form mounted in the page,
// and a confirmation that leaves the payment to the processor's own notice.
const processorStub = `
window.Stripe = function (key) {
  var seen = (window.__processor = { key: key, clientSecret: null, confirmed: 0 });
  return {
    elements: function (options) {
      seen.clientSecret = options.clientSecret;
      return {
        create: function (type) {
          var node = null;
          return {
            mount: function (target) {
              node = document.createElement('p');
              node.className = 'test-processor-form';
              node.textContent = 'Card details (the processor\\'s ' + type + ' form)';
              target.appendChild(node);
            },
            destroy: function () { if (node) node.remove(); },
          };
        },
      };
    },
    confirmPayment: function () { seen.confirmed++; return Promise.resolve({ paymentIntent: { status: 'processing' } }); },
    confirmSetup: function () { seen.confirmed++; return Promise.resolve({ setupIntent: { status: 'processing' } }); },
  };
};`;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  [stripe] = await Promise.all([startStripeServer({ prices: { price_personal: { unit_amount: 2900, currency: 'usd' }, price_team: { unit_amount: 19900, currency: 'usd' } } }), ensureDashboardBuilt()]);
  [t, browser] = await Promise.all([
    startTestService(
      {
        publicUrl: base,
        // a publishable key for test mode only: a live-mode organization has no card form
        stripe: { secretKey: 'sk_test_local', webhookSecret, apiBase: stripe.url, publishableKeyTest: publishableKey, prices: { personal: 'price_personal', team: 'price_team' } },
        billing: { enforced: true, settleMs: 200 },
      },
      { port },
    ),
    launchBrowser(),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await stripe?.close();
});
afterEach(() => {
  const problems = watches.flatMap((w) => w.problems.splice(0));
  expect(problems).toEqual([]);
});

async function newPage(token: string, width = 1200): Promise<Page> {
  const page = await openPage(browser, watches, { width, session: token });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.url().startsWith('https://js.stripe.com/')) {
      processorRequests.push(request.url());
      void request.respond({ status: 200, contentType: 'application/javascript', body: processorStub });
    } else void request.continue();
  });
  return page;
}

const dashboard = (route = '') => `${base}/dashboard${route}`;
/** Cents as the page writes dollars (the browser runs in en-US). */
const formatMoney = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The processor confirms the payment and its signed notices reach the service, as Stripe's would. */
async function processorConfirms(paymentIntentId: string) {
  const mark = stripe.events.length;
  stripe.confirmPaymentIntent(paymentIntentId, 'pm_card_visa');
  await deliverSince(mark);
}

async function deliverSince(mark: number) {
  for (const event of stripe.events.slice(mark)) {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const answer = await call(t, 'POST', '/v1/billing/webhooks/processor', { rawBody: payload, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
}

const balance = (page: Page) => page.$eval('.credit-balance', (el) => el.textContent ?? '');
const ledgerRows = (page: Page) =>
  page.$$eval('table.ledger tbody tr', (rows) => rows.map((r) => ({ type: r.querySelector('td[data-label="Type"]')?.textContent ?? '', reference: r.querySelector('td[data-label="Reference"]')?.textContent ?? '' })));
/** The last payment intent the service started for an organization. */
const lastPaymentIntent = (orgId: string) => [...stripe.state.paymentIntents.values()].filter((pi) => pi.metadata?.orgId === orgId).at(-1)!.id as string;

// a browser on a busy 2-core machine: more room than an API call needs
describe('Billing in the dashboard', { timeout: 60_000 }, () => {
  let owner: { orgId: string; key: string; token: string };
  let page: Page;

  beforeAll(async () => {
    const org = await orgWithKey(t, 'Billing org');
    owner = { ...org, token: await sessionToken(t, org.orgId, `billing.owner.${Date.now()}@example.com`) };
  });

  it('tops up $25 in the processor\'s form; the credit and the ledger entry appear when the processor confirms, without a reload', async () => {
    page = await newPage(owner.token);
    await page.goto(dashboard('/keys'));
    await waitForHeading(page, 'API keys');
    await (await byName(page, 'Billing', 'link')).click();
    await waitForHeading(page, 'Billing');
    await byName(page, 'Credits', 'heading');
    expect(await balance(page)).toBe('$0.00');
    await checkPage(page, 'billing-01');

    await (await byName(page, 'Top up', 'button')).click();
    await fill(page, 'Amount (USD)', '25');
    await (await byName(page, 'Continue', 'button')).click();
    // the charge the service quoted: the credit plus the processor's fee
    const terms = topUpTerms(2500);
    const pay = await byName(page, `Pay ${formatMoney(terms.chargedCents)}`, 'button');
    // the processor's own form, from its own origin, with this payment's client secret
    await page.waitForSelector('.test-processor-form');
    expect(processorRequests).toContain('https://js.stripe.com/v3/');
    const pi = lastPaymentIntent(owner.orgId);
    expect(await page.evaluate(() => (window as unknown as { __processor: { key: string; clientSecret: string } }).__processor)).toMatchObject({
      key: publishableKey,
      clientSecret: expect.stringMatching(new RegExp(`^${pi}_secret_`)),
    });
    await checkPage(page, 'billing-02-top-up');

    // no reload from here on: this mark would be gone
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await pay.click();
    await page.waitForFunction(() => document.body.textContent?.includes('Waiting for the payment processor to confirm'));
    expect(await balance(page)).toBe('$0.00');

    await processorConfirms(pi);
    await page.waitForFunction((expected) => document.querySelector('.credit-balance')?.textContent === expected, { timeout: 15_000 }, formatMoney(2500));
    await page.waitForFunction(() => document.querySelector('[role="status"].success')?.textContent?.includes('$25.00 of credit added'));
    await page.waitForFunction((ref) => [...document.querySelectorAll('table.ledger td[data-label="Reference"]')].some((td) => td.textContent === ref), {}, pi);
    expect(await ledgerRows(page)).toContainEqual({ type: 'Top-up', reference: pi });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // the payment's form has done its work
    await page.waitForFunction(() => !document.querySelector('.test-processor-form'));
    await checkPage(page, 'billing-03-credit-added');
  });

  it('narrows the ledger by type, and the address carries the filter', async () => {
    await adjustCredits(t.service.services, owner.orgId, 300, 'goodwill');
    await page.goto(dashboard('/billing'));
    await waitForHeading(page, 'Billing');
    await page.waitForFunction(() => document.querySelectorAll('table.ledger tbody tr').length === 2);
    expect((await ledgerRows(page)).map((r) => r.type)).toEqual(['Adjustment', 'Top-up']);

    await (await byName(page, 'Type', 'combobox')).select('topup');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('type') === 'topup');
    await page.waitForFunction(() => document.querySelectorAll('table.ledger tbody tr').length === 1);
    expect((await ledgerRows(page)).map((r) => r.type)).toEqual(['Top-up']);

    // the address alone gives the same view
    await page.goto(dashboard('/billing?type=adjustment'));
    await waitForHeading(page, 'Billing');
    await page.waitForSelector('table.ledger tbody tr');
    expect((await ledgerRows(page)).map((r) => r.type)).toEqual(['Adjustment']);
    expect(await (await byName(page, 'Type', 'combobox')).evaluate((s) => (s as HTMLSelectElement).value)).toBe('adjustment');
    await screenshot(page, 'billing-04-ledger-filtered');
  });

  it('saves a hard cap, shown in dollars', async () => {
    await fill(page, 'Hard cap (USD)', '50');
    await (await byName(page, 'Save budget', 'button')).click();
    await page.waitForFunction(() => document.body.textContent?.includes('Budget saved.'));
    await page.waitForFunction(() => document.body.textContent?.includes('of a $50.00 hard cap'));
    expect((await call(t, 'GET', '/v1/billing', { key: owner.key })).body.budget).toMatchObject({ hardCapCents: 5000, softCapCents: null, approvalThresholdCents: null });
    expect(await (await byName(page, 'Hard cap (USD)', 'textbox')).evaluate((i) => (i as HTMLInputElement).value)).toBe('50.00');
  });

  it('adds a card in the processor\'s form, listed when the processor confirms it, and removes it', async () => {
    await (await byName(page, 'Add payment method', 'button')).click();
    const save = await byName(page, 'Save card', 'button');
    await page.waitForSelector('.test-processor-form');
    const setup = [...stripe.state.setupIntents.values()].filter((si) => si.metadata?.orgId === owner.orgId).at(-1)!;
    expect(await page.evaluate(() => (window as unknown as { __processor: { clientSecret: string } }).__processor.clientSecret)).toBe(setup.client_secret);
    await save.click();
    await page.waitForFunction(() => document.body.textContent?.includes('Waiting for the payment processor to confirm the card'));

    const mark = stripe.events.length;
    const card = stripe.succeedSetupIntent(setup.id, 'pm_card_visa').payment_method as string;
    await deliverSince(mark);
    const saved = (await call(t, 'GET', '/v1/billing/payment-methods', { key: owner.key })).body.data[0];
    expect(saved).toMatchObject({ id: card, isPrimary: true });
    const name = `${saved.brand.charAt(0).toUpperCase()}${saved.brand.slice(1)} ending ${saved.last4}`;
    await page.waitForFunction((expected) => document.querySelector('table.methods th[scope="row"]')?.textContent === expected, { timeout: 15_000 }, name);
    expect(await page.$eval('table.methods td[data-label="Primary"]', (td) => td.textContent)).toBe('Primary');
    await page.waitForFunction(() => document.querySelector('[role="status"].success')?.textContent?.includes('confirmed the card'));
    expect(await page.$('.test-processor-form')).toBeNull();
    await checkPage(page, 'billing-05-payment-method');

    await (await byName(page, `Remove ${name}`, 'button')).click();
    await (await byName(page, 'Remove card', 'button')).click();
    await page.waitForFunction(() => !document.querySelector('table.methods'));
    expect((await call(t, 'GET', '/v1/billing/payment-methods', { key: owner.key })).body.data).toEqual([]);
  });

  it('estimates calls with the quote calculator, with the 402 gates they would meet', async () => {
    await (await byName(page, 'Meter class or workflow', 'combobox')).select('data_read');
    await fill(page, 'Calls', '1000');
    await (await byName(page, 'Estimate', 'button')).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('quote') === 'data_read' && new URL(location.href).searchParams.get('calls') === '1000');
    const small = await call(t, 'POST', '/v1/billing/quote', { key: owner.key, body: { meterClass: 'data_read', calls: 1000 } });
    expect(small.body.allowed).toBe(true);
    await page.waitForFunction((expected) => document.querySelector('.quote-estimate')?.textContent === expected, {}, formatMoney(small.body.estimatedCents));
    await page.waitForFunction(() => document.body.textContent?.includes('No 402 gate'));

    // past the credit and the hard cap: the service names the gate, and so does the page
    await fill(page, 'Calls', '40000');
    await (await byName(page, 'Estimate', 'button')).click();
    const large = await call(t, 'POST', '/v1/billing/quote', { key: owner.key, body: { meterClass: 'data_read', calls: 40_000 } });
    expect(large.body.allowed).toBe(false);
    await page.waitForFunction((expected) => document.querySelector('.quote-estimate')?.textContent === expected, {}, formatMoney(large.body.estimatedCents));
    const gates = await page.$$eval('.gates code', (codes) => codes.map((c) => c.textContent));
    expect(gates).toEqual(large.body.gates.map((g: { code: string }) => g.code));
    await checkPage(page, 'billing-06-quote');
  });

  it('opens the processor\'s checkout for "Upgrade" and its portal for "Manage billing"', async () => {
    await page.goto(dashboard('/billing'));
    await waitForHeading(page, 'Billing');
    await Promise.all([page.waitForNavigation(), (await byName(page, 'Upgrade', 'button')).click()]);
    expect(page.url()).toMatch(new RegExp(`^${stripe.url}/checkout/cs_`));
    const session = [...stripe.state.checkoutSessions.values()].at(-1)!;
    expect(session).toMatchObject({ success_url: dashboard('/billing?checkout=done'), metadata: { orgId: owner.orgId, planKey: 'personal' } });

    await page.goto(dashboard('/billing?checkout=done'));
    await waitForHeading(page, 'Billing');
    await page.waitForFunction(() => document.body.textContent?.includes('Checkout finished.'));
    await Promise.all([page.waitForNavigation(), (await byName(page, 'Manage billing', 'button')).click()]);
    expect(page.url()).toMatch(new RegExp(`^${stripe.url}/billing_portal/bps_`));
  });

  it('is usable at 375 px, with the page\'s data in two GraphQL requests', async () => {
    const narrow = await newPage(owner.token, 375);
    const operations: string[] = [];
    narrow.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') operations.push(JSON.parse(request.postData() ?? '{}').operationName);
    });
    await narrow.goto(dashboard('/billing'));
    await waitForHeading(narrow, 'Billing');
    await narrow.waitForSelector('table.ledger');
    await narrow.waitForNetworkIdle({ idleTime: 200 });
    // besides the header's own (Shell): the account, and the ledger's page
    expect(operations.filter((o) => o !== 'Shell').sort()).toEqual(['BillingLedger', 'BillingPage']);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await checkPage(narrow, 'billing-07-375');
    await narrow.close();
  });

  it('shows a developer and a viewer every control disabled, and why', async () => {
    for (const role of ['developer', 'viewer'] as const) {
      const token = await sessionToken(t, owner.orgId, `billing.${role}.${Date.now()}@example.com`, false, role);
      const other = await newPage(token);
      await other.goto(dashboard('/billing'));
      await waitForHeading(other, 'Billing');
      await other.waitForSelector('table.ledger');
      const note = await other.$eval('#billing-role-note', (el) => el.textContent ?? '');
      expect(note).toContain(`Your role (${role === 'developer' ? 'Developer' : 'Viewer'}) can see billing but not change it`);
      for (const name of ['Top up', 'Upgrade', 'Manage billing', 'Save budget', 'Save auto-top-up', 'Add payment method']) {
        const button = await byName(other, name, 'button');
        expect(await button.evaluate((b) => (b as HTMLButtonElement).disabled), name).toBe(true);
        expect(await button.evaluate((b) => b.getAttribute('aria-describedby')), name).toBe('billing-role-note');
      }
      // what is only read stays usable: the balance, the ledger, its filter, the quote
      expect(await balance(other)).toBe(formatMoney(2800));
      expect(await (await byName(other, 'Estimate', 'button')).evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(false);
      if (role === 'developer') await checkPage(other, 'billing-08-developer');
      await other.close();
    }
  });

  it('lets an organization refused 402 for data open Billing and top up, without a card form; data calls work again', async () => {
    const org = await orgWithKey(t, 'Grant used up org');
    const token = await sessionToken(t, org.orgId, `billing.refused.${Date.now()}@example.com`);
    const { prisma } = t.service.services;
    // live mode, for which this service has no publishable key; the starter grant used up, no credit
    await prisma.organization.update({ where: { id: org.orgId }, data: { livemode: true } });
    expect((await call(t, 'GET', '/v1/billing', { key: org.key })).status).toBe(200);
    await prisma.billingAccount.update({ where: { orgId: org.orgId }, data: { grantCallsUsed: starterGrant.calls } });
    t.service.services.cache.forgetOrg(org.orgId);
    const refused = await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('billing_required');

    const refusedPage = await newPage(token);
    const before = processorRequests.length;
    await refusedPage.goto(dashboard('/billing'));
    await waitForHeading(refusedPage, 'Billing');
    const notice = await refusedPage.waitForSelector('.billing-refused');
    expect(await notice!.evaluate((n) => n.textContent)).toContain('The starter grant is used up');
    await checkPage(refusedPage, 'billing-09-payment-needed');

    await (await byName(refusedPage, 'Top up', 'button')).click();
    await fill(refusedPage, 'Amount (USD)', '25');
    await (await byName(refusedPage, 'Continue', 'button')).click();
    await refusedPage.waitForFunction(() => document.body.textContent?.includes('once the processor confirms it'));
    await refusedPage.waitForFunction(() => document.body.textContent?.includes('Waiting for the payment processor to confirm'));
    // no publishable key: no card form, and nothing asked of the processor's origin
    expect(await refusedPage.$('.test-processor-form')).toBeNull();
    expect(processorRequests.length).toBe(before);
    await screenshot(refusedPage, 'billing-10-top-up-without-form');

    await processorConfirms(lastPaymentIntent(org.orgId));
    await refusedPage.waitForFunction((expected) => document.querySelector('.credit-balance')?.textContent === expected, { timeout: 15_000 }, formatMoney(2500));
    await refusedPage.waitForFunction(() => !document.querySelector('.billing-refused'));
    await eventually('data calls served again', async () => (await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key })).status !== 402);
    const served = await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key });
    expect(served.body.code).toBe('entity_not_found');
    await refusedPage.close();
  });
});
