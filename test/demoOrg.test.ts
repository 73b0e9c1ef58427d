// The demo organization an empty database gets (server/bootstrap.ts) must run every README
// example for a day of exploring: analytics included, at least 100 data reads a minute.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../resolvers/orgs.ts';
import { demoKeyFile, ensureDemoOrg } from '../server/bootstrap.ts';
import { call, startIsolatedService, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startIsolatedService(); // a demo organization is one per database
});
afterAll(() => t?.close());

type Quota = { meterClass: string; period: string; limit: number; allowed: boolean };

describe('the demo organization', () => {
  it('allows analytics and at least 100 data reads a minute; POST /v1/portfolio/analyze is not refused for billing', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'ids-demo-'));
    const demo = await ensureDemoOrg(t.service.services, stateDir);
    expect(demo.created).toBe(true);
    const key = (await readFile(demoKeyFile(stateDir), 'utf8')).trim();

    const limits = await call(t, 'GET', '/v1/limits', { key });
    expect(limits.status, JSON.stringify(limits.body)).toBe(200);
    const quota = (meterClass: string, period: string) => (limits.body.quotas as Quota[]).find((q) => q.meterClass === meterClass && q.period === period)!;
    expect(quota('data_read', 'minute').limit).toBeGreaterThanOrEqual(100);
    expect(quota('analytics', 'minute')).toMatchObject({ allowed: true });
    expect(quota('analytics', 'day').limit).toBeGreaterThanOrEqual(100);
    // the README's Setup names the AI query's: 20 a day, 500 a month
    expect([quota('ai_query', 'day').limit, quota('ai_query', 'month').limit]).toEqual([20, 500]);

    // No market files are loaded here: the computation refuses the ticker (400), but billing lets it through.
    const analyze = await call(t, 'POST', '/v1/portfolio/analyze', { key, body: { holdings: [{ ticker: 'AAPL', weight: 1 }] } });
    expect(analyze.status, JSON.stringify(analyze.body)).not.toBe(402);
    expect([200, 400]).toContain(analyze.status);
  });

  it('a demo organization left on the starter grant by an earlier version is moved up at the next start', async () => {
    const { prisma } = t.service.services;
    await prisma.organization.updateMany({ where: { isDemo: true }, data: { isDemo: false } });
    const old = await createOrganization(prisma, 'Demo organization', { isDemo: true });
    expect(old.planKey).toBe('sandbox_grant');
    const again = await ensureDemoOrg(t.service.services, await mkdtemp(path.join(tmpdir(), 'ids-demo-')));
    expect(again.created).toBe(false);
    expect(again.org).toMatchObject({ id: old.id, planKey: 'personal', billingState: 'active' });
  });
});
