// Offerings against the real corpus files: registered offerings, Form D and Form C,
// values checked against the files' own text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { readOffering } from '../../ingest/parsers/offerings/source.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/|forms\/formd\/|forms\/formc\/|filings\/offerings\/|submissions\/CIK0001796129)/;
const xml = (text: string, tag: string) => text.match(new RegExp(`<${tag}>([^<]*)</${tag}>`))?.[1] ?? null;

/** An offering document as readable text, whitespace folded: what every figure's span is a slice of. */
async function documentText(file: string): Promise<string> {
  return readOffering({ text: await corpusFile(`filings/offerings/${file}`), name: file }).text.replace(/\s+/g, ' ');
}

/** Every stated figure cites text of the document; every figure not stated says why. */
function expectFiguresCited(figures: Record<string, any>, text: string) {
  for (const [name, f] of Object.entries(figures)) {
    if (name === 'feeType') continue;
    if (f.value === null) expect(f.reason, name).toEqual(expect.any(String));
    else {
      expect(f.reason, name).toBeNull();
      expect(text, name).toContain(f.sourceSpan.replace(/\s+/g, ' '));
    }
    if (f.sourceSpan) expect(text, name).toContain(f.sourceSpan.replace(/\s+/g, ' '));
  }
}

describe.runIf(hasCorpus)('offerings', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Offering readers', 'team'));
    await runIngest(t.service.services, corpusSubset(wanted));
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

  it('a prospectus states its capitalization "as of" a date: each figure with its text, its heading and page', async () => {
    const file = '424B5_0001493152-25-029712_Imunon.txt';
    const raw = await corpusFile(`filings/offerings/${file}`);
    const text = await documentText(file);
    const answer = await get('/v1/offerings/0001493152-25-029712');
    expect(answer.status).toBe(200);
    const { capitalization: cap } = answer.body;
    expectFiguresCited(cap, text);
    // "The number of shares of common stock to be outstanding after this offering is based on 2,896,723 shares of
    // common stock outstanding as of September 30, 2025 and excludes in each case as of September 30, 2025: …"
    expect(cap.sharesOutstandingBefore).toMatchObject({ value: 2896723, asOf: '2025-09-30', section: 'THE OFFERING', page: 'S-2', method: 'outstanding_based_on' });
    expect(cap.sharesOutstandingAfter).toMatchObject({ value: 3226723, asOf: '2025-12-31', section: 'THE OFFERING', page: 'S-2' });
    expect(cap.optionsOutstanding).toMatchObject({ value: 24986, weightedAverageExercisePrice: 20.12, asOf: '2025-09-30' });
    expect(cap.warrantsOutstanding).toMatchObject({ value: 965247, weightedAverageExercisePrice: 8.18, asOf: '2025-09-30' });
    expect(cap.reservedForFutureIssuance).toMatchObject({ value: 235509, asOf: '2025-09-30' });
    for (const printed of ['2,896,723', '3,226,723', '24,986', '$20.12', '965,247', '$8.18', '235,509']) expect(raw).toContain(printed);
    // what the list does not name is not zero: null, with the reason
    expect(cap.restrictedStockUnits).toMatchObject({ value: null, reason: expect.stringMatching(/states no count of restricted stock units/) });
    expect(cap.preferredAsConverted.value).toBeNull();

    // Traws: the preferred stock as converted ("7,440 shares of Preferred Stock, included on an as converted basis to 2,976,000 of Common Stock")
    const traws = (await get('/v1/offerings/0001104659-24-132924')).body.capitalization;
    expectFiguresCited(traws, await documentText('424B4_0001104659-24-132924_Traws-Pharma.txt'));
    expect(traws).toMatchObject({
      sharesOutstandingBefore: { value: 3025554, asOf: '2024-11-11' },
      sharesOutstandingAfter: { value: 3633751, asOf: '2024-12-31' },
      optionsOutstanding: { value: 430066, weightedAverageExercisePrice: 37.01, asOf: '2024-09-30' },
      warrantsOutstanding: { value: 12650, weightedAverageExercisePrice: 92.99 },
      restrictedStockUnits: { value: 22421, asOf: '2024-09-30' },
      reservedForFutureIssuance: { value: 51381 },
      preferredAsConverted: { value: 2976000, preferredShares: 7440, section: 'DILUTION', page: 'S-10' },
    });
    // Flushing: unvested RSUs and performance units excluded from 29,068,903 shares; Alzamend: the count as of the
    // supplement's own date, and no preferred stock outstanding (0, not null)
    const flushing = (await get('/v1/offerings?cik=923139')).body.data[0].capitalization;
    expectFiguresCited(flushing, await documentText('424B5_FFIC_Flushing-Financial_preliminary_2024-12-12.html'));
    expect(flushing).toMatchObject({
      sharesOutstandingBefore: { value: 29068903, asOf: '2024-09-30' },
      restrictedStockUnits: { value: 533950 },
      performanceStockUnits: { value: 209650 },
      reservedForFutureIssuance: { value: 974000 },
      sharesOutstandingAfter: { value: null, reason: expect.stringMatching(/left blank in this preliminary document/), method: 'offering_summary_blank' },
      sharesOutstandingAfterOverAllotment: { value: null, reason: expect.stringMatching(/left blank/) },
    });
    const alzamend = (await get('/v1/offerings?cik=1677077')).body.data[0].capitalization;
    expect(alzamend).toMatchObject({ sharesOutstandingBefore: { value: 3804741, asOf: '2026-03-06', method: 'outstanding_stated' }, preferredAsConverted: { value: 0, preferredShares: 0 } });
    expect(alzamend.sharesOutstandingAfter).toMatchObject({ value: null, reason: expect.stringMatching(/at-the-market/) });
  });

  it('a prospectus states its economics: fees in dollars and percent, proceeds, dates, over-allotment, I.B.6 sales, effectiveness', async () => {
    const imunon = (await get('/v1/offerings/0001493152-25-029712')).body.economics;
    expectFiguresCited(imunon, await documentText('424B5_0001493152-25-029712_Imunon.txt'));
    // "Placement Agents’ fees(1)   $ 0.2527   $ 0.2527   $ 490,014.11"; "(1) Represents a cash fee equal to 7.0% of the aggregate gross proceeds"
    expect(imunon).toMatchObject({
      feeType: 'placement_agent_fee',
      feeAmount: { value: 490014.11, section: 'cover page', page: 'cover' },
      feePerShare: { value: 0.2527 },
      feePercent: { value: 7, method: 'fee_percent_stated' },
      proceedsBeforeExpenses: { value: 6510026.52 },
      netProceeds: { value: 6300000, approximate: true, section: 'USE OF PROCEEDS' },
      offeringDate: { value: '2025-12-29' },
      closingDate: { value: '2025-12-31', method: 'expected_delivery_date' },
      overAllotmentShares: { value: null, reason: expect.stringMatching(/no option to purchase additional shares/) },
      // the base prospectus's statement, as of its own date (May 22, 2024), not the supplement's
      babyShelfSalesPrior12Months: { value: 334659, asOf: '2024-05-22', section: 'accompanying base prospectus' },
    });
    // Traws states its net proceeds twice, differently: the Use of Proceeds section's figure, the other one listed
    const traws = (await get('/v1/offerings/0001104659-24-132924')).body.economics;
    expect(traws).toMatchObject({
      feeType: 'placement_agent_fee',
      feeAmount: { value: 256049.42 },
      feePercent: { value: 8.25, section: 'PLAN OF DISTRIBUTION' },
      netProceeds: { value: 2800000, confidence: 'medium', section: 'USE OF PROCEEDS', conflicting: [{ value: 2400000, section: 'THE OFFERING' }] },
      offeringDate: { value: '2024-12-30' },
      closingDate: { value: '2024-12-31' },
    });
    // Flushing's preliminary supplement: the underwriting discount, net proceeds and dates are blanks; the
    // over-allotment option is granted for 30 days, its share count blank
    const flushing = (await get('/v1/offerings?cik=923139')).body.data[0].economics;
    expectFiguresCited(flushing, await documentText('424B5_FFIC_Flushing-Financial_preliminary_2024-12-12.html'));
    expect(flushing).toMatchObject({
      feeType: 'underwriting_discount',
      feeAmount: { value: null, reason: expect.stringMatching(/left blank/), sourceSpan: expect.stringMatching(/^Underwriting discount/) },
      netProceeds: { value: null, reason: expect.stringMatching(/left blank/) },
      overAllotmentShares: { value: null, days: 30, reason: expect.stringMatching(/left blank/) },
      offeringDate: { value: null, reason: expect.stringMatching(/left blank/) },
      closingDate: { value: null, reason: expect.stringMatching(/left blank/) },
    });
    // Alzamend's at-the-market program: a 3% commission, proceeds not determinable, $1,020 sold under I.B.6
    const alzamend = (await get('/v1/offerings?cik=1677077')).body.data[0].economics;
    expect(alzamend).toMatchObject({
      feeType: 'sales_agent_commission',
      feePercent: { value: 3 },
      feeAmount: { value: null },
      netProceeds: { value: null, reason: expect.stringMatching(/not determinable/), sourceSpan: expect.stringMatching(/not determinable/) },
      babyShelfSalesPrior12Months: { value: 1020, asOf: '2026-03-06' },
      offeringDate: { value: '2026-03-06' },
    });
    // Vincerx: the shelf's effectiveness from EDGAR's EFFECT notice of its file number; the POS AM states it itself;
    // "We have not sold any securities pursuant to General Instruction I.B.6 …": 0, not null
    const vincerx = (await get('/v1/offerings?cik=1796129')).body.data;
    const shelf = vincerx.find((o: any) => o.formType === 'S-3');
    expect(shelf.economics).toMatchObject({
      registrationEffective: { value: '2025-04-02', method: 'edgar_effect_notice_of_file_number', sourceSpan: expect.stringContaining('EFFECT 9999999995-25-000942') },
      babyShelfSalesPrior12Months: { value: 0, method: 'baby_shelf_none_sold' },
      netProceeds: { value: null, reason: expect.stringMatching(/shelf registration sells nothing itself/) },
    });
    const posAm = vincerx.find((o: any) => o.formType === 'POS AM');
    expect(posAm.economics.registrationEffective).toMatchObject({ value: '2025-04-02', method: 'declared_effective_stated', sourceSpan: expect.stringContaining('declared effective on April 2, 2025') });
    // Form D and C state none of this: null
    expect((await get('/v1/offerings?cik=1544190')).body.data[0]).toMatchObject({ capitalization: null, economics: null });
  });

  it('a document read without its filing date is ordered and filtered by the date it gives itself', async () => {
    const rows: any[] = [];
    let cursor: string | null = null;
    do {
      const answer = await get(`/v1/offerings?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      rows.push(...answer.body.data);
      cursor = answer.body.nextCursor;
    } while (cursor);
    // the registered offerings, in the order listed, newest first by the date each row shows
    const registered = rows.filter((o) => o.regime === 'registered');
    const dates = registered.map((o) => o.date);
    expect(dates.every((d) => d !== null)).toBe(true);
    expect(dates).toEqual([...dates].sort().reverse());
    // Flushing's preliminary (dated December 12, 2024) sits between Traws's 424B4 (filed December 31, 2024) and
    // Acurx's S-1 (June 29, 2023), not after every filed document
    const flushing = registered.findIndex((o) => o.issuer.cik === '0000923139');
    expect([registered[flushing - 1].accessionNumber, registered[flushing + 1].accessionNumber]).toEqual(['0001104659-24-132924', '0001104659-23-076317']);
    const december = (await get('/v1/offerings?from=2024-12-01&to=2024-12-31')).body.data;
    expect(december.map((o: any) => [o.issuer.cik, o.date, o.dateField])).toEqual([
      ['0001130598', '2024-12-31', 'filedAt'],
      ['0000923139', '2024-12-12', 'documentDate'],
    ]);
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
