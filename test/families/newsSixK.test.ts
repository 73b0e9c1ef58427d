// A 6-K (report of a foreign private issuer) as a news story. The corpus holds none, so this writes
// one as EDGAR serves it (a full submission: the SGML header, the 6-K cover as the primary document
// and an EX-99.1 press release), with the SEC ticker map naming its filer, and ingests the folder
// through the ordinary ingest path.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../ingest/classify.ts';
import { runIngest } from '../../ingest/run.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const accession = '0001999917-26-000031';
const cik = '0001999917';
const headline = 'Nordhaven Shipping Reports Third Quarter 2026 Results and Raises Full-Year Guidance';
const lead = 'OSLO, Norway, November 12, 2026 – Nordhaven Shipping ASA (NYSE: NRDH), an owner and operator of liquefied gas carriers, today reported revenue of $212.4 million for the third quarter ended September 30, 2026, up 18% from a year earlier, and raised its full-year EBITDA guidance to $390 million.';

const submission = `<SEC-DOCUMENT>${accession}.txt : 20261112
<SEC-HEADER>${accession}.hdr.sgml : 20261112
<ACCEPTANCE-DATETIME>20261112071502
ACCESSION NUMBER:		${accession}
CONFORMED SUBMISSION TYPE:	6-K
PUBLIC DOCUMENT COUNT:		2
CONFORMED PERIOD OF REPORT:	20261112
FILED AS OF DATE:		20261112
DATE AS OF CHANGE:		20261112

FILER:

	COMPANY DATA:	
		COMPANY CONFORMED NAME:			Nordhaven Shipping ASA
		CENTRAL INDEX KEY:			${cik}
		STANDARD INDUSTRIAL CLASSIFICATION:	DEEP SEA FOREIGN TRANSPORTATION OF FREIGHT [4412]
		FISCAL YEAR END:			1231

	FILING VALUES:
		FORM TYPE:		6-K
		SEC ACT:		1934 Act
		SEC FILE NUMBER:	001-41999
		FILM NUMBER:		261177001

	BUSINESS ADDRESS:	
		STREET 1:		HAAKON VIIS GATE 2
		CITY:			OSLO
		STATE:			Q8
		ZIP:			0161
</SEC-HEADER>
<DOCUMENT>
<TYPE>6-K
<SEQUENCE>1
<FILENAME>nrdh-6k_20261112.htm
<DESCRIPTION>FORM 6-K
<TEXT>
<HTML><BODY>
<P align="center"><B>UNITED STATES<BR>SECURITIES AND EXCHANGE COMMISSION</B><BR>Washington, D.C. 20549</P>
<P align="center"><B>FORM 6-K</B></P>
<P align="center"><B>REPORT OF FOREIGN PRIVATE ISSUER<BR>PURSUANT TO RULE 13a-16 OR 15d-16<BR>UNDER THE SECURITIES EXCHANGE ACT OF 1934</B></P>
<P>For the month of November 2026</P>
<P>Commission File Number: 001-41999</P>
<P align="center"><B>Nordhaven Shipping ASA</B><BR>(Translation of registrant's name into English)</P>
<P>Indicate by check mark whether the registrant files or will file annual reports under cover of Form 20-F or Form 40-F.</P>
<P>Form 20-F [X] Form 40-F [ ]</P>
<P>Attached as Exhibit 99.1 to this report on Form 6-K is the press release of Nordhaven Shipping ASA dated November 12, 2026, announcing its results for the third quarter of 2026.</P>
<P align="center"><B>SIGNATURES</B></P>
<P>Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this report to be signed on its behalf by the undersigned, thereunto duly authorized.</P>
</BODY></HTML>
</TEXT>
</DOCUMENT>
<DOCUMENT>
<TYPE>EX-99.1
<SEQUENCE>2
<FILENAME>nrdh-ex99_1.htm
<DESCRIPTION>PRESS RELEASE
<TEXT>
<HTML><BODY>
<P align="center"><B>Exhibit 99.1</B></P>
<P align="center"><B>${headline}</B></P>
<P>${lead}</P>
<P>"Our fleet was fully employed through the quarter," said the Chief Executive Officer. "We expect the two newbuilds delivered in October to contribute from the fourth quarter."</P>
</BODY></HTML>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;

interface Story {
  id: string;
  form: string;
  publishedAt: string;
  filedAt: string | null;
  companyName: string;
  tickers: string[];
  headline: string;
  lead: string | null;
  leadNullReason: string | null;
  exhibit: { type: string; fileName: string | null; title: string | null; citationUrl: string | null } | null;
  exhibitNullReason: string | null;
  items: unknown[];
  citationUrl: string;
}

let t: TestService;
let key: string;

beforeAll(async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'ids-6k-'));
  await mkdir(path.join(folder, 'reference'));
  await mkdir(path.join(folder, 'filings', '6k'), { recursive: true });
  await writeFile(path.join(folder, 'reference', 'company_tickers.json'), JSON.stringify({ 0: { cik_str: Number(cik), ticker: 'NRDH', title: 'Nordhaven Shipping ASA' } }));
  await writeFile(path.join(folder, 'filings', '6k', `6-K_${accession}_NRDH.txt`), submission);
  t = await startIsolatedService();
  ({ key } = await orgWithKey(t, 'Foreign news readers', 'team'));
  const run = await runIngest(t.service.services, folderSource(folder));
  expect(run.failed).toBe(0);
}, 120_000);
afterAll(() => t?.close());

describe('6-K news', () => {
  it('classifies a 6-K submission as a foreign private issuer\'s report', () => {
    expect(classify(`filings/6k/6-K_${accession}_NRDH.txt`)).toBe('foreign_report');
  });

  it('makes a held 6-K a dated story: headline from the form and its press release, lead in its words, citing the filing and the exhibit', async () => {
    const page = await call(t, 'GET', '/v1/news?form=6-K', { key });
    expect(page.status).toBe(200);
    const [story, ...others] = page.body.data as Story[];
    expect(others).toEqual([]);
    expect(story).toMatchObject({
      id: accession,
      form: '6-K',
      filedAt: '2026-11-12',
      publishedAt: '2026-11-12T12:15:02.000Z',
      companyName: 'Nordhaven Shipping ASA',
      tickers: ['NRDH'],
      headline: `6-K: ${headline}`,
      lead,
      leadNullReason: null,
      items: [],
      exhibitNullReason: null,
      citationUrl: 'https://www.sec.gov/Archives/edgar/data/1999917/000199991726000031/nrdh-6k_20261112.htm',
    });
    expect(story!.exhibit).toMatchObject({ type: 'EX-99.1', fileName: 'nrdh-ex99_1.htm', title: headline, citationUrl: 'https://www.sec.gov/Archives/edgar/data/1999917/000199991726000031/nrdh-ex99_1.htm' });
    // the company filter and the other forms' filter see it, or not, accordingly
    expect((await call(t, 'GET', '/v1/news?ticker=NRDH', { key })).body.data.map((s: Story) => s.id)).toEqual([accession]);
    expect((await call(t, 'GET', '/v1/news?form=8-K', { key })).body.data).toEqual([]);
  });

  it('answers the same to an agent through the MCP news tool', async () => {
    const client = new Client({ name: 'ids-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    try {
      const result = await client.callTool({ name: 'news_list', arguments: { ticker: 'NRDH', form: '6-K' } });
      expect(result.isError).toBeFalsy();
      const rest = await call(t, 'GET', '/v1/news?ticker=NRDH&form=6-K&view=agent', { key });
      const { requestId: _a, ...viaMcp } = result.structuredContent as Record<string, unknown>;
      const { requestId: _b, ...viaRest } = rest.body;
      expect(viaMcp).toEqual(viaRest);
      const [story, ...others] = (viaMcp as { data: Story[] }).data;
      expect(others).toEqual([]);
      expect(story).toMatchObject({ id: accession, form: '6-K', headline: `6-K: ${headline}`, lead, exhibit: { type: 'EX-99.1', title: headline } });
      // the text content an agent without structured output reads says the same
      expect(JSON.parse((result.content as { text: string }[])[0]!.text).data[0]).toMatchObject({ id: accession, headline: `6-K: ${headline}` });
    } finally {
      await client.close();
    }
  });

  it('answers the same through the graph', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: '{ news(form: "6-K", first: 5) { nodes { id form tickers headline lead exhibit { type title citationUrl } } } }' } });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.news.nodes).toEqual([
      { id: accession, form: '6-K', tickers: ['NRDH'], headline: `6-K: ${headline}`, lead, exhibit: { type: 'EX-99.1', title: headline, citationUrl: 'https://www.sec.gov/Archives/edgar/data/1999917/000199991726000031/nrdh-ex99_1.htm' } },
    ]);
  });
});
