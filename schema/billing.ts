// Billing (SPEC 4.3): the snapshot, credit and its ledger, budgets, the starter grant, quotes,
// saved payment methods, the processor's flows and its webhook. Reads take an API key or a
// session; writes that change money, methods or budgets need a dashboard session (SPEC 5.6).
import { needs } from '../resolvers/roles.ts';
import { requireDashboard, requireOrg } from '../resolvers/access.ts';
import { billingSnapshot, creditSummary, quote, resetGrant, setAutoTopup, setBudget } from '../resolvers/billing/account.ts';
import {
  createCheckout,
  createPortal,
  createSetupIntent,
  createTopUp,
  enablePayg,
  listPaymentMethods,
  refundTopUp,
  removePaymentMethod,
  updatePaymentMethod,
} from '../resolvers/billing/processor.ts';
import { receiveProcessorEvent } from '../resolvers/billing/processorEvents.ts';
import { entryTypes } from '../resolvers/billing/ledger.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';

type Snapshot = Awaited<ReturnType<typeof billingSnapshot>>;
type Credits = Awaited<ReturnType<typeof creditSummary>>;

const BudgetControls = builder.objectRef<Snapshot['budget']>('BudgetControls').implement({
  description: 'Monthly (UTC calendar month) controls on credit spend; null means no control.',
  fields: (t) => ({
    period: t.exposeString('period', { description: 'The month the spend counts, YYYY-MM' }),
    periodSpendMillicents: t.expose('periodSpendMillicents', { type: 'Long' }),
    periodSpendCents: t.exposeInt('periodSpendCents', { description: 'Whole cents of the spend, rounded down' }),
    hardCapCents: t.exposeInt('hardCapCents', { nullable: true, description: 'Requests that would take the spend past it are 402 billing_budget_hard_cap_exceeded' }),
    softCapCents: t.exposeInt('softCapCents', { nullable: true, description: 'Reaching it emits billing.soft_cap_reached once per month' }),
    approvalThresholdCents: t.exposeInt('approvalThresholdCents', { nullable: true, description: 'Requests that would cross it are 402 billing_budget_approval_required' }),
    softCapReached: t.exposeBoolean('softCapReached'),
  }),
});

const GrantStatus = builder.objectRef<Snapshot['starterGrant']>('StarterGrantStatus').implement({
  description: 'The free starter grant of calls.',
  fields: (t) => ({
    calls: t.exposeInt('calls'),
    used: t.exposeInt('used'),
    remaining: t.exposeInt('remaining'),
    lastResetAt: t.expose('lastResetAt', { type: 'DateTime', nullable: true }),
    nextResetEligibleAt: t.expose('nextResetEligibleAt', { type: 'DateTime', nullable: true, description: 'null when a reset is allowed now' }),
  }),
});

const BillingSubscription = builder.objectRef<NonNullable<Snapshot['subscription']>>('BillingSubscription').implement({
  fields: (t) => ({ id: t.exposeString('id', { description: 'The processor\'s subscription id' }), status: t.exposeString('status') }),
});

const BillingSnapshot = builder.objectRef<Snapshot>('BillingSnapshot').implement({
  description: 'Pricing posture, budget controls and settlement state of the organization.',
  fields: (t) => ({
    planKey: t.exposeString('planKey'),
    billingState: t.exposeString('billingState', { description: 'sandbox_grant, active, past_due or canceled' }),
    mode: t.exposeString('mode', { description: 'test or live' }),
    processorCustomer: t.exposeBoolean('processorCustomer', { description: 'Whether the organization has a customer at the payment processor' }),
    paygEnabled: t.exposeBoolean('paygEnabled', { description: 'Past the starter grant, calls are paid with prepaid credit' }),
    subscription: t.field({ type: BillingSubscription, nullable: true, resolve: (s) => s.subscription }),
    budget: t.field({ type: BudgetControls, resolve: (s) => s.budget }),
    starterGrant: t.field({ type: GrantStatus, resolve: (s) => s.starterGrant }),
  }),
});

const AutoTopup = builder.objectRef<Credits['autoTopup']>('AutoTopup').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    thresholdCents: t.exposeInt('thresholdCents', { nullable: true }),
    amountCents: t.exposeInt('amountCents', { nullable: true }),
    inFlight: t.exposeBoolean('inFlight', { description: 'An auto-top-up payment is in flight' }),
    paused: t.exposeBoolean('paused', { description: 'Paused after a failed auto-top-up, until the next top-up or a settings change' }),
  }),
});

const CreditTotals = builder.objectRef<Credits['lifetime']>('CreditTotals').implement({
  fields: (t) => ({
    toppedUpCents: t.exposeInt('toppedUpCents'),
    grantedCents: t.exposeInt('grantedCents'),
    spentMillicents: t.expose('spentMillicents', { type: 'Long' }),
    refundedCents: t.exposeInt('refundedCents'),
    adjustedMillicents: t.expose('adjustedMillicents', { type: 'Long' }),
  }),
});

const CreditSummary = builder.objectRef<Credits>('CreditSummary').implement({
  description: 'Prepaid credit. Exact amounts are in millicents (1/1,000 of a cent); `balanceCents` is the whole cents.',
  fields: (t) => ({
    balanceMillicents: t.expose('balanceMillicents', { type: 'Long' }),
    balanceCents: t.exposeInt('balanceCents'),
    heldMillicents: t.expose('heldMillicents', { type: 'Long', description: 'Set aside by the service for calls admitted and not yet settled' }),
    paygEnabled: t.exposeBoolean('paygEnabled'),
    lowBalance: t.exposeBoolean('lowBalance', { description: 'Below the auto-top-up threshold' }),
    autoTopup: t.field({ type: AutoTopup, resolve: (c) => c.autoTopup }),
    lifetime: t.field({ type: CreditTotals, resolve: (c) => c.lifetime }),
  }),
});

const LedgerEntry = builder.prismaObject('LedgerEntry', {
  description: 'One entry of the append-only credit ledger.',
  fields: (t) => ({
    id: t.exposeString('id', { description: '`ctx_…`' }),
    type: t.exposeString('type', { description: 'topup, debit, refund, grant or adjustment' }),
    amountMillicents: t.expose('amountMillicents', { type: 'Long', description: 'Signed: added credit is positive' }),
    balanceAfterMillicents: t.expose('balanceAfterMillicents', { type: 'Long' }),
    reference: t.exposeString('reference', { nullable: true, description: 'The payment intent or refund it records' }),
    description: t.exposeString('description'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const PaymentMethod = builder.prismaObject('PaymentMethod', {
  description: 'A saved card.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The processor\'s `pm_…`' }),
    brand: t.exposeString('brand'),
    last4: t.exposeString('last4'),
    expMonth: t.exposeInt('expMonth'),
    expYear: t.exposeInt('expYear'),
    isPrimary: t.exposeBoolean('isPrimary'),
    fallbackPriority: t.exposeInt('fallbackPriority', { description: 'Auto-top-up tries the other methods in this order, lowest first' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type QuoteResult = Awaited<ReturnType<typeof quote>>;
const QuoteStep = builder.objectRef<QuoteResult['steps'][number]>('QuoteStep').implement({
  fields: (t) => ({ meterClass: t.exposeString('meterClass'), calls: t.exposeInt('calls'), estimatedMillicents: t.expose('estimatedMillicents', { type: 'Long' }) }),
});
const QuoteGate = builder.objectRef<QuoteResult['gates'][number]>('QuoteGate').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});
const Quote = builder.objectRef<QuoteResult>('BillingQuote').implement({
  description: 'An estimate against the current plan and budget; nothing is reserved.',
  fields: (t) => ({
    planKey: t.exposeString('planKey'),
    billingState: t.exposeString('billingState'),
    steps: t.field({ type: [QuoteStep], resolve: (q) => q.steps }),
    estimatedMillicents: t.expose('estimatedMillicents', { type: 'Long' }),
    estimatedCents: t.exposeInt('estimatedCents', { description: 'Rounded up to whole cents' }),
    gates: t.field({ type: [QuoteGate], description: 'The 402 codes these calls would meet now', resolve: (q) => q.gates }),
    allowed: t.exposeBoolean('allowed'),
  }),
});

type TopUpResult = Awaited<ReturnType<typeof createTopUp>>;
const TopUpIntent = builder.objectRef<TopUpResult>('TopUpIntent').implement({
  description: 'A payment to confirm in the browser; credit is added when the processor confirms it.',
  fields: (t) => ({
    paymentIntentId: t.exposeString('paymentIntentId'),
    clientSecret: t.exposeString('clientSecret'),
    status: t.exposeString('status'),
    amountCents: t.exposeInt('amountCents', { description: 'Credit bought' }),
    bonusCents: t.exposeInt('bonusCents', { description: 'Volume discount, added as bonus credit' }),
    creditCents: t.exposeInt('creditCents', { description: 'amountCents + bonusCents' }),
    feeCents: t.exposeInt('feeCents', { description: 'Platform fee, not refundable' }),
    chargedCents: t.exposeInt('chargedCents', { description: 'What the card is charged: amountCents + feeCents' }),
  }),
});

type PaygResult = Awaited<ReturnType<typeof enablePayg>>;
const PaygEnabled = builder.objectRef<PaygResult>('PaygEnabled').implement({
  fields: (t) => ({
    topUp: t.field({ type: TopUpIntent, resolve: (r) => r }),
    paygEnabled: t.exposeBoolean('paygEnabled'),
    autoTopup: t.field({ type: AutoTopup, resolve: (r) => ({ ...r.autoTopup, inFlight: false, paused: false }) }),
  }),
});

type RefundResult = Awaited<ReturnType<typeof refundTopUp>>;
const CreditRefund = builder.objectRef<RefundResult>('CreditRefund').implement({
  fields: (t) => ({
    refundId: t.exposeString('refundId'),
    paymentIntentId: t.exposeString('paymentIntentId'),
    amountCents: t.exposeInt('amountCents'),
    bonusForfeitedCents: t.exposeInt('bonusForfeitedCents'),
    feeRefundedCents: t.exposeInt('feeRefundedCents', { description: 'Always 0: platform fees are not refundable' }),
    balanceAfterMillicents: t.expose('balanceAfterMillicents', { type: 'Long' }),
  }),
});

const SetupIntent = builder.objectRef<Awaited<ReturnType<typeof createSetupIntent>>>('SetupIntent').implement({
  fields: (t) => ({ setupIntentId: t.exposeString('setupIntentId'), clientSecret: t.exposeString('clientSecret'), savedMethods: t.exposeInt('savedMethods'), maxMethods: t.exposeInt('maxMethods') }),
});
const CheckoutSession = builder.objectRef<Awaited<ReturnType<typeof createCheckout>>>('CheckoutSession').implement({
  fields: (t) => ({ checkoutSessionId: t.exposeString('checkoutSessionId'), url: t.exposeString('url'), plan: t.exposeString('plan') }),
});
const PortalSession = builder.objectRef<Awaited<ReturnType<typeof createPortal>>>('PortalSession').implement({
  fields: (t) => ({ portalSessionId: t.exposeString('portalSessionId'), url: t.exposeString('url') }),
});
const ProcessorReceipt = builder.objectRef<Awaited<ReturnType<typeof receiveProcessorEvent>>>('ProcessorReceipt').implement({
  fields: (t) => ({
    received: t.exposeBoolean('received'),
    eventId: t.exposeString('eventId'),
    type: t.exposeString('type'),
    handled: t.exposeBoolean('handled', { description: 'false for types recorded but not acted on' }),
    duplicate: t.exposeBoolean('duplicate', { description: 'The event was received before and is not handled again' }),
  }),
});

builder.queryFields((t) => ({
  billing: t.field({ type: BillingSnapshot, description: 'The organization\'s billing snapshot.', resolve: (_r, _a, ctx) => billingSnapshot(ctx, requireOrg(ctx)) }),
  credits: t.field({ type: CreditSummary, description: 'Prepaid credit of the organization.', resolve: (_r, _a, ctx) => creditSummary(ctx, requireOrg(ctx)) }),
  creditTransactions: t.prismaConnection({
    type: LedgerEntry,
    cursor: 'id',
    description: 'The credit ledger, newest first; only entries of one type when `type` is given.',
    defaultSize: 25,
    maxSize: 100,
    args: { type: t.arg.string({ description: `Only entries of this type: ${entryTypes.join(', ')}` }) },
    resolve: async (query, _r, args, ctx) => {
      const orgId = requireOrg(ctx);
      const type = args.type ?? undefined;
      if (type !== undefined && !(entryTypes as readonly string[]).includes(type)) {
        throw new ApiError('invalid_request_parameter', `Parameter \`type\`: expected one of ${entryTypes.join(', ')}.`, { details: { parameter: 'type' } });
      }
      await ctx.admission.settle(orgId);
      return ctx.prisma.ledgerEntry.findMany({ ...query, where: { orgId, ...(type ? { type } : {}) }, orderBy: { seq: 'desc' } });
    },
  }),
  paymentMethods: t.prismaField({ type: [PaymentMethod], description: 'Saved payment methods, primary first.', resolve: (_q, _r, _a, ctx) => listPaymentMethods(ctx.prisma, requireOrg(ctx)) }),
  billingQuote: t.field({
    type: Quote,
    description: 'Price calls of a meter class, or a named workflow, against the plan and budget; reserves nothing.',
    args: { meterClass: t.arg.string(), workflow: t.arg.string(), calls: t.arg.int({ required: true }) },
    resolve: (_r, args, ctx) => quote(ctx, requireOrg(ctx), { meterClass: args.meterClass ?? undefined, workflow: args.workflow ?? undefined, calls: args.calls }),
  }),
}));

const dashboardOrg = (ctx: Parameters<typeof requireDashboard>[0]) => requireDashboard(ctx).orgId;

builder.mutationFields((t) => ({
  setBudget: t.field({ extensions: needs('billing'),
    type: BillingSnapshot,
    description: 'Set the monthly budget controls (dashboard session only); null removes a control, an absent one is unchanged.',
    args: { hardCapCents: t.arg.int(), softCapCents: t.arg.int(), approvalThresholdCents: t.arg.int(), clear: t.arg.stringList({ description: 'Controls to remove' }) },
    resolve: (_r, args, ctx) => {
      const orgId = dashboardOrg(ctx);
      const change: Record<string, number | null> = {};
      for (const name of ['hardCapCents', 'softCapCents', 'approvalThresholdCents'] as const) {
        if (args[name] !== null && args[name] !== undefined) change[name] = args[name];
        if (args.clear?.includes(name)) change[name] = null;
      }
      return setBudget(ctx, orgId, change);
    },
  }),
  setAutoTopup: t.field({ extensions: needs('billing'),
    type: CreditSummary,
    description: 'Enable or disable auto-top-up (dashboard session only).',
    args: { enabled: t.arg.boolean({ required: true }), thresholdCents: t.arg.int(), amountCents: t.arg.int() },
    resolve: (_r, args, ctx) => setAutoTopup(ctx, dashboardOrg(ctx), { enabled: args.enabled, thresholdCents: args.thresholdCents ?? undefined, amountCents: args.amountCents ?? undefined }),
  }),
  createTopUp: t.field({ extensions: needs('billing'), type: TopUpIntent, description: 'Buy credit (dashboard session only).', args: { amountCents: t.arg.int({ required: true }) }, resolve: (_r, args, ctx) => createTopUp(ctx, dashboardOrg(ctx), args.amountCents) }),
  refundTopUp: t.field({ extensions: needs('billing'),
    type: CreditRefund,
    description: 'Refund unspent credit of a top-up (dashboard session only).',
    args: { paymentIntentId: t.arg.string({ required: true }), amountCents: t.arg.int() },
    resolve: (_r, args, ctx) => refundTopUp(ctx, dashboardOrg(ctx), args.paymentIntentId, args.amountCents ?? undefined),
  }),
  resetStarterGrant: t.field({ extensions: needs('billing'), type: BillingSnapshot, description: 'Re-grant the starter allowance, once per rolling 30 days (dashboard session only).', resolve: (_r, _a, ctx) => resetGrant(ctx, dashboardOrg(ctx)) }),
  enablePayg: t.field({ extensions: needs('billing'),
    type: PaygEnabled,
    description: 'Save a card with a first top-up and optionally enable auto-top-up (dashboard session only).',
    args: { amountCents: t.arg.int({ required: true }), autoTopupThresholdCents: t.arg.int(), autoTopupAmountCents: t.arg.int() },
    resolve: (_r, args, ctx) =>
      enablePayg(ctx, dashboardOrg(ctx), {
        amountCents: args.amountCents,
        autoTopup: args.autoTopupThresholdCents != null && args.autoTopupAmountCents != null ? { thresholdCents: args.autoTopupThresholdCents, amountCents: args.autoTopupAmountCents } : undefined,
      }),
  }),
  updatePaymentMethod: t.prismaField({ extensions: needs('billing'),
    type: PaymentMethod,
    description: 'Make a method primary and/or set its fallback priority (dashboard session only).',
    args: { id: t.arg.string({ required: true }), primary: t.arg.boolean(), fallbackPriority: t.arg.int() },
    resolve: (_q, _r, args, ctx) => updatePaymentMethod(ctx, dashboardOrg(ctx), args.id, { primary: args.primary ?? undefined, fallbackPriority: args.fallbackPriority ?? undefined }),
  }),
  removePaymentMethod: t.prismaField({ extensions: needs('billing'), type: PaymentMethod, description: 'Detach a saved method (dashboard session only).', args: { id: t.arg.string({ required: true }) }, resolve: (_q, _r, args, ctx) => removePaymentMethod(ctx, dashboardOrg(ctx), args.id) }),
  createSetupIntent: t.field({ extensions: needs('billing'), type: SetupIntent, description: 'Save a payment method off-session; at most 3 (dashboard session only).', resolve: (_r, _a, ctx) => createSetupIntent(ctx, dashboardOrg(ctx)) }),
  createCheckoutSession: t.field({ extensions: needs('billing'),
    type: CheckoutSession,
    description: 'A hosted checkout for the Personal or Team subscription (dashboard session only).',
    args: { plan: t.arg.string({ required: true }), successUrl: t.arg.string({ required: true }), cancelUrl: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => createCheckout(ctx, dashboardOrg(ctx), { plan: args.plan as 'personal' | 'team', successUrl: args.successUrl, cancelUrl: args.cancelUrl }),
  }),
  createPortalSession: t.field({ extensions: needs('billing'), type: PortalSession, description: 'A hosted billing-portal session (dashboard session only).', args: { returnUrl: t.arg.string({ required: true }) }, resolve: (_r, args, ctx) => createPortal(ctx, dashboardOrg(ctx), args.returnUrl) }),
  receiveProcessorEvent: t.field({ extensions: needs('read'),
    type: ProcessorReceipt,
    description: 'A signed notice from the payment processor (public; verified with the webhook secret).',
    args: { payload: t.arg.string({ required: true }), signature: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => receiveProcessorEvent(ctx, args.payload, args.signature),
  }),
}));
