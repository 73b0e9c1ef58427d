// The dashboard, served by the service at /dashboard: the single-page app that scripts/build.mjs
// builds into dist/dashboard (scripts/build-dashboard.mjs). Its assets are named by their content
// hash and cached for a year; the HTML, which names them, is never cached, so a new build is
// picked up at the next page load. Every dashboard URL answers the same HTML: the app routes.
//
// Its Content-Security-Policy allows only this origin's own scripts, styles, images and
// connections (the API and graphql-ws): no inline script or style, no eval. The payment
// processor's origins are added only when a publishable key is configured, for its payment form.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type Request, type Response } from 'express';
import type { Config } from '../core/config.ts';

/** Where scripts/build-dashboard.mjs writes the build (the same folder from server/ and from dist/). */
export const defaultDashboardDir = fileURLToPath(new URL('../dist/dashboard/', import.meta.url));

export const dashboardPath = '/dashboard';

/** The payment processor's origins that its browser library needs (Stripe.js and its frames). */
const processorOrigins = { script: ['https://js.stripe.com'], frame: ['https://js.stripe.com', 'https://hooks.stripe.com'], connect: ['https://api.stripe.com'] };

export function dashboardCsp(publicUrl: string, withProcessor: boolean): string {
  const origin = new URL(publicUrl);
  // graphql-ws: 'self' covers ws: and wss: of this host in current browsers; the explicit one is for the others
  const socket = `${origin.protocol === 'https:' ? 'wss' : 'ws'}://${origin.host}`;
  const extra = (list: string[]) => (withProcessor ? ` ${list.join(' ')}` : '');
  return [
    "default-src 'none'",
    `script-src 'self'${extra(processorOrigins.script)}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${socket}${extra(processorOrigins.connect)}`,
    ...(withProcessor ? [`frame-src ${processorOrigins.frame.join(' ')}`] : []),
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const immutable = 'public, max-age=31536000, immutable';

interface Html {
  mtimeMs: number;
  body: Buffer;
}

export interface DashboardOptions {
  /** the build folder; dist/dashboard unless told */
  dir?: string;
  publicUrl: string;
  /** a publishable key is configured, so the payment processor's form may load */
  processor: boolean;
}

export function dashboardOptions(config: Config, dir?: string): DashboardOptions {
  return { dir, publicUrl: config.publicUrl, processor: Boolean(config.stripe.publishableKeyTest || config.stripe.publishableKeyLive) };
}

export function dashboardRouter(options: DashboardOptions): Router {
  const dir = options.dir ?? defaultDashboardDir;
  const csp = dashboardCsp(options.publicUrl, options.processor);
  const router = Router();
  let html: Html | null = null;

  // Hashed assets, precompressed at build: brotli or gzip when the browser takes it (express.static
  // cannot pick a precompressed file).
  router.get(`${dashboardPath}/assets/:file`, async (req: Request, res: Response) => {
    const name = String(req.params.file);
    const file = path.join(dir, 'assets', name);
    if (!/^[\w.-]+$/.test(name) || name.endsWith('.br') || name.endsWith('.gz') || !existsSync(file)) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const accepts = String(req.get('accept-encoding') ?? '');
    const encoding = /\bbr\b/.test(accepts) && existsSync(`${file}.br`) ? 'br' : /\bgzip\b/.test(accepts) && existsSync(`${file}.gz`) ? 'gzip' : null;
    res.set({ 'Cache-Control': immutable, Vary: 'Accept-Encoding' });
    res.type(path.extname(name));
    if (encoding) res.set('Content-Encoding', encoding);
    res.sendFile(encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file, { cacheControl: false, lastModified: false, etag: false }, (error) => {
      if (error && !res.headersSent) res.status(404).type('text/plain').send('Not found');
    });
  });

  // Every other dashboard address is the app; it decides what to show.
  const page = async (_req: Request, res: Response) => {
    const index = path.join(dir, 'index.html');
    try {
      const info = await stat(index);
      if (!html || html.mtimeMs !== info.mtimeMs) html = { mtimeMs: info.mtimeMs, body: await readFile(index) };
    } catch {
      res
        .status(503)
        .set({ 'Cache-Control': 'no-store', 'Retry-After': '5' })
        .type('text/plain')
        .send('The dashboard is not built. `npm start` builds it (or `node scripts/build.mjs`).\n');
      return;
    }
    res.set({
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-store',
      // the sign-in page's address may carry a one-time token: never send it onwards
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
    });
    res.type('html').send(html.body);
  };
  router.get([dashboardPath, `${dashboardPath}/{*rest}`], page);
  return router;
}
