// The real corpus (../shared/data), ingested once, read back through REST and GraphQL: exact
// values as filed, each with the filing it came from. Expected numbers are the ones printed in
// the corpus files themselves.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest, type IngestSummary } from '../../ingest/run.ts';
import { parseCompanyFacts } from '../../ingest/parsers/xbrl/companyFacts.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';

describe.runIf(hasCorpus)('the SEC corpus, ingested', { timeout: 60_000 }, () => {
  let t: TestService;
  let key: string;
  let summary: IngestSummary;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    database = await scratchDatabase();
    t = await startTestService({ database: database.target });
    ({ key } = await orgWithKey(t, 'Corpus readers', 'team')); // more reads than the starter plan allows a minute
    summary = await runIngest(t.service.services, folderSource(corpusDir));
  }, 600_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('loads every file, the 25 market files too; only TLT\'s junk ticker row is left out', () => {
    expect(summary).toMatchObject({ read: 111, written: 111, partial: 1, failed: 0, skipped: 0 });
  });

  it('keeps a proxy statement\'s pay-versus-performance values as filed', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: '{ forms(family: "PROXY", first: 5) { nodes { formType cik data entity { name } } } }' } });
    const [cabot] = answer.body.data.forms.nodes;
    expect(cabot).toMatchObject({ formType: 'DEF 14A', cik: '0000016040' });
    expect(cabot.data.payVersusPerformance).toContainEqual(expect.objectContaining({ tag: 'PeoTotalCompAmt', value: '7791510', periodEnd: '2023-09-30' }));
  });

  /** A tool's structured answer over MCP, as an agent calls it. */
  const mcpTool = async (name: string, args: Record<string, unknown>) => {
    const answer = await call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
    expect(answer.body.result?.isError, JSON.stringify(answer.body).slice(0, 300)).toBeFalsy();
    return answer.body.result.structuredContent;
  };

  it('answers Apple\'s revenue line with the tags Apple used, each period citing its own tag and filing', async () => {
    const answer = await get('/v1/facts?ticker=AAPL&tag=revenue&form=10-K&limit=100');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ requestedTag: 'revenue', resolvedTag: 'RevenueFromContractWithCustomerExcludingAssessedTax', resolution: 'alias' });
    expect(answer.body.resolvedTags).toEqual(expect.arrayContaining(['us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 'us-gaap:Revenues']));
    expect(answer.body.facts).toContainEqual(
      expect.objectContaining({ tag: 'RevenueFromContractWithCustomerExcludingAssessedTax', value: '391035000000', periodEnd: '2024-09-28', accessionNumber: '0000320193-24-000123', filedAt: '2024-11-01', citationUrl: 'https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm' }),
    );
    expect(new Set(answer.body.facts.map((f: { tag: string }) => f.tag)).size).toBeGreaterThan(1); // stitched across the tags Apple used over time
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: '{ facts(ticker: "AAPL", tag: "revenue", form: "10-K", limit: 100) { resolvedTag facts { value periodEnd accessionNumber } } }' } });
    expect(graphql.body.data.facts.facts).toEqual(answer.body.facts.map((f: { value: string; periodEnd: string; accessionNumber: string }) => ({ value: f.value, periodEnd: f.periodEnd, accessionNumber: f.accessionNumber })));
  });

  it('tells a quarter from nine months ending the same day: Apple\'s revenue to 2024-06-29 by duration and period start', async () => {
    const series = async (query: string) => ((await get(`/v1/facts?ticker=AAPL&tag=revenue&form=10-Q&period_from=2024-06-29&period_to=2024-06-29&${query}`)).body.facts as { periodStart: string; value: string }[]).map((f) => [f.periodStart, f.value]);
    expect(new Set((await series('duration=3m')).map(String))).toEqual(new Set([['2024-03-31', '85777000000'].join()]));
    expect(new Set((await series('duration=9m')).map(String))).toEqual(new Set([['2023-10-01', '296105000000'].join()]));
    expect(await series('duration=instant')).toEqual([]);
    expect(new Set((await series('period_start=2024-03-31')).map(String))).toEqual(new Set([['2024-03-31', '85777000000'].join()]));
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: '{ facts(ticker: "AAPL", tag: "revenue", form: "10-Q", periodFrom: "2024-06-29", periodTo: "2024-06-29", duration: nine_months) { facts { periodStart value } } }' } });
    expect(graphql.body.data.facts.facts[0]).toEqual({ periodStart: '2023-10-01', value: '296105000000' });
    const viaMcp = await mcpTool('facts_get', { ticker: 'AAPL', tag: 'revenue', form: '10-Q', period_from: '2024-06-29', period_to: '2024-06-29', duration: '9m' });
    expect(JSON.stringify(viaMcp)).toContain('296105000000');
    expect(JSON.stringify(viaMcp)).not.toContain('85777000000');
    expect((await get('/v1/facts?ticker=AAPL&tag=revenue&duration=5m')).status).toBe(400);
  });

  it('statements show restated values as latest by default, or as first reported: Apple FY2019 diluted EPS across the 2020 split', async () => {
    const eps = async (query: string) => {
      const answer = await get(`/v1/statements/all?ticker=AAPL&limit=8${query}`);
      expect(answer.status).toBe(200);
      const fy2019 = answer.body.periods.find((p: { fiscalYear: number }) => p.fiscalYear === 2019);
      return { asReported: answer.body.asReported, line: fy2019.income.find((l: { key: string }) => l.key === 'epsDiluted') };
    };
    const latest = await eps('');
    expect(latest).toMatchObject({ asReported: 'latest', line: { value: '2.97', restatedFrom: { value: '11.89', accessionNumber: '0000320193-19-000119' } } });
    const first = await eps('&as_reported=first');
    expect(first).toMatchObject({ asReported: 'first', line: { value: '11.89', restatedFrom: null, restatedTo: { value: '2.97', accessionNumber: '0000320193-20-000096' } } });
    expect((await get('/v1/statements/all?ticker=AAPL&as_reported=original')).status).toBe(400);
    // an agent asks the same through MCP
    const asFiled = JSON.stringify(await mcpTool('statements_get', { ticker: 'AAPL', limit: 8, as_reported: 'first' }));
    expect(asFiled).toContain('11.89');
  });

  describe('facts are what was filed, under the tag asked for', () => {
    it('an explicit tag the issuer reports is answered with that tag, never another', async () => {
      const domestic = await get('/v1/facts?cik=1640147&tag=us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic&form=10-K&limit=100');
      expect(domestic.body).toMatchObject({ resolution: 'exact', resolvedTag: 'IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic' });
      expect(domestic.body.facts).toContainEqual(expect.objectContaining({ periodEnd: '2021-01-31', value: '-544700000', tag: 'IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic' }));
      const accretion = await get('/v1/facts?ticker=AAPL&tag=us-gaap:DepreciationAmortizationAndAccretionNet&fy=2017&fp=FY&limit=100');
      expect(accretion.body.resolution).toBe('exact');
      expect(accretion.body.facts.map((f: { value: string }) => f.value)).toContain('10157000000');
      expect(accretion.body.facts.map((f: { value: string }) => f.value)).not.toContain('8200000000');
    });

    it('Apple\'s Revenues facts are reachable as Revenues, with no false explanation', async () => {
      const answer = await get('/v1/facts?cik=320193&tag=us-gaap:Revenues&period_from=2018-09-29&period_to=2018-09-29&limit=100');
      expect(answer.body.resolution).toBe('exact');
      expect(answer.body.explanation).not.toMatch(/not as Revenues/);
      expect(answer.body.facts).toContainEqual(expect.objectContaining({ value: '62900000000', periodStart: '2018-07-01', periodEnd: '2018-09-29', accessionNumber: '0000320193-18-000145' }));
    });

    it('older facts are reachable: cursor pages and period filters', async () => {
      const old = await get('/v1/facts?ticker=AAPL&tag=NetIncomeLoss&period_from=2010-12-25&period_to=2010-12-25&limit=100');
      expect(old.body.facts).toContainEqual(expect.objectContaining({ value: '6004000000', periodStart: '2010-09-26', periodEnd: '2010-12-25', accessionNumber: '0001193125-11-282113' }));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await get(`/v1/facts?ticker=AAPL&tag=NetIncomeLoss&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.facts.map((f: { accessionNumber: string; periodStart: string; periodEnd: string }) => `${f.accessionNumber}|${f.periodStart}|${f.periodEnd}`));
        cursor = page.body.nextCursor;
        expect(page.body.hasMore).toBe(cursor !== null);
      } while (cursor);
      expect(seen.length).toBeGreaterThan(100);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain('0001193125-11-282113|2010-09-26|2010-12-25');
      expect((await get('/v1/facts?ticker=AAPL&tag=NetIncomeLoss&cursor=bm90LW91cnM')).body.details.parameter).toBe('cursor');
    });

    it('a company of which no facts are held is not_covered, not not_reported', async () => {
      const msft = await get('/v1/facts?ticker=MSFT&tag=Revenues');
      expect(msft.status).toBe(200);
      expect(msft.body).toMatchObject({ resolution: 'not_covered', facts: [] });
      expect(msft.body.explanation).toMatch(/holds no XBRL facts/);
      expect((await get('/v1/facts?ticker=AAPL&tag=NoSuchTagEver')).body.resolution).toBe('not_reported');
    });

    it('serves 500 seeded random companyfacts rows of all five companies exactly', async () => {
      const reader = await orgWithKey(t, 'Accuracy audit', 'team');
      const { prisma } = t.service.services;
      const classes = await prisma.meterClass.findMany();
      await prisma.orgQuota.createMany({ data: classes.flatMap((c) => (['minute', 'hour', 'day'] as const).map((period) => ({ orgId: reader.orgId, meterClass: c.key, period, limit: 1_000_000 }))) });
      const files = (await readdir(path.join(corpusDir, 'companyfacts'))).filter((f) => f.endsWith('.json')).sort();
      expect(files).toHaveLength(5);
      const rows = (await Promise.all(files.map(async (f) => parseCompanyFacts(await readFile(path.join(corpusDir, 'companyfacts', f), 'utf8')).facts))).flat();
      let state = 20261123; // a fixed seed: the same 500 rows every run
      const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
      const sample = Array.from({ length: 500 }, () => rows[Math.floor(random() * rows.length)]!);
      const counts = { exact: 0, different: 0, unreachable: 0 };
      const misses: string[] = [];
      for (const row of sample) {
        const query = new URLSearchParams({ cik: row.cik, tag: `${row.taxonomy}:${row.tag}`, unit: row.unit, period_from: row.periodEnd, period_to: row.periodEnd, limit: '100' });
        if (row.fy) query.set('fy', String(row.fy));
        if (row.fp) query.set('fp', row.fp);
        if (row.form) query.set('form', row.form);
        const answer = await call(t, 'GET', `/v1/facts?${query}`, { key: reader.key });
        const same = (f: Record<string, unknown>) => f.accessionNumber === row.accessionNumber && f.periodStart === row.periodStart && f.periodEnd === row.periodEnd;
        const served = (answer.body.facts ?? []).filter(same);
        const exact = served.find((f: Record<string, unknown>) => f.value === row.value && f.filedAt === row.filedAt && f.form === row.form && f.fy === row.fy && f.fp === row.fp && f.tag === row.tag);
        if (exact) counts.exact++;
        else {
          counts[served.length ? 'different' : 'unreachable']++;
          misses.push(`${row.cik} ${row.taxonomy}:${row.tag} ${row.periodStart}..${row.periodEnd} ${row.value} ${row.accessionNumber}`);
        }
      }
      console.log(`companyfacts accuracy: ${counts.exact} exact, ${counts.different} different, ${counts.unreachable} unreachable of ${sample.length}`);
      expect(misses).toEqual([]);
    }, 300_000);
  });

  describe('forms and events are what the filings say', () => {
    it('a placement agent is not shown as an underwriter: Traws\'s 424B4 in /v1/events/ipo', async () => {
      const answer = await get('/v1/events/ipo?limit=100');
      const traws = answer.body.data.find((e: { accessionNumber: string }) => e.accessionNumber === '0001104659-24-132924');
      expect(traws.data).toMatchObject({ underwriters: [], placementAgents: ['Tungsten Advisors'] });
    });

    it('a say-on-frequency vote keeps its own counts and its outcome', async () => {
      const answer = await get('/v1/events/voting-results?cik=1084869');
      const proposal = answer.body.data.flatMap((e: { data: { proposals: { number: number }[] } }) => e.data.proposals).find((p: { number: number }) => p.number === 4);
      expect(proposal).toMatchObject({ proposalType: 'say_on_frequency', outcome: 'three_years', abstain: 165134, frequency: { oneYear: 13768995, twoYears: 38167, threeYears: 275268419, selected: 3 } });
    });

    it('a record without a citation says why: the 8-K held without its accession number, the Form 144 document', async () => {
      const [vote] = (await get('/v1/events/voting-results?cik=1084869&view=compact')).body.data;
      expect(vote).toMatchObject({ accessionNumber: null, citationUrl: null, citationNullReason: expect.stringContaining('no accession number') });
      const notices = (await get('/v1/forms/144?limit=100')).body.data as { accessionNumber: string | null; citationUrl: string | null; citationNullReason: string | null }[];
      expect(notices.length).toBeGreaterThan(0);
      for (const notice of notices) {
        if (notice.citationUrl) expect(notice.citationNullReason).toBeNull();
        else expect(notice.citationNullReason).toMatch(/no accession number|specification sample/);
      }
      // an event whose filing is known cites it, whether or not its index was ingested
      const ipo = (await get('/v1/events/ipo?limit=100')).body.data.find((e: { accessionNumber: string }) => e.accessionNumber === '0001104659-24-132924');
      expect(ipo).toMatchObject({ citationNullReason: null, citationUrl: expect.stringContaining('/Archives/edgar/data/') });
    });

    it('a 13F document and the submission that contains it are one filing: MetLife counts once', async () => {
      const answer = await call(t, 'POST', '/graphql', { key, body: { query: '{ forms(family: "13F", cik: "1099219", first: 10) { nodes { id accessionNumber formType } } }' } });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.forms.nodes).toEqual([expect.objectContaining({ accessionNumber: '0001140361-23-013281' })]);
    });

    it('an ABS-15G\'s Rule 15Ga-1 items are not 8-K items: Fannie Mae\'s M&A signals are 8-K or merger filings only', async () => {
      const forms = new Set<string>();
      let cursor: string | null = null;
      do {
        const page = await get(`/v1/events/ma?cik=310522&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.status).toBe(200);
        for (const event of page.body.data) forms.add(event.form);
        cursor = page.body.nextCursor;
      } while (cursor);
      expect([...forms].filter((form) => !/^8-K|^S-4|^F-4|^DEFM|^PREM|^425$|^SC T|^SC 14D/.test(form))).toEqual([]);
      expect(forms.has('ABS-15G')).toBe(false);
    });
  });

  describe('statements are honest about precision, derivations and emptiness', () => {
    const fy = (body: { periods: { fiscalYear: number; fiscalPeriod: string; income: { key: string }[] }[] }, year: number, period: string) => body.periods.find((p) => p.fiscalYear === year && p.fiscalPeriod === period)!;
    const lineOf = (lines: { key: string }[], key: string) => lines.find((l) => l.key === key) as Record<string, any>;

    it('a later filing that only rounds a figure is not a restatement: the precise first-filed value stands', async () => {
      const answer = await get('/v1/statements/all?ticker=MRVL&limit=6');
      expect(answer.status).toBe(200);
      const revenue = lineOf(fy(answer.body, 2022, 'FY').income, 'revenue');
      expect(revenue.value).toBe('4462383000');
      expect(revenue.restatedFrom).toBeNull();
    });

    it('Q4 is FY minus the reported nine-month year-to-date, and says so', async () => {
      const answer = await get('/v1/statements/all?ticker=NVDA&period=quarterly&limit=12');
      const gross = lineOf(fy(answer.body, 2025, 'Q4').income, 'grossProfit');
      expect(gross).toMatchObject({ value: '28723000000', derived: true, derivation: { formula: 'FY − 9M YTD' } });
    });

    it('an empty bundle says why, with its coverage', async () => {
      const lpa = await get('/v1/statements/all?ticker=LPA&period=quarterly');
      expect(lpa.body.periods).toEqual([]);
      expect(lpa.body.reason).toMatch(/no quarterly reports/);
      expect(lpa.body.reason).toMatch(/20-F/);
      expect(lpa.body.coverage.factsHeld).toBeGreaterThan(0);
      const msft = await get('/v1/statements/all?ticker=MSFT');
      expect(msft.body.periods).toEqual([]);
      expect(msft.body.reason).toMatch(/^not_covered/);
      expect(msft.body.coverage).toMatchObject({ factsHeld: 0, note: expect.stringMatching(/does not establish/) });
    });
  });

  it('normalizes statements: FY2024 as filed, Q4 derived and flagged, a missing line says why', async () => {
    const annual = await get('/v1/statements/all?ticker=AAPL&period=annual&limit=3');
    const fy2024 = annual.body.periods.find((p: { fiscalYear: number }) => p.fiscalYear === 2024);
    const revenue = fy2024.income.find((l: { key: string }) => l.key === 'revenue');
    expect(revenue).toMatchObject({ value: '391035000000', derived: false, missing: null, fact: { accessionNumber: '0000320193-24-000123' } });
    const netIncome = annual.body.periods.find((p: { fiscalYear: number }) => p.fiscalYear === 2023).income.find((l: { key: string }) => l.key === 'netIncome');
    expect(netIncome.value).toBe('96995000000');

    const quarterly = await get('/v1/statements/all?ticker=AAPL&period=quarterly&limit=12');
    const q4 = quarterly.body.periods.find((p: { fiscalYear: number; fiscalPeriod: string }) => p.fiscalYear === 2024 && p.fiscalPeriod === 'Q4');
    expect(q4.income.find((l: { key: string }) => l.key === 'revenue')).toMatchObject({ value: '94930000000', derived: true });
    const nvidia = await get('/v1/statements/all?ticker=NVDA&period=annual&limit=1');
    const lines = nvidia.body.periods[0].income.concat(nvidia.body.periods[0].balanceSheet, nvidia.body.periods[0].cashFlow);
    for (const line of lines.filter((l: { value: string | null }) => l.value === null)) expect(['not_reported', 'not_covered', 'not_derivable']).toContain(line.missing);
  });

  it('breaks Apple\'s revenue down by product as the 10-K reports it', async () => {
    const segments = await get('/v1/companies/segments?ticker=AAPL');
    const product = segments.body.axes.find((a: { kind: string }) => a.kind === 'product');
    expect(product.confidence).toBe('reported');
    const fy2024 = product.periods.find((p: { periodEnd: string }) => p.periodEnd === '2024-09-28');
    expect(fy2024.members.find((m: { member: string }) => m.member === 'aapl:IPhoneMember')).toMatchObject({ revenue: '201183000000', yoyGrowth: '0.0030' });
  });

  it('says plainly when the latest 10-K\'s document is not ingested, and serves the ingested one by accession', async () => {
    const latest = await get('/v1/filings/latest/sections/item_1a?ticker=NVDA');
    expect(latest.status).toBe(404);
    expect(latest.body).toMatchObject({
      code: 'section_not_found',
      details: { reason: 'document_not_ingested', latestFiling: { accessionNumber: '0001045810-26-000021' }, ingestedFilingWithSection: { accessionNumber: '0001045810-25-000023' } },
    });
    const riskFactors = await get('/v1/filings/0001045810-25-000023/sections/item_1a?view=agent');
    expect(riskFactors.status).toBe(200);
    expect(riskFactors.body).toMatchObject({ key: 'item_1a', title: 'Risk Factors', truncated: true, filing: { accessionNumber: '0001045810-25-000023', form: '10-K' } });
    expect(riskFactors.body.charCount).toBeGreaterThan(100_000);
  });

  it('reaches every ingested filing\'s sections through GraphQL', async () => {
    const documents = await t.service.services.prisma.filing.findMany({ where: { form: { in: ['10-K', '10-Q'] }, documentSourceKey: { not: null } }, select: { accessionNumber: true } });
    expect(documents.length).toBe(4);
    for (const { accessionNumber } of documents) {
      const answer = await call(t, 'POST', '/graphql', { key, body: { query: `{ filing(accessionNumber: "${accessionNumber}") { documentIngested sections { key charCount } } }` } });
      expect(answer.body.data.filing.documentIngested).toBe(true);
      expect(answer.body.data.filing.sections.length).toBeGreaterThanOrEqual(11);
    }
  });

  it('serves Form D offering amounts as filed', async () => {
    const list = await get('/v1/forms/d?limit=10');
    expect(list.body.data).toHaveLength(3);
    const shepherds = list.body.data.find((f: { companyName: string }) => f.companyName === 'Shepherd\'s Finance, LLC');
    expect(shepherds).toMatchObject({ formType: 'D/A', cik: '0001544190' });
    const one = await get(`/v1/forms/d/${shepherds.id}`);
    expect(one.body.data).toMatchObject({ totalOfferingAmount: 8000000, totalAmountSold: 5725051, totalRemaining: 2274949, federalExemptions: ['06b'], totalNumberAlreadyInvested: 13 });
    // the notice is signed 2023-01-31 but states no filing date, and its accession is unknown
    expect(one.body.filedAt).toBeNull();
    expect(one.body.data).toMatchObject({ signatureDate: '2023-01-31', filedAtReason: expect.stringMatching(/states no filing date/) });
    expect((await get('/v1/forms/d/0000000000-00-000000')).body.code).toBe('form_not_found');
  });

  it('serves 8-K officer changes, voting results per proposal and restatements', async () => {
    const meta = await get('/v1/events/officer-changes?ticker=META');
    expect(meta.body.data[0]).toMatchObject({ accessionNumber: '0001628280-25-058337', item: '5.02', fromIndexOnly: false, data: { changes: [expect.objectContaining({ person: 'Dina Powell McCormick', change: 'departure' })] } });
    const blackrock = await get('/v1/events/officer-changes?cik=1364742');
    expect(JSON.stringify(blackrock.body.data)).toContain('Martin Small');

    const votes = await get('/v1/events/voting-results?meeting_type=annual');
    const flowers = votes.body.data.find((e: { companyName: string }) => /FLOWERS/i.test(e.companyName));
    const elmore = flowers.data.proposals.find((p: { nominee?: string }) => p.nominee?.includes('Elmore'));
    expect(elmore).toMatchObject({ for: 277367302, withheld: 11873413, brokerNonVotes: 3936780 });
    expect((await get('/v1/events/voting-results?meeting_type=special')).body.data).toEqual([]);

    const restatements = await get('/v1/events/restatements?cik=1173313');
    expect(restatements.body.data[0].data.periodEnds).toEqual(['2023-12-31']);
  });

  it('knows auditor changes from the filing index even without the documents', async () => {
    const alzamend = await get('/v1/events/auditor-changes?cik=1677077');
    expect(alzamend.body.data).toContainEqual(expect.objectContaining({ item: '4.01', fromIndexOnly: true, filedAt: '2024-05-09' }));
  });

  it('lists offering candidates, Form 144, Form C and N-CEN with their values; samples only on request', async () => {
    const ipo = await get('/v1/events/ipo?limit=100');
    expect(ipo.body.data.map((e: { data: { offeringType?: string; sharesOffered?: number } }) => e.data)).toContainEqual(expect.objectContaining({ sharesOffered: 608197, pricePerShare: 5.103 }));
    const f144 = await get('/v1/forms/144');
    expect(f144.body.data).toHaveLength(1);
    expect(JSON.stringify(f144.body.data[0].data)).toContain('69996');
    expect((await get('/v1/forms/144?include_samples=true')).body.data).toHaveLength(3);
    expect((await get('/v1/forms/c?limit=100')).body.data).toHaveLength(6);
    expect((await get('/v1/forms/ncen')).body.data.map((f: { companyName: string }) => f.companyName).sort()).toEqual(expect.arrayContaining([expect.stringMatching(/AB Active ETFs/i)]));
    expect((await get('/v1/forms/npx')).body.data).toEqual([]);
    expect((await get('/v1/forms/npx?include_samples=true')).body.data.length).toBeGreaterThan(0);
  });

  it('answers an empty list with the coverage it searched, never a claim that nothing was disclosed', async () => {
    for (const route of ['/v1/forms/1-a', '/v1/events/enforcement', '/v1/filings?ticker=AAPL&form=S-4']) {
      const answer = await get(route);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual([]);
      expect(answer.body.coverage.note).toMatch(/does not establish/);
    }
  });

  it('resolves entities and pages filings newest accepted first', async () => {
    expect((await get('/v1/entities/resolve?identifier=AAPL')).body).toMatchObject({ matchedBy: 'ticker', confidence: 1, entity: { cik: '0000320193', name: 'Apple Inc.' } });
    expect((await get('/v1/entities/resolve?identifier=320193')).body).toMatchObject({ matchedBy: 'cik', entity: { cik: '0000320193' } });
    expect((await get('/v1/entities/resolve?identifier=no%20such%20company%20zz')).body.code).toBe('entity_not_found');
    const page = await get('/v1/filings?ticker=AAPL&limit=50');
    const accepted = page.body.data.map((f: { acceptedAt: string }) => f.acceptedAt);
    expect(accepted).toEqual([...accepted].sort().reverse());
    const next = await get(`/v1/filings?ticker=AAPL&limit=50&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(next.body.data[0].acceptedAt <= accepted.at(-1)).toBe(true);
    expect((await get('/v1/filings?filed_from=2024-02-30')).body.code).toBe('invalid_request_parameter');
    expect((await get('/v1/filings?limit=101')).body.details.parameter).toBe('limit');
  });

  describe('entity resolution, honest where sources disagree', () => {
    it('BLK: both ticker maps are heard; the best match says it is disputed and names the other', async () => {
      const answer = await get('/v1/entities/resolve?identifier=BLK');
      expect(answer.status).toBe(200);
      expect(answer.body.entity.cik).toBe('0001364742'); // BlackRock Inc., which filed the 8-K the service holds
      expect(answer.body.confidence).toBeLessThan(1);
      expect(answer.body.reason).toMatch(/disagree/);
      expect(answer.body.sources.map((s: { source: string }) => s.source)).toContain('company_tickers');
      expect(answer.body.entity.tickers).toContain('BLK');
      expect(answer.body.alternatives).toContainEqual(expect.objectContaining({ entity: expect.objectContaining({ cik: '0002012383' }), sources: [expect.objectContaining({ source: 'company_tickers_exchange' })] }));
    });

    it('a read by ticker covers every CIK the ticker has named: BlackRock\'s CFO change is found by BLK', async () => {
      const answer = await get('/v1/events/officer-changes?ticker=BLK');
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body.data)).toMatch(/Small/);
      expect(answer.body.data.map((e: { cik?: string; accessionNumber?: string }) => e.accessionNumber)).toContain('0001193125-23-048785');
    });

    it('takes ticker= and cik= as synonyms, and the usual forms of a CIK and of a class ticker', async () => {
      for (const query of ['ticker=AAPL', 'cik=320193', 'identifier=CIK0000320193', 'identifier=0000320193']) {
        expect((await get(`/v1/entities/resolve?${query}`)).body.entity?.cik, query).toBe('0000320193');
      }
      for (const written of ['BRK.B', 'BRK-B', 'BRK/B', 'brk.b']) {
        expect((await get(`/v1/entities/resolve?identifier=${encodeURIComponent(written)}`)).body.entity?.cik, written).toBe('0001067983');
      }
    });

    it('ranks Apple Inc. first for "Apple", and does not take a bare digit for a name', async () => {
      const apple = await get('/v1/entities/resolve?identifier=Apple');
      expect(apple.body.entity.cik).toBe('0000320193');
      expect((await get('/v1/entities/resolve?identifier=0')).status).toBe(404);
    });

    it('finds an entity by ticker in /v1/entities, the ticker\'s entity first, with its tickers', async () => {
      const blk = await get('/v1/entities?q=BLK');
      expect(blk.body.data.map((e: { cik: string }) => e.cik)).toEqual(expect.arrayContaining(['0001364742', '0002012383']));
      const lpa = await get('/v1/entities?q=LPA');
      expect(lpa.body.data[0]).toMatchObject({ cik: '0001997711', name: 'Logistic Properties of the Americas' });
      expect(lpa.body.data[0].tickers).toContain('LPA');
      expect((await get('/v1/entities/resolve?identifier=LPA')).body.entity.tickers).toContain('LPA');
    });

    it('an identifier that names no entity is 404 entity_not_found on every route', async () => {
      for (const route of ['/v1/facts?ticker=ZZZZZQ&tag=Revenues', '/v1/filings?ticker=ZZZZZQ', '/v1/forms/d?ticker=ZZZZZQ', '/v1/events/voting-results?ticker=ZZZZZQ', '/v1/filings?cik=9999999999', '/v1/statements/all?ticker=ZZZZZQ', '/v1/entities/resolve?identifier=ZZZZZQ']) {
        const answer = await get(route);
        expect(answer.status, route).toBe(404);
        expect(answer.body.code, route).toBe('entity_not_found');
      }
    });
  });
});

describe.runIf(hasCorpus)('an ingest over HTTP from an SEC-like server', { timeout: 120_000 }, () => {
  it('fetches a ticker with the declared User-Agent and loads it', async () => {
    const { startSecServer } = await import('../support/secServer.ts');
    const { sourceFor } = await import('../../ingest/sources/index.ts');
    const sec = await startSecServer();
    const database = await scratchDatabase();
    const t = await startTestService({ database: database.target });
    try {
      const source = sourceFor({ source: sec.url, tickers: ['AAPL'], indexDates: ['2020-03-18'], userAgent: 'Investor Data Service tests tests@example.com' }, t.service.services);
      const summary = await runIngest(t.service.services, source);
      expect(summary.written).toBeGreaterThanOrEqual(4);
      expect(sec.requests.map((r) => r.path)).toContain('/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx');
      // a filing of that day's form index (edgar/data/1000045/0001564590-20-011991.txt)
      expect(await t.service.services.prisma.filing.count({ where: { filedAt: new Date('2020-03-18T00:00:00Z') } })).toBeGreaterThan(1000);
      expect(sec.requests.every((r) => r.userAgent === 'Investor Data Service tests tests@example.com')).toBe(true);
      const { key } = await orgWithKey(t);
      const revenue = await call(t, 'GET', '/v1/facts?ticker=AAPL&tag=revenue&form=10-K', { key });
      expect(revenue.body.facts.length).toBeGreaterThan(0);
      expect(() => sourceFor({ source: sec.url, tickers: ['AAPL'] }, t.service.services)).toThrow(/User-Agent/);
    } finally {
      await t.close();
      await database.drop();
      await sec.close();
    }
  });
});
