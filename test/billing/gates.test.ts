// The money path's gates and ledger, without the processor: every 402 code over REST, GraphQL and
// MCP, before the route's work; credit that never goes below zero; the ledger's invariants; the
// starter grant, its overflow into credit and its reset; budgets, the soft cap and quotes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustCredits, setPlan } from '../../resolvers/billing/account.ts';
import { runCommand } from '../../server/commands.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ billing: { enforced: true, settleMs: 100 } });
});
afterAll(() => t?.close());

const dataRead = (key: string) => call(t, 'GET', '/v1/entities?q=a', { key });
const graphql = (key: string, query = '{ entities(query: "Apple", limit: 1) { total } }') => call(t, 'POST', '/graphql', { key, body: { query } });
const mcp = (key: string) =>
  call(t, 'POST', '/mcp', {
    key,
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'entities_search', arguments: { q: 'a' } } },
  });

/** An organization in the given billing position. */
async function payg(credits: number, budget: { hardCapCents?: number; softCapCents?: number; approvalThresholdCents?: number } = {}) {
  const org = await orgWithKey(t, undefined, 'payg');
  if (credits) await adjustCredits(t.service.services, org.orgId, credits, 'test credit');
  if (Object.keys(budget).length) await t.service.services.prisma.billingAccount.update({ where: { orgId: org.orgId }, data: budget });
  return org;
}

const positions: Record<string, () => Promise<{ key: string; orgId: string }>> = {
  billing_required: async () => {
    const org = await orgWithKey(t);
    await setPlan(t.service.services, org.orgId, 'team', 'past_due');
    return org;
  },
  insufficient_credits: () => payg(0),
  billing_budget_hard_cap_exceeded: () => payg(100, { hardCapCents: 0 }),
  billing_budget_approval_required: () => payg(100, { approvalThresholdCents: 0 }),
};

async function ledgerSum(orgId: string) {
  const entries = await t.service.services.prisma.ledgerEntry.findMany({ where: { orgId } });
  return entries.reduce((sum, e) => sum + e.amountMillicents, 0n);
}

describe('every 402 code', () => {
  for (const [code, position] of Object.entries(positions)) {
    it(`${code}: over REST, GraphQL and MCP, before any work, and nothing is charged`, async () => {
      const org = await position();
      const before = await ledgerSum(org.orgId);
      expectEnvelope(await dataRead(org.key), 402, code);

      const overGraphql = await graphql(org.key);
      expect(overGraphql.status).toBe(402);
      expect(overGraphql.body.errors[0].extensions.code).toBe(code);
      // the account itself is the free platform class: it still answers, to see why and pay
      expect((await graphql(org.key, '{ me { kind } billing { billingState } }')).status).toBe(200);

      const overMcp = await mcp(org.key);
      expect(overMcp.status).toBe(402);
      expect(overMcp.body.error).toMatchObject({ code: -32007, data: { code } });

      await t.service.services.admission.settle(org.orgId);
      expect(await ledgerSum(org.orgId)).toBe(before);
      expect(await t.service.services.prisma.requestCharge.count({ where: { orgId: org.orgId } })).toBe(0);
    });
  }

  it('billing_required when the starter grant is used up and nothing pays past it', async () => {
    const org = await orgWithKey(t);
    await t.service.services.prisma.billingAccount.create({ data: { orgId: org.orgId, grantCallsUsed: 1000 } });
    const refused = await dataRead(org.key);
    expectEnvelope(refused, 402, 'billing_required');
    expect(refused.body.message).toMatch(/starter grant/);
    // a price-free class (platform) is still served, so the organization can see why
    expect((await call(t, 'GET', '/v1/billing', { key: org.key })).status).toBe(200);
  });
});

describe('credit', () => {
  it('is debited per call at the meter rate, with the price in Service-Estimated-Cost, and the ledger adds up', async () => {
    const org = await payg(10);
    for (let i = 0; i < 7; i++) {
      const answer = await dataRead(org.key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('service-meter-class')).toBe('data_read');
      expect(answer.headers.get('service-estimated-cost')).toBe('200');
    }
    await t.service.services.admission.settle(org.orgId);
    const { prisma } = t.service.services;
    const account = await prisma.billingAccount.findUniqueOrThrow({ where: { orgId: org.orgId } });
    expect(account.balanceMillicents).toBe(10_000n - 7n * 200n);
    expect(await ledgerSum(org.orgId)).toBe(account.balanceMillicents);
    const charges = await prisma.requestCharge.findMany({ where: { orgId: org.orgId } });
    expect(charges).toHaveLength(7);
    const debits = await prisma.ledgerEntry.findMany({ where: { orgId: org.orgId, type: 'debit' } });
    expect(debits.reduce((s, d) => s - d.amountMillicents, 0n)).toBe(charges.reduce((s, c) => s + c.millicents, 0n));

    // diagnostics show what one request paid and the debit that settled it
    const lastId = (await dataRead(org.key)).headers.get('request-id')!;
    const seen = await call(t, 'GET', `/v1/diagnostics/requests/${lastId}`, { key: org.key });
    const settledBy = await prisma.requestCharge.findUniqueOrThrow({ where: { requestId: lastId } });
    expect(seen.body.usage).toEqual({ meterClass: 'data_read', units: 1, chargedMillicents: 200, ledgerEntryId: settledBy.ledgerEntryId });
    expect((await prisma.ledgerEntry.findUniqueOrThrow({ where: { id: settledBy.ledgerEntryId } })).type).toBe('debit');
    await t.service.services.admission.settle(org.orgId);

    const credits = await call(t, 'GET', '/v1/billing/credits', { key: org.key });
    expect(credits.body).toMatchObject({ balanceMillicents: 8400, balanceCents: 8, lifetime: { spentMillicents: 1600, adjustedMillicents: 10_000 } });
    // newest first, a page at a time: the debits that settled the 7 calls, then the adjustment
    const listed = [];
    let cursor = '';
    do {
      const page = await call(t, 'GET', `/v1/billing/credits/transactions?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { key: org.key });
      listed.push(...page.body.data);
      cursor = page.body.nextCursor ?? '';
    } while (cursor);
    expect(listed[0]).toMatchObject({ type: 'debit', balanceAfterMillicents: 8400 });
    expect(listed.at(-1)).toMatchObject({ type: 'adjustment', amountMillicents: 10_000, balanceAfterMillicents: 10_000, description: 'test credit' });
    expect(listed.slice(0, -1).every((e) => e.type === 'debit')).toBe(true);
    expect(listed.reduce((sum, e) => sum + e.amountMillicents, 0)).toBe(8400);
  });

  it('never goes below zero: credit for N calls, 6N sent at once, at most N served', async () => {
    const calls = 10;
    const org = await payg(2); // 2 cents = 10 data reads
    const answers = await Promise.all(Array.from({ length: 6 * calls }, () => dataRead(org.key)));
    const served = answers.filter((a) => a.status === 200).length;
    expect(served).toBeLessThanOrEqual(calls);
    expect(served).toBeGreaterThan(0);
    for (const refused of answers.filter((a) => a.status !== 200)) expectEnvelope(refused, 402, 'insufficient_credits');
    await t.service.services.admission.settle(org.orgId);
    const account = await t.service.services.prisma.billingAccount.findUniqueOrThrow({ where: { orgId: org.orgId } });
    expect(account.balanceMillicents).toBe(2000n - BigInt(served) * 200n);
    expect(account.balanceMillicents).toBeGreaterThanOrEqual(0n);
    expect(await ledgerSum(org.orgId)).toBe(account.balanceMillicents);
  });

  it('counts what another live instance holds, and takes back what a dead one held', async () => {
    const org = await payg(1); // 5 data reads
    const { prisma } = t.service.services;
    // another instance holds all of it and still heartbeats: nothing is left here
    await prisma.creditReservation.create({ data: { orgId: org.orgId, instanceId: 'elsewhere:1', millicents: 1000n } });
    expectEnvelope(await dataRead(org.key), 402, 'insufficient_credits');
    // it stops heartbeating (killed): a minute later its reservation is given back
    await prisma.creditReservation.update({ where: { orgId_instanceId: { orgId: org.orgId, instanceId: 'elsewhere:1' } }, data: { heartbeatAt: new Date(Date.now() - 61_000) } });
    expect((await dataRead(org.key)).status).toBe(200);
    expect(await prisma.creditReservation.count({ where: { orgId: org.orgId, instanceId: 'elsewhere:1' } })).toBe(0);
  });

  it('past the starter grant, an organization with pay-as-you-go pays with credit', async () => {
    const org = await orgWithKey(t);
    const { prisma } = t.service.services;
    await prisma.billingAccount.create({ data: { orgId: org.orgId, grantCallsUsed: 998, paygEnabled: true } });
    await adjustCredits(t.service.services, org.orgId, 1, 'one cent');
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await dataRead(org.key)).status);
    // 2 grant calls, then 5 calls of 200 millicents from 1 cent, then none
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 402]);
    await t.service.services.admission.settle(org.orgId);
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: org.orgId } })).planKey).toBe('payg');
    expect((await prisma.billingAccount.findUniqueOrThrow({ where: { orgId: org.orgId } })).balanceMillicents).toBe(0n);
    expect(await prisma.event.count({ where: { orgId: org.orgId, type: 'billing.plan_changed' } })).toBe(1);
  });
});

describe('the starter grant', () => {
  it('counts calls down, and is re-granted at most once per rolling 30 days', async () => {
    const org = await orgWithKey(t);
    const token = await sessionToken(t, org.orgId);
    for (let i = 0; i < 3; i++) expect((await dataRead(org.key)).status).toBe(200);
    const before = await call(t, 'GET', '/v1/billing', { key: org.key });
    expect(before.body.starterGrant).toMatchObject({ calls: 1000, used: 3, remaining: 997, lastResetAt: null, nextResetEligibleAt: null });

    expectEnvelope(await call(t, 'POST', '/v1/billing/grant/reset', { key: org.key }), 403, 'browser_session_required');
    expectEnvelope(await call(t, 'POST', '/v1/billing/grant/reset'), 401, 'missing_browser_session');
    const reset = await call(t, 'POST', '/v1/billing/grant/reset', { token });
    expect(reset.status).toBe(200);
    expect(reset.body.starterGrant).toMatchObject({ used: 0, remaining: 1000 });
    const again = await call(t, 'POST', '/v1/billing/grant/reset', { token });
    expectEnvelope(again, 409, 'grant_reset_too_soon');
    const next = new Date(again.body.details.nextEligibleAt).getTime();
    expect(next - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(29 * 86_400);

    // 31 days later it is allowed again
    await t.service.services.prisma.billingAccount.update({ where: { orgId: org.orgId }, data: { grantResetAt: new Date(Date.now() - 31 * 86_400_000) } });
    expect((await call(t, 'POST', '/v1/billing/grant/reset', { token })).status).toBe(200);
  });
});

describe('budgets', () => {
  it('are set with a session only, validated, and null removes a control', async () => {
    const org = await payg(0);
    const token = await sessionToken(t, org.orgId);
    expectEnvelope(await call(t, 'PUT', '/v1/billing/budget', { key: org.key, body: { hardCapCents: 100 } }), 403, 'browser_session_required');
    expectEnvelope(await call(t, 'PUT', '/v1/billing/budget', { body: { hardCapCents: 100 } }), 401, 'missing_browser_session');
    expectEnvelope(await call(t, 'PUT', '/v1/billing/budget', { token, body: { hardCapCents: -1 } }), 400, 'validation_error');
    expectEnvelope(await call(t, 'PUT', '/v1/billing/budget', { token, body: { hardCapCents: 1.5 } }), 400, 'validation_error');
    expectEnvelope(await call(t, 'PUT', '/v1/billing/budget', { token, body: {} }), 400, 'validation_error');
    const set = await call(t, 'PUT', '/v1/billing/budget', { token, body: { hardCapCents: 500, softCapCents: 300, approvalThresholdCents: 400 } });
    expect(set.body.budget).toMatchObject({ hardCapCents: 500, softCapCents: 300, approvalThresholdCents: 400 });
    const cleared = await call(t, 'PUT', '/v1/billing/budget', { token, body: { softCapCents: null } });
    expect(cleared.body.budget).toMatchObject({ hardCapCents: 500, softCapCents: null, approvalThresholdCents: 400 });
  });

  it('the hard cap stops spend at the cap, and the soft cap emits one event per month', async () => {
    const org = await payg(100, { hardCapCents: 1, softCapCents: 0 });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await dataRead(org.key)).status);
    // 1 cent of spend is 5 calls of 200 millicents
    expect(statuses).toEqual([200, 200, 200, 200, 200, 402, 402]);
    await t.service.services.admission.settle(org.orgId);
    const { prisma } = t.service.services;
    const account = await prisma.billingAccount.findUniqueOrThrow({ where: { orgId: org.orgId } });
    expect(account.periodSpendMillicents).toBe(1000n);
    expect(await prisma.event.count({ where: { orgId: org.orgId, type: 'billing.soft_cap_reached' } })).toBe(1);
  });
});

describe('quotes', () => {
  it('price calls and name the gates they would meet, reserving nothing', async () => {
    const org = await payg(1, { approvalThresholdCents: 2 });
    const small = await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { meterClass: 'data_read', calls: 5 } });
    expect(small.body).toMatchObject({ estimatedMillicents: 1000, estimatedCents: 1, allowed: true, gates: [] });
    const big = await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { meterClass: 'data_read', calls: 20 } });
    expect(big.body).toMatchObject({ estimatedMillicents: 4000, allowed: false });
    expect(big.body.gates.map((g: { code: string }) => g.code)).toEqual(['insufficient_credits']);
    const analytics = await call(t, 'POST', '/v1/billing/quote', { key: (await orgWithKey(t)).key, body: { workflow: 'portfolio_review', calls: 1 } });
    expect(analytics.body.gates.map((g: { code: string }) => g.code)).toContain('billing_required');
    expectEnvelope(await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { meterClass: 'data_read', workflow: 'company_snapshot', calls: 1 } }), 400, 'validation_error');
    expect(await prisma().creditReservation.count({ where: { orgId: org.orgId } })).toBe(0);
    // the quoted 5 calls are still all there
    for (let i = 0; i < 5; i++) expect((await dataRead(org.key)).status).toBe(200);
  });
});

describe('the pricing catalog in the graph', () => {
  it('lists the workflows a quote prices, each priced as its steps, and the amounts a top-up may be', async () => {
    const org = await payg(1000);
    const catalog = await call(t, 'POST', '/graphql', { key: org.key, body: { query: '{ pricingCatalog { workflows { key name steps { meterClass calls } } topUp { minCents maxCents } } }' } });
    const { workflows, topUp } = catalog.body.data.pricingCatalog;
    expect(workflows.map((w: { key: string }) => w.key)).toEqual(['company_snapshot', 'agent_research_session', 'portfolio_review']);
    for (const w of workflows as { key: string; steps: { meterClass: string; calls: number }[] }[]) {
      const run = await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { workflow: w.key, calls: 1 } });
      let stepsPriced = 0;
      for (const step of w.steps) stepsPriced += (await call(t, 'POST', '/v1/billing/quote', { key: org.key, body: { meterClass: step.meterClass, calls: step.calls } })).body.estimatedMillicents;
      expect(run.body.estimatedMillicents).toBe(stepsPriced);
    }
    expect(topUp).toEqual({ minCents: 500, maxCents: 1_000_000 });
    const owner = await sessionToken(t, org.orgId, `owner.${Date.now()}@example.com`);
    expectEnvelope(await call(t, 'POST', '/v1/billing/credits/topup', { token: owner, body: { amountCents: topUp.minCents - 1 } }), 400, 'validation_error');
  });
});

describe('operator commands', () => {
  it('credits:adjust writes an adjustment and billing:set-plan moves the plan, applied at once', async () => {
    const org = await orgWithKey(t);
    const out: string[] = [];
    const ctx = {
      config: t.service.services.config,
      say: (line: string) => out.push(line),
      note: () => {},
      progress: false,
      database: async () => ({ prisma: t.service.services.prisma, bus: t.service.services.bus, logger: t.service.services.logger, appliedMigrations: [] }),
    };
    expect(await runCommand(['credits:adjust', '--org', org.orgId, '--amount-cents', '250', '--reason', 'goodwill'], ctx)).toBe(0);
    expect(out.pop()).toMatch(/250000 millicents, balance 250000 millicents$/);
    await expect(runCommand(['credits:adjust', '--org', org.orgId, '--amount-cents=-300', '--reason', 'too much'], ctx)).rejects.toThrow(/below zero/);
    expect(await runCommand(['billing:set-plan', '--org', org.orgId, '--plan', 'payg'], ctx)).toBe(0);
    expect(out.pop()).toBe(`${org.orgId} payg active`);
    // the request path hears of it at once: the next call is paid with credit
    expect((await dataRead(org.key)).status).toBe(200);
    await t.service.services.admission.settle(org.orgId);
    expect(await prisma().requestCharge.count({ where: { orgId: org.orgId } })).toBe(1);
    await expect(runCommand(['billing:set-plan', '--org', org.orgId, '--plan', 'gold'], ctx)).rejects.toThrow(/no plan gold/);
    await expect(runCommand(['billing:set-plan', '--org', org.orgId, '--plan', 'team', '--state', 'paused'], ctx)).rejects.toThrow(/--state/);
  });
});

function prisma() {
  return t.service.services.prisma;
}
