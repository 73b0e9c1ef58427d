// kill -9 of an instance that answered requests paid with credit, before its periodic settlement:
// every request answered 200 is paid for exactly once, whatever happens to the instance after the
// answer, and the next instance on the database carries on from an exact ledger. Real processes
// (the compiled service) on a PostgreSQL database of the test's own; the settlement timer is set
// far beyond the test, so only what a request made durable before its answer is in the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.ts';
import { openDatabase, type Database } from '../../prisma/db.ts';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { adjustCredits } from '../../resolvers/billing/account.ts';
import { createOrganization } from '../../resolvers/orgs.ts';
import { createEventBus } from '../../subscriptions/bus.ts';
import { scratchDatabase } from '../harness.ts';
import { buildOnce, killAll, startServiceProcess, stop, type ServiceProcess } from '../support/processes.ts';

const creditCents = 100; // 100,000 millicents: far more than the test spends, so nothing is refused

describe('kill -9 of an instance before its periodic settlement', { timeout: 60_000 }, () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let db: Database;
  let orgId: string;
  let key: string;

  beforeAll(async () => {
    buildOnce();
    database = await scratchDatabase();
    db = await openDatabase(database.target, { migrate: false });
    const bus = createEventBus(undefined, createLogger('silent'));
    orgId = (await createOrganization(db.prisma, 'Pays as it goes', { planKey: 'payg' })).id;
    key = (await issueApiKey({ prisma: db.prisma, bus }, orgId, 'fault test')).secret;
    await adjustCredits({ prisma: db.prisma, bus }, orgId, creditCents, 'credit for the fault test');
  }, 60_000);
  afterAll(async () => {
    await killAll();
    await db?.close();
    await database?.drop();
  });

  /** What the user was told: every request answered 200, with its Request-Id and its price. */
  const answered: { requestId: string; price: bigint }[] = [];
  const refused: string[] = [];

  /** Mixed priced traffic from a few clients at once: REST data reads and GraphQL data reads. */
  async function traffic(instance: ServiceProcess, perClient: number) {
    const one = async (i: number) => {
      const response =
        i % 3 === 2
          ? await fetch(`${instance.url}/graphql`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ entities(query: "a", limit: 1) { total } }` }) })
          : await fetch(`${instance.url}/v1/entities?q=${'abc'[i % 3]}`, { headers: { 'x-api-key': key } });
      const body = await response.text();
      if (response.status !== 200 || body.includes('"errors"')) refused.push(`${response.status} ${body.slice(0, 200)}`);
      else answered.push({ requestId: response.headers.get('request-id')!, price: BigInt(response.headers.get('service-estimated-cost') ?? 'NaN') });
    };
    await Promise.all(Array.from({ length: 4 }, async (_, client) => {
      for (let i = 0; i < perClient; i++) await one(client + i);
    }));
  }

  it('every request answered 200 is charged exactly once: the ledger ends at the credit less what was answered', async () => {
    // no periodic settlement within the test: what is in the ledger got there before its answer
    const slowSettling = { IDS_BILLING_SETTLE_MS: '600000' };
    const first = await startServiceProcess(database.url!, slowSettling);
    await traffic(first, 10);
    expect(refused).toEqual([]);
    const answeredByFirst = answered.length;
    expect(answeredByFirst).toBe(40);
    await stop(first.child, 'SIGKILL'); // nothing in flight: every request it took has been answered
    // what it answered is already paid for, with no help from the next instance
    expect(await db.prisma.requestCharge.count({ where: { orgId } })).toBe(answeredByFirst);

    // A new instance on the same database serves the organization on, and is stopped the ordinary way.
    const second = await startServiceProcess(database.url!, slowSettling);
    await traffic(second, 3);
    expect(refused).toEqual([]);
    await stop(second.child, 'SIGTERM');

    const { prisma } = db;
    const charges = await prisma.requestCharge.findMany({ where: { orgId } });
    const entries = await prisma.ledgerEntry.findMany({ where: { orgId }, orderBy: { seq: 'asc' } });
    const account = await prisma.billingAccount.findUniqueOrThrow({ where: { orgId } });
    const credit = BigInt(creditCents) * 1000n;
    const spent = answered.reduce((sum, a) => sum + a.price, 0n);

    // none lost, none settled twice, none for a request that was not answered
    expect(new Set(charges.map((c) => c.requestId))).toEqual(new Set(answered.map((a) => a.requestId)));
    expect(charges).toHaveLength(answered.length);
    for (const a of answered) expect(charges.find((c) => c.requestId === a.requestId)!.millicents).toBe(a.price);
    // the ledger: the credit, then debits adding up to the charges, and the balance is their sum
    expect(entries.filter((e) => e.amountMillicents > 0n).reduce((sum, e) => sum + e.amountMillicents, 0n)).toBe(credit);
    expect(-entries.filter((e) => e.type === 'debit').reduce((sum, e) => sum + e.amountMillicents, 0n)).toBe(spent);
    expect(account.balanceMillicents).toBe(credit - spent);
    let running = 0n;
    for (const entry of entries) {
      running += entry.amountMillicents;
      expect(entry.balanceAfterMillicents).toBe(running);
    }
    expect(running).toBe(account.balanceMillicents);
  });
});
