// Saved strategies (/v1/strategies CRUD) and their backtests on the real market files: the equity
// curve, returns, drawdown, turnover and factor exposures are recomputed here from the CSV texts
// (the test's own dates, drift, regressions by normal equations; never the service's code); the
// same request twice gives the same contentHash; each run is an artifact; another organization
// is refused the same way at every door (REST, GraphQL, MCP), and roles and key scopes gate writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../resolvers/apiKeys.ts';
import { call, expectEnvelope, orgWithKey, sessionToken, type Answer, type TestService } from '../harness.ts';
import { factorsOf, marketSuite, normalEquations, returnsOf } from './independent.ts';

const files = {
  AAPL: 'market/prices/AAPL.daily.csv',
  MSFT: 'market/prices/MSFT.daily.csv',
  JPM: 'market/prices/JPM.daily.csv',
  NVDA: 'market/prices/NVDA.daily.csv',
  TSLA: 'market/prices/TSLA.daily.csv',
  ff5: 'market/factors/F-F_Research_Data_5_Factors_2x3_daily.CSV',
};
type Ticker = 'AAPL' | 'MSFT' | 'JPM' | 'NVDA' | 'TSLA';
const ff5Names = ['Mkt-RF', 'SMB', 'HML', 'RMW', 'CMA'];

let t: TestService;
let key: string;
let orgId: string;
let texts: Record<keyof typeof files, string>;
let other: Awaited<ReturnType<typeof orgWithKey>>;
let readKey: string;
let viewer: string;

const rest = (method: string, path: string, body?: unknown, credentials: { key?: string; token?: string } = { key }) => call(t, method, path, { ...credentials, ...(body !== undefined ? { body } : {}) });
const gql = (credentials: { key?: string; token?: string }, query: string, variables: Record<string, unknown> = {}) => call(t, 'POST', '/graphql', { ...credentials, body: { query, variables } });
const mcp = (k: string, name: string, args: Record<string, unknown>) =>
  call(t, 'POST', '/mcp', { key: k, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
const mcpCode = (answer: Answer): string | undefined => answer.body.error?.data?.code ?? (answer.body.result?.isError ? JSON.parse(answer.body.result.content[0].text).code : undefined);
const ok = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 800)).toBe(200);
  return answer.body;
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

beforeAll(async () => {
  ({ t, key, texts } = await marketSuite(files, 'Strategists'));
  orgId = (await t.service.services.prisma.organization.findFirstOrThrow({ where: { name: 'Strategists' } })).id;
  other = await orgWithKey(t, 'Strategists Elsewhere', 'team');
  readKey = (await issueApiKey(t.service.services, orgId, 'read key', null, undefined, ['read'])).secret;
  viewer = await sessionToken(t, orgId, `strategies.viewer.${Date.now()}@example.com`, false, 'viewer');
}, 180_000);
afterAll(() => t?.close());

/** The test's own daily series: per ticker date → return, ff5 date → factors. */
function series(tickers: Ticker[]) {
  const returns = Object.fromEntries(tickers.map((tk) => [tk, returnsOf(texts[tk])])) as Record<Ticker, Map<string, number>>;
  const ff5 = factorsOf(texts.ff5);
  const dates = [...returns[tickers[0]!].keys()].filter((d) => tickers.every((tk) => returns[tk].has(d)) && ff5.has(d)).sort();
  return { returns, ff5, dates };
}

/** Buy at the first date's close, drift, reset to `targetAt(t)` at each period end; the test's own simulation. */
function simulate(tickers: Ticker[], dates: string[], returns: Record<Ticker, Map<string, number>>, period: (d: string) => string, targetAt: (t: number) => Record<string, number>, initial: number) {
  let w = targetAt(0);
  const values = [initial];
  const daily: number[] = [];
  const turnovers: { date: string; turnover: number }[] = [];
  for (let i = 1; i < dates.length; i++) {
    const r = sum(Object.entries(w).map(([tk, wi]) => wi * returns[tk as Ticker].get(dates[i]!)!));
    daily.push(r);
    values.push(values[i - 1]! * (1 + r));
    w = Object.fromEntries(Object.entries(w).map(([tk, wi]) => [tk, (wi * (1 + returns[tk as Ticker].get(dates[i]!)!)) / (1 + r)]));
    if (i < dates.length - 1 && period(dates[i]!) !== period(dates[i + 1]!)) {
      const next = targetAt(i);
      turnovers.push({ date: dates[i]!, turnover: sum(tickers.map((tk) => Math.abs((next[tk] ?? 0) - (w[tk] ?? 0)))) / 2 });
      w = next;
    }
  }
  return { values, daily, turnovers };
}

const holdingsDefinition = {
  kind: 'holdings',
  holdings: [
    { ticker: 'AAPL', weight: 0.4 },
    { ticker: 'msft', weight: 0.3 },
    { ticker: 'JPM', weight: 0.3 },
  ],
  rebalance: 'monthly',
  constraints: { maxWeight: 0.35 },
};

describe('strategies CRUD', () => {
  let id: string;

  it('saves a strategy with its defaults filled in, lists it, reads it, and each change is a new version', async () => {
    const created = ok(await rest('POST', '/v1/strategies', { name: 'Three quality names', description: 'capped at 35 %', definition: holdingsDefinition }));
    id = created.id;
    expect(created).toMatchObject({ object: 'strategy', name: 'Three quality names', kind: 'holdings', version: 1, description: 'capped at 35 %' });
    expect(created.id).toMatch(/^stg_[0-9A-Za-z]{24}$/);
    expect(created.definition.constraints).toEqual({ maxWeight: 0.35, minHoldings: 1, longOnly: true });
    expect(created.createdBy).toMatch(/^key_/);

    const listed = ok(await rest('GET', '/v1/strategies?limit=10'));
    expect(listed.data.map((s: { id: string }) => s.id)).toContain(id);
    expect(ok(await rest('GET', `/v1/strategies/${id}`)).definition).toEqual(created.definition);

    const renamed = ok(await rest('PATCH', `/v1/strategies/${id}`, { name: 'Three names', description: null }));
    expect(renamed).toMatchObject({ name: 'Three names', description: null, version: 2, definition: created.definition });
    const quarterly = ok(await rest('PATCH', `/v1/strategies/${id}`, { definition: { ...holdingsDefinition, rebalance: 'quarterly' } }));
    expect(quarterly).toMatchObject({ version: 3, name: 'Three names' });
    expect(quarterly.definition.rebalance).toBe('quarterly');
    expectEnvelope(await rest('PATCH', `/v1/strategies/${id}`, {}), 400, 'validation_error');
  });

  it('pages the list with a cursor, newest first', async () => {
    const made: string[] = [];
    for (const n of [1, 2, 3]) made.push(ok(await rest('POST', '/v1/strategies', { name: `Paged ${n}`, definition: { kind: 'holdings', holdings: [{ ticker: 'NVDA', weight: 1 }] } })).id);
    const first = ok(await rest('GET', '/v1/strategies?limit=2'));
    expect(first.data.map((s: { id: string }) => s.id)).toEqual([made[2], made[1]]);
    expect(first.hasMore).toBe(true);
    const second = ok(await rest('GET', `/v1/strategies?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`));
    expect(second.data[0].id).toBe(made[0]);
  });

  it('refuses a duplicate name with 409 strategy_name_taken, at REST and GraphQL', async () => {
    const again = expectEnvelope(await rest('POST', '/v1/strategies', { name: 'Three names', definition: holdingsDefinition }), 409, 'strategy_name_taken');
    expect(again.message).toContain('Three names');
    const viaGraphql = await gql({ key }, 'mutation($d: JSON!) { createStrategy(name: "Three names", definition: $d) { id } }', { d: holdingsDefinition });
    expect(viaGraphql.body.errors[0].extensions.code).toBe('strategy_name_taken');
    const paged = ok(await rest('GET', '/v1/strategies?limit=100')).data.find((s: { name: string }) => s.name === 'Paged 1');
    expectEnvelope(await rest('PATCH', `/v1/strategies/${paged.id}`, { name: 'Three names' }), 409, 'strategy_name_taken');
  });

  it('names the field of every invalid definition, the same at REST and GraphQL', async () => {
    const cases: [unknown, string][] = [
      [{ kind: 'holdings', holdings: [{ ticker: 'ZZZZ', weight: 1 }] }, 'definition.holdings.0.ticker'],
      [{ kind: 'holdings', holdings: [{ ticker: 'AAPL', weight: 1 }, { ticker: 'aapl', weight: 1 }] }, 'definition.holdings.1.ticker'],
      [{ kind: 'holdings', holdings: [{ ticker: 'AAPL', weight: 1 }, { ticker: 'MSFT', weight: 1 }], constraints: { maxWeight: 0.4 } }, 'definition.constraints.maxWeight'],
      [{ kind: 'holdings', holdings: [{ ticker: 'AAPL', weight: -1 }] }, 'definition.holdings.0.weight'],
      [{ kind: 'holdings', holdings: [{ ticker: 'AAPL', weight: 1 }], rebalance: 'weekly' }, 'definition.rebalance'],
      [{ kind: 'holdings', holdings: [{ ticker: 'AAPL', weight: 1 }], constraints: { longOnly: false } }, 'definition.constraints.longOnly'],
      [{ kind: 'factor_tilt', universe: ['AAPL', 'MSFT'], tilts: { Mom: 1 }, select: 1 }, 'definition.tilts'],
      [{ kind: 'factor_tilt', universe: ['AAPL', 'MSFT'], tilts: { HML: 1 }, select: 3 }, 'definition.select'],
      [{ kind: 'factor_tilt', universe: ['AAPL', 'MSFT'], tilts: { HML: 1 }, select: 1, constraints: { minHoldings: 2 } }, 'definition.constraints.minHoldings'],
      [{ kind: 'momentum' }, 'definition.kind'],
    ];
    for (const [definition, path] of cases) {
      const viaRest = expectEnvelope(await rest('POST', '/v1/strategies', { name: `Bad ${path}`, definition }), 400, 'validation_error');
      expect(viaRest.details.issues.map((i: { path: string }) => i.path), JSON.stringify(viaRest)).toContain(path);
      const viaGraphql = await gql({ key }, 'mutation($d: JSON!) { createStrategy(name: "Bad", definition: $d) { id } }', { d: definition });
      expect(viaGraphql.body.errors[0].extensions.code, JSON.stringify(viaGraphql.body)).toBe('validation_error');
      expect(viaGraphql.body.errors[0].extensions.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expectEnvelope(await rest('POST', '/v1/strategies', { name: '   ', definition: holdingsDefinition }), 400, 'validation_error');
    expectEnvelope(await rest('GET', '/v1/strategies/stg_nope'), 400, 'invalid_request_parameter');
    expect(ok(await rest('GET', '/v1/strategies?limit=100')).data.some((s: { name: string }) => s.name.startsWith('Bad'))).toBe(false);
  });

  it('lets any member read and backtest, but only the roles and keys that may write change strategies', async () => {
    const byViewer = ok(await rest('GET', '/v1/strategies', undefined, { token: viewer }));
    expect(byViewer.data.length).toBeGreaterThan(0);
    expectEnvelope(await rest('POST', '/v1/strategies', { name: 'Viewer made', definition: holdingsDefinition }, { token: viewer }), 403, 'role_forbidden');
    expectEnvelope(await rest('DELETE', `/v1/strategies/${id}`, undefined, { token: viewer }), 403, 'role_forbidden');
    expectEnvelope(await rest('PATCH', `/v1/strategies/${id}`, { name: 'Read key' }, { key: readKey }), 403, 'insufficient_scope');
    const readMcp = await mcp(readKey, 'strategies_create', { name: 'Read key', definition: holdingsDefinition });
    expect(mcpCode(readMcp)).toBe('insufficient_scope');
    ok(await rest('POST', `/v1/strategies/${id}/backtest`, { start: '2021-01-01', end: '2021-03-31', curve: 'monthly' }, { key: readKey }));
    ok(await rest('POST', `/v1/strategies/${id}/backtest`, { start: '2021-01-01', end: '2021-03-31', curve: 'monthly' }, { token: viewer }));
    const developer = await sessionToken(t, orgId, `strategies.developer.${Date.now()}@example.com`, false, 'developer');
    const made = ok(await rest('POST', '/v1/strategies', { name: 'Developer made', definition: holdingsDefinition }, { token: developer }));
    expect(made.createdBy).toMatch(/^usr_/);
  }, 120_000);

  it('refuses another organization\'s strategy as not found, at every door and for every operation', async () => {
    const elsewhere = { key: other.key };
    for (const [method, path, body] of [
      ['GET', `/v1/strategies/${id}`, undefined],
      ['PATCH', `/v1/strategies/${id}`, { name: 'Taken over' }],
      ['DELETE', `/v1/strategies/${id}`, undefined],
      ['POST', `/v1/strategies/${id}/backtest`, {}],
    ] as const) {
      const refused = expectEnvelope(await rest(method, path, body, elsewhere), 404, 'strategy_not_found');
      const unknown = expectEnvelope(await rest(method, path.replace(id, 'stg_000000000000000000000000'), body, elsewhere), 404, 'strategy_not_found');
      expect(refused.message.replace(id, 'ID')).toBe(unknown.message.replace('stg_000000000000000000000000', 'ID'));
    }
    expect(ok(await rest('GET', '/v1/strategies', undefined, elsewhere)).data).toEqual([]);
    for (const query of [`{ strategy(id: "${id}") { id } }`, `mutation { updateStrategy(id: "${id}", name: "x") { id } }`, `mutation { deleteStrategy(id: "${id}") { id } }`, `mutation { backtestStrategy(id: "${id}") { artifactId } }`]) {
      const viaGraphql = await gql(elsewhere, query);
      expect(viaGraphql.body.errors?.[0]?.extensions.code, query).toBe('strategy_not_found');
    }
    for (const [tool, args] of [
      ['strategies_get', { strategy_id: id }],
      ['strategies_update', { strategy_id: id, name: 'x' }],
      ['strategies_delete', { strategy_id: id }],
      ['strategies_backtest', { strategy_id: id }],
    ] as const) {
      expect(mcpCode(await mcp(other.key, tool, args)), tool).toBe('strategy_not_found');
    }
    expect(ok(await rest('GET', `/v1/strategies/${id}`)).name).toBe('Three names');
  }, 120_000);

  it('deletes a strategy, keeping its backtests\' artifacts; deleting again is not found', async () => {
    const doomed = ok(await rest('POST', '/v1/strategies', { name: 'Doomed', definition: { kind: 'holdings', holdings: [{ ticker: 'TSLA', weight: 1 }] } }));
    const run = ok(await rest('POST', `/v1/strategies/${doomed.id}/backtest`, { start: '2022-01-01', end: '2022-02-28' }));
    expect(ok(await rest('DELETE', `/v1/strategies/${doomed.id}`))).toMatchObject({ id: doomed.id, name: 'Doomed' });
    expectEnvelope(await rest('DELETE', `/v1/strategies/${doomed.id}`), 404, 'strategy_not_found');
    expectEnvelope(await rest('GET', `/v1/strategies/${doomed.id}`), 404, 'strategy_not_found');
    expect(ok(await rest('GET', `/v1/artifacts/${run.artifactId}`)).kind).toBe('strategy_backtest');
  }, 120_000);

  it('offers every strategy route as an MCP tool', async () => {
    const response = await call(t, 'POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    const tools = response.body.result.tools as { name: string; annotations: { readOnlyHint: boolean; destructiveHint: boolean } }[];
    const names = tools.map((tool) => tool.name);
    for (const name of ['strategies_list', 'strategies_create', 'strategies_get', 'strategies_update', 'strategies_delete', 'strategies_backtest']) expect(names).toContain(name);
    // an agent is told which tool deletes, and which only read
    expect(tools.find((tool) => tool.name === 'strategies_delete')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.find((tool) => tool.name === 'strategies_get')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const listed = await mcp(key, 'strategies_list', { limit: 5 });
    expect(listed.body.result.isError).toBe(false);
  });
});

describe('a holdings backtest, recomputed from the files', () => {
  const start = '2020-01-01';
  const end = '2021-12-31';
  let strategyId: string;
  let body: any;

  beforeAll(async () => {
    strategyId = ok(await rest('POST', '/v1/strategies', { name: 'Capped three, monthly', definition: holdingsDefinition })).id;
    body = ok(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { start, end, initialValue: 1000 }));
  }, 120_000);

  it('follows the capped weights, drifting and rebalancing monthly: curve, returns, volatility, drawdown, turnover', () => {
    const tickers: Ticker[] = ['AAPL', 'MSFT', 'JPM'];
    const { returns, dates: all } = series(tickers);
    const dates = all.filter((d) => d >= start && d <= end);
    // 0.4/0.3/0.3 capped at 0.35: AAPL's excess 0.05 split evenly between the two 0.3s
    const target = { AAPL: 0.35, MSFT: 0.325, JPM: 0.325 };
    const sim = simulate(tickers, dates, returns, (d) => d.slice(0, 7), () => target, 1000);

    expect(body.strategy).toMatchObject({ id: strategyId, version: 1, kind: 'holdings' });
    expect(body.span).toEqual({ from: dates[0], to: dates.at(-1), days: dates.length, returns: dates.length - 1 });
    expect(body.model).toBe('ff5');
    expect(body.curve.points).toHaveLength(dates.length);
    body.curve.points.forEach((p: { date: string; value: number }, i: number) => {
      expect(p.date).toBe(dates[i]);
      expect(p.value).toBeCloseTo(sim.values[i]!, 8);
    });
    const total = sim.values.at(-1)! / 1000 - 1;
    expect(body.finalValue).toBeCloseTo(sim.values.at(-1)!, 8);
    expect(body.performance.totalReturn).toBeCloseTo(total, 12);
    expect(body.performance.annualizedReturn).toBeCloseTo((1 + total) ** (252 / sim.daily.length) - 1, 12);
    const mean = sum(sim.daily) / sim.daily.length;
    const sd = Math.sqrt(sum(sim.daily.map((r) => (r - mean) ** 2)) / (sim.daily.length - 1));
    expect(body.performance.volatility.annualized).toBeCloseTo(sd * Math.sqrt(252), 12);

    // the deepest fall from a running peak: early 2020
    let peak = 0;
    let worst = { dd: 0, peak: 0, trough: 0 };
    sim.values.forEach((v, i) => {
      if (v > sim.values[peak]!) peak = i;
      if (v / sim.values[peak]! - 1 < worst.dd) worst = { dd: v / sim.values[peak]! - 1, peak, trough: i };
    });
    expect(body.maxDrawdown.value).toBeCloseTo(worst.dd, 12);
    expect(body.maxDrawdown).toMatchObject({ peakDate: dates[worst.peak], troughDate: dates[worst.trough], recovered: true });
    expect(body.maxDrawdown.troughDate.startsWith('2020-03')).toBe(true);
    const recovery = sim.values.findIndex((v, i) => i > worst.trough && v >= sim.values[worst.peak]!);
    expect(body.maxDrawdown.recoveryDate).toBe(dates[recovery]);

    expect(body.rebalances[0]).toMatchObject({ date: dates[0], initial: true, turnover: 1 });
    expect(body.rebalances[0].weights).toEqual([
      { ticker: 'AAPL', before: 0, after: 0.35 },
      { ticker: 'MSFT', before: 0, after: 0.325 },
      { ticker: 'JPM', before: 0, after: 0.325 },
    ]);
    const later = body.rebalances.slice(1);
    expect(later.map((r: { date: string }) => r.date)).toEqual(sim.turnovers.map((r) => r.date));
    later.forEach((r: { turnover: number }, i: number) => expect(r.turnover).toBeCloseTo(sim.turnovers[i]!.turnover, 12));
    expect(later).toHaveLength(23); // the last dates of January 2020 to November 2021
    expect(body.turnover.total).toBeCloseTo(sum(sim.turnovers.map((r) => r.turnover)), 12);
  });

  it('regresses each rebalance period\'s excess returns on the five factors', () => {
    const tickers: Ticker[] = ['AAPL', 'MSFT', 'JPM'];
    const { returns, ff5, dates: all } = series(tickers);
    const dates = all.filter((d) => d >= start && d <= end);
    const sim = simulate(tickers, dates, returns, (d) => d.slice(0, 7), () => ({ AAPL: 0.35, MSFT: 0.325, JPM: 0.325 }), 1000);
    expect(body.exposures).toHaveLength(24);
    const march = body.exposures.find((e: { from: string }) => e.from.startsWith('2020-03'));
    const days = dates.map((d, i) => ({ d, i })).filter(({ d }) => d >= march.from && d <= march.to);
    expect(march.days).toBe(days.length);
    const y = days.map(({ d, i }) => sim.daily[i - 1]! - ff5.get(d)!.RF!);
    const coef = normalEquations(y, ff5Names.map((f) => days.map(({ d }) => ff5.get(d)![f]!)));
    ff5Names.forEach((f, j) => expect(march.exposures.betas[f].beta).toBeCloseTo(coef[j + 1]!, 8));
    expect(march.exposures.alpha.daily).toBeCloseTo(coef[0]!, 8);
    expect(march.afterRebalance < march.from).toBe(true);
  });

  it('cites the price and factor files with their vintages, in the answer and in the artifact', async () => {
    const keys = body.sources.map((s: { sourceKey: string }) => s.sourceKey);
    expect(keys).toEqual(expect.arrayContaining([files.AAPL, files.MSFT, files.JPM, files.ff5]));
    expect(keys).not.toContain(files.NVDA);
    const factorFile = body.sources.find((s: { sourceKey: string }) => s.sourceKey === files.ff5);
    expect(factorFile.vintage).toMatch(/^\d{6}$/);
    for (const s of body.sources) expect(s.vintage !== null || s.vintageNote.length > 0).toBe(true);
    const artifact = ok(await rest('GET', `/v1/artifacts/${body.artifactId}`));
    expect(artifact).toMatchObject({ kind: 'strategy_backtest', route: `/v1/strategies/${strategyId}/backtest`, contentHash: body.contentHash });
    expect(artifact.manifest.sources.map((s: { sourceKey: string }) => s.sourceKey).sort()).toEqual([...keys].sort());
    expect(artifact.manifest.inputs).toMatchObject({ strategyId, version: 1, start, end, initialValue: 1000 });
    expect(artifact.manifest.window).toEqual({ from: body.span.from, to: body.span.to, days: body.span.days });
    const listed = ok(await rest('GET', '/v1/artifacts?kind=strategy_backtest&limit=100'));
    expect(listed.data.map((a: { id: string }) => a.id)).toContain(body.artifactId);
  });

  it('is deterministic: the same request gives the same contentHash, as a new artifact; a new version changes it', async () => {
    const again = ok(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { start, end, initialValue: 1000 }));
    expect(again.contentHash).toBe(body.contentHash);
    expect(again.artifactId).not.toBe(body.artifactId);
    const viaGraphql = await gql({ key }, 'mutation($id: String!) { backtestStrategy(id: $id, start: "2020-01-01", end: "2021-12-31", initialValue: 1000) { contentHash result } }', { id: strategyId });
    expect(viaGraphql.body.data.backtestStrategy.contentHash).toBe(body.contentHash);
    const viaMcp = await mcp(key, 'strategies_backtest', { strategy_id: strategyId, start, end, initialValue: 1000 });
    expect(viaMcp.body.result.structuredContent.contentHash).toBe(body.contentHash);
    ok(await rest('PATCH', `/v1/strategies/${strategyId}`, { description: 'now described' }));
    const v2 = ok(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { start, end, initialValue: 1000 }));
    expect(v2.strategy.version).toBe(2);
    expect(v2.contentHash).not.toBe(body.contentHash);
    expect(v2.finalValue).toBe(body.finalValue);
  }, 120_000);

  it('gives a monthly curve, and refuses a span it cannot run', async () => {
    const monthly = ok(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { start, end, initialValue: 1000, curve: 'monthly' }));
    expect(monthly.curve.points).toHaveLength(25); // the first date and each month's last
    expect(monthly.curve.points.at(-1)).toEqual(body.curve.points.at(-1));
    const backwards = expectEnvelope(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { start: '2021-01-01', end: '2020-01-01' }), 400, 'validation_error');
    expect(backwards.details.issues[0].path).toBe('end');
    const late = expectEnvelope(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { start: '2030-01-01' }), 400, 'validation_error');
    expect(late.details.issues[0].path).toBe('start');
    expectEnvelope(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { curve: 'weekly' }), 400, 'validation_error');
    expectEnvelope(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { initialValue: 0 }), 400, 'validation_error');
  }, 120_000);

  it('runs to the last date with every price and factor when no span is given', async () => {
    const whole = ok(await rest('POST', `/v1/strategies/${strategyId}/backtest`, { curve: 'monthly' }));
    const { dates } = series(['AAPL', 'MSFT', 'JPM']);
    expect(whole.span).toMatchObject({ from: dates[0], to: dates.at(-1) });
    expect(whole.span.to).toBe('2024-08-30'); // the five-factor file's last date
  }, 120_000);
});

describe('a factor-tilt backtest, recomputed from the files', () => {
  const universe: Ticker[] = ['AAPL', 'MSFT', 'JPM', 'NVDA', 'TSLA'];
  const start = '2021-01-01';
  const end = '2022-12-31';
  const lookbackDays = 126;

  it('holds, each quarter, the two names with the highest market beta over the 126 dates to the rebalance', async () => {
    const definition = { kind: 'factor_tilt', universe, tilts: { 'Mkt-RF': 1, SMB: -0.5 }, select: 2, lookbackDays, model: 'ff5', rebalance: 'quarterly' };
    const id = ok(await rest('POST', '/v1/strategies', { name: 'High beta, large', definition })).id;
    const body = ok(await rest('POST', `/v1/strategies/${id}/backtest`, { start, end }));

    const { returns, ff5, dates: all } = series(universe);
    const s = all.findIndex((d) => d >= start);
    const e = all.filter((d) => d <= end).length - 1;
    const quarter = (d: string) => `${d.slice(0, 4)}Q${Math.floor((Number(d.slice(5, 7)) - 1) / 3)}`;
    const chosenAt: string[][] = [];
    const targetAt = (i: number) => {
      const at = s + i;
      const window = all.slice(at - lookbackDays + 1, at + 1);
      const scored = universe.map((tk) => {
        const coef = normalEquations(window.map((d) => returns[tk].get(d)! - ff5.get(d)!.RF!), ff5Names.map((f) => window.map((d) => ff5.get(d)![f]!)));
        return { tk, score: coef[1]! - 0.5 * coef[2]! };
      });
      const top = scored.sort((a, b) => b.score - a.score || (a.tk < b.tk ? -1 : 1)).slice(0, 2).map((x) => x.tk);
      chosenAt.push(top.sort());
      return Object.fromEntries(top.map((tk) => [tk, 0.5]));
    };
    const sim = simulate(universe, all.slice(s, e + 1), returns, quarter, targetAt, 10000);

    expect(body.span).toMatchObject({ from: all[s], to: all[e] });
    expect(body.rebalances).toHaveLength(chosenAt.length);
    body.rebalances.forEach((r: { selection: { ticker: string; selected: boolean }[] }, i: number) => {
      expect(r.selection).toHaveLength(5);
      expect(r.selection.filter((x) => x.selected).map((x) => x.ticker).sort()).toEqual(chosenAt[i]);
    });
    expect(body.finalValue).toBeCloseTo(sim.values.at(-1)!, 6);
    body.rebalances.slice(1).forEach((r: { turnover: number }, i: number) => expect(r.turnover).toBeCloseTo(sim.turnovers[i]!.turnover, 10));
    expect(body.exposures).toHaveLength(8);
  }, 120_000);

  it('refuses a start too early for the first betas, naming the earliest it can run from', async () => {
    const definition = { kind: 'factor_tilt', universe: ['AAPL', 'MSFT'], tilts: { HML: 1 }, select: 1 };
    const id = ok(await rest('POST', '/v1/strategies', { name: 'Value pick', definition })).id;
    const refused = expectEnvelope(await rest('POST', `/v1/strategies/${id}/backtest`, { start: '2005-01-01', end: '2007-01-01' }), 400, 'validation_error');
    expect(refused.details.issues[0].path).toBe('start');
    const { dates } = series(['AAPL', 'MSFT']);
    expect(refused.details.earliestStart).toBe(dates[251]);
    const defaulted = ok(await rest('POST', `/v1/strategies/${id}/backtest`, { end: '2007-12-31', curve: 'monthly' }));
    expect(defaulted.span.from).toBe(dates[251]);
  }, 120_000);
});
