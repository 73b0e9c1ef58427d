// The ingest as its users see it: what goes in, what is skipped or refused and why, that a
// second run changes nothing, that newer files supersede older ones without losing history, and
// that new filings arrive live on graphql-ws.
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runIngest, type IngestSummary } from '../../ingest/run.ts';
import { fixture } from '../corpus.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';
import { fixtureCorpus, fixtureSource } from './fixtureSource.ts';

let t: TestService;
let key: string;
let first: IngestSummary;
const ingest = (items: Parameters<typeof fixtureSource>[0]) => runIngest(t.service.services, fixtureSource(items));

const broken = {
  'submissions/CIK0000000002.json': { text: '{"cik":"0000000002","name":"Truncated Inc","filings":{"recent":{"accessionNumber":["0000000002-24-0' },
  'forms/formd/D_broken.xml': { text: '<?xml version="1.0"?><edgarSubmission><primaryIssuer><cik>0000000009</cik><entityName>Half' },
  'forms/mystery/form-x.xml': { text: '<?xml version="1.0"?><somethingElse/>' },
  'index/daily/form.20240103.idx': {
    text: [
      'Description:           Daily Index of EDGAR Dissemination Feed by Form Type',
      '',
      'Form Type   Company Name                                                  CIK         Date Filed  File Name',
      '---------------------------------------------------------------------------------------------------------------------------------------------',
      '10-K        FIXTURE HOLDINGS INC                                          777777      20240103    edgar/data/777777/0000777777-24-000001.txt',
      'this line is junk, not a row',
    ].join('\n'),
  },
  // A date that is no date, after a good filing: the whole file is refused, nothing half-written.
  'submissions/CIK0000000003.json': {
    text: JSON.stringify({
      cik: '0000000003',
      name: 'Bad Date Corp',
      tickers: [],
      exchanges: [],
      filings: {
        recent: {
          accessionNumber: ['0000000003-24-000001', '0000000003-24-000002'],
          filingDate: ['2024-05-01', '2024-13-45'],
          reportDate: ['', ''],
          acceptanceDateTime: ['2024-05-01T16:00:00.000Z', '2024-05-02T16:00:00.000Z'],
          act: ['34', '34'],
          form: ['8-K', '8-K'],
          fileNumber: ['', ''],
          filmNumber: ['', ''],
          items: ['5.02', ''],
          size: [1, 1],
          isXBRL: [0, 0],
          isInlineXBRL: [0, 0],
          primaryDocument: ['a.htm', 'b.htm'],
          primaryDocDescription: ['8-K', '8-K'],
        },
        files: [],
      },
    }),
  },
  'market/prices/XYZ.daily.csv': { text: 'Date,Open\n2024-01-02,1\n' },
  // good facts first, the bad date on a later one beside a good date it shares
  'companyfacts/CIK0000000004.json': {
    text: JSON.stringify({
      cik: 4,
      entityName: 'Bad Dates Corp',
      facts: {
        'us-gaap': {
          Assets: { label: 'Assets', units: { USD: [{ end: '2024-03-31', val: 1, accn: '0000000004-24-000001', fy: 2024, fp: 'Q1', form: '10-Q', filed: '2024-05-01' }, { end: '2024-02-30', val: 2, accn: '0000000004-24-000001', fy: 2024, fp: 'Q1', form: '10-Q', filed: '2024-05-01' }] } },
        },
      },
    }),
  },
};

let database: Awaited<ReturnType<typeof scratchDatabase>>;

beforeAll(async () => {
  database = await scratchDatabase(); // ingest state (which items are done) must not be shared with other suites
  t = await startTestService({ database: database.target });
  ({ key } = await orgWithKey(t));
  first = await ingest({ ...fixtureCorpus, ...broken });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

describe('a first ingest', () => {
  it('loads every good item and refuses the broken ones with a reason', async () => {
    const goodItems = Object.keys(fixtureCorpus).length;
    // the fixture daily index has two junk lines of its own, so it goes in partly too
    expect(first).toMatchObject({ read: goodItems + 7, written: goodItems + 1, partial: 2, failed: 6, skipped: 0 });
    const failed = await t.service.services.prisma.ingestItem.findMany({ where: { status: 'failed' }, orderBy: { sourceKey: 'asc' } });
    expect(failed.map((f) => [f.sourceKey, f.reason])).toEqual([
      ['companyfacts/CIK0000000004.json', expect.stringMatching(/not a calendar date: "2024-02-30"/)],
      ['forms/formd/D_broken.xml', expect.stringMatching(/.+/)],
      ['forms/mystery/form-x.xml', expect.stringMatching(/unknown kind of file/)],
      ['market/prices/XYZ.daily.csv', expect.stringMatching(/not a price file/)],
      ['submissions/CIK0000000002.json', expect.stringMatching(/.+/)],
      ['submissions/CIK0000000003.json', expect.stringMatching(/not a calendar date: "2024-13-45"/)],
    ]);
    const partial = await t.service.services.prisma.ingestItem.findUniqueOrThrow({ where: { sourceKey: 'index/daily/form.20240103.idx' } });
    expect(partial).toMatchObject({ status: 'partial', reason: expect.stringMatching(/line 6 left out/) });
  });

  it('writes nothing of a document that fails part-way (one transaction per document)', async () => {
    const { prisma } = t.service.services;
    expect(await prisma.entity.findUnique({ where: { cik: '0000000003' } })).toBeNull();
    expect(await prisma.fact.count({ where: { cik: '0000000004' } })).toBe(0);
    expect(await prisma.filing.findUnique({ where: { accessionNumber: '0000000003-24-000001' } })).toBeNull();
    // the good rows of the partly junk index went in
    expect(await prisma.filing.findUnique({ where: { accessionNumber: '0000777777-24-000001' } })).toMatchObject({ form: '10-K', cik: '0000777777' });
  });

  it('serves what it loaded, with provenance', async () => {
    const sections = await call(t, 'GET', '/v1/filings/latest?ticker=AAPL&form=10-K', { key });
    expect(sections.status).toBe(200);
    expect(sections.body).toMatchObject({
      accessionNumber: '0000320193-24-000123',
      documentIngested: true,
      citationUrl: 'https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm',
    });
    expect(sections.body.sections.map((s: { key: string }) => s.key)).toContain('item_1a');
    const facts = await call(t, 'GET', '/v1/facts?cik=1&tag=EntityCommonStockSharesOutstanding', { key });
    // larger than 2^53: exact as filed, never through a float
    expect(facts.body.facts[0]).toMatchObject({ value: '9007199254740993', accessionNumber: '0000000001-24-000004' });
  });
});

describe('a second ingest of the same files', () => {
  it('changes nothing and creates no duplicate', async () => {
    const { prisma } = t.service.services;
    const count = async () => ({ filings: await prisma.filing.count(), facts: await prisma.fact.count(), forms: await prisma.formRecord.count(), events: await prisma.filingEvent.count(), outbox: await prisma.event.count({ where: { type: 'filing.added' } }) });
    const before = await count();
    const again = await ingest({ ...fixtureCorpus, ...broken });
    expect(again).toMatchObject({ written: 0, failed: 6 });
    expect(again.skipped).toBe(again.read - 6);
    expect(await count()).toEqual(before);
  });
});

describe('a newer file', () => {
  it('adds the new filing, updates what changed, emits one event, and keeps facts as first and as re-reported', async () => {
    const { prisma } = t.service.services;
    const submissions = JSON.parse(await fixture('sec/CIK0000320193.json'));
    const recent = submissions.filings.recent;
    for (const [column, value] of Object.entries({ accessionNumber: '0000320193-26-000099', filingDate: '2026-05-01', reportDate: '2026-03-28', acceptanceDateTime: '2026-05-01T06:01:00.000Z', act: '34', form: '10-Q', fileNumber: '001-36743', filmNumber: '1', items: '', size: 1, isXBRL: 1, isInlineXBRL: 1, primaryDocument: 'aapl-20260328.htm', primaryDocDescription: '10-Q', core_type: 'XBRL' })) {
      recent[column].unshift(value);
    }
    const eightK = recent.accessionNumber.indexOf('0000320193-26-000005');
    recent.items[eightK] = '2.02,5.02,9.01';

    const facts = JSON.parse(await fixture('xbrl/companyfacts-exact.json'));
    const revenues = facts.facts['us-gaap'].Revenues.units.USD;
    const restated = { ...revenues[0], val: 7999999999999999, accn: '0000000001-25-000009', filed: '2025-02-01', form: '10-K/A' };
    revenues.push(restated);

    const eventsBefore = await prisma.event.count({ where: { type: 'filing.added' } });
    const summary = await ingest({
      'submissions/CIK0000320193.json': { text: JSON.stringify(submissions) },
      'companyfacts/CIK0000000001.json': { text: JSON.stringify(facts) },
    });
    expect(summary).toMatchObject({ written: 2, failed: 0 });
    expect(await prisma.filing.findUnique({ where: { accessionNumber: '0000320193-26-000099' } })).toMatchObject({ form: '10-Q' });
    expect(await prisma.event.count({ where: { type: 'filing.added' } })).toBe(eventsBefore + 1);
    expect((await prisma.filing.findUniqueOrThrow({ where: { accessionNumber: '0000320193-26-000005' } })).items).toEqual(['2.02', '5.02', '9.01']);
    // the 8-K's new item 5.02 now appears as an officer-change event known from the index
    const officerChanges = await call(t, 'GET', '/v1/events/officer-changes?ticker=AAPL', { key });
    expect(officerChanges.body.data).toContainEqual(expect.objectContaining({ accessionNumber: '0000320193-26-000005', fromIndexOnly: true }));

    const period = await prisma.fact.findMany({ where: { cik: '0000000001', tag: 'Revenues', periodStart: new Date(`${revenues[0].start}T00:00:00Z`), periodEnd: new Date(`${revenues[0].end}T00:00:00Z`) }, orderBy: { filedAt: 'asc' } });
    // as first filed, as repeated by the next 10-K, and as restated by the 10-K/A
    expect(period.map((f) => [f.value, f.accessionNumber])).toEqual([
      ['8000000000000000', '0000000001-23-000004'],
      ['8000000000000000', '0000000001-24-000004'],
      ['7999999999999999', '0000000001-25-000009'],
    ]);
  });
});

describe('filingAdded over graphql-ws', () => {
  it('delivers filings as they are ingested, filtered by form', async () => {
    const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': key }, retryAttempts: 0 });
    const received: { filing: { accessionNumber: string; form: string; entity: { cik: string } } }[] = [];
    try {
      client.subscribe({ query: 'subscription { filingAdded(form: "8-K") { filing { accessionNumber form entity { cik } } } }' }, { next: (v) => void received.push(v.data!.filingAdded as never), error: () => {}, complete: () => {} });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await ingest({
        'index/daily/form.20240104.idx': {
          text: [
            'Form Type   Company Name                                                  CIK         Date Filed  File Name',
            '---------------------------------------------------------------------------------------------------------------------------------------------',
            '8-K         LIVE WIRE CORP                                                888888      20240104    edgar/data/888888/0000888888-24-000001.txt',
            '10-Q        LIVE WIRE CORP                                                888888      20240104    edgar/data/888888/0000888888-24-000002.txt',
          ].join('\n'),
        },
      });
      const deadline = Date.now() + 5000;
      while (!received.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received).toEqual([{ filing: { accessionNumber: '0000888888-24-000001', form: '8-K', entity: { cik: '0000888888' } } }]);
    } finally {
      await client.dispose();
    }
  });
});
