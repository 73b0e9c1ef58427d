// POST /v1/billing/webhooks/processor: the processor's signed notices. Each event id is handled
// once (ProcessorEvent), unknown types are acknowledged and recorded, and subscription changes are
// applied only when newer than the last one applied (the processor does not promise order).
import type Stripe from 'stripe';
import type { BusEvent } from '../../subscriptions/bus.ts';
import { publishAll, recordEvent } from '../../subscriptions/events.ts';
import type { Services } from '../context.ts';
import { paymentProcessor, recordAuditBy } from '../accounts/auditLog.ts';
import { recordBalanceLow } from './balanceLow.ts';
import { subscriptionPlans } from './gates.ts';
import { ensureAccount, lockAccount, millicentsPerCent, appendEntry } from './ledger.ts';
import { autoTopupFailedMark, creditTopUp, forgetPaymentMethod, rememberPaymentMethod, retrieveInvoice, retrievePaymentMethod, verifyProcessorEvent } from './processor.ts';

type Handler = (services: Services, event: Stripe.Event) => Promise<void>;

const id = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

async function orgOfCustomer(services: Services, customer: string | null, orgIdHint?: string | null): Promise<string | null> {
  if (customer) {
    const account = await services.prisma.billingAccount.findUnique({ where: { customerId: customer }, select: { orgId: true } });
    if (account) return account.orgId;
  }
  if (orgIdHint && (await services.prisma.organization.findUnique({ where: { id: orgIdHint }, select: { id: true } }))) return orgIdHint;
  return null;
}

/** Subscription status → billing state. */
function stateOf(status: string): string {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'past_due' || status === 'unpaid') return 'past_due';
  return 'canceled';
}

async function applySubscription(services: Services, event: Stripe.Event, sub: Stripe.Subscription, deleted: boolean) {
  const orgId = await orgOfCustomer(services, id(sub.customer), sub.metadata?.orgId);
  if (!orgId) return;
  const occurredAt = new Date(event.created * 1000);
  const events: BusEvent[] = [];
  await services.prisma.$transaction(async (tx) => {
    const account = await lockAccount(tx, orgId);
    // An older notice never overwrites a newer state.
    if (account.subscriptionEventAt && account.subscriptionEventAt > occurredAt) return;
    // A cancelled subscription stays cancelled: the processor's times are whole seconds, so a
    // notice of the same second delivered after the cancellation cannot revive it.
    if (!deleted && account.subscriptionId === sub.id && account.subscriptionStatus === 'canceled') return;
    const status = deleted ? 'canceled' : sub.status;
    const billingState = stateOf(status);
    const planKey = sub.metadata?.planKey && subscriptionPlans.has(sub.metadata.planKey) ? sub.metadata.planKey : undefined;
    await tx.billingAccount.update({ where: { orgId }, data: { subscriptionId: sub.id, subscriptionStatus: status, subscriptionEventAt: occurredAt, customerId: account.customerId ?? id(sub.customer) } });
    const before = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { planKey: true, billingState: true } });
    const after = await tx.organization.update({ where: { id: orgId }, data: { billingState, ...(planKey && billingState !== 'canceled' ? { planKey } : {}) } });
    events.push(await recordEvent(tx, 'billing.plan_changed', orgId, { planKey: planKey ?? null, billingState, reason: `subscription_${status}` }));
    if (after.planKey !== before.planKey || after.billingState !== before.billingState) {
      events.push(
        await recordAuditBy(tx, paymentProcessor, orgId, 'plan.changed', { type: 'organization', id: orgId }, { planKey: after.planKey, billingState, previousPlanKey: before.planKey, previousBillingState: before.billingState, reason: `subscription_${status}`, subscriptionId: sub.id }),
      );
    }
  });
  await publishAll(services.bus, events);
}

async function setStateFromInvoice(services: Services, invoice: Stripe.Invoice, event: Stripe.Event, paid: boolean) {
  const orgId = await orgOfCustomer(services, id(invoice.customer));
  if (!orgId) return;
  const occurredAt = new Date(event.created * 1000);
  // Notices carry whole seconds, so a failure stamped the same second as the last change may be
  // older or newer than it: the processor's invoice now says which (a paid invoice stays paid).
  const account = await services.prisma.billingAccount.findUnique({ where: { orgId }, select: { subscriptionEventAt: true } });
  if (!paid && account?.subscriptionEventAt?.getTime() === occurredAt.getTime() && (await retrieveInvoice(services.config, invoice.id!))?.status === 'paid') return;
  const events: BusEvent[] = [];
  await services.prisma.$transaction(async (tx) => {
    const account = await lockAccount(tx, orgId);
    if (!account.subscriptionId || (account.subscriptionEventAt && account.subscriptionEventAt > occurredAt)) return;
    const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId } });
    const billingState = paid ? (org.billingState === 'past_due' ? 'active' : org.billingState) : 'past_due';
    if (billingState === org.billingState) return;
    await tx.organization.update({ where: { id: orgId }, data: { billingState } });
    await tx.billingAccount.update({ where: { orgId }, data: { subscriptionEventAt: occurredAt } });
    const reason = paid ? 'invoice_paid' : 'invoice_payment_failed';
    events.push(await recordEvent(tx, 'billing.plan_changed', orgId, { planKey: org.planKey, billingState, reason }));
    events.push(await recordAuditBy(tx, paymentProcessor, orgId, 'plan.changed', { type: 'organization', id: orgId }, { planKey: org.planKey, billingState, previousPlanKey: org.planKey, previousBillingState: org.billingState, reason, invoiceId: invoice.id ?? null }));
  });
  await publishAll(services.bus, events);
}

/** A refund made at the processor (its dashboard) takes its credit out, within what is left. */
async function applyRefunds(services: Services, charge: Stripe.Charge) {
  const paymentIntentId = id(charge.payment_intent);
  const topUp = paymentIntentId ? await services.prisma.topUp.findUnique({ where: { paymentIntentId } }) : null;
  if (!topUp) return;
  const events: BusEvent[] = [];
  for (const refund of charge.refunds?.data ?? []) {
    await services.prisma.$transaction(async (tx) => {
      const account = await lockAccount(tx, topUp.orgId);
      if (await tx.ledgerEntry.findUnique({ where: { type_reference: { type: 'refund', reference: refund.id } } })) return;
      const wanted = BigInt(refund.amount) * millicentsPerCent;
      const removed = wanted > account.balanceMillicents ? account.balanceMillicents : wanted;
      await appendEntry(tx, topUp.orgId, { type: 'refund', amountMillicents: -removed, reference: refund.id, description: `Refund of ${refund.amount} cents made at the processor${removed < wanted ? ' (credit already spent: only the balance was taken)' : ''}` });
      await tx.topUp.update({ where: { paymentIntentId: topUp.paymentIntentId }, data: { refundedCents: { increment: refund.amount } } });
      const low = await recordBalanceLow(tx, topUp.orgId, removed);
      if (low) events.push(low);
    });
  }
  await publishAll(services.bus, events);
}

const handlers: Record<string, Handler> = {
  'checkout.session.completed': async (services, event) => {
    const session = event.data.object as Stripe.Checkout.Session;
    const orgId = session.client_reference_id ?? session.metadata?.orgId;
    if (!orgId || !(await services.prisma.organization.findUnique({ where: { id: orgId } }))) return;
    await ensureAccount(services.prisma, orgId);
    await services.prisma.billingAccount.updateMany({ where: { orgId, customerId: null }, data: { customerId: id(session.customer) } });
    if (session.subscription) await services.prisma.billingAccount.update({ where: { orgId }, data: { subscriptionId: id(session.subscription) } });
  },
  'customer.subscription.created': (services, event) => applySubscription(services, event, event.data.object as Stripe.Subscription, false),
  'customer.subscription.updated': (services, event) => applySubscription(services, event, event.data.object as Stripe.Subscription, false),
  'customer.subscription.deleted': (services, event) => applySubscription(services, event, event.data.object as Stripe.Subscription, true),
  'invoice.paid': (services, event) => setStateFromInvoice(services, event.data.object as Stripe.Invoice, event, true),
  'invoice.payment_failed': (services, event) => setStateFromInvoice(services, event.data.object as Stripe.Invoice, event, false),
  'payment_intent.succeeded': async (services, event) => {
    await creditTopUp(services, (event.data.object as Stripe.PaymentIntent).id);
  },
  'payment_intent.payment_failed': async (services, event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const topUp = await services.prisma.topUp.findUnique({ where: { paymentIntentId: intent.id } });
    if (!topUp || topUp.status !== 'pending') return;
    const code = intent.last_payment_error?.code ?? 'payment_failed';
    const events: BusEvent[] = [];
    await services.prisma.$transaction(async (tx) => {
      await tx.topUp.update({ where: { paymentIntentId: intent.id }, data: { status: 'failed', failureCode: code } });
      // An auto-top-up that was in flight has failed: paused until the next top-up, not in flight forever.
      if (topUp.auto) {
        await tx.billingAccount.updateMany({ where: { orgId: topUp.orgId, autoTopupInFlight: intent.id }, data: { autoTopupInFlight: `${autoTopupFailedMark}${new Date().toISOString()}` } });
      }
      events.push(await recordEvent(tx, 'billing.topup_failed', topUp.orgId, { paymentIntentId: intent.id, code, auto: topUp.auto }));
    });
    await publishAll(services.bus, events);
  },
  'charge.refunded': (services, event) => applyRefunds(services, event.data.object as Stripe.Charge),
  'setup_intent.succeeded': async (services, event) => {
    const intent = event.data.object as Stripe.SetupIntent;
    const orgId = await orgOfCustomer(services, id(intent.customer), intent.metadata?.orgId);
    const pmId = id(intent.payment_method);
    if (!orgId || !pmId) return;
    const pm = typeof intent.payment_method === 'object' && intent.payment_method ? intent.payment_method : await retrievePaymentMethod(services.config, pmId);
    if (pm) await rememberPaymentMethod(services, orgId, pm);
  },
  'payment_method.attached': async (services, event) => {
    const pm = event.data.object as Stripe.PaymentMethod;
    const orgId = await orgOfCustomer(services, id(pm.customer));
    if (orgId) await rememberPaymentMethod(services, orgId, pm);
  },
  'payment_method.detached': async (services, event) => {
    await forgetPaymentMethod(services, (event.data.object as Stripe.PaymentMethod).id, paymentProcessor);
  },
};

/** Verifies, then handles the event once; answers what was done with it. */
export async function receiveProcessorEvent(services: Services, payload: string, signature: string) {
  const event = await verifyProcessorEvent(services.config, payload, signature);
  const handler = handlers[event.type];
  const seen = await services.prisma.processorEvent.findUnique({ where: { id: event.id } });
  if (seen) return { received: true, eventId: event.id, type: event.type, handled: seen.handled, duplicate: true };
  if (handler) await handler(services, event);
  // Recorded after it was handled: a failure part-way is retried by the processor and handled then.
  await services.prisma.processorEvent.createMany({ data: [{ id: event.id, type: event.type, occurredAt: new Date(event.created * 1000), handled: Boolean(handler) }], skipDuplicates: true });
  return { received: true, eventId: event.id, type: event.type, handled: Boolean(handler), duplicate: false };
}
