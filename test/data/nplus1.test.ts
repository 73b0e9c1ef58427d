// A list never costs one SQL statement per row: the statements a list query sends are the same
// in number for 10 parents and for 1,000. A financial read (facts, statements, segments) sends as
// many for a company with 30 years of filings as for one with two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FactRecord } from '../../ingest/parsers/xbrl/companyFacts.ts';
import { loadFacts } from '../../ingest/load/facts.ts';
import { withinTransaction } from '../../ingest/handlers.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let key: string;
let statements = 0;
let database: Awaited<ReturnType<typeof scratchDatabase>>;

const entities = 10;
const accession = (e: number, f: number) => `${String(9_000_000_000 + e).padStart(10, '0')}-24-${String(f).padStart(6, '0')}`;

beforeAll(async () => {
  database = await scratchDatabase(); // an empty database of its own, so the counts below are exact
  // 1,000 filings with their sections and events cost more than one operation may by default
  // Every request does all of its reads (requestCacheTtlMs 0: nothing is kept between requests),
  // so that the counts compare whole reads.
  t = await startTestService({ database: database.target, graphqlMaxCost: 100_000, requestCacheTtlMs: 0 }, { onQuery: () => void statements++, countingStatements: true });
  ({ key } = await orgWithKey(t, 'N+1', 'team')); // a plan whose graphql windows hold these operations
  const { prisma } = t.service.services;
  const ciks = Array.from({ length: entities }, (_, e) => String(9_000_000_000 + e).padStart(10, '0'));
  await prisma.entity.createMany({ data: ciks.map((cik, e) => ({ cik, name: `Parent ${String(e).padStart(2, '0')}` })) });
  // 100 filings per entity, each with two sections and an event: 1,000 filings in all
  const filings = ciks.flatMap((cik, e) => Array.from({ length: 100 }, (_, f) => ({ accessionNumber: accession(e, f), cik, form: '8-K', filedAt: new Date(Date.UTC(2024, 0, 1 + f)), orderedAt: new Date(Date.UTC(2024, 0, 1 + f)) })));
  await prisma.filing.createMany({ data: filings });
  await prisma.section.createMany({ data: filings.flatMap((f) => ['item_1', 'item_2'].map((k, i) => ({ accessionNumber: f.accessionNumber, key: k, title: k, text: 'text', ordinal: i + 1, charCount: 4 }))) });
  await prisma.filingEvent.createMany({ data: filings.map((f) => ({ id: `ev-${f.accessionNumber}`, accessionNumber: f.accessionNumber, cik: f.cik, type: 'officer_change', orderedAt: f.orderedAt, data: {}, sourceKey: 'test' })) });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

async function statementsFor(query: string) {
  statements = 0;
  const answer = await call(t, 'POST', '/graphql', { key, body: { query } });
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  return { statements, data: answer.body.data };
}

const nested = (filingsPerEntity: number) => `{
  entities(query: "Parent", limit: ${entities}) {
    items { cik name filings(first: ${filingsPerEntity}) { nodes { accessionNumber sections { key } events { type entity { name } } entity { name } } } }
  }
}`;

describe('list queries', () => {
  it('send as many statements for 1,000 filings as for 10', async () => {
    await statementsFor('{ organization { id } }'); // the key's first use also records lastUsedAt
    const ten = await statementsFor(nested(1));
    const thousand = await statementsFor(nested(100));
    expect(ten.data.entities.items.flatMap((e: { filings: { nodes: unknown[] } }) => e.filings.nodes)).toHaveLength(10);
    const all = thousand.data.entities.items.flatMap((e: { filings: { nodes: { sections: unknown[]; events: unknown[] }[] } }) => e.filings.nodes);
    expect(all).toHaveLength(1000);
    expect(all.every((f: { sections: unknown[]; events: unknown[] }) => f.sections.length === 2 && f.events.length === 1)).toBe(true);
    expect(thousand.statements).toBe(ten.statements);
  });

  it('REST lists cost the same number of statements for 1 and for 100 rows', async () => {
    await call(t, 'GET', '/v1/filings?form=8-K&limit=2', { key }); // the key's first use also records lastUsedAt
    statements = 0;
    await call(t, 'GET', '/v1/filings?form=8-K&limit=1', { key });
    const one = statements;
    statements = 0;
    const page = await call(t, 'GET', '/v1/filings?form=8-K&limit=100', { key });
    expect(page.body.data).toHaveLength(100);
    expect(statements).toBe(one);
    statements = 0;
    await call(t, 'GET', '/v1/events/officer-changes?limit=100', { key });
    const hundred = statements;
    statements = 0;
    await call(t, 'GET', '/v1/events/officer-changes?limit=2', { key });
    // a hundred events cost no more than two: the compiled executor may settle a small page's
    // relations over two batching rounds instead of one, never one statement per row
    expect(hundred).toBeLessThanOrEqual(statements);
  });
});

/** A company's 10-K and 10-Q facts over `years` fiscal years: revenue by quarter and year, net income, assets, and revenue by product. */
function filingHistory(cik: string, years: number): FactRecord[] {
  const facts: FactRecord[] = [];
  const fact = (tag: string, value: number, start: string | null, end: string, fy: number, fp: string, dimensions: Record<string, string> = {}): FactRecord => ({
    cik, taxonomy: 'us-gaap', tag, unit: 'USD', value: String(value), periodStart: start, periodEnd: end, isInstant: start === null, fy, fp,
    form: fp === 'FY' ? '10-K' : '10-Q', frame: null, accessionNumber: `${cik}-${String(fy % 100).padStart(2, '0')}-${fp === 'FY' ? '000004' : `00000${fp[1]}`}`,
    filedAt: `${fy + 1}-02-01`, dimensions, decimals: '-6',
  });
  for (let y = 0; y < years; y += 1) {
    const fy = 2024 - y;
    const start = `${fy - 1}-01-01`;
    const quarterEnds = [`${fy - 1}-03-31`, `${fy - 1}-06-30`, `${fy - 1}-09-30`];
    const end = `${fy - 1}-12-31`;
    facts.push(fact('Revenues', 4000 + y, start, end, fy, 'FY'), fact('NetIncomeLoss', 400 + y, start, end, fy, 'FY'), fact('Assets', 9000 + y, null, end, fy, 'FY'));
    facts.push(fact('Revenues', 3000 + y, start, end, fy, 'FY', { 'srt:ProductOrServiceAxis': 'x:WidgetsMember' }), fact('Revenues', 1000, start, end, fy, 'FY', { 'srt:ProductOrServiceAxis': 'x:GadgetsMember' }));
    quarterEnds.forEach((qEnd, q) => {
      const qStart = q === 0 ? start : `${fy - 1}-${String(q * 3 + 1).padStart(2, '0')}-01`;
      facts.push(fact('Revenues', 1000 + y, qStart, qEnd, fy, `Q${q + 1}`), fact('NetIncomeLoss', 100 + y, qStart, qEnd, fy, `Q${q + 1}`), fact('Assets', 9000 + q, null, qEnd, fy, `Q${q + 1}`));
    });
  }
  return facts;
}

describe('financial reads', () => {
  const small = '0000000101';
  const large = '0000000102';
  beforeAll(async () => {
    const { prisma } = t.service.services;
    for (const [cik, years] of [[small, 2], [large, 30]] as const) await prisma.$transaction((tx) => loadFacts(withinTransaction(tx), filingHistory(cik, years), [], 'companyfacts'), { timeout: 60_000 });
  });

  async function statementsOf(path: string) {
    statements = 0;
    const answer = await call(t, 'GET', path, { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { statements, body: answer.body };
  }

  it.each([
    ['facts of one tag', (cik: string) => `/v1/facts?cik=${cik}&tag=Revenues&limit=100`],
    ['a stitched line item', (cik: string) => `/v1/facts?cik=${cik}&tag=revenue&limit=100`],
    ['annual statements', (cik: string) => `/v1/statements/all?cik=${cik}&limit=40`],
    ['quarterly statements', (cik: string) => `/v1/statements/all?cik=${cik}&period=quarterly&limit=40`],
    ['segments', (cik: string) => `/v1/companies/segments?cik=${cik}`],
  ])('%s: as many statements for 30 years of filings as for 2', async (_name, path) => {
    // the key's first use in a minute also records lastUsedAt (loading 30 years of facts can take that long)
    await statementsOf(path(small));
    const few = await statementsOf(path(small));
    const many = await statementsOf(path(large));
    expect(JSON.stringify(many.body).length).toBeGreaterThan(JSON.stringify(few.body).length); // the large company's answer holds more
    expect(many.statements).toBe(few.statements);
  });
});
