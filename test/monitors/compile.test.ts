// The plain-English monitor compiler against a real service and the fixture corpus: companies
// are resolved from the ingested entities, webhook endpoints from the organization's rows, and
// every query it returns is one the route's own schema accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgWithKey, startTestService, type TestService } from '../harness.ts';
import { runIngest } from '../../ingest/run.ts';
import { fixtureSource, fixtureCorpus } from '../data/fixtureSource.ts';
import { amountOf, compileMonitor, normalizeName, prismaCompileEnv, type CompileEnv, type MonitorQuery } from '../../resolvers/monitors/compile.ts';
import { routes } from '../../catalogue/routes/index.ts';
import { ApiError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';

type Org = 'one' | 'many' | 'none';
let t: TestService;
const envs = {} as Record<Org, CompileEnv>;
/** endpoint ids by role: `ops` is the single endpoint of org "one"; `slack` and `pager` are org "many"'s */
const endpoints: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestService();
  await runIngest(t.service.services, fixtureSource(fixtureCorpus));
  const { prisma } = t.service.services;
  const endpoint = async (orgId: string, role: string, url: string, description: string, extra: { status?: string; deletedAt?: Date } = {}) => {
    const id = newId('we');
    // The compiler reads only id, url and description; the secret is a placeholder. No event of
    // these organizations is of type monitor.matched, so the webhook worker sends nothing.
    await prisma.webhookEndpoint.create({ data: { id, orgId, url, description, eventTypes: ['monitor.matched'], secretSealed: 'placeholder', ...extra } });
    endpoints[role] = id;
  };
  const [one, many, none] = [await orgWithKey(t), await orgWithKey(t), await orgWithKey(t)];
  await endpoint(one.orgId, 'ops', 'https://hooks.example.com/ops', 'Ops pager');
  await endpoint(one.orgId, 'disabled', 'https://hooks.example.com/old', 'Old', { status: 'disabled' });
  await endpoint(one.orgId, 'deleted', 'https://hooks.example.com/gone', 'Gone', { deletedAt: new Date() });
  await endpoint(many.orgId, 'slack', 'https://hooks.slack.example/T000', 'Slack alerts');
  await endpoint(many.orgId, 'pager', 'https://pagerduty.example/x', 'PagerDuty');
  await endpoint(none.orgId, 'noneDisabled', 'https://hooks.example.com/off', 'Off', { status: 'disabled' });
  envs.one = prismaCompileEnv(prisma, one.orgId);
  envs.many = prismaCompileEnv(prisma, many.orgId);
  envs.none = prismaCompileEnv(prisma, none.orgId);
}, 120_000);

afterAll(() => t?.close());

interface Case {
  text: string;
  org?: Org;
  query: MonitorQuery;
  /** an endpoint role (see `endpoints`) or an email address */
  delivery?: { webhook: string } | { email: string };
  unparsed?: string[];
}

const AAPL = { ticker: 'AAPL' };

// prettier-ignore
const understood: Case[] = [
  // companies by ticker or name, form types
  { text: 'Alert me when Apple files a 10-K', query: { route: '/v1/filings', params: { form: '10-K', ...AAPL } } },
  { text: 'notify me of new 8-Ks from $AAPL', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } } },
  { text: 'apple inc annual report', query: { route: '/v1/filings', params: { form: '10-K', ...AAPL } } },
  { text: 'Tell me when Microsoft Corporation files a quarterly report', query: { route: '/v1/filings', params: { form: '10-Q', ticker: 'MSFT' } } },
  { text: 'insider trades at NVDA', query: { route: '/v1/filings', params: { form: '4', ticker: 'NVDA' } } },
  { text: 'form 4 filings for aapl', query: { route: '/v1/filings', params: { form: '4', ...AAPL } } },
  { text: 'DEF 14A from Apple', query: { route: '/v1/filings', params: { form: 'DEF 14A', ...AAPL } } },
  { text: 'Apple S-1/A', query: { route: '/v1/filings', params: { form: 'S-1/A', ...AAPL } } },
  { text: 'Berkshire Hathaway 13F', query: { route: '/v1/filings', params: { form: '13F-HR', ticker: 'BRK-B' } } },
  { text: 'any 424B4 from Aircastle', query: { route: '/v1/filings', params: { form: '424B4', ticker: 'AYR' } } },
  { text: 'cik 320193 10q', query: { route: '/v1/filings', params: { form: '10-Q', ...AAPL } } },
  { text: 'anything Apple files in March 2025', query: { route: '/v1/filings', params: { ...AAPL, filed_from: '2025-03-01', filed_to: '2025-03-31' } } },
  // structured form families; companies without a ticker go by CIK
  { text: 'Form D filings by Bluefin Analytics', query: { route: '/v1/forms/d', params: { cik: '0009990008' } } },
  { text: 'private placements since 2024-01-01', query: { route: '/v1/forms/d', params: { filed_from: '2024-01-01' } } },
  { text: 'form D/A from Harbor Lane Opportunity Fund, LP', query: { route: '/v1/forms/d', params: { form_type: 'D/A', cik: '0009990001' } } },
  { text: 'Northwind Biologics form 144', query: { route: '/v1/forms/144', params: { cik: '0009990021' } } },
  { text: 'Saltmarsh Brewing crowdfunding offerings', query: { route: '/v1/forms/c', params: { cik: '0009990004' } } },
  { text: 'Regulation A offerings', query: { route: '/v1/forms/1-a', params: {} } },
  { text: 'N-CEN reports from Pinecrest Equity Trust', query: { route: '/v1/forms/ncen', params: { cik: '0009990009' } } },
  { text: 'Vanguard Group N-PX', query: { route: '/v1/forms/npx', params: { cik: '0000102909' } } },
  // 8-K items and events, by number and by name
  { text: 'AAPL item 5.02', query: { route: '/v1/events/officer-changes', params: AAPL } },
  { text: 'Apple 8-K item 4.01', query: { route: '/v1/events/auditor-changes', params: AAPL } },
  { text: 'item 4.02 restatements at Microsoft', query: { route: '/v1/events/restatements', params: { ticker: 'MSFT' } } },
  { text: 'Apple 8-K item 7.01', query: { route: '/v1/filings', params: { form: '8-K', item: '7.01', ...AAPL } } },
  { text: 'CEO departure at Apple', query: { route: '/v1/events/officer-changes', params: AAPL } },
  { text: 'executive departs Aircastle', query: { route: '/v1/events/officer-changes', params: { ticker: 'AYR' } } },
  { text: 'auditor change at Microsoft', query: { route: '/v1/events/auditor-changes', params: { ticker: 'MSFT' } } },
  { text: 'Apple 8-K with non-reliance', query: { route: '/v1/events/restatements', params: AAPL } },
  { text: 'restatements after March 1, 2025', query: { route: '/v1/events/restatements', params: { filed_from: '2025-03-02' } } },
  { text: 'shareholder vote results at Apple annual meeting', query: { route: '/v1/events/voting-results', params: { ...AAPL, meeting_type: 'annual' } } },
  { text: 'NVDA voting results at special meetings', query: { route: '/v1/events/voting-results', params: { ticker: 'NVDA', meeting_type: 'special' } } },
  { text: 'Apple earnings since March 1, 2025', query: { route: '/v1/filings', params: { form: '8-K', item: '2.02', ...AAPL, filed_from: '2025-03-01' } } },
  { text: 'results of operations from MSFT', query: { route: '/v1/filings', params: { form: '8-K', item: '2.02', ticker: 'MSFT' } } },
  { text: 'any IPO before 2025-06-30', query: { route: '/v1/events/ipo', params: { filed_to: '2025-06-29' } } },
  { text: 'mergers between 2024-01-01 and 2024-12-31', query: { route: '/v1/events/ma', params: { filed_from: '2024-01-01', filed_to: '2024-12-31' } } },
  { text: 'acquisition news for NVIDIA until 2025-06-30', query: { route: '/v1/events/ma', params: { ticker: 'NVDA', filed_to: '2025-06-30' } } },
  { text: 'SEC enforcement actions against Apple', query: { route: '/v1/events/enforcement', params: AAPL } },
  // fact thresholds, as exact decimal strings
  { text: 'Apple revenue below 1B', query: { route: '/v1/facts', params: { tag: 'Revenues', ...AAPL }, threshold: { below: '1000000000' } } },
  { text: 'alert when Apple revenue is above $500 million', query: { route: '/v1/facts', params: { tag: 'Revenues', ...AAPL }, threshold: { above: '500000000' } } },
  { text: 'AAPL revenue drops below 1.5B', query: { route: '/v1/facts', params: { tag: 'Revenues', ...AAPL }, threshold: { below: '1500000000' } } },
  { text: 'Apple net loss', query: { route: '/v1/facts', params: { tag: 'NetIncomeLoss', ...AAPL }, threshold: { below: '0' } } },
  { text: 'Apple net loss over $100 million', query: { route: '/v1/facts', params: { tag: 'NetIncomeLoss', ...AAPL }, threshold: { below: '-100000000' } } },
  { text: 'net income over 10M for AAPL', query: { route: '/v1/facts', params: { tag: 'NetIncomeLoss', ...AAPL }, threshold: { above: '10000000' } } },
  { text: 'Apple EPS below 1.50', query: { route: '/v1/facts', params: { tag: 'EarningsPerShareDiluted', ...AAPL }, threshold: { below: '1.5' } } },
  { text: 'Apple revenue between $1B and $2.25bn', query: { route: '/v1/facts', params: { tag: 'Revenues', ...AAPL }, threshold: { above: '1000000000', below: '2250000000' } } },
  { text: 'Apple cash under 1,250k', query: { route: '/v1/facts', params: { tag: 'CashAndCashEquivalentsAtCarryingValue', ...AAPL }, threshold: { below: '1250000' } } },
  { text: 'Apple total assets above 3.5 trillion', query: { route: '/v1/facts', params: { tag: 'Assets', ...AAPL }, threshold: { above: '3500000000000' } } },
  { text: 'Apple 10-K revenue under 250mm', query: { route: '/v1/facts', params: { tag: 'Revenues', form: '10-K', ...AAPL }, threshold: { below: '250000000' } } },
  // deliveries
  { text: 'Apple 8-K item 1.01 in 2024, email me at a@b.com', query: { route: '/v1/filings', params: { form: '8-K', item: '1.01', ...AAPL, filed_from: '2024-01-01', filed_to: '2024-12-31' } }, delivery: { email: 'a@b.com' } },
  { text: 'Apple 10-Q send to ops@x.io', query: { route: '/v1/filings', params: { form: '10-Q', ...AAPL } }, delivery: { email: 'ops@x.io' } },
  { text: 'Apple 8-Ks to my webhook', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, delivery: { webhook: 'ops' } },
  { text: 'Apple 8-Ks via the ops webhook', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, delivery: { webhook: 'ops' } },
  { text: 'Apple 8-Ks to the slack webhook', org: 'many', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, delivery: { webhook: 'slack' } },
  { text: 'officer changes at Microsoft, post to webhook for PagerDuty', org: 'many', query: { route: '/v1/events/officer-changes', params: { ticker: 'MSFT' } }, delivery: { webhook: 'pager' } },
];

// Partly understood: a usable query, with what could not be placed in `unparsed`.
// prettier-ignore
const partial: Case[] = [
  { text: 'Alert me when Foobarco files an 8-K', query: { route: '/v1/filings', params: { form: '8-K' } }, unparsed: ['Foobarco'] },
  { text: 'CEO departs at Foobarco', query: { route: '/v1/events/officer-changes', params: {} }, unparsed: ['Foobarco'] },
  { text: 'Apple 10-K since 2024-02-30', query: { route: '/v1/filings', params: { form: '10-K', ...AAPL } }, unparsed: ['since 2024-02-30'] },
  { text: 'Apple revenue below 1B since 2024-01-01', query: { route: '/v1/facts', params: { tag: 'Revenues', ...AAPL }, threshold: { below: '1000000000' } }, unparsed: ['since 2024-01-01'] },
  { text: 'Apple and Microsoft 10-K', query: { route: '/v1/filings', params: { form: '10-K', ...AAPL } }, unparsed: ['Microsoft'] },
  { text: 'Apple 8-K weekly digest please via sms', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, unparsed: ['weekly digest', 'sms'] },
  { text: 'Apple 8-Ks to my webhook', org: 'many', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, unparsed: ['to my webhook'] },
  { text: 'Apple 8-Ks to my webhook', org: 'none', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, unparsed: ['to my webhook'] },
  { text: 'Apple 8-Ks to webhook we_nope123', org: 'many', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, unparsed: ['we_nope123'] },
  { text: 'Apple 8-K, email me', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, unparsed: ['email me'] },
  { text: 'Apple items 5.02 and 5.07', query: { route: '/v1/events/officer-changes', params: AAPL }, unparsed: ['5.07'] },
  { text: 'Apple 10-K and auditor changes', query: { route: '/v1/filings', params: { form: '10-K', ...AAPL } }, unparsed: ['auditor changes'] },
  { text: 'Apple 8-K from 2025-01-01 to 2024-01-01', query: { route: '/v1/filings', params: { form: '8-K', ...AAPL } }, unparsed: ['from 2025-01-01 to 2024-01-01'] },
];

// prettier-ignore
const refused: { text: string; reason: string; org?: Org }[] = [
  { text: '', reason: 'empty' },
  { text: '   ', reason: 'empty' },
  { text: `Apple 10-K ${'please '.repeat(150)}`, reason: 'too_long' },
  { text: 'hello world', reason: 'nothing_understood' },
  { text: 'alert me', reason: 'nothing_understood' },
  { text: 'email me at a@b.com', reason: 'nothing_understood' },
  { text: 'since 2024-01-01', reason: 'nothing_understood' },
  { text: 'revenue below 1B', reason: 'company_required' },
  { text: 'Foobarco revenue above $5M', reason: 'company_required' },
];

async function compile(c: { text: string; org?: Org }) {
  return compileMonitor(c.text, envs[c.org ?? 'one']);
}

function expectRouteAccepts(query: MonitorQuery) {
  const route = routes.find((r) => r.method === 'GET' && r.path === query.route);
  expect(route, query.route).toBeDefined();
  const parsed = route!.params.query!.safeParse(query.params);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  for (const key of ['limit', 'cursor', 'view']) expect(query.params).not.toHaveProperty(key);
  for (const value of Object.values(query.threshold ?? {})) expect(value).toMatch(/^-?\d+(\.\d+)?$/);
}

function expectedDelivery(c: Case) {
  if (!c.delivery) return undefined;
  return 'email' in c.delivery ? { type: 'email', address: c.delivery.email } : { type: 'webhook', webhookEndpointId: endpoints[c.delivery.webhook] };
}

describe('compileMonitor', () => {
  it.each(understood)('understands "$text"', async (c) => {
    const result = await compile(c);
    expect(result.query).toEqual(c.query);
    expect(result.delivery).toEqual(expectedDelivery(c));
    expect(result.unparsed).toEqual([]);
    expect(result.confidence).toBeGreaterThanOrEqual(0.9);
    expect(result.explanation).toMatch(/^Watches /);
    expectRouteAccepts(result.query);
  });

  it.each(partial)('partly understands "$text" ($org)', async (c) => {
    const result = await compile(c);
    expect(result.query).toEqual(c.query);
    expect(result.delivery).toEqual(expectedDelivery(c));
    expect(result.unparsed).toEqual(c.unparsed);
    expect(result.confidence).toBeLessThan(0.9);
    for (const phrase of c.unparsed!) expect(result.explanation).toContain(phrase);
    expectRouteAccepts(result.query);
  });

  it.each(refused)('refuses "$text"', async (c) => {
    const error = await compile(c).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('validation_error');
    expect((error as ApiError).options.details).toMatchObject({ parameter: 'text', reason: c.reason });
  });

  it('never invents a CIK for an unknown company', async () => {
    const result = await compileMonitor('Foobarco 10-K filings', envs.one);
    expect(result.query.params).not.toHaveProperty('cik');
    expect(result.query.params).not.toHaveProperty('ticker');
    expect(await envs.one.findCompany('Foobarco')).toBeNull();
  });

  it('is deterministic: the same text compiles to the same result', async () => {
    for (const text of ['Apple revenue between $1B and $2.25bn, email me at a@b.com', 'Apple 8-K weekly digest please via sms', 'Alert me when Foobarco files an 8-K']) {
      expect(await compileMonitor(text, envs.one)).toEqual(await compileMonitor(text, envs.one));
    }
  });

  it('explains what the monitor watches, with the company and the delivery', async () => {
    const result = await compileMonitor('Bluefin Analytics form D since 2024-01-01, email ops@x.io', envs.one);
    expect(result.explanation).toBe('Watches new Form D exempt offerings of Bluefin Analytics Inc. (CIK 0009990008), filed on or after 2024-01-01; alerts are emailed to ops@x.io.');
    expect(result.confidence).toBe(1);
  });

  it('lowers the confidence for a company named by the start of its name', async () => {
    const result = await compileMonitor('Berkshire 13F', envs.one);
    expect(result.query).toEqual({ route: '/v1/filings', params: { form: '13F-HR', ticker: 'BRK-B' } });
    expect(result.confidence).toBeLessThan(1);
  });
});

describe('prismaCompileEnv', () => {
  it('resolves tickers and names, ignoring case, punctuation and legal suffixes', async () => {
    const apple = { cik: '0000320193', name: 'Apple Inc.', ticker: 'AAPL' };
    for (const phrase of ['AAPL', '$AAPL', 'aapl', 'Apple', 'apple inc', 'APPLE, INC.']) expect(await envs.one.findCompany(phrase), phrase).toEqual(apple);
    expect(await envs.one.findCompany('Microsoft Corporation')).toEqual({ cik: '0000789019', name: 'MICROSOFT CORP', ticker: 'MSFT' });
    expect(await envs.one.findCompany('bluefin analytics')).toEqual({ cik: '0009990008', name: 'Bluefin Analytics Inc.', ticker: null });
    expect(await envs.one.findCompany('Nonexistent Widgets')).toBeNull();
  });

  it('lists only the organization\'s enabled, undeleted webhook endpoints', async () => {
    expect(await envs.one.webhookEndpoints()).toEqual([{ id: endpoints.ops, url: 'https://hooks.example.com/ops', description: 'Ops pager' }]);
    expect((await envs.many.webhookEndpoints()).map((e) => e.id).sort()).toEqual([endpoints.slack, endpoints.pager].sort());
    expect(await envs.none.webhookEndpoints()).toEqual([]);
  });
});

describe('helpers', () => {
  it.each([
    [undefined, '1.5', 'b', '1500000000'],
    [undefined, '1,250', 'k', '1250000'],
    [undefined, '0.25', 'm', '250000'],
    [undefined, '1.2345', 'k', '1234.5'],
    ['-', '5', 'million', '-5000000'],
    [undefined, '007', undefined, '7'],
    [undefined, '9007199254740993', 't', '9007199254740993000000000000'],
    [undefined, 'zero', undefined, '0'],
  ])('amountOf(%s, %s, %s) = %s', (sign, digits, unit, expected) => {
    expect(amountOf(sign, digits, unit)).toBe(expected);
  });

  it('normalizes company names', () => {
    expect(normalizeName('Apple Inc.')).toBe('apple');
    expect(normalizeName('The Home Depot, Inc.')).toBe('home depot');
    expect(normalizeName('Harbor Lane Opportunity Fund, L.P.')).toBe('harbor lane opportunity fund');
    expect(normalizeName('APPLE INC /CA/')).toBe('apple');
  });
});
