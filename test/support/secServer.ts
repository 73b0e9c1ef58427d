// A local stand-in for data.sec.gov and www.sec.gov that serves the shared corpus under the SEC's
// own URL paths, so the HTTP source can be tested without the internet. It logs every request
// (path, User-Agent, arrival time) for assertions on the rate limit and the User-Agent, refuses
// undeclared clients with a 403 as the SEC does, and can fail the first N requests of a path.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { corpusDir } from '../corpus.ts';

export interface SecRequest {
  /** URL path without the query string */
  path: string;
  userAgent: string | null;
  /** arrival, performance.now() milliseconds */
  at: number;
  status: number;
}

export interface SecServerOptions {
  /** answer `status` to the first `times` requests of `path` (Infinity: always) */
  failFirst?: { path: string; status: number; times: number }[];
  /** the folder served, laid out like the corpus (default: the shared corpus) */
  root?: string;
  /** bodies served at these URL paths, besides the folder's files (a daily index a test writes) */
  files?: Record<string, string>;
}

export interface SecServer {
  url: string;
  /** ready for secHttpSource's `baseUrls`: one server plays both hosts */
  baseUrls: { data: string; www: string };
  requests: SecRequest[];
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.json': 'application/json',
  '.htm': 'text/html; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.idx': 'text/plain; charset=utf-8',
};

export async function startSecServer(options: SecServerOptions = {}): Promise<SecServer> {
  const root = options.root ?? corpusDir;
  const archives = await archiveDocuments(root);
  const requests: SecRequest[] = [];
  const failures = new Map((options.failFirst ?? []).map((f) => [f.path, { ...f, served: 0 }]));

  const server = createServer((req, res) => {
    const at = performance.now();
    const urlPath = (req.url ?? '/').split('?')[0]!;
    const userAgent = req.headers['user-agent'] ?? null;
    const send = (status: number, body: string | Buffer, type: string) => {
      requests.push({ path: urlPath, userAgent, at, status });
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    handle(req, urlPath, send).catch((error: Error) => send(500, error.message, 'text/plain'));
  });

  async function handle(req: IncomingMessage, urlPath: string, send: (status: number, body: string | Buffer, type: string) => void) {
    if (!/@/.test(req.headers['user-agent'] ?? '')) return send(403, undeclaredToolPage, 'text/html');
    const failure = failures.get(urlPath);
    if (failure && failure.served < failure.times) {
      failure.served++;
      return send(failure.status, failure.status === 429 ? 'Too Many Requests' : undeclaredToolPage, 'text/html');
    }
    const written = options.files?.[urlPath];
    if (written !== undefined) return send(200, written, contentTypes[path.extname(urlPath).toLowerCase()] ?? 'application/octet-stream');
    const file = corpusFileFor(urlPath, archives);
    if (!file || !existsSync(path.join(root, file))) return notFound(urlPath, send);
    send(200, await readFile(path.join(root, file)), contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrls: { data: url, www: url },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The corpus file (relative to the root) behind an SEC URL path, or null. */
function corpusFileFor(urlPath: string, archives: Map<string, string>): string | null {
  let m: RegExpMatchArray | null;
  if ((m = urlPath.match(/^\/submissions\/(CIK\d{10}(?:-submissions-\d{3})?\.json)$/))) return `submissions/${m[1]}`;
  if ((m = urlPath.match(/^\/api\/xbrl\/companyfacts\/(CIK\d{10}\.json)$/))) return `companyfacts/${m[1]}`;
  if ((m = urlPath.match(/^\/files\/(company_tickers(?:_exchange)?\.json)$/))) return `reference/${m[1]}`;
  // The SEC serves a filing's folder under the CIK of each party to it, so only the folder and name count.
  if ((m = urlPath.match(/^\/Archives\/edgar\/data\/\d+\/(\d{18}\/[^/]+)$/))) return archives.get(m[1]!) ?? null;
  if ((m = urlPath.match(/^\/Archives\/edgar\/daily-index\/(\d{4})\/QTR([1-4])\/((?:form|company|master)\.(\d{4})(\d{2})\d{2}\.idx)$/))) {
    const [, year, quarter, name, fileYear, month] = m;
    return year === fileYear && Number(quarter) === Math.ceil(Number(month) / 3) ? `index/daily/${name}` : null;
  }
  return null;
}

/**
 * Which Archives documents the corpus holds, keyed by `accessionNoDashes/document`, read from
 * MANIFEST.md: the recorded GET URL of a cassette body, or the accession and primary document
 * named in a row's description.
 */
async function archiveDocuments(root: string): Promise<Map<string, string>> {
  const documents = new Map<string, string>();
  const manifest = path.join(root, 'MANIFEST.md');
  if (!existsSync(manifest)) return documents;
  let folder = '';
  for (const line of (await readFile(manifest, 'utf8')).split('\n')) {
    const heading = line.match(/^### (\S+\/)\s*$/);
    if (heading) folder = heading[1]!;
    const file = line.match(/^\| `([^`]+)` \|/)?.[1];
    if (!file) continue;
    const recorded = line.match(/GET https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/\d+\/(\d{18}\/[^\s)]+)/);
    if (recorded) documents.set(recorded[1]!, folder + file);
    const accession = line.match(/accn (\d{10}-\d{2}-\d{6})/)?.[1];
    const primary = line.match(/primary doc (\S+\.html?)/)?.[1];
    if (accession && primary) documents.set(`${accession.replace(/-/g, '')}/${primary}`, folder + file);
  }
  return documents;
}

function notFound(urlPath: string, send: (status: number, body: string, type: string) => void) {
  // data.sec.gov answers its API paths in JSON; www.sec.gov answers with an HTML page.
  if (/^\/(submissions|api)\//.test(urlPath)) return send(404, JSON.stringify({ error: 'Not Found', path: urlPath }), 'application/json');
  send(404, '<!DOCTYPE html><html><head><title>SEC.gov | Page Not Found</title></head><body><h1>Page Not Found</h1></body></html>', 'text/html');
}

const undeclaredToolPage =
  '<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>' +
  '<h1>Your Request Originates from an Undeclared Automated Tool</h1>' +
  '<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared automated tools. ' +
  'Please declare your traffic by updating your user agent to include company specific information.</p></body></html>';
