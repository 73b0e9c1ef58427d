// A facts read that no kept answer serves sends one SQL statement, for its data: once an instance
// is warm, who is calling (the key), what the plan allows (quotas), how it is paid (billing) and
// what the company reports of the tag asked for (its tags, coverage, the tag's label; read with
// the data the first time a company and tag are read) are known without asking the database; the primary documents that citations link to are read with the facts, in the same
// statement. Counted at the driver adapter (prisma/adapter.ts), so that every statement the
// database receives is seen, transaction control included, whichever client API sent it.
//
// What is written about requests is batched off the request path: request records
// (resolvers/requestLog.ts, tested in requestLog.test.ts; off here, as the harness does for a
// suite that counts statements) and starter-grant calls, settled every IDS_BILLING_SETTLE_MS
// (an hour here, so that no settlement falls inside a request counted).
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';
import { loadFacts } from '../ingest/load/facts.ts';
import { withinTransaction } from '../ingest/handlers.ts';
import { FactsDocument } from '../catalogue/operations/generated.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from './harness.ts';

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let sent: string[] = [];
const cik = '0000000301';
/** when this instance last heard an event about each organization */
const heardAt = new Map<string, number>();
const listening = new AbortController();

beforeAll(async () => {
  database = await scratchDatabase(); // a database of its own, so that every statement counted is ours
  t = await startTestService(
    { database: database.target, requestCacheTtlMs: 600_000, billing: { enforced: true, settleMs: 3_600_000 } },
    { onStatement: (sql) => void sent.push(sql), countingStatements: true },
  );
  const { prisma, bus } = t.service.services;
  void (async () => {
    for await (const event of bus.subscribe(listening.signal)) if (event.orgId) heardAt.set(event.orgId, Date.now());
  })();
  await prisma.$transaction((tx) => loadFacts(withinTransaction(tx), history(6), [], 'companyfacts'), { timeout: 60_000 });
});
afterAll(async () => {
  listening.abort();
  await t?.close();
  await database?.drop();
});

/** Revenue and net income of `years` fiscal years, from 10-Ks. */
function history(years: number): FactRecord[] {
  return Array.from({ length: years }, (_, y) => 2024 - y).flatMap((fy) =>
    ['Revenues', 'NetIncomeLoss'].map((tag, i) => ({
      cik, taxonomy: 'us-gaap', tag, unit: 'USD', value: String(1000 * (i + 1) + fy), periodStart: `${fy - 1}-01-01`, periodEnd: `${fy - 1}-12-31`, isInstant: false, fy, fp: 'FY',
      form: '10-K', frame: null, accessionNumber: `${cik}-${String(fy % 100).padStart(2, '0')}-000004`, filedAt: `${fy}-02-01`, dimensions: {}, decimals: '-6',
    })),
  );
}

/** The statements one request sent, and its answer. */
async function statementsOf(send: () => ReturnType<typeof call>) {
  sent = [];
  const answer = await send();
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  return { sent, body: answer.body };
}

const rest = (key: string, limit: number) => () => call(t, 'GET', `/v1/facts?cik=${cik}&tag=Revenues&form=10-K&limit=${limit}`, { key });
const graphql = (key: string, limit: number) => () => call(t, 'POST', '/graphql', { key, body: { query: print(FactsDocument), variables: { cik, tag: 'Revenues', form: '10-K', limit } } });

/**
 * The first request of a key: it reads what an instance keeps, and records the key's use without
 * waiting for it (resolvers/apiKeys.ts), which is awaited here so that it is not counted later.
 * An event about the organization (its key's creation, say) drops what the instance keeps of it
 * when the instance hears it, which through Redis (server mode) can be after this first request:
 * once the organization's events have been heard and have stopped, one more request keeps it again.
 */
async function warm(send: () => ReturnType<typeof call>, keyId: string) {
  const cold = await statementsOf(send);
  const { prisma } = t.service.services;
  let key = await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  while (!key.lastUsedAt) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    key = await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  }
  const waited = Date.now();
  while (Date.now() - (heardAt.get(key.orgId) ?? Date.now()) < 300 || !heardAt.has(key.orgId)) {
    if (Date.now() - waited > 10_000) throw new Error(`no event about ${key.orgId} was heard`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await send();
  return cold;
}

/** One statement: it reads the facts, and the primary document of each one's filing that its citation links to. */
function expectOnlyTheData(statements: string[]) {
  expect(statements, statements.join('\n')).toHaveLength(1);
  expect(statements[0]).toMatch(/FROM "Fact"/);
  expect(statements[0]).toMatch(/"primaryDocument"/);
}

describe('SQL per uncached facts request', () => {
  it('REST, a plan that pays: one statement, for the data', async () => {
    const { key, keyId } = await orgWithKey(t, 'sql per request, team', 'team');
    // reads the key, its organization's quotas, and of the company its tags, coverage and label
    const cold = await warm(rest(key, 6), keyId);
    expect(cold.sent.length).toBeGreaterThan(1);
    expect(cold.sent.filter((sql) => /FROM "public"\."Filing"/.test(sql))).toEqual([]); // citations need no read of their own
    for (const limit of [2, 3]) {
      const { sent: statements, body } = await statementsOf(rest(key, limit)); // a limit not asked before: no kept answer
      expect(body.facts).toHaveLength(limit);
      expectOnlyTheData(statements);
    }
  });

  it('REST, the starter grant: one statement, its calls counted in memory against calls reserved when it was cold', async () => {
    const { key, keyId } = await orgWithKey(t, 'sql per request, starter grant');
    const cold = await warm(rest(key, 6), keyId);
    expect(cold.sent.some((sql) => sql === 'BEGIN')).toBe(true); // the reservation: a transaction on the organization's account
    for (const limit of [4, 5]) {
      const { sent: statements, body } = await statementsOf(rest(key, limit));
      expect(body.facts).toHaveLength(limit);
      expectOnlyTheData(statements);
    }
  });

  it('the same operation through POST /graphql: one statement, for the data', async () => {
    const { key, keyId } = await orgWithKey(t, 'sql per request, graphql', 'team');
    await warm(graphql(key, 6), keyId);
    for (const limit of [2, 3]) {
      const { sent: statements, body } = await statementsOf(graphql(key, limit)); // variables not sent before: no kept answer
      expect(body.data.facts.facts).toHaveLength(limit);
      expectOnlyTheData(statements);
    }
  });

  it('another tag of a company already read: one statement, reading what the company reports of it with its data', async () => {
    const { key, keyId } = await orgWithKey(t, 'sql per request, another tag', 'team');
    await warm(rest(key, 6), keyId);
    const first = await statementsOf(() => call(t, 'GET', `/v1/facts?cik=${cik}&tag=NetIncomeLoss&form=10-K&limit=4`, { key }));
    expect(first.body.facts).toHaveLength(4);
    expectOnlyTheData(first.sent);
    expect(first.sent[0]).toMatch(/FROM "CompanyConcept"/);
    expect(first.sent[0]).not.toMatch(/sum\("factCount"\)/); // the company's coverage is kept: not summed again
    const next = await statementsOf(() => call(t, 'GET', `/v1/facts?cik=${cik}&tag=NetIncomeLoss&form=10-K&limit=4&cursor=${first.body.nextCursor}`, { key }));
    expect(next.body.facts).toHaveLength(2);
    expectOnlyTheData(next.sent);
    expect(next.sent[0]).not.toMatch(/"CompanyConcept"/);
  });

  it('a company not read since the data changed: its coverage is summed in the statement that reads the data', async () => {
    const { key, keyId } = await orgWithKey(t, 'sql per request, company not read', 'team');
    await warm(rest(key, 6), keyId);
    t.service.services.cache.data.clear(); // as an ingest's notice does
    const { sent: statements, body } = await statementsOf(() => call(t, 'GET', `/v1/facts?cik=${cik}&tag=NetIncomeLoss&limit=3`, { key }));
    expect(body.facts).toHaveLength(3);
    expect(body.coverage.factsHeld).toBe(12);
    const ofTheCompany = statements.filter((sql) => /"CompanyConcept"/.test(sql));
    expect(ofTheCompany, statements.join('\n')).toHaveLength(1);
    expect(ofTheCompany[0]).toMatch(/sum\("factCount"\)/);
    expect(ofTheCompany[0]).toMatch(/FROM "Fact"/);
  });

  it('a kept answer sends none', async () => {
    const { key, keyId } = await orgWithKey(t, 'sql per request, kept', 'team');
    await warm(rest(key, 2), keyId);
    expect((await statementsOf(rest(key, 2))).sent).toEqual([]);
    await statementsOf(graphql(key, 3));
    expect((await statementsOf(graphql(key, 3))).sent).toEqual([]);
  });
});
