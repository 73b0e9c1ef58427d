// The billing gates (SPEC 7.1, 402 codes) as pure decisions, shared by admission (which then
// reserves) and the quote (which only reports).
import { ApiError } from '../../core/errors.ts';
import { starterGrant } from './catalog.ts';
import { millicentsPerCent } from './ledger.ts';

/** Plans paid by subscription: their calls cost nothing more than the plan, within its quotas. */
export const subscriptionPlans = new Set(['personal', 'team', 'enterprise']);
export const blockedStates = new Set(['past_due', 'canceled']);

export type GateCode = 'billing_required' | 'insufficient_credits' | 'billing_budget_hard_cap_exceeded' | 'billing_budget_approval_required';

export interface Gate {
  code: GateCode;
  message: string;
  details: Record<string, unknown>;
}

export interface CreditPosition {
  balanceMillicents: bigint;
  /** credit set aside by instances for calls they admitted or may admit */
  heldMillicents: bigint;
  periodSpendMillicents: bigint;
  hardCapCents: number | null;
  approvalThresholdCents: number | null;
}

/** How much more credit may be spent now, and the gate that binds first when it is less than `need`. */
export function creditRoom(p: CreditPosition, need: bigint): { room: bigint; gate: Gate | null } {
  const available = p.balanceMillicents - p.heldMillicents;
  const committed = p.periodSpendMillicents + p.heldMillicents;
  const hardRoom = p.hardCapCents === null ? null : BigInt(p.hardCapCents) * millicentsPerCent - committed;
  const approvalRoom = p.approvalThresholdCents === null ? null : BigInt(p.approvalThresholdCents) * millicentsPerCent - committed;
  const room = [available, hardRoom, approvalRoom].filter((r): r is bigint => r !== null).reduce((a, b) => (a < b ? a : b));
  const money = { neededMillicents: Number(need), balanceMillicents: Number(p.balanceMillicents), periodSpendMillicents: Number(p.periodSpendMillicents) };
  if (available < need) {
    return { room, gate: { code: 'insufficient_credits', message: 'The prepaid credit balance does not cover this request.', details: { ...money, availableMillicents: Number(available > 0n ? available : 0n) } } };
  }
  if (hardRoom !== null && hardRoom < need) {
    return { room, gate: { code: 'billing_budget_hard_cap_exceeded', message: `This request would take the month's spend past the hard cap of ${p.hardCapCents} cents.`, details: { ...money, hardCapCents: p.hardCapCents } } };
  }
  if (approvalRoom !== null && approvalRoom < need) {
    return {
      room,
      gate: { code: 'billing_budget_approval_required', message: `This request would take the month's spend past the approval threshold of ${p.approvalThresholdCents} cents.`, details: { ...money, approvalThresholdCents: p.approvalThresholdCents } },
    };
  }
  return { room, gate: null };
}

/** Starter-grant calls left once what instances hold is counted. */
export function grantRoom(used: number, held: number): number {
  return starterGrant.calls - used - held;
}

export function grantUsedUp(): Gate {
  return {
    code: 'billing_required',
    message: `The starter grant of ${starterGrant.calls} calls is used up.`,
    details: { grantCalls: starterGrant.calls },
  };
}

export function stateGate(planKey: string, billingState: string): Gate | null {
  if (blockedStates.has(billingState)) {
    return { code: 'billing_required', message: `The organization's billing state is ${billingState}: priced calls are paused until it is settled.`, details: { planKey, billingState } };
  }
  if (!subscriptionPlans.has(planKey) && planKey !== 'payg' && planKey !== 'sandbox_grant') {
    return { code: 'billing_required', message: `The plan ${planKey} does not include priced calls.`, details: { planKey, billingState } };
  }
  return null;
}

const hints: Record<GateCode, string> = {
  billing_required: 'See GET /v1/billing; add credits (POST /v1/billing/payg/enable) or choose a plan (POST /v1/billing/checkout).',
  insufficient_credits: 'Top up credits (POST /v1/billing/credits/topup) or enable auto-top-up.',
  billing_budget_hard_cap_exceeded: 'Raise or remove the hard cap (PUT /v1/billing/budget), or wait for the next month.',
  billing_budget_approval_required: 'Raise or remove the approval threshold (PUT /v1/billing/budget) to allow this spend.',
};

export function gateError(gate: Gate): ApiError {
  return new ApiError(gate.code, gate.message, { details: gate.details, hint: hints[gate.code] });
}
