// The ownership family against the real corpus: MetLife's 13F (6 holdings, 11,019,796 dollars),
// a thousands-era 13F normalised to dollars, the Marex 13G percent of class and the BML 13D,
// each value checked against the file's own text, every row cited. An issuer's 13F holders are
// the table rows naming it (by CUSIP or, for Apple, by name), each checked against the files.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import type { Source } from '../../ingest/sources/types.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { corpusDir, corpusFile, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const corpusKeys = [
  'forms/13f/13F-HR_0001140361-23-013281_MetLife.txt',
  'forms/13f/13F-HR_primarydoc_MetLife.xml',
  'forms/13f/13F-HR_0001619124-21-000002_ACTIAM.txt',
  'forms/13f/13F-HR_0001790837-23-000002_Bull-Street-Advisors.txt',
  'forms/13f/13F-HR_0001951757-25-000093.nc',
  'forms/13dg/SC13D_schedule13d.xml',
  'forms/13dg/SC13G_schedule13g.xml',
  // Apple's name and former names, which its holders' rows are matched by (no 13D/G of it is held)
  'submissions/CIK0000320193.json',
];

/** The 13F submissions ingested: the filing each is, and whether it reports values in thousands (filed before 2023). */
const tables13f = [
  { key: 'forms/13f/13F-HR_0001140361-23-013281_MetLife.txt', accession: '0001140361-23-013281', thousands: false },
  { key: 'forms/13f/13F-HR_0001619124-21-000002_ACTIAM.txt', accession: '0001619124-21-000002', thousands: true },
  { key: 'forms/13f/13F-HR_0001790837-23-000002_Bull-Street-Advisors.txt', accession: '0001790837-23-000002', thousands: true },
  { key: 'forms/13f/13F-HR_0001951757-25-000093.nc', accession: '0001951757-25-000093', thousands: false },
];

/** The information table rows of the 13F submissions that `keep` selects, as holders list them (id, dollars), largest value first. */
async function holdersIn(keep: (row: string) => boolean): Promise<{ id: string; valueUsd: number }[]> {
  const rows = await Promise.all(
    tables13f.map(async (t) =>
      [...(await corpusFile(t.key)).matchAll(/<(?:\w+:)?infoTable>([\s\S]*?)<\/(?:\w+:)?infoTable>/g)].map((m, i) => ({ row: m[1]!, id: `${t.accession}#${i + 1}`, valueUsd: Number(numberIn(m[1]!, 'value')[0]) * (t.thousands ? 1000 : 1) })),
    ),
  );
  return rows.flat().filter((r) => keep(r.row)).map(({ id, valueUsd }) => ({ id, valueUsd })).sort((a, b) => b.valueUsd - a.valueUsd || a.id.localeCompare(b.id));
}

/** The real 13D moved to a test issuer, original and a later amendment, to check the supersession rule. */
async function syntheticAmendments(): Promise<Record<string, string>> {
  const original = (await corpusFile('forms/13dg/SC13D_schedule13d.xml')).replace('<issuerCIK>0001422142</issuerCIK>', '<issuerCIK>0009990101</issuerCIK>');
  const amended = original
    .replace('<submissionType>SCHEDULE 13D</submissionType>', '<submissionType>SCHEDULE 13D/A</submissionType>')
    .replace('<dateOfEvent>12/31/2024</dateOfEvent>', '<dateOfEvent>03/14/2025</dateOfEvent><amendmentNo>1</amendmentNo>')
    .replace('<percentOfClass>8.5</percentOfClass>', '<percentOfClass>6.2</percentOfClass>')
    .replace('<percentOfClass>9.9</percentOfClass>', '<percentOfClass>7.6</percentOfClass>');
  return { 'forms/13dg/SC13D_test-issuer.xml': original, 'forms/13dg/SC13DA_test-issuer.xml': amended };
}

/** The real 13D moved to a test issuer whose stated CUSIP is Alphabet's class C: the 13F rows of either Alphabet class are its holders. */
const holderIssuer = { cik: '0009990202', cusip: '02079K305' };
async function holderStatement(): Promise<Record<string, string>> {
  const text = (await corpusFile('forms/13dg/SC13D_schedule13d.xml')).replace('<issuerCIK>0001422142</issuerCIK>', `<issuerCIK>${holderIssuer.cik}</issuerCIK>`).replace('<issuerCUSIP>00032Q104</issuerCUSIP>', `<issuerCUSIP>${holderIssuer.cusip}</issuerCUSIP>`);
  return { 'forms/13dg/SC13D_holder-issuer.xml': text };
}

function subsetSource(extra: Record<string, string>): Source {
  return {
    describe: () => 'ownership corpus subset',
    async *items() {
      for (const key of corpusKeys) yield { key, name: key.split('/').pop()!, read: () => readFile(path.join(corpusDir, key), 'utf8') };
      for (const [key, text] of Object.entries(extra)) yield { key, name: key.split('/').pop()!, read: () => Promise.resolve(text) };
    },
  };
}

/** The texts of an element, with or without a namespace prefix, trimmed. */
const numberIn = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<(?:\\w+:)?${tag}>\\s*([^<]*?)\\s*</(?:\\w+:)?${tag}>`, 'g'))].map((m) => m[1]!);

function expectCited(rows: { accessionNumber: unknown; citationUrl: unknown; citationNullReason?: unknown }[]) {
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row).toHaveProperty('accessionNumber');
    expect(row).toHaveProperty('citationUrl');
    if (row.citationUrl === null) expect(row.citationNullReason ?? 'compact view').toBeTruthy();
    else expect(row.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/\d+\/\d{18}\//);
  }
}

describe.runIf(hasCorpus)('ownership: 13F and Schedule 13D/G', { timeout: 60_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Ownership readers', 'team'));
    const summary = await runIngest(t.service.services, subsetSource({ ...(await syntheticAmendments()), ...(await holderStatement()) }));
    expect(summary).toMatchObject({ failed: 0 });
  }, 300_000);
  afterAll(() => t?.close());

  it('MetLife\'s 13F: 6 holdings totalling 11,019,796 dollars, each row as the information table has it', async () => {
    const file = await corpusFile('forms/13f/13F-HR_0001140361-23-013281_MetLife.txt');
    const values = numberIn(file, 'value').map(Number);
    const cusips = numberIn(file, 'cusip');
    const shares = numberIn(file, 'sshPrnamt').map(Number);
    expect(values).toHaveLength(6);
    expect(values.reduce((a, b) => a + b, 0)).toBe(11_019_796);
    expect(numberIn(file, 'tableValueTotal')).toEqual(['11019796']);

    const answer = await get('/v1/ownership/13f/holdings?manager_cik=1099219&period=2021-12-31');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { report, data } = answer.body;
    expect(report).toMatchObject({ managerCik: '0001099219', managerName: 'METLIFE INC', period: '2021-12-31', holdingsCount: 6, totalValueUsd: 11_019_796, tableValueTotalUsd: 11_019_796, valueUnit: 'dollars', valueReportedInThousands: false });
    expect(report.valueUnitReason).toMatch(/filed 2023-03-23, on or after 2023-01-03: dollars by rule/);
    expect(report.valueUnitRule).toMatch(/2023-01-03/);
    expect(report.filings).toEqual([expect.objectContaining({ accessionNumber: '0001140361-23-013281', role: 'original', citationUrl: expect.stringContaining('/1099219/000114036123013281/') })]);
    expect(data).toHaveLength(6);
    expect(data.map((h: { valueUsd: number }) => h.valueUsd)).toEqual(values);
    expect(data.map((h: { cusip: string }) => h.cusip)).toEqual(cusips);
    expect(data.map((h: { sharesOrPrincipalAmount: number }) => h.sharesOrPrincipalAmount)).toEqual(shares);
    expect(data[5]).toMatchObject({
      object: '13f_holding',
      position: 6,
      sourceField: 'informationTable/infoTable[6]',
      issuerName: 'SPDR S&P ETF TRUST',
      classTitle: 'COM',
      cusip: '78462F103',
      valueUsd: 4_245_201,
      valueAsReported: 4_245_201,
      sharesOrPrincipalType: 'SH',
      putCall: null,
      investmentDiscretion: 'DFND',
      votingAuthority: { sole: 0, shared: 9866, none: 0 },
      accessionNumber: '0001140361-23-013281',
    });
    expectCited(data);
  });

  it('a thousands-era 13F is normalised to dollars and says so', async () => {
    const file = await corpusFile('forms/13f/13F-HR_0001619124-21-000002_ACTIAM.txt');
    const reported = Number(numberIn(file, 'value')[0]);
    const answer = await get('/v1/ownership/13f/holdings?manager_cik=1619124');
    expect(answer.status).toBe(200);
    expect(answer.body.report).toMatchObject({ period: '2020-12-31', valueUnit: 'thousands', valueReportedInThousands: true });
    expect(answer.body.data[0]).toMatchObject({ issuerName: 'APPLE INC', cusip: '037833100', valueAsReported: reported, valueUsd: reported * 1000, valueReportedInThousands: true });
    // filed after the cutover, yet in thousands: the rows' prices override the date rule
    const bull = await get('/v1/ownership/13f/filings?manager_cik=1790837');
    expect(bull.body.data[0]).toMatchObject({ filedAt: '2023-02-28', valueUnit: 'thousands', valueReportedInThousands: true, totalValueAsReported: 192767, totalValueUsd: 192_767_000 });
    expect(bull.body.data[0].valueUnitReason).toMatch(/thousands by evidence/);
  });

  it('lists a manager\'s 13F filings with their summary pages, cited', async () => {
    const answer = await get('/v1/ownership/13f/filings?manager_cik=1099219');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(1); // the standalone primary document is the same filing, not a second one
    expect(answer.body.data[0]).toMatchObject({
      object: '13f_filing',
      id: '0001140361-23-013281',
      formType: '13F-HR',
      periodOfReport: '2021-12-31',
      filedAt: '2023-03-23',
      reportType: '13F COMBINATION REPORT',
      isAmendment: false,
      holdingsCount: 6,
      tableEntryTotal: 6,
      totalValueUsd: 11_019_796,
      valueReportedInThousands: false,
    });
    expect(answer.body.data[0].otherManagers).toContainEqual(expect.objectContaining({ cik: '0001529735', name: 'MetLife Investment Management, LLC', list: 'other_reporting_manager' }));
    expectCited(answer.body.data);
  });

  it('pages through a 77-row information table without duplicates', async () => {
    const file = await corpusFile('forms/13f/13F-HR_0001951757-25-000093.nc');
    const cusips = numberIn(file, 'cusip');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(`/v1/ownership/13f/holdings?manager_cik=1994827&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      expectCited(page.body.data);
      seen.push(...page.body.data.map((h: { id: string }) => h.id));
      cursor = page.body.nextCursor;
      expect(page.body.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(cusips.length);
    expect(new Set(seen).size).toBe(seen.length);
    const one = await get(`/v1/ownership/13f/holdings?manager_cik=1994827&cusip=${cusips[0]}`);
    expect(one.body.data.every((h: { cusip: string }) => h.cusip === cusips[0])).toBe(true);
  });

  it('a period with no report held is an empty list that says why', async () => {
    const answer = await get('/v1/ownership/13f/holdings?manager_cik=1099219&period=2019-03-31');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.report.holdingsNullReason).toMatch(/2019-03-31/);
    expect(answer.body.report.periodsAvailable).toEqual(['2021-12-31']);
  });

  it('the Marex 13G: percent of class as the cover pages and Item 4 state it', async () => {
    const file = await corpusFile('forms/13dg/SC13G_schedule13g.xml');
    const coverPercents = numberIn(file, 'classPercent'); // two cover pages, then Item 4
    expect(coverPercents).toEqual(['5.1', '5.1', '5.08']);
    const answer = await get('/v1/ownership/beneficial-owners?cik=1909747');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.map((o: { ownerName: string }) => o.ownerName).sort()).toEqual(['Marex Group plc', 'Marex Securities Products Inc.']);
    for (const owner of answer.body.data) {
      expect(owner).toMatchObject({
        object: 'beneficial_owner',
        schedule: '13G',
        formType: 'SCHEDULE 13G',
        issuerName: 'Jushi Holdings Inc.',
        issuerCusip: '48213Y107',
        percentOfClass: Number(coverPercents[0]),
        aggregateAmountOwned: 10_000_000,
        soleVotingPower: 10_000_000,
        sharedVotingPower: 0,
        soleDispositivePower: 10_000_000,
        sharedDispositivePower: 0,
        eventDate: '2025-11-19',
        rulesDesignated: ['Rule 13d-1(c)'],
        purpose: null,
        item4: expect.objectContaining({ percentOfClass: coverPercents[2], amountBeneficiallyOwned: '10000000' }),
        accessionNumber: null,
        citationUrl: null,
        amendments: [],
      });
      expect(owner.purposeNullReason).toMatch(/13G has no purpose item/);
      expect(owner.citationNullReason).toMatch(/no accession number/);
    }
    expect(answer.body.supersessionRule).toMatch(/supersedes/);
  });

  it('the BML 13D: powers per reporting person and the Item 4 purpose', async () => {
    const file = await corpusFile('forms/13dg/SC13D_schedule13d.xml');
    const answer = await get('/v1/ownership/beneficial-owners?cik=1422142');
    expect(answer.status).toBe(200);
    const [first, second] = answer.body.data;
    // largest percent first
    expect(first).toMatchObject({ ownerName: 'Leonard Braden Michael', ownerCik: '0001373603', percentOfClass: 9.9, aggregateAmountOwned: 2_435_000, soleVotingPower: 335_000, sharedVotingPower: 2_100_000, schedule: '13D' });
    expect(second).toMatchObject({ ownerName: 'BML Investment Partners, L.P.', percentOfClass: 8.5, aggregateAmountOwned: 2_100_000, sharedDispositivePower: 2_100_000, sourceOfFunds: ['WC'] });
    expect(numberIn(file, 'percentOfClass')).toEqual(['8.5', '9.9']);
    expect(first.purpose).toMatch(/^The Reporting Persons purchased the Common Stock reported hereunder for investment purposes/);
    expect(file).toContain(first.purpose.slice(0, 120));
    expect(first.coReportingPersons).toEqual(['BML Investment Partners, L.P.']);
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: '{ beneficialOwners(cik: "1422142", first: 5) { nodes { ownerName percentOfClass } } }' } });
    expect(graphql.body.data.beneficialOwners.nodes).toEqual([{ ownerName: 'Leonard Braden Michael', percentOfClass: 9.9 }, { ownerName: 'BML Investment Partners, L.P.', percentOfClass: 8.5 }]);
  });

  it('a 13D/A supersedes the reporting person\'s earlier statement, which stays as history', async () => {
    const answer = await get('/v1/ownership/beneficial-owners?cik=9990101');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(2);
    const leonard = answer.body.data.find((o: { ownerCik: string }) => o.ownerCik === '0001373603');
    expect(leonard).toMatchObject({ formType: 'SCHEDULE 13D/A', isAmendment: true, amendmentNumber: 1, eventDate: '2025-03-14', percentOfClass: 7.6 });
    expect(leonard.amendments).toEqual([expect.objectContaining({ formType: 'SCHEDULE 13D', eventDate: '2024-12-31', percentOfClass: 9.9 })]);
  });

  it('views keep the citation; pages of owners do not repeat', async () => {
    for (const view of ['compact', 'agent']) {
      const answer = await get(`/v1/ownership/beneficial-owners?cik=1422142&view=${view}`);
      expect(answer.status).toBe(200);
      expectCited(answer.body.data);
      const holdings = await get(`/v1/ownership/13f/holdings?manager_cik=1099219&view=${view}`);
      expectCited(holdings.body.data);
      expect(holdings.body.data[0].sourceField).toBe('informationTable/infoTable[1]');
    }
    const first = await get('/v1/ownership/beneficial-owners?cik=1422142&limit=1');
    const second = await get(`/v1/ownership/beneficial-owners?cik=1422142&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(first.body.hasMore).toBe(true);
    expect(second.body.hasMore).toBe(false);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it('an issuer\'s 13F holders: every information-table row whose CUSIP has the issuer number its 13D states, largest value first, cited', async () => {
    // the rows of the held tables with Alphabet's issuer number (either class), read from the files themselves
    const issuerNumber = holderIssuer.cusip.slice(0, 6);
    const tables = await Promise.all(corpusKeys.filter((k) => k.startsWith('forms/13f/') && !k.includes('primarydoc')).map((k) => corpusFile(k)));
    const expected = tables.flatMap((text) => numberIn(text, 'cusip').filter((c) => c.toUpperCase().startsWith(issuerNumber)));
    expect(new Set(expected).size).toBe(2);
    const page = await get(`/v1/ownership/13f/holders?cik=${holderIssuer.cik}&limit=100`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body).toMatchObject({ object: 'list', issuerCik: holderIssuer.cik, issuerCusips: [holderIssuer.cusip], managersRead: 4, hasMore: false });
    expect(page.body.data.map((h: { cusip: string }) => h.cusip).sort()).toEqual([...expected].sort());
    expect(page.body.data.map((h: { id: string; valueUsd: number }) => ({ id: h.id, valueUsd: h.valueUsd }))).toEqual(await holdersIn((row) => numberIn(row, 'cusip')[0]!.toUpperCase().startsWith(issuerNumber)));
    expect(page.body.data.every((h: { matchedBy: string; object: string }) => h.matchedBy === 'cusip' && h.object === 'institutional_holder')).toBe(true);
    const values = page.body.data.map((h: { valueUsd: number }) => h.valueUsd);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expectCited(page.body.data);
    // the same rows as each manager's holdings list them
    const [one] = page.body.data;
    const holdings = await get(`/v1/ownership/13f/holdings?manager_cik=${one.managerCik}&cusip=${one.cusip}`);
    expect(holdings.body.data.map((h: { id: string; valueUsd: number }) => ({ id: h.id, valueUsd: h.valueUsd }))).toContainEqual({ id: one.id, valueUsd: one.valueUsd });
    // an issuer no held table lists is an empty list, not an error
    const none = await get('/v1/ownership/13f/holders?cik=1422142');
    expect(none.body).toMatchObject({ data: [], hasMore: false, managersRead: 4 });
    expectEnvelope(await get('/v1/ownership/13f/holders?ticker=NOSUCHCO'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/ownership/13f/holders'), 400, 'invalid_query_parameter');
  });

  it('an issuer no Schedule 13D/G states a CUSIP for: its holders are the rows naming it ("APPLE INC", "Apple Inc."), cited, paged', async () => {
    const expected = await holdersIn((row) => /^\s*apple inc\.?\s*$/i.test(numberIn(row, 'nameOfIssuer')[0]!));
    expect(expected.length).toBeGreaterThan(1);
    const page = await get('/v1/ownership/13f/holders?cik=320193&limit=100');
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body).toMatchObject({ issuerCik: '0000320193', issuerCusips: [], managersRead: 4, hasMore: false });
    expect(page.body.data.map((h: { id: string; valueUsd: number }) => ({ id: h.id, valueUsd: h.valueUsd }))).toEqual(expected);
    expect(page.body.data.every((h: { matchedBy: string; cusip: string; sourceField: string; id: string }) => h.matchedBy === 'name' && h.cusip === '037833100' && h.sourceField === `informationTable/infoTable[${h.id.split('#')[1]}]`)).toBe(true);
    expectCited(page.body.data);
    // pages walk the same rows
    const first = await get('/v1/ownership/13f/holders?cik=320193&limit=1');
    expect(first.body).toMatchObject({ hasMore: true, data: [page.body.data[0]] });
    const second = await get(`/v1/ownership/13f/holders?cik=320193&limit=100&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.data).toEqual(page.body.data.slice(1));
  });

  it('unknown identifiers are 404 entity_not_found; bad parameters the 400 envelope', async () => {
    expectEnvelope(await get('/v1/ownership/13f/holdings?manager_cik=9999999999'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/ownership/13f/filings?manager_cik=9999999999'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/ownership/beneficial-owners?ticker=NOSUCHCO'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/ownership/beneficial-owners'), 400, 'invalid_query_parameter');
    expect((await get('/v1/ownership/13f/holdings')).status).toBe(400);
    expect((await get('/v1/ownership/13f/holdings?manager_cik=abc')).status).toBe(400);
    expect((await get('/v1/ownership/13f/holdings?manager_cik=1099219&period=2021-13-01')).status).toBe(400);
    expect((await get('/v1/ownership/13f/holdings?manager_cik=1099219&limit=0')).status).toBe(400);
    expectEnvelope(await get('/v1/ownership/13f/holdings?manager_cik=1099219&cursor=bm9wZTox'), 400, 'invalid_query_parameter');
    expect((await get('/v1/ownership/beneficial-owners?cik=1422142&schedule=13X')).status).toBe(400);
  });

  it('every ownership route is an MCP tool', async () => {
    const ownership = routes.filter((r) => r.path.startsWith('/v1/ownership'));
    expect(ownership.map((r) => r.name).sort()).toEqual(['ownership_13f_filings_list', 'ownership_13f_holders_list', 'ownership_13f_holdings_list', 'ownership_beneficial_owners_list']);
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    for (const route of ownership) expect(tools).toContain(route.name);
    const called = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ownership_13f_holdings_list', arguments: { manager_cik: '1099219', limit: 2 } } }),
    });
    const result = ((await called.json()) as { result: { structuredContent: { data: { valueUsd: number }[] } } }).result;
    expect(result.structuredContent.data.map((h) => h.valueUsd)).toEqual([2_049_983, 598_969]);
  });
});
