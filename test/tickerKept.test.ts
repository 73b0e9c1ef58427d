// Which CIKs a ticker names is kept as long as the data holds, not for the request cache's few
// seconds: traffic over thousands of companies resolves each ticker once. A change to the data
// (any ingest run's progress) has it resolved again, within the TTL on an instance that no notice
// of the ingest reaches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { loadFacts } from '../ingest/load/facts.ts';
import { withinTransaction } from '../ingest/handlers.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from './harness.ts';

const ttlMs = 200;
const cik = '0000000302';
let t: TestService;
let key: string;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let sent: string[] = [];

const fact = (fy: number): FactRecord => ({
  cik, taxonomy: 'us-gaap', tag: 'Revenues', unit: 'USD', value: String(1000 + fy), periodStart: `${fy - 1}-01-01`, periodEnd: `${fy - 1}-12-31`, isInstant: false, fy, fp: 'FY',
  form: '10-K', frame: null, accessionNumber: `${cik}-${String(fy % 100).padStart(2, '0')}-000001`, filedAt: `${fy}-02-01`, dimensions: {}, decimals: '-6',
});

beforeAll(async () => {
  database = await scratchDatabase(); // a database of its own, so that every statement counted is ours
  t = await startTestService({ database: database.target, requestCacheTtlMs: ttlMs }, { onQuery: (sql) => void sent.push(sql), countingStatements: true });
  const { prisma } = t.service.services;
  await prisma.$transaction((tx) => loadFacts(withinTransaction(tx), [fact(2024), fact(2023)], [], 'companyfacts'), { timeout: 60_000 });
  await prisma.entity.update({ where: { cik }, data: { tickers: ['KEPT'] } });
  ({ key } = await orgWithKey(t));
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether reading KEPT's facts (a limit not asked before: no kept answer) resolved the ticker in SQL. */
async function resolvedTicker(limit: number): Promise<boolean> {
  sent = [];
  const answer = await call(t, 'GET', `/v1/facts?ticker=KEPT&tag=Revenues&limit=${limit}`, { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.cik).toBe(cik);
  return sent.some((sql) => /FROM "Ticker" WHERE ticker/.test(sql));
}

describe('a ticker\'s CIKs', () => {
  it('are kept past the TTL while the data holds, and resolved again once an ingest changes it', async () => {
    expect(await resolvedTicker(1)).toBe(true);
    await pause(3 * ttlMs);
    expect(await resolvedTicker(2)).toBe(false);
    // an ingest run moving, with no notice heard: the data's version changes
    await t.service.services.prisma.ingestRun.create({ data: { id: 'run_tickerKept', source: 'test' } });
    await pause(3 * ttlMs);
    expect(await resolvedTicker(3)).toBe(true);
  });
});
