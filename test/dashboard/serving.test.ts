// How the service serves the dashboard (server/dashboard.ts) and what the build gives it
// (scripts/build-dashboard.mjs): the HTML never cached and under a CSP without inline code or other
// origins, the assets named by content hash and cached for a year (precompressed), the first load
// within its JavaScript budget, and a start with nothing changed that builds nothing.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../rest/securityHeaders.ts';
import { dashboardCsp, dashboardRouter, defaultDashboardDir } from '../../server/dashboard.ts';
// @ts-expect-error: a plain .mjs script, without type declarations
import { firstLoadJavaScript } from '../../scripts/dashboard-size.mjs';
import { ensureDashboardBuilt } from './browser.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const budgetBytes = 250 * 1024;

async function serve(dir: string, processor = false): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use(securityHeaders);
  app.use(dashboardRouter({ dir, publicUrl: 'http://127.0.0.1:4000', processor }));
  app.use((_req, res) => void res.status(404).json({ code: 'route_not_found' }));
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('serving a build', () => {
  let dir: string;
  let site: { url: string; server: Server };
  const js = 'console.log("dashboard");'.repeat(100);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ids-dashboard-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/dashboard/assets/app-AbC123.js"></script>');
    await writeFile(path.join(dir, 'assets', 'app-AbC123.js'), js);
    await writeFile(path.join(dir, 'assets', 'app-AbC123.js.gz'), gzipSync(js));
    await writeFile(path.join(dir, 'assets', 'plain-XyZ.css'), 'body{}');
    site = await serve(dir);
  });
  afterAll(async () => {
    site?.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the app for every dashboard address, uncached, under its CSP', async () => {
    for (const route of ['/dashboard', '/dashboard/', '/dashboard/keys', '/dashboard/keys/key_1/rotate?replacement=key_2', '/dashboard/sign-in?token=abc']) {
      const answer = await fetch(`${site.url}${route}`);
      expect(answer.status, route).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('content-security-policy')).toBe(dashboardCsp('http://127.0.0.1:4000', false));
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await answer.text()).toContain('app-AbC123.js');
    }
    // not the dashboard's
    expect((await fetch(`${site.url}/dashboardx`)).status).toBe(404);
  });

  it('serves assets for a year, gzipped when the browser takes it and a .gz was built', async () => {
    const zipped = await fetch(`${site.url}/dashboard/assets/app-AbC123.js`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(zipped.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(await zipped.text()).toBe(js); // fetch decodes it

    const plain = await fetch(`${site.url}/dashboard/assets/app-AbC123.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(js);
    const css = await fetch(`${site.url}/dashboard/assets/plain-XyZ.css`, { headers: { 'accept-encoding': 'gzip' } });
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('answers 404, uncached, for an asset it does not have, a compressed file by name, or a path outside', async () => {
    for (const route of ['/dashboard/assets/missing-1.js', '/dashboard/assets/app-AbC123.js.gz', '/dashboard/assets/..%2Findex.html', '/dashboard/assets/%2e%2e%2f%2e%2e%2fpackage.json']) {
      const answer = await fetch(`${site.url}${route}`);
      expect(answer.status, route).toBe(404);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('says so when the dashboard is not built', async () => {
    const empty = await serve(path.join(dir, 'nothing-here'));
    try {
      const answer = await fetch(`${empty.url}/dashboard`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(await answer.text()).toMatch(/not built/);
    } finally {
      empty.server.close();
    }
  });
});

describe('the Content-Security-Policy', () => {
  it('allows this origin only: no inline code, no eval, no other origin', () => {
    const csp = dashboardCsp('http://127.0.0.1:4000', false);
    expect(csp).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' ws://127.0.0.1:4000; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(dashboardCsp('https://ids.example.com', false)).toContain("connect-src 'self' wss://ids.example.com;");
  });

  it('adds the payment processor\'s own origins, and only those, when a publishable key is configured', () => {
    const csp = dashboardCsp('https://ids.example.com', true);
    expect(csp).toContain("script-src 'self' https://js.stripe.com;");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain('connect-src \'self\' wss://ids.example.com https://api.stripe.com;');
    const origins = csp.match(/https:\/\/[^\s;]+/g)!.filter((o) => o !== 'https://ids.example.com');
    expect(new Set(origins.map((o) => new URL(o).hostname.split('.').slice(-2).join('.')))).toEqual(new Set(['stripe.com']));
    expect(csp).not.toMatch(/unsafe|\*/);
  });
});

describe('the build', () => {
  beforeAll(() => ensureDashboardBuilt(), 120_000);

  it('has no inline script or style, and names every asset by its content hash', async () => {
    const html = await readFile(path.join(defaultDashboardDir, 'index.html'), 'utf8');
    for (const script of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) expect(script).toMatch(/^<script[^>]*\ssrc="\/dashboard\/assets\/[\w-]+-[\w-]{8}\.js"[^>]*><\/script>$/);
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|javascript:/i);
    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) expect(asset).toMatch(/^\/dashboard\/assets\/[\w-]+-[\w-]{8}\.(js|css)$/);
  });

  it(`loads at most ${budgetBytes / 1024} KB of JavaScript, gzipped, on the first visit, built for production`, async () => {
    const size = await firstLoadJavaScript();
    expect(size.files.length).toBeGreaterThan(0);
    expect(size.gzipBytes).toBeLessThanOrEqual(budgetBytes);
    // React's development build and JSX runtime, which a build under NODE_ENV=test would pick, are not shipped
    for (const file of size.files as { url: string }[]) {
      const built = path.join(defaultDashboardDir, file.url.replace(/^\/dashboard\//, ''));
      // the bundler's own module runtime, a few hundred bytes, comes without a source map
      if (!existsSync(`${built}.map`)) {
        expect((await stat(built)).size, file.url).toBeLessThan(2048);
        continue;
      }
      const map = JSON.parse(await readFile(`${built}.map`, 'utf8')) as { sources: string[] };
      expect(map.sources.filter((source) => /\.development\.js$|jsx-dev-runtime/.test(source))).toEqual([]);
    }
  });

  it('is not built again when nothing changed: a start pays a hash of the sources', async () => {
    const stamp = path.join(defaultDashboardDir, '.build-stamp');
    const before = await stat(stamp);
    const { stderr } = await promisify(execFile)(process.execPath, ['scripts/build-dashboard.mjs'], { cwd: root });
    expect(stderr).not.toMatch(/built/);
    expect((await stat(stamp)).mtimeMs).toBe(before.mtimeMs);
  });
});
