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

  it('serves GraphiQL to a browser without loading anything from elsewhere', async () => {
    const page = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Investor Data Service</title>');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\//);
  });
});
