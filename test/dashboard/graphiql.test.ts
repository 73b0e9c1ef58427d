// GraphiQL in a real browser: the page of a few kilobytes loads its code from this origin's
// assets and runs under its CSP (no inline script), with no violation and no script error; opened
// from the dashboard, it runs signed in with the browser's session.
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphiql, graphiqlAsset, graphiqlAssetsPath } from '../../graphql/graphiql.ts';
import { securityHeaders } from '../../rest/securityHeaders.ts';
import { freePort, orgWithKey, sessionToken, startTestService } from '../harness.ts';
import { byName, ensureDashboardBuilt, launchBrowser, screenshot, waitForHeading, watchedPage } from './browser.ts';

let server: Server;
let browser: Browser;
let url: string;

beforeAll(async () => {
  const app = express();
  app.use(securityHeaders);
  app.get('/graphql', graphiql);
  app.get(`${graphiqlAssetsPath}/:name`, graphiqlAsset);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  server?.close();
});

it('renders the editor from its assets under the CSP, without a violation or a script error', { timeout: 60_000 }, async () => {
  const { page, watch } = await watchedPage(browser);
  const loaded: string[] = [];
  page.on('response', (response) => void loaded.push(new URL(response.url()).pathname));
  await page.goto(`${url}/graphql`, { waitUntil: 'load' });
  await page.waitForSelector('.graphiql-container .graphiql-editor', { timeout: 30_000 });
  expect(loaded.some((p) => p.startsWith(`${graphiqlAssetsPath}/graphiql-`) && p.endsWith('.js'))).toBe(true);
  await screenshot(page, 'graphiql');
  expect(watch.problems).toEqual([]);
});

it('runs signed in with the dashboard session, opened from the dashboard: no key is pasted anywhere', { timeout: 90_000 }, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const [service] = await Promise.all([startTestService({ publicUrl: base }, { port }), ensureDashboardBuilt()]);
  try {
    const org = await orgWithKey(service, 'GraphiQL Analysts');
    const { page, watch } = await watchedPage(await browser.createBrowserContext());
    await page.browserContext().setCookie({ name: 'ids_session', value: await sessionToken(service, org.orgId, `analyst.${Date.now()}@example.com`), domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' });
    await page.goto(`${base}/dashboard`);
    await waitForHeading(page, 'Overview');
    await (await byName(page, 'GraphiQL', 'link')).click();
    await page.waitForSelector('.graphiql-container .graphiql-editor', { timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/graphql');
    // the default query asks who is calling: the session's organization answers
    await (await page.waitForSelector('.graphiql-execute-button'))!.click();
    // (the response editor wraps long lines: compared without white space)
    const shown = () => page.$eval('.graphiql-response', (r) => (r.textContent ?? '').replace(/\s+/g, ''));
    await page.waitForFunction((id) => document.querySelector('.graphiql-response')?.textContent?.replace(/\s+/g, '').includes(id), { timeout: 15_000 }, org.orgId);
    expect(await shown()).toContain('"kind":"session"');
    expect(await shown()).toContain('"name":"GraphiQLAnalysts"');
    await screenshot(page, 'graphiql-signed-in');
    expect(watch.problems).toEqual([]);
  } finally {
    await service.close();
  }
});
