// GET /v1/filings reads its page in one statement without executing the Filings operation
// (catalogue/filingsData.ts): it must answer what the operation answers over /graphql, to the
// byte, whatever the filters and wherever the cursor, and refuse what it refuses.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilingsDocument, type FilingFieldsFragment } from '../catalogue/operations/generated.ts';
import { toFiling } from '../catalogue/routes/edgar.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
let database: Awaited<ReturnType<typeof scratchDatabase>>;
const alpha = '0000000011';
const beta = '0000000012';

beforeAll(async () => {
  database = await scratchDatabase();
  t = await startTestService({ database: database.target });
  ({ key } = await orgWithKey(t, 'filings data', 'team'));
  const { prisma } = t.service.services;
  await prisma.$transaction(async (tx) => {
    // tickers of its own, listings under another ticker and from two maps
    await tx.entity.create({ data: { cik: alpha, name: 'Alpha Corp', tickers: ['ALFA'] } });
    await tx.entity.create({ data: { cik: beta, name: 'Beta Inc' } });
    await tx.ticker.createMany({
      data: [
        { ticker: 'ALFA', cik: alpha, source: 'company_tickers', name: 'Alpha Corp' },
        { ticker: 'ALFA', cik: alpha, source: 'company_tickers_exchange', name: 'Alpha Corp', exchange: 'NYSE' },
        { ticker: 'ALFB', cik: alpha, source: 'company_tickers', name: 'Alpha Corp' },
        { ticker: 'BETA', cik: beta, source: 'company_tickers', name: 'Beta Inc' },
      ],
    });
    const forms = ['10-K', '10-Q', '8-K', '10-Q', '8-K', '4', '10-Q', '8-K'];
    for (let i = 0; i < 24; i++) {
      const day = new Date(Date.UTC(2023, 0, 1 + i * 15));
      // two filings accepted at the same instant (the accession number breaks the tie), one without a filing date or acceptance
      const accepted = i === 7 || i === 8 ? new Date(Date.UTC(2023, 3, 1, 20, 5, 7, 123)) : i % 3 ? new Date(day.getTime() + 16 * 3_600_000 + i) : null;
      await tx.filing.create({
        data: {
          accessionNumber: `0000000011-23-${String(100 + i).padStart(6, '0')}`,
          cik: alpha,
          form: forms[i % forms.length]!,
          filedAt: i === 5 ? null : day,
          acceptedAt: accepted,
          orderedAt: accepted ?? day,
          reportDate: i % 2 ? new Date(day.getTime() - 30 * 86_400_000) : null,
          items: forms[i % forms.length] === '8-K' ? (i % 2 ? ['2.02', '9.01'] : ['5.07']) : [],
          primaryDocument: i % 4 ? `alfa-${i}.htm` : null,
          primaryDocDescription: i % 4 ? 'Report' : null,
          documentSourceKey: i % 5 === 0 ? `sec:filing:${i}` : null,
        },
      });
    }
    for (let i = 0; i < 3; i++) {
      const day = new Date(Date.UTC(2024, 5, 1 + i));
      await tx.filing.create({ data: { accessionNumber: `0000000012-24-${String(i).padStart(6, '0')}`, cik: beta, form: '8-K', filedAt: day, orderedAt: day, items: ['1.01'] } });
    }
  });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

type Query = { ticker?: string; cik?: string; form?: string; item?: string; filed_from?: string; filed_to?: string; limit?: number; cursor?: string };

const rest = (query: Query) => call(t, 'GET', `/v1/filings?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { key });
const graph = (query: Query) =>
  call(t, 'POST', '/graphql', {
    key,
    body: {
      query: print(FilingsDocument),
      variables: { cik: query.cik ?? null, ticker: query.ticker ?? null, form: query.form ?? null, item: query.item ?? null, filedFrom: query.filed_from ?? null, filedTo: query.filed_to ?? null, first: query.limit ?? 25, after: query.cursor ?? null },
    },
  });

/** Both doors' pages of a query, the REST one as the graph's nodes reshaped. */
async function bothPages(query: Query) {
  const [viaRest, viaGraph] = await Promise.all([rest(query), graph(query)]);
  expect(viaRest.status, JSON.stringify(query)).toBe(200);
  expect(viaGraph.body.errors, JSON.stringify(query)).toBeUndefined();
  const { nodes, pageInfo } = viaGraph.body.data.filings as { nodes: FilingFieldsFragment[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  expect(JSON.stringify(viaRest.body.data), JSON.stringify(query)).toBe(JSON.stringify(nodes.map((f) => toFiling(f, 'default'))));
  expect(viaRest.body.hasMore).toBe(pageInfo.hasNextPage);
  expect(viaRest.body.nextCursor).toBe(pageInfo.hasNextPage ? pageInfo.endCursor : null);
  return { data: viaRest.body.data as { accessionNumber: string }[], nextCursor: viaRest.body.nextCursor as string | null, endCursor: pageInfo.endCursor };
}

describe('GET /v1/filings', () => {
  it('answers what the Filings operation answers over /graphql, field for field and page after page', async () => {
    const queries: Query[] = [
      { ticker: 'ALFA' },
      { ticker: 'ALFB', limit: 5 },
      { cik: alpha, form: '8-K', limit: 2 },
      { cik: alpha, item: '2.02', limit: 3 },
      { ticker: 'ALFA', form: '10-Q', filed_from: '2023-03-01', filed_to: '2023-09-30', limit: 2 },
      { ticker: 'BETA', limit: 1 },
      { form: '8-K', limit: 4 },
      { limit: 7 },
      { ticker: 'ALFA', form: 'S-1' },
    ];
    let pages = 0;
    const seen = new Set<string>();
    for (const query of queries) {
      // every page of the query, through the cursors REST hands out
      let cursor: string | undefined;
      do {
        const page = await bothPages({ ...query, ...(cursor ? { cursor } : {}) });
        // the lists without a company also hold whatever else the database holds
        for (const f of page.data) if (/^00000000(11|12)-/.test(f.accessionNumber)) seen.add(f.accessionNumber);
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
    }
    // what the comparison covers: pages after a cursor, every filing, the tie of two acceptances
    expect(pages).toBeGreaterThan(queries.length + 10);
    expect(seen.size).toBe(27);
    const page = (await rest({ ticker: 'ALFA', limit: 100 })).body.data as { accessionNumber: string; tickers: string[]; documentIngested: boolean; filedAt: string | null; acceptedAt: string | null }[];
    expect(page[0]!.tickers).toEqual(['ALFA', 'ALFB']);
    expect(new Set(page.map((f) => f.documentIngested))).toEqual(new Set([true, false]));
    expect(page.some((f) => f.filedAt === null)).toBe(true);
    expect(page.some((f) => f.acceptedAt?.endsWith('.123Z'))).toBe(true);
  });

  it('reads after a cursor by its place in the order, whatever filter it came from, as the operation does', async () => {
    const all = await bothPages({ ticker: 'ALFA', limit: 100 });
    // a cursor from an unfiltered page, used with a filter its filing does not pass, and one naming no filing
    const cursorOf = async (query: Query) => (await bothPages(query)).endCursor!;
    for (const cursor of [await cursorOf({ cik: alpha, form: '10-K', limit: 1 }), await cursorOf({ ticker: 'BETA', limit: 1 }), await cursorOf({ ticker: 'ALFA', limit: 13 })]) {
      for (const query of [{ ticker: 'ALFA', form: '10-Q', limit: 3 }, { cik: alpha, limit: 5 }, { limit: 4 }] as Query[]) await bothPages({ ...query, cursor });
    }
    const unknown = Buffer.from('GPC:S:0000000099-99-999999').toString('base64');
    expect((await bothPages({ ticker: 'ALFA', cursor: unknown })).data).toEqual([]);
    expect(all.data).toHaveLength(24);
  });

  it('refuses what the operation refuses, with the same error', async () => {
    for (const query of [{ ticker: 'NOPE' }, { ticker: 'ALFA', cursor: 'not-a-cursor' }, { ticker: 'ALFA', cursor: Buffer.from('GPC:N:12').toString('base64') }] as Query[]) {
      const [viaRest, viaGraph] = await Promise.all([rest(query), graph(query)]);
      expect(viaRest.status, JSON.stringify(query)).toBeGreaterThanOrEqual(400);
      expect(viaRest.status).toBeLessThan(500);
      expect(viaGraph.body.errors?.[0]?.extensions?.code, JSON.stringify(query)).toBe(viaRest.body.code);
      expect(viaGraph.body.errors[0].message).toBe(viaRest.body.message);
    }
  });
});
