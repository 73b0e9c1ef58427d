// The credit ledger narrowed to one type of entry, through both doors alike (GET
// /v1/billing/credits/transactions?type= and creditTransactions(type:)), paged with the same
// cursors, and never listing another organization's entries, whatever cursor or filter is asked.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustCredits } from '../../resolvers/billing/account.ts';
import { startStripeServer, type StripeServer } from '../support/stripeServer.ts';
import { call, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

const webhookSecret = 'whsec_test';

let server: StripeServer;
let t: TestService;

beforeAll(async () => {
  server = await startStripeServer();
  t = await startTestService({ stripe: { secretKey: 'sk_test_local', webhookSecret, apiBase: server.url, prices: {} }, billing: { enforced: true, settleMs: 200 } });
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

interface Org {
  orgId: string;
  key: string;
  token: string;
  topUps: string[];
}

async function newOrg(): Promise<Org> {
  const org = await orgWithKey(t);
  return { ...org, token: await sessionToken(t, org.orgId), topUps: [] };
}

/** A top-up the processor confirms, its signed notice delivered as Stripe would. */
async function topUp(org: Org, amountCents: number) {
  const answer = await call(t, 'POST', '/v1/billing/credits/topup', { token: org.token, body: { amountCents } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const mark = server.events.length;
  server.confirmPaymentIntent(answer.body.paymentIntentId);
  for (const event of server.events.slice(mark)) {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const delivered = await call(t, 'POST', '/v1/billing/webhooks/processor', { rawBody: payload, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
  }
  org.topUps.push(answer.body.paymentIntentId);
}

async function graphql(credentials: { key?: string; token?: string }, variables: Record<string, unknown>) {
  const query = 'query Ledger($first: Int, $after: String, $type: String) { creditTransactions(first: $first, after: $after, type: $type) { nodes { id type reference } pageInfo { hasNextPage endCursor } } }';
  return call(t, 'POST', '/graphql', { ...credentials, body: { query, variables } });
}

describe('the credit ledger filtered by type', () => {
  let a: Org;
  let b: Org;

  beforeAll(async () => {
    [a, b] = await Promise.all([newOrg(), newOrg()]);
    await topUp(a, 1000);
    await adjustCredits(t.service.services, a.orgId, 150, 'goodwill');
    await topUp(a, 2000);
    await topUp(b, 3000);
    await adjustCredits(t.service.services, b.orgId, 250, 'goodwill');
  }, 30_000);

  it('lists only that type over REST, paged with cursors, and only the caller\'s organization\'s', async () => {
    const all = await call(t, 'GET', '/v1/billing/credits/transactions', { key: a.key });
    expect(all.body.data.map((e: { type: string }) => e.type)).toEqual(['topup', 'adjustment', 'topup']);

    const first = await call(t, 'GET', '/v1/billing/credits/transactions?type=topup&limit=1', { key: a.key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.hasMore).toBe(true);
    const second = await call(t, 'GET', `/v1/billing/credits/transactions?type=topup&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: a.key });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.hasMore).toBe(false);
    // newest first: the second top-up, then the first
    expect([...first.body.data, ...second.body.data].map((e: { type: string; reference: string }) => [e.type, e.reference])).toEqual([
      ['topup', a.topUps[1]],
      ['topup', a.topUps[0]],
    ]);

    const adjustments = await call(t, 'GET', '/v1/billing/credits/transactions?type=adjustment', { key: a.key });
    expect(adjustments.body.data).toHaveLength(1);
    expect(adjustments.body.data[0]).toMatchObject({ type: 'adjustment', amountMillicents: 150_000 });

    const none = await call(t, 'GET', '/v1/billing/credits/transactions?type=refund', { key: a.key });
    expect(none.body).toMatchObject({ data: [], hasMore: false, nextCursor: null });

    const bad = await call(t, 'GET', '/v1/billing/credits/transactions?type=payout', { key: a.key });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_query_parameter', details: { parameter: 'type' } });
  });

  it('answers the same through GraphQL, and refuses an unknown type', async () => {
    const rest = await call(t, 'GET', '/v1/billing/credits/transactions?type=topup', { key: a.key });
    const answer = await graphql({ key: a.key }, { type: 'topup' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.creditTransactions.nodes.map((e: { id: string }) => e.id)).toEqual(rest.body.data.map((e: { id: string }) => e.id));

    const bad = await graphql({ key: a.key }, { type: 'payout' });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_request_parameter', details: { parameter: 'type' } });
  });

  it('never lists another organization\'s entries: not by filter, not with its cursor, not to its members', async () => {
    const aIds = new Set<string>((await call(t, 'GET', '/v1/billing/credits/transactions', { key: a.key })).body.data.map((e: { id: string }) => e.id));
    expect(aIds.size).toBe(3);

    for (const type of ['topup', 'adjustment']) {
      const rest = await call(t, 'GET', `/v1/billing/credits/transactions?type=${type}`, { key: b.key });
      expect(rest.body.data).toHaveLength(1);
      expect(rest.body.data.some((e: { id: string }) => aIds.has(e.id))).toBe(false);
      // B's own members, through the dashboard's door
      const session = await graphql({ token: b.token }, { type });
      expect(session.status, JSON.stringify(session.body)).toBe(200);
      const nodes = session.body.data.creditTransactions.nodes as { id: string; reference: string | null }[];
      expect(nodes).toHaveLength(1);
      expect(nodes.some((e) => aIds.has(e.id))).toBe(false);
    }
    expect((await call(t, 'GET', '/v1/billing/credits/transactions?type=topup', { key: b.key })).body.data[0].reference).toBe(b.topUps[0]);

    // A's cursor in B's hands pages B's ledger, never A's
    const aPage = await call(t, 'GET', '/v1/billing/credits/transactions?type=topup&limit=1', { key: a.key });
    const borrowed = await graphql({ token: b.token }, { type: 'topup', first: 10, after: aPage.body.nextCursor });
    const borrowedNodes = (borrowed.body.data?.creditTransactions.nodes ?? []) as { id: string }[];
    expect(borrowedNodes.some((e) => aIds.has(e.id))).toBe(false);
  });
});
