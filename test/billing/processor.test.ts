// The money path through the payment processor, as a paying organization sees it: top-ups and
// their discount and fee, credit only once the processor confirms (once), refunds within the
// window and never of the fee, the ledger invariant, an outage of the processor, the signed
// webhook receiver (idempotent, out-of-order safe), subscriptions through checkout, saved payment
// methods, pay-as-you-go with auto-top-up, and other organizations' ids. The processor is the
// local Stripe stand-in (test/support/stripeServer.ts) driven by the real SDK; its events are
// delivered here, signed the way Stripe signs them.
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustCredits } from '../../resolvers/billing/account.ts';
import { startStripeServer, type StripeServer } from '../support/stripeServer.ts';
import { call, eventually, expectEnvelope, orgWithKey, sessionToken, startTestService, type Answer, type TestService } from '../harness.ts';

const webhookSecret = 'whsec_test';
const webhookPath = '/v1/billing/webhooks/processor';
const prices = { price_personal: { unit_amount: 2900, currency: 'usd' }, price_team: { unit_amount: 19900, currency: 'usd' } };
/** a data_read call: 200 millicents */
const callMillicents = 200;
const millicents = (cents: number) => cents * 1000;

interface Env {
  server: StripeServer;
  t: TestService;
}

/** One Stripe stand-in and one service pointed at it, for a describe block. */
function withProcessor(): Env {
  const env = {} as Env;
  beforeAll(async () => {
    env.server = await startStripeServer({ prices });
    env.t = await startTestService({
      stripe: { secretKey: 'sk_test_local', webhookSecret, apiBase: env.server.url, prices: { personal: 'price_personal', team: 'price_team' } },
      billing: { enforced: true, settleMs: 200 },
    });
  });
  afterAll(async () => {
    await env.t?.close();
    await env.server?.close();
  });
  return env;
}

interface Org {
  orgId: string;
  key: string;
  token: string;
}

async function newOrg(t: TestService, planKey?: string): Promise<Org> {
  const org = await orgWithKey(t, undefined, planKey);
  return { ...org, token: await sessionToken(t, org.orgId) };
}

function sign(payload: string, secret = webhookSecret) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}

/** Posts a processor event, signed, as Stripe would. */
function deliver(t: TestService, event: unknown, secret = webhookSecret): Promise<Answer> {
  const payload = JSON.stringify(event);
  return call(t, 'POST', webhookPath, { rawBody: payload, headers: { 'stripe-signature': sign(payload, secret), 'content-type': 'application/json' } });
}

/** Delivers, in order, every event the stand-in recorded from `mark` on; each must be accepted and handled anew. */
async function deliverSince(env: Env, mark: number): Promise<Stripe.Event[]> {
  const events = env.server.events.slice(mark);
  for (const event of events) {
    const answer = await deliver(env.t, event);
    expect(answer.status, `${event.type}: ${JSON.stringify(answer.body)}`).toBe(200);
    expect(answer.body).toMatchObject({ object: 'processor_event_receipt', received: true, eventId: event.id, type: event.type, duplicate: false });
  }
  return events;
}

/** A copy of an event under a new id (another notice of the same thing). */
function renotice<T extends Stripe.Event>(event: T, change: (copy: any) => void = () => {}): T {
  const copy = structuredClone(event) as any;
  copy.id = `evt_${randomBytes(12).toString('hex')}`;
  change(copy);
  return copy as T;
}

function lastEventOf(server: StripeServer, type: string, objectId: string): Stripe.Event {
  const event = server.events.filter((e) => e.type === type && (e.data.object as { id?: string }).id === objectId).at(-1);
  if (!event) throw new Error(`no ${type} event for ${objectId}`);
  return event;
}

async function credits(t: TestService, org: Org) {
  const answer = await call(t, 'GET', '/v1/billing/credits', { key: org.key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { balanceMillicents: number; balanceCents: number; heldMillicents: number; autoTopup: { enabled: boolean; inFlight: boolean }; paygEnabled: boolean; lifetime: Record<string, number> };
}

async function snapshot(t: TestService, org: Org) {
  const answer = await call(t, 'GET', '/v1/billing', { key: org.key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** The whole ledger, newest first, read a small page at a time. */
async function ledger(t: TestService, org: Org, pageSize = 4) {
  const entries: { id: string; type: string; amountMillicents: number; balanceAfterMillicents: number; reference: string | null; createdAt: string }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const answer = await call(t, 'GET', `/v1/billing/credits/transactions?limit=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: org.key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.length).toBeLessThanOrEqual(pageSize);
    entries.push(...answer.body.data);
    if (!answer.body.hasMore) {
      expect(answer.body.nextCursor).toBeNull();
      return entries;
    }
    cursor = answer.body.nextCursor;
  }
  throw new Error('the ledger did not end');
}

/** Buys `amountCents` of credit and has the processor confirm it; answers the top-up. */
async function topUp(env: Env, org: Org, amountCents: number, card = 'pm_card_visa') {
  const answer = await call(env.t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const mark = env.server.events.length;
  env.server.confirmPaymentIntent(answer.body.paymentIntentId, card);
  await deliverSince(env, mark);
  return answer.body as { paymentIntentId: string; amountCents: number; bonusCents: number; creditCents: number; feeCents: number; chargedCents: number };
}

/** `n` metered data reads (each charged 200 millicents, though the ticker is unknown), then settled into the ledger. */
async function spend(t: TestService, org: Org, n: number): Promise<string[]> {
  const requestIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const answer = await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(404);
    expect(answer.body.code).toBe('entity_not_found');
    expect(answer.headers.get('service-meter-class')).toBe('data_read');
    expect(answer.headers.get('service-estimated-cost')).toBe(String(callMillicents));
    requestIds.push(answer.headers.get('request-id')!);
  }
  await t.service.services.admission.settle(org.orgId);
  return requestIds;
}

async function customerOf(t: TestService, org: Org): Promise<string> {
  const account = await t.service.services.prisma.billingAccount.findUniqueOrThrow({ where: { orgId: org.orgId } });
  expect(account.customerId).toMatch(/^cus_/);
  return account.customerId!;
}

/** Adds a saved card through a setup intent, as the dashboard does; answers its pm_… id. */
async function saveCard(env: Env, org: Org, card = 'pm_card_visa'): Promise<string> {
  const setup = await call(env.t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: org.token });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const mark = env.server.events.length;
  const intent = env.server.succeedSetupIntent(setup.body.setupIntentId, card);
  const delivered = await deliverSince(env, mark);
  expect(delivered.map((e) => e.type)).toEqual(['setup_intent.succeeded', 'payment_method.attached']);
  return intent.payment_method as string;
}

async function methods(t: TestService, org: Org) {
  const answer = await call(t, 'GET', '/v1/billing/payment-methods', { key: org.key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { id: string; isPrimary: boolean; brand: string; last4: string; fallbackPriority: number }[];
}

describe('credit top-ups', () => {
  const env = withProcessor();

  it('quotes the discount and the fee, credits nothing until the processor confirms, then exactly once', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    const answer = await call(t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents: 10_000 } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // 2 % bonus from $100; fee 2.9 % + 30 cents on top; the card pays amount + fee.
    expect(answer.body).toMatchObject({ object: 'credit_topup', status: 'pending', amountCents: 10_000, bonusCents: 200, creditCents: 10_200, feeCents: 320, chargedCents: 10_320 });
    const pi: string = answer.body.paymentIntentId;
    expect(pi).toMatch(/^pi_/);
    expect(answer.body.clientSecret).toMatch(new RegExp(`^${pi}_secret_`));
    const intent = server.state.paymentIntents.get(pi)!;
    expect(intent).toMatchObject({ amount: 10_320, currency: 'usd', customer: await customerOf(t, org), metadata: { orgId: org.orgId } });

    // Not paid yet: no credit, no ledger entry.
    expect((await credits(t, org)).balanceMillicents).toBe(0);
    expect(await ledger(t, org)).toEqual([]);

    const mark = server.events.length;
    server.confirmPaymentIntent(pi);
    const [succeeded] = await deliverSince(env, mark);
    expect(succeeded!.type).toBe('payment_intent.succeeded');

    const after = await credits(t, org);
    expect(after.balanceMillicents).toBe(10_200_000);
    expect(after.balanceCents).toBe(10_200);
    expect(after.paygEnabled).toBe(true);
    expect(after.lifetime).toMatchObject({ toppedUpCents: 10_000, grantedCents: 200 });
    const entries = await ledger(t, org);
    expect(entries.map((e) => [e.type, e.amountMillicents, e.reference])).toEqual([
      ['grant', 200_000, pi],
      ['topup', 10_000_000, pi],
    ]);
    expect(entries[0]!.balanceAfterMillicents).toBe(10_200_000);

    // The same notice again: acknowledged as a duplicate, nothing added.
    const again = await deliver(t, succeeded);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ eventId: succeeded!.id, duplicate: true });
    // Another notice (a new event id) of the same payment: handled, and still nothing added.
    const other = await deliver(t, renotice(succeeded!));
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ duplicate: false });
    expect((await credits(t, org)).balanceMillicents).toBe(10_200_000);
    expect(await ledger(t, org)).toHaveLength(2);
    const row = await t.service.services.prisma.topUp.findUniqueOrThrow({ where: { paymentIntentId: pi } });
    expect(row).toMatchObject({ status: 'succeeded', amountCents: 10_000, bonusCents: 200, feeCents: 320, chargedCents: 10_320, refundedCents: 0 });
  });

  it('has no bonus below $100 and validates the amount', async () => {
    const org = await newOrg(env.t);
    const small = await call(env.t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents: 9_999 } });
    expect(small.body).toMatchObject({ amountCents: 9_999, bonusCents: 0, creditCents: 9_999, feeCents: 320, chargedCents: 10_319 });
    const big = await call(env.t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents: 50_000 } });
    expect(big.body).toMatchObject({ bonusCents: 2_500, creditCents: 52_500, feeCents: 1_480, chargedCents: 51_480 });
    expectEnvelope(await call(env.t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents: 10.5 } }), 400, 'validation_error');
    expectEnvelope(await call(env.t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents: -500 } }), 400, 'validation_error');
  });

  it('needs a dashboard session: 403 with an API key, 401 with nothing, and nothing is created', async () => {
    const { t } = env;
    const org = await newOrg(t);
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/topup', { key: org.key, body: { amountCents: 10_000 } }), 403, 'browser_session_required');
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/topup', { body: { amountCents: 10_000 } }), 401, 'missing_browser_session');
    expect(await t.service.services.prisma.topUp.count({ where: { orgId: org.orgId } })).toBe(0);
  });
});

describe('the ledger', () => {
  const env = withProcessor();

  it('sums to the balance, and its debits to the charges recorded per request', async () => {
    const { t, server } = env;
    const org = await newOrg(t, 'payg');
    await topUp(env, org, 10_000);
    const small = await topUp(env, org, 2_500);
    const requestIds = await spend(t, org, 30);
    const refund = await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId: small.paymentIntentId, amountCents: 1_000 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(server.state.refunds.get(refund.body.refundId)).toMatchObject({ amount: 1_000 });
    requestIds.push(...(await spend(t, org, 7)));
    await adjustCredits(t.service.services, org.orgId, -3, 'operator correction');

    const expected = millicents(10_200 + 2_500 - 1_000 - 3) - 37 * callMillicents;
    const balance = (await credits(t, org)).balanceMillicents;
    expect(balance).toBe(expected);

    const entries = await ledger(t, org, 3);
    expect(entries.reduce((sum, e) => sum + e.amountMillicents, 0)).toBe(balance);
    expect(new Set(entries.map((e) => e.type))).toEqual(new Set(['topup', 'grant', 'debit', 'refund', 'adjustment']));
    // Newest first, each entry's balance is the one before it plus its amount.
    expect(entries[0]!.balanceAfterMillicents).toBe(balance);
    for (let i = 0; i < entries.length - 1; i++) {
      expect(entries[i]!.balanceAfterMillicents).toBe(entries[i + 1]!.balanceAfterMillicents + entries[i]!.amountMillicents);
      expect(Date.parse(entries[i]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(entries[i + 1]!.createdAt));
    }
    expect(entries.at(-1)!.balanceAfterMillicents).toBe(entries.at(-1)!.amountMillicents);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);

    const charges = await t.service.services.prisma.requestCharge.findMany({ where: { orgId: org.orgId } });
    const debits = entries.filter((e) => e.type === 'debit').reduce((sum, e) => sum + e.amountMillicents, 0);
    expect(-debits).toBe(Number(charges.reduce((sum, c) => sum + c.millicents, 0n)));
    expect(-debits).toBe(37 * callMillicents);
    expect(charges.map((c) => c.requestId).sort()).toEqual([...requestIds].sort());
    expect((await credits(t, org)).lifetime.spentMillicents).toBe(37 * callMillicents);
  });
});

describe('refunds', () => {
  const env = withProcessor();

  it('refunds unspent credit within the window, never the fee, and never more than is left', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    const bought = await topUp(env, org, 10_000);
    const pi = bought.paymentIntentId;

    const refund = await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId: pi, amountCents: 5_000 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    // Half the credit goes back with half its bonus; the fee stays.
    expect(refund.body).toMatchObject({ object: 'credit_refund', paymentIntentId: pi, amountCents: 5_000, bonusForfeitedCents: 100, feeRefundedCents: 0, balanceAfterMillicents: 5_100_000 });
    const atProcessor = server.state.refunds.get(refund.body.refundId)!;
    expect(atProcessor).toMatchObject({ amount: 5_000, payment_intent: pi, status: 'succeeded' });
    const charge = server.state.charges.get(server.state.paymentIntents.get(pi)!.latest_charge)!;
    expect(charge).toMatchObject({ amount: 10_320, amount_refunded: 5_000 });
    expect((await credits(t, org)).balanceMillicents).toBe(5_100_000);
    const [newest] = await ledger(t, org);
    expect(newest).toMatchObject({ type: 'refund', amountMillicents: -5_100_000, reference: refund.body.refundId, balanceAfterMillicents: 5_100_000 });

    // The processor's own notice of that refund takes nothing more.
    const mark = server.events.length - 2;
    expect(server.events.slice(mark).map((e) => e.type)).toEqual(['charge.refunded', 'refund.created']);
    await deliverSince(env, mark);
    expect((await credits(t, org)).balanceMillicents).toBe(5_100_000);

    const tooMuch = expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId: pi, amountCents: 5_001 } }), 409, 'refund_not_allowed');
    expect(tooMuch.details).toMatchObject({ refundableCents: 5_000 });

    // The rest (the default amount): all of the credit bought; the processor never returns the fee.
    const rest = await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId: pi } });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body).toMatchObject({ amountCents: 5_000, bonusForfeitedCents: 100, feeRefundedCents: 0, balanceAfterMillicents: 0 });
    expect(charge.amount_refunded).toBe(10_000);
    expect(charge.amount - charge.amount_refunded).toBe(bought.feeCents);
    // Nothing left to refund: a refusal, not a processor error.
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId: pi } }), 409, 'refund_not_allowed');
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId: pi, amountCents: 1 } }), 409, 'refund_not_allowed');
    expect(await t.service.services.prisma.topUp.findUniqueOrThrow({ where: { paymentIntentId: pi } })).toMatchObject({ refundedCents: 10_000 });
    expect(server.state.refunds.size).toBe(2);
  });

  it('refunds only credit that is not spent', async () => {
    const { t } = env;
    const org = await newOrg(t, 'payg');
    const { paymentIntentId } = await topUp(env, org, 1_000);
    await adjustCredits(t.service.services, org.orgId, -900, 'spent elsewhere');
    await spend(t, org, 10);
    const balance = (await credits(t, org)).balanceMillicents;
    expect(balance).toBe(millicents(100) - 10 * callMillicents);

    const refused = expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId, amountCents: 99 } }), 409, 'refund_not_allowed');
    const unspent: number = refused.details.unspentMillicents;
    expect(unspent).toBeLessThanOrEqual(balance);
    expect((await credits(t, org)).balanceMillicents).toBe(balance);
    // What the refusal says is unspent can be refunded.
    const fits = Math.floor(unspent / 1000);
    expect(fits).toBeGreaterThan(0);
    const ok = await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId, amountCents: fits } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.balanceAfterMillicents).toBe(balance - millicents(fits));
    expect((await credits(t, org)).balanceMillicents).toBeGreaterThanOrEqual(0);
  });

  it('closes the window after 30 days, with the window in the refusal', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    const { paymentIntentId } = await topUp(env, org, 1_000);
    const refundsBefore = server.state.refunds.size;
    await t.service.services.prisma.topUp.update({ where: { paymentIntentId }, data: { succeededAt: new Date(Date.now() - 31 * 86_400_000) } });
    const refused = expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: org.token, body: { paymentIntentId } }), 409, 'refund_not_allowed');
    expect(refused.details).toMatchObject({ refundWindowDays: 30 });
    expect(Date.parse(refused.details.closedAt)).toBeLessThan(Date.now());
    expect(server.state.refunds.size).toBe(refundsBefore);
    expect((await credits(t, org)).balanceMillicents).toBe(millicents(1_000));
  });

  it('refuses a pending top-up and knows no other organization\'s payment', async () => {
    const { t } = env;
    const owner = await newOrg(t);
    const stranger = await newOrg(t);
    const { paymentIntentId } = await topUp(env, owner, 1_000);
    const pending = await call(t, 'POST', '/v1/billing/credits/topup', { token: owner.token, body: { amountCents: 1_000 } });
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: owner.token, body: { paymentIntentId: pending.body.paymentIntentId } }), 409, 'refund_not_allowed');

    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: stranger.token, body: { paymentIntentId } }), 404, 'top_up_not_found');
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: stranger.token, body: { paymentIntentId: 'pi_doesNotExist' } }), 404, 'top_up_not_found');
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { key: owner.key, body: { paymentIntentId } }), 403, 'browser_session_required');
    expect((await credits(t, owner)).balanceMillicents).toBe(millicents(1_000));
  });
});

describe('a processor outage', () => {
  const env = withProcessor();

  it('answers 503 and writes nothing half-way; works again once the processor is back', async () => {
    const { t, server } = env;
    const paying = await newOrg(t);
    const { paymentIntentId } = await topUp(env, paying, 1_000);
    const fresh = await newOrg(t);
    const { prisma } = t.service.services;
    const before = {
      topUps: await prisma.topUp.count({ where: { orgId: paying.orgId } }),
      entries: await prisma.ledgerEntry.count({ where: { orgId: paying.orgId } }),
    };

    await server.stop();
    try {
      const down = expectEnvelope(await call(t, 'POST', '/v1/billing/credits/topup', { token: paying.token, body: { amountCents: 2_000 } }), 503, 'payment_processor_unavailable');
      expect(down.retryable).not.toBe(false);
      expectEnvelope(await call(t, 'POST', '/v1/billing/credits/topup', { token: fresh.token, body: { amountCents: 2_000 } }), 503, 'payment_processor_unavailable');
      expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: paying.token, body: { paymentIntentId, amountCents: 500 } }), 503, 'payment_processor_unavailable');
      expectEnvelope(await call(t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: paying.token }), 503, 'payment_processor_unavailable');
      expectEnvelope(await call(t, 'POST', '/v1/billing/checkout', { token: fresh.token, body: { plan: 'team', successUrl: 'https://example.com/ok', cancelUrl: 'https://example.com/no' } }), 503, 'payment_processor_unavailable');
      expectEnvelope(await call(t, 'POST', '/v1/billing/payg/enable', { token: fresh.token, body: { amountCents: 1_000 } }), 503, 'payment_processor_unavailable');

      expect(await prisma.topUp.count({ where: { orgId: paying.orgId } })).toBe(before.topUps);
      expect(await prisma.ledgerEntry.count({ where: { orgId: paying.orgId } })).toBe(before.entries);
      expect(await prisma.topUp.count({ where: { orgId: fresh.orgId } })).toBe(0);
      expect(await prisma.ledgerEntry.count({ where: { orgId: fresh.orgId } })).toBe(0);
      expect(await prisma.topUp.findUniqueOrThrow({ where: { paymentIntentId } })).toMatchObject({ refundedCents: 0 });
      expect((await credits(t, paying)).balanceMillicents).toBe(millicents(1_000));
      const freshSnapshot = await snapshot(t, fresh);
      expect(freshSnapshot).toMatchObject({ processorCustomer: false, paygEnabled: false });
      // What does not need the processor still answers.
      expect((await call(t, 'GET', '/v1/billing/payment-methods', { key: paying.key })).status).toBe(200);
    } finally {
      await server.restart();
    }

    const again = await call(t, 'POST', '/v1/billing/credits/topup', { token: fresh.token, body: { amountCents: 2_000 } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const refund = await call(t, 'POST', '/v1/billing/credits/refund', { token: paying.token, body: { paymentIntentId, amountCents: 500 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect((await credits(t, paying)).balanceMillicents).toBe(millicents(500));
    expect(await prisma.topUp.findUniqueOrThrow({ where: { paymentIntentId } })).toMatchObject({ refundedCents: 500 });
  });
});

describe('a service without processor keys', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ stripe: { prices: {} }, billing: { enforced: true, settleMs: 200 } });
  });
  afterAll(() => t?.close());

  it('answers 503 for what needs the processor, and everything else works', async () => {
    const org = await newOrg(t);
    const down = expectEnvelope(await call(t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents: 1_000 } }), 503, 'payment_processor_unavailable');
    expect(down.message).toMatch(/not configured/);
    expectEnvelope(await call(t, 'POST', '/v1/billing/payg/enable', { token: org.token, body: { amountCents: 1_000 } }), 503, 'payment_processor_unavailable');
    expectEnvelope(await call(t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: org.token }), 503, 'payment_processor_unavailable');
    expectEnvelope(await call(t, 'POST', '/v1/billing/checkout', { token: org.token, body: { plan: 'personal', successUrl: 'https://example.com/ok', cancelUrl: 'https://example.com/no' } }), 503, 'payment_processor_unavailable');
    expect(await t.service.services.prisma.topUp.count({ where: { orgId: org.orgId } })).toBe(0);

    expect(await snapshot(t, org)).toMatchObject({ object: 'billing', planKey: 'sandbox_grant', processorCustomer: false });
    const quote = await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { meterClass: 'data_read', calls: 10 } });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body).toMatchObject({ estimatedMillicents: 2_000, allowed: true });
    const budget = await call(t, 'PUT', '/v1/billing/budget', { token: org.token, body: { hardCapCents: 5_000, softCapCents: 1_000 } });
    expect(budget.status, JSON.stringify(budget.body)).toBe(200);
    expect(budget.body.budget).toMatchObject({ hardCapCents: 5_000, softCapCents: 1_000 });
    const reset = await call(t, 'POST', '/v1/billing/grant/reset', { token: org.token });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toMatchObject({ planKey: 'sandbox_grant', billingState: 'sandbox_grant' });
    expect((await credits(t, org)).balanceMillicents).toBe(0);
    const read = await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key });
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('entity_not_found');
  });

  it('answers 503 at the webhook receiver without a webhook secret', async () => {
    const event = { id: 'evt_noSecret', object: 'event', type: 'customer.created', created: Math.floor(Date.now() / 1000), data: { object: { id: 'cus_x', object: 'customer' } } };
    expectEnvelope(await deliver(t, event), 503, 'payment_processor_unavailable');
    expect(await t.service.services.prisma.processorEvent.count({ where: { id: 'evt_noSecret' } })).toBe(0);
  });
});

describe('the processor webhook receiver', () => {
  const env = withProcessor();
  const now = () => Math.floor(Date.now() / 1000);

  it('refuses a missing or wrong signature with a 400 envelope and records nothing', async () => {
    const { t } = env;
    const event = { id: 'evt_forged', object: 'event', type: 'payment_intent.succeeded', created: now(), data: { object: { id: 'pi_forged', object: 'payment_intent' } } };
    const payload = JSON.stringify(event);
    expectEnvelope(await call(t, 'POST', webhookPath, { rawBody: payload, headers: { 'content-type': 'application/json' } }), 400, 'processor_signature_invalid');
    expectEnvelope(await call(t, 'POST', webhookPath, { rawBody: payload, headers: { 'stripe-signature': sign(payload, 'whsec_wrong') } }), 400, 'processor_signature_invalid');
    expectEnvelope(await call(t, 'POST', webhookPath, { rawBody: payload, headers: { 'stripe-signature': 't=1,v1=00' } }), 400, 'processor_signature_invalid');
    // Signed for one body, sent with another.
    const tampered = JSON.stringify({ ...event, type: 'invoice.paid' });
    expectEnvelope(await call(t, 'POST', webhookPath, { rawBody: tampered, headers: { 'stripe-signature': sign(payload) } }), 400, 'processor_signature_invalid');
    expect(await t.service.services.prisma.processorEvent.count({ where: { id: 'evt_forged' } })).toBe(0);
  });

  it('acknowledges and records an unknown type, once', async () => {
    const { t } = env;
    const event = { id: `evt_unknown${randomBytes(6).toString('hex')}`, object: 'event', type: 'customer.tax_id.created', api_version: Stripe.API_VERSION, created: now(), livemode: false, pending_webhooks: 0, request: { id: null, idempotency_key: null }, data: { object: { id: 'txi_1', object: 'tax_id' } } };
    const first = await deliver(t, event);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ object: 'processor_event_receipt', received: true, eventId: event.id, type: event.type, handled: false, duplicate: false });
    expect(await t.service.services.prisma.processorEvent.findUnique({ where: { id: event.id } })).toMatchObject({ type: event.type, handled: false });
    const again = await deliver(t, event);
    expect(again.body).toMatchObject({ handled: false, duplicate: true });
  });

  it('follows a subscription from checkout to cancellation, ignoring an older notice', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    const checkout = await call(t, 'POST', '/v1/billing/checkout', { token: org.token, body: { plan: 'team', successUrl: 'https://example.com/ok', cancelUrl: 'https://example.com/no' } });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(checkout.body).toMatchObject({ object: 'checkout_session', plan: 'team' });
    expect(checkout.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_/);
    expect((await fetch(checkout.body.url)).status).toBe(200);
    expectEnvelope(await call(t, 'POST', '/v1/billing/checkout', { key: org.key, body: { plan: 'team', successUrl: 'https://example.com/ok', cancelUrl: 'https://example.com/no' } }), 403, 'browser_session_required');
    expect(await snapshot(t, org)).toMatchObject({ planKey: 'sandbox_grant', billingState: 'sandbox_grant', subscription: null });

    let mark = server.events.length;
    const session = server.completeCheckout(checkout.body.checkoutSessionId);
    const delivered = await deliverSince(env, mark);
    expect(delivered.map((e) => e.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    const subId = session.subscription as string;
    expect(await snapshot(t, org)).toMatchObject({ planKey: 'team', billingState: 'active', subscription: { id: subId, status: 'active' } });
    const limits = await call(t, 'GET', '/v1/limits', { key: org.key });
    expect(limits.body).toMatchObject({ effectivePlanKey: 'team', billingState: 'active' });
    const analytics = limits.body.quotas.filter((q: { meterClass: string }) => q.meterClass === 'analytics');
    expect(analytics.length).toBeGreaterThan(0);
    expect(analytics.every((q: { allowed: boolean }) => q.allowed)).toBe(true);
    const quote = await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { meterClass: 'analytics', calls: 3 } });
    expect(quote.body).toMatchObject({ planKey: 'team', allowed: true, gates: [] });
    expect((await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key })).status).toBe(404);
    // a second subscription is not sold to an organization that has one
    const again = { plan: 'personal', successUrl: 'https://example.com/ok', cancelUrl: 'https://example.com/no' };
    expectEnvelope(await call(t, 'POST', '/v1/billing/checkout', { token: org.token, body: again }), 409, 'subscription_already_active');

    // A newer update, then an older one arriving late: the older one changes nothing.
    mark = server.events.length;
    server.updateSubscription(subId, { cancel_at_period_end: true });
    const [newer] = await deliverSince(env, mark);
    const older = renotice(newer!, (e) => {
      e.created = newer!.created - 3_600;
      e.data.object.status = 'canceled';
    });
    const late = await deliver(t, older);
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ duplicate: false });
    expect(await snapshot(t, org)).toMatchObject({ planKey: 'team', billingState: 'active', subscription: { id: subId, status: 'active' } });

    // A failed renewal: past_due, and priced calls stop.
    mark = server.events.length;
    const invoice = server.failInvoice(subId);
    await deliverSince(env, mark);
    expect(await snapshot(t, org)).toMatchObject({ planKey: 'team', billingState: 'past_due' });
    expect((await call(t, 'GET', '/v1/limits', { key: org.key })).body).toMatchObject({ billingState: 'past_due' });
    const blocked = expectEnvelope(await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key }), 402, 'billing_required');
    expect(blocked.details).toMatchObject({ billingState: 'past_due' });
    expect((await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { meterClass: 'data_read', calls: 1 } })).body.gates.map((g: { code: string }) => g.code)).toContain('billing_required');

    // Paid after all: active again.
    const failedNotice = lastEventOf(server, 'invoice.payment_failed', invoice.id);
    const paid = renotice(failedNotice, (e) => {
      e.type = 'invoice.paid';
      e.created = Math.max(now(), failedNotice.created);
      Object.assign(e.data.object, { status: 'paid', paid: true, amount_paid: e.data.object.amount_due, amount_remaining: 0 });
    });
    const paidAnswer = await deliver(t, paid);
    expect(paidAnswer.body).toMatchObject({ handled: true, duplicate: false });
    expect(await snapshot(t, org)).toMatchObject({ planKey: 'team', billingState: 'active' });
    expect((await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key })).status).toBe(404);
    // Another notice of the failure, stamped the same second as the payment and arriving after it:
    // notices carry whole seconds, so the processor's invoice decides, and it is paid.
    server.state.invoices.get(invoice.id)!.status = 'paid';
    const sameSecond = renotice(failedNotice, (e) => (e.created = paid.created));
    expect((await deliver(t, sameSecond)).body).toMatchObject({ duplicate: false });
    expect(await snapshot(t, org)).toMatchObject({ billingState: 'active' });

    // Cancelled.
    mark = server.events.length;
    server.deleteSubscription(subId);
    await deliverSince(env, mark);
    expect(await snapshot(t, org)).toMatchObject({ billingState: 'canceled', subscription: { id: subId, status: 'canceled' } });
    expectEnvelope(await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key }), 402, 'billing_required');
    // once cancelled, a new checkout may start
    expect((await call(t, 'POST', '/v1/billing/checkout', { token: org.token, body: again })).status).toBe(200);

    // Every notice was recorded once.
    const ids = server.events.filter((e) => JSON.stringify(e.data.object).includes(subId)).map((e) => e.id);
    expect(await t.service.services.prisma.processorEvent.count({ where: { id: { in: ids } } })).toBe(ids.length);
    const changes = await t.service.services.prisma.event.findMany({ where: { orgId: org.orgId, type: 'billing.plan_changed' } });
    expect(changes.length).toBeGreaterThanOrEqual(4);
  });

  it('does not let an older subscription notice undo a cancellation', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    const checkout = await call(t, 'POST', '/v1/billing/checkout', { token: org.token, body: { plan: 'personal', successUrl: 'https://example.com/ok', cancelUrl: 'https://example.com/no' } });
    let mark = server.events.length;
    const session = server.completeCheckout(checkout.body.checkoutSessionId);
    const [, created] = await deliverSince(env, mark);
    expect(await snapshot(t, org)).toMatchObject({ planKey: 'personal', billingState: 'active' });
    mark = server.events.length;
    server.deleteSubscription(session.subscription as string);
    const [deleted] = await deliverSince(env, mark);
    // The creation notice again under a new id, older than the cancellation.
    const stale = renotice(created!, (e) => (e.created = deleted!.created - 60));
    expect((await deliver(t, stale)).status).toBe(200);
    expect(await snapshot(t, org)).toMatchObject({ billingState: 'canceled' });
    // An update from the same second (the processor's times are whole seconds) arriving after it.
    const sameSecond = renotice(created!, (e) => {
      e.type = 'customer.subscription.updated';
      e.created = deleted!.created;
    });
    expect((await deliver(t, sameSecond)).status).toBe(200);
    expect(await snapshot(t, org)).toMatchObject({ billingState: 'canceled', subscription: { status: 'canceled' } });
    expectEnvelope(await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key }), 402, 'billing_required');
  });
});

describe('saved payment methods', () => {
  const env = withProcessor();

  it('saves up to three, primary first; sets the primary; detaches at the processor', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    expect(await methods(t, org)).toEqual([]);
    const first = await saveCard(env, org);
    let listed = await methods(t, org);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ object: 'payment_method', id: first, isPrimary: true, brand: 'visa', last4: '4242' });
    const second = await saveCard(env, org);
    const third = await saveCard(env, org);
    listed = await methods(t, org);
    expect(listed.map((m) => m.id)).toEqual([first, second, third]);
    expect(listed.map((m) => m.isPrimary)).toEqual([true, false, false]);

    const full = expectEnvelope(await call(t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: org.token }), 409, 'payment_method_limit_reached');
    expect(full.details).toMatchObject({ limit: 3 });

    const primary = await call(t, 'PUT', `/v1/billing/payment-methods/${third}`, { token: org.token, body: { primary: true } });
    expect(primary.status, JSON.stringify(primary.body)).toBe(200);
    expect(primary.body).toMatchObject({ id: third, isPrimary: true });
    listed = await methods(t, org);
    expect(listed[0]!.id).toBe(third);
    expect(listed.filter((m) => m.isPrimary).map((m) => m.id)).toEqual([third]);
    expectEnvelope(await call(t, 'PUT', `/v1/billing/payment-methods/${second}`, { key: org.key, body: { primary: true } }), 403, 'browser_session_required');

    const removed = await call(t, 'DELETE', `/v1/billing/payment-methods/${third}`, { token: org.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toMatchObject({ id: third, deleted: true });
    expect(server.state.paymentMethods.get(third)!.customer).toBeNull();
    listed = await methods(t, org);
    expect(listed.map((m) => m.id)).toEqual([first, second]);
    expect(listed[0]!.isPrimary).toBe(true);
    expect(listed.filter((m) => m.isPrimary)).toHaveLength(1);
    // The processor's notice of the detachment changes nothing more.
    await deliverSince(env, server.events.length - 1);
    expect((await methods(t, org)).map((m) => m.id)).toEqual([first, second]);
    expectEnvelope(await call(t, 'DELETE', `/v1/billing/payment-methods/${third}`, { token: org.token }), 404, 'payment_method_not_found');

    // Room for one more again.
    const setup = await call(t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: org.token });
    expect(setup.status).toBe(200);
    expect(setup.body).toMatchObject({ object: 'setup_intent', savedMethods: 2, maxMethods: 3 });
  });

  it('forgets a method already detached at the processor, and keeps the limit when two setups finish at once', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    const stripe = new Stripe('sk_test_local', { host: '127.0.0.1', port: server.port, protocol: 'http', maxNetworkRetries: 0 });
    const gone = await saveCard(env, org);
    const kept = await saveCard(env, org);
    // Removed in the processor's dashboard; its notice has not arrived yet.
    await stripe.paymentMethods.detach(gone);
    const removed = await call(t, 'DELETE', `/v1/billing/payment-methods/${gone}`, { token: org.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await methods(t, org)).map((m) => [m.id, m.isPrimary])).toEqual([[kept, true]]);

    await saveCard(env, org);
    // Two setup intents started with two saved: both allowed, but only one more can be kept.
    const setups = await Promise.all([1, 2].map(() => call(t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: org.token })));
    expect(setups.map((s) => s.status)).toEqual([200, 200]);
    const mark = server.events.length;
    const minted = setups.map((s) => server.succeedSetupIntent(s.body.setupIntentId, 'pm_card_visa').payment_method as string);
    await deliverSince(env, mark);
    const listed = await methods(t, org);
    expect(listed).toHaveLength(3);
    expect(listed.map((m) => m.id)).toContain(minted[0]);
    expect(listed.map((m) => m.id)).not.toContain(minted[1]);
    // What was not kept is not left on the customer either.
    expect(server.state.paymentMethods.get(minted[1]!)!.customer).toBeNull();
    expectEnvelope(await call(t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: org.token }), 409, 'payment_method_limit_reached');
  });

  it('makes one primary when the notices of an organization\'s first two cards arrive at once', async () => {
    const { t, server } = env;
    const org = await newOrg(t);
    const setups = await Promise.all([1, 2].map(() => call(t, 'POST', '/v1/billing/payment-methods/setup-intent', { token: org.token })));
    expect(setups.map((s) => s.status)).toEqual([200, 200]);
    const mark = server.events.length;
    for (const setup of setups) server.succeedSetupIntent(setup.body.setupIntentId, 'pm_card_visa');
    const answers = await Promise.all(server.events.slice(mark).map((event) => deliver(t, event)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const listed = await methods(t, org);
    expect(listed).toHaveLength(2);
    expect(listed.filter((m) => m.isPrimary)).toHaveLength(1);
  });

  it('knows no other organization\'s methods', async () => {
    const { t, server } = env;
    const owner = await newOrg(t);
    const stranger = await newOrg(t);
    const card = await saveCard(env, owner);
    await saveCard(env, stranger);
    expectEnvelope(await call(t, 'PUT', `/v1/billing/payment-methods/${card}`, { token: stranger.token, body: { primary: true } }), 404, 'payment_method_not_found');
    expectEnvelope(await call(t, 'PUT', `/v1/billing/payment-methods/${card}`, { token: stranger.token, body: { fallbackPriority: 5 } }), 404, 'payment_method_not_found');
    expectEnvelope(await call(t, 'DELETE', `/v1/billing/payment-methods/${card}`, { token: stranger.token }), 404, 'payment_method_not_found');
    expect(server.state.paymentMethods.get(card)!.customer).toBe(await customerOf(t, owner));
    expect((await methods(t, owner)).map((m) => [m.id, m.isPrimary])).toEqual([[card, true]]);
    expect((await methods(t, stranger)).map((m) => m.id)).not.toContain(card);
  });
});

describe('pay as you go and auto-top-up', () => {
  const env = withProcessor();

  const autoIntents = (server: StripeServer, customer: string) =>
    [...server.state.paymentIntents.values()].filter((pi) => pi.customer === customer && pi.metadata?.auto === 'true');

  it('enables payg with a saved card, then refills once when a settlement leaves the balance below the threshold', async () => {
    const { t, server } = env;
    const org = await newOrg(t, 'payg');
    const enable = await call(t, 'POST', '/v1/billing/payg/enable', { token: org.token, body: { amountCents: 1_000, autoTopup: { thresholdCents: 900, amountCents: 2_000 } } });
    expect(enable.status, JSON.stringify(enable.body)).toBe(200);
    expect(enable.body).toMatchObject({
      object: 'payg_enablement',
      paygEnabled: true,
      autoTopup: { enabled: true, thresholdCents: 900, amountCents: 2_000 },
      topUp: { object: 'credit_topup', status: 'pending', amountCents: 1_000, bonusCents: 0, feeCents: 59, chargedCents: 1_059 },
    });
    const pi: string = enable.body.topUp.paymentIntentId;
    expect(server.state.paymentIntents.get(pi)).toMatchObject({ setup_future_usage: 'off_session', amount: 1_059 });
    expect((await credits(t, org)).balanceMillicents).toBe(0);

    let mark = server.events.length;
    server.confirmPaymentIntent(pi, 'pm_card_visa');
    const delivered = await deliverSince(env, mark);
    expect(delivered.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'payment_method.attached']);
    expect((await credits(t, org)).balanceMillicents).toBe(millicents(1_000));
    const [card] = await methods(t, org);
    expect(card).toMatchObject({ id: server.state.paymentIntents.get(pi)!.payment_method, isPrimary: true });

    const customer = await customerOf(t, org);
    // Just above the threshold, then a few calls take it below.
    await adjustCredits(t.service.services, org.orgId, -99, 'test: close to the threshold');
    expect(autoIntents(server, customer)).toHaveLength(0);
    await spend(t, org, 4);
    const { admission } = t.service.services;
    await Promise.all([admission.settle(org.orgId), admission.settle(org.orgId), spend(t, org, 2), admission.settle(org.orgId)]);
    const expected = millicents(901) - 6 * callMillicents + millicents(2_000);
    await eventually('the auto-top-up credit', async () => (await credits(t, org)).balanceMillicents === expected);
    // More settlements above the threshold start nothing more.
    await spend(t, org, 3);
    await admission.settle(org.orgId);
    expect((await credits(t, org)).balanceMillicents).toBe(expected - 3 * callMillicents);

    const autos = autoIntents(server, customer);
    expect(autos).toHaveLength(1);
    expect(autos[0]).toMatchObject({ status: 'succeeded', amount: 2_000 + 88, payment_method: card!.id, metadata: { orgId: org.orgId, auto: 'true' } });
    const rows = await t.service.services.prisma.topUp.findMany({ where: { orgId: org.orgId, auto: true } });
    expect(rows).toMatchObject([{ paymentIntentId: autos[0]!.id, status: 'succeeded', amountCents: 2_000 }]);
    expect((await credits(t, org)).autoTopup).toMatchObject({ enabled: true, inFlight: false });
    const topped = await t.service.services.prisma.event.findMany({ where: { orgId: org.orgId, type: 'billing.credits_topped_up' } });
    expect(topped.map((e) => (e.payload as { auto: boolean }).auto).sort()).toEqual([false, true]);

    // The processor's own notice of the off-session payment adds nothing more.
    mark = server.events.length;
    await deliver(t, lastEventOf(server, 'payment_intent.succeeded', autos[0]!.id));
    expect((await credits(t, org)).balanceMillicents).toBe(expected - 3 * callMillicents);
    const entries = await ledger(t, org);
    expect(entries.filter((e) => e.type === 'topup').map((e) => e.reference).sort()).toEqual([pi, autos[0]!.id].sort());
    expect(entries.reduce((sum, e) => sum + e.amountMillicents, 0)).toBe(expected - 3 * callMillicents);
  });

  it('turns a card that needs authentication into an event, without retrying on every settlement', async () => {
    const { t, server } = env;
    const org = await newOrg(t, 'payg');
    await saveCard(env, org, 'pm_card_authenticationRequired');
    const settings = await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token: org.token, body: { enabled: true, thresholdCents: 900, amountCents: 2_000 } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect(settings.body.autoTopup).toMatchObject({ enabled: true, thresholdCents: 900, amountCents: 2_000 });
    await adjustCredits(t.service.services, org.orgId, 901, 'test: credit');
    const customer = await customerOf(t, org);
    const failedEvents = () => t.service.services.prisma.event.findMany({ where: { orgId: org.orgId, type: 'billing.auto_topup_failed' } });

    await spend(t, org, 6);
    const [failed] = await eventually('billing.auto_topup_failed', async () => {
      const found = await failedEvents();
      return found.length ? found : null;
    });
    expect(failed!.payload).toMatchObject({ reason: 'authentication_required' });
    expect(autoIntents(server, customer)).toHaveLength(1);
    expect(autoIntents(server, customer)[0]).toMatchObject({ status: 'requires_payment_method' });
    const balance = millicents(901) - 6 * callMillicents;
    expect((await credits(t, org)).balanceMillicents).toBe(balance);

    // Later settlements below the threshold do not try again.
    for (let i = 0; i < 3; i++) await spend(t, org, 2);
    await t.service.services.admission.settle(org.orgId);
    expect(autoIntents(server, customer)).toHaveLength(1);
    expect(await failedEvents()).toHaveLength(1);
    expect((await credits(t, org)).balanceMillicents).toBe(balance - 6 * callMillicents);
    expect(await t.service.services.prisma.topUp.count({ where: { orgId: org.orgId } })).toBe(0);

    // The next top-up resumes auto-top-up: falling below the threshold again tries once more.
    await topUp(env, org, 500);
    await adjustCredits(t.service.services, org.orgId, -500, 'test: back near the threshold');
    await spend(t, org, 1);
    await eventually('a second attempt', async () => (await failedEvents()).length === 2);
    expect(autoIntents(server, customer)).toHaveLength(2);
  });
});

describe('an auto-top-up whose payment fails after it was sent', () => {
  const env = withProcessor();

  it('is no longer in flight, and pauses until the next top-up', async () => {
    const { t, server } = env;
    const { prisma } = t.service.services;
    const org = await newOrg(t, 'payg');
    await saveCard(env, org);
    const customer = await customerOf(t, org);
    await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token: org.token, body: { enabled: true, thresholdCents: 900, amountCents: 2_000 } });
    // An off-session payment the processor accepted for processing: its outcome comes later, by notice.
    const stripe = new Stripe('sk_test_local', { host: '127.0.0.1', port: server.port, protocol: 'http', maxNetworkRetries: 0 });
    const pending = await stripe.paymentIntents.create({ amount: 2_088, currency: 'usd', customer, metadata: { orgId: org.orgId, purpose: 'credit_topup', auto: 'true' } });
    await prisma.topUp.create({ data: { paymentIntentId: pending.id, orgId: org.orgId, amountCents: 2_000, bonusCents: 0, feeCents: 88, chargedCents: 2_088, status: 'pending', auto: true } });
    await prisma.billingAccount.update({ where: { orgId: org.orgId }, data: { autoTopupInFlight: pending.id } });

    const mark = server.events.length;
    server.confirmPaymentIntent(pending.id, 'pm_card_chargeDeclined');
    expect((await deliverSince(env, mark)).map((e) => e.type)).toEqual(['payment_intent.payment_failed']);
    expect(await prisma.topUp.findUniqueOrThrow({ where: { paymentIntentId: pending.id } })).toMatchObject({ status: 'failed', failureCode: 'card_declined' });
    const account = await prisma.billingAccount.findUniqueOrThrow({ where: { orgId: org.orgId } });
    expect(account.autoTopupInFlight).not.toBe(pending.id);
    expect(await prisma.event.count({ where: { orgId: org.orgId, type: 'billing.topup_failed' } })).toBe(1);

    // Paused: below the threshold, nothing is tried.
    await adjustCredits(t.service.services, org.orgId, 901, 'test: credit');
    await spend(t, org, 6);
    await t.service.services.admission.settle(org.orgId);
    const autos = () => [...server.state.paymentIntents.values()].filter((pi) => pi.customer === customer && pi.metadata?.auto === 'true');
    expect(autos()).toHaveLength(1);

    // The next top-up resumes it: below the threshold again, one refill with the saved card.
    await topUp(env, org, 500);
    await adjustCredits(t.service.services, org.orgId, -500, 'test: back near the threshold');
    const before = (await credits(t, org)).balanceMillicents;
    expect(before).toBeLessThan(millicents(900));
    await spend(t, org, 1);
    await eventually('the refill', async () => (await credits(t, org)).balanceMillicents === before - callMillicents + millicents(2_000));
    expect(autos()).toHaveLength(2);
  });
});

describe('other organizations\' ids', () => {
  const env = withProcessor();

  it('are not found on every org-scoped billing route that takes an id', async () => {
    const { t } = env;
    const owner = await newOrg(t);
    const stranger = await newOrg(t);
    const card = await saveCard(env, owner);
    const { paymentIntentId } = await topUp(env, owner, 1_000);

    expectEnvelope(await call(t, 'PUT', `/v1/billing/payment-methods/${card}`, { token: stranger.token, body: { primary: true } }), 404, 'payment_method_not_found');
    expectEnvelope(await call(t, 'DELETE', `/v1/billing/payment-methods/${card}`, { token: stranger.token }), 404, 'payment_method_not_found');
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/refund', { token: stranger.token, body: { paymentIntentId } }), 404, 'top_up_not_found');
    expectEnvelope(await call(t, 'PUT', '/v1/billing/payment-methods/pm_doesNotExist', { token: owner.token, body: { primary: true } }), 404, 'payment_method_not_found');

    // And the stranger's reads show nothing of the owner's.
    expect(await methods(t, stranger)).toEqual([]);
    expect(await ledger(t, stranger)).toEqual([]);
    expect((await credits(t, stranger)).balanceMillicents).toBe(0);
    expect((await credits(t, owner)).balanceMillicents).toBe(millicents(1_000));
    expect((await methods(t, owner)).map((m) => m.id)).toContain(card);
    expect(await t.service.services.prisma.topUp.findUniqueOrThrow({ where: { paymentIntentId } })).toMatchObject({ refundedCents: 0 });
  });
});
