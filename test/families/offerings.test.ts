// Offerings against the real corpus files: registered offerings, Form D and Form C,
// values checked against the files' own text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import type { Source } from '../../ingest/sources/types.ts';
import { corpusDir, corpusFile, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/|forms\/formd\/|forms\/formc\/|filings\/offerings\/|submissions\/CIK0001796129)/;
function subset(pattern: RegExp): Source {
  const all = folderSource(corpusDir);
  return {
    describe: () => `${all.describe()} (${pattern})`,
    async *items() {
      for await (const item of all.items()) if (pattern.test(item.key)) yield item;
    },
  };
}

const xml = (text: string, tag: string) => text.match(new RegExp(`<${tag}>([^<]*)</${tag}>`))?.[1] ?? null;

describe.runIf(hasCorpus)('offerings', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Offering readers', 'team'));
    await runIngest(t.service.services, subset(wanted));
  }, 600_000);
  afterAll(() => t?.close());

  it('lists every offering filing across forms, each with provenance, walking pages without duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await get(`/v1/offerings?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      for (const row of answer.body.data) {
        seen.push(row.id);
        expect(row).toHaveProperty('accessionNumber');
        expect(row.sourceDocument).toMatch(/^(forms|filings)\//);
        if (row.accessionNumber) expect(row.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\//);
        else expect(row.citationNullReason).toMatch(/no accession number/);
      }
      cursor = answer.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(17); // 8 registered, 3 Form D, 6 Form C
  });

  it('gives a Form D\'s total offering amount and amount sold as its file states them, with the exemptions claimed', async () => {
    const text = await corpusFile('forms/formd/D_CIK0001544190_Shepherds-Finance.xml');
    const answer = await get('/v1/offerings?cik=1544190');
    expect(answer.status).toBe(200);
    const [notice] = answer.body.data;
    expect(notice).toMatchObject({ regime: 'reg_d', offeringType: 'reg_d', formType: 'D/A', filingRole: 'notice_amendment', isAmendment: true, issuer: { cik: '0001544190', name: 'Shepherd\'s Finance, LLC' } });
    expect(notice.amountOffered).toBe(Number(xml(text, 'totalOfferingAmount')));
    expect(notice.amountSold).toBe(Number(xml(text, 'totalAmountSold')));
    expect(notice.amountOffered).toBe(8000000);
    expect(notice.exemptions).toEqual([{ code: '06b', description: 'Rule 506(b)' }]);
    expect(notice.previousAccessionNumber).toBe(xml(text, 'previousAccessionNumber'));
    expect(notice.date).toBe('2023-01-31');
    expect(notice.dateField).toBe('signatureDate');
    const fund = (await get('/v1/offerings?cik=1958740')).body.data[0];
    expect(fund.exemptions.map((e: { code: string }) => e.code)).toEqual(['06b', '3C.1']);
    expect(fund.exemptions[1].description).toBe('Investment Company Act Section 3(c)(1)');
  });

  it('gives a Form C\'s target and maximum offering amounts and price as filed', async () => {
    const text = await corpusFile('forms/formc/C_Pickleball-Etc-LLC.xml');
    const cik = xml(text, 'filerCik')!;
    const answer = await get(`/v1/offerings?cik=${Number(cik)}&type=reg_cf`);
    expect(answer.status).toBe(200);
    const [offering] = answer.body.data;
    expect(offering).toMatchObject({ regime: 'reg_cf', formType: 'C', filingRole: 'offering_statement', exemptions: [{ code: '4(a)(6)' }] });
    expect(offering.targetAmount).toBe(Number(xml(text, 'offeringAmount')));
    expect(offering.amountOffered).toBe(Number(xml(text, 'maximumOfferingAmount')));
    expect(offering.pricePerUnit).toBe(Number(xml(text, 'price')));
    expect(offering.amountSold).toBeNull();
    expect(offering.amountSoldNullReason).toMatch(/not a field/);
  });

  it('gives a 424B4\'s gross proceeds and price from its pricing table, and links a shelf\'s filings', async () => {
    const answer = await get('/v1/offerings/0001104659-24-132924');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      object: 'offering',
      regime: 'registered',
      offeringType: 'registered_direct',
      formType: '424B4',
      filingRole: 'prospectus',
      issuer: { cik: '0001130598', name: 'Traws Pharma, Inc.', ticker: 'TRAW' },
      pricePerUnit: 5.103,
      unitsOffered: 608197,
      amountOffered: 3103629.29,
      registrationFileNumber: '333-273081',
      citationUrl: expect.stringMatching(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/1130598\/000110465924132924\//),
    });
    const text = await corpusFile('filings/offerings/424B4_0001104659-24-132924_Traws-Pharma.txt');
    expect(text).toContain('608,197');
    expect(text).toContain('5.103');
    const vincerx = await get('/v1/offerings?cik=1796129');
    const shelf = vincerx.body.data.find((o: { formType: string }) => o.formType === 'S-3');
    expect(shelf).toMatchObject({ offeringType: 'shelf', filingRole: 'registration_statement', amountOffered: 100000000 });
    expect(shelf.linkedFilings.map((l: { formType: string }) => l.formType).sort()).toEqual(['POS AM', 'S-3/A']);
  });

  it('one classification: an offering\'s type is the type its terms state', async () => {
    for (const cik of ['749647', '1130598']) {
      const [offering] = (await get(`/v1/offerings?cik=${cik}`)).body.data;
      expect(offering, cik).toMatchObject({ offeringType: 'registered_direct', status: 'final', unknownTerms: [] });
      const event = (await get(`/v1/dilution/events?cik=${cik}&limit=100`)).body.data.find((r: any) => r.accessionNumber === offering.accessionNumber && r.kind === 'offering');
      expect(event.values.offeringType).toBe('registered_direct');
      expect(event.values.terms.offeringType.value).toBe(offering.offeringType);
    }
    expect((await get('/v1/offerings?type=registered_direct')).body.data.map((o: { issuer: { cik: string } }) => o.issuer.cik).sort()).toEqual(['0000749647', '0001130598']);
  });

  it('a preliminary supplement read without its filing record is its issuer\'s offering, status preliminary, its blanks unknown', async () => {
    // the document names no CIK; its cover's ticker FFIC is Flushing Financial's in the SEC's ticker map
    const answer = await get('/v1/offerings?cik=923139');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(1);
    expect(answer.body.data[0]).toMatchObject({
      formType: '424B5',
      issuer: { cik: '0000923139', name: 'Flushing Financial Corporation', ticker: 'FFIC' },
      status: 'preliminary',
      isPreliminary: true,
      unknownTerms: ['unitsOffered', 'pricePerUnit', 'amountOffered'],
      unitsOffered: null,
      pricePerUnit: null,
      amountOffered: null,
      date: '2024-12-12',
      dateField: 'documentDate',
      pricePerUnitNullReason: expect.stringMatching(/preliminary/),
    });
    const dilution = (await get('/v1/dilution/events?cik=923139')).body.data;
    expect(dilution.find((r: any) => r.form === '424B5').values).toMatchObject({ status: 'preliminary', blanks: ['sharesOffered', 'pricePerShare', 'grossProceeds'] });
  });

  it('filters by type and date, and says Regulation A is not covered', async () => {
    const shelves = await get('/v1/offerings?type=shelf');
    expect(shelves.body.data.every((o: { offeringType: string }) => o.offeringType === 'shelf')).toBe(true);
    expect(shelves.body.data.length).toBeGreaterThan(0);
    const dated = await get('/v1/offerings?from=2025-01-01&to=2025-12-31');
    expect(dated.body.data.map((o: { filedAt: string }) => o.filedAt).every((d: string) => d >= '2025-01-01' && d <= '2025-12-31')).toBe(true);
    expect(dated.body.data.length).toBe(4);
    const regA = await get('/v1/offerings?type=reg_a');
    expect(regA.body.data).toEqual([]);
    expect(regA.body.coverage).toMatchObject({ unavailable: true });
  });

  it('answers GraphQL with the same values', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: '{ offerings(cik: "1544190") { nodes { id amountOffered amountSold exemptions { code } } } }' } });
    expect(answer.body.data.offerings.nodes[0]).toMatchObject({ amountOffered: 8000000, amountSold: 5725051, exemptions: [{ code: '06b' }] });
  });

  it('answers client mistakes with the envelope', async () => {
    expectEnvelope(await get('/v1/offerings?ticker=NOSUCHTICKER'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/offerings/0000000000-00-000000'), 404, 'offering_not_found');
    expectEnvelope(await get('/v1/offerings/not-an-id'), 400, 'invalid_request_parameter');
    expectEnvelope(await get('/v1/offerings?type=bogus'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/offerings?cursor=garbage'), 400, 'invalid_query_parameter');
    const bad = await get('/v1/offerings?from=2024-13-01');
    expect(bad.status).toBe(400);
  });

  it('lists the routes as MCP tools', async () => {
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const names = (await response.json()).result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['offerings_list', 'offerings_get']));
  });
});
