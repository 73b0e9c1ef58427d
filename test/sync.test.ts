// `ids sync` against a local server that speaks the SEC's paths: the database holds Apple's
// filings up to 2025-07-31, and the SEC then publishes the days after. The sync reads each
// business day's form index, refreshes the held companies in it (submissions, companyfacts, the
// day's primary documents), adds every other company's filings from the index, marks a day with
// no index as such, stops at a day not yet published, and rides out 429s and 5xx.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../ingest/run.ts';
import { runSync, syncSummaryLine, type SyncSummary } from '../ingest/sync.ts';
import { corpusDir } from './corpus.ts';
import { fixtureSource } from './data/fixtureSource.ts';
import { startSecServer, type SecServer } from './support/secServer.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from './harness.ts';
import { loadConfig } from '../core/config.ts';

const appleCik = '0000320193';
const tenQ = '0000320193-25-000073'; // filed 2025-08-01, primary document aapl-20250628.htm
const otherCik = '0009999999'; // a company the database does not hold
const otherFiling = '0009999999-25-000001';
const userAgent = 'Sync Test admin@example.com';

/** A daily form index as EDGAR writes it: a header, a line of dashes, fixed-width columns. */
function formIndex(date: string, rows: { form: string; name: string; cik: string; accession: string }[]): string {
  const compact = date.replace(/-/g, '');
  const header = `${'Form Type'.padEnd(12)}${'Company Name'.padEnd(62)}${'CIK'.padEnd(12)}${'Date Filed'.padEnd(12)}File Name`;
  const lines = rows.map((r) => `${r.form.padEnd(12)}${r.name.padEnd(62)}${String(Number(r.cik)).padEnd(12)}${compact.padEnd(12)}edgar/data/${Number(r.cik)}/${r.accession}.txt`);
  return ['Description:           Daily Index of EDGAR Dissemination Feed by Form Type', `Last Data Received:    ${date}`, 'Comments:              webmaster@sec.gov', '', header, '-'.repeat(120), ...lines, ''].join('\n');
}
const indexPath = (date: string) => `/Archives/edgar/daily-index/${date.slice(0, 4)}/QTR${Math.ceil(Number(date.slice(5, 7)) / 3)}/form.${date.replace(/-/g, '')}.idx`;

let t: TestService;
let sec: SecServer;
let key: string;
let first: SyncSummary;
let syncStarted: Date;

beforeAll(async () => {
  t = await startIsolatedService();
  ({ key } = await orgWithKey(t));
  // What the database held before: Apple's submissions as they stood on 2025-07-31.
  const full = JSON.parse(await readFile(path.join(corpusDir, 'submissions', `CIK${appleCik}.json`), 'utf8'));
  const recent = full.filings.recent as Record<string, unknown[]>;
  const keep = recent.filingDate!.map((date) => (date as string) <= '2025-07-31');
  const truncated = { ...full, filings: { ...full.filings, recent: Object.fromEntries(Object.entries(recent).map(([name, values]) => [name, values.filter((_, i) => keep[i])])) } };
  const { prisma, bus, logger } = t.service.services;
  await runIngest({ prisma, bus, logger }, fixtureSource({ [`submissions/CIK${appleCik}.json`]: { text: JSON.stringify(truncated) } }));

  sec = await startSecServer({
    files: {
      [indexPath('2025-08-01')]: formIndex('2025-08-01', [
        { form: '10-Q', name: 'Apple Inc.', cik: appleCik, accession: tenQ },
        { form: '8-K', name: 'EXAMPLE HOLDINGS INC', cik: otherCik, accession: otherFiling },
      ]),
      // 2025-08-04: no index (the server answers 404)
      [indexPath('2025-08-05')]: formIndex('2025-08-05', [{ form: 'S-1', name: 'EXAMPLE HOLDINGS INC', cik: otherCik, accession: '0009999999-25-000002' }]),
    },
    failFirst: [
      { path: indexPath('2025-08-05'), status: 429, times: 2 },
      { path: `/submissions/CIK${appleCik}.json`, status: 503, times: 1 },
    ],
  });

  // A stream that follows Apple's filings, made before the sync.
  const stream = await call(t, 'POST', '/v1/stream_subscriptions', { key, body: { eventTypes: ['filing.added'], filters: { tickers: ['AAPL'] } } });
  expect(stream.status).toBe(200);
  streamId = stream.body.id;

  syncStarted = new Date();
  first = await runSync({ prisma, bus, logger }, { userAgent, baseUrls: sec.baseUrls, today: '2025-08-08', retry: { baseDelayMs: 5, maxDelayMs: 20 }, logger });
}, 120_000);
let streamId: string;

afterAll(async () => {
  await sec?.close();
  await t?.close();
});

describe('sec sync', () => {
  it('reads each business day since the newest filing held, marks a day without an index, and stops at one not yet published', () => {
    expect(first.days.map((d) => [d.date, d.outcome])).toEqual([
      ['2025-08-01', 'synced'],
      ['2025-08-04', 'no_index'],
      ['2025-08-05', 'synced'],
      ['2025-08-06', 'not_yet_published'],
    ]);
    expect(first.syncedThrough).toBe('2025-08-05');
    expect(first.days[0]).toMatchObject({ filings: 2, companies: 1 });
    expect(syncSummaryLine(first)).toMatch(/^sync: 2025-08-01 synced \(2 filings, 1 companies refreshed, \d+ records\); 2025-08-04 no index; 2025-08-05 synced .*synced through 2025-08-05$/);
  });

  it('brings a held company\'s new filing with its document and facts, and every other company\'s filings from the index', async () => {
    const { prisma } = t.service.services;
    const filing = await prisma.filing.findUniqueOrThrow({ where: { accessionNumber: tenQ } });
    expect(filing).toMatchObject({ cik: appleCik, form: '10-Q', primaryDocument: 'aapl-20250628.htm' });
    expect(filing.filedAt?.toISOString().slice(0, 10)).toBe('2025-08-01');
    const sections = await prisma.section.findMany({ where: { accessionNumber: tenQ }, select: { key: true } });
    expect(sections.map((s) => s.key)).toEqual(expect.arrayContaining(['part1_item2', 'part2_item1a']));
    expect(await prisma.fact.count({ where: { cik: appleCik } })).toBeGreaterThan(1000);

    expect(await prisma.filing.findUnique({ where: { accessionNumber: otherFiling } })).toMatchObject({ cik: otherCik, form: '8-K' });
    expect(sec.requests.some((r) => r.path.includes(otherCik))).toBe(false); // not held: nothing fetched for it
    expect(await prisma.ingestItem.count({ where: { status: 'failed' } })).toBe(0);
  });

  it('announces the new filing as an event now, so a stream following the company sees it', async () => {
    const events = await t.service.services.prisma.event.findMany({ where: { type: 'filing.added', createdAt: { gte: syncStarted } } });
    const tenQEvent = events.find((e) => (e.payload as { accessionNumber: string }).accessionNumber === tenQ);
    expect(tenQEvent?.payload).toMatchObject({ accessionNumber: tenQ, form: '10-Q', tickers: expect.arrayContaining(['AAPL']) });
    // Apple's submissions file brought every filing after 2025-07-31 it lists, the 10-Q among them.
    const seen: string[] = [];
    for (let cursor = '', more = true; more; ) {
      const polled = await call(t, 'GET', `/v1/stream_subscriptions/${streamId}/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key });
      expect(polled.status).toBe(200);
      seen.push(...polled.body.data.map((e: { data: { accessionNumber: string } }) => e.data.accessionNumber));
      ({ nextCursor: cursor, hasMore: more } = polled.body);
    }
    expect(seen).toContain(tenQ);
    expect(seen).not.toContain('0000320193-25-000071'); // held before the sync: not new
  });

  it('asks politely: a declared User-Agent on every request, and 429s and 5xx retried until answered', () => {
    expect(sec.requests.every((r) => r.userAgent === userAgent)).toBe(true);
    expect(sec.requests.filter((r) => r.path === indexPath('2025-08-05')).map((r) => r.status)).toEqual([429, 429, 200]);
    expect(sec.requests.filter((r) => r.path === `/submissions/CIK${appleCik}.json`).map((r) => r.status)).toEqual([503, 200]);
  });

  it('goes on from where it stopped: days now old enough without an index are marked, nothing is fetched again', async () => {
    const { prisma, bus, logger } = t.service.services;
    const before = { filings: await prisma.filing.count(), events: await prisma.event.count(), requests: sec.requests.length };
    const second = await runSync({ prisma, bus, logger }, { userAgent, baseUrls: sec.baseUrls, today: '2025-08-11', retry: { baseDelayMs: 5, maxDelayMs: 20 }, logger });
    expect(second.days.map((d) => [d.date, d.outcome])).toEqual([
      ['2025-08-06', 'no_index'],
      ['2025-08-07', 'no_index'],
      ['2025-08-08', 'no_index'],
      ['2025-08-11', 'not_yet_published'],
    ]);
    expect(second.syncedThrough).toBe('2025-08-08');
    expect(sec.requests.slice(before.requests).map((r) => r.path)).toEqual(['2025-08-06', '2025-08-07', '2025-08-08', '2025-08-11'].map(indexPath));
    expect({ filings: await prisma.filing.count(), events: await prisma.event.count() }).toEqual({ filings: before.filings, events: before.events });
  });

  it('shows the day\'s run in the ingest status', async () => {
    const status = await call(t, 'GET', '/v1/ingest/status', { key });
    expect(status.body.lastFinished.source).toMatch(/^SEC sync 2025-08-05 /);
  });
});

describe('the sync worker (IDS_SEC_SYNC=on)', () => {
  it('refuses to start without a declared User-Agent', () => {
    expect(() => loadConfig({ IDS_SEC_SYNC: 'on' })).toThrow(/IDS_SEC_USER_AGENT/);
  });

  it('syncs in the server: days old enough without an index are marked, up to the ones not yet published', async () => {
    const server = await startSecServer({ files: {} });
    const service = await startIsolatedService({ sec: { userAgent, baseUrl: server.url, sync: true, syncIntervalMs: 3_600_000 } });
    try {
      // A database that holds filings up to long ago: the sync reaches back 31 days at most.
      const { prisma } = service.service.services;
      await prisma.entity.create({ data: { cik: appleCik, name: 'Apple Inc.', kind: 'issuer', hasSubmissions: true } });
      await prisma.filing.create({ data: { accessionNumber: '0000320193-25-000071', cik: appleCik, form: '8-K', filedAt: new Date('2025-07-31'), orderedAt: new Date('2025-07-31') } });
      await service.service.secSyncWorker!.runNow();
      const marked = await prisma.ingestItem.findMany({ where: { kind: 'sec_sync_day' }, orderBy: { sourceKey: 'asc' } });
      const today = new Date().toISOString().slice(0, 10);
      const daysOld = (key: string) => (Date.parse(today) - Date.parse(key.slice('sec-sync:'.length))) / 86_400_000;
      expect(marked.length).toBeGreaterThan(15);
      expect(marked.every((m) => m.status === 'skipped' && daysOld(m.sourceKey) >= 3 && daysOld(m.sourceKey) <= 31)).toBe(true);
      expect(server.requests.every((r) => r.path.startsWith('/Archives/edgar/daily-index/') && r.userAgent === userAgent)).toBe(true);
    } finally {
      await service.close();
      await server.close();
    }
  }, 60_000);
});
