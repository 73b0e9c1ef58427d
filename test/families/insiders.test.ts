// The Insiders family over the real corpus: every Form 3/4/5 of ../shared/data ingested, read back
// through /v1/insiders/*. Expected values are read from the files' own XML text with regular
// expressions, independently of the service's parser. The amendment rule is checked with the
// project's 4/A fixture and an original derived from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const apple = 'forms/ownership/4_0000320193-22-000061_AAPL_Katherine-Adams.txt';
const files = [
  'reference/company_tickers.json',
  apple,
  'forms/ownership/4_0001045810-23-000128_NVDA_Shoquist.txt',
  'forms/ownership/4_0001127602-25-001055.txt',
  'forms/ownership/4_374Water.xml',
  'forms/ownership/4_SNOW_form4.snow.xml',
  'forms/ownership/3_SNOW_form3.snow.xml',
  'forms/ownership/3_nosecurities.xml',
  'forms/ownership/5_SNOW_form5.snow.xml',
];

const texts = new Map<string, string>();
let t: TestService;
let key: string;
const get = (route: string) => call(t, 'GET', route, { key });

async function all(route: string, limit = 100): Promise<any[]> {
  const seen: any[] = [];
  let cursor: string | null = null;
  do {
    const page = await get(`${route}${route.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    seen.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return seen;
}

/** The non-derivative transactions of an ownership XML, read with regular expressions. */
function tableOneOf(text: string) {
  const rows = [...text.matchAll(/<nonDerivativeTransaction>([\s\S]*?)<\/nonDerivativeTransaction>/g)].map((m) => m[1]!);
  const value = (row: string, tag: string) => new RegExp(`<${tag}>\\s*<value>([^<]*)</value>`).exec(row)?.[1] ?? null;
  return rows.map((row) => ({
    code: /<transactionCode>([^<]*)</.exec(row)![1],
    shares: Number(value(row, 'transactionShares')),
    price: Number(value(row, 'transactionPricePerShare')),
    after: Number(value(row, 'sharesOwnedFollowingTransaction')),
    priceFootnote: /<transactionPricePerShare>[\s\S]*?<footnoteId id="([^"]+)"/.exec(row)?.[1] ?? null,
  }));
}

// the 4/A fixture and an original 4 derived from it: same issuer, owners and period, other shares
const amendmentKey = 'forms/ownership/4_fixture_amendment.xml';
const originalKey = 'forms/ownership/4_fixture_original.xml';

describe.runIf(hasCorpus)('the insiders family over the corpus', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    for (const file of files) texts.set(file, await corpusFile(file));
    const amendment = await fixture('forms/form4-amendment-joint.xml');
    const original = amendment
      .replace('<documentType>4/A</documentType>', '<documentType>4</documentType>')
      .replace(/<dateOfOriginalSubmission>[^<]*<\/dateOfOriginalSubmission>/, '')
      .replace('<value>250000</value>', '<value>240000</value>');
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Insider readers', 'team'));
    const items = Object.fromEntries(files.map((f) => [f, { text: texts.get(f)! }]));
    const summary = await runIngest(t.service.services, fixtureSource({ ...items, [originalKey]: { text: original }, [amendmentKey]: { text: amendment } }));
    expect(summary).toMatchObject({ failed: 0 });
  }, 600_000);
  afterAll(() => t?.close());

  it('the Apple Form 4 of May 2022: 7 sales totalling 25,000 shares, each as its XML states', async () => {
    const expected = tableOneOf(texts.get(apple)!);
    expect(expected).toHaveLength(7);
    expect(expected.reduce((s, r) => s + r.shares, 0)).toBe(25_000);
    const rows = await all('/v1/insiders/transactions?ticker=AAPL');
    expect(rows).toHaveLength(7);
    expect(rows.map((r) => [r.transactionCode, r.shares, r.pricePerShare, r.sharesOwnedFollowing])).toEqual(expected.map((e) => [e.code, e.shares, e.price, e.after]));
    expect(rows.reduce((s, r) => s + r.shares, 0)).toBe(25_000);
    const footnoteText = (id: string) => /<footnote id="([^"]+)">([\s\S]*?)<\/footnote>/g;
    for (const [i, r] of rows.entries()) {
      expect(r).toMatchObject({
        accessionNumber: '0000320193-22-000061',
        formType: '4',
        filedAt: '2022-05-06',
        transactionDate: '2022-05-04',
        transactionCodeMeaning: 'Open market or private sale',
        acquiredDisposed: 'disposed',
        ownership: 'direct',
        issuer: { cik: '0000320193', name: 'Apple Inc.', ticker: 'AAPL' },
        owners: [{ cik: '0001462356', name: 'Adams Katherine L.', isOfficer: true, officerTitle: 'SVP, GC and Secretary', roles: ['officer'] }],
        supersededBy: null,
        sourceField: `nonDerivativeTable/nonDerivativeTransaction[${i + 1}]`,
      });
      expect(r.citationUrl).toContain('/320193/000032019322000061/');
      expect(r.value).toBe(Math.round(r.shares * r.pricePerShare * 100) / 100);
      // the price's footnote is attached to pricePerShare, with the filing's own text
      const price = r.footnotes.find((f: any) => f.field === 'pricePerShare');
      expect(price.id).toBe(expected[i]!.priceFootnote);
      const raw = [...texts.get(apple)!.matchAll(footnoteText(price.id))].find((m) => m[1] === price.id)![2]!.replace(/\s+/g, ' ').trim();
      expect(price.text.trim()).toBe(raw);
    }
    // the same rows by insider
    const byOwner = await all('/v1/insiders/transactions?owner_cik=1462356');
    expect(byOwner.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    const both = await all('/v1/insiders/transactions?ticker=AAPL&owner_cik=0001462356&transaction_code=S');
    expect(both).toHaveLength(7);
    expect(await all('/v1/insiders/transactions?ticker=AAPL&transaction_code=P')).toHaveLength(0);
  });

  it('the summary: Apple\'s officer sold 25,000 shares worth the sum of shares × price', async () => {
    const expected = tableOneOf(texts.get(apple)!);
    const cents = expected.reduce((s, r) => s + Math.round(r.shares * r.price * 100), 0);
    const answer = await get('/v1/insiders/summary?ticker=AAPL&from=2022-05-01&to=2022-05-31');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const officer = answer.body.roles.find((r: any) => r.role === 'officer');
    expect(officer).toMatchObject({ insiders: 1, sold: { transactions: 7, shares: '25000', unpricedTransactions: 0 }, bought: { transactions: 0, shares: '0' }, netShares: '-25000' });
    expect(Math.round(Number(officer.sold.value) * 100)).toBe(cents);
    expect(answer.body.total.sold.shares).toBe('25000');
    expect(answer.body.roles.map((r: any) => r.role)).toEqual(['officer', 'director', 'ten_percent_owner', 'other']);
    expect(answer.body.sources).toEqual([expect.objectContaining({ accessionNumber: '0000320193-22-000061', citationUrl: expect.stringContaining('000032019322000061') })]);
    // a window without transactions
    const empty = await get('/v1/insiders/summary?ticker=AAPL&from=2023-01-01');
    expect(empty.body).toMatchObject({ transactions: 0, filings: 0, total: { sold: { shares: '0' } } });
  });

  it('one filing whole: owners, transactions, footnotes', async () => {
    const answer = await get('/v1/insiders/filings/0000320193-22-000061');
    expect(answer.status).toBe(200);
    const footnoteIds = [...texts.get(apple)!.matchAll(/<footnote id="([^"]+)">/g)].map((m) => m[1]);
    expect(answer.body).toMatchObject({ object: 'insider_filing', accessionNumber: '0000320193-22-000061', documentType: '4', periodOfReport: '2022-05-04', supersedes: [], owners: [{ name: 'Adams Katherine L.' }] });
    expect(answer.body.transactions).toHaveLength(7);
    expect(answer.body.footnotes.map((f: any) => f.id)).toEqual(footnoteIds);
    expectEnvelope(await get('/v1/insiders/filings/0000000000-22-000000'), 404, 'form_not_found');
    expectEnvelope(await get('/v1/insiders/filings/not-an-accession'), 400, 'invalid_request_parameter');
  });

  it('derivative transactions carry exercise terms and the underlying security', async () => {
    const text = texts.get('forms/ownership/4_SNOW_form4.snow.xml')!;
    const expected = [...text.matchAll(/<derivativeTransaction>([\s\S]*?)<\/derivativeTransaction>/g)].length;
    const rows = await all('/v1/insiders/derivative-transactions?cik=1640147', 2);
    const snowForm4 = rows.filter((r) => r.formType === '4');
    expect(snowForm4).toHaveLength(expected);
    for (const r of snowForm4) {
      expect(r.table).toBe('derivative');
      expect(r.derivative).toEqual(expect.objectContaining({ underlyingSecurityTitle: expect.any(String) }));
      // a document without its submission: no accession, and the reason says so
      expect(r.accessionNumber).toBeNull();
      expect(r.filingId).toMatch(/^doc_/);
      expect(r.nullReasons).toContainEqual(expect.objectContaining({ field: 'citationUrl' }));
    }
  });

  it('every row has provenance, and paging walks every row once', async () => {
    const whole = await all('/v1/insiders/transactions', 100);
    const paged = await all('/v1/insiders/transactions', 3);
    expect(paged.map((r) => r.id)).toEqual(whole.map((r) => r.id));
    expect(new Set(paged.map((r) => r.id)).size).toBe(paged.length);
    expect(whole.length).toBeGreaterThan(10);
    for (const r of whole) {
      expect(r.filingId).toBeTruthy();
      expect(r.sourceField).toMatch(/^nonDerivativeTable\/nonDerivativeTransaction\[\d+\]$/);
      if (r.accessionNumber) expect(r.citationUrl).toContain(r.accessionNumber.replace(/-/g, ''));
      else expect(r.nullReasons.map((n: any) => n.field)).toContain('citationUrl');
    }
  });

  it('code and direction filters select exactly the rows that match, in both tables and across pages', async () => {
    for (const table of ['transactions', 'derivative-transactions']) {
      const whole = await all(`/v1/insiders/${table}`);
      const cases: [string, (r: any) => boolean][] = [
        ['acquired_disposed=acquired', (r) => r.acquiredDisposed === 'acquired'],
        ['acquired_disposed=disposed', (r) => r.acquiredDisposed === 'disposed'],
        ['transaction_code=s,M', (r) => ['S', 'M'].includes(r.transactionCode)],
        ['transaction_code=A,M,F&acquired_disposed=acquired', (r) => ['A', 'M', 'F'].includes(r.transactionCode) && r.acquiredDisposed === 'acquired'],
      ];
      // the corpus has acquisitions in both tables and dispositions in Table I, so the filters select something
      expect(whole.some(cases[0]![1])).toBe(true);
      if (table === 'transactions') expect(whole.some(cases[1]![1])).toBe(true);
      for (const [filter, matches] of cases) {
        const expected = whole.filter(matches).map((r) => r.id);
        expect((await all(`/v1/insiders/${table}?${filter}`, 2)).map((r) => r.id), `${table}?${filter}`).toEqual(expected);
      }
    }
  });

  it('a 4/A supersedes the 4 it amends (same issuer, owners and period)', async () => {
    const current = await all('/v1/insiders/transactions?cik=9990021');
    expect(current.map((r) => r.shares)).toEqual([250000]);
    expect(current[0]).toMatchObject({ formType: '4/A', isAmendment: true, supersededBy: null, timeliness: 'late', owners: [{ roles: ['ten_percent_owner'] }, { roles: ['director', 'other'] }] });
    const withOld = await all('/v1/insiders/transactions?cik=9990021&include_superseded=true');
    const old = withOld.find((r) => r.formType === '4');
    expect(old).toMatchObject({ shares: 240000, supersededBy: current[0].filingId });
    const amendment = await get(`/v1/insiders/filings/${current[0].filingId}`);
    expect(amendment.body.supersedes).toEqual([old.filingId]);
    // the summary counts the amendment only, under the joint filing's highest role
    const summary = await get('/v1/insiders/summary?cik=9990021');
    expect(summary.body.roles.find((r: any) => r.role === 'director').bought.shares).toBe('250000');
  });

  it('refuses bad parameters with the envelope, and unknown companies or insiders with 404', async () => {
    expectEnvelope(await get('/v1/insiders/transactions?ticker=ZZQXW'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/insiders/transactions?owner_cik=9999999999'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/insiders/summary?cik=9999999999'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/insiders/summary'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/insiders/transactions?transaction_code=Q'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/insiders/transactions?from=2022-13-01'), 400, 'invalid_request_parameter');
    expectEnvelope(await get('/v1/insiders/transactions?limit=0'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/insiders/transactions?cursor=garbage'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/insiders/transactions?colour=red'), 400, 'invalid_query_parameter');
  });

  it('every insiders route is an MCP tool', async () => {
    const names = routes.filter((r) => r.path.startsWith('/v1/insiders')).map((r) => r.name);
    expect(names).toHaveLength(4);
    const answer = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = ((await answer.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    for (const name of names) expect(tools).toContain(name);
  });
});
