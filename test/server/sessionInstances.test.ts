// Sessions across two instances sharing one PostgreSQL database: a session started on one works
// on the other, and ending it (or removing the member) takes effect on both at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestService(), startTestService()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

it('a session ended on one instance is refused by the other on its next request', async () => {
  const { orgId } = await orgWithKey(a);
  const token = await sessionToken(a, orgId);
  expect((await call(b, 'GET', '/v1/api_keys', { token })).status).toBe(200);
  expect((await call(a, 'POST', '/v1/auth/sign-out', { token })).status).toBe(200);
  expectEnvelope(await call(b, 'GET', '/v1/api_keys', { token }), 401, 'authentication_failed');
});

it('a member removed through one instance loses the organization on the other at once', async () => {
  const { orgId } = await orgWithKey(a);
  const email = `removed.${Date.now()}@example.com`;
  const token = await sessionToken(a, orgId, email, false, 'developer');
  expect((await call(b, 'GET', '/v1/org', { token })).status).toBe(200);
  const user = await a.service.services.prisma.user.findUniqueOrThrow({ where: { email } });
  await a.service.services.prisma.membership.delete({ where: { userId_orgId: { userId: user.id, orgId } } });
  expectEnvelope(await call(b, 'GET', '/v1/org', { token }), 403, 'organization_missing');
});
