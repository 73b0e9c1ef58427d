// A list never costs one SQL statement per row: the statements a list query sends are the same
// in number for 10 parents and for 1,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  t = await startTestService({ database: database.target, graphqlMaxCost: 100_000 }, { onQuery: () => void statements++ });
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
    await call(t, 'GET', '/v1/filings?form=8-K&limit=1', { key }); // the key's first use also records lastUsedAt
    statements = 0;
    await call(t, 'GET', '/v1/filings?form=8-K&limit=1', { key });
    const one = statements;
    statements = 0;
    const page = await call(t, 'GET', '/v1/filings?form=8-K&limit=100', { key });
    expect(page.body.data).toHaveLength(100);
    expect(statements).toBe(one);
    statements = 0;
    await call(t, 'GET', '/v1/events/officer-changes?limit=100', { key });
    const events = statements;
    statements = 0;
    await call(t, 'GET', '/v1/events/officer-changes?limit=2', { key });
    expect(statements).toBe(events);
  });
});
