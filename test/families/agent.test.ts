// The Agent family: a dashboard user mints a single-use sponsor token; an agent with no
// other credential exchanges it once for its first API key of the organization.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeWindows } from '../../resolvers/agent.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

describe('agent sponsor-token exchange', { timeout: 60_000 }, () => {
  let t: TestService;
  let orgId: string;
  let key: string;
  let session: string;
  let otherSession: string;

  const mint = (body: Record<string, unknown>, token = session) => call(t, 'POST', '/v1/agent/sponsor-tokens', { token, body });
  const exchange = (body: unknown) => call(t, 'POST', '/v1/agent/exchange', { body });
  const keysOf = (org: string) => t.service.services.prisma.apiKey.count({ where: { orgId: org } });

  beforeAll(async () => {
    // Exchange attempts are counted per client address; in server mode the windows live in Redis
    // and outlive a run, so this suite starts them afresh.
    if (process.env.REDIS_URL) {
      const redis = new Redis(process.env.REDIS_URL);
      const stale = await redis.keys('ids:quota:agent_exchange:*');
      if (stale.length) await redis.del(...stale);
      redis.disconnect();
    }
    t = await startTestService();
    ({ orgId, key } = await orgWithKey(t, 'Agent sponsors'));
    session = await sessionToken(t, orgId);
    const other = await orgWithKey(t, 'Other sponsors');
    otherSession = await sessionToken(t, other.orgId);
  });
  afterAll(() => t?.close());

  it('mints a token shown once, exchanges it with no other credential for a key named for the agent, and the key works', async () => {
    const before = await keysOf(orgId);
    const minted = await mint({ agentName: 'research-bot', ttlSeconds: 300 });
    expect(minted.status).toBe(200);
    expect(minted.body).toMatchObject({ object: 'sponsor_token', agentName: 'research-bot', scopes: ['organization'], status: 'active', usedAt: null, apiKeyId: null });
    expect(minted.body.token).toMatch(/^idsp_[0-9A-Za-z]{43}$/);
    const lifetime = Date.parse(minted.body.expiresAt) - Date.parse(minted.body.createdAt);
    expect(lifetime).toBeGreaterThan(299_000);
    expect(lifetime).toBeLessThan(301_000);
    // only the digest is stored
    const row = await t.service.services.prisma.sponsorToken.findUniqueOrThrow({ where: { id: minted.body.id } });
    expect(JSON.stringify(row)).not.toContain(minted.body.token);

    const answer = await exchange({ sponsorToken: minted.body.token });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('agent_api_key');
    expect(answer.body.secret).toMatch(/^idsk_[0-9A-Za-z]{40}$/);
    expect(answer.body.apiKey).toMatchObject({ name: 'research-bot', orgId, hint: `idsk_…${answer.body.secret.slice(-4)}` });
    expect(answer.body.sponsorToken).toMatchObject({ id: minted.body.id, status: 'used', apiKeyId: answer.body.apiKey.id });
    expect(answer.body.sponsorToken.token).toBeUndefined();
    expect(await keysOf(orgId)).toBe(before + 1);

    // the key is an organization key like any other, and its creation is an event like any other
    const me = await call(t, 'GET', '/v1/me', { key: answer.body.secret });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'api_key', organization: { id: orgId }, apiKey: { id: answer.body.apiKey.id, name: 'research-bot' } });
    const events = await t.service.services.prisma.event.findMany({ where: { orgId, type: 'api_key.created' } });
    expect(events.map((e) => (e.payload as { apiKeyId: string }).apiKeyId)).toContain(answer.body.apiKey.id);
    // the key cannot mint tokens or keys: that needs the dashboard
    expectEnvelope(await call(t, 'POST', '/v1/agent/sponsor-tokens', { key: answer.body.secret, body: { agentName: 'x' } }), 403, 'browser_session_required');

    // reused: 401, nothing created
    expectEnvelope(await exchange({ sponsorToken: minted.body.token }), 401, 'authentication_failed');
    expect(await keysOf(orgId)).toBe(before + 1);
  });

  it('issues a read-scoped key when the sponsor allows only reading: it reads at every door and changes no configuration', async () => {
    const minted = await mint({ agentName: 'reader-bot', scopes: ['read'] });
    expect(minted.body.scopes).toEqual(['read']);
    const issued = (await exchange({ sponsorToken: minted.body.token })).body;
    expect(issued.apiKey.scopes).toEqual(['read']);
    const reader = issued.secret as string;
    const listed = await call(t, 'GET', '/v1/api_keys', { key: reader });
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((k: { id: string }) => k.id === issued.apiKey.id).scopes).toEqual(['read']);
    expect((await call(t, 'GET', '/v1/limits', { key: reader })).status).toBe(200);

    const endpoints = () => t.service.services.prisma.webhookEndpoint.count({ where: { orgId } });
    const before = await endpoints();
    const body = { url: 'http://127.0.0.1:9/ids', eventTypes: ['monitor.matched'] };
    const refused = expectEnvelope(await call(t, 'POST', '/v1/webhook_endpoints', { key: reader, body }), 403, 'insufficient_scope');
    expect(refused.details).toEqual({ granted: ['read'], required: 'organization' });
    // GraphQL: a query runs, a mutation is refused before it is charged
    const query = await call(t, 'POST', '/graphql', { key: reader, body: { query: '{ me { kind } }' } });
    expect(query.body.errors).toBeUndefined();
    const mutation = await call(t, 'POST', '/graphql', { key: reader, body: { query: 'mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/ids", eventTypes: ["monitor.matched"] }) { endpoint { id } } }' } });
    expect(mutation.body.errors?.[0]?.extensions?.code).toBe('insufficient_scope');
    // a mutation that only moves what the caller reads next (a monitor's pull) is a read; mixed with a write, it is not
    const pull = 'checkMonitorMatches(id: "mon_000000000000000000000000") { __typename }';
    const pulled = await call(t, 'POST', '/graphql', { key: reader, body: { query: `mutation { ${pull} }` } });
    expect(pulled.body.errors?.[0]?.extensions?.code).toBe('monitor_not_found');
    const mixed = await call(t, 'POST', '/graphql', { key: reader, body: { query: `mutation { ${pull} createWebhookEndpoint(input: { url: "http://127.0.0.1:9/ids" }) { secret } }` } });
    expect(mixed.body.errors?.[0]?.extensions?.code).toBe('insufficient_scope');
    // MCP: its tools all run for a read key (none changes the organization's configuration)
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': reader },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'monitors_compile', arguments: { text: 'every 10-K of Apple' } } }),
    });
    const rpc = await response.json();
    expect([response.status, rpc.result?.isError], JSON.stringify(rpc)).toEqual([200, false]);
    expect(await endpoints()).toBe(before);
    // the organization's full keys still can
    expect((await call(t, 'POST', '/v1/webhook_endpoints', { key, body })).status).toBe(200);
    expect(await endpoints()).toBe(before + 1);
  });

  it('refuses tampered, unknown, expired and revoked tokens, and a different agent name, creating nothing', async () => {
    const before = await keysOf(orgId);
    const good = (await mint({ agentName: 'tamper-test' })).body;
    const last = good.token.at(-1);
    const tampered = good.token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    expectEnvelope(await exchange({ sponsorToken: tampered }), 401, 'authentication_failed');
    expectEnvelope(await exchange({ sponsorToken: 'idsp_not-a-token' }), 401, 'authentication_failed');
    expectEnvelope(await exchange({ sponsorToken: good.token, agentName: 'someone-else' }), 401, 'authentication_failed');

    const expired = (await mint({ agentName: 'late-bot' })).body;
    await t.service.services.prisma.sponsorToken.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectEnvelope(await exchange({ sponsorToken: expired.token }), 401, 'authentication_failed');

    const revoked = (await mint({ agentName: 'revoked-bot' })).body;
    const revoke = await call(t, 'DELETE', `/v1/agent/sponsor-tokens/${revoked.id}`, { token: session });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toMatchObject({ object: 'sponsor_token', id: revoked.id, status: 'revoked' });
    expectEnvelope(await exchange({ sponsorToken: revoked.token }), 401, 'authentication_failed');
    // revoking again answers the token as it is
    const again = await call(t, 'DELETE', `/v1/agent/sponsor-tokens/${revoked.id}`, { token: session });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: revoked.id, status: 'revoked', revokedAt: revoke.body.revokedAt });
    expectEnvelope(await call(t, 'DELETE', `/v1/agent/sponsor-tokens/${revoked.id}`, { token: otherSession }), 404, 'sponsor_token_not_found');

    expect(await keysOf(orgId)).toBe(before);
    // the untouched token still works, named as the sponsor said (the agent may repeat it)
    const ok = await exchange({ sponsorToken: good.token, agentName: 'tamper-test' });
    expect(ok.status).toBe(200);
    expect(await keysOf(orgId)).toBe(before + 1);
    // a used token is answered as it is: revoking it never touches the key it issued
    const revokeUsed = await call(t, 'DELETE', `/v1/agent/sponsor-tokens/${good.id}`, { token: session });
    expect(revokeUsed.status).toBe(200);
    expect(revokeUsed.body).toMatchObject({ id: good.id, status: 'used', revokedAt: null, apiKeyId: ok.body.apiKey.id });
    expect(await t.service.services.prisma.apiKey.findUniqueOrThrow({ where: { id: ok.body.apiKey.id } })).toMatchObject({ revokedAt: null });

    const listed = await call(t, 'GET', '/v1/agent/sponsor-tokens?limit=100', { token: session });
    const status = Object.fromEntries(listed.body.data.map((r: { id: string; status: string }) => [r.id, r.status]));
    expect(status).toMatchObject({ [good.id]: 'used', [expired.id]: 'expired', [revoked.id]: 'revoked' });
  });

  it('lets exactly one of concurrent exchanges of one token win', async () => {
    const before = await keysOf(orgId);
    const minted = (await mint({ agentName: 'racer' })).body;
    const answers = await Promise.all(Array.from({ length: 5 }, () => exchange({ sponsorToken: minted.token })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((a) => a.status !== 200)) expectEnvelope(a, 401, 'authentication_failed');
    expect(await keysOf(orgId)).toBe(before + 1);
  });

  it('lists the organization\'s tokens without secrets, paginated; another organization sees none and cannot revoke them', async () => {
    const ids = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof call>> = await call(t, 'GET', `/v1/agent/sponsor-tokens?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: session });
      expect(page.status).toBe(200);
      for (const row of page.body.data) {
        expect(row.object).toBe('sponsor_token');
        expect(row.token).toBeUndefined();
        expect(JSON.stringify(row)).not.toMatch(/idsp_/);
        expect(ids.has(row.id)).toBe(false);
        ids.add(row.id);
      }
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(ids.size).toBe(await t.service.services.prisma.sponsorToken.count({ where: { orgId } }));

    const theirs = await call(t, 'GET', '/v1/agent/sponsor-tokens', { token: otherSession });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.filter((r: { id: string }) => ids.has(r.id))).toEqual([]);
    const mine = (await mint({ agentName: 'private-bot' })).body;
    expectEnvelope(await call(t, 'DELETE', `/v1/agent/sponsor-tokens/${mine.id}`, { token: otherSession }), 404, 'sponsor_token_not_found');
    const still = await t.service.services.prisma.sponsorToken.findUniqueOrThrow({ where: { id: mine.id } });
    expect(still.revokedAt).toBeNull();
  });

  it('needs a dashboard session to mint or list, and answers bad input with the envelope', async () => {
    expectEnvelope(await call(t, 'POST', '/v1/agent/sponsor-tokens', { body: { agentName: 'x' } }), 401, 'missing_browser_session');
    expectEnvelope(await call(t, 'POST', '/v1/agent/sponsor-tokens', { key, body: { agentName: 'x' } }), 403, 'browser_session_required');
    expectEnvelope(await call(t, 'GET', '/v1/agent/sponsor-tokens', { key }), 403, 'browser_session_required');
    expectEnvelope(await mint({ agentName: 'x', ttlSeconds: 3601 }), 400, 'validation_error');
    expectEnvelope(await mint({ agentName: 'x', scopes: ['admin'] }), 400, 'validation_error');
    expectEnvelope(await mint({ agentName: '' }), 400, 'validation_error');
    expectEnvelope(await call(t, 'DELETE', '/v1/agent/sponsor-tokens/nope', { token: session }), 400, 'invalid_request_parameter');
    expectEnvelope(await call(t, 'DELETE', '/v1/agent/sponsor-tokens/spt_000000000000000000000000', { token: session }), 404, 'sponsor_token_not_found');
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${session}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect((await response.json()).result.tools.map((tool: { name: string }) => tool.name)).toContain('agent_sponsor_tokens_list');
  });

  // last: it fills this address's window
  it('rate-limits exchange attempts per client address with 429 and Retry-After', async () => {
    const perMinute = exchangeWindows.find((w) => w.period === 'minute')!.limit;
    expectEnvelope(await exchange({}), 400, 'validation_error');
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    // 2 × the window + 1 attempts: however a minute boundary splits them, one window overflows
    for (let i = 0; i < 2 * perMinute + 1 && !limited; i++) {
      const answer = await exchange({ sponsorToken: `idsp_${'x'.repeat(43)}` });
      if (answer.status === 429) limited = answer;
      else expectEnvelope(answer, 401, 'authentication_failed');
    }
    expect(limited).toBeDefined();
    const body = expectEnvelope(limited!, 429, 'rate_limit_exceeded');
    expect(body.details).toMatchObject({ period: 'minute', limit: perMinute });
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // a valid token is refused too while the window is full, and is not spent
    const minted = (await mint({ agentName: 'patient-bot' })).body;
    expectEnvelope(await exchange({ sponsorToken: minted.token }), 429, 'rate_limit_exceeded');
    const row = await t.service.services.prisma.sponsorToken.findUniqueOrThrow({ where: { id: minted.id } });
    expect(row.usedAt).toBeNull();
    // the window is the address's, whichever door the attempt comes through
    const viaGraphql = await call(t, 'POST', '/graphql', { body: { query: `mutation { exchangeSponsorToken(sponsorToken: "${minted.token}") { secret } }` } });
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('rate_limit_exceeded');
    expect((await t.service.services.prisma.sponsorToken.findUniqueOrThrow({ where: { id: minted.id } })).usedAt).toBeNull();
  });
});
