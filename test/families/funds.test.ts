// The funds family against the real corpus: N-CEN fund series with their auditor and service
// providers, N-PORT portfolios whose holdings and totals are checked against the XML itself.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import type { Source } from '../../ingest/sources/types.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { corpusDir, corpusFile, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const corpusKeys = [
  'forms/ncen/N-CEN_0001410368-26-010918_AB-Active-ETFs.txt',
  'forms/ncen/N-CEN_0001410368-26-010921_AB-Cap-Fund.txt',
  'forms/nport/NPORT-P_AdvancedSeries.xml',
  'forms/nport/NPORT-P_Dupree.xml',
];

const subset: Source = {
  describe: () => 'funds corpus subset',
  async *items() {
    for (const key of corpusKeys) yield { key, name: key.split('/').pop()!, read: () => readFile(path.join(corpusDir, key), 'utf8') };
  },
};

/** The texts of an element, trimmed, in document order. */
const textsOf = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`, 'g'))].map((m) => m[1]!);
/** The investments of an N-PORT document, each as its own XML text. */
const investmentsOf = (xml: string) => [...xml.matchAll(/<invstOrSec>([\s\S]*?)<\/invstOrSec>/g)].map((m) => m[1]!);

function expectCited(rows: { accessionNumber: unknown; citationUrl: unknown; citationNullReason?: unknown }[]) {
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row).toHaveProperty('accessionNumber');
    expect(row).toHaveProperty('citationUrl');
    if (row.citationUrl === null) expect(row.citationNullReason ?? 'compact view').toBeTruthy();
    else expect(row.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/\d+\/\d{18}\//);
  }
}

describe.runIf(hasCorpus)('funds: N-CEN series and N-PORT portfolios', { timeout: 60_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Fund readers', 'team'));
    const summary = await runIngest(t.service.services, subset);
    expect(summary).toMatchObject({ failed: 0 });
  }, 300_000);
  afterAll(() => t?.close());

  it('a registrant\'s funds from its N-CEN: series, classes, auditor and service providers as filed', async () => {
    const file = await corpusFile('forms/ncen/N-CEN_0001410368-26-010921_AB-Cap-Fund.txt');
    const names = textsOf(file, 'mgmtInvFundName');
    const answer = await get('/v1/funds?cik=81443');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.map((f: { name: string }) => f.name)).toEqual([...names].sort());
    const china = answer.body.data.find((f: { seriesId: string }) => f.seriesId === textsOf(file, 'mgmtInvSeriesId')[0]);
    expect(china).toMatchObject({
      object: 'fund',
      name: names[0],
      registrantCik: '0000081443',
      registrantName: 'AB CAP FUND, INC.',
      isEtf: false,
      classes: expect.arrayContaining([expect.objectContaining({ name: 'Class A', ticker: 'ACEAX' })]),
      accessionNumber: '0001410368-26-010921',
      filedAt: '2026-02-12',
      formType: 'N-CEN',
    });
    expect(china.citationUrl).toContain('/81443/000141036826010921/');
    expect(china.auditors).toEqual([expect.objectContaining({ name: textsOf(file, 'publicAccountantName')[0]!.replace('&amp;', '&') })]);
    expect(china.serviceProviders.investmentAdvisers.map((a: { name: string }) => a.name)).toEqual([textsOf(file, 'investmentAdviserName')[0]]);
    expect(china.serviceProviders.administrators.map((a: { name: string }) => a.name)).toEqual([textsOf(file, 'adminName')[0]]);
    expect(china.serviceProviders.transferAgents.map((a: { name: string }) => a.name)).toEqual(['AllianceBernstein Investor Services, Inc.']);
    expect(china.serviceProviders.custodians.length).toBeGreaterThan(1);
    expectCited(answer.body.data);
  });

  it('finds a fund by class ticker, by words of its name, and walks every series without duplicates', async () => {
    const byTicker = await get('/v1/funds?ticker=CAM');
    expect(byTicker.status).toBe(200);
    expect(byTicker.body.data).toEqual([expect.objectContaining({ name: 'AB California Intermediate Municipal ETF', seriesId: 'S000093944', isEtf: true, etf: expect.objectContaining({ exchanges: [{ exchange: 'ARCX', ticker: 'CAM' }], creationUnitShares: 50000 }) })]);
    const byName = await get('/v1/funds?q=buffer%20etf');
    expect(byName.body.data.map((f: { name: string }) => f.name)).toEqual(['AB Conservative Buffer ETF', 'AB International Buffer ETF', 'AB Moderate Buffer ETF']);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/v1/funds?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      expectCited(page.body.data);
      seen.push(...page.body.data.map((f: { id: string }) => f.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    const etfs = await corpusFile('forms/ncen/N-CEN_0001410368-26-010918_AB-Active-ETFs.txt');
    const cap = await corpusFile('forms/ncen/N-CEN_0001410368-26-010921_AB-Cap-Fund.txt');
    // the N-CENs' series, and the two series only an N-PORT names (Dupree's and Advanced Series Trust's)
    expect(seen).toHaveLength(textsOf(etfs, 'mgmtInvSeriesId').length + textsOf(cap, 'mgmtInvSeriesId').length + 2);
    expect(seen).toEqual(expect.arrayContaining(['S000012000', 'S000030880']));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('an N-PORT holding\'s value, identifiers and percent of net assets are the XML\'s', async () => {
    const file = await corpusFile('forms/nport/NPORT-P_Dupree.xml');
    const investments = investmentsOf(file);
    const first = investments[0]!;
    const answer = await get('/v1/funds/S000012000/holdings?limit=100');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toHaveLength(investments.length);
    expect(answer.body.data[0]).toMatchObject({
      object: 'fund_holding',
      position: 1,
      sourceField: 'invstOrSecs/invstOrSec[1]',
      name: textsOf(first, 'name')[0]!.replace('&amp;', '&'),
      identifiers: { cusip: textsOf(first, 'cusip')[0], isin: first.match(/<isin value="([^"]+)"/)![1], lei: null },
      balance: Number(textsOf(first, 'balance')[0]),
      units: 'PA',
      valueUsd: Number(textsOf(first, 'valUSD')[0]),
      percentOfNetAssets: Number(textsOf(first, 'pctVal')[0]),
      assetCategory: 'DBT',
      assetCategoryLabel: 'Debt',
      issuerCategory: 'MUN',
      issuerCategoryLabel: 'Municipal',
      debt: expect.objectContaining({ maturityDate: '2028-08-01', couponKind: 'Fixed' }),
    });
    expect(answer.body.data[0].valueUsd).toBe(794207.15);
    // every row's value is the one its own <invstOrSec> states
    expect(answer.body.data.map((h: { valueUsd: number }) => h.valueUsd)).toEqual(investments.map((i) => Number(textsOf(i, 'valUSD')[0])));
    expect(answer.body.fund).toMatchObject({
      seriesId: 'S000012000',
      seriesName: 'Kentucky Tax-Free Short-to-Medium Series',
      registrantCik: '0000311101',
      reportDate: '2022-12-31',
      totalAssets: Number(textsOf(file, 'totAssets')[0]),
      totalLiabilities: Number(textsOf(file, 'totLiabs')[0]),
      netAssets: Number(textsOf(file, 'netAssets')[0]),
      holdingsCount: investments.length,
      accessionNumber: null,
      citationUrl: null,
    });
    expect(answer.body.fund.netAssets).toBe(41349926.01);
    expect(answer.body.fund.citationNullReason).toMatch(/no accession number/);
    expect(answer.body.fund.filedAtNullReason).toMatch(/no filing date/);
    expectCited(answer.body.data);
  });

  it('a series known only from its N-PORT is listed with what that report says, and nothing it does not', async () => {
    const answer = await get('/v1/funds?cik=311101');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      expect.objectContaining({
        source: 'N-PORT',
        seriesId: 'S000012000',
        name: 'Kentucky Tax-Free Short-to-Medium Series',
        registrantName: 'Dupree Mutual Funds',
        investmentCompanyFileNumber: '811-02918',
        classes: [{ classId: 'C000032728', name: null, ticker: null }],
        isEtf: null,
        fundTypes: [],
        citationNullReason: expect.stringMatching(/no accession number/),
      }),
    ]);
    // a series an N-CEN describes is listed once, from the N-CEN
    const all = await get('/v1/funds?limit=100');
    const ids = all.body.data.map((f: { id: string }) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.body.data.filter((f: { source: string }) => f.source === 'N-CEN').length).toBeGreaterThan(0);
  });

  it('the query form names the fund by registrant; pages do not repeat', async () => {
    const byCik = await get('/v1/funds/holdings?cik=311101&limit=20');
    expect(byCik.status).toBe(200);
    expect(byCik.body.fund.seriesId).toBe('S000012000');
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/v1/funds/holdings?cik=311101&series_id=S000012000&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      ids.push(...page.body.data.map((h: { id: string }) => h.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(ids).toHaveLength(55);
    expect(new Set(ids).size).toBe(55);
    const debt = await get('/v1/funds/S000012000/holdings?asset_category=EC');
    expect(debt.body.data).toEqual([]);
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: '{ fundHoldings(seriesId: "S000012000", first: 1) { fund { netAssets } nodes { valueUsd cusip } } }' } });
    expect(graphql.body.data.fundHoldings).toEqual({ fund: { netAssets: 41349926.01 }, nodes: [{ valueUsd: 794207.15, cusip: '49151FGH7' }] });
  });

  it('a final report with no investments keeps its totals', async () => {
    const file = await corpusFile('forms/nport/NPORT-P_AdvancedSeries.xml');
    const answer = await get('/v1/funds/S000030880/holdings');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.fund).toMatchObject({ isFinalFiling: true, holdingsCount: investmentsOf(file).length, netAssets: Number(textsOf(file, 'netAssets')[0]), totalAssets: Number(textsOf(file, 'totAssets')[0]) });
  });

  it('views keep the citation', async () => {
    for (const view of ['compact', 'agent']) {
      const funds = await get(`/v1/funds?cik=81443&view=${view}`);
      expectCited(funds.body.data);
      const holdings = await get(`/v1/funds/S000012000/holdings?view=${view}`);
      expectCited(holdings.body.data);
      expect(holdings.body.data[0].identifiers.cusip).toBe('49151FGH7');
    }
  });

  it('unknown funds are 404; bad parameters the 400 envelope', async () => {
    expectEnvelope(await get('/v1/funds/S999999999/holdings'), 404, 'fund_not_found');
    expectEnvelope(await get('/v1/funds/holdings?cik=9999999999'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/funds?cik=9999999999'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/funds?ticker=NOSUCHFUND'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/funds/holdings?cik=81443'), 404, 'fund_not_found'); // files N-CEN, no N-PORT held
    expectEnvelope(await get('/v1/funds/holdings'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/funds/S000012000/holdings?report_date=2020-01-31'), 404, 'fund_not_found');
    expect((await get('/v1/funds/12345/holdings')).status).toBe(400);
    expect((await get('/v1/funds/S000012000/holdings?report_date=2022-02-30')).status).toBe(400);
    expect((await get('/v1/funds?limit=500')).status).toBe(400);
    expectEnvelope(await get('/v1/funds?cursor=bm9wZTox'), 400, 'invalid_query_parameter');
  });

  it('every funds route is an MCP tool', async () => {
    const funds = routes.filter((r) => r.path.startsWith('/v1/funds'));
    expect(funds.map((r) => r.name).sort()).toEqual(['fund_letters_get', 'fund_letters_list', 'funds_holdings_list', 'funds_list', 'funds_series_holdings_list']);
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    for (const route of funds) expect(tools).toContain(route.name);
    const called = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'funds_series_holdings_list', arguments: { series_id: 'S000012000', limit: 1 } } }),
    });
    const result = ((await called.json()) as { result: { structuredContent: { data: { valueUsd: number }[] } } }).result;
    expect(result.structuredContent.data.map((h) => h.valueUsd)).toEqual([794207.15]);
  });
});
