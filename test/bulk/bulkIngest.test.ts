// `ids ingest --bulk`: the SEC's nightly archives, as corpus:scale writes them (factor 2: each
// company as itself and as one synthetic copy), loaded in bulk. A real company then answers
// exactly as after an item-by-item ingest of its files, its synthetic copy answers the same
// values under its own CIK, a second run writes nothing, and a corrupt member is listed by
// ingest:failures while the others load. On PostgreSQL (server mode) the command runs the load on
// its own thread under a heap cap (server/ingestThread.ts), so that mode tests the thread's summary
// and the events it hands back to this instance's bus.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { computeSignals } from '../../derived/signals.ts';
import { bulkAnnounceFrom } from '../../ingest/bulk/member.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import { runCommand } from '../../server/commands.ts';
import { writeScaleCorpus, type ScaleSummary } from '../../scripts/scaleCorpus.ts';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const apple = '0000320193';
/** Apple (facts and filings), Imunon (filings with an overflow page), LPA (a small IFRS companyfacts) */
const companies = [apple, '0000749647', '0001997711'];
const appleFiles = ['companyfacts/CIK0000320193.json', 'submissions/CIK0000320193.json'];

/** `npm run ids -- <args>` against the service's database, its output lines. */
async function ids(t: TestService, ...args: string[]): Promise<string[]> {
  const lines: string[] = [];
  const { prisma, bus, logger, config } = t.service.services;
  const code = await runCommand(args, { config, say: (l) => void lines.push(l), note: () => {}, progress: false, database: async () => ({ prisma, bus, logger, appliedMigrations: [] }) });
  expect(code).toBe(0);
  return lines;
}

async function zipOf(file: string, members: Record<string, string>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(members)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  await finished(zip.outputStream.pipe(createWriteStream(file)));
}

describe.runIf(hasCorpus)('bulk ingest of the nightly archives', { timeout: 180_000 }, () => {
  let work: string;
  let scale: ScaleSummary;
  let bulk: TestService;
  let items: TestService;
  let bulkKey: string;
  let itemsKey: string;
  let first: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'ids-bulk-'));
    scale = await writeScaleCorpus({ corpus: corpusDir, out: path.join(work, 'archives'), factor: 2, ciks: companies });
    // the same company item by item, from its files in a folder laid out like the corpus
    const folder = path.join(work, 'folder');
    for (const file of appleFiles) {
      await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
      await symlink(path.join(corpusDir, file), path.join(folder, file));
    }
    [bulk, items] = await Promise.all([startIsolatedService(), startIsolatedService()]);
    [{ key: bulkKey }, { key: itemsKey }] = await Promise.all([orgWithKey(bulk), orgWithKey(items)]);
    [first] = await Promise.all([ids(bulk, 'ingest', '--bulk', path.join(work, 'archives')).then((lines) => lines.at(-1)!), runIngest(items.service.services, folderSource(folder))]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([bulk?.close(), items?.close()]);
    if (work) await rm(work, { recursive: true, force: true });
  });

  const get = (t: TestService, key: string, route: string) => call(t, 'GET', route, { key });
  /** an answer without what differs from one request to the next */
  const stable = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });

  it('loads every member of both archives', () => {
    // 3 companies x 2: Apple's and LPA's facts, the filings of all three (Imunon's in two pages)
    expect(scale.members).toEqual({ companyfacts: 4, submissions: 6 });
    expect(first).toMatch(/read 10, written 10, skipped 0, failed 0/);
  });

  it('a real company answers exactly as after an item-by-item ingest: facts and statements', async () => {
    for (const route of [`/v1/facts?cik=320193&tag=revenue&form=10-K&limit=100`, `/v1/facts?cik=320193&tag=us-gaap:NetIncomeLoss&limit=100`, `/v1/statements/all?cik=320193&limit=8`]) {
      const [fromBulk, fromItems] = await Promise.all([get(bulk, bulkKey, route), get(items, itemsKey, route)]);
      expect(fromBulk.status, route).toBe(200);
      expect(stable(fromBulk.body), route).toEqual(stable(fromItems.body));
    }
    const revenue = await get(bulk, bulkKey, '/v1/facts?cik=320193&tag=revenue&form=10-K&fy=2021&fp=FY&limit=100');
    expect(revenue.body.facts).toContainEqual(expect.objectContaining({ value: '365817000000', periodStart: '2020-09-27', periodEnd: '2021-09-25', accessionNumber: '0000320193-21-000105' }));
    const statements = await get(bulk, bulkKey, '/v1/statements/all?cik=320193&limit=8');
    const fy2021 = statements.body.periods.find((p: { fiscalYear: number }) => p.fiscalYear === 2021);
    expect(fy2021.income.find((l: { key: string }) => l.key === 'revenue')).toMatchObject({ value: '365817000000', fact: { accessionNumber: '0000320193-21-000105' } });
  });

  it('a synthetic copy answers the same values under its own CIK, marked synthetic', async () => {
    const copy = scale.copies[apple]![0]!;
    expect(Number(copy)).toBeGreaterThanOrEqual(9_000_000_000);
    const values = (body: { facts: { value: string; periodStart: string | null; periodEnd: string; form: string }[] }) => body.facts.map((f) => [f.value, f.periodStart, f.periodEnd, f.form]);
    const [real, synthetic] = await Promise.all([get(bulk, bulkKey, '/v1/facts?cik=320193&tag=revenue&form=10-K&limit=100'), get(bulk, bulkKey, `/v1/facts?cik=${copy}&tag=revenue&form=10-K&limit=100`)]);
    expect(synthetic.status).toBe(200);
    expect(synthetic.body.cik).toBe(copy);
    expect(synthetic.body.facts.length).toBeGreaterThan(0);
    expect(values(synthetic.body)).toEqual(values(real.body));
    const lines = (body: { periods: { fiscalYear: number; income: { key: string; value: string | null }[] }[] }) => body.periods.map((p) => [p.fiscalYear, p.income.map((l) => [l.key, l.value])]);
    const [realStatements, syntheticStatements] = await Promise.all([get(bulk, bulkKey, '/v1/statements/all?cik=320193&limit=8'), get(bulk, bulkKey, `/v1/statements/all?cik=${copy}&limit=8`)]);
    expect(lines(syntheticStatements.body)).toEqual(lines(realStatements.body));
    const entity = await bulk.service.services.prisma.entity.findUniqueOrThrow({ where: { cik: copy } });
    expect(entity).toMatchObject({ name: 'Apple Inc. (synthetic copy 1)', tickers: ['AAPL-1'] });
  });

  it('records facts.added for the new facts, as the item ingest does, so monitors see them', async () => {
    const events = await bulk.service.services.prisma.event.findMany({ where: { type: 'facts.added' } });
    const appleEvent = events.find((e) => (e.payload as { cik: string }).cik === apple);
    expect(appleEvent?.payload).toMatchObject({ source: 'companyfacts', accessionNumbers: expect.arrayContaining(['0000320193-21-000105']) });
  });

  it('marks each signal of the companies it loaded as announced once, and announces as signal.added only those of the last 31 days (older ones are history filled in, not news)', async () => {
    const { prisma } = bulk.service.services;
    const announced = (await prisma.event.findMany({ where: { type: 'signal.added' }, select: { orgId: true, payload: true } })).map((e) => ({ orgId: e.orgId, ...(e.payload as { id: string; cik: string; asOf: string }) }));
    expect(announced.every((a) => a.orgId === null)).toBe(true);
    expect(new Set(announced.map((a) => a.id)).size).toBe(announced.length);
    const held = await computeSignals(prisma, null);
    expect(held.length).toBeGreaterThan(0);
    // every signal is marked, so that a later load or ingest never announces it either
    const marked = new Set((await prisma.announcedSignal.findMany({ where: { id: { in: held.map((h) => h.id) } } })).map((a) => a.id));
    expect(held.filter((h) => !marked.has(h.id))).toEqual([]);
    const from = bulkAnnounceFrom();
    expect(announced.map((a) => a.id).sort()).toEqual(held.filter((h) => h.asOf >= from).map((h) => h.id).sort());
    // the corpus's newest filings are older than the window: a bulk load of its history announces none of them
    expect(held.some((h) => h.asOf < from)).toBe(true);
  });

  it('a second run of the same archives writes nothing', async () => {
    const { prisma } = bulk.service.services;
    const counts = async () => ({ facts: await prisma.fact.count(), filings: await prisma.filing.count(), events: await prisma.event.count(), statements: await prisma.statementPeriod.count() });
    const before = await counts();
    const again = await ids(bulk, 'ingest', '--bulk', path.join(work, 'archives'));
    expect(again.at(-1)).toMatch(/read 10, written 0, skipped 10, failed 0 \(0 records/);
    expect(await counts()).toEqual(before);
  });

  it('a corrupt member is listed by ingest:failures while the others load', async () => {
    const folder = path.join(work, 'corrupt');
    await mkdir(folder);
    const good = {
      cik: 42,
      entityName: 'Good Fixture Corp',
      facts: { 'us-gaap': { Revenues: { label: 'Revenues', description: null, units: { USD: [{ start: '2023-01-01', end: '2023-12-31', val: 123456789, accn: '0000000042-24-000001', fy: 2023, fp: 'FY', form: '10-K', filed: '2024-02-01' }] } } } },
    };
    await zipOf(path.join(folder, 'companyfacts.zip'), { 'CIK0000000041.json': '{"cik":41,"entityName":"Broken Corp","facts":{"us-gaap":{', 'CIK0000000042.json': JSON.stringify(good) });
    await writeFile(path.join(folder, 'README'), 'not an archive: ignored');
    expect((await ids(bulk, 'ingest', '--bulk', folder)).at(-1)).toMatch(/read 2, written 1, skipped 0, failed 1/);
    const failures = await ids(bulk, 'ingest:failures');
    expect(failures.some((line) => line.startsWith('failed\tcompanyfacts/CIK0000000041.json\tcompanyfacts\t'))).toBe(true);
    const loaded = await get(bulk, bulkKey, '/v1/facts?cik=42&tag=us-gaap:Revenues');
    expect(loaded.body.facts.map((f: { value: string }) => f.value)).toEqual(['123456789']);
  });

  const today = new Date().toISOString().slice(0, 10);

  /** A company's submissions file listing these filings, filed on `filedOn` (2024-03-01 unless said). */
  const submissionsFile = (cik: number, ticker: string, filings: { accessionNumber: string; size: number; primaryDocDescription: string }[], filedOn = '2024-03-01') =>
    JSON.stringify({
      cik: String(cik),
      name: `Fixture ${ticker} Inc`,
      tickers: [ticker],
      exchanges: ['Nasdaq'],
      filings: {
        recent: {
          accessionNumber: filings.map((f) => f.accessionNumber),
          filingDate: filings.map(() => filedOn),
          reportDate: filings.map(() => '2023-12-31'),
          acceptanceDateTime: filings.map(() => `${filedOn}T16:05:00.000Z`),
          act: filings.map(() => '34'),
          form: filings.map(() => '10-K'),
          fileNumber: filings.map(() => `001-${cik}`),
          filmNumber: filings.map(() => `24${cik}`),
          items: filings.map(() => ''),
          size: filings.map((f) => f.size),
          isXBRL: filings.map(() => 1),
          isInlineXBRL: filings.map(() => 1),
          primaryDocument: filings.map(() => 'annual.htm'),
          primaryDocDescription: filings.map((f) => f.primaryDocDescription),
        },
        files: [],
      },
    });

  it('writes small submissions members together, as one after the other: a filing two co-registrants list is added once, as the first one lists it, and completed by the second', async () => {
    const folder = path.join(work, 'together');
    await mkdir(folder);
    const shared = '0000000061-24-000007';
    await zipOf(path.join(folder, 'submissions.zip'), {
      'CIK0000000061.json': submissionsFile(61, 'COA', [{ accessionNumber: shared, size: 1000, primaryDocDescription: '' }, { accessionNumber: '0000000061-24-000008', size: 900, primaryDocDescription: '10-K' }], today),
      'CIK0000000062.json': submissionsFile(62, 'COB', [{ accessionNumber: shared, size: 1000, primaryDocDescription: 'ANNUAL REPORT' }], today),
    });
    expect((await ids(bulk, 'ingest', '--bulk', folder)).at(-1)).toMatch(/read 2, written 2, skipped 0, failed 0 \(5 records: 0 facts, 3 filings\)/);
    const filing = await get(bulk, bulkKey, `/v1/filings/${shared}`);
    expect(filing.status).toBe(200);
    expect(filing.body.primaryDocDescription).toBe('ANNUAL REPORT');
    const added = await bulk.service.services.prisma.event.findMany({ where: { type: 'filing.added', payload: { path: ['accessionNumber'], equals: shared } } });
    expect(added.map((e) => (e.payload as { tickers: string[] }).tickers)).toEqual([['COA']]);
  });

  it('announces the filings it adds from the last 31 days, and writes older ones without an event (a first load of all of EDGAR is history, not news)', async () => {
    const folder = path.join(work, 'news');
    await mkdir(folder);
    const [recent, old] = ['0000000065-26-000001', '0000000065-24-000001'];
    await zipOf(path.join(folder, 'submissions.zip'), {
      'CIK0000000065.json': submissionsFile(65, 'COE', [{ accessionNumber: recent, size: 1000, primaryDocDescription: '10-K' }], today),
      'CIK0000000066.json': submissionsFile(66, 'COF', [{ accessionNumber: old, size: 1000, primaryDocDescription: '10-K' }]),
    });
    expect((await ids(bulk, 'ingest', '--bulk', folder)).at(-1)).toMatch(/read 2, written 2, skipped 0, failed 0/);
    for (const accession of [recent, old]) expect((await get(bulk, bulkKey, `/v1/filings/${accession}`)).status).toBe(200);
    const added = async (accession: string) => bulk.service.services.prisma.event.count({ where: { type: 'filing.added', payload: { path: ['accessionNumber'], equals: accession } } });
    expect({ recent: await added(recent), old: await added(old) }).toEqual({ recent: 1, old: 0 });
  });

  it('a member the database refuses among members written together fails alone, and the others load', async () => {
    const folder = path.join(work, 'refused');
    await mkdir(folder);
    await zipOf(path.join(folder, 'submissions.zip'), {
      // a size past PostgreSQL's integer: the database refuses the row
      'CIK0000000063.json': submissionsFile(63, 'COC', [{ accessionNumber: '0000000063-24-000001', size: 3_000_000_000, primaryDocDescription: '10-K' }]),
      'CIK0000000064.json': submissionsFile(64, 'COD', [{ accessionNumber: '0000000064-24-000001', size: 1200, primaryDocDescription: '10-K' }]),
    });
    expect((await ids(bulk, 'ingest', '--bulk', folder)).at(-1)).toMatch(/read 2, written 1, skipped 0, failed 1/);
    const failures = await ids(bulk, 'ingest:failures');
    expect(failures.some((line) => line.startsWith('failed\tsubmissions/CIK0000000063.json\tsubmissions\t'))).toBe(true);
    expect((await get(bulk, bulkKey, '/v1/filings/0000000064-24-000001')).status).toBe(200);
    expect((await get(bulk, bulkKey, '/v1/filings/0000000063-24-000001')).status).toBe(404);
  });

  it('a folder with neither archive is refused with the reason', async () => {
    const empty = path.join(work, 'empty');
    await mkdir(empty);
    await expect(ids(bulk, 'ingest', '--bulk', empty)).rejects.toThrow(/no submissions\.zip or companyfacts\.zip/);
  });
});
