// Compensation and board against the real corpus: Cabot's DEF 14A pay versus
// performance (ecd inline XBRL and us-gaap:NetIncomeLoss), its director nominees, and JPMorgan's
// 8-K Item 5.02.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProxyStatement } from '../../ingest/parsers/proxy/proxyStatement.ts';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/|filings\/proxy\/|filings\/8k\/8-K_0000019617)/;
const amount = (n: string) => Number(n).toLocaleString('en-US');
const cabotProxy = 'filings/proxy/DEF14A_CIK0000016040_Cabot_2024-proxy_ixbrl.html';

/** The ix:nonFraction of a tag and contextRef as the file writes it: displayed text and attributes. */
function taggedNumber(text: string, name: string, contextRef: string) {
  const match = new RegExp(`<ix:nonFraction name="${name}"\\s+contextRef="${contextRef}"([^>]*)>\\s*([^<]*?)\\s*</ix:nonFraction>`).exec(text);
  if (!match) throw new Error(`${name} ${contextRef} is not in the file`);
  return { displayed: match[2], scale: /scale="(-?\d+)"/.exec(match[1])?.[1] ?? null, sign: /sign="([^"]*)"/.exec(match[1])?.[1] ?? null };
}

describe('proxy statement inline XBRL', () => {
  // Cabot's table uses scale="6" and no sign attribute; these cover what it does not: sign="-",
  // a negative scale, a text fact nested in a text block, ix:exclude and ix:continuation.
  const html = `<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:gaap="http://fasb.org/us-gaap/2023" xmlns:ecd="http://xbrl.sec.gov/ecd/2023"><ix:header><ix:resources>
    <xbrli:context id="FY23"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2023-01-01</xbrli:startDate><xbrli:endDate>2023-12-31</xbrli:endDate></xbrli:period></xbrli:context>
    <xbrli:unit id="USD"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit></ix:resources></ix:header>
    <td>$(<ix:nonFraction name="gaap:NetIncomeLoss" contextRef="FY23" unitRef="USD" decimals="-5" scale="6" sign="-" format="ixt:num-dot-decimal">1,234.5</ix:nonFraction>) M</td>
    <td><ix:nonFraction name="ecd:CoSelectedMeasureAmt" contextRef="FY23" unitRef="USD" decimals="2" scale="-2" format="ixt:num-dot-decimal">12,345</ix:nonFraction></td>
    <ix:nonNumeric name="ecd:TabularListTableTextBlock" contextRef="FY23"><p><ix:nonNumeric name="ecd:CoSelectedMeasureName" contextRef="FY23" continuedAt="c1">Adjusted<ix:exclude> (see note)</ix:exclude></ix:nonNumeric></p></ix:nonNumeric>
    <ix:continuation id="c1"> Operating
      Income</ix:continuation></html>`;

  it('applies scale and sign, and reads text facts with their contextRef', () => {
    const parts = parseProxyStatement(html);
    expect(parts.payVersusPerformance.map((f) => [`${f.taxonomy}:${f.tag}`, f.value, f.contextRef])).toEqual([
      ['us-gaap:NetIncomeLoss', '-1234500000', 'FY23'],
      ['ecd:CoSelectedMeasureAmt', '123.45', 'FY23'],
    ]);
    expect(parts.payVersusPerformanceText).toEqual([expect.objectContaining({ tag: 'CoSelectedMeasureName', taxonomy: 'ecd', contextRef: 'FY23', text: 'Adjusted Operating Income', periodEnd: '2023-12-31' })]);
    expect(parts.directorNominees.nominees).toEqual([]);
  });
});

describe.runIf(hasCorpus)('compensation and board', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const get = (route: string) => call(t, 'GET', route, { key });

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Proxy readers', 'team'));
    await runIngest(t.service.services, corpusSubset(wanted));
  }, 600_000);
  afterAll(() => t?.close());

  it('gives Cabot\'s pay versus performance as its proxy statement prints it', async () => {
    const text = await corpusFile('filings/proxy/DEF14A_CIK0000016040_Cabot_2024-proxy_ixbrl.html');
    const answer = await get('/v1/compensation/pay-versus-performance?cik=16040');
    expect(answer.status).toBe(200);
    const [proxy] = answer.body.data;
    expect(proxy).toMatchObject({ object: 'pay_versus_performance', cik: '0000016040', formType: 'DEF 14A', sourceDocument: 'filings/proxy/DEF14A_CIK0000016040_Cabot_2024-proxy_ixbrl.html' });
    expect(proxy.citationUrl ?? proxy.citationNullReason).toBeTruthy();
    const fy2023 = proxy.years.find((y: { fiscalYearEnd: string }) => y.fiscalYearEnd === '2023-09-30');
    expect(fy2023).toMatchObject({ peoSummaryCompensationTotal: '7791510', peoCompensationActuallyPaid: '8106840', nonPeoNeoAverageCompensationActuallyPaid: '2279259', totalShareholderReturn: '206', peerGroupTotalShareholderReturn: '135', companySelectedMeasureValue: '553000000' });
    for (const value of [fy2023.peoCompensationActuallyPaid, fy2023.peoSummaryCompensationTotal, fy2023.nonPeoNeoAverageSummaryCompensationTotal]) expect(text).toContain(amount(value));
    expect(proxy.years.map((y: { fiscalYearEnd: string }) => y.fiscalYearEnd)).toEqual(['2023-09-30', '2022-09-30', '2021-09-30']);
    expect(fy2023.adjustments.filter((a: { executive: string }) => a.executive === 'peo').length).toBeGreaterThan(3);
  });

  it('gives net income, the company-selected measure and the most important measures exactly as tagged, each with its tag and contextRef', async () => {
    const text = await corpusFile(cabotProxy);
    const [proxy] = (await get('/v1/compensation/pay-versus-performance?cik=16040')).body.data;
    const year = (end: string) => proxy.years.find((y: { fiscalYearEnd: string }) => y.fiscalYearEnd === end);
    // Where the values are in the file (DEF14A_CIK0000016040_Cabot_2024-proxy_ixbrl.html, the
    // pay-versus-performance table, around line 24,700; each column "$ 445 M", tagged
    // decimals="-6" scale="6" format="ixt:num-dot-decimal", no sign attribute):
    //   us-gaap:NetIncomeLoss    P10_01_2022To09_30_2023 "445" (line 24734) -> 445000000
    //   ecd:CoSelectedMeasureAmt P10_01_2022To09_30_2023 "553" (line 24744) -> 553000000
    //   us-gaap:NetIncomeLoss    P10_01_2021To09_30_2022 "209" (line 24815) -> 209000000
    //   ecd:CoSelectedMeasureAmt P10_01_2021To09_30_2022 "583" (line 24825) -> 583000000
    //   us-gaap:NetIncomeLoss    P10_01_2020To09_30_2021 "250" (line 24908) -> 250000000
    //   ecd:CoSelectedMeasureAmt P10_01_2020To09_30_2021 "492" (line 24920) -> 492000000
    const expected = [
      { end: '2023-09-30', context: 'P10_01_2022To09_30_2023', netIncome: '445000000', measure: '553000000' },
      { end: '2022-09-30', context: 'P10_01_2021To09_30_2022', netIncome: '209000000', measure: '583000000' },
      { end: '2021-09-30', context: 'P10_01_2020To09_30_2021', netIncome: '250000000', measure: '492000000' },
    ];
    for (const e of expected) {
      const y = year(e.end);
      expect(y).toMatchObject({ netIncome: e.netIncome, netIncomeNullReason: null, companySelectedMeasureValue: e.measure });
      expect(y.companySelectedMeasure).toEqual({
        name: 'Adjusted EBIT',
        value: e.measure,
        nameSource: { tag: 'ecd:CoSelectedMeasureName', contextRef: 'P10_01_2022To09_30_2023' },
        valueSource: { tag: 'ecd:CoSelectedMeasureAmt', contextRef: e.context },
      });
      expect(y.sources).toContainEqual({ field: 'netIncome', tag: 'us-gaap:NetIncomeLoss', contextRef: e.context });
      expect(y.sources).toContainEqual({ field: 'companySelectedMeasureValue', tag: 'ecd:CoSelectedMeasureAmt', contextRef: e.context });
      expect(y.sources).toContainEqual({ field: 'peoCompensationActuallyPaid', tag: 'ecd:PeoActuallyPaidCompAmt', contextRef: e.context });
      // the file itself: the displayed number times 10^scale, no sign
      for (const [name, value] of [['us-gaap:NetIncomeLoss', e.netIncome], ['ecd:CoSelectedMeasureAmt', e.measure]] as const) {
        const tagged = taggedNumber(text, name, e.context);
        expect(tagged).toEqual({ displayed: value.slice(0, 3), scale: '6', sign: null });
        expect(String(BigInt(tagged.displayed) * 10n ** BigInt(tagged.scale!))).toBe(value);
      }
    }
    expect(year('2023-09-30').adjustments).toContainEqual({
      executive: 'peo',
      adjustment: 'ReportedValueOfEquityAwards',
      amount: '5399962',
      contextRef: 'P10_01_2022To09_30_2023_PeoMemberecdExecutiveCategoryAxis_ReportedValueOfEquityAwardsMemberecdAdjToCompAxis',
    });
    // line 26823: "The Company has determined that <ix:nonNumeric name="ecd:CoSelectedMeasureName" contextRef="P10_01_2022To09_30_2023">Adjusted EBIT</ix:nonNumeric> is the financial performance measure …"
    expect(proxy).toMatchObject({
      companySelectedMeasureName: 'Adjusted EBIT',
      companySelectedMeasureNameNullReason: null,
      companySelectedMeasureNameSource: { tag: 'ecd:CoSelectedMeasureName', contextRef: 'P10_01_2022To09_30_2023' },
      mostImportantMeasuresNullReason: null,
    });
    // lines 26912-26972, the tabular list: ecd:MeasureName with contextRefs P10_01_2022To09_30_2023_<n>TypedMemberecdMeasureAxis
    // (typed ecd:MeasureAxis members 1-5); "Net Working Capital Days" is split over two lines in the file
    const names = ['Adjusted EBIT', 'Adjusted EPS', 'Adjusted RONA', 'Net Working Capital Days', 'Discretionary Free Cash Flow'];
    expect(proxy.mostImportantMeasures).toEqual(names.map((name, i) => ({ position: i + 1, name, source: { tag: 'ecd:MeasureName', contextRef: `P10_01_2022To09_30_2023_${i + 1}TypedMemberecdMeasureAxis` } })));
    for (const [i, name] of names.entries()) {
      const tagged = new RegExp(`<ix:nonNumeric name="ecd:MeasureName"\\s+contextRef="P10_01_2022To09_30_2023_${i + 1}TypedMemberecdMeasureAxis">([^<]*)</ix:nonNumeric>`).exec(text);
      expect(tagged?.[1].replace(/\s+/g, ' ').trim()).toBe(name);
    }
  });

  it('lists the DEF 14A\'s director nominees as board rows, with the heading cell and the proposal\'s sentence', async () => {
    const text = await corpusFile(cabotProxy);
    const answer = await get('/v1/board/members?cik=16040&limit=100');
    expect(answer.status).toBe(200);
    // The nominee profiles (around lines 4537-4712): a bold "<name>" paragraph and "(Nominee for Election)"
    // in one table cell; the proposal (line 4447): "Three directors are proposed to be elected at the
    // 2024 Annual Meeting. The terms of Cynthia A. Arnold, Douglas G. Del Grosso, and Christine Y. Yan
    // expire at the 2024 Annual Meeting and our Board of Directors has nominated each of them …"
    const sentence = 'The terms of Cynthia A. Arnold, Douglas G. Del Grosso, and Christine Y. Yan expire at the 2024 Annual Meeting and our Board of Directors has nominated each of them for a three-year term that will expire at the annual meeting in 2027.';
    const nominees = ['Cynthia A. Arnold', 'Douglas G. Del Grosso', 'Christine Y. Yan'];
    expect(answer.body.data).toEqual(
      nominees.map((person) =>
        expect.objectContaining({
          object: 'board_member_event',
          cik: '0000016040',
          person,
          role: 'director nominee',
          event: 'nominated',
          source: 'DEF 14A',
          sourceDocument: cabotProxy,
          sourceSpan: `${person} (Nominee for Election)`,
          excerpt: sentence,
          confidence: 'high',
        }),
      ),
    );
    for (const person of nominees) expect(text).toMatch(new RegExp(`${person}</p>\\s*<p[^>]*>\\s*\\(Nominee for Election\\)`));
    expect(text.replace(/\s+/g, ' ')).toContain(sentence);
    expect(text.replace(/\s+/g, ' ')).toContain('Three directors are proposed to be elected');
  });

  it('lists director and officer changes from 8-K Item 5.02, cited, paging without duplicates', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await get(`/v1/board/members?cik=19617&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      for (const m of answer.body.data) {
        seen.push(m.id);
        expect(m.citationUrl).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/19617\//);
        expect(m.source).toBe('8-K Item 5.02');
      }
      cursor = answer.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const all = (await get('/v1/board/members?cik=19617&limit=100')).body.data;
    expect(all).toContainEqual(expect.objectContaining({ person: 'Doug Petno', event: 'elected', effectiveDate: '2026-06-25', accessionNumber: '0000019617-26-000241' }));
    const text = await corpusFile('filings/8k/8-K_0000019617-26-000241_JPM_item5.02.htm');
    expect(text).toContain('Doug Petno');
  });

  it('answers client mistakes with the envelope, and lists the MCP tools', async () => {
    expectEnvelope(await get('/v1/compensation/pay-versus-performance?ticker=NOSUCHTICKER'), 404, 'entity_not_found');
    expectEnvelope(await get('/v1/board/members'), 400, 'invalid_query_parameter');
    expectEnvelope(await get('/v1/board/members?cik=19617&cursor=zzz'), 400, 'invalid_query_parameter');
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect((await response.json()).result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['compensation_pay_versus_performance', 'board_members_list']));
  });
});
