// Idempotency-Key across two instances sharing one PostgreSQL database.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, orgWithKey, startTestService, type TestService } from '../harness.ts';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestService(), startTestService()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

it('runs a request once across two instances sharing the database', async () => {
  const { key } = await orgWithKey(a);
  const idem = randomUUID();
  const body = { url: 'http://127.0.0.1:9/x', eventTypes: ['*'] };
  const answers = await Promise.all([a, b, a, b].map((instance) => call(instance, 'POST', '/v1/webhook_endpoints', { key, body, headers: { 'Idempotency-Key': idem } })));
  expect(answers.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  expect(answers.every((r) => r.status === 200 || r.status === 409)).toBe(true);
  expect((await call(a, 'GET', '/v1/webhook_endpoints?limit=100', { key })).body.data).toHaveLength(1);
});
