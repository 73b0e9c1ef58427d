// The reads the dashboard's Webhooks and Streams pages add to the graph: one endpoint by id, an
// endpoint's deliveries filtered by status (GraphQL and REST alike), and one stream by id. Each is
// the caller's organization's only: another organization's key or session finds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';
import { WebhookReceiver } from '../support/webhookReceiver.ts';

let t: TestService;
let receiver: WebhookReceiver;
let acme: Awaited<ReturnType<typeof orgWithKey>>;
let other: Awaited<ReturnType<typeof orgWithKey>>;
let otherSession: string;

const gql = async (credentials: { key?: string; token?: string }, query: string, variables: Record<string, unknown> = {}) => {
  const answer = await call(t, 'POST', '/graphql', { ...credentials, body: { query, variables } });
  return { data: answer.body.data, errors: answer.body.errors as { message: string; extensions: { code: string } }[] | undefined };
};

beforeAll(async () => {
  [t, receiver] = await Promise.all([startTestService(), new WebhookReceiver().start()]);
  acme = await orgWithKey(t, 'Reads Acme');
  other = await orgWithKey(t, 'Reads Other');
  otherSession = await sessionToken(t, other.orgId, `other.${Date.now()}@example.com`);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const endpointQuery = `query ($id: String!) { webhookEndpoint(id: $id) { id url status eventTypes } }`;
const deliveriesQuery = `query ($id: String!, $status: String) { webhookDeliveries(endpointId: $id, first: 10, status: $status) { nodes { id status responseStatus } } }`;
const streamQuery = `query ($id: String!) { streamSubscription(id: $id) { id description eventTypes status } }`;

describe('webhookEndpoint and webhookDeliveries(status)', () => {
  it('reads one endpoint and its deliveries by status, and nothing of another organization', async () => {
    const created = await call(t, 'POST', '/v1/webhook_endpoints', { key: acme.key, body: { url: receiver.url, eventTypes: ['webhook.test'] } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    receiver.secrets = [created.body.secret];

    const own = await gql({ key: acme.key }, endpointQuery, { id });
    expect(own.errors).toBeUndefined();
    expect(own.data.webhookEndpoint).toEqual({ id, url: receiver.url, status: 'enabled', eventTypes: ['webhook.test'] });

    // a test delivery, answered 200 by the receiver; then one answered 500 (failed, retried later)
    expect((await call(t, 'POST', `/v1/webhook_endpoints/${id}/test`, { key: acme.key })).status).toBe(200);
    await eventually('the first delivery to succeed', async () => (await gql({ key: acme.key }, deliveriesQuery, { id, status: 'succeeded' })).data.webhookDeliveries.nodes[0]);
    receiver.script = [500];
    expect((await call(t, 'POST', `/v1/webhook_endpoints/${id}/test`, { key: acme.key })).status).toBe(200);
    await eventually('the second delivery to fail', async () => (await gql({ key: acme.key }, deliveriesQuery, { id, status: 'retrying' })).data.webhookDeliveries.nodes[0]);

    const succeeded = (await gql({ key: acme.key }, deliveriesQuery, { id, status: 'succeeded' })).data.webhookDeliveries.nodes;
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(succeeded.every((d: { status: string; responseStatus: number }) => d.status === 'succeeded' && d.responseStatus === 200)).toBe(true);
    const retrying = (await gql({ key: acme.key }, deliveriesQuery, { id, status: 'retrying' })).data.webhookDeliveries.nodes;
    expect(retrying).toEqual([expect.objectContaining({ status: 'retrying', responseStatus: 500 })]);
    const all = (await gql({ key: acme.key }, deliveriesQuery, { id })).data.webhookDeliveries.nodes;
    expect(all.length).toBeGreaterThan(succeeded.length);

    // REST says the same, with the same filter
    const rest = await call(t, 'GET', `/v1/webhook_endpoints/${id}/deliveries?status=retrying`, { key: acme.key });
    expect(rest.status).toBe(200);
    expect(rest.body.data.map((d: { id: string }) => d.id)).toEqual(retrying.map((d: { id: string }) => d.id));
    expect((await call(t, 'GET', `/v1/webhook_endpoints/${id}/deliveries?status=lost`, { key: acme.key })).status).toBe(400);

    // an unknown status is a mistake, said so, not an empty page
    const unknown = await gql({ key: acme.key }, deliveriesQuery, { id, status: 'lost' });
    expect(unknown.errors?.[0]?.extensions.code).toBe('invalid_query_parameter');

    // another organization's key and session find neither the endpoint nor its deliveries
    for (const credentials of [{ key: other.key }, { token: otherSession }]) {
      expect((await gql(credentials, endpointQuery, { id })).errors?.[0]?.extensions.code).toBe('webhook_endpoint_not_found');
      expect((await gql(credentials, deliveriesQuery, { id, status: 'succeeded' })).errors?.[0]?.extensions.code).toBe('webhook_endpoint_not_found');
    }
    expect((await call(t, 'GET', `/v1/webhook_endpoints/${id}/deliveries?status=succeeded`, { key: other.key })).status).toBe(404);

    // deleted: not found any more, for its own organization too
    expect((await call(t, 'DELETE', `/v1/webhook_endpoints/${id}`, { key: acme.key })).status).toBe(200);
    expect((await gql({ key: acme.key }, endpointQuery, { id })).errors?.[0]?.extensions.code).toBe('webhook_endpoint_not_found');
  });
});

describe('streamSubscription', () => {
  it('reads one stream of the organization, and not another organization\'s', async () => {
    const created = await call(t, 'POST', '/v1/stream_subscriptions', { key: acme.key, body: { description: 'Key changes', eventTypes: ['api_key.created'] } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;

    const own = await gql({ key: acme.key }, streamQuery, { id });
    expect(own.errors).toBeUndefined();
    expect(own.data.streamSubscription).toEqual({ id, description: 'Key changes', eventTypes: ['api_key.created'], status: 'enabled' });

    for (const credentials of [{ key: other.key }, { token: otherSession }]) {
      expect((await gql(credentials, streamQuery, { id })).errors?.[0]?.extensions.code).toBe('stream_subscription_not_found');
    }

    expect((await call(t, 'DELETE', `/v1/stream_subscriptions/${id}`, { key: acme.key })).status).toBe(200);
    expect((await gql({ key: acme.key }, streamQuery, { id })).errors?.[0]?.extensions.code).toBe('stream_subscription_not_found');
  });
});
