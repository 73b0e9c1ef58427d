// The payment processor (Stripe, through its SDK): customers, credit top-ups and refunds, saved
// payment methods, checkout and the billing portal. Credit is added only when the processor
// confirms a payment (creditTopUp, from its webhook or an off-session confirmation). Without
// STRIPE_SECRET_KEY these answer 503 payment_processor_unavailable and write nothing.
import { inSpan, SpanKind } from '../../core/tracing.ts';
import type Stripe from 'stripe';
import type { Config } from '../../core/config.ts';
import { ApiError } from '../../core/errors.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import { publishAll, recordEvent } from '../../subscriptions/events.ts';
import type { Context, Services } from '../context.ts';
import { paymentProcessor, recordAuditBy, type AuditSource } from '../accounts/auditLog.ts';
import { autoTopupFailedMark, readAccount } from './account.ts';
import { appendEntry, ensureAccount, lockAccount, millicentsPerCent, wholeCents } from './ledger.ts';
import { recordBalanceLow } from './balanceLow.ts';

/** How long after a top-up its unspent credit may be refunded. */
export const refundWindowDays = 30;
/** SPEC 8.7 */
export const maxPaymentMethods = 3;

/** autoTopupInFlight of an organization whose last auto-top-up failed: paused until the next top-up. */
export { autoTopupFailedMark };

let sdk: Promise<typeof Stripe> | undefined;
/** The processor's SDK, read on its first use: a service that takes no payment starts without it. */
const stripeSdk = () => (sdk ??= import('stripe').then((module) => module.default));

const clients = new WeakMap<Config['stripe'], Stripe>();

async function client(config: Config): Promise<Stripe> {
  const { secretKey, apiBase } = config.stripe;
  if (!secretKey) throw new ApiError('payment_processor_unavailable', 'Payments are not configured on this service (no processor key).', { retryable: false });
  let stripe = clients.get(config.stripe);
  if (!stripe) {
    const base = apiBase ? new URL(apiBase) : null;
    const Sdk = await stripeSdk();
    stripe = new Sdk(secretKey, {
      maxNetworkRetries: 1,
      timeout: 10_000,
      ...(base ? { host: base.hostname, port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
    });
    clients.set(config.stripe, stripe);
  }
  return stripe;
}

/** Runs a processor call; an outage or a processor-side failure is 503, never half a write. */
async function processorCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await inSpan(`payment processor: ${what}`, { 'ids.processor.call': what }, call, SpanKind.CLIENT);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const { errors } = await stripeSdk();
    if (error instanceof errors.StripeCardError) throw error;
    if (error instanceof errors.StripeInvalidRequestError) {
      throw new ApiError('validation_error', `The payment processor refused to ${what}: ${error.message}`, { details: { issues: [{ path: error.param ?? 'body', message: error.message }] } });
    }
    throw new ApiError('payment_processor_unavailable', `The payment processor could not ${what} just now; nothing was charged or changed. Retry shortly.`, { retryAfter: 5, retryable: true });
  }
}

/** The organization's processor customer, created on first need (an idempotency key makes a race create one). */
export async function ensureCustomer(ctx: Pick<Services, 'prisma' | 'config'>, orgId: string): Promise<string> {
  await ensureAccount(ctx.prisma, orgId);
  const account = await ctx.prisma.billingAccount.findUniqueOrThrow({ where: { orgId }, select: { customerId: true } });
  if (account.customerId) return account.customerId;
  const org = await ctx.prisma.organization.findUniqueOrThrow({ where: { id: orgId }, select: { name: true } });
  const customer = await processorCall('create a customer', async () =>
    (await client(ctx.config)).customers.create({ name: org.name, metadata: { orgId } }, { idempotencyKey: `customer-${orgId}` }),
  );
  await ctx.prisma.billingAccount.updateMany({ where: { orgId, customerId: null }, data: { customerId: customer.id } });
  return customer.id;
}

/**
 * What a top-up of `amountCents` of credit costs and brings: a bonus (the volume discount) of 2 %
 * from $100 and 5 % from $500, and a platform fee of 2.9 % + 30 cents on top, which is never refunded.
 */
export function topUpTerms(amountCents: number) {
  const bonusCents = amountCents >= 50_000 ? Math.floor(amountCents * 0.05) : amountCents >= 10_000 ? Math.floor(amountCents * 0.02) : 0;
  const feeCents = Math.round((amountCents * 29) / 1000) + 30;
  return { amountCents, bonusCents, creditCents: amountCents + bonusCents, feeCents, chargedCents: amountCents + feeCents };
}

/** A PaymentIntent for a credit purchase; credit arrives when the processor confirms it. */
export async function createTopUp(ctx: Context, orgId: string, amountCents: number, options: { saveMethod?: boolean } = {}) {
  const customer = await ensureCustomer(ctx, orgId);
  const terms = topUpTerms(amountCents);
  const intent = await processorCall('create the payment', async () =>
    (await client(ctx.config)).paymentIntents.create(
      {
        amount: terms.chargedCents,
        currency: 'usd',
        customer,
        description: `Credit top-up: ${terms.creditCents} cents of credit`,
        metadata: { orgId, purpose: 'credit_topup', amountCents: String(terms.amountCents), bonusCents: String(terms.bonusCents), feeCents: String(terms.feeCents) },
        ...(options.saveMethod ? { setup_future_usage: 'off_session' as const } : {}),
      },
      { idempotencyKey: `topup-${ctx.requestId}` },
    ),
  );
  await ctx.prisma.topUp.create({ data: { paymentIntentId: intent.id, orgId, amountCents: terms.amountCents, bonusCents: terms.bonusCents, feeCents: terms.feeCents, chargedCents: terms.chargedCents, status: 'pending' } });
  return { paymentIntentId: intent.id, clientSecret: intent.client_secret!, status: 'pending' as const, ...terms };
}

/** Adds a confirmed top-up's credit (and its bonus) once, however often the processor says so. */
export async function creditTopUp(services: Pick<Services, 'prisma' | 'bus'>, paymentIntentId: string, requestId?: string): Promise<boolean> {
  const topUp = await services.prisma.topUp.findUnique({ where: { paymentIntentId } });
  if (!topUp) return false;
  const events: BusEvent[] = [];
  await services.prisma.$transaction(async (tx) => {
    await lockAccount(tx, topUp.orgId);
    const credited = await appendEntry(tx, topUp.orgId, { type: 'topup', amountMillicents: BigInt(topUp.amountCents) * millicentsPerCent, reference: paymentIntentId, description: `Top-up of ${topUp.amountCents} cents` });
    if (!credited) return;
    if (topUp.bonusCents > 0) {
      await appendEntry(tx, topUp.orgId, { type: 'grant', amountMillicents: BigInt(topUp.bonusCents) * millicentsPerCent, reference: paymentIntentId, description: `Volume bonus on top-up ${paymentIntentId}` });
    }
    await tx.topUp.update({ where: { paymentIntentId }, data: { status: 'succeeded', succeededAt: new Date() } });
    await tx.billingAccount.update({ where: { orgId: topUp.orgId }, data: { paygEnabled: true } });
    // This payment ends the auto-top-up it was, and any pause a failed one left (the pause lasts until the next top-up).
    await tx.billingAccount.updateMany({
      where: { orgId: topUp.orgId, OR: [{ autoTopupInFlight: paymentIntentId }, { autoTopupInFlight: { startsWith: autoTopupFailedMark } }] },
      data: { autoTopupInFlight: null },
    });
    events.push(await recordEvent(tx, 'billing.credits_topped_up', topUp.orgId, { paymentIntentId, creditCents: topUp.amountCents + topUp.bonusCents, auto: topUp.auto }, requestId));
  });
  await publishAll(services.bus, events);
  return true;
}

/**
 * Refunds unspent credit of one top-up to its payment method, within the refund window. The credit
 * (and the same share of its bonus) leaves the balance in the transaction that asks the processor,
 * so it cannot be spent meanwhile; if the processor fails, nothing is written.
 */
export async function refundTopUp(ctx: Context, orgId: string, paymentIntentId: string, amountCents?: number) {
  const topUp = await ctx.prisma.topUp.findUnique({ where: { paymentIntentId } });
  if (!topUp || topUp.orgId !== orgId) throw new ApiError('top_up_not_found', `No top-up ${paymentIntentId} in this organization.`);
  const stripe = await client(ctx.config);
  // Credit this instance set aside but did not spend is not spent: give it back before counting.
  await ctx.admission.giveBack(orgId);
  const events: BusEvent[] = [];
  const result = await ctx.prisma.$transaction(
    async (tx) => {
      const account = await lockAccount(tx, orgId);
      const fresh = await tx.topUp.findUniqueOrThrow({ where: { paymentIntentId } });
      if (fresh.status !== 'succeeded' || !fresh.succeededAt) throw new ApiError('refund_not_allowed', 'Only a completed top-up can be refunded.', { details: { status: fresh.status } });
      const closes = new Date(fresh.succeededAt.getTime() + refundWindowDays * 86_400_000);
      if (closes < new Date()) throw new ApiError('refund_not_allowed', `The refund window of ${refundWindowDays} days for this top-up closed at ${closes.toISOString()}.`, { details: { refundWindowDays, closedAt: closes.toISOString() } });
      const refundable = fresh.amountCents - fresh.refundedCents;
      const amount = amountCents ?? refundable;
      // Nothing left (all refunded already) is a refusal too, not an amount of 0 sent to the processor.
      if (refundable <= 0 || amount > refundable) throw new ApiError('refund_not_allowed', `At most ${refundable} cents of this top-up can be refunded; the platform fee of ${fresh.feeCents} cents is not refundable.`, { details: { refundableCents: refundable } });
      const bonusShare = Math.floor((fresh.bonusCents * amount) / fresh.amountCents);
      const removed = BigInt(amount + bonusShare) * millicentsPerCent;
      const held = await tx.creditReservation.aggregate({ where: { orgId }, _sum: { millicents: true } });
      const unspent = account.balanceMillicents - (held._sum.millicents ?? 0n);
      if (unspent < removed) {
        throw new ApiError('refund_not_allowed', `Only unspent credit is refunded: ${wholeCents(unspent > 0n ? unspent : 0n)} cents are unspent, the refund needs ${amount + bonusShare}.`, { details: { unspentMillicents: Number(unspent) } });
      }
      const refund = await processorCall('refund the payment', () =>
        stripe.refunds.create({ payment_intent: paymentIntentId, amount, metadata: { orgId, purpose: 'credit_refund' } }, { idempotencyKey: `refund-${ctx.requestId}` }),
      );
      const entry = await appendEntry(tx, orgId, { type: 'refund', amountMillicents: -removed, reference: refund.id, description: `Refund of ${amount} cents of top-up ${paymentIntentId}${bonusShare ? ` (and ${bonusShare} cents of its bonus)` : ''}` });
      await tx.topUp.update({ where: { paymentIntentId }, data: { refundedCents: { increment: amount } } });
      events.push(await recordEvent(tx, 'billing.credits_refunded', orgId, { paymentIntentId, refundId: refund.id, amountCents: amount }, ctx.requestId));
      const low = await recordBalanceLow(tx, orgId, removed);
      if (low) events.push(low);
      return { refundId: refund.id, paymentIntentId, amountCents: amount, bonusForfeitedCents: bonusShare, feeRefundedCents: 0, balanceAfterMillicents: entry!.balanceAfterMillicents };
    },
    { timeout: 20_000 },
  );
  await publishAll(ctx.bus, events);
  return result;
}

/** payg/enable: a customer, a first top-up that saves the card for off-session use, optional auto-top-up. */
export async function enablePayg(ctx: Context, orgId: string, input: { amountCents: number; autoTopup?: { thresholdCents: number; amountCents: number } }) {
  const topUp = await createTopUp(ctx, orgId, input.amountCents, { saveMethod: true });
  const audit = await ctx.prisma.$transaction(async (tx) => {
    await tx.billingAccount.update({
      where: { orgId },
      data: { paygEnabled: true, ...(input.autoTopup ? { autoTopupEnabled: true, autoTopupThresholdCents: input.autoTopup.thresholdCents, autoTopupAmountCents: input.autoTopup.amountCents } : {}) },
    });
    return input.autoTopup ? recordAuditBy(tx, { ctx }, orgId, 'budget.changed', { type: 'billing_account', id: orgId }, { autoTopup: { enabled: true, ...input.autoTopup }, via: 'payg_enable' }) : null;
  });
  if (audit) await publishAll(ctx.bus, [audit]);
  return { ...topUp, paygEnabled: true, autoTopup: input.autoTopup ? { enabled: true, ...input.autoTopup } : { enabled: false, thresholdCents: null, amountCents: null } };
}

/**
 * Auto-top-up after a settlement left the balance below the threshold: one off-session payment
 * per organization in flight, with the primary method, then the others by fallback priority. A
 * failure is an event and pauses auto-top-up until the next top-up or settings change (no retry storm).
 */
export async function autoTopUp(services: Services, orgId: string): Promise<void> {
  const claim = `claim:${Date.now()}`;
  const claimed = await services.prisma.billingAccount.updateMany({ where: { orgId, autoTopupEnabled: true, autoTopupInFlight: null }, data: { autoTopupInFlight: claim } });
  if (claimed.count === 0) return;
  const failures: { paymentMethodId: string; code: string }[] = [];
  try {
    const { account } = await readAccount(services.prisma, orgId);
    const methods = await services.prisma.paymentMethod.findMany({ where: { orgId }, orderBy: [{ isPrimary: 'desc' }, { fallbackPriority: 'asc' }, { createdAt: 'asc' }] });
    const terms = topUpTerms(account.autoTopupAmountCents ?? 0);
    if (!account.customerId || !methods.length || terms.amountCents <= 0) throw new Error('no saved payment method');
    for (const method of methods) {
      try {
        const intent = await (await client(services.config)).paymentIntents.create(
          { amount: terms.chargedCents, currency: 'usd', customer: account.customerId, payment_method: method.id, off_session: true, confirm: true, metadata: { orgId, purpose: 'credit_topup', auto: 'true', amountCents: String(terms.amountCents), bonusCents: String(terms.bonusCents), feeCents: String(terms.feeCents) } },
          { idempotencyKey: `auto-topup-${orgId}-${claim}-${method.id}` },
        );
        await services.prisma.topUp.create({ data: { paymentIntentId: intent.id, orgId, amountCents: terms.amountCents, bonusCents: terms.bonusCents, feeCents: terms.feeCents, chargedCents: terms.chargedCents, status: 'pending', auto: true } });
        await services.prisma.billingAccount.update({ where: { orgId }, data: { autoTopupInFlight: intent.id } });
        if (intent.status === 'succeeded') await creditTopUp(services, intent.id);
        return;
      } catch (error) {
        failures.push({ paymentMethodId: method.id, code: error instanceof (await stripeSdk()).errors.StripeError ? (error.code ?? error.type) : 'processor_unavailable' });
      }
    }
    throw new Error('every payment method failed');
  } catch (error) {
    services.logger.warn({ orgId, failures, reason: (error as Error).message }, 'auto-top-up failed');
    const events: BusEvent[] = [];
    await services.prisma.$transaction(async (tx) => {
      await tx.billingAccount.update({ where: { orgId }, data: { autoTopupInFlight: `${autoTopupFailedMark}${new Date().toISOString()}` } });
      events.push(await recordEvent(tx, 'billing.auto_topup_failed', orgId, { failures, reason: failures.length ? failures[failures.length - 1]!.code : 'no_payment_method' }));
    });
    await publishAll(services.bus, events);
  }
}

/** A SetupIntent to save a card for off-session use; at most 3 saved methods (SPEC 8.7). */
export async function createSetupIntent(ctx: Context, orgId: string) {
  const saved = await ctx.prisma.paymentMethod.count({ where: { orgId } });
  if (saved >= maxPaymentMethods) {
    throw new ApiError('payment_method_limit_reached', `An organization can save at most ${maxPaymentMethods} payment methods; remove one first.`, { details: { limit: maxPaymentMethods, saved } });
  }
  const customer = await ensureCustomer(ctx, orgId);
  const intent = await processorCall('create the setup intent', async () =>
    (await client(ctx.config)).setupIntents.create({ customer, usage: 'off_session', metadata: { orgId } }, { idempotencyKey: `setup-${ctx.requestId}` }),
  );
  return { setupIntentId: intent.id, clientSecret: intent.client_secret!, savedMethods: saved, maxMethods: maxPaymentMethods };
}

export async function listPaymentMethods(db: Services['prisma'], orgId: string) {
  return db.paymentMethod.findMany({ where: { orgId }, orderBy: [{ isPrimary: 'desc' }, { fallbackPriority: 'asc' }, { createdAt: 'asc' }] });
}

export async function updatePaymentMethod(ctx: Context, orgId: string, id: string, change: { primary?: boolean; fallbackPriority?: number }) {
  const audit = await ctx.prisma.$transaction(async (tx) => {
    await lockAccount(tx, orgId); // one change of the organization's methods at a time: never two primaries
    const method = await tx.paymentMethod.findUnique({ where: { id } });
    if (!method || method.orgId !== orgId) throw new ApiError('payment_method_not_found', `No payment method ${id} in this organization.`);
    if (change.primary) {
      await tx.paymentMethod.updateMany({ where: { orgId, isPrimary: true }, data: { isPrimary: false } });
      await tx.paymentMethod.update({ where: { id }, data: { isPrimary: true } });
    }
    if (change.fallbackPriority !== undefined) await tx.paymentMethod.update({ where: { id }, data: { fallbackPriority: change.fallbackPriority } });
    return recordAuditBy(tx, { ctx }, orgId, 'payment_method.changed', { type: 'payment_method', id }, { change: 'updated', brand: method.brand, last4: method.last4, ...change });
  });
  await publishAll(ctx.bus, [audit]);
  return ctx.prisma.paymentMethod.findUniqueOrThrow({ where: { id } });
}

/** Detaches a method at the processor, then forgets it; the next one becomes primary. */
export async function removePaymentMethod(ctx: Context, orgId: string, id: string) {
  const method = await ctx.prisma.paymentMethod.findUnique({ where: { id } });
  if (!method || method.orgId !== orgId) throw new ApiError('payment_method_not_found', `No payment method ${id} in this organization.`);
  await detachAtProcessor(ctx.config, id);
  await forgetPaymentMethod(ctx, id, { ctx });
  return method;
}

/** Detaches a method at the processor; one already detached there (its notice not yet here) is fine. */
async function detachAtProcessor(config: Config, id: string): Promise<void> {
  await processorCall('detach the payment method', async () => {
    try {
      await (await client(config)).paymentMethods.detach(id);
    } catch (error) {
      if (error instanceof (await stripeSdk()).errors.StripeInvalidRequestError && (error.code === 'payment_method_unexpected_state' || error.code === 'resource_missing')) return;
      throw error;
    }
  });
}

/** Forgets a method detached at the processor (by `source`: a member, or the processor's notice); the next one becomes primary. */
export async function forgetPaymentMethod(services: Pick<Services, 'prisma' | 'bus'>, id: string, source: AuditSource) {
  const method = await services.prisma.paymentMethod.findUnique({ where: { id }, select: { orgId: true, brand: true, last4: true } });
  if (!method) return;
  const events: BusEvent[] = [];
  await services.prisma.$transaction(async (tx) => {
    await lockAccount(tx, method.orgId);
    const deleted = await tx.paymentMethod.deleteMany({ where: { id } });
    if (!deleted.count) return;
    events.push(await recordAuditBy(tx, source, method.orgId, 'payment_method.changed', { type: 'payment_method', id }, { change: 'removed', brand: method.brand, last4: method.last4 }));
    if (await tx.paymentMethod.count({ where: { orgId: method.orgId, isPrimary: true } })) return;
    const next = await tx.paymentMethod.findFirst({ where: { orgId: method.orgId }, orderBy: [{ fallbackPriority: 'asc' }, { createdAt: 'asc' }] });
    if (next) await tx.paymentMethod.update({ where: { id: next.id }, data: { isPrimary: true } });
  });
  await publishAll(services.bus, events);
}

/**
 * Records a method the processor attached to the organization's customer; the first is primary.
 * A new method past the limit of 3 (SPEC 8.7; two setup intents confirmed at once, or a card saved
 * by a top-up) is detached at the processor instead of saved: false then. The account's row is
 * held while the methods are counted, so notices arriving together make one primary and keep the limit.
 */
export async function rememberPaymentMethod(services: Pick<Services, 'prisma' | 'bus' | 'config' | 'logger'>, orgId: string, pm: Stripe.PaymentMethod): Promise<boolean> {
  const card = pm.card;
  const fields = { brand: card?.brand ?? pm.type, last4: card?.last4 ?? '', expMonth: card?.exp_month ?? 0, expYear: card?.exp_year ?? 0 };
  const outcome = await services.prisma.$transaction(async (tx) => {
    await lockAccount(tx, orgId);
    if (await tx.paymentMethod.findUnique({ where: { id: pm.id }, select: { id: true } })) {
      await tx.paymentMethod.update({ where: { id: pm.id }, data: fields });
      return { saved: true, count: 0, audit: null };
    }
    const count = await tx.paymentMethod.count({ where: { orgId } });
    if (count >= maxPaymentMethods) return { saved: false, count, audit: null };
    const hasPrimary = (await tx.paymentMethod.count({ where: { orgId, isPrimary: true } })) > 0;
    await tx.paymentMethod.create({ data: { id: pm.id, orgId, ...fields, isPrimary: !hasPrimary, fallbackPriority: count } });
    const audit = await recordAuditBy(tx, paymentProcessor, orgId, 'payment_method.changed', { type: 'payment_method', id: pm.id }, { change: 'saved', brand: fields.brand, last4: fields.last4, primary: !hasPrimary });
    return { saved: true, count, audit };
  });
  if (outcome.audit) await publishAll(services.bus, [outcome.audit]);
  if (!outcome.saved) {
    services.logger.warn({ orgId, paymentMethodId: pm.id, saved: outcome.count }, 'payment method past the limit detached');
    await detachAtProcessor(services.config, pm.id);
  }
  return outcome.saved;
}

/** The invoice as the processor holds it now; null without a processor configured. */
export async function retrieveInvoice(config: Config, id: string): Promise<Stripe.Invoice | null> {
  if (!config.stripe.secretKey) return null;
  return processorCall('read the invoice', async () => (await client(config)).invoices.retrieve(id));
}

export async function retrievePaymentMethod(config: Config, id: string): Promise<Stripe.PaymentMethod | null> {
  if (!config.stripe.secretKey) return null;
  return processorCall('read the payment method', async () => (await client(config)).paymentMethods.retrieve(id));
}

export const checkoutPlans = ['personal', 'team'] as const;

export async function createCheckout(ctx: Context, orgId: string, input: { plan: (typeof checkoutPlans)[number]; successUrl: string; cancelUrl: string }) {
  const price = ctx.config.stripe.prices[input.plan];
  if (!price) throw new ApiError('payment_processor_unavailable', `Checkout for the ${input.plan} plan is not configured on this service (no price id).`, { retryable: false });
  const current = await ctx.prisma.billingAccount.findUnique({ where: { orgId }, select: { subscriptionId: true, subscriptionStatus: true } });
  if (current?.subscriptionId && current.subscriptionStatus && !['canceled', 'incomplete_expired'].includes(current.subscriptionStatus)) {
    throw new ApiError('subscription_already_active', `The organization already has a subscription (${current.subscriptionStatus}); change or cancel it in the billing portal (POST /v1/billing/portal).`, {
      details: { subscriptionStatus: current.subscriptionStatus },
    });
  }
  const customer = await ensureCustomer(ctx, orgId);
  const session = await processorCall('start checkout', async () =>
    (await client(ctx.config)).checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        client_reference_id: orgId,
        line_items: [{ price, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: { orgId, planKey: input.plan },
        subscription_data: { metadata: { orgId, planKey: input.plan } },
      },
      { idempotencyKey: `checkout-${ctx.requestId}` },
    ),
  );
  return { checkoutSessionId: session.id, url: session.url!, plan: input.plan };
}

export async function createPortal(ctx: Context, orgId: string, returnUrl: string) {
  const customer = await ensureCustomer(ctx, orgId);
  const session = await processorCall('open the billing portal', async () => (await client(ctx.config)).billingPortal.sessions.create({ customer, return_url: returnUrl }));
  return { portalSessionId: session.id, url: session.url };
}

/** The processor's signed notice, verified with STRIPE_WEBHOOK_SECRET. */
export async function verifyProcessorEvent(config: Config, payload: string, signature: string): Promise<Stripe.Event> {
  const secret = config.stripe.webhookSecret;
  if (!secret) throw new ApiError('payment_processor_unavailable', 'Processor webhooks are not configured on this service (no webhook secret).', { retryable: false });
  if (!signature) throw new ApiError('processor_signature_invalid', 'The Stripe-Signature header is missing.');
  const { webhooks } = await stripeSdk();
  try {
    return webhooks.constructEvent(payload, signature, secret);
  } catch {
    throw new ApiError('processor_signature_invalid', 'The Stripe-Signature header does not verify this payload.');
  }
}
