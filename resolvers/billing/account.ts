// The billing account as its owners see and change it: the snapshot, credit, the ledger, budget
// controls, the starter grant and quotes. Writes that move money hold the account's row.
import type { Db } from '../../prisma/db.ts';
import { ApiError } from '../../core/errors.ts';
import { publishAll, recordEvent } from '../../subscriptions/events.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import type { Context, Services } from '../context.ts';
import { operatorCli, recordAuditBy, type AuditSource } from '../accounts/auditLog.ts';
import { starterGrant, workflows } from './catalog.ts';
import { creditRoom, grantRoom, grantUsedUp, stateGate, subscriptionPlans, type Gate } from './gates.ts';
import { appendEntry, currentPeriod, ensureAccount, lockAccount, millicentsPerCent, wholeCents } from './ledger.ts';

/** autoTopupInFlight holds this prefix while auto-top-up is paused after a failure */
export const autoTopupFailedMark = 'failed:';

const dayMs = 86_400_000;
/** SPEC 3: the starter grant may be re-granted once per rolling 30 days */
export const grantResetIntervalMs = 30 * dayMs;

export async function readAccount(db: Db, orgId: string) {
  await ensureAccount(db, orgId);
  const [account, org, held] = await Promise.all([
    db.billingAccount.findUniqueOrThrow({ where: { orgId } }),
    db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { planKey: true, billingState: true, livemode: true } }),
    db.creditReservation.aggregate({ where: { orgId }, _sum: { millicents: true, grantCalls: true } }),
  ]);
  const spend = account.period === currentPeriod() ? account.periodSpendMillicents : 0n;
  return { account, org, spend, heldMillicents: held._sum.millicents ?? 0n, heldGrantCalls: held._sum.grantCalls ?? 0 };
}

function nextGrantReset(resetAt: Date | null): Date | null {
  return resetAt ? new Date(resetAt.getTime() + grantResetIntervalMs) : null;
}

/** GET /v1/billing: plan and state, budget controls and the month's spend, the grant, the subscription. */
export async function billingSnapshot(services: Services, orgId: string) {
  await services.admission.settle(orgId);
  const { account, org, spend } = await readAccount(services.prisma, orgId);
  const nextReset = nextGrantReset(account.grantResetAt);
  return {
    planKey: org.planKey,
    billingState: org.billingState,
    mode: org.livemode ? 'live' : 'test',
    processorCustomer: account.customerId !== null,
    paygEnabled: account.paygEnabled,
    subscription: account.subscriptionId ? { id: account.subscriptionId, status: account.subscriptionStatus ?? 'unknown' } : null,
    budget: {
      period: currentPeriod(),
      periodSpendMillicents: spend,
      periodSpendCents: wholeCents(spend),
      hardCapCents: account.hardCapCents,
      softCapCents: account.softCapCents,
      approvalThresholdCents: account.approvalThresholdCents,
      softCapReached: account.softCapCents !== null && spend >= BigInt(account.softCapCents) * millicentsPerCent,
    },
    starterGrant: {
      calls: starterGrant.calls,
      used: Math.min(account.grantCallsUsed, starterGrant.calls),
      remaining: Math.max(0, starterGrant.calls - account.grantCallsUsed),
      lastResetAt: account.grantResetAt,
      nextResetEligibleAt: nextReset && nextReset > new Date() ? nextReset : null,
    },
  };
}

/** GET /v1/billing/credits: balance, auto-top-up, lifetime totals and the low-balance status. */
export async function creditSummary(services: Services, orgId: string) {
  await services.admission.settle(orgId);
  const { account, heldMillicents } = await readAccount(services.prisma, orgId);
  const totals = await services.prisma.ledgerEntry.groupBy({ by: ['type'], where: { orgId }, _sum: { amountMillicents: true } });
  const total = (type: string) => totals.find((t) => t.type === type)?._sum.amountMillicents ?? 0n;
  const threshold = account.autoTopupThresholdCents;
  return {
    balanceMillicents: account.balanceMillicents,
    balanceCents: wholeCents(account.balanceMillicents),
    heldMillicents,
    paygEnabled: account.paygEnabled,
    lowBalance: threshold !== null && account.balanceMillicents < BigInt(threshold) * millicentsPerCent,
    autoTopup: {
      enabled: account.autoTopupEnabled,
      thresholdCents: threshold,
      amountCents: account.autoTopupAmountCents,
      inFlight: account.autoTopupInFlight !== null && !account.autoTopupInFlight.startsWith(autoTopupFailedMark),
      paused: account.autoTopupInFlight?.startsWith(autoTopupFailedMark) ?? false,
    },
    lifetime: {
      toppedUpCents: wholeCents(total('topup')),
      grantedCents: wholeCents(total('grant')),
      spentMillicents: -total('debit'),
      refundedCents: wholeCents(-total('refund')),
      adjustedMillicents: total('adjustment'),
    },
  };
}

export async function setBudget(ctx: Context, orgId: string, budget: { hardCapCents?: number | null; softCapCents?: number | null; approvalThresholdCents?: number | null }) {
  const events: BusEvent[] = [];
  await ctx.prisma.$transaction(async (tx) => {
    await lockAccount(tx, orgId);
    const updated = await tx.billingAccount.update({ where: { orgId }, data: budget });
    const controls = { hardCapCents: updated.hardCapCents, softCapCents: updated.softCapCents, approvalThresholdCents: updated.approvalThresholdCents };
    events.push(await recordEvent(tx, 'billing.budget_updated', orgId, controls, ctx.requestId));
    events.push(await recordAuditBy(tx, { ctx }, orgId, 'budget.changed', { type: 'billing_account', id: orgId }, { budget: controls }));
  });
  await publishAll(ctx.bus, events);
  return billingSnapshot(ctx, orgId);
}

export async function setAutoTopup(ctx: Context, orgId: string, settings: { enabled: boolean; thresholdCents?: number; amountCents?: number }) {
  await ensureAccount(ctx.prisma, orgId);
  const current = await ctx.prisma.billingAccount.findUniqueOrThrow({ where: { orgId } });
  const thresholdCents = settings.thresholdCents ?? current.autoTopupThresholdCents;
  const amountCents = settings.amountCents ?? current.autoTopupAmountCents;
  if (settings.enabled && (thresholdCents === null || amountCents === null)) {
    throw new ApiError('validation_error', 'Enabling auto-top-up needs a thresholdCents and an amountCents.', {
      details: { issues: [{ path: thresholdCents === null ? 'thresholdCents' : 'amountCents', message: 'required when enabled is true' }] },
    });
  }
  // a change here resumes an auto-top-up paused by a failure
  const resume = current.autoTopupInFlight?.startsWith(autoTopupFailedMark) ? { autoTopupInFlight: null } : {};
  const audit = await ctx.prisma.$transaction(async (tx) => {
    await tx.billingAccount.update({ where: { orgId }, data: { autoTopupEnabled: settings.enabled, autoTopupThresholdCents: thresholdCents, autoTopupAmountCents: amountCents, ...resume } });
    return recordAuditBy(tx, { ctx }, orgId, 'budget.changed', { type: 'billing_account', id: orgId }, { autoTopup: { enabled: settings.enabled, thresholdCents, amountCents } });
  });
  await publishAll(ctx.bus, [audit]);
  return creditSummary(ctx, orgId);
}

/** POST /v1/billing/grant/reset: once per rolling 30 days (SPEC 3). */
export async function resetGrant(ctx: Context, orgId: string) {
  const events: BusEvent[] = [];
  await ctx.prisma.$transaction(async (tx) => {
    const account = await lockAccount(tx, orgId);
    const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { planKey: true } });
    if (subscriptionPlans.has(org.planKey)) {
      throw new ApiError('billing_required', `The organization is on the ${org.planKey} plan; the starter grant is for organizations without a subscription.`, { details: { planKey: org.planKey } });
    }
    const next = nextGrantReset(account.grantResetAt);
    if (next && next > new Date()) {
      throw new ApiError('grant_reset_too_soon', `The starter grant was last re-granted at ${account.grantResetAt!.toISOString()}; it can be re-granted again from ${next.toISOString()}.`, {
        details: { lastResetAt: account.grantResetAt!.toISOString(), nextEligibleAt: next.toISOString() },
        retryAfter: Math.ceil((next.getTime() - Date.now()) / 1000),
      });
    }
    await tx.billingAccount.update({ where: { orgId }, data: { grantCallsUsed: 0, grantResetAt: new Date() } });
    const before = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { planKey: true, billingState: true } });
    await tx.organization.update({ where: { id: orgId }, data: { planKey: 'sandbox_grant', billingState: 'sandbox_grant' } });
    if (before.planKey !== 'sandbox_grant' || before.billingState !== 'sandbox_grant') {
      events.push(await recordAuditBy(tx, { ctx }, orgId, 'plan.changed', { type: 'organization', id: orgId }, { planKey: 'sandbox_grant', billingState: 'sandbox_grant', previousPlanKey: before.planKey, previousBillingState: before.billingState, reason: 'grant_reset' }));
    }
    // The grant is calls, not credit: the entry records it in the ledger's history and moves no balance.
    await appendEntry(tx, orgId, { type: 'grant', amountMillicents: 0n, description: `Starter grant of ${starterGrant.calls} calls re-granted` });
    events.push(await recordEvent(tx, 'billing.grant_reset', orgId, { calls: starterGrant.calls }, ctx.requestId));
  });
  await publishAll(ctx.bus, events);
  return billingSnapshot(ctx, orgId);
}

/** Named bundles of calls a quote can price at once. */
/** POST /v1/billing/quote: the price and the gates that would fire now; reserves nothing (SPEC 8.9). */
export async function quote(services: Services, orgId: string, ask: { meterClass?: string; workflow?: string; calls: number }) {
  const steps = ask.workflow ? workflows[ask.workflow]!.steps.map((s) => ({ ...s, calls: s.calls * ask.calls })) : [{ meterClass: ask.meterClass!, calls: ask.calls }];
  const { account, org, spend, heldMillicents, heldGrantCalls } = await readAccount(services.prisma, orgId);
  const quotas = await services.prisma.planQuota.findMany({ where: { planKey: org.planKey } });
  const pricedSteps = await Promise.all(steps.map(async (s) => ({ ...s, estimatedMillicents: await services.admission.price(s.meterClass, s.calls) })));
  let estimated = 0n;
  let priced = 0;
  const gates: Gate[] = [];
  for (const step of pricedSteps) {
    const windows = quotas.filter((q) => q.meterClass === step.meterClass);
    if (!windows.length || windows.some((q) => !q.allowed)) gates.push({ code: 'billing_required', message: `The plan ${org.planKey} does not include ${step.meterClass} requests.`, details: { meterClass: step.meterClass } });
    estimated += step.estimatedMillicents;
    if (step.estimatedMillicents > 0n) priced += step.calls;
  }
  const state = estimated > 0n ? stateGate(org.planKey, org.billingState) : null;
  if (state) gates.push(state);
  else if (estimated > 0n && !subscriptionPlans.has(org.planKey)) {
    const grantLeft = org.planKey === 'sandbox_grant' ? grantRoom(account.grantCallsUsed, heldGrantCalls) : 0;
    const onCredit = org.planKey === 'payg' || grantLeft < priced;
    if (onCredit && org.planKey === 'sandbox_grant' && !account.paygEnabled) gates.push(grantUsedUp());
    else if (onCredit) {
      const share = org.planKey === 'sandbox_grant' && priced > 0 ? (estimated * BigInt(priced - Math.max(grantLeft, 0))) / BigInt(priced) : estimated;
      const { gate } = creditRoom({ ...account, periodSpendMillicents: spend, heldMillicents }, share);
      if (gate) gates.push(gate);
    }
  }
  return {
    planKey: org.planKey,
    billingState: org.billingState,
    steps: pricedSteps,
    estimatedMillicents: estimated,
    estimatedCents: Number((estimated + millicentsPerCent - 1n) / millicentsPerCent),
    gates: gates.map((g) => ({ code: g.code, message: g.message })),
    allowed: gates.length === 0,
  };
}

/** Operator: an `adjustment` entry (credits:adjust, POST /v1/operator/organizations/{org_id}/credits). */
export async function adjustCredits(services: Pick<Services, 'prisma' | 'bus'>, orgId: string, amountCents: number, reason: string, source: AuditSource = operatorCli) {
  const events: BusEvent[] = [];
  const entry = await services.prisma.$transaction(async (tx) => {
    const account = await lockAccount(tx, orgId);
    const amount = BigInt(amountCents) * millicentsPerCent;
    if (account.balanceMillicents + amount < 0n) {
      throw new ApiError('validation_error', `The adjustment would take the balance below zero (balance ${wholeCents(account.balanceMillicents)} cents).`, { details: { issues: [{ path: 'amountCents', message: 'more than the balance' }] } });
    }
    const written = await appendEntry(tx, orgId, { type: 'adjustment', amountMillicents: amount, description: reason });
    events.push(await recordEvent(tx, 'billing.credits_adjusted', orgId, { amountCents, reason, balanceAfterMillicents: Number(written!.balanceAfterMillicents) }, source.ctx.requestId || undefined));
    events.push(await recordAuditBy(tx, source, orgId, 'credits.adjusted', { type: 'ledger_entry', id: written!.id }, { amountCents, reason, balanceAfterMillicents: Number(written!.balanceAfterMillicents) }));
    return written!;
  });
  await publishAll(services.bus, events);
  return entry;
}

export const planStates = ['sandbox_grant', 'active', 'past_due', 'canceled'] as const;

/** Operator: move an organization to a plan (billing:set-plan, POST /v1/operator/organizations/{org_id}/plan). */
export async function setPlan(services: Pick<Services, 'prisma' | 'bus'>, orgId: string, planKey: string, billingState?: string, source: AuditSource = operatorCli) {
  const plan = await services.prisma.plan.findUnique({ where: { key: planKey } });
  if (!plan) throw new ApiError('validation_error', `There is no plan ${planKey}.`, { details: { issues: [{ path: 'plan', message: 'unknown plan' }] } });
  const state = billingState ?? (planKey === 'sandbox_grant' ? 'sandbox_grant' : 'active');
  const events: BusEvent[] = [];
  const org = await services.prisma.$transaction(async (tx) => {
    const before = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { planKey: true, billingState: true } });
    const updated = await tx.organization.update({ where: { id: orgId }, data: { planKey, billingState: state } });
    events.push(await recordEvent(tx, 'billing.plan_changed', orgId, { planKey, billingState: state, reason: 'operator' }, source.ctx.requestId || undefined));
    events.push(await recordAuditBy(tx, source, orgId, 'plan.changed', { type: 'organization', id: orgId }, { planKey, billingState: state, previousPlanKey: before.planKey, previousBillingState: before.billingState, reason: 'operator' }));
    return updated;
  });
  await publishAll(services.bus, events);
  return org;
}
