// EDGAR over HTTP, within the SEC's fair-access rules: a declared User-Agent with a contact email
// on every request, at most 10 requests per second for the whole source, and exponential backoff
// with jitter on 403/429 (the SEC sends no Retry-After) and on 5xx, a bounded number of times.
//
// For each company: its submissions file and overflow pages, its XBRL companyfacts (a 404 means
// the company has no XBRL facts and is skipped), and the primary documents of its latest 10-K,
// 10-Q and 8-K filings. Tickers are resolved through company_tickers.json, itself an item.
//
// Items are fetched before they are yielded, so read() hands out text already in memory. A URL
// that cannot be fetched (retries spent, or a status that is no answer) still becomes an item,
// one whose read() rejects with a SecFetchError: the runner records it as a failed item and the
// rest of the run goes on.
//
// Resume: a key (the URL path, e.g. /submissions/CIK0000320193.json) for which isDone() says
// true is neither fetched nor yielded. The two discovery files, the submissions file and
// company_tickers.json, are still fetched when done, because what else to fetch is read from
// them; they are just not yielded again.
import { inSpan, SpanKind } from '../../core/tracing.ts';
import type { Logger } from '../../core/logger.ts';
import { parseSubmissions, type FilingRecord } from '../parsers/edgar/submissions.ts';
import { parseCompanyTickers } from '../parsers/edgar/tickers.ts';
import { sleep, spacedRateLimiter } from './rateLimit.ts';
import type { Source, SourceItem } from './types.ts';

export interface SecHttpOptions {
  /** who is crawling, with a contact email: 'Sample Company Name AdminContact@example.com' */
  userAgent: string;
  ciks?: string[];
  tickers?: string[];
  /** where data.sec.gov and www.sec.gov are; tests point both at a local server */
  baseUrls?: { data: string; www: string };
  /** default 10, the SEC's limit; higher is refused */
  maxRequestsPerSecond?: number;
  /** true for an item a previous run already ingested */
  isDone?: (key: string) => Promise<boolean>;
  logger: Logger;
  fetchImpl?: typeof fetch;
  /** which primary documents to fetch: the latest `latest` filings of each form (default 10-K, 10-Q, 8-K; 2 each) */
  documents?: { forms?: string[]; latest?: number };
  /** attempts per URL (default 5) and the backoff: base delay doubling per attempt, capped */
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** daily form indexes to fetch, by date (YYYY-MM-DD): every filing of those days */
  indexDates?: string[];
  /** quarterly full indexes to fetch, e.g. 2024Q1 */
  indexQuarters?: string[];
}

/** The Archives paths of the daily and quarterly form indexes a source was asked for. */
export function indexPaths(dates: string[] = [], quarters: string[] = []): string[] {
  const daily = dates.map((date) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (!match) throw new Error(`an index date is YYYY-MM-DD, not ${JSON.stringify(date)}`);
    const [, year, month, day] = match;
    return `/Archives/edgar/daily-index/${year}/QTR${Math.ceil(Number(month) / 3)}/form.${year}${month}${day}.idx`;
  });
  const quarterly = quarters.map((quarter) => {
    const match = /^(\d{4})Q([1-4])$/.exec(quarter);
    if (!match) throw new Error(`an index quarter is like 2024Q1, not ${JSON.stringify(quarter)}`);
    return `/Archives/edgar/full-index/${match[1]}/QTR${match[2]}/form.idx`;
  });
  return [...daily, ...quarterly];
}

/** Why a URL yielded no content: the last HTTP status (null for a network error) after `attempts` tries. */
export class SecFetchError extends Error {
  constructor(
    readonly url: string,
    readonly status: number | null,
    readonly attempts: number,
    detail: string,
  ) {
    super(`GET ${url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${detail}`);
    this.name = 'SecFetchError';
  }
}

export const secRequestsPerSecondLimit = 10;
const defaultBaseUrls = { data: 'https://data.sec.gov', www: 'https://www.sec.gov' };
const tickersPath = '/files/company_tickers.json';

export type SecClientOptions = Pick<SecHttpOptions, 'userAgent' | 'baseUrls' | 'maxRequestsPerSecond' | 'isDone' | 'logger' | 'fetchImpl' | 'retry'>;

/** Chooses which of a company's filings to fetch the primary documents of. */
export type DocumentPick = (filings: FilingRecord[]) => FilingRecord[];

/**
 * EDGAR's hosts behind one rate limit and one User-Agent: single URLs (`get`, `leaf`) and a
 * company's submissions, companyfacts and chosen primary documents (`company`), as items.
 */
export function secClient(options: SecClientOptions) {
  const userAgent = options.userAgent?.trim() ?? '';
  if (!/[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+/.test(userAgent)) {
    throw new Error(
      "secHttpSource: the SEC's fair-access policy requires a User-Agent that names you and gives a contact email, e.g. 'Sample Company Name AdminContact@example.com'",
    );
  }
  const rate = options.maxRequestsPerSecond ?? secRequestsPerSecondLimit;
  if (!(rate > 0 && rate <= secRequestsPerSecondLimit)) {
    throw new Error(`secHttpSource: maxRequestsPerSecond must be above 0 and at most ${secRequestsPerSecondLimit} (the SEC's fair-access limit), got ${rate}`);
  }
  const base = { data: trimSlash((options.baseUrls ?? defaultBaseUrls).data), www: trimSlash((options.baseUrls ?? defaultBaseUrls).www) };
  const isDone = options.isDone ?? (async () => false);
  const { logger } = options;
  const get = httpGetter({
    userAgent,
    fetchImpl: options.fetchImpl ?? fetch,
    limiter: spacedRateLimiter(rate),
    attempts: Math.max(1, options.retry?.attempts ?? 5),
    baseDelayMs: options.retry?.baseDelayMs ?? 1000,
    maxDelayMs: options.retry?.maxDelayMs ?? 60_000,
    logger,
  });

  /** Fetches a leaf item unless it is done; a 404 is skipped when `missingIsNormal`. */
  async function* leaf(url: string, key: string, missingIsNormal = false): AsyncGenerator<SourceItem> {
    if (await isDone(key)) return;
    const got = await get(url);
    if (got.ok) yield textItem(key, got.text);
    else if (got.status === 404 && missingIsNormal) logger.info({ url }, 'sec: not found, nothing to ingest');
    else yield failedItem(key, got.error, logger);
  }

  /** `pages: false` leaves out the submissions' overflow pages (older filings, which a day's filings do not change). */
  async function* company(cik: string, pickDocuments: DocumentPick, { pages = true } = {}): AsyncGenerator<SourceItem> {
    const key = `/submissions/CIK${cik}.json`;
    const got = await get(base.data + key);
    let filings: FilingRecord[] = [];
    let morePages: string[] = [];
    if (got.ok) {
      if (!(await isDone(key))) yield textItem(key, got.text);
      try {
        ({ filings, morePages } = parseSubmissions(got.text, `CIK${cik}.json`));
      } catch (error) {
        // The item itself will fail in the runner's parse; only what it would have led to is lost.
        logger.warn({ key, err: (error as Error).message }, 'sec: unreadable submissions file; its pages and documents are not fetched');
      }
    } else {
      yield failedItem(key, got.error, logger);
    }
    // Page names come from the response; only the SEC's own naming goes into a URL.
    for (const page of pages ? morePages.filter((p) => /^CIK\d{10}-submissions-\d+\.json$/.test(p)) : []) yield* leaf(`${base.data}/submissions/${page}`, `/submissions/${page}`);
    const facts = `/api/xbrl/companyfacts/CIK${cik}.json`;
    yield* leaf(base.data + facts, facts, true);
    for (const filing of pickDocuments(filings)) {
      const path = `/Archives/edgar/data/${Number(cik)}/${filing.accessionNumber.replace(/-/g, '')}/${filing.primaryDocument}`;
      yield* leaf(base.www + path, path);
    }
  }

  return { base, get, leaf, company };
}

export function secHttpSource(options: SecHttpOptions): Source {
  const indexes = indexPaths(options.indexDates, options.indexQuarters);
  const client = secClient(options);
  const { base, get, leaf } = client;
  const { logger } = options;
  const isDone = options.isDone ?? (async () => false);
  const ciks = (options.ciks ?? []).map(tenDigitCik);
  const tickers = (options.tickers ?? []).map((t) => t.trim().toUpperCase()).filter(Boolean);
  const forms = options.documents?.forms ?? ['10-K', '10-Q', '8-K'];
  const latest = options.documents?.latest ?? 2;
  const latestDocuments: DocumentPick = (filings) => latestOfEachForm(filings, forms, latest);

  async function* resolveTickers(found: Set<string>): AsyncGenerator<SourceItem> {
    const got = await get(base.www + tickersPath);
    if (!got.ok) {
      yield failedItem(tickersPath, got.error, logger);
      return;
    }
    if (!(await isDone(tickersPath))) yield textItem(tickersPath, got.text);
    let byTicker: Map<string, string>;
    try {
      byTicker = new Map(parseCompanyTickers(got.text).map((t) => [t.ticker.toUpperCase(), t.cik]));
    } catch (error) {
      for (const ticker of tickers) yield failedItem(`ticker:${ticker}`, new Error(`ticker ${ticker} unresolved: ${(error as Error).message}`), logger);
      return;
    }
    for (const ticker of tickers) {
      // The SEC writes share classes with a dash (BRK-B) where others use a dot (BRK.B).
      const cik = byTicker.get(ticker) ?? byTicker.get(ticker.replace(/\./g, '-'));
      if (cik) found.add(cik);
      else yield failedItem(`ticker:${ticker}`, new Error(`ticker ${ticker} is not in the SEC's company_tickers.json`), logger);
    }
  }

  return {
    describe: () => `SEC EDGAR (${base.www}, ${base.data}) for ${[...tickers, ...ciks, ...indexes.map((p) => p.split('/').slice(-3).join('/'))].join(', ') || 'nothing'}`,
    async *items() {
      for (const path of indexes) yield* leaf(base.www + path, path);
      const all = new Set(ciks);
      if (tickers.length) yield* resolveTickers(all);
      for (const cik of all) yield* client.company(cik, latestDocuments);
    },
  };
}

/** The newest `latest` filings of each form that have a primary document, newest first. */
export function latestOfEachForm(filings: FilingRecord[], forms: string[], latest: number): FilingRecord[] {
  const newestFirst = (a: FilingRecord, b: FilingRecord) => b.filingDate.localeCompare(a.filingDate) || (b.acceptedAt ?? '').localeCompare(a.acceptedAt ?? '');
  return forms.flatMap((form) =>
    filings
      .filter((f) => f.form === form && f.primaryDocument)
      .sort(newestFirst)
      .slice(0, latest),
  );
}

type Fetched = { ok: true; text: string } | { ok: false; status: number | null; error: SecFetchError };

function httpGetter(deps: {
  userAgent: string;
  fetchImpl: typeof fetch;
  limiter: { acquire(): Promise<void> };
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  logger: Logger;
}): (url: string) => Promise<Fetched> {
  const { userAgent, fetchImpl, limiter, attempts, logger } = deps;
  // Exponential with "equal jitter": at least half the doubled delay, so a retry always waits,
  // plus a random half, so parallel crawlers blocked together do not come back together.
  const backoff = (attempt: number) => {
    const ceiling = Math.min(deps.maxDelayMs, deps.baseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  };

  return async (url) => {
    let status: number | null = null;
    let detail = '';
    let made = 0;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await limiter.acquire();
      made = attempt;
      let retryable: boolean;
      try {
        const response = await inSpan(() => `GET ${new URL(url).host}`, () => ({ 'http.request.method': 'GET', 'server.address': new URL(url).host, 'url.path': new URL(url).pathname }), () => fetchImpl(url, { headers: { 'User-Agent': userAgent } }), SpanKind.CLIENT);
        status = response.status;
        if (response.ok) return { ok: true, text: await response.text() };
        await response.body?.cancel();
        detail = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
        retryable = response.status === 403 || response.status === 429 || response.status >= 500;
      } catch (error) {
        status = null;
        detail = `network error: ${(error as Error).message}`;
        retryable = true;
      }
      if (!retryable || attempt === attempts) break;
      const delayMs = backoff(attempt);
      logger.warn({ url, status, attempt, delayMs: Math.round(delayMs) }, 'sec: backing off before retrying');
      await sleep(delayMs);
    }
    const hint = status === 403 || status === 429 ? ' (the SEC refuses undeclared or too fast clients: check the User-Agent and the request rate)' : '';
    return { ok: false, status, error: new SecFetchError(url, status, made, detail + hint) };
  };
}

export function textItem(key: string, text: string): SourceItem {
  return { key, name: key.slice(key.lastIndexOf('/') + 1), read: async () => text };
}

export function failedItem(key: string, error: Error, logger: Logger): SourceItem {
  logger.warn({ key, err: error.message }, 'sec: item not fetched; it is reported as failed');
  return {
    key,
    name: key.slice(key.lastIndexOf('/') + 1),
    read: async () => {
      throw error;
    },
  };
}

export function tenDigitCik(cik: string): string {
  const digits = cik.trim().replace(/^CIK/i, '');
  if (!/^\d{1,10}$/.test(digits)) throw new Error(`secHttpSource: "${cik}" is not a CIK (1 to 10 digits)`);
  return digits.padStart(10, '0');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
