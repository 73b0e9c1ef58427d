// A local stand-in for api.stripe.com that speaks enough of the Stripe REST API (v1, form-encoded
// bodies, Stripe-shaped JSON errors, Idempotency-Key replay) for the official `stripe` SDK to drive
// our billing flows in tests without the network. Point the SDK at it with
//   new Stripe('sk_test_local', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
// State lives in memory. Plain methods on the returned object play the card holder and Stripe's
// side (confirming a payment, completing a checkout, changing, cancelling or failing a subscription),
// and every change that Stripe would announce is recorded in `events`, shaped as webhook events.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

// Stripe objects are kept as loose JSON: the server builds only the fields our flows read, so the
// SDK's full types would not fit. Callers get them cast to the SDK types.
type Obj = Record<string, any>;

export interface StripeRequest {
  method: string;
  /** URL path without the query string */
  path: string;
  /** the parsed form body (POST) */
  body: Obj;
  /** the parsed query string (GET) */
  query: Obj;
  idempotencyKey: string | null;
}

export interface StripeState {
  customers: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  charges: Map<string, Obj>;
  refunds: Map<string, Obj>;
  setupIntents: Map<string, Obj>;
  paymentMethods: Map<string, Obj>;
  checkoutSessions: Map<string, Obj>;
  portalSessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
}

export interface StripeServerOptions {
  /** amounts for price ids used in checkout (default: 0 usd; any `price_…` id is accepted) */
  prices?: Record<string, { unit_amount: number; currency: string }>;
}

export interface StripeServer {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** every event generated, oldest first */
  events: Stripe.Event[];
  requests: StripeRequest[];
  state: StripeState;
  close(): Promise<void>;
  /** stop listening and drop open connections: the SDK sees a connection error (an outage) */
  stop(): Promise<void>;
  /** listen again on the same port, state kept */
  restart(): Promise<void>;
  confirmPaymentIntent(id: string, paymentMethodId?: string): Stripe.PaymentIntent;
  succeedSetupIntent(id: string, paymentMethodId: string): Stripe.SetupIntent;
  completeCheckout(sessionId: string): Stripe.Checkout.Session;
  updateSubscription(id: string, patch: Obj): Stripe.Subscription;
  deleteSubscription(id: string): Stripe.Subscription;
  failInvoice(subscriptionId: string): Stripe.Invoice;
}

/** Thrown by handlers; becomes a Stripe-shaped error response. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: Obj,
  ) {
    super(error.message);
  }
}

const invalid = (code: string, message: string, param?: string, status = 400) =>
  new ApiError(status, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });
const missing = (kind: string, id: string, param?: string) =>
  invalid('resource_missing', `No such ${kind}: '${id}'`, param, 404);

// Stripe's test-mode card tokens and how a card behaves when charged.
type CardBehaviour = 'succeeds' | 'declined' | 'authenticationRequired';
const testCards: Record<string, { behaviour: CardBehaviour; brand: string; last4: string }> = {
  pm_card_visa: { behaviour: 'succeeds', brand: 'visa', last4: '4242' },
  pm_card_chargeDeclined: { behaviour: 'declined', brand: 'visa', last4: '0002' },
  pm_card_authenticationRequired: { behaviour: 'authenticationRequired', brand: 'visa', last4: '3184' },
};

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function newId(prefix: string): string {
  const bytes = randomBytes(24);
  return prefix + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
const now = () => Math.floor(Date.now() / 1000);
const snapshot = <T>(value: T): T => structuredClone(value);
const truthy = (value: unknown) => value === true || value === 'true';

function positiveInteger(value: unknown, param: string): number {
  if (value === undefined || value === '') throw invalid('parameter_missing', `Missing required param: ${param}.`, param);
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) <= 0) {
    throw invalid('parameter_invalid_integer', `Invalid positive integer: ${param}`, param);
  }
  return Number(text);
}

/** Stripe merges metadata on update, and an empty string removes a key. */
function mergeMetadata(current: Obj, patch: unknown): Obj {
  const merged = { ...current };
  for (const [key, value] of Object.entries((patch as Obj) ?? {})) {
    if (value === '') delete merged[key];
    else merged[key] = String(value);
  }
  return merged;
}

function listObject(data: Obj[], url: string, query: Obj = {}): Obj {
  let items = data;
  if (query.starting_after) items = items.slice(items.findIndex((o) => o.id === query.starting_after) + 1);
  const limit = query.limit ? Number(query.limit) : 10;
  return { object: 'list', data: items.slice(0, limit), has_more: items.length > limit, url };
}

export async function startStripeServer(options: StripeServerOptions = {}): Promise<StripeServer> {
  const state: StripeState = {
    customers: new Map(), paymentIntents: new Map(), charges: new Map(), refunds: new Map(), setupIntents: new Map(),
    paymentMethods: new Map(), checkoutSessions: new Map(), portalSessions: new Map(), subscriptions: new Map(), invoices: new Map(),
  };
  const events: Stripe.Event[] = [];
  const requests: StripeRequest[] = [];
  const cardBehaviour = new Map<string, CardBehaviour>();
  // What checkout sessions keep that Stripe does not return on the session object itself.
  const checkoutExtras = new Map<string, { lineItems: Obj[]; subscriptionMetadata: Obj }>();
  const idempotent = new Map<string, { request: string; status: number; json: string }>();
  let baseUrl = '';

  // ---- events -------------------------------------------------------------------------------

  function emit(type: string, object: Obj, previousAttributes?: Obj): void {
    const data = { object: snapshot(object), ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) };
    const event = { id: newId('evt_'), object: 'event', type, created: now(), data, livemode: false, api_version: Stripe.API_VERSION, pending_webhooks: 0, request: { id: null, idempotency_key: null } };
    events.push(event as unknown as Stripe.Event);
  }

  /** A new object with the fields every Stripe object has, stored in `map`. */
  function record(map: Map<string, Obj>, prefix: string, object: string, fields: Obj, id = newId(prefix)): Obj {
    const created = { id, object, ...fields, created: now(), livemode: false };
    map.set(id, created);
    return created;
  }

  // ---- lookups ------------------------------------------------------------------------------

  function find(map: Map<string, Obj>, kind: string, id: unknown, param?: string): Obj {
    const object = typeof id === 'string' ? map.get(id) : undefined;
    if (!object) throw missing(kind, String(id), param);
    return object;
  }
  const customer = (id: unknown, param = 'customer') => find(state.customers, 'customer', id, param);

  /** Any stored object by id, for `expand[]`. */
  function anyObject(id: string): Obj | undefined {
    for (const map of Object.values(state)) if (map.has(id)) return map.get(id);
    return undefined;
  }

  function expand(object: Obj, paths: unknown): Obj {
    const result = snapshot(object);
    for (const path of Array.isArray(paths) ? paths : []) {
      const [head, ...rest] = String(path).split('.');
      const value = result[head!];
      const inner = rest.length ? [rest.join('.')] : [];
      if (typeof value === 'string' && anyObject(value)) result[head!] = expand(anyObject(value)!, inner);
      else if (Array.isArray(value) && rest.length) result[head!] = value.map((item) => expand(item, inner)); // `data.customer` on lists
      else if (value && typeof value === 'object' && rest.length) result[head!] = expand(value, inner);
    }
    return result;
  }

  // ---- payment methods ----------------------------------------------------------------------

  function createPaymentMethod(id: string, behaviour: CardBehaviour, brand = 'visa', last4 = '4242'): Obj {
    cardBehaviour.set(id, behaviour);
    const card = { brand, last4, exp_month: 12, exp_year: new Date().getFullYear() + 3, funding: 'credit', country: 'US' };
    return record(state.paymentMethods, 'pm_', 'payment_method', { type: 'card', card, customer: null, metadata: {} }, id);
  }

  /**
   * The payment method a request names. A test token (pm_card_visa…) mints a new pm_… each use,
   * as Stripe does; `lenient` (test helpers) also creates unknown pm_… ids as visa cards.
   */
  function resolvePaymentMethod(ref: unknown, lenient = false, param = 'payment_method'): Obj {
    const id = String(ref ?? '');
    const card = testCards[id];
    if (card) return createPaymentMethod(newId('pm_'), card.behaviour, card.brand, card.last4);
    const existing = state.paymentMethods.get(id);
    if (existing) return existing;
    if (lenient && id.startsWith('pm_')) return createPaymentMethod(id, 'succeeds');
    throw missing('PaymentMethod', id, param);
  }

  /** Attaches and records `payment_method.attached`; a no-op if already attached there. */
  function attach(method: Obj, customerId: string): void {
    if (method.customer === customerId) return;
    if (method.customer) {
      throw invalid('payment_method_unexpected_state', 'The payment method you provided has already been attached to a customer.');
    }
    method.customer = customerId;
    emit('payment_method.attached', method);
  }

  // ---- payment intents ----------------------------------------------------------------------

  function createCharge(intent: Obj, method: Obj): Obj {
    const id = newId('ch_');
    return record(state.charges, 'ch_', 'charge', {
      amount: intent.amount, amount_captured: intent.amount, amount_refunded: 0, refunded: false,
      captured: true, paid: true, status: 'succeeded', currency: intent.currency,
      customer: intent.customer, description: intent.description, metadata: { ...intent.metadata },
      payment_intent: intent.id, payment_method: method.id, payment_method_details: { type: 'card', card: { ...method.card } },
      refunds: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${id}/refunds` },
    }, id);
  }

  function cardError(code: string, declineCode: string, message: string, method: Obj): Obj {
    const docUrl = `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;
    return { type: 'card_error', code, decline_code: declineCode, message, doc_url: docUrl, payment_method: snapshot(method) };
  }

  /**
   * Charges the intent's card and moves it to its next status, recording the events. Returns the
   * card error when the charge failed (the caller decides whether to raise it). `authenticated`:
   * the card holder is present and passes 3D Secure.
   */
  function confirm(intent: Obj, methodRef: unknown, how: { offSession?: boolean; authenticated?: boolean }): Obj | null {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      throw invalid('payment_intent_unexpected_state', `This PaymentIntent's status is ${intent.status} and cannot be confirmed.`);
    }
    if (!methodRef) {
      throw invalid('payment_intent_unexpected_state', 'You cannot confirm this PaymentIntent because it is missing a payment method.', 'payment_method');
    }
    const method = resolvePaymentMethod(methodRef);
    intent.payment_method = method.id;
    const behaviour = cardBehaviour.get(method.id) ?? 'succeeds';

    if (behaviour === 'declined' || (behaviour === 'authenticationRequired' && how.offSession)) {
      const error =
        behaviour === 'declined'
          ? cardError('card_declined', 'generic_decline', 'Your card was declined.', method)
          : cardError('authentication_required', 'authentication_required', 'Your card was declined. This transaction requires authentication.', method);
      // As Stripe does, a failed attempt clears the method so the next confirm must supply one.
      Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error, payment_method: null });
      emit('payment_intent.payment_failed', intent);
      return error;
    }
    if (behaviour === 'authenticationRequired' && !how.authenticated) {
      // On-session, 3D Secure waits for the card holder; confirmPaymentIntent() plays them.
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} } });
      emit('payment_intent.requires_action', intent);
      return null;
    }
    const charge = createCharge(intent, method);
    Object.assign(intent, { status: 'succeeded', latest_charge: charge.id, amount_received: intent.amount, last_payment_error: null, next_action: null });
    emit('payment_intent.succeeded', intent);
    if (intent.setup_future_usage && intent.customer) attach(method, intent.customer);
    return null;
  }

  function createPaymentIntent(body: Obj): Obj {
    const amount = positiveInteger(body.amount, 'amount');
    if (!body.currency) throw invalid('parameter_missing', 'Missing required param: currency.', 'currency');
    if (body.customer) customer(body.customer);
    if (truthy(body.off_session) && !truthy(body.confirm)) {
      throw invalid('parameter_invalid', 'off_session can only be used with confirm=true.', 'off_session');
    }
    if (truthy(body.confirm) && !body.payment_method) {
      throw invalid('parameter_missing', 'You cannot confirm this PaymentIntent because it is missing a payment method.', 'payment_method');
    }
    // Resolved once, so a test token mints one payment method, not one per use.
    const method = body.payment_method ? resolvePaymentMethod(body.payment_method).id : null;
    const id = newId('pi_');
    const intent = record(state.paymentIntents, 'pi_', 'payment_intent', {
      amount, amount_received: 0, currency: String(body.currency).toLowerCase(),
      customer: body.customer ?? null, description: body.description ?? null, metadata: mergeMetadata({}, body.metadata),
      payment_method: method, payment_method_types: body.payment_method_types ?? ['card'], setup_future_usage: body.setup_future_usage ?? null,
      status: method ? 'requires_confirmation' : 'requires_payment_method', client_secret: `${id}_secret_${newId('')}`,
      latest_charge: null, last_payment_error: null, next_action: null, capture_method: 'automatic',
    }, id);
    if (truthy(body.confirm)) confirmOrRaise(intent, intent.payment_method, truthy(body.off_session));
    return intent;
  }

  function confirmOrRaise(intent: Obj, methodRef: unknown, offSession: boolean): Obj {
    const error = confirm(intent, methodRef ?? intent.payment_method, { offSession });
    if (error) throw new ApiError(402, { ...error, payment_intent: snapshot(intent) });
    return intent;
  }

  // ---- refunds ------------------------------------------------------------------------------

  function createRefund(body: Obj): Obj {
    let charge: Obj;
    if (body.payment_intent) {
      const intent = find(state.paymentIntents, 'payment_intent', body.payment_intent, 'payment_intent');
      if (intent.status !== 'succeeded' || !intent.latest_charge) {
        throw invalid('payment_intent_unexpected_state', `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'payment_intent');
      }
      charge = state.charges.get(intent.latest_charge)!;
    } else if (body.charge) {
      charge = find(state.charges, 'charge', body.charge, 'charge');
    } else {
      throw invalid('parameter_missing', 'One of the following params should be provided for this request: payment_intent or charge.');
    }
    const refundable = charge.amount - charge.amount_refunded;
    if (refundable === 0) throw invalid('charge_already_refunded', `Charge ${charge.id} has already been refunded.`);
    const amount = body.amount === undefined ? refundable : positiveInteger(body.amount, 'amount');
    if (amount > refundable) {
      throw invalid('amount_too_large', `Refund amount (${amount}) is greater than unrefunded amount on charge (${refundable})`, 'amount');
    }
    const refund = record(state.refunds, 're_', 'refund', {
      amount, charge: charge.id, payment_intent: charge.payment_intent, currency: charge.currency,
      reason: body.reason ?? null, metadata: mergeMetadata({}, body.metadata), status: 'succeeded',
    });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    charge.refunds.data.unshift(refund);
    charge.refunds.total_count += 1;
    emit('charge.refunded', charge);
    emit('refund.created', refund);
    return refund;
  }

  // ---- customers, setup intents, sessions ---------------------------------------------------

  function createCustomer(body: Obj): Obj {
    const created = record(state.customers, 'cus_', 'customer', {
      email: body.email ?? null, name: body.name ?? null, description: body.description ?? null, metadata: mergeMetadata({}, body.metadata),
      invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
    });
    if (body.invoice_settings) updateCustomer(created, { invoice_settings: body.invoice_settings });
    return created;
  }

  function updateCustomer(target: Obj, body: Obj): Obj {
    for (const key of ['email', 'name', 'description'] as const) if (key in body) target[key] = body[key] || null;
    if (body.metadata !== undefined) target.metadata = mergeMetadata(target.metadata, body.metadata);
    const defaultMethod = body.invoice_settings?.default_payment_method;
    if (defaultMethod !== undefined) {
      const param = 'invoice_settings[default_payment_method]';
      if (defaultMethod && state.paymentMethods.get(defaultMethod)?.customer !== target.id) {
        throw invalid('resource_missing', `The customer does not have a payment method with the ID ${defaultMethod}.`, param);
      }
      target.invoice_settings.default_payment_method = defaultMethod || null;
    }
    return target;
  }

  function createSetupIntent(body: Obj): Obj {
    if (body.customer) customer(body.customer);
    const id = newId('seti_');
    return record(state.setupIntents, 'seti_', 'setup_intent', {
      customer: body.customer ?? null, usage: body.usage ?? 'off_session', payment_method_types: body.payment_method_types ?? ['card'],
      payment_method: null, status: 'requires_payment_method', client_secret: `${id}_secret_${newId('')}`,
      metadata: mergeMetadata({}, body.metadata), last_setup_error: null,
    }, id);
  }

  function createCheckoutSession(body: Obj): Obj {
    if (!['subscription', 'payment'].includes(body.mode)) {
      throw invalid('parameter_invalid', `Invalid mode: must be one of subscription or payment`, 'mode');
    }
    if (body.customer) customer(body.customer);
    const rawItems: Obj[] = Array.isArray(body.line_items) ? body.line_items : Object.values(body.line_items ?? {});
    if (rawItems.length === 0) throw invalid('parameter_missing', 'Missing required param: line_items.', 'line_items');
    const lineItems = rawItems.map((item, i) => {
      const price = String(item.price ?? '');
      if (!price.startsWith('price_')) throw missing('price', price, `line_items[${i}][price]`);
      const known = options.prices?.[price] ?? { unit_amount: 0, currency: 'usd' };
      return { price, quantity: item.quantity ? positiveInteger(item.quantity, `line_items[${i}][quantity]`) : 1, ...known };
    });
    const id = newId('cs_');
    checkoutExtras.set(id, { lineItems, subscriptionMetadata: mergeMetadata({}, body.subscription_data?.metadata) });
    return record(state.checkoutSessions, 'cs_', 'checkout.session', {
      mode: body.mode, status: 'open', payment_status: 'unpaid', url: `${baseUrl}/checkout/${id}`, expires_at: now() + 24 * 3600,
      customer: body.customer ?? null, customer_email: body.customer_email ?? null, client_reference_id: body.client_reference_id ?? null,
      metadata: mergeMetadata({}, body.metadata), success_url: body.success_url ?? null, cancel_url: body.cancel_url ?? null,
      amount_total: lineItems.reduce((sum, item) => sum + item.unit_amount * item.quantity, 0), currency: lineItems[0]!.currency,
      subscription: null, payment_intent: null, invoice: null,
    }, id);
  }

  function createPortalSession(body: Obj): Obj {
    if (!body.customer) throw invalid('parameter_missing', 'Missing required param: customer.', 'customer');
    customer(body.customer);
    const id = newId('bps_');
    const fields = { customer: body.customer, return_url: body.return_url ?? null, url: `${baseUrl}/billing_portal/${id}` };
    return record(state.portalSessions, 'bps_', 'billing_portal.session', fields, id);
  }

  // ---- subscriptions and invoices -----------------------------------------------------------

  function createSubscription(customerId: string, lineItems: Obj[], metadata: Obj, method: Obj): Obj {
    const id = newId('sub_');
    const start = now();
    const end = start + 30 * 24 * 3600;
    const items = lineItems.map((item) => {
      const recurring = { interval: 'month', interval_count: 1 };
      const price = { id: item.price, object: 'price', unit_amount: item.unit_amount, currency: item.currency, recurring };
      // Since API 2025-03-31 the period lives on items; we keep it on the subscription too.
      return { id: newId('si_'), object: 'subscription_item', price, quantity: item.quantity, subscription: id, current_period_start: start, current_period_end: end };
    });
    return record(state.subscriptions, 'sub_', 'subscription', {
      customer: customerId, status: 'active', metadata, currency: lineItems[0]!.currency,
      items: { object: 'list', data: items, has_more: false, url: `/v1/subscription_items?subscription=${id}` },
      current_period_start: start, current_period_end: end, cancel_at_period_end: false, canceled_at: null, ended_at: null,
      default_payment_method: method.id, latest_invoice: null,
    }, id);
  }

  function createInvoice(subscription: Obj, paid: boolean): Obj {
    const amount = subscription.items.data.reduce((sum: number, item: Obj) => sum + (item.price.unit_amount ?? 0) * item.quantity, 0);
    const details = { subscription: subscription.id, metadata: { ...subscription.metadata } };
    const invoice = record(state.invoices, 'in_', 'invoice', {
      customer: subscription.customer, subscription: subscription.id,
      // Where API versions since 2025-03-31 put the subscription.
      parent: { type: 'subscription_details', subscription_details: details },
      status: paid ? 'paid' : 'open', paid, attempted: true, currency: subscription.currency,
      amount_due: amount, amount_paid: paid ? amount : 0, amount_remaining: paid ? 0 : amount,
      billing_reason: subscription.latest_invoice ? 'subscription_cycle' : 'subscription_create',
      period_start: subscription.current_period_start, period_end: subscription.current_period_end,
    });
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  // ---- test helpers (what the card holder or Stripe would do) -------------------------------

  function confirmPaymentIntent(id: string, paymentMethodId = 'pm_card_visa'): Stripe.PaymentIntent {
    const intent = find(state.paymentIntents, 'payment_intent', id);
    // An intent waiting on 3D Secure keeps its card; the card holder now authenticates.
    const method = intent.status === 'requires_action' ? intent.payment_method : resolvePaymentMethod(paymentMethodId, true).id;
    confirm(intent, method, { authenticated: true });
    return snapshot(intent) as Stripe.PaymentIntent;
  }

  function succeedSetupIntent(id: string, paymentMethodId: string): Stripe.SetupIntent {
    const intent = find(state.setupIntents, 'setup_intent', id);
    const method = resolvePaymentMethod(paymentMethodId, true);
    Object.assign(intent, { status: 'succeeded', payment_method: method.id });
    emit('setup_intent.succeeded', intent);
    if (intent.customer) attach(method, intent.customer);
    return snapshot(intent) as Stripe.SetupIntent;
  }

  function completeCheckout(sessionId: string): Stripe.Checkout.Session {
    const session = find(state.checkoutSessions, 'checkout.session', sessionId);
    if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}`);
    const extras = checkoutExtras.get(sessionId)!;
    session.customer ??= createCustomer({ email: session.customer_email }).id;
    const method = resolvePaymentMethod('pm_card_visa');
    if (session.mode === 'payment') {
      const intent = createPaymentIntent({ amount: session.amount_total || 1, currency: session.currency, customer: session.customer, metadata: session.metadata });
      confirm(intent, method.id, { authenticated: true });
      session.payment_intent = intent.id;
    }
    Object.assign(session, { status: 'complete', payment_status: 'paid' });
    if (session.mode !== 'subscription') {
      emit('checkout.session.completed', session);
      return snapshot(session) as Stripe.Checkout.Session;
    }
    // Saved without an event, so that a checkout announces exactly: completed, subscription created, invoice paid.
    method.customer = session.customer;
    const subscription = createSubscription(session.customer, extras.lineItems, extras.subscriptionMetadata, method);
    const invoice = createInvoice(subscription, true);
    Object.assign(session, { subscription: subscription.id, invoice: invoice.id });
    emit('checkout.session.completed', session);
    emit('customer.subscription.created', subscription);
    emit('invoice.paid', invoice);
    return snapshot(session) as Stripe.Checkout.Session;
  }

  function updateSubscription(id: string, patch: Obj): Stripe.Subscription {
    const subscription = find(state.subscriptions, 'subscription', id);
    const previous = Object.fromEntries(Object.keys(patch).map((key) => [key, snapshot(subscription[key] ?? null)]));
    Object.assign(subscription, patch);
    emit('customer.subscription.updated', subscription, previous);
    return snapshot(subscription) as Stripe.Subscription;
  }

  function deleteSubscription(id: string): Stripe.Subscription {
    const subscription = find(state.subscriptions, 'subscription', id);
    Object.assign(subscription, { status: 'canceled', canceled_at: now(), ended_at: now() });
    emit('customer.subscription.deleted', subscription);
    return snapshot(subscription) as Stripe.Subscription;
  }

  function failInvoice(subscriptionId: string): Stripe.Invoice {
    const subscription = find(state.subscriptions, 'subscription', subscriptionId);
    const invoice = createInvoice(subscription, false);
    emit('invoice.payment_failed', invoice);
    return snapshot(invoice) as Stripe.Invoice;
  }

  // ---- HTTP ---------------------------------------------------------------------------------

  type Handler = (params: string[], body: Obj, query: Obj) => Obj;
  const pm = (id: string) => find(state.paymentMethods, 'payment_method', id, 'id');
  // Newest first, as Stripe lists.
  const listMethods = (customerId: string | null, query: Obj, url: string) => {
    const methods = [...state.paymentMethods.values()].filter((m) => m.customer === customerId && (!query.type || m.type === query.type));
    return listObject(methods.reverse(), url, query);
  };
  const routes: [string, RegExp, Handler][] = [
    ['POST', /^\/v1\/customers$/, (_, body) => createCustomer(body)],
    ['GET', /^\/v1\/customers\/([^/]+)$/, ([id]) => customer(id, 'id')],
    ['POST', /^\/v1\/customers\/([^/]+)$/, ([id], body) => updateCustomer(customer(id, 'id'), body)],
    ['GET', /^\/v1\/customers\/([^/]+)\/payment_methods$/, ([id], _, q) => listMethods(customer(id, 'id').id, q, `/v1/customers/${id}/payment_methods`)],
    ['POST', /^\/v1\/payment_intents$/, (_, body) => createPaymentIntent(body)],
    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, ([id]) => find(state.paymentIntents, 'payment_intent', id, 'intent')],
    ['POST', /^\/v1\/payment_intents\/([^/]+)\/confirm$/, ([id], body) =>
      confirmOrRaise(find(state.paymentIntents, 'payment_intent', id, 'intent'), body.payment_method, truthy(body.off_session))],
    ['POST', /^\/v1\/refunds$/, (_, body) => createRefund(body)],
    ['GET', /^\/v1\/refunds\/([^/]+)$/, ([id]) => find(state.refunds, 'refund', id, 'id')],
    ['POST', /^\/v1\/setup_intents$/, (_, body) => createSetupIntent(body)],
    ['GET', /^\/v1\/setup_intents\/([^/]+)$/, ([id]) => find(state.setupIntents, 'setup_intent', id, 'intent')],
    ['GET', /^\/v1\/payment_methods$/, (_, __, q) => listMethods(q.customer ? customer(q.customer).id : null, q, '/v1/payment_methods')],
    ['GET', /^\/v1\/payment_methods\/([^/]+)$/, ([id]) => pm(id)],
    ['POST', /^\/v1\/payment_methods\/([^/]+)\/attach$/, ([id], body) => {
      const method = resolvePaymentMethod(id, false, 'id');
      attach(method, customer(body.customer).id);
      return method;
    }],
    ['POST', /^\/v1\/payment_methods\/([^/]+)\/detach$/, ([id]) => {
      const method = pm(id);
      if (!method.customer) throw invalid('payment_method_unexpected_state', 'The payment method you provided is not attached to a customer so detachment is impossible.');
      method.customer = null;
      emit('payment_method.detached', method);
      return method;
    }],
    ['POST', /^\/v1\/checkout\/sessions$/, (_, body) => createCheckoutSession(body)],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, ([id]) => find(state.checkoutSessions, 'checkout.session', id, 'session')],
    ['POST', /^\/v1\/billing_portal\/sessions$/, (_, body) => createPortalSession(body)],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, ([id]) => find(state.subscriptions, 'subscription', id, 'id')],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, ([id]) => find(state.invoices, 'invoice', id, 'id')],
    ['GET', /^\/v1\/charges\/([^/]+)$/, ([id]) => find(state.charges, 'charge', id, 'id')],
  ];

  function route(method: string, path: string, body: Obj, query: Obj): Obj {
    for (const [routeMethod, pattern, handler] of routes) {
      const match = routeMethod === method ? pattern.exec(path) : null;
      if (match) return expand(handler(match.slice(1).map(decodeURIComponent), body, query), body.expand ?? query.expand);
    }
    throw invalid('resource_missing', `Unrecognized request URL (${method}: ${path}).`, undefined, 404);
  }

  function respond(res: ServerResponse, status: number, json: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json), 'request-id': newId('req_'), ...headers });
    res.end(json);
  }

  /** Hosted pages (checkout, portal) exist only so that their `url`s resolve. */
  function servePage(res: ServerResponse, path: string): void {
    const [, kind, id] = path.split('/');
    const exists = (kind === 'checkout' && state.checkoutSessions.has(id!)) || (kind === 'billing_portal' && state.portalSessions.has(id!));
    const html = exists ? `<!doctype html><title>${kind} ${id}</title>` : 'not found';
    res.writeHead(exists ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  }

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const [path = '/', search = ''] = (req.url ?? '/').split('?');
    if (!path.startsWith('/v1/')) return servePage(res, path);
    const method = req.method ?? 'GET';
    const parse = (text: string): Obj => qs.parse(text, { depth: 10, arrayLimit: 1000 });
    const body = method === 'POST' ? parse(raw) : {};
    const query = parse(search);
    const key = method === 'POST' ? ((req.headers['idempotency-key'] as string | undefined) ?? null) : null;
    requests.push({ method, path, body, query, idempotencyKey: key });

    if (!/^Bearer sk_\S+$/.test(req.headers.authorization ?? '')) {
      const message = 'You did not provide a valid API key. Use `Authorization: Bearer sk_…`.';
      return respond(res, 401, JSON.stringify({ error: { type: 'invalid_request_error', message } }));
    }
    const fingerprint = `${method} ${path} ${raw}`;
    const previous = key ? idempotent.get(key) : undefined;
    if (previous) {
      if (previous.request !== fingerprint) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
        return respond(res, 400, JSON.stringify({ error: { type: 'idempotency_error', message } }));
      }
      return respond(res, previous.status, previous.json, { 'idempotency-key': key!, 'idempotent-replayed': 'true' });
    }
    let status = 200;
    let json: string;
    try {
      json = JSON.stringify(route(method, path, body, query));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      json = JSON.stringify({ error: error.error });
    }
    if (key) idempotent.set(key, { request: fingerprint, status, json });
    respond(res, status, json, key ? { 'idempotency-key': key } : {});
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        respond(res, 500, JSON.stringify({ error: { type: 'api_error', message } }));
      }
    });
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      if (server.listening) return resolve();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      // Keep-alive sockets would otherwise keep serving the SDK through the "outage".
      server.closeAllConnections();
    });

  await listen(0);
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    port,
    events,
    requests,
    state,
    close: stop,
    stop,
    restart: () => listen(port),
    confirmPaymentIntent,
    succeedSetupIntent,
    completeCheckout,
    updateSubscription,
    deleteSubscription,
    failInvoice,
  };
}
