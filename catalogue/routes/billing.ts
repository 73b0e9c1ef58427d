// Billing (SPEC 4.3): the 17 account routes beside the public catalog and processor config
// (platform.ts). Reads take an API key or a session; writes that change money, methods or budgets
// need a dashboard session (access 'dashboard'). Money is integers: cents, and millicents
// (1/1,000 of a cent) where a call's price is below a cent.
import { z } from 'zod';
import {
  BillingDocument,
  BillingQuoteDocument,
  CreateCheckoutSessionDocument,
  CreatePortalSessionDocument,
  CreateSetupIntentDocument,
  CreateTopUpDocument,
  CreditTransactionsDocument,
  CreditsDocument,
  EnablePaygDocument,
  PaymentMethodsDocument,
  ReceiveProcessorEventDocument,
  RefundTopUpDocument,
  RemovePaymentMethodDocument,
  ResetStarterGrantDocument,
  SetAutoTopupDocument,
  SetBudgetDocument,
  UpdatePaymentMethodDocument,
  type BillingSnapshotFieldsFragment,
  type CreditSummaryFieldsFragment,
  type PaymentMethodFieldsFragment,
  type TopUpIntentFieldsFragment,
} from '../operations/generated.ts';
import { entryTypes } from '../../resolvers/billing/ledger.ts';
import { meterClasses } from '../../prisma/seed.ts';
import { checkoutPlans, refundWindowDays } from '../../resolvers/billing/processor.ts';
import { maxTopUpCents, minTopUpCents, workflows } from '../../resolvers/billing/catalog.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';

const cents = z.number().int();
const millicents = z.number().int().describe('Millicents: 1/1,000 of a cent');
const viewOnly = z.strictObject({ view: viewParam });
const billingRoute = { tag: 'Billing', meter: 'platform' } as const;
const processorErrors = ['payment_processor_unavailable'];
// The meter classes are reference data seeded from this list: a quote of any other is refused, and the contract lists them.
const meterClassParam = z.enum(meterClasses.map((m) => m.key) as [string, ...string[]]).describe('A meter class (GET /v1/limits lists the plan\'s)');

const snapshot = z.object({
  object: z.literal('billing'),
  planKey: z.string(),
  billingState: z.enum(['sandbox_grant', 'active', 'past_due', 'canceled']),
  mode: z.enum(['test', 'live']),
  processorCustomer: z.boolean(),
  paygEnabled: z.boolean().describe('Past the starter grant, calls are paid with prepaid credit'),
  subscription: z.object({ id: z.string(), status: z.string() }).nullable(),
  budget: z.object({
    period: z.string().describe('The UTC calendar month the spend counts, YYYY-MM'),
    periodSpendMillicents: millicents,
    periodSpendCents: cents,
    hardCapCents: cents.nullable(),
    softCapCents: cents.nullable(),
    approvalThresholdCents: cents.nullable(),
    softCapReached: z.boolean(),
  }),
  starterGrant: z.object({ calls: cents, used: cents, remaining: cents, lastResetAt: z.iso.datetime().nullable(), nextResetEligibleAt: z.iso.datetime().nullable() }),
  requestId: z.string(),
});

const credits = z.object({
  object: z.literal('credit_balance'),
  balanceMillicents: millicents,
  balanceCents: cents.describe('Whole cents of the balance, rounded down'),
  heldMillicents: millicents.describe('Set aside for calls admitted and not yet settled into the ledger (settled every few seconds)'),
  paygEnabled: z.boolean(),
  lowBalance: z.boolean().describe('Below the auto-top-up threshold'),
  autoTopup: z.object({ enabled: z.boolean(), thresholdCents: cents.nullable(), amountCents: cents.nullable(), inFlight: z.boolean(), paused: z.boolean().describe('After a failed auto-top-up, until the next top-up or a change of these settings') }),
  lifetime: z.object({ toppedUpCents: cents, grantedCents: cents, spentMillicents: millicents, refundedCents: cents, adjustedMillicents: millicents }),
  requestId: z.string(),
});

const topUp = z.object({
  object: z.literal('credit_topup'),
  paymentIntentId: z.string(),
  clientSecret: z.string().describe('Confirm the payment with it in the browser (processor.js); credit is added when the processor confirms'),
  status: z.literal('pending'),
  amountCents: cents.describe('Credit bought'),
  bonusCents: cents.describe('Volume discount, added as bonus credit: 2 % from $100, 5 % from $500'),
  creditCents: cents.describe('amountCents + bonusCents'),
  feeCents: cents.describe('Platform fee, 2.9 % + 30 cents; not refundable'),
  chargedCents: cents.describe('What the card is charged: amountCents + feeCents'),
});

const paymentMethod = z.object({
  object: z.literal('payment_method'),
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: cents,
  expYear: cents,
  isPrimary: z.boolean(),
  fallbackPriority: cents,
  createdAt: z.iso.datetime(),
});

const toSnapshot = (s: BillingSnapshotFieldsFragment) => ({ object: 'billing' as const, ...s, billingState: s.billingState as z.infer<typeof snapshot>['billingState'], mode: s.mode as 'test' | 'live' });
const toCredits = (c: CreditSummaryFieldsFragment) => ({ object: 'credit_balance' as const, ...c });
const toTopUp = (t: TopUpIntentFieldsFragment) => ({ object: 'credit_topup' as const, ...t, status: 'pending' as const });
const toMethod = (m: PaymentMethodFieldsFragment) => ({ object: 'payment_method' as const, ...m });

const methodPath = z.strictObject({ payment_method_id: z.string().regex(/^pm_[0-9A-Za-z_]{1,100}$/, 'expected a payment method id, pm_…') });
const url = z.url({ protocol: /^https?$/ }).max(2000);
const amountCents = z.number().int().min(minTopUpCents).max(maxTopUpCents);

export const billingRoutes = [
  operationRoute({
    ...billingRoute,
    name: 'billing_get',
    method: 'GET',
    path: '/v1/billing',
    summary: 'Billing snapshot: pricing posture, budget controls, settlement state',
    access: 'org',
    mcp: true,
    params: { query: viewOnly },
    response: snapshot,
    operation: BillingDocument,
  }).reshape(({ billing }, meta) => ({ ...toSnapshot(billing), ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_budget_set',
    method: 'PUT',
    path: '/v1/billing/budget',
    summary: 'Set the monthly spend controls',
    description:
      'Controls on prepaid-credit spend per UTC calendar month, in cents: `hardCapCents` (a request that would take the spend past it is 402 billing_budget_hard_cap_exceeded), `softCapCents` (reaching it emits billing.soft_cap_reached once per month), `approvalThresholdCents` (a request that would cross it is 402 billing_budget_approval_required). null removes a control; an omitted one is unchanged. Dashboard session only.',
    access: 'dashboard',
    params: {
      body: z
        .strictObject({ hardCapCents: cents.min(0).nullable(), softCapCents: cents.min(0).nullable(), approvalThresholdCents: cents.min(0).nullable() })
        .partial()
        .refine((b) => Object.keys(b).length > 0, 'name at least one of hardCapCents, softCapCents, approvalThresholdCents')
        // what the refine checks, in the body's JSON schema
        .meta({ minProperties: 1 }),
    },
    response: snapshot,
    operation: SetBudgetDocument,
    variables: ({ body }) => ({
      hardCapCents: body.hardCapCents ?? undefined,
      softCapCents: body.softCapCents ?? undefined,
      approvalThresholdCents: body.approvalThresholdCents ?? undefined,
      clear: (['hardCapCents', 'softCapCents', 'approvalThresholdCents'] as const).filter((k) => body[k] === null),
    }),
  }).reshape(({ setBudget }, meta) => ({ ...toSnapshot(setBudget), ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_checkout_create',
    method: 'POST',
    path: '/v1/billing/checkout',
    summary: 'Hosted checkout for the Personal or Team plan',
    description: 'The subscription starts when the processor confirms it (its webhook). An organization with a subscription that is not canceled is 409 subscription_already_active: change plans in the portal. Dashboard session only.',
    access: 'dashboard',
    errors: [...processorErrors, 'subscription_already_active'],
    params: { body: z.strictObject({ plan: z.enum(checkoutPlans), successUrl: url, cancelUrl: url }) },
    response: z.object({ object: z.literal('checkout_session'), checkoutSessionId: z.string(), url: z.string(), plan: z.string(), requestId: z.string() }),
    operation: CreateCheckoutSessionDocument,
    variables: ({ body }) => body,
  }).reshape(({ createCheckoutSession }, meta) => ({ object: 'checkout_session', ...createCheckoutSession, ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_portal_create',
    method: 'POST',
    path: '/v1/billing/portal',
    summary: 'Hosted billing-portal session',
    description: 'Dashboard session only.',
    access: 'dashboard',
    errors: processorErrors,
    params: { body: z.strictObject({ returnUrl: url }) },
    response: z.object({ object: z.literal('portal_session'), portalSessionId: z.string(), url: z.string(), requestId: z.string() }),
    operation: CreatePortalSessionDocument,
    variables: ({ body }) => body,
  }).reshape(({ createPortalSession }, meta) => ({ object: 'portal_session', ...createPortalSession, ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_credits_get',
    method: 'GET',
    path: '/v1/billing/credits',
    summary: 'Prepaid balance, auto-top-up settings, lifetime totals, low-balance status',
    access: 'org',
    mcp: true,
    params: { query: viewOnly },
    response: credits,
    operation: CreditsDocument,
  }).reshape(({ credits: c }, meta) => ({ ...toCredits(c), ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_auto_topup_set',
    method: 'PUT',
    path: '/v1/billing/credits/auto-topup',
    summary: 'Enable or disable auto-top-up',
    description:
      'When a settlement leaves the balance below `thresholdCents`, one off-session payment of `amountCents` is made with the primary method, then the others by fallback priority. A failure emits billing.auto_topup_failed and pauses auto-top-up until the next top-up or a change here. `thresholdCents` is also the low-balance threshold, kept with auto-top-up disabled too: `lowBalance` of GET /v1/billing/credits says the balance is below it, and the charged request or refund that takes the balance below it emits billing.balance_low (an alert, GET /v1/alerts), once per fall: not again until the balance has been back at or above it. Dashboard session only.',
    access: 'dashboard',
    params: { body: z.strictObject({ enabled: z.boolean(), thresholdCents: cents.min(0).optional(), amountCents: amountCents.optional() }) },
    response: credits,
    operation: SetAutoTopupDocument,
    variables: ({ body }) => body,
  }).reshape(({ setAutoTopup }, meta) => ({ ...toCredits(setAutoTopup), ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_credits_topup',
    method: 'POST',
    path: '/v1/billing/credits/topup',
    summary: 'Buy credit: a payment intent, its client secret and the discount and fee breakdown',
    description: `From ${minTopUpCents} to ${maxTopUpCents} cents. Credit is added only when the processor confirms the payment. Dashboard session only.`,
    access: 'dashboard',
    errors: processorErrors,
    params: { body: z.strictObject({ amountCents }) },
    response: topUp.extend({ requestId: z.string() }),
    operation: CreateTopUpDocument,
    variables: ({ body }) => body,
  }).reshape(({ createTopUp }, meta) => ({ ...toTopUp(createTopUp), ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_credits_refund',
    method: 'POST',
    path: '/v1/billing/credits/refund',
    summary: 'Refund unspent credit of a top-up to its payment method',
    description: `Within ${refundWindowDays} days of the top-up, and only credit not spent (the same share of its bonus is forfeited). The platform fee is not refundable. 409 refund_not_allowed otherwise. A refund that takes the balance below the low-balance threshold emits billing.balance_low, as a charged request does. Dashboard session only.`,
    access: 'dashboard',
    errors: [...processorErrors, 'top_up_not_found', 'refund_not_allowed'],
    params: { body: z.strictObject({ paymentIntentId: z.string().regex(/^pi_[0-9A-Za-z_]{1,100}$/, 'expected a payment intent id, pi_…'), amountCents: cents.min(1).optional().describe('Default: all that is refundable') }) },
    response: z.object({
      object: z.literal('credit_refund'),
      refundId: z.string(),
      paymentIntentId: z.string(),
      amountCents: cents,
      bonusForfeitedCents: cents,
      feeRefundedCents: z.literal(0),
      balanceAfterMillicents: millicents,
      requestId: z.string(),
    }),
    operation: RefundTopUpDocument,
    variables: ({ body }) => body,
  }).reshape(({ refundTopUp }, meta) => ({ object: 'credit_refund', ...refundTopUp, feeRefundedCents: 0 as const, ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_credit_transactions_list',
    method: 'GET',
    path: '/v1/billing/credits/transactions',
    summary: 'The credit ledger, newest first',
    description:
      'Entries of type topup, debit, refund, grant and adjustment, newest first; `type` lists one type only (the same cursors page it). Amounts are signed millicents; the balance is the sum of all entries. A debit settles the calls one service instance admitted over a few seconds; each call\'s own charge is in GET /v1/diagnostics/requests/{request_id}.',
    access: 'org',
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, type: z.enum(entryTypes).optional().describe('Only entries of this type'), view: viewParam }) },
    response: listEnvelope(
      z.object({
        object: z.literal('credit_transaction'),
        id: z.string(),
        type: z.enum(entryTypes),
        amountMillicents: millicents,
        balanceAfterMillicents: millicents,
        reference: z.string().nullable(),
        description: z.string(),
        createdAt: z.iso.datetime(),
      }),
    ),
    operation: CreditTransactionsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, type: query.type ?? null }),
  }).reshape(({ creditTransactions }, meta) => ({
      object: 'list',
      data: creditTransactions.nodes.map((e) => ({ object: 'credit_transaction' as const, ...e, type: e.type as 'topup' })),
      hasMore: creditTransactions.pageInfo.hasNextPage,
      nextCursor: creditTransactions.pageInfo.hasNextPage ? creditTransactions.pageInfo.endCursor : null,
      ...meta,
    })),
  operationRoute({
    ...billingRoute,
    name: 'billing_grant_reset',
    method: 'POST',
    path: '/v1/billing/grant/reset',
    summary: 'Re-grant the free starter allowance',
    description:
      'Once per rolling 30 days per organization (SPEC 3); sooner is 409 grant_reset_too_soon with details.nextEligibleAt and Retry-After. The organization returns to the sandbox_grant plan and state; its credit stays and pays once the grant is used. Not for subscription plans (402 billing_required). Dashboard session only.',
    access: 'dashboard',
    errors: ['grant_reset_too_soon'],
    response: snapshot,
    operation: ResetStarterGrantDocument,
  }).reshape(({ resetStarterGrant }, meta) => ({ ...toSnapshot(resetStarterGrant), ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_payg_enable',
    method: 'POST',
    path: '/v1/billing/payg/enable',
    summary: 'Pay as you go: save a card with a first top-up, optionally enable auto-top-up',
    description: 'Returns the first top-up\'s payment intent (confirm it in the browser; the card is saved for off-session use). Past the starter grant, calls are then paid with credit. Dashboard session only.',
    access: 'dashboard',
    errors: processorErrors,
    params: { body: z.strictObject({ amountCents, autoTopup: z.strictObject({ thresholdCents: cents.min(0), amountCents }).optional() }) },
    response: z.object({
      object: z.literal('payg_enablement'),
      topUp,
      paygEnabled: z.literal(true),
      autoTopup: z.object({ enabled: z.boolean(), thresholdCents: cents.nullable(), amountCents: cents.nullable() }),
      requestId: z.string(),
    }),
    operation: EnablePaygDocument,
    variables: ({ body }) => ({ amountCents: body.amountCents, autoTopupThresholdCents: body.autoTopup?.thresholdCents, autoTopupAmountCents: body.autoTopup?.amountCents }),
  }).reshape(({ enablePayg }, meta) => ({ object: 'payg_enablement', topUp: toTopUp(enablePayg.topUp), paygEnabled: true as const, autoTopup: enablePayg.autoTopup, ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_payment_methods_list',
    method: 'GET',
    path: '/v1/billing/payment-methods',
    summary: 'Saved payment methods, primary first',
    access: 'org',
    mcp: true,
    params: { query: viewOnly },
    response: z.object({ object: z.literal('list'), data: z.array(paymentMethod), hasMore: z.literal(false), nextCursor: z.null(), requestId: z.string() }),
    operation: PaymentMethodsDocument,
  }).reshape(({ paymentMethods }, meta) => ({ object: 'list', data: paymentMethods.map(toMethod), hasMore: false as const, nextCursor: null, ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_payment_method_update',
    method: 'PUT',
    path: '/v1/billing/payment-methods/{payment_method_id}',
    summary: 'Set the primary method and/or a method\'s auto-top-up fallback priority',
    description: 'Dashboard session only.',
    access: 'dashboard',
    errors: ['payment_method_not_found'],
    params: { path: methodPath, body: z.strictObject({ primary: z.literal(true).optional(), fallbackPriority: cents.min(0).max(100).optional() }).refine((b) => Object.keys(b).length > 0, 'name primary or fallbackPriority').meta({ minProperties: 1 }) },
    response: paymentMethod.extend({ requestId: z.string() }),
    operation: UpdatePaymentMethodDocument,
    variables: ({ path, body }) => ({ id: path.payment_method_id, ...body }),
  }).reshape(({ updatePaymentMethod }, meta) => ({ ...toMethod(updatePaymentMethod), ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_payment_method_delete',
    method: 'DELETE',
    path: '/v1/billing/payment-methods/{payment_method_id}',
    summary: 'Remove a saved payment method',
    description: 'Detaches it at the processor; the next method becomes primary. Dashboard session only.',
    access: 'dashboard',
    errors: [...processorErrors, 'payment_method_not_found'],
    params: { path: methodPath },
    response: paymentMethod.extend({ deleted: z.literal(true), requestId: z.string() }),
    operation: RemovePaymentMethodDocument,
    variables: ({ path }) => ({ id: path.payment_method_id }),
  }).reshape(({ removePaymentMethod }, meta) => ({ ...toMethod(removePaymentMethod), deleted: true as const, ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_setup_intent_create',
    method: 'POST',
    path: '/v1/billing/payment-methods/setup-intent',
    summary: 'A setup intent to save a payment method off-session',
    description: 'At most 3 saved methods per organization; past that, 409 payment_method_limit_reached. Dashboard session only.',
    access: 'dashboard',
    errors: [...processorErrors, 'payment_method_limit_reached'],
    response: z.object({ object: z.literal('setup_intent'), setupIntentId: z.string(), clientSecret: z.string(), savedMethods: cents, maxMethods: z.literal(3), requestId: z.string() }),
    operation: CreateSetupIntentDocument,
  }).reshape(({ createSetupIntent }, meta) => ({ object: 'setup_intent', ...createSetupIntent, maxMethods: 3 as const, ...meta })),
  operationRoute({
    ...billingRoute,
    name: 'billing_quote',
    method: 'POST',
    path: '/v1/billing/quote',
    summary: 'Quote calls of a meter class or a workflow against the plan and budget gates',
    description: `An estimate, not a reservation (SPEC 8.9). Give \`meterClass\` or \`workflow\` (${Object.keys(workflows).join(', ')}) and \`calls\` (for a workflow: how many runs). \`gates\` lists the 402 codes the calls would meet now.`,
    access: 'org',
    mcp: true,
    params: {
      body: z
        .strictObject({ meterClass: meterClassParam.optional(), workflow: z.enum(Object.keys(workflows) as [string, ...string[]]).optional(), calls: z.number().int().min(1).max(10_000_000) })
        .refine((b) => (b.meterClass === undefined) !== (b.workflow === undefined), 'give exactly one of meterClass and workflow')
        .meta({ oneOf: [{ required: ['meterClass'] }, { required: ['workflow'] }] }),
    },
    response: z.object({
      object: z.literal('billing_quote'),
      planKey: z.string(),
      billingState: z.string(),
      steps: z.array(z.object({ meterClass: z.string(), calls: cents, estimatedMillicents: millicents })),
      estimatedMillicents: millicents,
      estimatedCents: cents.describe('Rounded up to whole cents'),
      gates: z.array(z.object({ code: z.string(), message: z.string() })),
      allowed: z.boolean(),
      requestId: z.string(),
    }),
    operation: BillingQuoteDocument,
    variables: ({ body }) => body,
  }).reshape(({ billingQuote }, meta) => ({ object: 'billing_quote', ...billingQuote, ...meta })),
  operationRoute({
    name: 'billing_processor_webhook',
    method: 'POST',
    path: '/v1/billing/webhooks/processor',
    summary: 'Signed notices from the payment processor',
    description:
      'Public; the body is the processor\'s event, verified against STRIPE_WEBHOOK_SECRET with its `Stripe-Signature` header (400 processor_signature_invalid otherwise). Each event id is handled once; unknown types are acknowledged and recorded; an older subscription notice never overwrites a newer state.',
    tag: 'Billing',
    access: 'public',
    meter: null,
    signedBody: { header: 'stripe-signature' },
    errors: ['processor_signature_invalid', 'payment_processor_unavailable'],
    params: { body: z.object({ payload: z.string(), signature: z.string() }) },
    response: z.object({ object: z.literal('processor_event_receipt'), received: z.literal(true), eventId: z.string(), type: z.string(), handled: z.boolean(), duplicate: z.boolean(), requestId: z.string() }),
    operation: ReceiveProcessorEventDocument,
    variables: ({ body }) => body,
  }).reshape(({ receiveProcessorEvent }, meta) => ({ object: 'processor_event_receipt', ...receiveProcessorEvent, received: true as const, ...meta })),
];
