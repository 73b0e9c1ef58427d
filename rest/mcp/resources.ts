// MCP resources: what an agent can cite, by URI. Listing walks what was ingested; reading runs
// the route of the table that serves the same thing over REST, through the request pipeline.
import type { Context } from '../../resolvers/context.ts';
import { clipped, toApiError } from '../../core/errors.ts';
import { routeAnswer, runPipeline } from '../../catalogue/pipeline.ts';
import type { Route } from '../../catalogue/route.ts';
import { fromApiError, invalidParams } from './protocol.ts';

export const resourceTemplates = [
  { uriTemplate: 'sec://entities/{cik}', name: 'entity', title: 'EDGAR entity', description: 'An issuer, fund, manager or insider by 10-digit CIK', mimeType: 'application/json' },
  { uriTemplate: 'sec://filings/{accession_number}', name: 'filing', title: 'Filing', description: 'A filing\'s index record and section manifest, by accession number', mimeType: 'application/json' },
  { uriTemplate: 'sec://filings/{accession_number}/sections/{section_key}', name: 'section', title: 'Filing section', description: 'The text of one section, e.g. item_1a (Risk Factors)', mimeType: 'text/plain' },
];

const pageSize = 50;

export async function listResources(ctx: Context, cursor: unknown) {
  const offset = typeof cursor === 'string' && /^\d+$/.test(cursor) ? Number(cursor) : 0;
  const filings = await ctx.prisma.filing.findMany({
    where: { documentSourceKey: { not: null } },
    orderBy: [{ orderedAt: 'desc' }, { accessionNumber: 'desc' }],
    select: { accessionNumber: true, form: true, filedAt: true, entity: { select: { name: true, cik: true } }, sections: { select: { key: true, title: true }, orderBy: { ordinal: 'asc' } } },
  });
  const all = filings.flatMap((f) => {
    const label = `${f.entity.name} ${f.form}${f.filedAt ? ` filed ${f.filedAt.toISOString().slice(0, 10)}` : ''}`;
    return [
      { uri: `sec://filings/${f.accessionNumber}`, name: f.accessionNumber, title: label, mimeType: 'application/json' },
      ...f.sections.map((s) => ({ uri: `sec://filings/${f.accessionNumber}/sections/${s.key}`, name: `${f.accessionNumber} ${s.key}`, title: `${label}: ${s.title}`, mimeType: 'text/plain' })),
    ];
  });
  const entities = await ctx.prisma.entity.findMany({ where: { hasSubmissions: true }, orderBy: { name: 'asc' }, select: { cik: true, name: true } });
  all.push(...entities.map((e) => ({ uri: `sec://entities/${e.cik}`, name: e.cik, title: e.name, mimeType: 'application/json' })));
  const page = all.slice(offset, offset + pageSize);
  return { resources: page, ...(offset + pageSize < all.length ? { nextCursor: String(offset + pageSize) } : {}) };
}

const uriPatterns: { pattern: RegExp; uriTemplate: string; route: string; params: (m: RegExpMatchArray) => { path: Record<string, string>; query: Record<string, string> }; mimeType: string }[] = [
  { pattern: /^sec:\/\/entities\/(\d{10})$/, uriTemplate: 'sec://entities/{cik}', route: 'entities_resolve', params: (m) => ({ path: {}, query: { identifier: m[1]!, view: 'agent' } }), mimeType: 'application/json' },
  { pattern: /^sec:\/\/filings\/(\d{10}-\d{2}-\d{6})$/, uriTemplate: 'sec://filings/{accession_number}', route: 'filings_get', params: (m) => ({ path: { accession_number: m[1]! }, query: { view: 'agent' } }), mimeType: 'application/json' },
  {
    pattern: /^sec:\/\/filings\/(\d{10}-\d{2}-\d{6})\/sections\/([a-z0-9_]+)$/,
    uriTemplate: 'sec://filings/{accession_number}/sections/{section_key}',
    route: 'filings_section_get',
    params: (m) => ({ path: { accession_number: m[1]!, section_key: m[2]! }, query: { view: 'default' } }),
    mimeType: 'text/plain',
  },
];

/** Which route of the table each resource template reads (and so is authorized, metered and billed as). */
export const resourceRoutes: { uriTemplate: string; route: string }[] = uriPatterns.map(({ uriTemplate, route }) => ({ uriTemplate, route }));

/**
 * Reading a resource is a call of its route through the request pipeline, exactly as the tool of
 * the same name: the same access check, quota window and price.
 */
export async function readResource(routes: Map<string, Route>, uri: unknown, ctx: Context) {
  if (typeof uri !== 'string') throw invalidParams('resources/read needs a uri.', 'validation_error');
  const match = uriPatterns.map((p) => ({ p, m: uri.match(p.pattern) })).find((x) => x.m);
  if (!match) throw invalidParams(`Unsupported resource URI ${clipped(String(JSON.stringify(uri)))}; see resources/templates/list.`);
  const route = routes.get(match.p.route)!;
  try {
    const outcome = await runPipeline(ctx, { route, caller: { principal: ctx.principal }, raw: { ...match.p.params(match.m!), body: undefined }, requestId: ctx.requestId, clientAddress: ctx.clientAddress });
    const body = routeAnswer(outcome) as Record<string, unknown>;
    const text = match.p.mimeType === 'text/plain' ? String(body.text) : JSON.stringify(body);
    return { contents: [{ uri, mimeType: match.p.mimeType, text }] };
  } catch (error) {
    const known = toApiError(error);
    if (known && known.status === 404) throw invalidParams(`No resource ${uri}: ${known.message}`);
    throw known ? fromApiError(known) : error;
  }
}
