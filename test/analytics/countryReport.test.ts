// The country report: a briefing built by stated rules from the macro pack. Every citation is an
// observation the test reads back from the FRED file itself, the drivers' numbers are recomputed
// from the files, and the report is kept as an artifact whose Markdown export reads as a briefing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { corpusFile } from '../corpus.ts';
import { fixtureSource } from '../data/fixtureSource.ts';
import { call, expectEnvelope, orgWithKey, startIsolatedService, type TestService } from '../harness.ts';

const ids = ['CPIAUCSL', 'DFF', 'DGS10', 'FEDFUNDS_quarterly', 'GDP', 'GDPC1', 'INDPRO', 'PCE', 'RSAFS', 'UMCSENT', 'UNRATE'];
const fileOf = (id: string) => `market/macro/FRED_${id}.csv`;
const texts = new Map<string, string>();
let t: TestService;
let key: string;
let report: { status: number; body: any };

beforeAll(async () => {
  for (const id of ids) texts.set(fileOf(id), await corpusFile(fileOf(id)));
  t = await startIsolatedService(); // market files of its own: other suites load and change them
  ({ key } = await orgWithKey(t, 'x', 'team'));
  await runIngest(t.service.services, fixtureSource(Object.fromEntries([...texts].map(([f, text]) => [f, { text }]))));
  report = await call(t, 'POST', '/v1/intelligence/country-report', { key, body: { country: 'US' } });
}, 120_000);
afterAll(() => t?.close());

/** Series id → date → value, as the test reads the FRED file (rows with a value). */
function fred(fileId: string): Map<string, number> {
  const rows = texts
    .get(fileOf(fileId))!
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(',').map((c) => c.trim()))
    .filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c[0] ?? '') && c[1] !== undefined && c[1] !== '' && c[1] !== '.');
  return new Map(rows.map((c) => [c[0]!, Number(c[1])]));
}
const fileIdOf = (seriesId: string, frequency: string) => (seriesId === 'FEDFUNDS' && frequency === 'quarterly' ? 'FEDFUNDS_quarterly' : seriesId);

type Citation = { seriesId: string; frequency: string; date: string; value: number; sourceKey: string; fileName: string | null; vintage: string | null };
type Statement = { rule: string; text: string; figures: { name: string; value: number }[]; citations: Citation[] };
const sections = ['summary', 'keyDrivers', 'watchItems', 'implications'] as const;
const statements = (body: any): Statement[] => sections.flatMap((s) => body[s] as Statement[]);

describe('POST /v1/intelligence/country-report', () => {
  it('cites, in every statement, observations exactly as the FRED files have them', () => {
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body).toMatchObject({ object: 'country_report', country: 'US', method: 'country_report_rules', version: '1', requestId: expect.any(String) });
    expect(report.body.artifactId).toMatch(/^art_/);
    for (const s of sections) expect(report.body[s].length, s).toBeGreaterThan(0);
    const ruleIds = new Set(report.body.rules.map((r: { id: string }) => r.id));
    for (const statement of statements(report.body)) {
      expect(ruleIds.has(statement.rule), statement.rule).toBe(true);
      expect(statement.citations.length, statement.text).toBeGreaterThan(0);
      for (const c of statement.citations) {
        const file = fileIdOf(c.seriesId, c.frequency);
        expect(c.sourceKey).toBe(fileOf(file));
        expect(c.fileName).toBe(`FRED_${file}.csv`);
        expect(c.vintage).toBeNull(); // a FRED download states none, as the pack says
        expect(fred(file).get(c.date), `${c.seriesId} ${c.date} in ${statement.text}`).toBe(c.value);
      }
    }
  });

  it('states CPI inflation and its 3-month change as recomputed from the file', () => {
    const cpi = fred('CPIAUCSL');
    const dates = [...cpi.keys()].sort();
    const last = dates[dates.length - 1]!;
    const yearBefore = (d: string) => `${Number(d.slice(0, 4)) - 1}${d.slice(4)}`;
    const monthsBefore = (d: string, k: number) => {
      const n = Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)) - 1 - k;
      return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}-01`;
    };
    const yoy = (d: string) => (cpi.get(d)! / cpi.get(yearBefore(d))! - 1) * 100;
    const threeBefore = monthsBefore(last, 3);

    const d2 = report.body.keyDrivers.find((s: Statement) => s.rule === 'D2' && s.citations[0]!.seriesId === 'CPIAUCSL') as Statement;
    expect(d2.citations.map((c) => c.date)).toEqual([last, yearBefore(last), threeBefore, yearBefore(threeBefore)]);
    const figure = (s: Statement, name: string) => s.figures.find((f) => f.name === name)!.value;
    expect(Math.abs(figure(d2, 'yoy') - yoy(last))).toBeLessThan(1e-9);
    expect(Math.abs(figure(d2, 'changeOverThreeMonths') - (yoy(last) - yoy(threeBefore)))).toBeLessThan(1e-9);
    expect(d2.text).toContain(`${yoy(last).toFixed(2)} % as of ${last.slice(0, 7)}`);
    expect(d2.text).toContain(`${Math.abs(yoy(last) - yoy(threeBefore)).toFixed(2)} pp over 3 months`);

    const d1 = report.body.keyDrivers.find((s: Statement) => s.rule === 'D1' && s.citations[0]!.seriesId === 'CPIAUCSL') as Statement;
    expect(d1.citations[0]).toMatchObject({ date: last, value: cpi.get(last), role: 'latest' });
    expect(Math.abs(figure(d1, 'changeFromYearEarlier') - yoy(last))).toBeLessThan(1e-9);

    // the unemployment rate: a rate, so its year change is in points
    const unrate = fred('UNRATE');
    const u = report.body.keyDrivers.find((s: Statement) => s.rule === 'D1' && s.citations[0]!.seriesId === 'UNRATE') as Statement;
    const uLast = [...unrate.keys()].sort().pop()!;
    expect(Math.abs(figure(u, 'changeFromYearEarlier') - (unrate.get(uLast)! - unrate.get(yearBefore(uLast))!))).toBeLessThan(1e-9);
    expect(u.text).toContain(' pp over the year');
  });

  it('flags stale series as watch items by the stated rule and leaves them out of the drivers', () => {
    const asOf = report.body.asOf as string;
    const newest = ids.map((id) => [...fred(id).keys()].sort().pop()!).sort().pop();
    expect(asOf).toBe(newest); // from the data, not the clock
    const days = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
    // GDP ends in 2024 and DFF in mid-2025: far more than 90 days (and two quarterly/daily gaps) behind
    for (const id of ['GDP', 'DFF']) {
      const last = [...fred(id).keys()].sort().pop()!;
      const w = report.body.watchItems.find((s: Statement) => s.rule === 'W1' && s.citations[0]!.seriesId === id) as Statement;
      expect(w, id).toBeDefined();
      expect(w.citations[0]).toMatchObject({ date: last, role: 'latest' });
      expect(w.figures[0]!.value).toBe(days(last, asOf));
      expect(report.body.keyDrivers.some((s: Statement) => s.citations[0]!.seriesId === id), id).toBe(false);
    }
    // CPI is fresh: a driver, not stale
    expect(report.body.sources.find((s: { seriesId: string }) => s.seriesId === 'CPIAUCSL').stale).toBe(false);
    expect(report.body.watchItems.some((s: Statement) => s.rule === 'W1' && s.citations[0]!.seriesId === 'CPIAUCSL')).toBe(false);
  });

  it('names a month missing from a regime series as a watch item', () => {
    const cpi = fred('CPIAUCSL');
    const blank = texts.get(fileOf('CPIAUCSL'))!.split(/\r?\n/).filter((l) => /^\d{4}-\d{2}-\d{2},\s*\.?\s*$/.test(l)).map((l) => l.slice(0, 7));
    const w4 = report.body.watchItems.find((s: Statement) => s.rule === 'W4' && s.citations[0]!.seriesId === 'CPIAUCSL') as Statement | undefined;
    const trendMonths = report.body.implications[0].citations.filter((c: Citation) => c.seriesId === 'CPIAUCSL').map((c: Citation) => c.date.slice(0, 7));
    const inWindow = blank.filter((m) => m > trendMonths[0] && m < trendMonths[trendMonths.length - 2]);
    if (!inWindow.length) return expect(w4).toBeUndefined();
    for (const m of inWindow) expect(w4!.text).toContain(m);
    for (const c of w4!.citations) expect(cpi.get(c.date)).toBe(c.value);
  });

  it('names the regime as the pack does and its implications from the fixed table', async () => {
    const pack = await call(t, 'GET', '/v1/macro/high-signal-pack?country=US', { key });
    expect(report.body.regime.name).toBe(pack.body.regime.name);
    expect(report.body.asOf).toBe(pack.body.asOf);
    const i1 = report.body.implications.filter((s: Statement) => s.rule === 'I1');
    expect(i1[0].text).toContain(`Regime: ${pack.body.regime.name}`);
    const rule = report.body.rules.find((r: { id: string }) => r.id === 'I1').rule as string;
    for (const s of i1.slice(1)) expect(rule).toContain(s.text);
  });

  it('gives the same content hash for the same request on the same data', async () => {
    const again = await call(t, 'POST', '/v1/intelligence/country-report', { key, body: { country: 'us' } });
    expect(again.status).toBe(200);
    expect(again.body.contentHash).toBe(report.body.contentHash);
    expect(again.body.artifactId).not.toBe(report.body.artifactId);
    const strip = (b: Record<string, unknown>) => JSON.stringify({ ...b, requestId: undefined, artifactId: undefined });
    expect(strip(again.body)).toBe(strip(report.body));
  });

  it('answers 404 country_not_covered listing what is covered', async () => {
    const answer = expectEnvelope(await call(t, 'POST', '/v1/intelligence/country-report', { key, body: { country: 'FR' } }), 404, 'country_not_covered');
    expect(answer.details.acceptedValues).toEqual(['US']);
  });

  it.each([[undefined], [{}], [{ country: 7 }], [{ country: '' }], [{ country: 'US', extra: 1 }]])('refuses body %j with validation_error naming country', async (body) => {
    const answer = expectEnvelope(await call(t, 'POST', '/v1/intelligence/country-report', { key, body }), 400, 'validation_error');
    const paths = answer.details.issues.map((i: { path: string }) => i.path).join(' ');
    expect(body && 'extra' in body ? JSON.stringify(answer.details.issues) : paths).toMatch(/country|extra/);
    if (!body || !('extra' in body)) expect(paths).toContain('country');
  });

  it('is kept as an artifact whose Markdown export reads as the briefing', async () => {
    const id = report.body.artifactId;
    const artifact = await call(t, 'GET', `/v1/artifacts/${id}`, { key });
    expect(artifact.status, JSON.stringify(artifact.body)).toBe(200);
    expect(artifact.body).toMatchObject({ id, kind: 'country_report', route: '/v1/intelligence/country-report', contentHash: report.body.contentHash });
    const response = await fetch(`${t.url}/v1/artifacts/${id}/export?format=markdown`, { headers: { 'x-api-key': key } });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const heading of ['### Summary', '### Key drivers', '### Watch items', '### Implications', '### Rules']) expect(text).toContain(heading);
    const driver = report.body.keyDrivers[0] as Statement;
    expect(text).toContain(driver.text);
    expect(text).toContain(`${driver.citations[0]!.seriesId} ${driver.citations[0]!.date} = ${driver.citations[0]!.value}`);
    expect(text).toContain('market/macro/FRED_CPIAUCSL.csv');
  });

  it('is an MCP tool', async () => {
    const client = new Client({ name: 'ids-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((x) => x.name === 'intelligence_country_report');
      expect(tool).toBeDefined();
      expect(tool!.inputSchema.properties).toHaveProperty('country');
    } finally {
      await client.close();
    }
  });
});
