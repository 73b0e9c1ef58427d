// A suspended organization's webhook deliveries are held, not sent and not failed: its endpoints
// receive nothing while an operator has it suspended, and what waited goes out once
// the suspension is lifted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../resolvers/accounts/sessions.ts';
import { createOperator } from '../../resolvers/operators.ts';
import { call, eventually, orgWithKey, startTestService, type TestService } from '../harness.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';

let t: TestService;
let receiver: WebhookReceiver;
let operatorToken: string;

beforeAll(async () => {
  [t, receiver] = await Promise.all([startTestService(), new WebhookReceiver().start()]);
  const email = `op.${Date.now().toString(36)}@suspension.test`;
  const user = await createOperator(t.service.services.prisma, email);
  operatorToken = (await startSession(t.service.services, { userId: user.id, email, orgId: null, rememberMe: false, method: 'cli' })).token;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('webhooks of a suspended organization', () => {
  it('are held while it is suspended and delivered once the suspension is lifted', async () => {
    const org = await orgWithKey(t, 'Suspended Webhooks');
    const created = await call(t, 'POST', '/v1/webhook_endpoints', { key: org.key, body: { url: receiver.url, eventTypes: ['*'] } });
    expect(created.status).toBe(200);
    receiver.secrets = [created.body.secret];
    const { prisma } = t.service.services;

    expect((await call(t, 'POST', `/v1/operator/organizations/${org.orgId}/suspend`, { token: operatorToken, body: { reason: 'unpaid invoices' } })).status).toBe(200);
    // the suspension is itself an event of the organization: its delivery is written, and waits
    const held = await eventually('the suspension event to be dispatched', async () =>
      prisma.webhookDelivery.findFirst({ where: { orgId: org.orgId, eventType: 'org.audit.organization.suspended' } }),
    );
    // several of the worker's rounds (one a second here) pass without sending it
    await new Promise((resolve) => setTimeout(resolve, 3 * t.service.services.config.webhooks.pollMs + 500));
    expect(receiver.received).toEqual([]);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: 'pending', attempt: 1, attemptedAt: null });

    expect((await call(t, 'POST', `/v1/operator/organizations/${org.orgId}/unsuspend`, { token: operatorToken })).status).toBe(200);
    await eventually('both events to arrive', () => (receiver.received.length >= 2 ? receiver.received : undefined));
    expect(receiver.received.map((r) => (r.body as { type: string }).type).sort()).toEqual(['org.audit.organization.suspended', 'org.audit.organization.unsuspended']);
    expect(receiver.received.every((r) => r.status === 200 && r.verifiedWith.length === 1)).toBe(true);
    // recorded once the receiver's answer is in
    const sent = await eventually('the held delivery to be recorded', async () => {
      const row = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: held.id } });
      return row.status === 'pending' ? undefined : row;
    });
    expect(sent).toMatchObject({ status: 'succeeded', attempt: 1, responseStatus: 200 });
  });
});
