// The filing reader: Apple's FY2024 10-K, ingested from the real corpus, rendered as sanitized
// HTML, Markdown and text; its own quota window, refused alike at every door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDocumentText } from '../../derived/render/index.ts';
import { runIngest } from '../../ingest/run.ts';
import { folderSource } from '../../ingest/sources/folder.ts';
import type { Source } from '../../ingest/sources/types.ts';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const wanted = /^(reference\/company_tickers\.json|submissions\/CIK0000320193\.json|filings\/10k\/10-K_0000320193)/;
function corpusSubset(): Source {
  const all = folderSource(corpusDir);
  return {
    describe: () => `${all.describe()} (${wanted})`,
    async *items() {
      for await (const item of all.items()) if (wanted.test(item.key)) yield item;
    },
  };
}

// The corpus holds Apple's FY2024 10-K: net sales of fiscal 2024, as its income statement shows them.
const accession = '0000320193-24-000123';
const revenueShown = '391,035';

const renderQuery = `query Read($accessionNumber: String!, $format: RenderFormat!) {
  filing(accessionNumber: $accessionNumber) { accessionNumber render(format: $format) { format cached sections { key anchor } content } }
}`;

describe.runIf(hasCorpus)('filing reader', { timeout: 120_000 }, () => {
  let t: TestService;
  let key: string;
  const render = (query: string, withKey = key) => call(t, 'GET', `/v1/filings/${accession}/render${query}`, { key: withKey });

  /** An organization whose render window is `limit` a day (a day: no window boundary falls inside a test). */
  async function orgWithRenderLimit(limit: number) {
    const org = await orgWithKey(t, undefined, 'team');
    await t.service.services.prisma.orgQuota.create({ data: { orgId: org.orgId, meterClass: 'render', period: 'day', limit } });
    t.service.services.cache.forgetOrg(org.orgId);
    return org;
  }

  beforeAll(async () => {
    t = await startIsolatedService();
    ({ key } = await orgWithKey(t, 'Readers', 'team'));
    const run = await runIngest(t.service.services, corpusSubset());
    expect(run.failed).toBe(0);
  }, 600_000);
  afterAll(() => t?.close());

  it('renders sanitized HTML: no script, handler or outside address, anchored sections, XBRL facts as highlights', async () => {
    const answer = await render('');
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body).toMatchObject({ object: 'filing_render', accessionNumber: accession, cik: '0000320193', form: '10-K', format: 'html', contentType: 'text/html', fileName: 'aapl-20240928.htm', truncated: false });
    expect(body.sourceUrl).toBe('https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm');
    expect(body.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body.size).toBeGreaterThan(1_000_000);
    const html: string = body.content;
    expect(html).not.toMatch(/<script|<style|<iframe|<object|<embed|<link|<img|<meta|<base/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:|url\(|\ssrc\s*=|\sstyle\s*=/i);
    // every address left is a jump within the document
    expect([...html.matchAll(/href="([^"]*)"/g)].every(([, href]) => href!.startsWith('#'))).toBe(true);
    expect(html).not.toMatch(/<ix:|xbrli:/i);
    expect(html).toContain('<h2 id="item_1a" class="fr-section">');
    expect(html).toContain('<h2 id="item_7" class="fr-section">');
    expect(html).toMatch(new RegExp(`<mark class="fr-fact" data-concept="us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax" data-context="[^"]+">${revenueShown}</mark>`));
    const sections = new Map(body.sections.map((s: { key: string; anchor: string | null; title: string }) => [s.key, s]));
    expect(sections.get('item_1a')).toEqual({ key: 'item_1a', title: 'Risk Factors', anchor: 'item_1a' });
    expect(sections.get('item_7')).toMatchObject({ key: 'item_7', anchor: 'item_7' });
    // the same keys as the sections route
    const manifest = await call(t, 'GET', `/v1/filings/${accession}`, { key });
    expect(body.sections.map((s: { key: string }) => s.key)).toEqual(manifest.body.sections.map((s: { key: string }) => s.key));
  });

  it('renders Markdown with section headings and pipe tables, and text with its headings', async () => {
    const markdown = await render('?format=markdown');
    expect(markdown.status).toBe(200);
    expect(markdown.body.format).toBe('markdown');
    expect(markdown.body.content).toMatch(/^## Item 1A\. Risk Factors$/m);
    expect(markdown.body.content).toMatch(/^\| .+ \|\n\|( --- \|)+\n\| .+ \|$/m);
    expect(markdown.body.content).toMatch(new RegExp(`\\| \\$${revenueShown} \\|`));

    const text = await render('?format=text');
    expect(text.status).toBe(200);
    expect(text.body.content).toContain('Risk Factors');
    expect(text.body.content).toMatch(/^Item 7\. Management’s Discussion and Analysis of Financial Condition and Results of Operations\n=+$/m);
    expect(text.body.content).not.toMatch(/<[a-z]/i);
  });

  it('renders once per document and format: the second answer is the cached one', async () => {
    const first = await render('?format=text&view=compact');
    const second = await render('?format=text&view=compact');
    expect(second.body.cached).toBe(true);
    expect(second.body.content).toBe(first.body.content);
  });

  it('cuts the agent view, and says so', async () => {
    const agent = await render('?format=markdown&view=agent');
    expect(agent.body.truncated).toBe(true);
    expect(agent.body.content.length).toBe(20_000);
  });

  it('answers 404 for an unknown filing and 400 for an unknown format', async () => {
    expectEnvelope(await call(t, 'GET', '/v1/filings/0000320193-99-999999/render', { key }), 404, 'filing_not_found');
    const bad = expectEnvelope(await render('?format=pdf'), 400, 'invalid_query_parameter');
    expect(bad.details.parameter).toBe('format');
  });

  it('says a document ingested before documents were stored is not held, and a new ingest stores it', async () => {
    const { prisma } = t.service.services;
    await prisma.filingDocument.delete({ where: { accessionNumber: accession } });
    const missing = expectEnvelope(await render(''), 404, 'document_not_found');
    expect(missing.details.reason).toBe('not_stored');
    expect(missing.message).toMatch(/ingest it again/);
    // a filing the index knows but whose document never came in
    const indexOnly = await prisma.filing.findFirstOrThrow({ where: { cik: '0000320193', form: '10-Q', documentSourceKey: null } });
    expect(expectEnvelope(await call(t, 'GET', `/v1/filings/${indexOnly.accessionNumber}/render`, { key }), 404, 'document_not_found').details.reason).toBe('not_ingested');
    // an 8-K's document is kept once ingested (this one the index knows only); documents of other forms are not kept for the reader
    const currentReport = await prisma.filing.findFirstOrThrow({ where: { cik: '0000320193', form: '8-K' } });
    expect(expectEnvelope(await call(t, 'GET', `/v1/filings/${currentReport.accessionNumber}/render`, { key }), 404, 'document_not_found').details.reason).toBe('not_ingested');
    const specializedDisclosure = await prisma.filing.findFirstOrThrow({ where: { cik: '0000320193', form: 'SD' } });
    expect(expectEnvelope(await call(t, 'GET', `/v1/filings/${specializedDisclosure.accessionNumber}/render`, { key }), 404, 'document_not_found').details.reason).toBe('form_not_rendered');

    const again = await runIngest(t.service.services, corpusSubset());
    expect(again.written).toBe(1);
    expect((await render('')).status).toBe(200);
  });

  it('lists the render window in GET /v1/limits', async () => {
    const limits = await call(t, 'GET', '/v1/limits', { key });
    expect(limits.body.quotas).toEqual(expect.arrayContaining([expect.objectContaining({ meterClass: 'render', period: 'minute', limit: 120, allowed: true })]));
  });

  it('refuses past the render window with 429 render_rate_limited and Retry-After over REST', async () => {
    const org = await orgWithRenderLimit(1);
    expect((await render('?format=text', org.key)).status).toBe(200);
    const refused = await render('?format=text', org.key);
    const body = expectEnvelope(refused, 429, 'render_rate_limited');
    expect(body.details).toEqual({ meterClass: 'render', period: 'day', limit: 1 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // the organization's other reads are not in this window
    expect((await call(t, 'GET', `/v1/filings/${accession}`, { key: org.key })).status).toBe(200);
  });

  it('refuses past the render window over GraphQL', async () => {
    const org = await orgWithRenderLimit(1);
    const ask = () => call(t, 'POST', '/graphql', { key: org.key, body: { query: renderQuery, variables: { accessionNumber: accession, format: 'text' } } });
    const first = await ask();
    expect(first.status).toBe(200);
    expect(first.body.data.filing.render.content).toContain('Risk Factors');
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('render_rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses a render selected on a list of filings over GraphQL', async () => {
    const answer = await call(t, 'POST', '/graphql', { key, body: { query: '{ filings(cik: "0000320193", form: "10-K", first: 2) { nodes { render(format: text) { size } } } }' } });
    expect(answer.body.errors[0].extensions.code).toBe('invalid_query_parameter');
  });

  it('refuses past the render window over MCP', async () => {
    const org = await orgWithRenderLimit(1);
    const tool = () =>
      call(t, 'POST', '/mcp', {
        key: org.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'filings_render', arguments: { accession_number: accession, format: 'markdown' } } },
      });
    const first = await tool();
    expect(first.status).toBe(200);
    expect(first.body.result.structuredContent).toMatchObject({ object: 'filing_render', format: 'markdown', truncated: true });
    const refused = await tool();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: -32005, data: { code: 'render_rate_limited' } });
    expect(refused.body.error.data.retryAfter).toBeGreaterThan(0);
  });
});

describe('the HTML renderer', () => {
  it('keeps nothing active or remote from a hostile document', () => {
    const hostile = [
      '<html><head><base href="https://evil.example/"><link rel="stylesheet" href="https://evil.example/a.css"><style>body{background:url(https://evil.example/x.png)}</style></head><body>',
      '<script>alert(1)</script><p onclick="alert(2)" style="background:url(https://evil.example/y.png);font-weight:bold">Bold words</p>',
      '<img src="https://evil.example/z.png" onerror="alert(3)" alt="logo"><a href="javascript:alert(4)">run</a><a href="https://evil.example/doc.htm">other document</a>',
      '<iframe src="https://evil.example/"></iframe><object data="https://evil.example/o"></object><svg onload="alert(5)"><image href="https://evil.example/s.png"/></svg>',
      '<form action="https://evil.example/"><input name="q"></form><div style="display:none">hidden text</div><a href="#x&quot; onmouseover=&quot;alert(6)">jump</a>',
      '<span>&lt;script&gt;alert(7)&lt;/script&gt;</span></body></html>',
    ].join('');
    const { content } = renderDocumentText(hostile, '8-K', [], 'html');
    expect(content).not.toMatch(/<script|<style|<link|<base|<img|<iframe|<object|<svg|<form|<input/i);
    expect(content).not.toMatch(/\son[a-z]+\s*=|javascript:|evil\.example|url\(|\sstyle=|\ssrc=/i);
    expect(content).not.toContain('hidden text');
    expect(content).toContain('<p class="fr-b">Bold words</p>');
    expect(content).toContain('<span class="fr-link">other document</span>');
    expect(content).toContain('[Image: logo]');
    // text that spells markup stays text
    expect(content).toContain('&lt;script&gt;alert(7)&lt;/script&gt;');
  });
});
