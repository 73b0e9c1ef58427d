// Fund letters: the shareholder letters of N-CSR/N-CSRS reports, fetched from a local server that
// speaks the SEC's paths and serves reports this test writes in the SEC's N-CSR structure (a report
// from before the tailored shareholder report rule, with its letter, and one after it, without),
// for the fund registrant the database follows through its N-CEN (AB Active ETFs, Inc., from the
// corpus). Before anything is fetched the family says not_covered and how to fetch; after, the
// letters read through REST, GraphQL and MCP, cite their filings, and are searchable.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { fetchFundLetters, fundLetterFetchLine, type FundLetterFetchSummary } from '../../ingest/fundLetters.ts';
import { runSync } from '../../ingest/sync.ts';
import { runCommand } from '../../server/commands.ts';
import { loadConfig } from '../../core/config.ts';
import { routes } from '../../catalogue/routes/index.ts';
import type { Source } from '../../ingest/sources/types.ts';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';
import { startSecServer, type SecServer } from '../support/secServer.ts';
import { archivePath, fullReport, fundSubmissions, tailoredReport, type ListedFiling } from '../support/ncsrDocuments.ts';

const registrant = { cik: '0001496608', name: 'AB Active ETFs, Inc.', fileNumber: '811-23799' };
const userAgent = 'Fund Letters Test admin@example.com';

const annual2023: ListedFiling = { accessionNumber: '0001193125-24-051234', form: 'N-CSR', filingDate: '2024-02-28', reportDate: '2023-11-30', primaryDocument: 'd512345dncsr.htm' };
const semiAnnual2023: ListedFiling = { accessionNumber: '0001193125-23-190001', form: 'N-CSRS', filingDate: '2023-07-27', reportDate: '2023-05-31', primaryDocument: 'd190001dncsrs.htm' };
const annual2024: ListedFiling = { accessionNumber: '0001193125-25-033333', form: 'N-CSR', filingDate: '2025-02-03', reportDate: '2024-11-30', primaryDocument: 'd333333dncsr.htm' };
const annual2022: ListedFiling = { accessionNumber: '0001193125-23-020202', form: 'N-CSR', filingDate: '2023-02-01', reportDate: '2022-11-30', primaryDocument: 'd020202dncsr.htm' }; // beyond --latest 2: listed, not fetched
const semiAnnual2025: ListedFiling = { accessionNumber: '0001193125-25-170000', form: 'N-CSRS', filingDate: '2025-07-29', reportDate: '2025-05-31', primaryDocument: 'd170000dncsrs.htm' }; // arrives by the sync

const letter2023 = fullReport(registrant, {
  periodEnd: 'November 30, 2023',
  periodLabel: 'November 30, 2023',
  fund: 'AB Conservative Buffer ETF',
  letter: {
    heading: 'Letter to Shareholders',
    paragraphs: [
      'Markets rallied over the twelve months as inflation cooled and the Federal Reserve paused its rate increases.',
      'Your Fund returned 11.2%, helped by its semiconductor holdings, while its options overlay limited the drawdown in October.',
    ],
    signers: [
      { name: 'Onur Erzan', title: 'President and Chief Executive Officer' },
      { name: 'Emilie D. Wrapp', title: 'Secretary' },
    ],
  },
  discussion: ['The Fund outperformed its benchmark because of its overweight in information technology.', 'Detractors included energy stocks as oil prices fell in the fourth quarter.'],
});
const letterSemi2023 = fullReport(registrant, {
  form: 'N-CSRS',
  periodEnd: 'May 31, 2023',
  periodLabel: 'May 31, 2023',
  fund: 'AB Conservative Buffer ETF',
  letter: {
    heading: 'Message from the President',
    paragraphs: ['Regional bank failures in March unsettled markets; the Fund held no bank debt and kept its buffer intact through the period.'],
    signers: [{ name: 'Onur Erzan', title: 'President and Chief Executive Officer' }],
  },
  discussion: ['Over the six months the Fund returned 3.4% as large technology stocks recovered.'],
});
const tailored2024 = tailoredReport(registrant, {
  periodEnd: 'November 30, 2024',
  periodLabel: 'November 30, 2024',
  funds: [
    { name: 'AB Conservative Buffer ETF', ticker: 'BUFC', discussion: ['The Fund returned 9.8% as equity markets rose; the options overlay capped part of the upside in the semiconductor rally.'] },
    { name: 'AB Core Bond ETF', ticker: 'CORB', discussion: ['Falling short-term rates lifted bond prices and the Fund returned 6.1%, led by mortgage-backed securities.'] },
  ],
});

const submissionsPath = `/submissions/CIK${registrant.cik}.json`;
const files: Record<string, string> = {
  [submissionsPath]: fundSubmissions(registrant, [annual2024, annual2023, semiAnnual2023, annual2022]),
  [archivePath(registrant.cik, annual2023)]: letter2023,
  [archivePath(registrant.cik, semiAnnual2023)]: letterSemi2023,
  [archivePath(registrant.cik, annual2024)]: tailored2024,
};

const corpusItems = (keys: string[]): Source => ({
  describe: () => 'fund registrants of the corpus',
  async *items() {
    for (const key of keys) yield { key, name: key.split('/').pop()!, read: () => readFile(path.join(corpusDir, key), 'utf8') };
  },
});

interface Letter {
  id: string;
  accessionNumber: string;
  citationUrl: string;
  form: string;
  filedAt: string;
  reportKind: string;
  periodEnd: string | null;
  registrantCik: string;
  registrantName: string | null;
  fundNames: string[];
  shape: string;
  letterNullReason: string | null;
  signers: { name: string; title: string | null }[];
  sections: { key: string; kind: string; title: string; ordinal: number; charCount: number; text?: string }[];
  match: { sectionKey: string; snippet: string; phraseMatch: boolean } | null;
}

describe.runIf(hasCorpus)('fund letters: N-CSR/N-CSRS shareholder letters fetched from the SEC', { timeout: 60_000 }, () => {
  let t: TestService;
  let sec: SecServer;
  let key: string;
  let fetched: FundLetterFetchSummary;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Fund letter readers', 'team'));
    expect(await runIngest(t.service.services, corpusItems(['forms/ncen/N-CEN_0001410368-26-010918_AB-Active-ETFs.txt']))).toMatchObject({ failed: 0 });
    sec = await startSecServer({ files, failFirst: [{ path: archivePath(registrant.cik, annual2023), status: 503, times: 1 }] });
  }, 300_000);
  afterAll(async () => {
    await sec?.close();
    await t?.close();
  });

  it('before any report is fetched, says not_covered and how an operator fetches them, not an empty list', async () => {
    const all = await get('/v1/funds/letters');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body).toMatchObject({ object: 'list', data: [], hasMore: false, resolution: 'not_covered' });
    expect(all.body.notCoveredReason).toMatch(/^not_covered: no N-CSR or N-CSRS report is held\. .*fund-letters:fetch/);
    const one = await get(`/v1/funds/letters?cik=${Number(registrant.cik)}`);
    expect(one.body).toMatchObject({ data: [], resolution: 'not_covered' });
    expect(one.body.notCoveredReason).toContain(`CIK ${registrant.cik}`);
  });

  it('fetches the latest reports of each form of the registrants the database follows, through the SEC client', async () => {
    const { prisma, bus, logger } = t.service.services;
    fetched = await fetchFundLetters({ prisma, bus, logger }, { userAgent, baseUrls: sec.baseUrls, retry: { baseDelayMs: 5, maxDelayMs: 20 }, logger });
    expect(fetched.ciks).toEqual([registrant.cik]);
    expect(fetched.ingest).toMatchObject({ failed: 0, partial: 0 });
    expect(fundLetterFetchLine(fetched)).toMatch(/^fund-letters:fetch: 1 registrant; \d+ items written, 0 failed/);
    const asked = sec.requests.map((r) => r.path);
    expect(asked).toEqual(expect.arrayContaining([submissionsPath, archivePath(registrant.cik, annual2024), archivePath(registrant.cik, annual2023), archivePath(registrant.cik, semiAnnual2023)]));
    expect(asked).not.toContain(archivePath(registrant.cik, annual2022));
    expect(sec.requests.every((r) => r.userAgent === userAgent)).toBe(true);
    expect(sec.requests.filter((r) => r.path === archivePath(registrant.cik, annual2023)).map((r) => r.status)).toEqual([503, 200]);
  });

  it('lists the letters newest first, each citing its filing', async () => {
    const answer = await get('/v1/funds/letters');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ resolution: 'covered', notCoveredReason: null });
    const letters = answer.body.data as Letter[];
    expect(letters.map((l) => [l.id, l.form, l.filedAt])).toEqual([
      [annual2024.accessionNumber, 'N-CSR', '2025-02-03'],
      [annual2023.accessionNumber, 'N-CSR', '2024-02-28'],
      [semiAnnual2023.accessionNumber, 'N-CSRS', '2023-07-27'],
    ]);
    for (const [l, f] of letters.map((l, i) => [l, [annual2024, annual2023, semiAnnual2023][i]!] as const)) {
      expect(l).toMatchObject({ object: 'fund_letter', accessionNumber: f.accessionNumber, citationUrl: `https://www.sec.gov/Archives/edgar/data/1496608/${f.accessionNumber.replace(/-/g, '')}/${f.primaryDocument}`, registrantCik: registrant.cik, registrantName: registrant.name });
    }
    expect(letters[2]).toMatchObject({ reportKind: 'semi_annual', periodEnd: '2023-05-31', sections: [{ key: 'letter', kind: 'letter', title: 'Message from the President' }, { key: 'letter_1', kind: 'performance_discussion' }] });
  });

  it('reads a letter from before the tailored rule: its sections with their text, period and signers', async () => {
    const answer = await get(`/v1/funds/letters/${annual2023.accessionNumber}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const letter = answer.body as Letter;
    expect(letter).toMatchObject({ shape: 'full_report', reportKind: 'annual', periodEnd: '2023-11-30', letterNullReason: null, signersNullReason: null });
    expect(letter.signers).toEqual([
      { name: 'Onur Erzan', title: 'President and Chief Executive Officer' },
      { name: 'Emilie D. Wrapp', title: 'Secretary' },
    ]);
    expect(letter.sections.map((s) => [s.key, s.kind, s.title])).toEqual([
      ['letter', 'letter', 'Letter to Shareholders'],
      ['letter_1', 'performance_discussion', 'Management\'s Discussion of Fund Performance'],
    ]);
    expect(letter.sections[0]!.text).toMatch(/^Dear Shareholder,\n\nMarkets rallied over the twelve months/);
    expect(letter.sections[0]!.text).toContain('Sincerely,');
    expect(letter.sections[0]!.text).not.toMatch(/Schedule of Investments|Apple Inc\./); // the letter ends where the report's next part begins
    expect(letter.sections[1]!.text).toBe('The Fund outperformed its benchmark because of its overweight in information technology.\n\nDetractors included energy stocks as oil prices fell in the fourth quarter.');
    expect(letter.sections[0]!.charCount).toBe(letter.sections[0]!.text!.length);
    // the letter is the filing's sections: the filings family reads them too, and the reader renders the document
    const section = await get(`/v1/filings/${annual2023.accessionNumber}/sections/letter`);
    expect(section.status).toBe(200);
    expect(JSON.stringify(section.body)).toContain('Markets rallied over the twelve months');
    const rendered = await get(`/v1/filings/${annual2023.accessionNumber}/render?format=markdown`);
    expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
    expect(rendered.body).toMatchObject({ form: 'N-CSR', fileName: annual2023.primaryDocument });
    expect(rendered.body.content).toContain('Letter to Shareholders');
  });

  it('reads a tailored shareholder report: no letter, and says so; each fund\'s discussion of performance', async () => {
    const letter = (await get(`/v1/funds/letters/${annual2024.accessionNumber}`)).body as Letter & { signersNullReason: string };
    expect(letter).toMatchObject({ shape: 'tailored_shareholder_report', periodEnd: '2024-11-30', fundNames: ['AB Conservative Buffer ETF', 'AB Core Bond ETF'], signers: [] });
    expect(letter.letterNullReason).toMatch(/^not_reported: a tailored shareholder report/);
    expect(letter.signersNullReason).toMatch(/^not_reported/);
    expect(letter.sections.map((s) => [s.key, s.kind, s.title])).toEqual([
      ['letter', 'performance_discussion', 'How did the Fund perform last year and what affected its performance? (AB Conservative Buffer ETF)'],
      ['letter_1', 'performance_discussion', 'How did the Fund perform last year and what affected its performance? (AB Core Bond ETF)'],
    ]);
    expect(letter.sections[1]!.text).toBe('Falling short-term rates lifted bond prices and the Fund returned 6.1%, led by mortgage-backed securities.');
  });

  it('searches the letters\' words: each letter once, best match first, with a highlighted snippet', async () => {
    const answer = await get('/v1/funds/letters?q=semiconductor');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const letters = answer.body.data as Letter[];
    expect(letters.map((l) => l.id).sort()).toEqual([annual2023.accessionNumber, annual2024.accessionNumber].sort());
    for (const l of letters) expect(l.match!.snippet).toMatch(/<mark>semiconductor<\/mark>/i);
    const phrase = await get(`/v1/funds/letters?q=${encodeURIComponent('"regional bank failures"')}`);
    expect((phrase.body.data as Letter[]).map((l) => [l.id, l.match!.sectionKey, l.match!.phraseMatch])).toEqual([[semiAnnual2023.accessionNumber, 'letter', true]]);
    const none = await get('/v1/funds/letters?q=cryptocurrency');
    expect(none.body).toMatchObject({ data: [], resolution: 'covered' });
    expectEnvelope(await get('/v1/funds/letters?q=the'), 400, 'invalid_query_parameter');
  });

  it('filters by a fund share class ticker, form and filing dates, and pages without overlap', async () => {
    const byTicker = await get('/v1/funds/letters?ticker=BUFC');
    expect(byTicker.status).toBe(200);
    expect(byTicker.body.data).toHaveLength(3);
    expectEnvelope(await get('/v1/funds/letters?ticker=ZZZZQ'), 404, 'entity_not_found');
    const semi = await get('/v1/funds/letters?form=N-CSRS');
    expect((semi.body.data as Letter[]).map((l) => l.id)).toEqual([semiAnnual2023.accessionNumber]);
    const dated = await get('/v1/funds/letters?filed_from=2024-01-01&filed_to=2024-12-31');
    expect((dated.body.data as Letter[]).map((l) => l.id)).toEqual([annual2023.accessionNumber]);
    const seen: string[] = [];
    for (let cursor: string | null = '', pages = 0; cursor !== null && pages < 5; pages++) {
      const page = await get(`/v1/funds/letters?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...(page.body.data as Letter[]).map((l) => l.id));
      cursor = page.body.nextCursor;
    }
    expect(seen).toEqual([annual2024.accessionNumber, annual2023.accessionNumber, semiAnnual2023.accessionNumber]);
    expectEnvelope(await get('/v1/funds/letters?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/funds/letters?form=10-K'), 400, 'invalid_query_parameter');
  });

  it('a report the index lists but that was not fetched is 404 with not_covered and the command that fetches it', async () => {
    const answer = expectEnvelope(await get(`/v1/funds/letters/${annual2022.accessionNumber}`), 404, 'filing_not_found');
    expect(answer.message).toMatch(/the filing index lists, but its report has not been fetched/);
    expect(JSON.stringify(answer)).toContain('"coverage":"not_covered"');
    expect(JSON.stringify(answer)).toContain('fund-letters:fetch --ciks 1496608');
    expectEnvelope(await get('/v1/funds/letters/0000000000-00-000000'), 404, 'filing_not_found');
    expectEnvelope(await get('/v1/funds/letters/not-an-accession'), 400, 'invalid_request_parameter');
  });

  it('says not_covered for a followed registrant none of whose reports is held', async () => {
    expect(await runIngest(t.service.services, corpusItems(['forms/ncen/N-CEN_0001410368-26-010921_AB-Cap-Fund.txt']))).toMatchObject({ failed: 0 });
    const answer = await get('/v1/funds/letters?cik=81443');
    expect(answer.body).toMatchObject({ data: [], resolution: 'not_covered' });
    expect(answer.body.notCoveredReason).toMatch(/^not_covered: no N-CSR or N-CSRS report of CIK 0000081443 is held/);
    expectEnvelope(await get('/v1/funds/letters?cik=9999999998'), 404, 'entity_not_found');
  });

  it('answers as the contract documents, in every view', async () => {
    const documented = (name: string) => routes.find((r) => r.name === name)!.response;
    for (const view of ['default', 'compact', 'agent']) {
      for (const query of ['', '&q=semiconductor', `&cik=81443`]) {
        const answer = await get(`/v1/funds/letters?view=${view}${query}`);
        expect(answer.status).toBe(200);
        expect(documented('fund_letters_list').safeParse(answer.body).error).toBeUndefined();
      }
      const one = await get(`/v1/funds/letters/${annual2024.accessionNumber}?view=${view}`);
      expect(documented('fund_letters_get').safeParse(one.body).error).toBeUndefined();
    }
    const agent = (await get('/v1/funds/letters?view=agent&q=semiconductor')).body.data as Letter[];
    expect(agent.every((l) => l.citationUrl && l.match && l.sections.length)).toBe(true);
  });

  it('answers the same through GraphQL and MCP', async () => {
    const rest = (await get(`/v1/funds/letters/${annual2023.accessionNumber}`)).body as Letter;
    const graphql = await call(t, 'POST', '/graphql', { key, body: { query: `{ fundLetter(accessionNumber: "${annual2023.accessionNumber}") { citationUrl signers { name title } sections { key text } } }` } });
    expect(graphql.body.data.fundLetter).toEqual({ citationUrl: rest.citationUrl, signers: rest.signers, sections: rest.sections.map((s) => ({ key: s.key, text: s.text })) });
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fund_letters_list', arguments: { q: 'semiconductor', limit: 5 } } }),
    });
    const result = ((await mcp.json()) as { result: { structuredContent: { data: Letter[] } } }).result;
    expect(result.structuredContent.data.map((l) => l.id).sort()).toEqual([annual2023.accessionNumber, annual2024.accessionNumber].sort());
    const missing = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fund_letters_get', arguments: { accession_number: annual2022.accessionNumber } } }),
    });
    expect(JSON.stringify(await missing.json())).toContain('filing_not_found');
  });

  it('fetches a report again only when it is new: the sync brings a followed registrant\'s new N-CSRS', async () => {
    const before = sec.requests.length;
    const { prisma, bus, logger } = t.service.services;
    // the operator command, as `npm run ids -- fund-letters:fetch` runs it (in its own process, or in the server's that owns the state folder)
    const said: string[] = [];
    const config = loadConfig({ ...process.env, IDS_SEC_USER_AGENT: userAgent, IDS_SEC_BASE_URL: sec.url });
    const exit = await runCommand(['fund-letters:fetch', '--ciks', '1496608'], { config, say: (line) => said.push(line), note: () => undefined, progress: false, database: async () => ({ prisma, bus, logger, appliedMigrations: [] }) });
    expect(exit).toBe(0);
    expect(said).toEqual([expect.stringMatching(/^fund-letters:fetch: 1 registrant; \d+ items written, 0 failed/)]);
    expect(sec.requests.slice(before).map((r) => r.path).filter((p) => p.startsWith('/Archives/'))).toEqual([]);
    await expect(runCommand(['fund-letters:fetch', '--latest', '0'], { config, say: () => undefined, note: () => undefined, progress: false, database: async () => ({ prisma, bus, logger, appliedMigrations: [] }) })).rejects.toThrow(/--latest is a whole number/);

    // EDGAR publishes a new semi-annual report in the day's form index
    files[submissionsPath] = fundSubmissions(registrant, [semiAnnual2025, annual2024, annual2023, semiAnnual2023, annual2022]);
    files[archivePath(registrant.cik, semiAnnual2025)] = fullReport(registrant, {
      form: 'N-CSRS',
      periodEnd: 'May 31, 2025',
      periodLabel: 'May 31, 2025',
      fund: 'AB Conservative Buffer ETF',
      letter: { heading: 'Shareholder Letter', paragraphs: ['Tariff announcements in April drove volatility that the Fund\'s buffer absorbed.'], signers: [{ name: 'Onur Erzan', title: 'President' }] },
      discussion: ['The Fund returned 2.2% over the six months.'],
    });
    const compact = '20250729';
    files[`/Archives/edgar/daily-index/2025/QTR3/form.${compact}.idx`] = [
      'Description:           Daily Index of EDGAR Dissemination Feed by Form Type',
      'Last Data Received:    2025-07-29',
      '',
      `${'Form Type'.padEnd(12)}${'Company Name'.padEnd(62)}${'CIK'.padEnd(12)}${'Date Filed'.padEnd(12)}File Name`,
      '-'.repeat(120),
      `${'N-CSRS'.padEnd(12)}${registrant.name.padEnd(62)}${'1496608'.padEnd(12)}${compact.padEnd(12)}edgar/data/1496608/${semiAnnual2025.accessionNumber}.txt`,
      '',
    ].join('\n');
    const synced = await runSync({ prisma, bus, logger }, { userAgent, baseUrls: sec.baseUrls, since: '2025-07-29', today: '2025-07-29', retry: { baseDelayMs: 5, maxDelayMs: 20 }, logger });
    expect(synced.days).toMatchObject([{ date: '2025-07-29', outcome: 'synced', companies: 1 }]);
    const latest = (await get('/v1/funds/letters?limit=1')).body.data[0] as Letter;
    expect(latest).toMatchObject({ id: semiAnnual2025.accessionNumber, form: 'N-CSRS', periodEnd: '2025-05-31', sections: [{ key: 'letter', title: 'Shareholder Letter' }, { key: 'letter_1' }] });
  });
});
