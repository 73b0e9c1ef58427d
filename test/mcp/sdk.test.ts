// The hosted MCP endpoint as an agent sees it, through the official SDK client over Streamable
// HTTP on a real port: discovery, a tool call that answers like REST, resources, prompts, and
// each error class of SPEC 7.3.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { fixtureCorpus, fixtureSource } from '../data/fixtureSource.ts';
import { call, orgWithKey, scratchDatabase, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let key: string;
const clients: Client[] = [];

async function connect(service: TestService, apiKey: string) {
  const client = new Client({ name: 'ids-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: { 'x-api-key': apiKey } } }));
  clients.push(client);
  return client;
}

/** The HTTP status and JSON-RPC error the SDK reports for a refused POST. */
async function refusal(work: Promise<unknown>) {
  const error = (await work.then(() => null, (e: unknown) => e)) as { code?: number; message: string } | null;
  if (!error) throw new Error('expected the call to be refused');
  const body = JSON.parse(error.message.slice(error.message.indexOf('{')));
  return { status: error.code, rpc: body.error as { code: number; message: string; data: { code: string; retryAfter?: number } } };
}

let database: Awaited<ReturnType<typeof scratchDatabase>>;

beforeAll(async () => {
  database = await scratchDatabase(); // its own ingest state, apart from other suites'
  t = await startTestService({ database: database.target });
  ({ key } = await orgWithKey(t, 'Agents', 'team'));
  await runIngest(t.service.services, fixtureSource(fixtureCorpus));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
  await database?.drop();
});

describe('discovery', () => {
  it('negotiates the protocol and lists one tool per MCP route of the table, with schemas and annotations', async () => {
    const client = await connect(t, key);
    expect(client.getServerVersion()).toMatchObject({ name: 'investor-data-service' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    const { tools } = await client.listTools();
    // an API key is not an operator: the operators' tools are not offered to it
    expect(tools.map((tool) => tool.name).sort()).toEqual(routes.filter((r) => r.mcp && !r.capabilities?.includes('operator')).map((r) => r.name).sort());
    const facts = tools.find((tool) => tool.name === 'facts_get')!;
    expect(facts.inputSchema.properties).toHaveProperty('tag');
    expect(facts.inputSchema.properties).not.toHaveProperty('view');
    expect(facts.outputSchema).toMatchObject({ type: 'object' });
    expect(facts.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['filings_latest', 'filings_latest_section', 'statements_get', 'forms_d_list', 'events_voting_results_list']));
  });
});

describe('tools/call', () => {
  it('answers with the same data as REST\'s agent view, as structured content and text', async () => {
    const client = await connect(t, key);
    const result = await client.callTool({ name: 'filings_latest', arguments: { ticker: 'AAPL', form: '10-K' } });
    const rest = await call(t, 'GET', '/v1/filings/latest?ticker=AAPL&form=10-K&view=agent', { key });
    const { requestId: _a, ...viaMcp } = result.structuredContent as Record<string, unknown>;
    const { requestId: _b, ...viaRest } = rest.body;
    expect(viaMcp).toEqual(viaRest);
    expect(viaMcp).toMatchObject({ accessionNumber: '0000320193-24-000123', citationUrl: expect.stringContaining('sec.gov') });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toMatchObject({ accessionNumber: '0000320193-24-000123' });

    const facts = await client.callTool({ name: 'facts_get', arguments: { cik: '1', tag: 'Revenues', limit: 2 } });
    expect(facts.structuredContent).toMatchObject({ requestedTag: 'Revenues', resolvedTag: 'Revenues', resolution: 'exact' });
    // exact as filed (above 2^53), newest period first, each with its filing
    expect((facts.structuredContent as { facts: unknown[] }).facts).toEqual([
      expect.objectContaining({ value: '9007199254740993', periodEnd: '2024-09-28', accessionNumber: '0000000001-24-000004', citationUrl: expect.stringContaining('000000000124000004') }),
      expect.objectContaining({ periodEnd: '2024-06-29', accessionNumber: '0000000001-24-000003' }),
    ]);
  });

  it('reports what a tool found missing as a tool error, not a protocol error', async () => {
    const client = await connect(t, key);
    const result = await client.callTool({ name: 'filings_get', arguments: { accession_number: '0000000000-00-000000' } });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toMatchObject({ code: 'filing_not_found' });
  });

  it('400 -32602 for an unknown tool (invalid_request) and for arguments that fail the schema (validation_error)', async () => {
    const client = await connect(t, key);
    const unknown = await refusal(client.callTool({ name: 'no_such_tool', arguments: {} }));
    expect(unknown).toMatchObject({ status: 400, rpc: { code: -32602, data: { code: 'invalid_request' } } });
    const bad = await refusal(client.callTool({ name: 'facts_get', arguments: { ticker: 'AAPL', tag: 'Revenues', limit: 5000 } }));
    expect(bad).toMatchObject({ status: 400, rpc: { code: -32602, data: { code: 'validation_error', parameter: 'limit' } } });
  });

  it('404 -32601 for a method the server does not support', async () => {
    const client = await connect(t, key);
    const unsupported = await refusal(client.request({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: 'b' } } }, (await import('@modelcontextprotocol/sdk/types.js')).CompleteResultSchema));
    expect(unsupported).toMatchObject({ status: 404, rpc: { code: -32601, data: { code: 'invalid_request' } } });
  });

  it('402 -32007 when the plan does not include the tool\'s meter class; 429 -32005 with Retry-After past the quota', async () => {
    const capped = await orgWithKey(t);
    await t.service.services.prisma.orgQuota.create({ data: { orgId: capped.orgId, meterClass: 'data_read', period: 'day', limit: 1 } });
    const client = await connect(t, capped.key);
    await client.callTool({ name: 'entities_resolve', arguments: { identifier: 'AAPL' } });
    const quota = await refusal(client.callTool({ name: 'entities_resolve', arguments: { identifier: 'AAPL' } }));
    expect(quota).toMatchObject({ status: 429, rpc: { code: -32005, data: { code: 'ai_query_quota_exceeded', retryAfter: expect.any(Number) } } });

    const unpaid = await orgWithKey(t);
    await t.service.services.prisma.orgQuota.create({ data: { orgId: unpaid.orgId, meterClass: 'data_read', period: 'day', limit: 0, allowed: false } });
    const billing = await refusal((await connect(t, unpaid.key)).callTool({ name: 'entities_resolve', arguments: { identifier: 'AAPL' } }));
    expect(billing).toMatchObject({ status: 402, rpc: { code: -32007, data: { code: 'billing_required' } } });
  });
});

describe('resources and prompts', () => {
  it('lists citable filings, sections and entities, and reads them', async () => {
    const client = await connect(t, key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['sec://filings/0000320193-24-000123', 'sec://filings/0000320193-24-000123/sections/item_1a', 'sec://entities/0000320193']));
    const section = await client.readResource({ uri: 'sec://filings/0000320193-24-000123/sections/item_1a' });
    expect(section.contents[0]).toMatchObject({ mimeType: 'text/plain', text: expect.stringMatching(/\w/) });
    const entity = await client.readResource({ uri: 'sec://entities/0000320193' });
    expect(JSON.parse((entity.contents[0] as { text: string }).text)).toMatchObject({ entity: { cik: '0000320193' } });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain('sec://filings/{accession_number}/sections/{section_key}');
    expect(await refusal(client.readResource({ uri: 'https://example.com/x' }))).toMatchObject({ status: 400, rpc: { code: -32602 } });
    expect(await refusal(client.readResource({ uri: 'sec://filings/0000000000-00-000000' }))).toMatchObject({ status: 400, rpc: { code: -32602 } });
  });

  it('gives analyst workflows that name the tools to call', async () => {
    const client = await connect(t, key);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['risk_factors_summary', 'revenue_trend', 'leadership_changes']);
    const prompt = await client.getPrompt({ name: 'risk_factors_summary', arguments: { ticker: 'NVDA' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('filings_latest_section');
    for (const tool of text.match(/\b[a-z]+(?:_[a-z0-9]+)+\b(?= with)/g) ?? []) expect(routes.some((r) => r.name === tool && r.mcp)).toBe(true);
    expect(await refusal(client.getPrompt({ name: 'risk_factors_summary', arguments: {} }))).toMatchObject({ status: 400, rpc: { code: -32602, data: { code: 'validation_error' } } });
    expect(await refusal(client.getPrompt({ name: 'nope' }))).toMatchObject({ status: 400, rpc: { code: -32602, data: { code: 'invalid_request' } } });
  });
});

describe('a slow or failing tool', () => {
  it('504 -32004 past its time budget', async () => {
    const database = await scratchDatabase();
    const slow = await startTestService({ database: database.target, mcp: { toolTimeoutMs: 200, circuitFailures: 100, circuitCooldownMs: 1000, allowedOrigins: [] } });
    try {
      const org = await orgWithKey(slow);
      const client = await connect(slow, org.key);
      // Another transaction holds the entity table for a second: the tool's read waits behind it.
      const { prisma } = slow.service.services;
      const holding = prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('LOCK TABLE "Entity" IN ACCESS EXCLUSIVE MODE');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }, { timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const timeout = await refusal(client.callTool({ name: 'entities_search', arguments: { q: 'Apple' } }));
      expect(timeout).toMatchObject({ status: 504, rpc: { code: -32004, data: { code: 'mcp_tool_timeout' } } });
      await holding;
    } finally {
      await slow.close();
      await database.drop();
    }
  });

  it('503 -32006 once its circuit opens after repeated failures, while other tools still answer', async () => {
    const database = await scratchDatabase();
    const failing = await startTestService({ database: database.target, mcp: { toolTimeoutMs: 10_000, circuitFailures: 2, circuitCooldownMs: 60_000, allowedOrigins: [] } });
    try {
      const org = await orgWithKey(failing, 'Circuit', 'team');
      const client = await connect(failing, org.key);
      await failing.service.services.prisma.$executeRawUnsafe('ALTER TABLE "Section" RENAME TO "SectionGone"'); // the tool's table breaks
      const args = { accession_number: '0000320193-24-000123', section_key: 'item_1a' };
      for (let i = 0; i < 2; i++) expect(await refusal(client.callTool({ name: 'filings_section_get', arguments: args }))).toMatchObject({ status: 500, rpc: { code: -32603 } });
      const open = await refusal(client.callTool({ name: 'filings_section_get', arguments: args }));
      expect(open).toMatchObject({ status: 503, rpc: { code: -32006, data: { code: 'mcp_tool_circuit_open', retryAfter: expect.any(Number) } } });
      const other = await client.callTool({ name: 'entities_resolve', arguments: { identifier: 'Circuit' } });
      expect(other.isError).toBe(true); // answered (nothing found), not refused
    } finally {
      await failing.close();
      await database.drop();
    }
  });
});
