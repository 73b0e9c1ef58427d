// The advisers family against the real corpus: the four 13F filers with their quarters' totals
// and largest positions summed from the information tables themselves (ACTIAM's and Bull Street's
// reported in thousands), the managers MetLife's 13F names, and AllianceBernstein, which the two
// N-CENs name as adviser of every series by CRD, SEC file number and LEI but never by CIK. The
// directory is kept under the data version, which is itself kept like the other reads of ingested
// data: an ingest this instance hears of shows at once, one it hears no notice of within the TTL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { createEventBus } from '../../subscriptions/bus.ts';
import { createLogger } from '../../core/logger.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type Answer, type TestService } from '../harness.ts';

const thirteenF = {
  metlife: { cik: '0001099219', file: 'forms/13f/13F-HR_0001140361-23-013281_MetLife.txt', accession: '0001140361-23-013281', thousands: false },
  actiam: { cik: '0001619124', file: 'forms/13f/13F-HR_0001619124-21-000002_ACTIAM.txt', accession: '0001619124-21-000002', thousands: true },
  bullStreet: { cik: '0001790837', file: 'forms/13f/13F-HR_0001790837-23-000002_Bull-Street-Advisors.txt', accession: '0001790837-23-000002', thousands: true },
  acornCreek: { cik: '0001994827', file: 'forms/13f/13F-HR_0001951757-25-000093.nc', accession: '0001951757-25-000093', thousands: false },
};
const ncens = {
  etfs: { file: 'forms/ncen/N-CEN_0001410368-26-010918_AB-Active-ETFs.txt', accession: '0001410368-26-010918' },
  cap: { file: 'forms/ncen/N-CEN_0001410368-26-010921_AB-Cap-Fund.txt', accession: '0001410368-26-010921' },
};

/** The texts of an element, with or without a namespace prefix, trimmed, in document order. */
const textsOf = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<(?:\\w+:)?${tag}>\\s*([^<]*?)\\s*</(?:\\w+:)?${tag}>`, 'g'))].map((m) => m[1]!.replace(/&amp;/g, '&'));
/** The information table rows of a 13F submission, each as its own XML text. */
const rowsOf = (xml: string) => [...xml.matchAll(/<(?:\w+:)?infoTable>([\s\S]*?)<\/(?:\w+:)?infoTable>/g)].map((m) => m[1]!);
/** MM-DD-YYYY as YYYY-MM-DD. */
const isoOf = (date: string) => `${date.slice(6)}-${date.slice(0, 2)}-${date.slice(3, 5)}`;

function expectCitation(row: { accessionNumber: string | null; citationUrl: string | null; citationNullReason: string | null }) {
  if (row.citationUrl === null) expect(row.citationNullReason).toBeTruthy();
  else expect(row.citationUrl).toMatch(new RegExp(`^https://www\\.sec\\.gov/Archives/edgar/data/\\d+/${row.accessionNumber!.replace(/-/g, '')}/`));
}

/** Long enough for an ingest of one file to be read back inside it, short enough to wait out. */
const ttlMs = 3_000;

/** ACTIAM's report as another manager's: its own CIK, accession, 13F file number and name. */
async function anotherManager(cik: string, fileNumber: string, name: string) {
  const text = (await corpusFile(thirteenF.actiam.file)).replaceAll('0001619124', cik).replaceAll('028-19140', fileNumber).replaceAll('ACTIAM N.V.', name);
  const key = `forms/13f/13F-HR_${cik}-21-000002_${name.split(' ')[0]}.txt`;
  return { describe: () => 'another manager', async *items() { yield { key, name: key.split('/').pop()!, read: () => Promise.resolve(text) }; } };
}

describe.runIf(hasCorpus)('advisers: 13F managers and N-CEN advisers', { timeout: 60_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });
  const gql = (query: string) => call(t, 'POST', '/graphql', { key, body: { query } });
  const mcp = (name: string, args: Record<string, unknown>) =>
    call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  /** The code of an MCP refusal: the tool's error result, or the JSON-RPC error of one refused before it ran. */
  const mcpCode = (answer: Answer): string | undefined => answer.body.error?.data?.code ?? (answer.body.result?.isError ? JSON.parse(answer.body.result.content[0].text).code : undefined);

  beforeAll(async () => {
    t = await startIsolatedService({ requestCacheTtlMs: ttlMs });
    ({ key } = await orgWithKey(t, 'Adviser readers', 'team'));
    const summary = await runIngest(t.service.services, corpusSubset(/^forms\/(13f|ncen)\//));
    expect(summary).toMatchObject({ failed: 0 });
  }, 300_000);
  afterAll(() => t?.close());

  it('lists every adviser and manager the filings name, by name, each citing the filing naming it', async () => {
    const answer = await get('/v1/advisers?limit=100');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const metlife = await corpusFile(thirteenF.metlife.file);
    // the four filing managers, the managers MetLife's cover and summary pages name, and the N-CENs' adviser
    const names = [
      ...(await Promise.all(Object.values(thirteenF).map(async (f) => textsOf(await corpusFile(f.file), 'name')[0]!))),
      ...new Set([...metlife.matchAll(/<otherManager>([\s\S]*?)<\/otherManager>/g)].flatMap((m) => textsOf(m[1]!, 'name'))),
      ...new Set(textsOf(await corpusFile(ncens.cap.file), 'investmentAdviserName')),
    ];
    const listed = answer.body.data.map((a: { name: string }) => a.name);
    for (const name of names) expect(listed).toContain(name);
    expect(listed).toEqual([...listed].sort((a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    for (const row of answer.body.data) {
      expect(row.object).toBe('adviser');
      expectCitation(row.source);
      expect(row.source.nameAsFiled).toBeTruthy();
      if (row.latest13f) expectCitation(row.latest13f);
      else expect(row.latest13fNullReason).toBeTruthy();
      if (!row.cik) expect(row.cikNullReason).toBeTruthy();
      if (!row.crd) expect(row.crdNullReason).toBeTruthy();
      if (!row.lei) expect(row.leiNullReason).toBeTruthy();
    }
    expect(answer.body.identityRule).toMatch(/never by CIK/);
  });

  it('each 13F filer\'s latest quarter: positions and total in dollars summed from its information table, thousands normalised', async () => {
    const answer = await get('/v1/advisers?has_13f=true&limit=100');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((a: { cik: string }) => a.cik).sort()).toEqual(Object.values(thirteenF).map((f) => f.cik).sort());
    for (const filer of Object.values(thirteenF)) {
      const file = await corpusFile(filer.file);
      const rows = rowsOf(file);
      const reported = rows.map((r) => Number(textsOf(r, 'value')[0]));
      const total = reported.reduce((sum, v) => sum + v, 0) * (filer.thousands ? 1000 : 1);
      const row = answer.body.data.find((a: { cik: string }) => a.cik === filer.cik);
      expect(row, filer.cik).toMatchObject({ id: filer.cik, roles: ['13f_filer'], profilePath: `/v1/advisers/${filer.cik}`, form13FFileNumber: textsOf(file, 'form13FFileNumber')[0] });
      expect(row.latest13f).toMatchObject({
        period: isoOf(textsOf(file, 'reportCalendarOrQuarter')[0]!),
        accessionNumber: filer.accession,
        positionsCount: rows.length,
        totalValueUsd: total,
        valueReportedInThousands: filer.thousands,
      });
      const declared = textsOf(file, 'tableValueTotal')[0];
      if (declared) expect(row.latest13f.tableValueTotalUsd).toBe(Number(declared) * (filer.thousands ? 1000 : 1));
    }
  });

  it('an adviser the N-CENs name without a CIK: found by CRD, file number, LEI or name, its profile by CRD lists every fund it advises', async () => {
    const cap = await corpusFile(ncens.cap.file);
    const etfs = await corpusFile(ncens.etfs.file);
    const [crd] = textsOf(cap, 'investmentAdviserCrdNo');
    const [fileNumber] = textsOf(cap, 'investmentAdviserFileNo');
    const [lei] = textsOf(cap, 'investmentAdviserLei');
    const advised = [cap, etfs].flatMap((xml) => textsOf(xml, 'investmentAdviserName').length === textsOf(xml, 'mgmtInvFundName').length ? textsOf(xml, 'mgmtInvFundName') : []);
    expect(advised).toHaveLength(textsOf(cap, 'mgmtInvFundName').length + textsOf(etfs, 'mgmtInvFundName').length);
    const ways = [`crd=${Number(crd)}`, `crd=${crd}`, `sec_file_number=${fileNumber}`, `lei=${lei}`, 'q=alliancebernstein', 'role=investment_adviser'];
    for (const way of ways) {
      const answer = await get(`/v1/advisers?${way}`);
      expect(answer.status, way).toBe(200);
      expect(answer.body.data, way).toHaveLength(1);
      expect(answer.body.data[0], way).toMatchObject({ id: `crd-${Number(crd)}`, cik: null, name: 'AllianceBernstein L.P.', crd, secFileNumber: fileNumber, lei, roles: ['investment_adviser'], fundsAdvisedCount: advised.length, fundsSubAdvisedCount: 0, latest13f: null, profilePath: `/v1/advisers/crd/${Number(crd)}` });
      expect(answer.body.data[0].cikNullReason).toMatch(/never by CIK/);
    }
    const profile = await get(`/v1/advisers/crd/${crd}`);
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    expect(profile.body.fundsAdvised.map((f: { fundName: string }) => f.fundName).sort()).toEqual([...advised].sort());
    const china = profile.body.fundsAdvised.find((f: { seriesId: string }) => f.seriesId === textsOf(cap, 'mgmtInvSeriesId')[0]);
    expect(china).toMatchObject({ fundName: textsOf(cap, 'mgmtInvFundName')[0], registrantCik: '0000081443', registrantName: 'AB CAP FUND, INC.', role: 'investment_adviser', accessionNumber: ncens.cap.accession, formType: 'N-CEN', filedAt: '2026-02-12' });
    expect(china.citationUrl).toContain('/81443/000141036826010921/');
    for (const fund of profile.body.fundsAdvised) expectCitation(fund);
    // one mention per N-CEN, naming it once per series
    expect(profile.body.mentions.map((m: { accessionNumber: string; timesNamed: number }) => [m.accessionNumber, m.timesNamed]).sort()).toEqual(
      [[ncens.etfs.accession, textsOf(etfs, 'mgmtInvFundName').length], [ncens.cap.accession, textsOf(cap, 'mgmtInvFundName').length]].sort(),
    );
    expect(profile.body).toMatchObject({ quarters: [], periodsAvailable: [] });
    expect(profile.body.quartersNullReason).toMatch(/CIK/);
  });

  it('a manager named on another\'s 13F, with the CRD and file number that page states, by CIK and by CRD alike', async () => {
    const metlife = await corpusFile(thirteenF.metlife.file);
    const crd = textsOf(metlife, 'crdNumber')[0]!;
    const secFileNumber = textsOf(metlife, 'secFileNumber')[0]!;
    const listed = await get(`/v1/advisers?crd=${crd}`);
    expect(listed.body.data).toHaveLength(1);
    const manager = listed.body.data[0];
    expect(manager).toMatchObject({ name: 'MetLife Investment Management, LLC', crd, secFileNumber, roles: ['13f_other_manager'], latest13f: null });
    expect(manager.cik).toMatch(/^\d{10}$/);
    expect(metlife).toContain(String(Number(manager.cik)));
    expect(manager.source).toMatchObject({ accessionNumber: thirteenF.metlife.accession, role: '13f_other_manager' });
    expect(manager.latest13fNullReason).toMatch(/no Form 13F it filed itself/);
    const byCik = await get(`/v1/advisers/${Number(manager.cik)}`);
    const byCrd = await get(`/v1/advisers/crd/${Number(crd)}`);
    expect(byCik.status).toBe(200);
    expect({ ...byCrd.body, requestId: null }).toEqual({ ...byCik.body, requestId: null });
    expect((await get(`/v1/advisers?sec_file_number=${secFileNumber}`)).body.data.map((a: { id: string }) => a.id)).toEqual([manager.id]);
  });

  it('a filer\'s profile: the quarter\'s largest positions with their share of the total, the rows cited', async () => {
    const file = await corpusFile(thirteenF.bullStreet.file);
    const rows = rowsOf(file).map((r, i) => ({ issuer: textsOf(r, 'nameOfIssuer')[0], cusip: textsOf(r, 'cusip')[0], usd: Number(textsOf(r, 'value')[0]) * 1000, row: i + 1 }));
    const total = rows.reduce((sum, r) => sum + r.usd, 0);
    const answer = await get('/v1/advisers/1790837?top=3');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ object: 'adviser', cik: thirteenF.bullStreet.cik, name: 'Bull Street Advisors, LLC', periodsAvailable: ['2022-12-31'], fundsAdvised: [], quartersNullReason: null });
    const [quarter] = answer.body.quarters;
    expect(quarter).toMatchObject({ period: '2022-12-31', positionsCount: rows.length, totalValueUsd: total, valueUnit: 'thousands', accessionNumber: thirteenF.bullStreet.accession, filings: [expect.objectContaining({ role: 'original', accessionNumber: thirteenF.bullStreet.accession })] });
    expect(quarter.valueUnitReason).toMatch(/thousands by evidence/);
    const largest = [...rows].sort((a, b) => b.usd - a.usd).slice(0, 3);
    expect(quarter.topHoldings.map((h: { cusip: string; valueUsd: number; sourceFields: string[] }) => [h.cusip, h.valueUsd, h.sourceFields])).toEqual(largest.map((r) => [r.cusip, r.usd, [`informationTable/infoTable[${r.row}]`]]));
    expect(quarter.topHoldings[0].percentOfTotal).toBe(Math.round((largest[0]!.usd / total) * 10_000) / 100);
    for (const h of quarter.topHoldings) expectCitation(h);
    const none = await get('/v1/advisers/1790837?top=0');
    expect(none.body.quarters[0].topHoldings).toEqual([]);
  });

  it('pages walk every adviser once; views keep the citation', async () => {
    const all = (await get('/v1/advisers?limit=100')).body.data.map((a: { name: string; id: string }) => `${a.name}|${a.id}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await get(`/v1/advisers?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((a: { name: string; id: string }) => `${a.name}|${a.id}`));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    for (const view of ['compact', 'agent']) {
      const answer = await get(`/v1/advisers?view=${view}`);
      expect(answer.status).toBe(200);
      for (const row of answer.body.data) expectCitation(row.source);
    }
    expect((await get('/v1/advisers?has_13f=false&q=metlife')).body.data.map((a: { name: string }) => a.name)).toEqual(['MetLife Investment Management, LLC']);
  });

  it('GraphQL and MCP answer what REST does', async () => {
    const rest = await get('/v1/advisers/1099219');
    expect(rest.status).toBe(200);
    const graphql = await gql('{ adviser(cik: "1099219") { name latest13f periodsAvailable } }');
    expect(graphql.body.data.adviser).toEqual({ name: rest.body.name, latest13f: rest.body.latest13f, periodsAvailable: rest.body.periodsAvailable });
    const tool = await mcp('advisers_get', { cik: '1099219', top: 2 });
    const result = tool.body.result.structuredContent;
    expect(result.quarters[0].totalValueUsd).toBe(rest.body.quarters[0].totalValueUsd);
    expect(result.quarters[0].topHoldings).toEqual(rest.body.quarters[0].topHoldings.slice(0, 2));
    const tools = (await call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } })).body.result.tools.map((x: { name: string }) => x.name);
    const ours = routes.filter((r) => r.path.startsWith('/v1/advisers'));
    expect(ours.map((r) => r.name).sort()).toEqual(['advisers_get', 'advisers_get_by_crd', 'advisers_list']);
    for (const route of ours) expect(tools).toContain(route.name);
  });

  it('every door refuses the same way: unknown adviser 404 adviser_not_found, bad parameters 400', async () => {
    expectEnvelope(await get('/v1/advisers/9999999999'), 404, 'adviser_not_found');
    expectEnvelope(await get('/v1/advisers/crd/1'), 404, 'adviser_not_found');
    // a known company that no 13F or N-CEN names as an adviser: the AB Cap Fund registrant
    expectEnvelope(await get('/v1/advisers/81443'), 404, 'adviser_not_found');
    expect(mcpCode(await mcp('advisers_get', { cik: '9999999999' }))).toBe('adviser_not_found');
    expect(mcpCode(await mcp('advisers_get_by_crd', { crd: '1' }))).toBe('adviser_not_found');
    const viaGraphql = await gql('{ adviser(cik: "9999999999") { name } }');
    expect(viaGraphql.body.errors[0].extensions.code).toBe('adviser_not_found');
    for (const bad of ['/v1/advisers/abc', '/v1/advisers/1099219?periods=0', '/v1/advisers/1099219?top=51', '/v1/advisers?role=owner', '/v1/advisers?has_13f=yes', '/v1/advisers?crd=12a', '/v1/advisers?lei=short', '/v1/advisers?limit=0', '/v1/advisers?q=a', '/v1/advisers?nope=1']) {
      const answer = await get(bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body, bad).toMatchObject({ object: 'error', code: expect.stringMatching(/^invalid_/) });
    }
    expectEnvelope(await get('/v1/advisers?cursor=bm9wZTox'), 400, 'invalid_query_parameter');
    // MCP refuses arguments failing a tool's schema as every tool does: 400, JSON-RPC -32602, validation_error
    const badTool = await mcp('advisers_list', { role: 'owner' });
    expect([badTool.status, mcpCode(badTool), badTool.body.error?.data?.parameter]).toEqual([400, 'validation_error', 'role']);
  });

  // last two: they add filers the tests above do not expect
  it('a filer this instance ingests is listed at once, though the directory and its data version are kept', async () => {
    const before = (await get('/v1/advisers?limit=100')).body.data;
    const name = 'Heard Of Asset Management N.V.';
    const run = await runIngest(t.service.services, await anotherManager('0009990303', '028-99303', name));
    expect(run).toMatchObject({ written: 1, failed: 0 });
    const after = (await get('/v1/advisers?limit=100')).body.data;
    expect(after.map((a: { id: string }) => a.id).sort()).toEqual([...before.map((a: { id: string }) => a.id), '0009990303'].sort());
    expect(after.find((a: { cik: string }) => a.cik === '0009990303')).toMatchObject({ name, roles: ['13f_filer'], form13FFileNumber: '028-99303' });
  });

  it('a filer another process ingests, with no notice reaching this instance, is listed once the TTL has passed', async () => {
    const before = (await get('/v1/advisers?limit=100')).body.data;
    const name = 'Unheard Of Asset Management N.V.';
    expect(before.map((a: { name: string }) => a.name)).not.toContain(name);
    const elsewhere = { prisma: t.service.services.prisma, bus: createEventBus(undefined, createLogger('silent')), logger: createLogger('silent') };
    const run = await runIngest(elsewhere, await anotherManager('0009990404', '028-99404', name));
    expect(run).toMatchObject({ written: 1, failed: 0 });
    await new Promise((resolve) => setTimeout(resolve, ttlMs));
    const after = (await get('/v1/advisers?limit=100')).body.data;
    expect(after.map((a: { id: string }) => a.id).sort()).toEqual([...before.map((a: { id: string }) => a.id), '0009990404'].sort());
    const actiamRow = after.find((a: { cik: string }) => a.cik === thirteenF.actiam.cik);
    const added = after.find((a: { cik: string }) => a.cik === '0009990404');
    expect(added).toMatchObject({ name, roles: ['13f_filer'], form13FFileNumber: '028-99404', source: { accessionNumber: '0009990404-21-000002', role: '13f_filer' } });
    expect({ ...added.latest13f, accessionNumber: null, citationUrl: null, filings: null }).toEqual({ ...actiamRow.latest13f, accessionNumber: null, citationUrl: null, filings: null });
  });
});
