// Special situations (resolvers/situations.ts): mergers, tender offers, spin-offs, going-private
// transactions, bankruptcies, delistings and activist campaigns, grouped from a company's filings.
import { z } from 'zod';
import { ApiError } from '../../core/errors.ts';
import { SituationDocument, SituationsDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, viewParam, type Route } from '../route.ts';
import { situationGapDays, situationKinds, situationStages } from '../../resolvers/situations.ts';

const kinds = Object.keys(situationKinds) as [string, ...string[]];

const situation = z.object({
  object: z.literal('situation'),
  id: z.string().describe('`sit_<cik>_` + a digest of the kind, the CIK and the first filing\'s accession number'),
  kind: z.enum(kinds),
  stage: z.enum(situationStages),
  stageRule: z.string().describe('What marks each stage for this kind'),
  company: z.object({ cik: z.string(), name: z.string() }),
  firstFiledAt: z.string(),
  lastFiledAt: z.string(),
  filingCount: z.number().int(),
  timeline: z.array(
    z.object({
      accessionNumber: z.string(),
      form: z.string(),
      items: z.array(z.string()).describe('8-K item numbers'),
      filedAt: z.string(),
      role: z.enum(['announcement', 'update', 'completion']),
      what: z.string(),
      citationUrl: z.string(),
    }),
  ),
});

type Node = Omit<z.infer<typeof situation>, 'object' | 'company' | 'kind' | 'stage' | 'timeline'> & { cik: string; companyName: string; kind: string; stage: string; timeline: { role: string }[] };
const toSituation = ({ cik, companyName, ...s }: Node) => ({ object: 'situation' as const, ...s, company: { cik, name: companyName } }) as unknown as z.infer<typeof situation>;

const rules =
  `A situation is one company's filings of one kind, oldest first; a filing less than ${situationGapDays} days after the previous one of the same kind and company belongs to the same situation, a later one opens a new situation, and so does any filing after a completed situation's completion other than another completion filing (an 8-K/A of the 2.01 report). ` +
  `Kinds: ${Object.entries(situationKinds).map(([kind, k]) => `\`${kind}\`: ${k.description}${k.completion ? `; completed by ${k.completion}` : ''}.`).join(' ')} ` +
  'Stage: `completed` when a filing marks completion (only the kinds above that name one), `in_progress` once a later filing of the kind follows the first, else `announced`. ' +
  'A filing belongs to the company EDGAR lists it under; a filing listed under several companies (a 13D under its filer and its subject, a Form 25-NSE under the exchange and the issuer) is held once, under one of them, and a 25-NSE held under the exchange that filed it (its accession number begins with the exchange\'s CIK) is left out, since it names no issuer here. ';

const list = operationRoute({
  name: 'situations_list',
  method: 'GET',
  path: '/v1/situations',
  summary: 'Special situations grouped from held filings',
  description:
    rules +
    'Each situation carries its timeline: every filing that moves it, with its form, 8-K items, filing date, role (announcement, update, completion) and citation. Situations are regrouped from held filings on every read. ' +
    'Filters: company (`ticker` or `cik`), `kind`, `stage`, and `filed_from`/`filed_to`, which keep the situations active in that range (last filing on or after `filed_from`, first on or before `filed_to`). Newest last filing first.',
  tag: 'Situations',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  errors: ['entity_not_found', 'invalid_query_parameter'],
  params: {
    query: z.strictObject({
      kind: z.string().min(1).max(40).optional().describe(`One of ${kinds.join(', ')}`),
      stage: z.string().min(1).max(20).optional().describe(`One of ${situationStages.join(', ')}`),
      ticker: tickerParam,
      cik: cikParam,
      ...dateFilters,
      ...pageParams,
      view: viewParam,
    }),
  },
  response: listEnvelope(situation).extend({ coverage: coverageSchema }),
  operation: SituationsDocument,
  variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, kind: query.kind ?? null, stage: query.stage ?? null, from: query.filed_from ?? null, to: query.filed_to ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ situations }, meta, { query }) => ({
  object: 'list',
  data: situations.nodes.map(toSituation),
  hasMore: situations.pageInfo.hasNextPage,
  nextCursor: situations.pageInfo.hasNextPage ? situations.pageInfo.endCursor : null,
  coverage: coverage(['situations from held filings', query.kind && `of kind ${query.kind}`, query.stage && `at stage ${query.stage}`, query.ticker && `of ${query.ticker}`, query.cik && `of CIK ${query.cik}`].filter(Boolean).join(' ')),
  ...meta,
}));

const byId = operationRoute({
  name: 'situations_get',
  method: 'GET',
  path: '/v1/situations/{situation_id}',
  summary: 'One special situation with its timeline',
  description: `The path takes the \`id\` a list gave (\`sit_<cik>_<digest>\`). ${rules}An id that names no situation the held filings make: 404 \`situation_not_found\`.`,
  tag: 'Situations',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  errors: ['situation_not_found'],
  params: {
    path: z.strictObject({ situation_id: z.string().regex(/^sit_\d{10}_[0-9a-f]{32}$/, 'expected a situation id like sit_0001045810_… (a list gives them)') }),
    query: z.strictObject({ view: viewParam }),
  },
  response: situation.extend({ requestId: z.string() }),
  operation: SituationDocument,
  variables: ({ path }) => ({ id: path.situation_id }),
}).reshape(({ situation: found }, meta, { path }) => {
  if (!found) throw new ApiError('situation_not_found', `No situation ${path.situation_id} is made by the filings this service holds.`);
  return { ...toSituation(found), ...meta };
});

export const situationRoutes: Route[] = [list, byId];
