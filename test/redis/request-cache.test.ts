// Instances keep a key's principal and its organization's quotas, and data reads' answers, for
// minutes here; a revocation or an ingest through one instance still reaches the others at once,
// through the event bus.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { fixture } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, eventually, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

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

describe('data reads across instances', () => {
  it('an ingest through one instance drops the answers the other keeps', async () => {
    const { key } = await orgWithKey(a);
    // a company of this run's own, from the companyfacts fixture
    const cik = String(900_000_000 + Math.floor(Math.random() * 99_999_999)).padStart(10, '0');
    const file = JSON.parse(await fixture('xbrl/companyfacts-exact.json'));
    file.cik = Number(cik);
    const ingest = () => runIngest(a.service.services, fixtureSource({ [`companyfacts/CIK${cik}.json`]: { text: JSON.stringify(file) } }));
    await ingest();
    const assetsOnB = async () => (await call(b, 'GET', `/v1/facts?cik=${cik}&tag=Assets&limit=100`, { key })).body.facts?.map((f: { value: string }) => f.value);
    expect(await eventually('B to read the company', assetsOnB)).toEqual(['725.5', '710', '700', '700']); // B keeps this answer

    file.facts['us-gaap'].Assets.units.USD.push({ end: '2024-12-28', val: 731, accn: '0000000001-25-000001', fy: 2025, fp: 'Q1', form: '10-Q', filed: '2025-02-01' });
    await ingest();
    expect(await eventually('B to read the new fact', async () => ((await assetsOnB())?.[0] === '731' ? await assetsOnB() : undefined))).toEqual(['731', '725.5', '710', '700', '700']);
  });
});
