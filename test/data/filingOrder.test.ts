// Filings are listed newest accepted first. A daily index names a filing again with its filing date
// only (no acceptance time): that must not move a filing the submissions file dated to the second
// back to midnight, behind the same day's earlier filings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';
import { fixtureSource } from './fixtureSource.ts';

const cik = '0000999101';
const evening = '0000999101-24-000001'; // accepted after the close
const morning = '0000999101-24-000002'; // accepted before the open, numbered later

const submissions = JSON.stringify({
  cik,
  name: 'Ordering Test Corp',
  tickers: [],
  exchanges: [],
  filings: {
    recent: {
      accessionNumber: [evening, morning],
      filingDate: ['2024-05-01', '2024-05-01'],
      reportDate: ['2024-05-01', '2024-05-01'],
      acceptanceDateTime: ['2024-05-01T21:05:00.000Z', '2024-05-01T12:30:00.000Z'],
      act: ['34', '34'],
      form: ['8-K', '8-K'],
      fileNumber: ['', ''],
      filmNumber: ['', ''],
      items: ['2.02', '8.01'],
      size: [1, 1],
      isXBRL: [0, 0],
      isInlineXBRL: [0, 0],
      primaryDocument: ['evening.htm', 'morning.htm'],
      primaryDocDescription: ['8-K', '8-K'],
    },
    files: [],
  },
});

const dailyIndex = [
  'Form Type   Company Name                                                  CIK         Date Filed  File Name',
  '---------------------------------------------------------------------------------------------------------------------------------------------',
  `8-K         ORDERING TEST CORP                                            999101      20240501    edgar/data/999101/${evening}.txt`,
].join('\n');

let t: TestService;
let key: string;
const listed = async () => {
  const answer = await call(t, 'GET', `/v1/filings?cik=${cik}`, { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((f: { accessionNumber: string }) => f.accessionNumber);
};

beforeAll(async () => {
  t = await startIsolatedService();
  ({ key } = await orgWithKey(t, 'Filing order readers', 'team'));
  expect(await runIngest(t.service.services, fixtureSource({ [`submissions/CIK${cik}.json`]: { text: submissions } }))).toMatchObject({ written: 1, failed: 0 });
}, 60_000);
afterAll(() => t?.close());

describe('the order of filings', () => {
  it('keeps a filing at its acceptance time when a daily index names it again', async () => {
    const newestAcceptedFirst = [evening, morning];
    expect(await listed()).toEqual(newestAcceptedFirst);
    expect(await runIngest(t.service.services, fixtureSource({ 'index/daily/form.20240501.idx': { text: dailyIndex } }))).toMatchObject({ failed: 0 });
    expect(await listed()).toEqual(newestAcceptedFirst);
  });
});
