// The GraphQL door against the GraphQL-over-HTTP specification, audited by graphql-http's
// own checks (every MUST must pass).
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

describe('/graphql', () => {
  it('passes every MUST audit of the GraphQL-over-HTTP specification', async () => {
    const audits = serverAudits({ url: () => `${t.url}/graphql`, fetchFn: fetch });
    const failed: string[] = [];
    for (const audit of audits.filter((a) => a.name.startsWith('MUST'))) {
      const result = await audit.fn();
      if (result.status !== 'ok') failed.push(`${audit.name}: ${result.reason}`);
    }
    expect(failed).toEqual([]);
  });
});
