// Drives the local Stripe stand-in with the real `stripe` SDK over HTTP, proving that it behaves
// as our billing flows expect: the SDK's requests, responses and error classes all round-trip.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeServer } from './stripeServer.ts';

let server: StripeServer;
let stripe: Stripe;

beforeAll(async () => {
  server = await startStripeServer({ prices: { price_pro_monthly: { unit_amount: 2900, currency: 'usd' } } });
  stripe = new Stripe('sk_test_local', { host: '127.0.0.1', port: server.port, protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(() => server.close());

const eventsOf = (type: string) => server.events.filter((e) => e.type === type);
const lastEvent = (type: string) => eventsOf(type).at(-1)!;

describe('stripe stand-in', () => {
  it('rejects requests without a secret key', async () => {
    const anonymous = new Stripe('pk_test_nope', { host: '127.0.0.1', port: server.port, protocol: 'http', maxNetworkRetries: 0 });
    await expect(anonymous.customers.create({})).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('creates, retrieves and updates customers; unknown ids are 404 resource_missing', async () => {
    const customer = await stripe.customers.create({ email: 'a@example.com', metadata: { orgId: 'org_1' } });
    expect(customer.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    const updated = await stripe.customers.update(customer.id, { name: 'Ada', metadata: { plan: 'pro' } });
    expect(updated).toMatchObject({ name: 'Ada', metadata: { orgId: 'org_1', plan: 'pro' } });
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);

    const error = await stripe.customers.retrieve('cus_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });
  });

  it('tops up: a PaymentIntent with metadata is confirmed and its event carries the metadata', async () => {
    const customer = await stripe.customers.create({ email: 'topup@example.com' });
    const intent = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      customer: customer.id,
      metadata: { orgId: 'org_42', kind: 'topup' },
      description: 'Credit top-up',
      setup_future_usage: 'off_session',
    });
    expect(intent).toMatchObject({ status: 'requires_payment_method', amount: 2500, livemode: false });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));

    const confirmed = server.confirmPaymentIntent(intent.id);
    expect(confirmed.status).toBe('succeeded');
    const retrieved = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] });
    const charge = retrieved.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({ object: 'charge', amount: 2500, payment_intent: intent.id });

    const event = lastEvent('payment_intent.succeeded');
    expect(event).toMatchObject({ object: 'event', livemode: false, pending_webhooks: 0, request: { id: null, idempotency_key: null } });
    expect(event.id).toMatch(/^evt_/);
    expect(event.data.object).toMatchObject({ id: intent.id, status: 'succeeded', metadata: { orgId: 'org_42', kind: 'topup' } });
    // setup_future_usage saved the card on the customer.
    const methods = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(methods.data.map((m) => m.id)).toEqual([retrieved.payment_method]);
    expect(lastEvent('payment_method.attached').data.object).toMatchObject({ customer: customer.id });
  });

  it('refuses a non-positive amount with parameter_invalid_integer', async () => {
    const error = await stripe.paymentIntents.create({ amount: 0, currency: 'usd' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ code: 'parameter_invalid_integer', param: 'amount' });
  });

  it('raises StripeCardError for a declined card confirmed on creation', async () => {
    const error = await stripe.paymentIntents
      .create({ amount: 900, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    const cardError = error as Stripe.errors.StripeCardError;
    expect(cardError).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' });
    expect(cardError.payment_intent).toMatchObject({ status: 'requires_payment_method' });
    expect(lastEvent('payment_intent.payment_failed').data.object).toMatchObject({ id: cardError.payment_intent!.id });

    // The card holder's helper reports the decline on the intent instead of raising.
    const retried = server.confirmPaymentIntent(cardError.payment_intent!.id, 'pm_card_chargeDeclined');
    expect(retried).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
  });

  it('off-session confirm of a card needing authentication raises authentication_required', async () => {
    const customer = await stripe.customers.create({});
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
    server.succeedSetupIntent(setup.id, 'pm_card_authenticationRequired');
    const [saved] = (await stripe.customers.listPaymentMethods(customer.id)).data;

    const error = await stripe.paymentIntents
      .create({ amount: 1500, currency: 'usd', customer: customer.id, payment_method: saved!.id, off_session: true, confirm: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    const cardError = error as Stripe.errors.StripeCardError;
    expect(cardError.code).toBe('authentication_required');
    const intent = await stripe.paymentIntents.retrieve(cardError.payment_intent!.id);
    expect(intent.status).toBe('requires_payment_method');
    expect(intent.last_payment_error?.code).toBe('authentication_required');

    // On-session, the same card waits for 3D Secure instead.
    const onSession = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd', customer: customer.id, payment_method: saved!.id, confirm: true });
    expect(onSession.status).toBe('requires_action');
    expect(server.confirmPaymentIntent(onSession.id).status).toBe('succeeded');
  });

  it('refunds partially, then refuses an over-refund and a refund of an unpaid intent', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 5000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true });
    expect(intent.status).toBe('succeeded');

    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 2000 });
    expect(refund).toMatchObject({ object: 'refund', amount: 2000, payment_intent: intent.id, status: 'succeeded' });
    expect((await stripe.refunds.retrieve(refund.id)).amount).toBe(2000);
    const charged = lastEvent('charge.refunded').data.object as Stripe.Charge;
    expect(charged).toMatchObject({ payment_intent: intent.id, amount: 5000, amount_refunded: 2000, refunded: false });
    expect(charged.refunds!.data.map((r) => r.id)).toEqual([refund.id]);
    expect(lastEvent('refund.created').data.object).toMatchObject({ id: refund.id });

    const tooMuch = await stripe.refunds.create({ payment_intent: intent.id, amount: 3001 }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ statusCode: 400, code: 'amount_too_large' });

    const rest = await stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(3000);
    const again = await stripe.refunds.create({ payment_intent: intent.id }).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'charge_already_refunded' });

    const unpaid = await stripe.paymentIntents.create({ amount: 100, currency: 'usd' });
    const refused = await stripe.refunds.create({ payment_intent: unpaid.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it('saves a card through a SetupIntent, lists it for the customer, and detaches it', async () => {
    const customer = await stripe.customers.create({});
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
    expect(setup).toMatchObject({ object: 'setup_intent', status: 'requires_payment_method' });
    server.succeedSetupIntent(setup.id, 'pm_card_visa');
    expect(lastEvent('setup_intent.succeeded').data.object).toMatchObject({ id: setup.id, status: 'succeeded' });

    const retrieved = await stripe.setupIntents.retrieve(setup.id);
    const methodId = retrieved.payment_method as string;
    const listed = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/payment_methods' });
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ id: methodId, type: 'card', customer: customer.id, card: { brand: 'visa', last4: '4242' } });

    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: methodId } });
    const expanded = await stripe.customers.retrieve(customer.id, { expand: ['invoice_settings.default_payment_method'] });
    expect((expanded as Stripe.Customer).invoice_settings.default_payment_method).toMatchObject({ id: methodId });

    const detached = await stripe.paymentMethods.detach(methodId);
    expect(detached.customer).toBeNull();
    expect(lastEvent('payment_method.detached').data.object).toMatchObject({ id: methodId });
    expect((await stripe.paymentMethods.list({ customer: customer.id })).data).toHaveLength(0);
  });

  it('completes a subscription checkout with events in order, then updates, fails and cancels it', async () => {
    const customer = await stripe.customers.create({ email: 'sub@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: 'price_pro_monthly', quantity: 1 }],
      success_url: 'https://app.example/ok',
      cancel_url: 'https://app.example/cancel',
      client_reference_id: 'org_7',
      subscription_data: { metadata: { orgId: 'org_7' } },
    });
    expect(session).toMatchObject({ status: 'open', url: `${server.url}/checkout/${session.id}` });
    expect((await fetch(session.url!)).status).toBe(200);

    const before = server.events.length;
    server.completeCheckout(session.id);
    const types = server.events.slice(before).map((e) => e.type);
    expect(types).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);

    const completed = server.events[before]!.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ status: 'complete', client_reference_id: 'org_7', customer: customer.id });
    const subscription = await stripe.subscriptions.retrieve(completed.subscription as string);
    expect(subscription).toMatchObject({ status: 'active', customer: customer.id, metadata: { orgId: 'org_7' } });
    expect(subscription.items.data[0]!.price.id).toBe('price_pro_monthly');
    expect((subscription as unknown as { current_period_end: number }).current_period_end).toBeGreaterThan(Date.now() / 1000);
    expect(server.events[before + 2]!.data.object).toMatchObject({ object: 'invoice', subscription: subscription.id, customer: customer.id, amount_paid: 2900 });

    server.updateSubscription(subscription.id, { cancel_at_period_end: true });
    const updated = lastEvent('customer.subscription.updated');
    expect(updated.data).toMatchObject({ object: { cancel_at_period_end: true }, previous_attributes: { cancel_at_period_end: false } });
    server.failInvoice(subscription.id);
    expect(lastEvent('invoice.payment_failed').data.object).toMatchObject({ subscription: subscription.id, paid: false });
    server.deleteSubscription(subscription.id);
    expect(lastEvent('customer.subscription.deleted').data.object).toMatchObject({ id: subscription.id, status: 'canceled' });
    // Earlier events keep their snapshot.
    expect(eventsOf('customer.subscription.created').at(-1)!.data.object).toMatchObject({ status: 'active' });
  });

  it('completes a payment-mode checkout with a paid PaymentIntent', async () => {
    const session = await stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: 'price_pro_monthly', quantity: 2 }], customer_email: 'p@example.com' });
    const before = server.events.length;
    const completed = server.completeCheckout(session.id);
    expect(server.events.slice(before).map((e) => e.type)).toEqual(['payment_intent.succeeded', 'checkout.session.completed']);
    const intent = await stripe.paymentIntents.retrieve(completed.payment_intent as string, { expand: ['customer'] });
    expect(intent).toMatchObject({ status: 'succeeded', amount: 5800, customer: { object: 'customer', email: 'p@example.com' } });
  });

  it('refuses checkout line items whose price is not a price_ id, and opens a billing portal', async () => {
    const bad = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: 'plan_old', quantity: 1 }] })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'resource_missing', param: 'line_items[0][price]' });

    const customer = await stripe.customers.create({});
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'https://app.example' });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal.url).toBe(`${server.url}/billing_portal/${portal.id}`);
  });

  it('replays the first response for a repeated Idempotency-Key', async () => {
    const params = { amount: 700, currency: 'usd', metadata: { orgId: 'org_idem' } };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'topup-org_idem-1' });
    const second = await stripe.paymentIntents.create(params, { idempotencyKey: 'topup-org_idem-1' });
    expect(second.id).toBe(first.id);
    expect([...server.state.paymentIntents.values()].filter((pi) => pi.metadata.orgId === 'org_idem')).toHaveLength(1);

    const reused = await stripe.paymentIntents.create({ ...params, amount: 800 }, { idempotencyKey: 'topup-org_idem-1' }).catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('answers unknown routes with a Stripe-shaped 404', async () => {
    const error = await stripe.rawRequest('GET', '/v1/nothing_here', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('goes down on stop() and comes back with its state on restart()', async () => {
    const customer = await stripe.customers.create({ email: 'outage@example.com' });
    await server.stop();
    const error = await stripe.customers.retrieve(customer.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    await server.restart();
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
  });

  it('emits events that round-trip through webhook signing', () => {
    const secret = 'whsec_test_local';
    const event = lastEvent('payment_intent.succeeded');
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const parsed = stripe.webhooks.constructEvent(payload, header, secret);
    expect(parsed).toEqual(event);
    expect(() => stripe.webhooks.constructEvent(payload, header, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('logs requests with their parsed form bodies', () => {
    const create = server.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.body.client_reference_id === 'org_7');
    expect(create?.body).toMatchObject({ line_items: [{ price: 'price_pro_monthly', quantity: '1' }], subscription_data: { metadata: { orgId: 'org_7' } } });
    expect(create?.idempotencyKey).toMatch(/^stripe-node-retry-/);
  });
});
