// GraphiQL, for analysts exploring the schema in a browser (GET /graphql asking for HTML). The
// package renders one page of about 9 MB: its code, styles and icon inline. We take those out into
// assets named by their content hash (GET /graphql/assets/…, cached for a year, gzip-compressed
// once), so the page itself is a few kilobytes and a second visit loads nothing but it. Nothing
// comes from elsewhere (no CDN), and the CSP allows only this origin's scripts.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';

const options = {
  title: 'Investor Data Service',
  endpoint: '/graphql',
  subscriptionsProtocol: 'WS' as const,
  defaultQuery: '{\n  me {\n    kind\n    organization { id name planKey }\n  }\n}\n',
  // Signed in to the dashboard, the page's queries carry the browser's session cookie and the
  // header its CSRF rule asks of a page of this origin, so no key is pasted anywhere; a key in
  // the headers editor still works for everyone else.
  credentials: 'same-origin' as const,
  additionalHeaders: { 'x-ids-csrf': '1' },
};

export const graphiqlAssetsPath = '/graphql/assets';

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

interface Rendered {
  html: string;
  csp: string;
  assets: Map<string, Asset>;
}

const csp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // the editor writes its styles at run time
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'", // queries over HTTP and subscriptions over WebSocket, same origin
  'worker-src blob:', // the editor's workers are built in the page
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const compress = promisify(gzip);

async function asset(assets: Map<string, Asset>, stem: string, extension: string, type: string, body: Buffer): Promise<string> {
  const name = `${stem}-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${extension}`;
  if (!assets.has(name)) assets.set(name, { type, body, gzipped: await compress(body, { level: 6 }) });
  return `${graphiqlAssetsPath}/${name}`;
}

/** The package's page with its inline script, styles and data-URL icon moved into assets. */
export async function renderGraphiql(): Promise<Rendered> {
  // The 9 MB bundle is loaded the first time someone opens the page, not at every start.
  let html = (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options);
  const assets = new Map<string, Asset>();
  for (const [whole, code] of [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]) {
    html = html.replace(whole, `<script src="${await asset(assets, 'graphiql', 'js', 'text/javascript; charset=utf-8', Buffer.from(code!))}"></script>`);
  }
  for (const [whole, styles] of [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)]) {
    html = html.replace(whole, `<link rel="stylesheet" href="${await asset(assets, 'graphiql', 'css', 'text/css; charset=utf-8', Buffer.from(styles!))}" />`);
  }
  for (const [whole, type, data] of [...html.matchAll(/href="data:(image\/[\w.+-]+);base64,([^"]+)"/g)]) {
    html = html.replace(whole, `href="${await asset(assets, 'icon', type === 'image/x-icon' ? 'ico' : type!.split('/')[1]!, type!, Buffer.from(data!, 'base64'))}"`);
  }
  return { html, csp, assets };
}

let rendered: Promise<Rendered> | undefined;
const page = () => (rendered ??= renderGraphiql().catch((error) => {
  rendered = undefined;
  throw error;
}));

/** GET /graphql for a browser: the page, never cached (it names the assets of this version). */
export async function graphiql(req: Request, res: Response, next: NextFunction) {
  if (req.method !== 'GET' || !req.get('accept')?.includes('text/html')) return next();
  try {
    const { html } = await page();
    res.set({ 'Content-Security-Policy': csp, 'Cache-Control': 'no-store' }).type('html').send(html);
  } catch (error) {
    next(error);
  }
}

/** GET /graphql/assets/:name: one asset of the page, by its content hash, cached for a year. */
export async function graphiqlAsset(req: Request, res: Response, next: NextFunction) {
  try {
    const found = (await page()).assets.get(String(req.params.name));
    if (!found) return next();
    const gzipped = /\bgzip\b/.test(req.get('accept-encoding') ?? '');
    res.set({ 'Content-Type': found.type, 'Cache-Control': 'public, max-age=31536000, immutable', Vary: 'Accept-Encoding', ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}) });
    res.end(gzipped ? found.gzipped : found.body);
  } catch (error) {
    next(error);
  }
}
