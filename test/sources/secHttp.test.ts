// The SEC HTTP source against a local stand-in for data.sec.gov and www.sec.gov: what it fetches,
// and that it keeps the SEC's fair-access rules (declared User-Agent, at most 10 requests a
// second, bounded backoff on 403/429) while one bad URL does not stop the rest.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secHttpSource, type SecHttpOptions } from '../../ingest/sources/secHttp.ts';
import { createLogger } from '../../core/logger.ts';
import { corpusDir, fixture, hasCorpus } from '../corpus.ts';
import { startSecServer, type SecRequest, type SecServer } from '../support/secServer.ts';

const userAgent = 'Investor Data Service tests ops@example.com';
const logger = createLogger('silent');

type Outcome = { key: string; text?: string; error?: string };

async function drain(options: Partial<SecHttpOptions> & { baseUrls: SecHttpOptions['baseUrls'] }): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for await (const item of secHttpSource({ userAgent, logger, ...options }).items()) {
    try {
      outcomes.push({ key: item.key, text: await item.read() });
    } catch (error) {
      outcomes.push({ key: item.key, error: (error as Error).message });
    }
  }
  return outcomes;
}

const fetched = (outcomes: Outcome[]) => outcomes.filter((o) => o.text !== undefined).map((o) => o.key);
const failed = (outcomes: Outcome[]) => outcomes.filter((o) => o.error !== undefined).map((o) => o.key);
const requestsTo = (requests: SecRequest[], urlPath: string) => requests.filter((r) => r.path === urlPath);

/** The most requests that arrived within any window of one second. */
function busiestSecond(requests: SecRequest[]): number {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= 1000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('SEC HTTP source: fair-access rules at construction', () => {
  const baseUrls = { data: 'http://127.0.0.1:9', www: 'http://127.0.0.1:9' };

  it('refuses to start without a User-Agent that declares a contact email', () => {
    expect(() => secHttpSource({ userAgent: '', logger, baseUrls })).toThrow(/User-Agent .* contact email/);
    expect(() => secHttpSource({ userAgent: 'ids-crawler/1.0', logger, baseUrls })).toThrow(/User-Agent/);
    expect(() => secHttpSource({ userAgent: undefined as unknown as string, logger, baseUrls })).toThrow(/User-Agent/);
  });

  it('refuses a rate above the SEC limit of 10 requests per second, and a CIK that is not one', () => {
    expect(() => secHttpSource({ userAgent, logger, baseUrls, maxRequestsPerSecond: 11 })).toThrow(/at most 10/);
    expect(() => secHttpSource({ userAgent, logger, baseUrls, ciks: ['AAPL'] })).toThrow(/"AAPL" is not a CIK/);
  });
});

describe('SEC HTTP source (a local SEC serving fixtures)', () => {
  let root: string;
  let server: SecServer | undefined;
  const submissions = '/submissions/CIK0000320193.json';
  const page = '/submissions/CIK0000320193-submissions-001.json';
  const tenK = '/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm';
  const tenQ = '/Archives/edgar/data/320193/000032019326000006/aapl-20251227.htm';
  const eightK = '/Archives/edgar/data/320193/000032019326000005/aapl-20260129.htm';
  const tenKHtml = '<html><body><p>Apple Inc. Form 10-K for the fiscal year ended September 28, 2024</p></body></html>';

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ids-sec-'));
    const files: Record<string, string> = {
      'submissions/CIK0000320193.json': await fixture('sec/CIK0000320193.json'),
      'submissions/CIK0000320193-submissions-001.json': await fixture('sec/CIK0000320193-submissions-001.json'),
      'reference/company_tickers.json': await fixture('sec/company_tickers.json'),
      'filings/10k/10-K_0000320193-24-000123_AAPL.html': tenKHtml,
      // the server finds Archives documents through the manifest, as in the corpus
      'MANIFEST.md': [
        '### filings/10k/',
        '',
        '| file | kind | issuer / CIK / form |',
        '|---|---|---|',
        '| `10-K_0000320193-24-000123_AAPL.html` | 10k | Apple Inc. / CIK 0000320193 / accn 0000320193-24-000123 filed 2024-11-01 / primary doc aapl-20240928.htm |',
        '',
      ].join('\n'),
    };
    for (const [relative, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), content);
    }
  });
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  async function serve(failFirst: { path: string; status: number; times: number }[] = []) {
    await server?.close();
    server = await startSecServer({ root, failFirst });
    return server;
  }

  it('resolves a ticker and fetches the submissions file, its overflow page and the latest 10-K, 10-Q and 8-K', async () => {
    const sec = await serve();
    const outcomes = await drain({ tickers: ['aapl'], baseUrls: sec.baseUrls });
    expect(outcomes.map((o) => o.key)).toEqual(['/files/company_tickers.json', submissions, page, tenK, tenQ, eightK]);
    expect(fetched(outcomes)).toEqual(['/files/company_tickers.json', submissions, page, tenK]);
    expect(outcomes.find((o) => o.key === tenK)?.text).toBe(tenKHtml);
    // documents the server does not have are reported, not dropped silently
    expect(outcomes.find((o) => o.key === tenQ)?.error).toMatch(/HTTP 404/);
    // no companyfacts: a company without XBRL facts is skipped, not a failure
    expect(requestsTo(sec.requests, '/api/xbrl/companyfacts/CIK0000320193.json')).toHaveLength(1);
    expect(outcomes.some((o) => o.key.includes('companyfacts'))).toBe(false);
    expect(sec.requests.every((r) => r.userAgent === userAgent)).toBe(true);
  });

  it('reports a ticker the SEC does not list', async () => {
    const sec = await serve();
    const outcomes = await drain({ tickers: ['ZZZZ'], baseUrls: sec.baseUrls });
    expect(outcomes).toEqual([
      { key: '/files/company_tickers.json', text: await fixture('sec/company_tickers.json') },
      { key: 'ticker:ZZZZ', error: "ticker ZZZZ is not in the SEC's company_tickers.json" },
    ]);
  });

  it('backs off on 429 with growing pauses and succeeds on the third try', async () => {
    const sec = await serve([{ path: submissions, status: 429, times: 2 }]);
    const outcomes = await drain({ ciks: ['320193'], documents: { forms: [] }, retry: { baseDelayMs: 80 }, baseUrls: sec.baseUrls });
    expect(fetched(outcomes)).toEqual([submissions, page]);
    const tries = requestsTo(sec.requests, submissions);
    expect(tries.map((r) => r.status)).toEqual([429, 429, 200]);
    // equal jitter: at least half of 80 ms, then at least half of 160 ms
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(40);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(80);
  });

  it('retries a server error (5xx) too', async () => {
    const sec = await serve([{ path: page, status: 503, times: 1 }]);
    const outcomes = await drain({ ciks: ['320193'], documents: { forms: [] }, retry: { baseDelayMs: 20 }, baseUrls: sec.baseUrls });
    expect(requestsTo(sec.requests, page).map((r) => r.status)).toEqual([503, 200]);
    expect(fetched(outcomes)).toEqual([submissions, page]);
  });

  it('gives up on a URL that answers 403 every time, reports it, and fetches the rest', async () => {
    const sec = await serve([{ path: page, status: 403, times: Infinity }]);
    const outcomes = await drain({ ciks: ['0000320193'], retry: { attempts: 3, baseDelayMs: 20 }, baseUrls: sec.baseUrls });
    expect(requestsTo(sec.requests, page)).toHaveLength(3);
    expect(outcomes.find((o) => o.key === page)?.error).toMatch(/failed after 3 attempts: HTTP 403 .*User-Agent and the request rate/);
    expect(fetched(outcomes)).toEqual([submissions, tenK]);
  });

  it('skips what a previous run finished: done items are neither fetched nor yielded', async () => {
    const sec = await serve();
    const done = new Set([submissions, page, tenK]);
    const outcomes = await drain({ ciks: ['320193'], isDone: async (key) => done.has(key), baseUrls: sec.baseUrls });
    expect(outcomes.map((o) => o.key)).toEqual([tenQ, eightK]);
    expect(requestsTo(sec.requests, page)).toEqual([]);
    expect(requestsTo(sec.requests, tenK)).toEqual([]);
    // the submissions file is still read, because it says which pages and documents exist
    expect(requestsTo(sec.requests, submissions)).toHaveLength(1);
  });
});

describe.runIf(hasCorpus)('SEC HTTP source (a local SEC serving the corpus)', () => {
  let sec: SecServer;
  let outcomes: Outcome[];
  const nvdaSubmissions = '/submissions/CIK0001045810.json';
  const appleFacts = '/api/xbrl/companyfacts/CIK0000320193.json';

  beforeAll(async () => {
    sec = await startSecServer({
      failFirst: [
        { path: nvdaSubmissions, status: 429, times: 2 },
        { path: appleFacts, status: 403, times: Infinity },
      ],
    });
    outcomes = await drain({ tickers: ['AAPL', 'NVDA', 'TSLA'], retry: { attempts: 4, baseDelayMs: 100 }, baseUrls: sec.baseUrls });
  }, 60_000);
  afterAll(() => sec?.close());

  it('fetches AAPL and NVDA by ticker, with the declared User-Agent on every request', async () => {
    expect(fetched(outcomes)).toEqual(
      expect.arrayContaining([
        '/files/company_tickers.json',
        '/submissions/CIK0000320193.json',
        nvdaSubmissions,
        '/api/xbrl/companyfacts/CIK0001045810.json',
        '/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm',
        '/Archives/edgar/data/320193/000032019325000073/aapl-20250628.htm',
        '/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm',
      ]),
    );
    const tenK = outcomes.find((o) => o.key === '/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm');
    expect(tenK?.text).toBe(await readFile(path.join(corpusDir, 'filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html'), 'utf8'));
    expect(sec.requests.length).toBeGreaterThan(25);
    expect(sec.requests.filter((r) => r.userAgent !== userAgent)).toEqual([]);
  });

  it('follows the overflow pages the submissions files name', () => {
    expect(fetched(outcomes)).toContain('/submissions/CIK0001318605-submissions-001.json');
    // Apple's and NVIDIA's older pages are not in the corpus: asked for, answered 404, reported
    expect(requestsTo(sec.requests, '/submissions/CIK0000320193-submissions-001.json')).toHaveLength(1);
    expect(outcomes.find((o) => o.key === '/submissions/CIK0001045810-submissions-001.json')?.error).toMatch(/HTTP 404/);
  });

  it('never sends more than 10 requests in any one-second window', () => {
    expect(busiestSecond(sec.requests)).toBeLessThanOrEqual(10);
    const times = sec.requests.map((r) => r.at);
    const perSecond = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);
    expect(perSecond).toBeLessThanOrEqual(10);
  });

  it('retries a 429 and then gets the file', () => {
    expect(requestsTo(sec.requests, nvdaSubmissions).map((r) => r.status)).toEqual([429, 429, 200]);
    expect(fetched(outcomes)).toContain(nvdaSubmissions);
  });

  it('reports a URL refused with 403 every time, after a bounded number of tries, and the rest still arrives', () => {
    expect(requestsTo(sec.requests, appleFacts)).toHaveLength(4);
    expect(failed(outcomes)).toContain(appleFacts);
    expect(outcomes.find((o) => o.key === appleFacts)?.error).toMatch(/HTTP 403/);
    expect(fetched(outcomes)).toContain('/api/xbrl/companyfacts/CIK0001045810.json');
  });

  it('skips companyfacts the SEC does not have (Tesla): not an item, not a failure', () => {
    expect(requestsTo(sec.requests, '/api/xbrl/companyfacts/CIK0001318605.json').map((r) => r.status)).toEqual([404]);
    expect(outcomes.some((o) => o.key === '/api/xbrl/companyfacts/CIK0001318605.json')).toBe(false);
  });
});
