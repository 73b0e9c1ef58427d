// GET /v1/statements/all builds its answer from the stored periods without executing the
// Statements operation (catalogue/statementsData.ts): it must answer what the operation answers
// over /graphql, to the byte. And a read that nothing kept serves (the first after an ingest)
// sends two SQL statements: the ticker's resolution, and the statements with the documents their
// values cite. Counted at the driver adapter, like test/sqlPerRequest.test.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementsDocument } from '../catalogue/operations/generated.ts';
import { materializeFinancials } from '../derived/financials.ts';
import { loadFacts } from '../ingest/load/facts.ts';
import { withinTransaction } from '../ingest/handlers.ts';
import { parseCompanyFacts } from '../ingest/parsers/xbrl/companyFacts.ts';
import { fixture } from './corpus.ts';
import { call, eventually, orgWithKey, scratchDatabase, startTestService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
let sent: string[] = [];
const cik = '0000000001';

beforeAll(async () => {
  database = await scratchDatabase(); // a database of its own, so that every statement counted is ours
  t = await startTestService({ database: database.target, requestCacheTtlMs: 600_000, billing: { enforced: true, settleMs: 3_600_000 } }, { onStatement: (sql) => void sent.push(sql), countingStatements: true });
  ({ key } = await orgWithKey(t, 'statements data', 'team'));
  const { prisma } = t.service.services;
  // restated values, derived quarters and lines not reported; one filing's primary document known
  const { facts } = parseCompanyFacts(await fixture('xbrl/companyfacts-exact.json'));
  await prisma.$transaction(async (tx) => {
    await loadFacts(withinTransaction(tx), facts, [], 'companyfacts', 'Fixture Corp');
    await tx.ticker.create({ data: { ticker: 'FXTR', cik, source: 'company_tickers', name: 'Fixture Corp' } });
    await tx.filing.create({ data: { accessionNumber: '0000000001-24-000004', cik, form: '10-K', filedAt: new Date('2024-11-01'), orderedAt: new Date('2024-11-01'), primaryDocument: 'fxtr-20240928.htm' } });
    await materializeFinancials(tx, cik);
  }, { timeout: 60_000 });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const rest = (query: string) => call(t, 'GET', `/v1/statements/all?${query}`, { key });

describe('GET /v1/statements/all', () => {
  it('answers what the Statements operation answers over /graphql, field for field and in order', async () => {
    for (const period of ['annual', 'quarterly'] as const) {
      for (const asReported of ['latest', 'first'] as const) {
        const answer = await rest(`ticker=FXTR&period=${period}&as_reported=${asReported}&limit=40`);
        expect(answer.status).toBe(200);
        const graph = await call(t, 'POST', '/graphql', { key, body: { query: print(StatementsDocument), variables: { ticker: 'FXTR', period, limit: 40, asReported } } });
        expect(graph.body.errors).toBeUndefined();
        const { factsCovered, emptyReason, periods, ...bundle } = graph.body.data.statements;
        expect(answer.body).toMatchObject({ ...bundle, reason: emptyReason, coverage: { factsHeld: factsCovered } });
        expect(JSON.stringify(answer.body.periods)).toBe(JSON.stringify(periods));
      }
    }
    // what the comparison covers: a derived quarter, a restatement and a citation of each kind
    const linesOf = async (period: string) => (await rest(`ticker=FXTR&period=${period}&limit=40`)).body.periods.flatMap((p: { income: object[]; cashFlow: object[] }) => [...p.income, ...p.cashFlow]);
    expect((await linesOf('quarterly')).some((l: { derived: boolean }) => l.derived)).toBe(true);
    const lines = await linesOf('annual');
    const sources = lines.flatMap((l: { fact: object | null; restatedFrom: object | null }) => [l.fact, l.restatedFrom]).filter(Boolean);
    expect(sources.map((s: { citationUrl: string }) => s.citationUrl)).toEqual(
      expect.arrayContaining([
        'https://www.sec.gov/Archives/edgar/data/1/000000000124000004/fxtr-20240928.htm',
        'https://www.sec.gov/Archives/edgar/data/1/000000000123000004/0000000001-23-000004-index.htm',
      ]),
    );
  });

  it('answers an agent through the MCP statements tool what it answers over REST', async () => {
    const client = new Client({ name: 'ids-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    try {
      const result = await client.callTool({ name: 'statements_get', arguments: { ticker: 'FXTR', period: 'quarterly', as_reported: 'first', limit: 40 } });
      expect(result.isError).toBeFalsy();
      const { requestId: _a, ...viaMcp } = result.structuredContent as Record<string, unknown>;
      const { requestId: _b, ...viaRest } = (await rest('ticker=FXTR&period=quarterly&as_reported=first&limit=40&view=agent')).body;
      expect(viaMcp).toEqual(viaRest);
      expect((viaMcp as { periods: unknown[] }).periods.length).toBeGreaterThan(0);
      // a company the service does not know is refused at this door as at the others
      const unknown = await client.callTool({ name: 'statements_get', arguments: { ticker: 'NOSUCH' } });
      expect(unknown.isError).toBe(true);
      expect(JSON.stringify(unknown.content)).toMatch(/entity_not_found/);
    } finally {
      await client.close();
    }
  });

  it('a company with no statements says why', async () => {
    await t.service.services.prisma.entity.create({ data: { cik: '0000000002', name: 'No Facts Inc' } });
    const answer = await rest('cik=0000000002');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ periods: [], reason: expect.stringMatching(/^not_covered/), coverage: { factsHeld: 0 } });
    expect((await rest('ticker=NOSUCH')).body.code).toBe('entity_not_found');
  });

  it('after an ingest, a first read by ticker sends three SQL statements: the data\'s version, the ticker\'s CIKs, the data', async () => {
    const { key: fresh, keyId } = await orgWithKey(t, 'statements data, counted', 'team');
    await call(t, 'GET', '/v1/statements/all?ticker=FXTR&limit=2', { key: fresh });
    // the key's first use is recorded without waiting for it: awaited here, so that it is not counted below
    const { prisma, cache } = t.service.services;
    await eventually('the key\'s use recorded', async () => (await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt);
    cache.data.clear(); // what an ingest's notice does: nothing of the data is kept
    sent = [];
    const answer = await call(t, 'GET', '/v1/statements/all?ticker=FXTR&limit=2', { key: fresh });
    expect(answer.body.periods).toHaveLength(2);
    // the version is kept for the request cache's TTL; what rests on it (the ticker's CIKs) for as long as it holds
    expect(sent, sent.join('\n')).toHaveLength(3);
    expect(sent[0]).toMatch(/FROM "IngestRun"/);
    expect(sent[1]).toMatch(/FROM "Ticker"/);
    expect(sent[2]).toMatch(/FROM "StatementPeriod"/);
    expect(sent[2]).toMatch(/"primaryDocument"/);
  });
});
