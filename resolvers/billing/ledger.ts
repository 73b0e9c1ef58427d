// The credit ledger: append-only entries whose sum is the account's balance. Every change of
// balance goes through appendEntry, inside a transaction that holds the account's row.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/db.ts';
import { newId } from '../../core/ids.ts';

type Tx = Prisma.TransactionClient;

/** Credit is counted in millicents (1/1,000 of a cent): a call's price is below a cent. */
export const millicentsPerCent = 1000n;

export type EntryType = 'topup' | 'debit' | 'refund' | 'grant' | 'adjustment';

/** Every entry type, for filters that name one. */
export const entryTypes = ['topup', 'debit', 'refund', 'grant', 'adjustment'] as const satisfies readonly EntryType[];

export interface AccountRow {
  orgId: string;
  customerId: string | null;
  balanceMillicents: bigint;
  paygEnabled: boolean;
  hardCapCents: number | null;
  softCapCents: number | null;
  approvalThresholdCents: number | null;
  period: string;
  periodSpendMillicents: bigint;
  softCapNotifiedPeriod: string | null;
  grantCallsUsed: number;
  grantResetAt: Date | null;
  autoTopupEnabled: boolean;
  autoTopupThresholdCents: number | null;
  autoTopupAmountCents: number | null;
  autoTopupInFlight: string | null;
  subscriptionId: string | null;
  subscriptionStatus: string | null;
  subscriptionEventAt: Date | null;
}

/** The budget period: the UTC calendar month. */
export function currentPeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** Creates the organization's account on first need; safe to race. */
export async function ensureAccount(db: Db, orgId: string): Promise<void> {
  await db.$executeRaw`INSERT INTO "BillingAccount" ("orgId", "updatedAt") VALUES (${orgId}, now()) ON CONFLICT ("orgId") DO NOTHING`;
}

/**
 * The account's row, locked until the transaction ends, with its period rolled over to this
 * month (spend counts from zero in a new month).
 */
export async function lockAccount(tx: Tx, orgId: string): Promise<AccountRow> {
  await ensureAccount(tx, orgId);
  const [row] = await tx.$queryRaw<AccountRow[]>`SELECT * FROM "BillingAccount" WHERE "orgId" = ${orgId} FOR UPDATE`;
  const period = currentPeriod();
  if (row!.period !== period) {
    await tx.billingAccount.update({ where: { orgId }, data: { period, periodSpendMillicents: 0n } });
    return { ...row!, period, periodSpendMillicents: 0n };
  }
  return row!;
}

/**
 * Adds one entry and moves the balance by its amount. The caller holds the account's row
 * (lockAccount). An entry of the same type and reference already written is not written again:
 * null then, so that a processor's retried notice adds nothing.
 */
export async function appendEntry(
  tx: Tx,
  orgId: string,
  entry: { type: EntryType; amountMillicents: bigint; reference?: string; description: string; createdAt?: Date },
) {
  if (entry.reference) {
    const existing = await tx.ledgerEntry.findUnique({ where: { type_reference: { type: entry.type, reference: entry.reference } } });
    if (existing) return null;
  }
  const { balanceMillicents } = await tx.billingAccount.update({
    where: { orgId },
    data: { balanceMillicents: { increment: entry.amountMillicents } },
    select: { balanceMillicents: true },
  });
  return tx.ledgerEntry.create({
    data: {
      id: newId('ctx'),
      orgId,
      type: entry.type,
      amountMillicents: entry.amountMillicents,
      balanceAfterMillicents: balanceMillicents,
      reference: entry.reference ?? null,
      description: entry.description,
      ...(entry.createdAt ? { createdAt: entry.createdAt } : {}),
    },
  });
}

/** Whole cents of an amount of millicents, toward zero: what a balance shows in cents. */
export function wholeCents(millicents: bigint): number {
  return Number(millicents / millicentsPerCent);
}
