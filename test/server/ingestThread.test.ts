// The startup ingest on PostgreSQL runs on a thread of its own (server/ingestThread.ts) with its own
// connections: what it loads is there for every request, its events reach this instance's bus after
// the commit that wrote them, and a run that cannot start says why. A thread opening its own
// connections needs a database server, so this suite runs with DATABASE_URL.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestInThread } from '../../server/ingestThread.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';

/** a company only this suite files for */
const company = { cik: 9100077, name: 'Threaded Ingest Holdings Inc.' };
const accessions = [1, 2, 3].map((n) => `${String(company.cik).padStart(10, '0')}-26-${String(n).padStart(6, '0')}`);

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let folder: string;
let key: string;

beforeAll(async () => {
  database = await scratchDatabase();
  t = await startTestService({ database: database.target });
  ({ key } = await orgWithKey(t));
  folder = await mkdtemp(path.join(tmpdir(), 'ids-ingest-thread-'));
  const lines = accessions.map((accession, i) => `${company.cik}|${company.name}|8-K|2026-03-0${i + 1}|edgar/data/${company.cik}/${accession}.txt`);
  const text = ['Description: Master Index of EDGAR Dissemination Feed', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  await mkdir(path.join(folder, 'index/daily'), { recursive: true });
  await writeFile(path.join(folder, 'index/daily/master.20260303.idx'), text);
});

afterAll(async () => {
  await t?.close();
  await database?.drop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the startup ingest on its own thread', { timeout: 60_000 }, () => {
  it('loads the folder, and announces each filing on this instance after it is readable', async () => {
    const { services } = t.service;
    const stop = new AbortController();
    const heard: { event: BusEvent; stored: boolean }[] = [];
    const listening = (async () => {
      for await (const event of services.bus.subscribe(stop.signal)) {
        if (event.type !== 'filing.added' || (event.payload as { cik?: string }).cik !== String(company.cik).padStart(10, '0')) continue;
        const accessionNumber = (event.payload as { accessionNumber: string }).accessionNumber;
        heard.push({ event, stored: !!(await services.prisma.filing.findUnique({ where: { accessionNumber } })) });
      }
    })();
    const summary = await ingestInThread(services, database.url!, { source: folder });
    stop.abort();
    await listening;

    expect(summary).toMatchObject({ read: 1, written: 1, failed: 0 });
    expect(heard.map((h) => (h.event.payload as { accessionNumber: string }).accessionNumber).sort()).toEqual(accessions);
    expect(heard.every((h) => h.stored)).toBe(true);
    const filings = await call(t, 'GET', `/v1/filings?cik=${company.cik}`, { key });
    expect(filings.status, JSON.stringify(filings.body)).toBe(200);
    expect(filings.body.data.map((f: { accessionNumber?: string; accession_number?: string }) => f.accessionNumber ?? f.accession_number).sort()).toEqual(accessions);
  });

  it('fails with the reason when the source cannot be read', async () => {
    await expect(ingestInThread(t.service.services, database.url!, { source: path.join(folder, 'missing') })).rejects.toThrow(/missing/);
  });
});
