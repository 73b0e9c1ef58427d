// An ingest replaces a company's statements in steps of its own (derived/financials.ts): the new
// periods are staged beside the stored ones, which reads go on answering, and published in one
// short transaction. A replacement cut short leaves nothing a read sees, and the next drops it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinancials, dropStaged, materializeFinancials, publishStaged, stagePeriods, statementFacts } from '../derived/financials.ts';
import { loadFacts } from '../ingest/load/facts.ts';
import { withinTransaction } from '../ingest/handlers.ts';
import { parseCompanyFacts } from '../ingest/parsers/xbrl/companyFacts.ts';
import { fixture } from './corpus.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
const cik = '0000000001';

beforeAll(async () => {
  t = await startIsolatedService({ requestCacheTtlMs: 0 });
  ({ key } = await orgWithKey(t, 'staged statements', 'team'));
  const { prisma } = t.service.services;
  const { facts } = parseCompanyFacts(await fixture('xbrl/companyfacts-exact.json'));
  await prisma.$transaction(async (tx) => {
    await loadFacts(withinTransaction(tx), facts, [], 'companyfacts', 'Fixture Corp');
    await tx.ticker.create({ data: { ticker: 'FXTR', cik, source: 'company_tickers', name: 'Fixture Corp' } });
  }, { timeout: 60_000 });
});
afterAll(() => t?.close());

const periodEnds = async () => {
  const answer = await call(t, 'GET', '/v1/statements/all?ticker=FXTR&period=quarterly&limit=40', { key });
  expect(answer.status).toBe(200);
  return answer.body.periods.map((p: { periodEnd: string }) => p.periodEnd);
};

describe('statements replaced in steps', () => {
  it('are read as stored until the staged periods are published, then as staged', async () => {
    const { prisma } = t.service.services;
    await materializeFinancials(prisma, cik);
    const stored = await periodEnds();
    expect(stored.length).toBeGreaterThan(2);
    // a rebuild from fewer facts (the latest quarter's left out): fewer periods, staged a few at a time
    const latest = stored[0];
    const facts = (await statementFacts(prisma, cik)).filter((f) => f.periodEnd < latest);
    const built = await buildFinancials(cik, facts);
    await dropStaged(prisma, cik);
    for (let i = 0; i < built.periods.length; i += 3) await stagePeriods(prisma, cik, built.periods.slice(i, i + 3));
    expect(await periodEnds()).toEqual(stored);
    await publishStaged(prisma, cik, built);
    expect(await periodEnds()).toEqual(stored.slice(1));
    expect(await prisma.statementPeriod.count({ where: { cik } })).toBe(built.periods.length);
  });

  it('leave nothing a read sees when cut short, and the next replacement drops what was staged', async () => {
    const { prisma } = t.service.services;
    const before = await periodEnds();
    const built = await buildFinancials(cik, await statementFacts(prisma, cik));
    await stagePeriods(prisma, cik, built.periods); // and no publish: the load stopped here
    expect(await periodEnds()).toEqual(before);
    await dropStaged(prisma, cik);
    for (let i = 0; i < built.periods.length; i += 5) await stagePeriods(prisma, cik, built.periods.slice(i, i + 5));
    await publishStaged(prisma, cik, built);
    expect((await periodEnds()).length).toBe(before.length + 1);
    expect(await prisma.statementPeriod.count({ where: { cik } })).toBe(built.periods.length);
  });
});
