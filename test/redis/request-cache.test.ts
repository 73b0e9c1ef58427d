// Instances keep a key's principal and its organization's quotas for minutes here; a revocation
// through one instance still reaches the others at once, through the event bus.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestService({ requestCacheTtlMs: 600_000 }), startTestService({ requestCacheTtlMs: 600_000 })]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

async function statusOnB(key: string, until: (status: number) => boolean) {
  let status = 0;
  for (let attempt = 0; attempt < 50 && !until(status); attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await call(b, 'GET', '/v1/me', { key })).status;
  }
  return status;
}

describe('the request cache across instances', () => {
  it('a key revoked through one instance is refused by the other', async () => {
    const org = await orgWithKey(a);
    expect(await statusOnB(org.key, (s) => s === 200)).toBe(200); // B now holds the key
    const revoked = await call(a, 'DELETE', `/v1/api_keys/${org.keyId}`, { token: await sessionToken(a, org.orgId) });
    expect(revoked.status).toBe(200);
    expect(await statusOnB(org.key, (s) => s === 401)).toBe(401);
  });
});
