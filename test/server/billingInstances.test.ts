// Two instances debiting one organization's credit at once (PostgreSQL: both share the database).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adjustCredits } from '../../resolvers/billing/account.ts';
import { call, orgWithKey, startTestService, type TestService } from '../harness.ts';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestService({ billing: { enforced: true, settleMs: 50 } }), startTestService({ billing: { enforced: true, settleMs: 50 } })]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

it('credit for N calls, 6N sent through two instances at once: at most N served, the balance never below zero, the ledger adds up', async () => {
  const calls = 20;
  const org = await orgWithKey(a, 'Two instances', 'payg');
  await adjustCredits(a.service.services, org.orgId, 4, 'credit for 20 data reads'); // 4 cents = 20 × 200 millicents
  const answers = await Promise.all(Array.from({ length: 6 * calls }, (_, i) => call(i % 2 ? a : b, 'GET', '/v1/entities?q=a', { key: org.key })));
  const served = answers.filter((r) => r.status === 200).length;
  expect(served).toBeLessThanOrEqual(calls);
  expect(served).toBeGreaterThan(0);
  expect(answers.filter((r) => r.status !== 200).every((r) => r.status === 402 && r.body.code === 'insufficient_credits')).toBe(true);

  await Promise.all([a.service.services.admission.settle(org.orgId), b.service.services.admission.settle(org.orgId)]);
  const { prisma } = a.service.services;
  const account = await prisma.billingAccount.findUniqueOrThrow({ where: { orgId: org.orgId } });
  const entries = await prisma.ledgerEntry.findMany({ where: { orgId: org.orgId }, orderBy: { seq: 'asc' } });
  expect(account.balanceMillicents).toBe(4000n - BigInt(served) * 200n);
  expect(entries.reduce((sum, e) => sum + e.amountMillicents, 0n)).toBe(account.balanceMillicents);
  // every entry's balanceAfter is its running sum: no two debits interleaved
  let running = 0n;
  for (const entry of entries) {
    running += entry.amountMillicents;
    expect(entry.balanceAfterMillicents).toBe(running);
    expect(entry.balanceAfterMillicents).toBeGreaterThanOrEqual(0n);
  }
  const charges = await prisma.requestCharge.findMany({ where: { orgId: org.orgId } });
  expect(charges).toHaveLength(served);
  expect(charges.reduce((sum, c) => sum + c.millicents, 0n)).toBe(-entries.filter((e) => e.type === 'debit').reduce((sum, e) => sum + e.amountMillicents, 0n));
});
