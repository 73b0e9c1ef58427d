// The service's operators: made by `ids operators:create` (with or without a server on the state
// folder), they find any organization, read its plan, billing, credit, usage and members, change
// its plan and credit, suspend it (its keys and sessions refused at every door at once) and read
// the ingest. Everyone else is refused with 403 operator_scope_required at every door.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../catalogue/routes/index.ts';
import type { Route } from '../../catalogue/route.ts';
import { newId } from '../../core/ids.ts';
import { startSession } from '../../resolvers/accounts/sessions.ts';
import { setPlan } from '../../resolvers/billing/account.ts';
import { createOperator } from '../../resolvers/operators.ts';
import { call, eventually, expectEnvelope, freePort, orgWithKey, sessionToken, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let seq = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${++seq}@operators.test`;

/** An operator signed in outside any organization, and one who is a viewer of an organization of their own. */
let operator: { id: string; email: string; token: string };
let operatorInOrg: { token: string; orgId: string };

beforeAll(async () => {
  t = await startTestService();
  const { prisma } = t.service.services;
  const email = unique('op');
  const user = await createOperator(prisma, email);
  operator = { id: user.id, email, token: (await startSession(t.service.services, { userId: user.id, email, orgId: null, rememberMe: false, method: 'cli' })).token };
  const own = await orgWithKey(t);
  const inOrg = unique('op-viewer');
  const token = await sessionToken(t, own.orgId, inOrg, false, 'viewer');
  await createOperator(prisma, inOrg);
  operatorInOrg = { token, orgId: own.orgId };
});
afterAll(() => t?.close());

const operatorRoutes = routes.filter((r) => r.capabilities?.includes('operator'));

async function orgWithOwner(name?: string) {
  const org = await orgWithKey(t, name);
  const email = unique('owner');
  const token = await sessionToken(t, org.orgId, email);
  return { ...org, owner: { email, token } };
}

/** Params each operator route accepts, about `orgId`. */
function requestOf(route: Route, orgId: string) {
  const bodies: Record<string, unknown> = {
    operator_organizations_set_plan: { planKey: 'team' },
    operator_organizations_adjust_credits: { amountCents: 100, reason: 'refused anyway' },
    operator_organizations_suspend: { reason: 'refused anyway' },
  };
  return { url: route.path.replace('{org_id}', orgId), body: route.method === 'GET' ? undefined : (bodies[route.name] ?? {}) };
}

const gql = (credential: { key?: string; token?: string }, query: string, variables: Record<string, unknown> = {}) => call(t, 'POST', '/graphql', { ...credential, body: { query, variables } });
const mcp = (credential: { key?: string; token?: string }, method: string, params: object) =>
  call(t, 'POST', '/mcp', { ...credential, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method, params } });

describe('everyone but an operator is refused, at every door', () => {
  it('covers the operator routes', () => {
    expect(operatorRoutes.map((r) => r.name).sort()).toEqual([
      'operator_ingest_failures_list',
      'operator_ingest_runs_list',
      'operator_organizations_adjust_credits',
      'operator_organizations_get',
      'operator_organizations_list',
      'operator_organizations_set_plan',
      'operator_organizations_suspend',
      'operator_organizations_unsuspend',
    ]);
    for (const route of operatorRoutes) expect(route.access, route.name).toBe('authenticated');
  });

  it.each(operatorRoutes.map((r) => [r.name, r] as const))('%s', async (_, route) => {
    const target = await orgWithOwner();
    const { url, body } = requestOf(route, target.orgId);
    // a person of any role, in the very organization concerned, and its API key
    for (const credential of [{ token: target.owner.token }, { key: target.key }]) {
      expectEnvelope(await call(t, route.method, url, { ...credential, body }), 403, 'operator_scope_required');
      const answer = await gql(credential, print(route.operation!));
      expect(answer.body.errors?.[0]?.extensions?.code, `GraphQL ${route.name}`).toBe('operator_scope_required');
      if (route.mcp) {
        const tool = await mcp(credential, 'tools/call', { name: route.name, arguments: route.path.includes('{org_id}') ? { org_id: target.orgId } : {} });
        expect([tool.status, tool.body.error?.data?.code], `MCP ${route.name}`).toEqual([403, 'operator_scope_required']);
      }
    }
    expectEnvelope(await call(t, route.method, url, { body }), 401, 'missing_api_key');
    // nothing changed
    const org = await t.service.services.prisma.organization.findUniqueOrThrow({ where: { id: target.orgId } });
    expect([org.planKey, org.suspendedAt]).toEqual(['sandbox_grant', null]);
  });

  it('MCP offers the operator tools to operators only', async () => {
    const target = await orgWithOwner();
    const names = async (credential: { key?: string; token?: string }) => (await mcp(credential, 'tools/list', {})).body.result.tools.map((tool: { name: string }) => tool.name);
    const operatorTools = operatorRoutes.filter((r) => r.mcp).map((r) => r.name);
    expect(await names({ key: target.key })).not.toContain(operatorTools[0]);
    expect(await names({ token: target.owner.token })).not.toContain(operatorTools[0]);
    expect(await names({ token: operatorInOrg.token })).toEqual(expect.arrayContaining(operatorTools));
    const listed = await mcp({ token: operatorInOrg.token }, 'tools/call', { name: 'operator_organizations_get', arguments: { org_id: target.orgId } });
    expect(listed.body.result.structuredContent).toMatchObject({ id: target.orgId, planKey: 'sandbox_grant' });
  });
});

describe('an operator', () => {
  it('finds organizations by id, by a part of the name, or by a part of a member\'s email, page by page', async () => {
    const tag = `Findable ${Date.now().toString(36)}`;
    const a = await orgWithOwner(`${tag} Alpha`);
    const b = await orgWithOwner(`${tag} Beta`);
    const byName = await call(t, 'GET', `/v1/operator/organizations?q=${encodeURIComponent(tag.toLowerCase())}`, { token: operator.token });
    expect(byName.status).toBe(200);
    expect(byName.body.data.map((o: { id: string }) => o.id)).toEqual([b.orgId, a.orgId]);
    expect(byName.body.data[0]).toMatchObject({ object: 'operator_organization', name: `${tag} Beta`, planKey: 'sandbox_grant', billingState: 'sandbox_grant', suspendedAt: null, memberCount: 1 });
    expect((await call(t, 'GET', `/v1/operator/organizations?q=${a.orgId}`, { token: operator.token })).body.data.map((o: { id: string }) => o.id)).toEqual([a.orgId]);
    const local = a.owner.email.split('@')[0]!;
    expect((await call(t, 'GET', `/v1/operator/organizations?q=${encodeURIComponent(local)}`, { token: operator.token })).body.data.map((o: { id: string }) => o.id)).toEqual([a.orgId]);
    const first = await call(t, 'GET', `/v1/operator/organizations?limit=1&q=${encodeURIComponent(tag)}`, { token: operatorInOrg.token });
    expect(first.body).toMatchObject({ hasMore: true, data: [{ id: b.orgId }] });
    const second = await call(t, 'GET', `/v1/operator/organizations?limit=1&q=${encodeURIComponent(tag)}&cursor=${first.body.nextCursor}`, { token: operatorInOrg.token });
    expect(second.body).toMatchObject({ hasMore: false, data: [{ id: a.orgId }] });
  });

  it('reads one organization: plan, billing state, credit, usage over 24 hours and 30 days, members', async () => {
    const target = await orgWithOwner();
    for (let i = 0; i < 3; i++) await call(t, 'GET', '/v1/limits', { key: target.key });
    await call(t, 'GET', '/v1/org/members?limit=0', { key: target.key }); // a 400
    const detail = await eventually('the requests recorded', async () => {
      const answer = await call(t, 'GET', `/v1/operator/organizations/${target.orgId}`, { token: operator.token });
      return answer.body.usage?.last24h.requests >= 4 && answer;
    });
    expect(detail.body).toMatchObject({
      object: 'operator_organization',
      id: target.orgId,
      planKey: 'sandbox_grant',
      billingState: 'sandbox_grant',
      creditBalanceMillicents: 0,
      members: [{ email: target.owner.email, role: 'owner', joinedAt: expect.any(String) }],
      memberCount: 1,
    });
    const { last24h, last30d } = detail.body.usage;
    expect(last24h).toMatchObject({ requests: 4, errors: 1 });
    expect(last24h.byMeterClass).toEqual(expect.arrayContaining([{ meterClass: 'platform', requests: expect.any(Number), units: expect.any(Number) }]));
    expect(last30d.requests).toBeGreaterThanOrEqual(last24h.requests);
    expectEnvelope(await call(t, 'GET', `/v1/operator/organizations/${newId('org')}`, { token: operator.token }), 404, 'organization_not_found');
  });

  it('changes the plan and the credit; each instance applies them at once, and the organization\'s audit log names the operator', async () => {
    const target = await orgWithOwner();
    expect((await call(t, 'GET', '/v1/limits', { key: target.key })).body.effectivePlanKey).toBe('sandbox_grant'); // cached now
    const planned = await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/plan`, { token: operator.token, body: { planKey: 'payg' } });
    expect(planned.body).toMatchObject({ id: target.orgId, planKey: 'payg', billingState: 'active' });
    expect((await call(t, 'GET', '/v1/limits', { key: target.key })).body.effectivePlanKey).toBe('payg');
    expectEnvelope(await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/plan`, { token: operator.token, body: { planKey: 'platinum' } }), 400, 'validation_error');

    const credited = await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/credits`, { token: operator.token, body: { amountCents: 500, reason: 'goodwill' } });
    expect(credited.body).toMatchObject({ object: 'credit_adjustment', amountMillicents: 500_000, balanceAfterMillicents: 500_000, organization: { id: target.orgId, creditBalanceMillicents: 500_000 } });
    expectEnvelope(await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/credits`, { token: operator.token, body: { amountCents: -100_000, reason: 'too much' } }), 400, 'validation_error');
    expectEnvelope(await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/credits`, { token: operator.token, body: { amountCents: 0, reason: 'nothing' } }), 400, 'validation_error');
    const ledger = await call(t, 'GET', '/v1/billing/credits/transactions', { key: target.key });
    expect(ledger.body.data[0]).toMatchObject({ type: 'adjustment', description: 'goodwill' });

    const log = (await call(t, 'GET', '/v1/org/audit-log', { token: target.owner.token })).body.data as any[];
    const actor = { type: 'operator', id: operator.id, email: operator.email };
    expect(log.find((e) => e.requestId === planned.headers.get('request-id'))).toMatchObject({ action: 'plan.changed', actor, details: { planKey: 'payg', previousPlanKey: 'sandbox_grant' } });
    expect(log.find((e) => e.requestId === credited.headers.get('request-id'))).toMatchObject({ action: 'credits.adjusted', actor, details: { amountCents: 500, reason: 'goodwill' } });
    for (const entry of log) expect(entry.ipAddress).toMatch(/127\.0\.0\.1$/);

    // the CLI's change is audited too, by an operator without a name
    await setPlan(t.service.services, target.orgId, 'team');
    const latest = (await call(t, 'GET', '/v1/org/audit-log?action=plan.changed', { token: target.owner.token })).body.data[0];
    expect(latest).toMatchObject({ actor: { type: 'operator', id: null }, details: { planKey: 'team', previousPlanKey: 'payg' } });
  });

  it('suspends an organization: its keys and sessions are refused at every door until unsuspended', async () => {
    const target = await orgWithOwner();
    const bystander = await orgWithOwner();
    const gqlLimits = '{ limits { orgId } }';
    expect((await call(t, 'GET', '/v1/limits', { key: target.key })).status).toBe(200); // its organization is cached now
    const suspended = await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/suspend`, { token: operator.token, body: { reason: 'unpaid invoices' } });
    expect(suspended.body).toMatchObject({ suspendedAt: expect.any(String), suspendedReason: 'unpaid invoices' });
    const again = await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/suspend`, { token: operator.token, body: { reason: 'twice' } });
    expect(again.body).toMatchObject({ suspendedAt: suspended.body.suspendedAt, suspendedReason: 'unpaid invoices' });

    const refusal = expectEnvelope(await call(t, 'GET', '/v1/limits', { key: target.key }), 403, 'organization_suspended');
    expect(refusal.details).toEqual({ suspendedAt: suspended.body.suspendedAt });
    expectEnvelope(await call(t, 'GET', '/v1/org', { token: target.owner.token }), 403, 'organization_suspended');
    expectEnvelope(await call(t, 'POST', '/v1/api_keys', { token: target.owner.token, body: { name: 'x' } }), 403, 'organization_suspended');
    expect((await gql({ key: target.key }, gqlLimits)).body.errors[0].extensions.code).toBe('organization_suspended');
    const tool = await mcp({ key: target.key }, 'tools/call', { name: 'org_members_list', arguments: {} });
    expect([tool.status, tool.body.error?.data?.code]).toEqual([403, 'organization_suspended']);
    // the person is still signed in, and other organizations are untouched
    expect((await call(t, 'GET', '/v1/me', { token: target.owner.token })).status).toBe(200);
    expect((await call(t, 'GET', '/v1/limits', { key: bystander.key })).status).toBe(200);
    // operators still see it
    expect((await call(t, 'GET', `/v1/operator/organizations/${target.orgId}`, { token: operator.token })).body.suspendedReason).toBe('unpaid invoices');

    const lifted = await call(t, 'POST', `/v1/operator/organizations/${target.orgId}/unsuspend`, { token: operator.token });
    expect(lifted.body).toMatchObject({ suspendedAt: null, suspendedReason: null });
    expect((await call(t, 'GET', '/v1/limits', { key: target.key })).status).toBe(200);
    expect((await gql({ token: target.owner.token }, gqlLimits)).body.data.limits.orgId).toBe(target.orgId);

    const log = (await call(t, 'GET', '/v1/org/audit-log', { key: target.key })).body.data as any[];
    expect(log.map((e) => e.action).slice(0, 2)).toEqual(['organization.unsuspended', 'organization.suspended']);
    expect(log[1]).toMatchObject({ actor: { type: 'operator', id: operator.id }, target: { type: 'organization', id: target.orgId }, details: { reason: 'unpaid invoices' }, requestId: suspended.headers.get('request-id') });
  });

  it('reads the ingest\'s runs and failures as the CLI does', async () => {
    const { prisma } = t.service.services;
    const runId = newId('run');
    await prisma.ingestRun.create({ data: { id: runId, source: 'test folder', finishedAt: new Date(), read: 3, written: 1, skipped: 1, failed: 1 } });
    const failed = `test/${runId}/broken.xml`;
    const partial = `test/${runId}/partial.xml`;
    await prisma.ingestItem.createMany({
      data: [
        { sourceKey: failed, kind: 'xbrl', sha256: 'x', status: 'failed', reason: 'not XML', runId },
        { sourceKey: partial, kind: 'xbrl', sha256: 'y', status: 'partial', reason: 'a table left out', runId },
        { sourceKey: `test/${runId}/fine.xml`, kind: 'xbrl', sha256: 'z', status: 'ingested', runId },
      ],
    });
    const runs = await call(t, 'GET', '/v1/operator/ingest/runs?limit=100', { token: operator.token });
    expect(runs.body.data.find((r: { id: string }) => r.id === runId)).toMatchObject({ object: 'ingest_run', source: 'test folder', read: 3, failed: 1, finishedAt: expect.any(String) });
    const items: any[] = [];
    for (let cursor: string | null = null, pages = 0; pages < 50; pages++) {
      const page: any = await call(t, 'GET', `/v1/operator/ingest/failures?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: operator.token });
      items.push(...page.body.data);
      if (!(cursor = page.body.nextCursor)) break;
    }
    const ours = items.filter((i) => i.runId === runId);
    expect(ours).toEqual([
      { object: 'ingest_failure', sourceKey: failed, kind: 'xbrl', status: 'failed', reason: 'not XML', records: 0, runId, updatedAt: expect.any(String) },
      { object: 'ingest_failure', sourceKey: partial, kind: 'xbrl', status: 'partial', reason: 'a table left out', records: 0, runId, updatedAt: expect.any(String) },
    ]);
  });

  it('stops being one when the flag is taken away, at the next request', async () => {
    const email = unique('former');
    const user = await createOperator(t.service.services.prisma, email);
    const { token } = await startSession(t.service.services, { userId: user.id, email, orgId: null, rememberMe: false, method: 'cli' });
    expect((await call(t, 'GET', '/v1/operator/ingest/runs', { token })).status).toBe(200);
    await t.service.services.prisma.user.update({ where: { id: user.id }, data: { isOperator: false } });
    expectEnvelope(await call(t, 'GET', '/v1/operator/ingest/runs', { token }), 403, 'operator_scope_required');
  });
});

// ---- `ids operators:create`, with and without a server on the state folder -----------------

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('ids operators:create', { timeout: 180_000 }, () => {
  let stateDir: string;
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
    stateDir = await mkdtemp(path.join(tmpdir(), 'ids-operators-'));
  }, 60_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    }
    await rm(stateDir, { recursive: true, force: true });
  });

  function env(port?: number): NodeJS.ProcessEnv {
    const e: NodeJS.ProcessEnv = { ...process.env, IDS_STATE_DIR: stateDir, IDS_AUTO_INGEST: 'off', LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
    delete e.DATABASE_URL;
    delete e.REDIS_URL;
    if (port) e.PORT = String(port);
    return e;
  }
  const ids = async (...args: string[]) => (await promisify(execFile)(process.execPath, ['dist/cli.js', ...args], { cwd: root, env: env() })).stdout.trim().split('\n');

  it('makes an operator whether the CLI owns the folder or a running server does', async () => {
    const [alone] = await ids('operators:create', '--email', 'First.Operator@Example.com');
    expect(alone).toMatch(/^usr_[0-9A-Za-z]{24}$/);
    const [org] = await ids('orgs:create', 'Operated');

    const port = await freePort();
    server = spawn(process.execPath, ['dist/main.js'], { cwd: root, env: env(port), stdio: ['ignore', 'ignore', 'pipe'] });
    const url = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 60_000; ; ) {
      if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
      if ((await fetch(`${url}/v1/billing/rates`).then((r) => r.ok, () => false)) && existsSync(path.join(stateDir, 'owner.sock'))) break;
      if (Date.now() > deadline) throw new Error('server did not answer within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // through the owner channel: the server writes it
    const [withServer] = await ids('operators:create', '--email', 'second.operator@example.com');
    expect(withServer).toMatch(/^usr_/);
    expect((await ids('operators:create', '--email', 'first.operator@example.com'))[0]).toBe(alone);

    for (const email of ['first.operator@example.com', 'second.operator@example.com']) {
      const token = (await ids('session', '--email', email, '--org', org!, '--role', 'viewer')).at(-1)!;
      const answer = await fetch(`${url}/v1/operator/organizations?q=${org}`, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);
      expect((await answer.json()).data.map((o: { id: string }) => o.id)).toEqual([org]);
    }
    const someone = (await ids('session', '--email', 'someone@example.com', '--org', org!)).at(-1)!;
    const refused = await fetch(`${url}/v1/operator/organizations`, { headers: { authorization: `Bearer ${someone}` } });
    expect([refused.status, (await refused.json()).code]).toEqual([403, 'operator_scope_required']);
    await expect(ids('operators:create')).rejects.toThrow(/--email/);
  });
});
