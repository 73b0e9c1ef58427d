// Times are stored as UTC whatever the database server's time zone: on a database whose sessions
// default to America/New_York, webhook attempts are due when they should be, and request records
// and the charges of prepaid requests carry the time they were made.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { adjustCredits, setPlan } from '../../resolvers/billing/account.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let receiver: Server;
const received: string[] = [];

beforeAll(async () => {
  database = await scratchDatabase();
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${new URL(database.url!).pathname.slice(1)}" SET timezone TO 'America/New_York'`);
  await admin.end();
  t = await startTestService({ database: database.target, billing: { enforced: true, settleMs: 100 } });
  receiver = createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await t?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.drop();
});

describe('a database server in another time zone', () => {
  it('delivers a webhook attempt as soon as it is due, and records requests at the time they were made', async () => {
    const { key } = await orgWithKey(t);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const endpoint = (await call(t, 'POST', '/v1/webhook_endpoints', { key, body: { url, eventTypes: ['webhook.test'] } })).body;
    const test = await call(t, 'POST', `/v1/webhook_endpoints/${endpoint.id}/test`, { key });
    await eventually('the test event', () => received.includes(test.body.eventId));

    const record = await call(t, 'GET', `/v1/diagnostics/requests/${test.headers.get('request-id')}`, { key });
    expect(Math.abs(Date.parse(record.body.request.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('records a prepaid request\'s charge at the time it was made', async () => {
    const { orgId, key } = await orgWithKey(t);
    await setPlan(t.service.services, orgId, 'payg', 'active');
    await adjustCredits(t.service.services, orgId, 100, 'test credit');
    const read = await call(t, 'GET', '/v1/entities?q=a', { key });
    expect(read.status).toBe(200);
    const requestId = String(read.headers.get('request-id'));
    const charge = await eventually('the settled charge', () => t.service.services.prisma.requestCharge.findUnique({ where: { requestId } }));
    expect(charge.millicents).toBeGreaterThan(0n);
    expect(Math.abs(charge.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });
});
