// Paying for a metered request before it runs: admitted in memory against credit reserved in the
// database, and written into the ledger before it runs, one statement per batch of requests.
//
// Each instance reserves credit (or starter-grant calls) for an organization in the database, in
// a transaction that holds the organization's account row, and then admits requests against that
// reservation in memory. A reservation is counted against the balance and the budget controls by
// every instance, so the balance never goes below zero and no cap is crossed, however many
// instances admit at once. Reservations are sized to a quarter of what is left, so a small balance
// is shared out in small pieces.
//
// A request paid with credit runs only once its charge is in the ledger (one debit entry, and a
// RequestCharge row per request, in one statement): the charges admitted while one settlement is
// being written go together in the next (group commit). So an instance killed with kill -9 has
// charged every request it answered, once; its reservation expires once it stops heartbeating.
// Starter grant calls are counted in batches, every IDS_BILLING_SETTLE_MS and whenever an instance
// needs more; an instance that dies does not count the grant calls it had not settled.
import { hostname } from 'node:os';
import { Prisma } from '../../prisma/generated/client/client.ts';
import { ApiError, databaseUnreachable, toApiError, unexpectedError } from '../../core/errors.ts';
import { newId, randomBase62 } from '../../core/ids.ts';
import type { BusEvent, EventBus } from '../../subscriptions/bus.ts';
import type { PrismaClient } from '../../prisma/db.ts';
import type { Config } from '../../core/config.ts';
import type { Logger } from '../../core/logger.ts';
import { publishAll, recordEvent } from '../../subscriptions/events.ts';
import { creditRoom, gateError, grantRoom, grantUsedUp, stateGate, subscriptionPlans } from './gates.ts';
import { appendEntry, currentPeriod, lockAccount, millicentsPerCent, type AccountRow } from './ledger.ts';
import { balanceLowEvent, insertBalanceLow } from './balanceLow.ts';

export interface AdmittedCharge {
  /** the list price of the request in millicents, whatever pays for it */
  priceMillicents: bigint;
  paidWith: 'credits' | 'grant' | 'plan' | 'free';
}

interface PendingCharge {
  requestId: string;
  meterClass: string;
  units: number;
  millicents: bigint;
  at: Date;
}

interface Lease {
  /** what the database holds for this instance: unspent plus admitted-but-unsettled */
  reservedMillicents: bigint;
  unspentMillicents: bigint;
  reservedGrantCalls: number;
  unspentGrantCalls: number;
  pending: PendingCharge[];
  pendingGrantCalls: number;
  /** how the organization pays, as the database said at the last reservation */
  mode?: 'grant' | 'credits' | 'plan';
  /** this organization's transactions, one after the other */
  queue: Promise<unknown>;
  /** the reservation in flight that admitting requests wait for (one at a time, shared) */
  refill: Promise<void> | null;
  /** the settlement, not begun yet, that will write the credit charges admitted since the last one began */
  commit: Promise<void> | null;
  /** the size of the last credit reservation: a new one starts early when a quarter of it is left */
  lastGrantMillicents: bigint;
  lastUsed: number;
}

type Tx = Prisma.TransactionClient;

/** a reservation whose instance has not heartbeated for this long is given back */
const reservationTtlMs = 60_000;
/** an idle organization's unspent reservation is given back after this long */
const idleReleaseMs = 30_000;
/** at most this many calls' worth is reserved at once */
const maxCallsPerReservation = 4096n;

export interface AdmissionHooks {
  /** a settlement left a balance below the organization's auto-top-up threshold */
  lowBalance?(orgId: string): void;
}

/** A debit entry's description: how many calls of each meter class it pays for. */
function usageDescription(charges: PendingCharge[]): string {
  const byClass = new Map<string, number>();
  for (const c of charges) byClass.set(c.meterClass, (byClass.get(c.meterClass) ?? 0) + 1);
  return `Usage: ${charges.length} calls (${[...byClass].map(([meter, calls]) => `${meter} ${calls}`).join(', ')})`;
}

export class Admission {
  readonly instanceId = `${hostname()}:${process.pid}:${randomBase62(8)}`;
  private readonly leases = new Map<string, Lease>();
  private prices: Map<string, bigint> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly stop = new AbortController();
  hooks: AdmissionHooks = {};

  constructor(private readonly services: { prisma: PrismaClient; bus: EventBus; logger: Logger; config: Config }) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.services.config.billing.settleMs);
    this.timer.unref();
    // A change of plan or billing state (any event about the organization) is re-read at the next reservation.
    void (async () => {
      for await (const event of this.services.bus.subscribe(this.stop.signal)) {
        const lease = event.orgId ? this.leases.get(event.orgId) : undefined;
        if (lease) lease.mode = undefined;
      }
    })();
  }

  /** Settles everything admitted and gives every reservation back (shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stop.abort();
    await Promise.all([...this.leases.keys()].map((orgId) => this.giveBack(orgId)));
  }

  /** The list price of `units` of a meter class (its launch rate: cents per 1,000 calls is millicents per call). */
  async price(meterClass: string, units: number): Promise<bigint> {
    if (!this.prices) {
      const meters = await this.services.prisma.meterClass.findMany();
      this.prices = new Map(meters.map((m) => [m.key, BigInt(m.ratePer1000CallsCents)]));
    }
    return (this.prices.get(meterClass) ?? 0n) * BigInt(units);
  }

  /**
   * Pays for one request or refuses it with a 402 (SPEC 7.1). `org` is the organization as the
   * request path holds it (possibly a few seconds old); the database decides whenever a
   * reservation is made.
   */
  async admit(org: { id: string; planKey: string; billingState: string }, meterClass: string, units: number, requestId: string): Promise<AdmittedCharge> {
    const priceMillicents = await this.price(meterClass, units);
    if (!this.services.config.billing.enforced || priceMillicents === 0n) return { priceMillicents, paidWith: 'free' };
    const gate = stateGate(org.planKey, org.billingState);
    if (gate) throw gateError(gate);
    if (subscriptionPlans.has(org.planKey)) return { priceMillicents, paidWith: 'plan' };

    const lease = this.lease(org.id);
    lease.lastUsed = Date.now();
    for (let attempt = 0; attempt < 3; attempt++) {
      const mode = lease.mode ?? (org.planKey === 'payg' ? 'credits' : 'grant');
      if (mode === 'plan') return { priceMillicents, paidWith: 'plan' };
      if (mode === 'grant' && lease.unspentGrantCalls >= 1) {
        lease.unspentGrantCalls -= 1;
        lease.pendingGrantCalls += 1;
        return { priceMillicents, paidWith: 'grant' };
      }
      if (mode === 'credits' && lease.unspentMillicents >= priceMillicents) {
        lease.unspentMillicents -= priceMillicents;
        lease.pending.push({ requestId, meterClass, units, millicents: priceMillicents, at: new Date() });
        // Reserve the next piece before this one runs out, so that requests do not wait for it.
        if (!lease.refill && lease.unspentMillicents * 2n < lease.lastGrantMillicents) this.refill(org.id, lease, priceMillicents).catch(() => {});
        // Held only in memory, the charge would die with this process while the answer lives on.
        await this.commit(org.id, lease);
        return { priceMillicents, paidWith: 'credits' };
      }
      await this.refill(org.id, lease, priceMillicents);
    }
    // Three reservations in a row went to other requests of this instance: the credit is that scarce.
    throw gateError({ code: 'insufficient_credits', message: 'The prepaid credit balance does not cover this request.', details: { neededMillicents: Number(priceMillicents) } });
  }

  /** Settles what this instance admitted for an organization (before a read of its balance). */
  async settle(orgId: string): Promise<void> {
    const lease = this.leases.get(orgId);
    if (lease) await this.serially(orgId, lease, () => this.reserve(orgId, lease, 0n));
  }

  /**
   * Writes the credit charges admitted so far into the ledger: the write not begun yet, which
   * charges admitted meanwhile join, or a new one queued after the one being written. When it
   * fails, its charges are given back to the reservation: their requests are refused, not charged.
   */
  private commit(orgId: string, lease: Lease): Promise<void> {
    lease.commit ??= this.serially(orgId, lease, async () => {
      lease.commit = null;
      // a reservation that ran first may have settled them already
      const charges = lease.pending.splice(0);
      if (!charges.length) return;
      const total = charges.reduce((sum, c) => sum + c.millicents, 0n);
      let account: AccountRow & { balanceLowId: string | null };
      try {
        account = await this.writeCharges(orgId, charges, total);
      } catch (error) {
        lease.unspentMillicents += total;
        this.services.logger.error({ err: error, orgId }, 'billing settlement failed');
        // a database that is away is a 503 with Retry-After, as at every other step
        throw (databaseUnreachable(error) && toApiError(error)) || unexpectedError();
      }
      lease.reservedMillicents -= total;
      if (account.balanceLowId) {
        await balanceLowEvent(this.services.prisma, account.balanceLowId)
          .then((event) => this.services.bus.publish(event))
          .catch((error) => this.services.logger.error({ err: error, orgId }, 'low balance notice failed'));
      }
      if (account.softCapCents !== null && account.periodSpendMillicents >= BigInt(account.softCapCents) * millicentsPerCent && account.softCapNotifiedPeriod !== account.period) {
        await this.notifySoftCap(orgId).catch((error) => this.services.logger.error({ err: error, orgId }, 'soft cap notice failed'));
      }
      this.checkLowBalance(orgId, account);
    });
    return lease.commit;
  }

  /**
   * The settlement a request waits for, as one statement: the debit entry, the charges, the
   * month's spend and this instance's reservation (which no longer holds what is now spent). The
   * account's row, which every settlement of the organization queues on, is held only while the
   * statement runs; the row's own update orders the entries, so each balanceAfter is the running sum.
   * `balanceLowId`: the billing.balance_low event the statement wrote, when it took the balance below the threshold.
   */
  private async writeCharges(orgId: string, charges: PendingCharge[], total: bigint): Promise<AccountRow & { balanceLowId: string | null }> {
    const now = new Date().toISOString();
    const rows = JSON.stringify(charges.map((c) => ({ r: c.requestId, m: c.meterClass, u: c.units, c: c.millicents.toString(), a: c.at.toISOString() })));
    const entryId = newId('ctx');
    const period = currentPeriod();
    const balanceLow = insertBalanceLow(orgId, Prisma.raw('account'), total);
    const [account] = await this.services.prisma.$queryRaw<(AccountRow & { balanceLowId: string | null })[]>`
      WITH account AS (
        UPDATE "BillingAccount"
        SET "balanceMillicents" = "balanceMillicents" - ${total.toString()}::bigint,
            "periodSpendMillicents" = CASE WHEN "period" = ${period} THEN "periodSpendMillicents" ELSE 0 END + ${total.toString()}::bigint,
            "period" = ${period},
            "updatedAt" = ${now}::timestamptz AT TIME ZONE 'UTC'
        WHERE "orgId" = ${orgId}
        RETURNING *
      ), entry AS (
        INSERT INTO "LedgerEntry" ("id", "orgId", "type", "amountMillicents", "balanceAfterMillicents", "description", "createdAt")
        SELECT ${entryId}, ${orgId}, 'debit', -${total.toString()}::bigint, account."balanceMillicents", ${usageDescription(charges)}, ${now}::timestamptz AT TIME ZONE 'UTC'
        FROM account
      ), charged AS (
        INSERT INTO "RequestCharge" ("requestId", "orgId", "meterClass", "units", "millicents", "ledgerEntryId", "createdAt")
        SELECT t.r, ${orgId}, t.m, t.u, t.c::bigint, ${entryId}, t.a AT TIME ZONE 'UTC'
        FROM account, json_to_recordset(${rows}::json) AS t(r text, m text, u int, c text, a timestamptz)
        ON CONFLICT ("requestId") DO NOTHING
      ), held AS (
        UPDATE "CreditReservation" SET "millicents" = "millicents" - ${total.toString()}::bigint
        WHERE "orgId" = ${orgId} AND "instanceId" = ${this.instanceId}
      ), fell AS (${balanceLow.sql})
      SELECT account.*, (SELECT "id" FROM fell) AS "balanceLowId" FROM account`;
    // the account is made with the first reservation, so it is there
    if (!account) throw new Error(`no billing account for ${orgId}`);
    return account;
  }

  /** billing.soft_cap_reached, once per period: decided again under the account's row, since settlements race to it. */
  private async notifySoftCap(orgId: string): Promise<void> {
    const events = await this.services.prisma.$transaction(async (tx) => {
      const account = await lockAccount(tx, orgId);
      const spend = account.periodSpendMillicents;
      if (account.softCapCents === null || spend < BigInt(account.softCapCents) * millicentsPerCent || account.softCapNotifiedPeriod === account.period) return [];
      await tx.billingAccount.update({ where: { orgId }, data: { softCapNotifiedPeriod: account.period } });
      return [await recordEvent(tx, 'billing.soft_cap_reached', orgId, { period: account.period, softCapCents: account.softCapCents, periodSpendMillicents: Number(spend) })];
    });
    await publishAll(this.services.bus, events);
  }

  /** The reservation in flight, or a new one: concurrent requests short of credit share one. */
  private refill(orgId: string, lease: Lease, need: bigint): Promise<void> {
    lease.refill ??= this.serially(orgId, lease, () => this.reserve(orgId, lease, need)).finally(() => {
      lease.refill = null;
    });
    return lease.refill;
  }

  private lease(orgId: string): Lease {
    let lease = this.leases.get(orgId);
    if (!lease) {
      lease = { reservedMillicents: 0n, unspentMillicents: 0n, reservedGrantCalls: 0, unspentGrantCalls: 0, pending: [], pendingGrantCalls: 0, queue: Promise.resolve(), refill: null, commit: null, lastGrantMillicents: 0n, lastUsed: Date.now() };
      this.leases.set(orgId, lease);
    }
    return lease;
  }

  private serially<T>(orgId: string, lease: Lease, work: () => Promise<T>): Promise<T> {
    const run = lease.queue.then(work, work);
    lease.queue = run.catch((error) => {
      // a refusal is the request's answer; anything else is ours to look into
      if (!(error instanceof ApiError)) this.services.logger.error({ err: error, orgId }, 'billing settlement failed');
    });
    return run;
  }

  /**
   * One transaction on the organization's account: settles what was admitted, then (when `need`
   * is more than 0) reserves more, or refuses with the gate that binds. A refusal is thrown.
   */
  private async reserve(orgId: string, lease: Lease, need: bigint): Promise<void> {
    const settled = lease.pending.splice(0);
    const settledGrantCalls = lease.pendingGrantCalls;
    lease.pendingGrantCalls = 0;
    const settledMillicents = settled.reduce((sum, c) => sum + c.millicents, 0n);
    let outcome: { gate: ReturnType<typeof grantUsedUp> | null; events: BusEvent[]; account: AccountRow; granted: { millicents: bigint; grantCalls: number }; mode: Lease['mode'] };
    try {
      outcome = await this.services.prisma.$transaction(async (tx) => {
        const account = await lockAccount(tx, orgId);
        const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { planKey: true, billingState: true } });
        const events: BusEvent[] = [];
        if (settledMillicents > 0n) await this.writeSettlement(tx, orgId, account, settled, settledMillicents, events);
        if (settledGrantCalls > 0) {
          await tx.billingAccount.update({ where: { orgId }, data: { grantCallsUsed: { increment: settledGrantCalls } } });
          account.grantCallsUsed += settledGrantCalls;
        }
        const others = await this.othersHold(tx, orgId);
        const myMillicents = lease.reservedMillicents - settledMillicents;
        const myGrantCalls = lease.reservedGrantCalls - settledGrantCalls;
        const granted = { millicents: 0n, grantCalls: 0 };
        let gate = stateGate(org.planKey, org.billingState);
        let mode: Lease['mode'] = subscriptionPlans.has(org.planKey) ? 'plan' : org.planKey === 'payg' ? 'credits' : 'grant';
        if (!gate && need > 0n && mode === 'grant') {
          const room = grantRoom(account.grantCallsUsed, others.grantCalls + myGrantCalls);
          if (room >= 1) granted.grantCalls = Math.max(1, Math.min(64, Math.floor(room / 4)));
          else if (account.paygEnabled) {
            // The starter grant's overflow plan: past the grant, calls are paid with credits.
            await tx.organization.update({ where: { id: orgId }, data: { planKey: 'payg', billingState: 'active' } });
            events.push(await recordEvent(tx, 'billing.plan_changed', orgId, { planKey: 'payg', billingState: 'active', reason: 'starter_grant_used_up' }));
            mode = 'credits';
          } else gate = grantUsedUp();
        }
        // What this instance still holds counts toward the request, so that credit is not left in fragments.
        const shortfall = need - lease.unspentMillicents;
        if (!gate && shortfall > 0n && mode === 'credits') {
          const position = { ...account, heldMillicents: others.millicents + myMillicents };
          const { room, gate: binding } = creditRoom(position, shortfall);
          gate = binding;
          if (!gate) {
            const share = room / 4n;
            const most = need * maxCallsPerReservation;
            granted.millicents = share < shortfall ? shortfall : share > most ? most : share;
          }
        }
        await this.holdReservation(tx, orgId, myMillicents + granted.millicents, myGrantCalls + granted.grantCalls);
        return { gate, events, account, granted, mode };
      });
    } catch (error) {
      lease.pending.unshift(...settled);
      lease.pendingGrantCalls += settledGrantCalls;
      if (error instanceof ApiError) throw error;
      this.services.logger.error({ err: error, orgId }, 'billing reservation failed');
      // a database that is away is a 503 with Retry-After, as at every other step
      throw (databaseUnreachable(error) && toApiError(error)) || unexpectedError();
    }
    lease.reservedMillicents += outcome.granted.millicents - settledMillicents;
    lease.unspentMillicents += outcome.granted.millicents;
    if (outcome.granted.millicents > 0n) lease.lastGrantMillicents = outcome.granted.millicents;
    lease.reservedGrantCalls += outcome.granted.grantCalls - settledGrantCalls;
    lease.unspentGrantCalls += outcome.granted.grantCalls;
    lease.mode = outcome.mode;
    await publishAll(this.services.bus, outcome.events);
    this.checkLowBalance(orgId, outcome.account);
    if (outcome.gate) throw gateError(outcome.gate);
  }

  /** A settlement that left the balance below the auto-top-up threshold starts a top-up. */
  private checkLowBalance(orgId: string, account: AccountRow) {
    if (account.autoTopupEnabled && account.autoTopupThresholdCents !== null && !account.autoTopupInFlight && account.balanceMillicents < BigInt(account.autoTopupThresholdCents) * millicentsPerCent) {
      this.hooks.lowBalance?.(orgId);
    }
  }

  /** One debit for what was admitted, the charge of every request in it, the month's spend and the soft cap. */
  private async writeSettlement(tx: Tx, orgId: string, account: AccountRow, charges: PendingCharge[], total: bigint, events: BusEvent[]) {
    const entry = await appendEntry(tx, orgId, { type: 'debit', amountMillicents: -total, description: usageDescription(charges) });
    // The charges go as one JSON text, taken apart by the database: a settlement may hold thousands
    // of them, and binding them (createMany's seven parameters per row, or an array per column) cost
    // the instance more JavaScript per request than the request itself. Times are UTC instants.
    const rows = JSON.stringify(charges.map((c) => ({ r: c.requestId, m: c.meterClass, u: c.units, c: c.millicents.toString(), a: c.at.toISOString() })));
    await tx.$executeRaw`
      INSERT INTO "RequestCharge" ("requestId", "orgId", "meterClass", "units", "millicents", "ledgerEntryId", "createdAt")
      SELECT t.r, ${orgId}, t.m, t.u, t.c::bigint, ${entry!.id}, t.a AT TIME ZONE 'UTC'
      FROM json_to_recordset(${rows}::json) AS t(r text, m text, u int, c text, a timestamptz)
      ON CONFLICT ("requestId") DO NOTHING`;
    const spend = account.periodSpendMillicents + total;
    const softCapReached = account.softCapCents !== null && spend >= BigInt(account.softCapCents) * millicentsPerCent && account.softCapNotifiedPeriod !== account.period;
    await tx.billingAccount.update({
      where: { orgId },
      data: { periodSpendMillicents: spend, ...(softCapReached ? { softCapNotifiedPeriod: account.period } : {}) },
    });
    if (softCapReached) {
      events.push(await recordEvent(tx, 'billing.soft_cap_reached', orgId, { period: account.period, softCapCents: account.softCapCents!, periodSpendMillicents: Number(spend) }));
    }
    const balanceLow = insertBalanceLow(orgId, Prisma.sql`"BillingAccount"`, total);
    if ((await tx.$queryRaw<{ id: string }[]>(balanceLow.sql)).length) events.push(await balanceLowEvent(tx, balanceLow.id));
    account.balanceMillicents = entry!.balanceAfterMillicents;
    account.periodSpendMillicents = spend;
  }

  /** What the other live instances hold for the organization; reservations of dead ones are given back. */
  private async othersHold(tx: Tx, orgId: string): Promise<{ millicents: bigint; grantCalls: number }> {
    const staleBefore = new Date(Date.now() - reservationTtlMs);
    await tx.creditReservation.deleteMany({ where: { orgId, heartbeatAt: { lt: staleBefore } } });
    const held = await tx.creditReservation.aggregate({ where: { orgId, instanceId: { not: this.instanceId } }, _sum: { millicents: true, grantCalls: true } });
    return { millicents: held._sum.millicents ?? 0n, grantCalls: held._sum.grantCalls ?? 0 };
  }

  private async holdReservation(tx: Tx, orgId: string, millicents: bigint, grantCalls: number) {
    const key = { orgId_instanceId: { orgId, instanceId: this.instanceId } };
    if (millicents === 0n && grantCalls === 0) await tx.creditReservation.deleteMany({ where: { orgId, instanceId: this.instanceId } });
    else await tx.creditReservation.upsert({ where: key, create: { orgId, instanceId: this.instanceId, millicents, grantCalls }, update: { millicents, grantCalls, heartbeatAt: new Date() } });
  }

  /** Settles an organization's admitted calls and gives its unspent reservation back (when idle, at shutdown, before a refund counts what is unspent). */
  async giveBack(orgId: string): Promise<void> {
    const lease = this.leases.get(orgId);
    if (!lease || (lease.reservedMillicents === 0n && lease.reservedGrantCalls === 0)) return;
    await this.serially(orgId, lease, async () => {
      // Nothing more is admitted from it once it is given back: take it out of reach first.
      lease.reservedMillicents -= lease.unspentMillicents;
      lease.unspentMillicents = 0n;
      lease.reservedGrantCalls -= lease.unspentGrantCalls;
      lease.unspentGrantCalls = 0;
      await this.reserve(orgId, lease, 0n);
    });
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    for (const [orgId, lease] of this.leases) {
      if (now - lease.lastUsed > idleReleaseMs) await this.giveBack(orgId).catch(() => {});
      else if (lease.pending.length || lease.pendingGrantCalls) await this.settle(orgId).catch(() => {});
    }
    if (this.leases.size) {
      await this.services.prisma.creditReservation.updateMany({ where: { instanceId: this.instanceId }, data: { heartbeatAt: new Date() } }).catch(() => {});
    }
  }
}
