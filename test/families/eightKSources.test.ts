// 8-K current reports from the corpus: each one's primary document is kept at ingest and rendered
// by GET /v1/filings/{accession_number}/render like a 10-K's, and each event (and each vote
// proposal's result) cites the sentence of that document it was read from, or says why it cites
// none. The sentence is checked against the rendered document, where the reader marks it.
import { parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile, corpusSubset, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/company_tickers\.json|submissions\/CIK0001045810\.json|filings\/8k\/)/;
const nvidia = '0001045810';

// the corpus's 8-Ks that name their accession number (the 1-800-FLOWERS one does not: it has no filing to render)
const reports = [
  { accession: '0000019617-26-000241', cik: '0000019617' },
  { accession: '0000072333-23-000015', cik: '0000072333' },
  { accession: '0000796343-23-000044', cik: '0000796343' },
  { accession: '0000950137-05-004969', cik: '0001109357' },
  { accession: '0001045810-26-000024', cik: '0001045810' },
  { accession: '0001193125-23-048785', cik: '0001364742' },
  { accession: '0001213900-25-032135', cik: '0001173313' },
  { accession: '0001628280-25-058337', cik: '0001326801' },
];
const meta = '0001628280-25-058337';
const flowers = '0001084869';

/** The rendered document's text as the browser's reader searches it: every space alike. */
const textOf = (html: string) => parse(html).textContent.replace(/\s/g, ' ');

describe.runIf(hasCorpus)('8-K documents and the sentences their events cite', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const rendered = new Map<string, string>();

  async function renderedText(accession: string): Promise<string> {
    if (!rendered.has(accession)) {
      const answer = await call(t, 'GET', `/v1/filings/${accession}/render`, { key });
      expect(answer.status).toBe(200);
      rendered.set(accession, textOf(answer.body.content));
    }
    return rendered.get(accession)!;
  }

  async function graph<T>(query: string): Promise<T> {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query } });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data as T;
  }

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, '8-K readers', 'team'));
    const run = await runIngest(t.service.services, corpusSubset(wanted));
    expect(run.failed).toBe(0);
  }, 600_000);
  afterAll(() => t?.close());

  it('renders every 8-K of the corpus that names its filing, as HTML, Markdown and text', async () => {
    for (const report of reports) {
      const html = await call(t, 'GET', `/v1/filings/${report.accession}/render`, { key });
      expect(html.status, report.accession).toBe(200);
      expect(html.body).toMatchObject({ object: 'filing_render', accessionNumber: report.accession, cik: report.cik, form: '8-K', format: 'html', sections: [] });
      expect(html.body.content).not.toMatch(/<script|<style|\son[a-z]+\s*=/i);
      // the item headings, as the document prints them ("Item 5.02", "ITEM 5.02")
      expect(/Item\s+\d\.\d\d/i.test(html.body.content), report.accession).toBe(true);
      for (const format of ['markdown', 'text']) {
        const other = await call(t, 'GET', `/v1/filings/${report.accession}/render?format=${format}`, { key });
        expect(other.status, `${report.accession} ${format}`).toBe(200);
        expect(/Item\s+\d\.\d\d/i.test(other.body.content), `${report.accession} ${format}`).toBe(true);
      }
    }
  });

  it('cites each officer change and restatement to a sentence the rendered document holds, alike over REST, GraphQL and MCP', async () => {
    type Cited = { accessionNumber: string; fromIndexOnly: boolean; sourceSpan: string | null; sourceSpanNullReason: string | null; documentHeld: boolean };
    const listed: Cited[] = [];
    for (const family of ['officer-changes', 'restatements']) {
      const list = await call(t, 'GET', `/v1/events/${family}?limit=100`, { key });
      expect(list.status).toBe(200);
      listed.push(...list.body.data);
    }
    const cited = listed.filter((e) => !e.fromIndexOnly);
    // every 5.02 and 4.02 the corpus holds has a sentence, each found in its document as rendered
    expect(cited).toHaveLength(7);
    for (const event of cited) {
      expect(event.sourceSpan, event.accessionNumber).toEqual(expect.any(String));
      expect(event.sourceSpanNullReason).toBeNull();
      expect(event.documentHeld).toBe(true);
      expect(await renderedText(event.accessionNumber)).toContain(event.sourceSpan);
    }
    const resignation = cited.find((e) => e.accessionNumber === meta)!;
    expect(resignation.sourceSpan).toBe('(b) On December 19, 2025, Dina Powell McCormick notified Meta Platforms, Inc. (the "Company") that she will resign as a member of the Board of Directors of the Company, effective immediately.');
    // the compact view keeps the citation; the graph and the MCP tool answer the same sentence
    const compact = await call(t, 'GET', '/v1/events/officer-changes?cik=0001326801&view=compact', { key });
    expect(compact.body.data[0]).toMatchObject({ accessionNumber: meta, sourceSpan: resignation.sourceSpan, sourceSpanNullReason: null });
    const graphed = await graph<{ events: { nodes: { sourceSpan: string | null; documentHeld: boolean }[] } }>('{ events(type: "officer_change", cik: "0001326801") { nodes { sourceSpan documentHeld } } }');
    expect(graphed.events.nodes).toEqual([{ sourceSpan: resignation.sourceSpan, documentHeld: true }]);
    const tool = await call(t, 'POST', '/mcp', {
      key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'events_officer_changes_list', arguments: { cik: '0001326801' } } },
    });
    expect(tool.body.result.structuredContent.data[0]).toMatchObject({ accessionNumber: meta, sourceSpan: resignation.sourceSpan, sourceSpanNullReason: null, documentHeld: true });
  });

  it('cites each vote proposal’s result to the sentence that states it', async () => {
    const votes = await call(t, 'GET', `/v1/events/voting-results?cik=${flowers}`, { key });
    expect(votes.status).toBe(200);
    const [meeting] = votes.body.data;
    expect(meeting.sourceSpan).toBe('1-800-FLOWERS.COM, Inc. (the “Company”) held its Annual Meeting of Stockholders on December 14, 2023.');
    // a primary document read alone without its accession number: cited, but no filing to open it in
    expect(meeting.accessionNumber).toBeNull();
    expect(meeting.documentHeld).toBe(false);
    const proposals: { number: number; nominee?: string; outcome: string; sourceSpan: string | null }[] = meeting.data.proposals;
    expect(proposals.find((p) => p.number === 2)).toMatchObject({
      outcome: 'approved',
      sourceSpan: 'The stockholders ratified the appointment of BDO USA, P.C. to serve as the Company’s independent registered public accounting firm for the fiscal year ending June 30, 2024.',
    });
    expect(proposals.find((p) => p.nominee === 'Larry Zarin')).toMatchObject({ outcome: 'elected', sourceSpan: 'The following nominees for directors were elected to serve a one-year term expiring at the 2024 annual meeting of stockholders:' });
    // each one is the document's own words
    const document = textOf(await corpusFile('filings/8k/8-K_CIK0001084869_FLWS_2023-12-14_item5.07.htm'));
    expect(proposals.filter((p) => !p.sourceSpan || !document.includes(p.sourceSpan))).toEqual([]);
  });

  it('gives the reason where no sentence states an event: an exhibit list, an event known from the index only', async () => {
    type Events = { filing: { events: { item: string; type: string; fromIndexOnly: boolean; sourceSpan: string | null; sourceSpanNullReason: string | null; documentHeld: boolean }[] } };
    const fields = 'events { item type fromIndexOnly sourceSpan sourceSpanNullReason documentHeld }';
    const jpm = await graph<Events>(`{ filing(accessionNumber: "0000019617-26-000241") { ${fields} } }`);
    expect(jpm.filing.events.find((e) => e.item === '9.01')).toEqual({ item: '9.01', type: 'other', fromIndexOnly: false, sourceSpan: null, sourceSpanNullReason: 'Item 9.01\'s text holds no sentence (a list or table only)', documentHeld: true });
    // NVIDIA's other 5.02 reports are known from its submissions alone: no document, so no sentence, and no render
    const indexOnly = await call(t, 'GET', `/v1/events/officer-changes?cik=${nvidia}&limit=100`, { key });
    const other = indexOnly.body.data.find((e: { fromIndexOnly: boolean }) => e.fromIndexOnly);
    expect(other).toMatchObject({ sourceSpan: null, sourceSpanNullReason: 'Only EDGAR\'s index tells of this event: its document was not ingested, so no sentence was read.', documentHeld: false });
    const refused = expectEnvelope(await call(t, 'GET', `/v1/filings/${other.accessionNumber}/render`, { key }), 404, 'document_not_found');
    expect(refused.details.reason).toBe('not_ingested');
  });
});
