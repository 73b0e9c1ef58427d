// GraphiQL in a real browser: the page of a few kilobytes loads its code from this origin's
// assets and runs under its CSP (no inline script), with no violation and no script error.
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphiql, graphiqlAsset, graphiqlAssetsPath } from '../../graphql/graphiql.ts';
import { securityHeaders } from '../../rest/securityHeaders.ts';
import { launchBrowser, screenshot, watchedPage } from './browser.ts';

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
