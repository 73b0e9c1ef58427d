// billing.balance_low: a debit (or a refund of credit, which takes credit out the same way) took
// the prepaid balance below the organization's low-balance threshold (`thresholdCents` of
// PUT /v1/billing/credits/auto-topup, set whether auto-top-up is on
// or not). The event is written by the statement that moves the balance, as every event is written
// with its cause. The debit itself decides: the balance was at or above the threshold before it
// and is below it after. So the event comes once per fall, and again only after a top-up (or any
// credit) has brought the balance back to the threshold; there is no flag to keep in step.
import { Prisma } from '../../prisma/generated/client/client.ts';
import type { Db } from '../../prisma/db.ts';
import { newId } from '../../core/ids.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import { millicentsPerCent } from './ledger.ts';

export const balanceLowType = 'billing.balance_low';

/**
 * The INSERT of the event when a debit of `debitMillicents` has just taken the balance below the
 * threshold, inserting nothing otherwise. `account` names the account's row as the debit left it:
 * the table inside the debit's transaction, or the name of the data-modifying CTE that debited it.
 * `id` is the event's id, should it be written.
 */
export function insertBalanceLow(orgId: string, account: Prisma.Sql, debitMillicents: bigint): { id: string; sql: Prisma.Sql } {
  const id = newId('evt');
  const threshold = Prisma.sql`a."autoTopupThresholdCents"::bigint * ${millicentsPerCent.toString()}::bigint`;
  const sql = Prisma.sql`
    INSERT INTO "Event" ("id", "type", "orgId", "payload")
    SELECT ${id}, ${balanceLowType}, ${orgId},
           jsonb_build_object('thresholdCents', a."autoTopupThresholdCents", 'balanceMillicents', a."balanceMillicents", 'autoTopup', a."autoTopupEnabled")
    FROM ${account} a
    WHERE a."orgId" = ${orgId} AND a."autoTopupThresholdCents" IS NOT NULL
      AND a."balanceMillicents" < ${threshold}
      AND a."balanceMillicents" + ${debitMillicents.toString()}::bigint >= ${threshold}
    RETURNING "id"`;
  return { id, sql };
}

/** The written event as the bus carries it (read back: its seq and time are the database's). */
export async function balanceLowEvent(db: Db, id: string): Promise<BusEvent> {
  const row = await db.event.findUniqueOrThrow({ where: { id } });
  return { id: row.id, seq: row.seq.toString(), type: row.type, orgId: row.orgId, payload: row.payload, createdAt: row.createdAt.toISOString() };
}

/**
 * In the transaction that has just taken `removedMillicents` out of the balance other than by charges
 * (a refund): the event, written there when that took the balance below the threshold, for the bus
 * once the transaction commits.
 */
export async function recordBalanceLow(tx: Db, orgId: string, removedMillicents: bigint): Promise<BusEvent | null> {
  const { id, sql } = insertBalanceLow(orgId, Prisma.raw('"BillingAccount"'), removedMillicents);
  const written = await tx.$queryRaw<{ id: string }[]>(sql);
  return written.length ? balanceLowEvent(tx, id) : null;
}
