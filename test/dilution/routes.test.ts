// The dilution family over the real corpus: small-cap issuers' submissions, companyfacts and offering
// documents ingested, read back through /v1/dilution/*. Expected numbers are read from the corpus
// files themselves, independently of the service's parsers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dilutionTermsOfFiling } from '../../ingest/parsers/offerings/dilutionTerms.ts';
import { runIngest } from '../../ingest/run.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { babyShelfOf, runwayOf } from '../../derived/dilution/rules.ts';
import { corpusFile, hasCorpus } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const files = [
  'reference/company_tickers.json',
  'submissions/CIK0001677077.json', // Alzamend
  'submissions/CIK0000749647.json', // Imunon
  'submissions/CIK0001796129.json', // Vincerx
  'companyfacts/CIK0001997711.json', // LPA (ifrs-full and dei)
  'companyfacts/CIK0001640147.json', // Snowflake: public float, a year of operating burn
  'filings/offerings/424B5_0001493152-25-029712_Imunon.txt',
  'filings/offerings/424B5_0001214659-26-002941_Alzamend.txt',
  'filings/offerings/S-3_0001193125-25-012209_Vincerx.txt',
  'filings/offerings/POSAM_0001193125-25-110092_Vincerx.txt',
  'filings/offerings/424B4_0001104659-24-132924_Traws-Pharma.txt',
  'filings/offerings/S-1_0001104659-23-076317_Acurx.txt',
  'filings/offerings/424B5_FFIC_Flushing-Financial_preliminary_2024-12-12.html',
];

interface CompanyFact { end: string; start?: string; val: number; accn: string; form: string; filed: string }
const texts = new Map<string, string>();
const factsOf = (file: string, taxonomy: string, tag: string, unit: string): CompanyFact[] => JSON.parse(texts.get(file)!).facts[taxonomy]?.[tag]?.units?.[unit] ?? [];
/** 8-K filings of a submissions file reporting an item, read from the file itself. */
function eightKsWith(file: string, item: string): string[] {
  const recent = JSON.parse(texts.get(file)!).filings.recent;
  return (recent.form as string[]).flatMap((form, i) => (/^8-K/.test(form) && (recent.items[i] as string).split(',').includes(item) ? [recent.accessionNumber[i] as string] : []));
}

let t: TestService;
let key: string;
const get = (route: string) => call(t, 'GET', route, { key });

/** Every record of a list, page by page. */
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

function expectVerified(rows: any[]) {
  for (const r of rows) {
    expect(r.verification, JSON.stringify(r)).toMatchObject({ sourceSpan: expect.any(String), confidence: expect.stringMatching(/^(high|medium|low)$/), method: expect.stringMatching(/^(xbrl_fact|offering_document|eight_k_item|filing_index)$/) });
    expect(r.verification.sourceSpan.length).toBeGreaterThan(5);
    if (r.verification.accessionNumber) expect(r.verification.citationUrl).toContain(r.verification.accessionNumber.replace(/-/g, ''));
  }
}

describe.runIf(hasCorpus)('the dilution family over the corpus', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    for (const file of files) texts.set(file, await corpusFile(file));
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Dilution readers', 'team'));
    const summary = await runIngest(t.service.services, fixtureSource(Object.fromEntries(files.map((f) => [f, { text: texts.get(f)! }]))));
    expect(summary).toMatchObject({ failed: 0 });
  }, 600_000);
  afterAll(() => t?.close());

  it('share-float-history: LPA\'s dei shares outstanding, each value from the first filing that reported it', async () => {
    const file = 'companyfacts/CIK0001997711.json';
    const expected = new Map<string, CompanyFact>();
    for (const f of factsOf(file, 'dei', 'EntityCommonStockSharesOutstanding', 'shares')) {
      const key = `${f.end}|${f.val}`;
      if (!expected.has(key) || f.filed < expected.get(key)!.filed) expected.set(key, f);
    }
    const rows = (await all('/v1/dilution/share-float-history?ticker=LPA')).filter((r) => r.kind === 'shares_outstanding');
    expect(rows.map((r) => [r.date, r.values.shares, r.accessionNumber]).sort()).toEqual([...expected.values()].map((f) => [f.end, String(f.val), f.accn]).sort());
    expect(rows.find((r) => r.date === '2025-04-02')).toMatchObject({ values: { shares: '31668601' }, verification: { accessionNumber: '0001997711-25-000030', confidence: 'high', method: 'xbrl_fact', sourceSpan: 'dei:EntityCommonStockSharesOutstanding, context instant 2025-04-02, unit shares' } });
    expectVerified(rows);
  });

  it('cash-position: LPA\'s ifrs-full cash as filed; no runway without a reported operating cash flow, and it says why', async () => {
    const cash = factsOf('companyfacts/CIK0001997711.json', 'ifrs-full', 'CashAndCashEquivalents', 'USD');
    const rows = await all('/v1/dilution/cash-position?ticker=LPA');
    const dec2024 = rows.find((r) => r.date === '2024-12-31');
    expect(dec2024.values.cash).toBe(String(cash.find((f) => f.end === '2024-12-31')!.val));
    expect(dec2024.values).toMatchObject({ runwayMonths: null, monthlyBurn: null, operatingCashFlow12m: null, reason: expect.stringMatching(/no 12-month operating cash flow/) });
    expectVerified(rows);
  });

  it('cash-position: runway is cash over a twelfth of the 12-month operating outflow (Snowflake\'s fiscal 2020), none when cash flow is positive', async () => {
    const file = 'companyfacts/CIK0001640147.json';
    const flows = factsOf(file, 'us-gaap', 'NetCashProvidedByUsedInOperatingActivities', 'USD').filter((f) => f.start && (Date.parse(f.end) - Date.parse(f.start)) / 86_400_000 >= 350);
    const cash = factsOf(file, 'us-gaap', 'CashAndCashEquivalentsAtCarryingValue', 'USD');
    const burning = flows.find((f) => f.val < 0 && cash.some((c) => c.end === f.end))!;
    const positive = flows.filter((f) => f.val > 0 && cash.some((c) => c.end === f.end)).sort((a, b) => b.end.localeCompare(a.end))[0]!;
    expect(burning).toBeDefined();
    const rows = await all('/v1/dilution/cash-position?cik=1640147');
    const atBurn = rows.find((r) => r.date === burning.end);
    const cashThen = Number(atBurn.values.cash);
    expect(cash.map((c) => c.val)).toContain(cashThen);
    const runway = Math.round((cashThen / (-burning.val / 12)) * 10) / 10;
    expect(atBurn.values).toMatchObject({ runwayMonths: runway, monthlyBurn: Math.round(-burning.val / 12), reason: null, operatingCashFlow12m: { value: String(burning.val), periodEnd: burning.end } });
    expect(runwayOf(cashThen, burning.val).runwayMonths).toBe(runway);
    expect(rows.find((r) => r.date === positive.end).values).toMatchObject({ runwayMonths: null, reason: expect.stringMatching(/zero or positive/) });
  });

  it('share-float-history: public float with the baby-shelf computation labelled with the float and its date', async () => {
    const floats = factsOf('companyfacts/CIK0001640147.json', 'dei', 'EntityPublicFloat', 'USD');
    const latest = [...floats].sort((a, b) => b.end.localeCompare(a.end))[0]!;
    const rows = (await all('/v1/dilution/share-float-history?cik=1640147')).filter((r) => r.kind === 'public_float');
    const row = rows.find((r) => r.date === latest.end);
    expect(row.values).toMatchObject({ publicFloat: String(latest.val), babyShelf: { applies: false, capacity12m: null, floatDate: latest.end } });
    expect(row.values.babyShelf.label).toContain(latest.end);
    // the rule itself, on a small issuer's float: one third of it per 12 months
    const small = babyShelfOf(58_500_000, '2024-06-28');
    expect(small).toMatchObject({ applies: true, capacity12m: 19_500_000, threshold: 75_000_000 });
    expect(small.label).toMatch(/\$58,500,000 as of 2024-06-28.*\$19,500,000/);
    expect(babyShelfOf(75_000_000, '2024-06-28').applies).toBe(false);
  });

  it('exchange-compliance: every Alzamend 8-K with Item 3.01 in its submissions file, marked index-only', async () => {
    const expected = eightKsWith('submissions/CIK0001677077.json', '3.01');
    expect(expected.length).toBeGreaterThan(0);
    const rows = await all('/v1/dilution/exchange-compliance?ticker=ALZN');
    expect(rows.map((r) => r.accessionNumber).sort()).toEqual([...expected].sort());
    for (const r of rows) expect(r).toMatchObject({ kind: 'compliance_notice', fromIndexOnly: true, verification: { method: 'filing_index', confidence: 'medium' } });
    expectVerified(rows);
  });

  it('corporate-actions and events: Imunon\'s 3.02 sales, all events paged without a repeat, newest first', async () => {
    const sales = eightKsWith('submissions/CIK0000749647.json', '3.02');
    const actions = await all('/v1/dilution/corporate-actions?ticker=IMNN');
    expect(actions.filter((r) => r.values.item === '3.02').map((r) => r.accessionNumber).sort()).toEqual([...sales].sort());
    const paged = await all('/v1/dilution/events?ticker=IMNN', 7);
    const whole = await all('/v1/dilution/events?ticker=IMNN', 100);
    expect(paged.length).toBeGreaterThan(25);
    expect(new Set(paged.map((r) => r.id)).size).toBe(paged.length);
    expect(paged.map((r) => r.id)).toEqual(whole.map((r) => r.id));
    const dates = paged.map((r) => r.date ?? r.filedAt ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    expect(paged.every((r) => r.isEvent)).toBe(true);
    expectVerified(paged);
  });

  it('reverse-splits: the splits Alzamend\'s prospectus recounts, each once, and the score counts those of the 24 months', async () => {
    const rows = await all('/v1/dilution/reverse-splits?ticker=ALZN');
    // "(i) 1-for-15 reverse split ... effective October 31, 2023, (ii) 1-for-10 reverse split ... effective July 16, 2024 and (iii) 1-for-9 reverse split ... effective May 6, 2025."
    const recounted = rows.filter((r) => r.values.recountedBy === 'offering_document');
    expect(recounted.map((r) => [r.date, r.values.ratio, r.values.factor]).sort()).toEqual([
      ['2023-10-31', '1-for-15', 15],
      ['2024-07-16', '1-for-10', 10],
      ['2025-05-06', '1-for-9', 9],
    ]);
    const flat = texts.get('filings/offerings/424B5_0001214659-26-002941_Alzamend.txt')!.replace(/<[^>]+>/g, ' ').replace(/&nbsp;|&#160;/g, ' ').replace(/&#8217;|&rsquo;/g, '’').replace(/\s+/g, ' ');
    for (const r of recounted) {
      expect(r).toMatchObject({ kind: 'reverse_split', accessionNumber: '0001214659-26-002941', verification: { method: 'offering_document', confidence: 'high' } });
      expect(flat).toContain(r.verification.sourceSpan.replace(/\s+/g, ' '));
    }
    const score = await get('/v1/dilution/score?ticker=ALZN');
    // as of 2026-03-20: July 16, 2024 and May 6, 2025 are within 24 months; October 31, 2023 is not
    expect(score.body.inputs.reverseSplitsLast24m).toMatchObject({ value: 2, asOf: '2026-03-20' });
    // the prospectus's ATM is sold off a baby shelf: its stated remaining capacity is the shelf capacity input
    expect(score.body.inputs.shelfCapacityRemaining).toMatchObject({ value: 3061933, source: { accessionNumber: '0001214659-26-002941' } });
  });

  it('a shelf prospectus carries the baby-shelf limit computed from the public float it states, with that float\'s date and sentence', async () => {
    const atm = (await all('/v1/dilution/events?ticker=ALZN')).find((r) => r.accessionNumber === '0001214659-26-002941' && 'offeringType' in r.values);
    // "the aggregate market value of our outstanding common stock held by non-affiliates was approximately $9,188,860 ... as of March 6, 2026"
    expect(atm.values.babyShelf).toMatchObject({ applies: true, publicFloat: 9188860, floatDate: '2026-03-06', capacity12m: 3062953, floatSource: 'document' });
    expect(atm.values.babyShelf.label).toContain('$9,188,860 as of 2026-03-06');
    // the rule's one third agrees with the one third the prospectus prints
    expect(atm.values.terms.babyShelf.oneThirdLimit).toMatchObject({ value: atm.values.babyShelf.capacity12m, method: 'baby_shelf_one_third_stated' });
    const flat = texts.get('filings/offerings/424B5_0001214659-26-002941_Alzamend.txt')!.replace(/<[^>]+>/g, ' ').replace(/&nbsp;|&#160;/g, ' ').replace(/\s+/g, ' ');
    expect(flat).toContain(atm.values.babyShelf.sourceSpan.replace(/\s+/g, ' '));
    const imunon = (await all('/v1/dilution/events?ticker=IMNN')).find((r) => r.accessionNumber === '0001493152-25-029712' && 'offeringType' in r.values);
    expect(imunon.values.babyShelf).toMatchObject({ applies: true, publicFloat: 18075494, floatDate: '2024-05-10', capacity12m: Math.floor(18075494 / 3), floatSource: 'document' });
  });

  it('an offering document is an event read from its cover, citing the filing; one event by id with its linked records', async () => {
    const events = await all('/v1/dilution/events?ticker=IMNN');
    const offering = events.find((r) => r.accessionNumber === '0001493152-25-029712');
    expect(offering).toMatchObject({ form: '424B5', fromIndexOnly: false, verification: { method: 'offering_document', accessionNumber: '0001493152-25-029712' } });
    const text = texts.get('filings/offerings/424B5_0001493152-25-029712_Imunon.txt')!.replace(/<[^>]+>/g, ' ').replace(/&nbsp;|&#160;/g, ' ').replace(/\s+/g, ' ');
    if (offering.values.pricePerShare !== null) expect(text).toContain(String(offering.values.pricePerShare).replace(/^0\./, '.').slice(0, 3));
    const one = await get(`/v1/dilution/events/${offering.id}?ticker=IMNN`);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ object: 'dilution_event', event: { id: offering.id, kind: offering.kind } });
    expect(one.body.linked.every((r: any) => r.accessionNumber === offering.accessionNumber && r.id !== offering.id)).toBe(true);
    // another company's view of it, an unknown id, a malformed id
    expect((await get(`/v1/dilution/events/${offering.id}?ticker=ALZN`)).body).toMatchObject({ object: 'error', code: 'dilution_event_not_found' });
    const unknown = await get(`/v1/dilution/events/dil_${'0'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('dilution_event_not_found');
    expect((await get('/v1/dilution/events/not-an-id')).status).toBe(400);
  });

  it('an offering document\'s terms are served: Traws\'s warrants, lock-ups and NTBV dilution, each citing its sentence', async () => {
    const name = '424B4_0001104659-24-132924_Traws-Pharma.txt';
    const raw = texts.get(`filings/offerings/${name}`)!;
    const text = dilutionTermsOfFiling({ text: raw, name }).text; // the document's text, markup and entities read
    expect(raw).toMatch(/\$13\.42/);
    expect(raw).toMatch(/90(\s|&#160;)+days/);
    const warrants = await all('/v1/dilution/warrants?cik=1130598');
    const seriesA = warrants.find((r) => r.accessionNumber === '0001104659-24-132924' && r.values.series === 'Series A');
    expect(seriesA?.values, JSON.stringify(warrants)).toMatchObject({ exercisePrice: 13.42, term: { years: 5 } });
    const lockups = await all('/v1/dilution/lockups?cik=1130598');
    const officers = lockups.find((r) => (r.values.parties as string[]).includes('officers'));
    expect(officers?.values, JSON.stringify(lockups)).toMatchObject({ length: 90, unit: 'days' });
    expectVerified([...warrants, ...lockups]);
    for (const r of [seriesA, officers]) for (const span of r.verification.sourceSpan.split(' … ')) expect(text.replace(/\s+/g, ' ')).toContain(span.replace(/\s+/g, ' '));
    const offering = (await all('/v1/dilution/events?cik=1130598')).find((r) => r.accessionNumber === '0001104659-24-132924' && r.kind === 'offering');
    expect(JSON.stringify(offering?.values)).toContain('5.046'); // dilution per share to new investors, as the Dilution section states
  });

  it('coverage: per table rows, verified rows and latest dates agree with the lists', async () => {
    const answer = await get('/v1/dilution/coverage?ticker=LPA');
    expect(answer.status).toBe(200);
    const shares = answer.body.tables.find((x: any) => x.table === 'share-float-history');
    const rows = await all('/v1/dilution/share-float-history?ticker=LPA');
    expect(shares).toMatchObject({ rows: rows.length, verifiedRows: rows.length, latestDate: rows[0].date });
    expect(answer.body.tables.find((x: any) => x.table === 'lockups')).toMatchObject({ rows: 0, latestDate: null });
    const alz = await get('/v1/dilution/coverage?ticker=ALZN');
    expect(alz.body.tables.find((x: any) => x.table === 'exchange-compliance')).toMatchObject({ rows: eightKsWith('submissions/CIK0001677077.json', '3.01').length, verifiedRows: 0 });
  });

  it('a table the corpus does not cover is an empty list with its coverage, an unknown company a 404', async () => {
    const empty = await get('/v1/dilution/warrants?ticker=LPA');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ object: 'list', data: [], hasMore: false, coverage: { searched: expect.any(String), note: expect.any(String) } });
    const unknown = await get('/v1/dilution/cash-position?ticker=NOSUCHTICKER');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ object: 'error', code: 'entity_not_found' });
    expect((await get('/v1/dilution/coverage?cik=9999999999')).body.code).toBe('entity_not_found');
    expect((await get('/v1/dilution/warrants')).body.code).toBe('invalid_query_parameter');
    expect((await get('/v1/dilution/warrants?ticker=LPA&limit=0')).status).toBe(400);
  });

  it('score and ratings: deterministic, every input sourced or marked missing, a missing input lowers the confidence', async () => {
    const first = await get('/v1/dilution/score?ticker=LPA');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await get('/v1/dilution/score?ticker=LPA');
    const { requestId: _a, ...one } = first.body;
    const { requestId: _b, ...two } = again.body;
    expect(one).toEqual(two);
    expect(first.body).toMatchObject({ object: 'dilution_score', methodologyVersion: expect.any(String), methodology: { weights: expect.any(Object) } });
    expect(first.body.inputs.sharesOutstanding).toMatchObject({ value: 31668601, asOf: '2025-04-02', source: { accessionNumber: '0001997711-25-000030' } });
    expect(first.body.inputs.publicFloat).toEqual({ missing: true });
    expect(first.body.missing).toContain('publicFloat');
    expect(first.body.confidence).not.toBe('high');
    const ratings = await get('/v1/dilution/ratings?ticker=ALZN');
    expect(ratings.status, JSON.stringify(ratings.body)).toBe(200);
    expect(Object.keys(ratings.body.ratings).sort()).toEqual(['cash_need', 'compliance', 'float_growth', 'offering_ability', 'overhang']);
  });

  it('a company whose records were never built (a database from before them) is built on its first read, with the same ids', async () => {
    const { prisma } = t.service.services;
    const cik = '0001796129'; // Vincerx: not read by any test before this one
    const built = await prisma.dilutionRecord.findMany({ where: { cik }, select: { id: true }, orderBy: { id: 'asc' } });
    expect(built.length).toBeGreaterThan(0);
    await prisma.dilutionRecord.deleteMany({ where: { cik } });
    await prisma.dilutionProfile.deleteMany({ where: { cik } });
    const answer = await get('/v1/dilution/coverage?cik=1796129');
    expect(answer.status).toBe(200);
    expect(answer.body.tables.reduce((n: number, x: any) => n + x.rows, 0)).toBe(built.length);
    expect(await prisma.dilutionRecord.findMany({ where: { cik }, select: { id: true }, orderBy: { id: 'asc' } })).toEqual(built);
  });

  it('agent and compact views keep the verification', async () => {
    for (const view of ['agent', 'compact']) {
      const answer = await get(`/v1/dilution/share-float-history?ticker=LPA&view=${view}`);
      expect(answer.status).toBe(200);
      expectVerified(answer.body.data);
    }
  });

  it('the score reads what the offering documents state: a float, shares and warrants outstanding, each with its "as of" and sentence', async () => {
    const flat = (file: string) => dilutionTermsOfFiling({ text: texts.get(`filings/offerings/${file}`)!, name: file }).text.replace(/\s+/g, ' ');
    // Alzamend: "As of March 6, 2026, the aggregate market value … held by non-affiliates, or the public float, was $9,188,860"
    const alz = (await get('/v1/dilution/score?cik=1677077')).body;
    expect(alz.inputs.publicFloat).toMatchObject({ value: 9188860, asOf: '2026-03-06', source: { accessionNumber: '0001214659-26-002941', method: 'offering_document' } });
    expect(flat('424B5_0001214659-26-002941_Alzamend.txt')).toContain(alz.inputs.publicFloat.source.sourceSpan.replace(/\s+/g, ' '));
    expect(alz.missing).not.toContain('publicFloat');
    // Imunon: 2,896,723 shares outstanding and 965,247 warrant shares at $8.18, both as of September 30, 2025; its
    // final prospectus sells 330,000 shares: "Common stock outstanding after this offering 3,226,723 shares", as of
    // the closing it states (December 31, 2025), the newest count
    const imunon = (await get('/v1/dilution/score?cik=749647')).body;
    expect(imunon.inputs.sharesOutstanding).toMatchObject({ value: 3226723, asOf: '2025-12-31', source: { accessionNumber: '0001493152-25-029712', method: 'offering_document' } });
    expect(imunon.inputs.sharesOutstanding.source.sourceSpan).toContain('3,226,723 shares');
    expect(imunon.inputs.warrantsOutstanding.source.sourceSpan).toContain('965,247 shares of common stock issuable upon the exercise of outstanding warrants');
    expect(imunon.ratings.overhang.band).not.toBe('unknown');
    // Traws: 3,025,554 shares outstanding as of November 11, 2024, and 3,633,751 after its offering and the
    // concurrent warrant placement, as of their closing (December 31, 2024); Acurx: 12,939,128 as of June 1, 2023
    const traws = (await get('/v1/dilution/score?cik=1130598')).body;
    expect(traws.inputs.sharesOutstanding).toMatchObject({ value: 3633751, asOf: '2024-12-31', source: { accessionNumber: '0001104659-24-132924' } });
    const acurx = (await get('/v1/dilution/score?cik=1736243')).body;
    expect(acurx.inputs.sharesOutstanding).toMatchObject({ value: 12939128, asOf: '2023-06-01', source: { accessionNumber: '0001104659-23-076317' } });
    // no count of outstanding warrants is stated: the warrants the S-1 states were issued (pre-funded 731,482, series C and D 1,333,333 each)
    const acurxWarrants = await all('/v1/dilution/warrants?cik=1736243');
    expect(acurxWarrants.length).toBeGreaterThan(0);
    expect(acurx.inputs.warrantsOutstanding).toMatchObject({ value: 731482 + 1333333 + 1333333, source: { accessionNumber: '0001104659-23-076317' } });
    expect(acurx.ratings.overhang.band).not.toBe('unknown');
    // the share-float history holds them too, cited to the document
    const history = await all('/v1/dilution/share-float-history?cik=749647');
    expect(history.find((r) => r.kind === 'shares_outstanding' && r.date === '2025-09-30')).toMatchObject({ values: { shares: '2896723' }, verification: { method: 'offering_document', accessionNumber: '0001493152-25-029712' } });
    expect(history.find((r) => r.kind === 'shares_outstanding' && r.date === '2025-12-31')).toMatchObject({ values: { shares: '3226723', basis: 'after_offering' }, verification: { method: 'offering_document' } });
    expect(history.filter((r) => r.kind === 'shares_outstanding' && r.date === '2024-12-31' && r.accessionNumber === '0001104659-24-132924')).toHaveLength(0); // (Traws's is its own company's)
  });

  it('overhang counts the warrants issued after the date of the outstanding count: Imunon\'s 3,548,228', async () => {
    // "965,247 shares … issuable upon the exercise of outstanding warrants" as of September 30, 2025; the final
    // prospectus of December 31, 2025 then issues pre-funded warrants for 1,609,114 shares and warrants for 1,939,114
    const raw = texts.get('filings/offerings/424B5_0001493152-25-029712_Imunon.txt')!;
    for (const printed of ['965,247', '1,609,114', '1,939,114', '3,226,723']) expect(raw).toContain(printed);
    const imunon = (await get('/v1/dilution/score?cik=749647')).body;
    expect(imunon.inputs.warrantsOutstanding).toMatchObject({ value: 965247 + 1609114 + 1939114, asOf: '2025-12-31', source: { accessionNumber: '0001493152-25-029712' } });
    expect(imunon.inputs.warrantsOutstanding.source.sourceSpan).toMatch(/the count as of 2025-09-30: .*965,247 .*issued after that date: .*1,609,114.*1,939,114/);
    // 4,513,475 potential shares against 3,226,723 outstanding, both as of the closing
    expect(imunon.ratings.overhang.reasons.join(' ')).toContain('4,513,475');
    expect(imunon.ratings.overhang.reasons.join(' ')).toContain('3,226,723');
    // Traws: 12,650 outstanding at September 30, 2024, then its concurrent placement's warrants for 7,230,301 shares
    // (a total the document gives for the Series A and pre-funded warrants together), and its preferred stock as
    // converted ("7,440 shares of Preferred Stock, included on an as converted basis to 2,976,000 of Common Stock")
    const traws = (await get('/v1/dilution/score?cik=1130598')).body;
    expect(traws.inputs.warrantsOutstanding).toMatchObject({ value: 12650 + 7230301, asOf: '2024-12-31' });
    expect(traws.inputs.convertibleShares).toMatchObject({ value: 2976000, asOf: '2024-09-30', source: { accessionNumber: '0001104659-24-132924', method: 'offering_document' } });
    expect(traws.inputs.convertibleShares.source.sourceSpan).toContain('2,976,000');
    const convertibles = await all('/v1/dilution/convertibles?cik=1130598');
    expect(convertibles).toEqual([expect.objectContaining({ date: '2024-09-30', values: expect.objectContaining({ instrument: 'preferred_stock', asConverted: '2976000', preferredShares: 7440 }) })]);
  });

  it('a shelf capacity from a float older than the 60 days I.B.6 measures, which the document itself exceeds, is not an input: it says which float', async () => {
    const imunon = (await get('/v1/dilution/score?cik=749647')).body;
    expect(imunon.inputs.shelfCapacityRemaining).toMatchObject({ missing: true, reason: expect.stringContaining('$18,075,494 as of 2024-05-10') });
    expect(imunon.inputs.shelfCapacityRemaining.reason).toContain('sells $7,000,040.63, more than the $5,690,505');
    const event = (await all('/v1/dilution/events?cik=749647')).find((r) => r.accessionNumber === '0001493152-25-029712' && 'offeringType' in r.values);
    expect(event.values.babyShelf).toMatchObject({ floatDate: '2024-05-10', floatSource: 'document', floatStatedIn: 'this_document', floatAgeDays: 600, floatCurrent: false, capacity: { remaining: 5690505, established: false } });
    // Alzamend's float is as of its document's date: its stated capacity stands
    const alz = (await get('/v1/dilution/score?cik=1677077')).body;
    expect(alz.inputs.shelfCapacityRemaining).toMatchObject({ value: 3061933 });
  });

  it('offering counts: what held documents establish is closed, index-only rows are possible', async () => {
    const vincerx = (await get('/v1/dilution/score?cik=1796129')).body;
    expect(vincerx.inputs.recentOfferingsLast12m).toMatchObject({ value: 0 });
    expect(vincerx.inputs.recentOfferingsLast12m.possible).toBeGreaterThan(0);
    expect(vincerx.ratings.float_growth.reasons.join(' ')).toMatch(/possible in that window/);
    // Traws's final 424B4 prices a sale: one closed; Acurx holds only a resale S-1: none established
    const traws = (await get('/v1/dilution/score?cik=1130598')).body;
    expect(traws.inputs.recentOfferingsLast12m).toMatchObject({ value: 1, possible: 0, source: { accessionNumber: '0001104659-24-132924' } });
    for (const s of [traws, vincerx]) expect(s.ratings.float_growth.reasons.join(' ')).not.toMatch(/no share count history or offering count on file/);
  });

  it('a sale a preliminary document recounts is possible, never closed: Acurx\'s May 2023 registered direct', async () => {
    // the resale S-1 (a registration statement not yet effective) recounts "On May 16, 2023, we … issued and sold in a
    // registered direct offering an aggregate of 601,851 shares …": the sale's own prospectus is not held
    const acurx = (await get('/v1/dilution/score?cik=1736243')).body;
    expect(acurx.inputs.recentOfferingsLast12m).toMatchObject({ value: 0, possible: 1, source: { accessionNumber: '0001104659-23-076317' } });
    expect(acurx.inputs.recentOfferingsLast12m.source.sourceSpan).toMatch(/recounted by a preliminary S-1: On May 16, 2023, .*registered direct offering/);
    expect(acurx.ratings.float_growth.reasons.join(' ')).toMatch(/1 more offering possible in that window/);
    const events = await all('/v1/dilution/events?cik=1736243');
    const recounted = events.find((r) => r.kind === 'offering' && r.values.recountedBy === 'offering_document');
    expect(recounted).toMatchObject({ kind: 'offering', date: '2023-05-16', accessionNumber: '0001104659-23-076317', values: { offeringType: 'registered_direct', sharesOffered: 601851, preFundedWarrantShares: 731482, status: 'possible' }, verification: { method: 'offering_document' } });
    const flat = dilutionTermsOfFiling({ text: texts.get('filings/offerings/S-1_0001104659-23-076317_Acurx.txt')!, name: 'S-1' }).text.replace(/\s+/g, ' ');
    expect(flat).toContain(recounted.verification.sourceSpan.replace(/\s+/g, ' '));
    // a final prospectus pricing a sale is still closed, and alone (Traws)
    const traws = (await get('/v1/dilution/score?cik=1130598')).body;
    expect(traws.inputs.recentOfferingsLast12m).toMatchObject({ value: 1, possible: 0 });
  });

  it('registration effectiveness (EFFECT) and Form 25 delisting are corporate actions, confirmed by the document that recounts them', async () => {
    const actions = await all('/v1/dilution/corporate-actions?cik=1796129');
    const recent = JSON.parse(texts.get('submissions/CIK0001796129.json')!).filings.recent;
    const expected = (recent.form as string[]).flatMap((form, i) => (['EFFECT', '25', '25-NSE'].includes(form) ? [recent.accessionNumber[i] as string] : []));
    expect(expected.length).toBeGreaterThan(5);
    const indexed = actions.filter((r) => r.verification.method === 'filing_index' && r.values.action);
    expect(indexed.map((r) => r.accessionNumber).sort()).toEqual([...expected].sort());
    // the S-3/A's registration 333-284478 declared effective on April 2, 2025: the POS AM says so
    const effective = actions.find((r) => r.accessionNumber === '9999999995-25-000942');
    expect(effective).toMatchObject({ form: 'EFFECT', date: '2025-04-02', fromIndexOnly: true, values: { action: 'registration_effective', fileNumber: '333-284478', statedIn: { accessionNumber: '0001193125-25-110092', form: 'POS AM' } } });
    expect(effective.values.statedIn.sourceSpan).toContain('declared effective on April 2, 2025');
    // "On April 28, 2025, the Registrant filed a Notification of Removal From Listing and/or Registration on Form 25 …"
    const delisting = actions.find((r) => r.form === '25');
    expect(delisting).toMatchObject({ date: '2025-04-28', values: { action: 'delisting_notice', filedBy: 'issuer', statedIn: { exchange: 'Nasdaq Stock Market LLC', securities: 'common stock' } } });
    expect(delisting.values.statedIn.sourceSpan).toContain('on Form 25');
    expect(actions.filter((r) => r.form === '25-NSE').every((r) => r.values.filedBy === 'exchange')).toBe(true);
    // the S-3 recounts the earlier shelf's effectiveness (333-262239, January 28, 2022): the index's notice cites it
    expect(actions.find((r) => r.accessionNumber === '9999999995-22-000275')).toMatchObject({ values: { fileNumber: '333-262239', effectiveForm: 'S-3', statedIn: { accessionNumber: '0001193125-25-012209' } } });
    expectVerified(actions);
  });

  it('records built by the rules before these figures are rebuilt on the next read', async () => {
    const { prisma } = t.service.services;
    const cik = '0001796129';
    await prisma.dilutionRecord.deleteMany({ where: { cik, kind: 'corporate_action' } });
    await prisma.dilutionProfile.update({ where: { cik }, data: { version: 5 } });
    t.service.services.cache.data.clear();
    const actions = await all('/v1/dilution/corporate-actions?cik=1796129');
    expect(actions.some((r) => r.values.action === 'registration_effective')).toBe(true);
  });

  it('a preliminary supplement is an offering with status preliminary, its blanks unknown', async () => {
    const events = await all('/v1/dilution/events?cik=923139');
    const flushing = events.find((r) => r.kind === 'offering' && r.form === '424B5');
    expect(flushing, JSON.stringify(events)).toMatchObject({ date: '2024-12-12', values: { status: 'preliminary', isPreliminary: true, documentDate: '2024-12-12', blanks: ['sharesOffered', 'pricePerShare', 'grossProceeds'], sharesOffered: null, pricePerShare: null, grossProceeds: null } });
    const score = (await get('/v1/dilution/score?cik=923139')).body;
    expect(score.inputs.sharesOutstanding).toMatchObject({ value: 29068903, asOf: '2024-09-30' });
  });

  it('every dilution route is an MCP tool', async () => {
    const dilution = routes.filter((r) => r.path.startsWith('/v1/dilution'));
    expect(dilution).toHaveLength(14);
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    for (const route of dilution) expect(tools).toContain(route.name);
    const called = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'dilution_exchange_compliance_list', arguments: { ticker: 'ALZN', limit: 2 } } }),
    });
    const result = ((await called.json()) as { result: { structuredContent: { data: unknown[] } } }).result;
    expect(result.structuredContent.data).toHaveLength(2);
  });
});
