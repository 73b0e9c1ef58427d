// GraphiQL, for analysts exploring the schema in a browser (GET /graphql asking for HTML). The
// page is rendered once from the package itself (no CDN) and served under a CSP that allows
// exactly its own inline scripts, by hash, and nothing from elsewhere.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const options = {
  title: 'Investor Data Service',
  endpoint: '/graphql',
  subscriptionsProtocol: 'WS' as const,
  defaultQuery: '{\n  me {\n    kind\n    organization { id name planKey }\n  }\n}\n',
};

interface Page {
  html: string;
  csp: string;
}

let page: Promise<Page> | undefined;

async function render(): Promise<Page> {
  // The 9 MB bundle is loaded the first time someone opens the page, not at every start.
  const html = (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options);
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  const csp = [
    "default-src 'none'",
    `script-src ${hashes.join(' ')}`,
    "style-src 'unsafe-inline'", // the editor writes its styles at run time
    'img-src data:',
    'font-src data:',
    "connect-src 'self'", // queries over HTTP and subscriptions over WebSocket, same origin
    'worker-src blob:', // the editor's workers are built in the page
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}

export async function graphiql(req: Request, res: Response, next: NextFunction) {
  if (req.method !== 'GET' || !req.get('accept')?.includes('text/html')) return next();
  try {
    const { html, csp } = await (page ??= render());
    res.set('Content-Security-Policy', csp).type('html').send(html);
  } catch (error) {
    page = undefined;
    next(error);
  }
}
