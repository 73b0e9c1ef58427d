// GET /v1/facts builds its answer from the series read without executing the Facts operation
// (catalogue/factsData.ts): it must answer what the operation answers over /graphql, to the byte,
// whatever the filters, and refuse what it refuses.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactsDocument } from '../catalogue/operations/generated.ts';
import { loadFacts } from '../ingest/load/facts.ts';
import { withinTransaction } from '../ingest/handlers.ts';
import { parseCompanyFacts } from '../ingest/parsers/xbrl/companyFacts.ts';
import { factDurationTable, factsCursor, type FactDuration } from '../resolvers/financials.ts';
import { fixture } from './corpus.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
const cik = '0000000001';

beforeAll(async () => {
  database = await scratchDatabase();
  t = await startTestService({ database: database.target });
  ({ key } = await orgWithKey(t, 'facts data', 'team'));
  const { prisma } = t.service.services;
  // restated values, both forms, an instant and durations; one filing's primary document known
  const { facts } = parseCompanyFacts(await fixture('xbrl/companyfacts-exact.json'));
  await prisma.$transaction(async (tx) => {
    await loadFacts(withinTransaction(tx), facts, [], 'companyfacts', 'Fixture Corp');
    await tx.ticker.create({ data: { ticker: 'FXTR', cik, source: 'company_tickers', name: 'Fixture Corp' } });
    await tx.filing.create({ data: { accessionNumber: '0000000001-24-000004', cik, form: '10-K', filedAt: new Date('2024-11-01'), orderedAt: new Date('2024-11-01'), primaryDocument: 'fxtr-20240928.htm' } });
    await tx.entity.create({ data: { cik: '0000000002', name: 'No Facts Inc' } });
    // a name the company reports in two taxonomies: the one read is the first, by taxonomy
    const shares = facts.find((f) => f.tag === 'EntityCommonStockSharesOutstanding')!;
    await loadFacts(withinTransaction(tx), [{ ...shares, taxonomy: 'us-gaap', value: '1', accessionNumber: '0000000001-24-000099' }], [], 'companyfacts');
  }, { timeout: 60_000 });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

type Query = { ticker?: string; cik?: string; tag: string; form?: string; unit?: string; period_from?: string; period_to?: string; period_start?: string; duration?: FactDuration; fy?: number; fp?: string; limit?: number; cursor?: string };

const rest = (query: Query) => call(t, 'GET', `/v1/facts?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { key });
const graph = (query: Query) =>
  call(t, 'POST', '/graphql', {
    key,
    body: {
      query: print(FactsDocument),
      variables: {
        ticker: query.ticker ?? null,
        cik: query.cik ?? null,
        tag: query.tag,
        form: query.form ?? null,
        unit: query.unit ?? null,
        periodFrom: query.period_from ?? null,
        periodTo: query.period_to ?? null,
        periodStart: query.period_start ?? null,
        duration: query.duration ? factDurationTable[query.duration].graph : null,
        fy: query.fy ?? null,
        fp: query.fp ?? null,
        limit: query.limit ?? 25,
        after: query.cursor ?? null,
      },
    },
  });

describe('GET /v1/facts', () => {
  it('answers what the Facts operation answers over /graphql, field for field and in order', async () => {
    const queries: Query[] = [
      { ticker: 'FXTR', tag: 'Revenues' },
      { ticker: 'FXTR', tag: 'us-gaap:NetIncomeLoss', form: '10-K' },
      { ticker: 'FXTR', tag: 'revenue', limit: 2 },
      { ticker: 'FXTR', tag: 'NetIncomeLoss', duration: '3m' },
      { ticker: 'FXTR', tag: 'NetIncomeLoss', duration: '12m', period_from: '2022-01-01', period_to: '2024-12-31' },
      { cik, tag: 'Assets', duration: 'instant', unit: 'USD' },
      { cik, tag: 'NetIncomeLoss', fy: 2024, fp: 'FY' },
      { ticker: 'FXTR', tag: 'EntityCommonStockSharesOutstanding' },
      { ticker: 'FXTR', tag: 'NoSuchTag' },
      { cik: '0000000002', tag: 'Revenues' },
    ];
    let compared = 0;
    for (const query of queries) {
      const answer = await rest(query);
      expect(answer.status, JSON.stringify(query)).toBe(200);
      const viaGraph = await graph(query);
      expect(viaGraph.body.errors).toBeUndefined();
      const { factsCovered, facts, nextCursor, ...series } = viaGraph.body.data.facts;
      expect(answer.body, JSON.stringify(query)).toMatchObject({ ...series, nextCursor, coverage: { factsHeld: factsCovered } });
      expect(JSON.stringify(answer.body.facts)).toBe(JSON.stringify(facts));
      compared += facts.length;
      // the next page too, through its cursor
      if (nextCursor) {
        const next = await rest({ ...query, cursor: nextCursor });
        const nextViaGraph = await graph({ ...query, cursor: nextCursor });
        expect(JSON.stringify(next.body.facts)).toBe(JSON.stringify(nextViaGraph.body.data.facts.facts));
        expect(next.body.nextCursor).toBe(nextViaGraph.body.data.facts.nextCursor);
      }
    }
    // what the comparison covers: facts of both forms, a stitched series, a citation of each kind, every resolution
    expect(compared).toBeGreaterThan(10);
    const all = (await rest({ ticker: 'FXTR', tag: 'NetIncomeLoss', limit: 100 })).body;
    expect(new Set(all.facts.map((f: { form: string }) => f.form))).toEqual(new Set(['10-K', '10-Q']));
    expect(all.facts.map((f: { citationUrl: string }) => f.citationUrl)).toEqual(
      expect.arrayContaining(['https://www.sec.gov/Archives/edgar/data/1/000000000124000004/fxtr-20240928.htm', expect.stringMatching(/-index\.htm$/)]),
    );
    const resolutions = await Promise.all(queries.map(async (q) => (await rest(q)).body.resolution));
    expect(new Set(resolutions)).toEqual(new Set(['exact', 'alias', 'not_reported', 'not_covered']));
  });

  it('answers a company and tag read the first time as it answers them once known', async () => {
    // The first read of a company and tag reads what the company reports of the tag together with
    // the page it would read if the tag is reported as asked; a later read knows the tag already.
    const { cache } = t.service.services;
    const queries: Query[] = [
      { ticker: 'FXTR', tag: 'Revenues', limit: 3 },
      { ticker: 'FXTR', tag: 'us-gaap:NetIncomeLoss', form: '10-K', limit: 2 },
      { ticker: 'FXTR', tag: 'ifrs-full:NetIncomeLoss' },
      { ticker: 'FXTR', tag: 'revenue', limit: 2 },
      { ticker: 'FXTR', tag: 'NetIncomeLoss', limit: 2, cursor: factsCursor(3) },
      { ticker: 'FXTR', tag: 'NetIncomeLoss', duration: '12m' },
      { ticker: 'FXTR', tag: 'EntityCommonStockSharesOutstanding' },
      { ticker: 'FXTR', tag: 'NoSuchTag' },
    ];
    for (const query of queries) {
      cache.data.clear();
      const first = await rest(query);
      const known = await rest({ ...query, limit: (query.limit ?? 25) + 1 }); // not a kept answer: another limit
      expect(first.status, JSON.stringify(query)).toBe(200);
      const { requestId: _first, facts: firstFacts, ...firstSeries } = first.body;
      const { requestId: _known, facts: knownFacts, hasMore: _more, nextCursor: _next, ...knownSeries } = known.body;
      expect(firstSeries, JSON.stringify(query)).toMatchObject(knownSeries);
      expect(firstFacts, JSON.stringify(query)).toEqual(knownFacts.slice(0, firstFacts.length));
      expect(first.body.hasMore).toBe(knownFacts.length > firstFacts.length);
    }
    // a company whose coverage is kept: the first read of another tag leaves the sum out and answers the kept one
    for (const tag of ['Revenues', 'NoSuchTag', 'revenue']) {
      cache.data.clear();
      const alone = (await rest({ ticker: 'FXTR', tag })).body;
      cache.data.clear();
      await rest({ ticker: 'FXTR', tag: 'Assets' });
      const afterAnother = (await rest({ ticker: 'FXTR', tag })).body;
      expect(afterAnother.coverage, tag).toEqual(alone.coverage);
      expect(afterAnother.coverage.factsHeld, tag).toBeGreaterThan(0);
      expect(afterAnother.resolution, tag).toBe(alone.resolution);
    }
    const shares = (await rest({ ticker: 'FXTR', tag: 'EntityCommonStockSharesOutstanding' })).body;
    expect(shares.resolvedTag).toBe('EntityCommonStockSharesOutstanding');
    expect(shares.taxonomy).toBe('dei');
    expect(shares.facts.length).toBeGreaterThan(0);
    expect(shares.facts.map((f: { taxonomy: string }) => f.taxonomy)).toEqual(shares.facts.map(() => 'dei'));
  });

  it('refuses at the REST door what the operation refuses', async () => {
    const unknown = await rest({ ticker: 'NOSUCH', tag: 'Revenues' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('entity_not_found');
    const viaGraph = await graph({ ticker: 'NOSUCH', tag: 'Revenues' });
    expect(viaGraph.body.errors[0].extensions.code).toBe('entity_not_found');
    const badCursor = await rest({ ticker: 'FXTR', tag: 'Revenues', cursor: 'not-a-cursor' });
    const badCursorViaGraph = await graph({ ticker: 'FXTR', tag: 'Revenues', cursor: 'not-a-cursor' });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.code).toBe(badCursorViaGraph.body.errors[0].extensions.code);
  });
});
