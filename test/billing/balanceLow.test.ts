// The low-balance alert: charged requests that take the prepaid balance below the low-balance
// threshold (thresholdCents of PUT /v1/billing/credits/auto-topup) write one billing.balance_low,
// listed in GET /v1/alerts; draining further writes no other until a top-up (confirmed by the
// processor, the local Stripe stand-in) has brought the balance back above it.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustCredits } from '../../resolvers/billing/account.ts';
import { startStripeServer, type StripeServer } from '../support/stripeServer.ts';
import { call, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

const webhookSecret = 'whsec_test';
/** a data_read call: 200 millicents */
const callMillicents = 200;

let server: StripeServer;
let t: TestService;
beforeAll(async () => {
  server = await startStripeServer();
  t = await startTestService({
    stripe: { secretKey: 'sk_test_local', webhookSecret, apiBase: server.url, prices: {} },
    billing: { enforced: true, settleMs: 100 },
  });
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

/** `n` charged data reads, one after the other. */
async function spend(key: string, n: number) {
  for (let i = 0; i < n; i++) {
    const answer = await call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(404);
    expect(answer.headers.get('service-estimated-cost')).toBe(String(callMillicents));
  }
}

/** Buys credit and has the processor confirm it, its notices delivered signed as Stripe sends them; its payment intent's id. */
async function topUp(token: string, amountCents: number) {
  const answer = await call(t, 'POST', '/v1/billing/credits/topup', { token, body: { amountCents } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const mark = server.events.length;
  server.confirmPaymentIntent(answer.body.paymentIntentId, 'pm_card_visa');
  for (const event of server.events.slice(mark)) {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const delivered = await call(t, 'POST', '/v1/billing/webhooks/processor', { rawBody: payload, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
  }
  return answer.body.paymentIntentId as string;
}

async function credits(key: string) {
  const answer = await call(t, 'GET', '/v1/billing/credits', { key });
  expect(answer.status).toBe(200);
  return answer.body as { balanceMillicents: number; lowBalance: boolean };
}

async function lowBalanceAlerts(key: string) {
  const answer = await call(t, 'GET', '/v1/alerts?type=billing.balance_low&status=all', { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { id: string; type: string; severity: string; title: string; data: Record<string, unknown> }[];
}

describe('billing.balance_low', () => {
  it('is written once when charged requests take the balance below the threshold, and again only after a top-up', async () => {
    const org = await orgWithKey(t, undefined, 'payg');
    const token = await sessionToken(t, org.orgId);
    await adjustCredits(t.service.services, org.orgId, 10, 'test credit'); // 10,000 millicents: 50 calls
    // the threshold, with auto-top-up off: 9 cents, five calls below the balance
    const set = await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token, body: { enabled: false, thresholdCents: 9 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);

    await spend(org.key, 5); // 9,000: at the threshold, not below it
    expect(await lowBalanceAlerts(org.key)).toEqual([]);
    expect((await credits(org.key)).lowBalance).toBe(false);

    await spend(org.key, 1); // 8,800: below
    const [alert, ...more] = await lowBalanceAlerts(org.key);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      type: 'billing.balance_low',
      severity: 'warning',
      title: 'Prepaid credit fell below the low-balance threshold of $0.09; top up to keep paying for calls',
      data: { thresholdCents: 9, balanceMillicents: 8_800, autoTopup: false },
    });
    expect((await credits(org.key)).lowBalance).toBe(true);
    // the debit that crossed it wrote it: the ledger entry leaving 8,800 and the event are one transaction's
    const { prisma } = t.service.services;
    const [event, debit] = await Promise.all([
      prisma.event.findUniqueOrThrow({ where: { id: alert!.id } }),
      prisma.ledgerEntry.findFirstOrThrow({ where: { orgId: org.orgId, type: 'debit', balanceAfterMillicents: 8_800n } }),
    ]);
    const [{ txid }] = await prisma.$queryRaw<{ txid: bigint }[]>`SELECT xmin::text::bigint AS "txid" FROM "LedgerEntry" WHERE "id" = ${debit.id}`;
    expect(event.txid % 2n ** 32n).toBe(txid);

    await spend(org.key, 10); // further down: nothing more
    expect(await lowBalanceAlerts(org.key)).toHaveLength(1);

    await topUp(token, 500); // back above the threshold: armed again
    const after = await credits(org.key);
    expect(after.balanceMillicents).toBeGreaterThan(9_000);
    expect(after.lowBalance).toBe(false);
    expect(await lowBalanceAlerts(org.key)).toHaveLength(1);

    // a threshold just under the new balance, so a few calls cross it again
    const threshold = Math.floor(after.balanceMillicents / 1000);
    expect((await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token, body: { enabled: false, thresholdCents: threshold } })).status).toBe(200);
    const callsToCross = Math.floor((after.balanceMillicents - threshold * 1000) / callMillicents) + 1;
    await spend(org.key, callsToCross + 3);
    const alerts = await lowBalanceAlerts(org.key);
    expect(alerts).toHaveLength(2);
    expect(alerts[0]!.data).toEqual({ thresholdCents: threshold, balanceMillicents: after.balanceMillicents - callsToCross * callMillicents, autoTopup: false });
    // webhooks and streams may name it
    const types = await call(t, 'GET', '/v1/event_types', { key: org.key });
    expect(JSON.stringify(types.body)).toContain('billing.balance_low');
  });

  it('is written by a refund that takes the balance below the threshold, as by a debit, once per fall', async () => {
    const org = await orgWithKey(t, undefined, 'payg');
    const token = await sessionToken(t, org.orgId);
    const paymentIntentId = await topUp(token, 500); // $5: 500,000 millicents, no bonus
    expect((await credits(org.key)).balanceMillicents).toBe(500_000);
    expect((await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token, body: { enabled: false, thresholdCents: 400 } })).status).toBe(200);
    const refund = (amountCents: number) => call(t, 'POST', '/v1/billing/credits/refund', { token, body: { paymentIntentId, amountCents } });

    const toThreshold = await refund(100); // 400,000: at the threshold, not below it
    expect(toThreshold.status, JSON.stringify(toThreshold.body)).toBe(200);
    expect(await lowBalanceAlerts(org.key)).toEqual([]);

    const below = await refund(1); // 399,000: below
    expect(below.status, JSON.stringify(below.body)).toBe(200);
    expect(below.body.balanceAfterMillicents).toBe(399_000);
    const [alert, ...more] = await lowBalanceAlerts(org.key);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      type: 'billing.balance_low',
      severity: 'warning',
      title: 'Prepaid credit fell below the low-balance threshold of $4.00; top up to keep paying for calls',
      data: { thresholdCents: 400, balanceMillicents: 399_000, autoTopup: false },
    });
    expect((await credits(org.key)).lowBalance).toBe(true);
    // written by the refund's transaction: the ledger entry leaving 399,000 and the event are one transaction's
    const { prisma } = t.service.services;
    const [event, entry] = await Promise.all([
      prisma.event.findUniqueOrThrow({ where: { id: alert!.id } }),
      prisma.ledgerEntry.findFirstOrThrow({ where: { orgId: org.orgId, type: 'refund', reference: below.body.refundId } }),
    ]);
    const [{ txid }] = await prisma.$queryRaw<{ txid: bigint }[]>`SELECT xmin::text::bigint AS "txid" FROM "LedgerEntry" WHERE "id" = ${entry.id}`;
    expect(event.txid % 2n ** 32n).toBe(txid);

    // further down, by refund or by debit: nothing more
    expect((await refund(1)).status).toBe(200);
    await spend(org.key, 2);
    expect(await lowBalanceAlerts(org.key)).toHaveLength(1);
  });

  it('is written by a refund made at the processor, once its notice arrives', async () => {
    const org = await orgWithKey(t, undefined, 'payg');
    const token = await sessionToken(t, org.orgId);
    const paymentIntentId = await topUp(token, 500);
    expect((await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token, body: { enabled: false, thresholdCents: 400 } })).status).toBe(200);
    // refunded in the processor's own dashboard: only its signed notice tells this service
    const mark = server.events.length;
    const made = await fetch(`${server.url}/v1/refunds`, { method: 'POST', headers: { authorization: 'Bearer sk_test_local', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payment_intent: paymentIntentId, amount: '150' }) });
    expect(made.status).toBe(200);
    for (const event of server.events.slice(mark)) {
      const payload = JSON.stringify(event);
      const delivered = await call(t, 'POST', '/v1/billing/webhooks/processor', { rawBody: payload, headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }), 'content-type': 'application/json' } });
      expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    }
    expect((await credits(org.key)).balanceMillicents).toBe(350_000);
    const alerts = await lowBalanceAlerts(org.key);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.data).toEqual({ thresholdCents: 400, balanceMillicents: 350_000, autoTopup: false });
  });

  it('is written once when requests charged at once cross the threshold together', async () => {
    const org = await orgWithKey(t, undefined, 'payg');
    const token = await sessionToken(t, org.orgId);
    await adjustCredits(t.service.services, org.orgId, 10, 'test credit');
    expect((await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token, body: { enabled: false, thresholdCents: 9 } })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(t, 'GET', '/v1/filings?ticker=ZZZZ', { key: org.key })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(404));
    await t.service.services.admission.settle(org.orgId);
    expect((await credits(org.key)).balanceMillicents).toBe(10_000 - 20 * callMillicents);
    const alerts = await lowBalanceAlerts(org.key);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.data.balanceMillicents).toBeLessThan(9_000);
  });

  it('is information, not a warning, while auto-top-up refills the balance', async () => {
    const org = await orgWithKey(t, undefined, 'payg');
    const token = await sessionToken(t, org.orgId);
    await adjustCredits(t.service.services, org.orgId, 1, 'test credit'); // 1,000 millicents: 5 calls
    expect((await call(t, 'PUT', '/v1/billing/credits/auto-topup', { token, body: { enabled: true, thresholdCents: 1, amountCents: 1000 } })).status).toBe(200);
    await spend(org.key, 1);
    const [alert] = await lowBalanceAlerts(org.key);
    expect(alert).toMatchObject({
      severity: 'info',
      title: 'Prepaid credit fell below the low-balance threshold of $0.01; auto-top-up refills it',
      data: { thresholdCents: 1, balanceMillicents: 800, autoTopup: true },
    });
  });
});
