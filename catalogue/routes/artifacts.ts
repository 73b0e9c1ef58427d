// Analytics artifacts (SPEC 4.5): every analytics and intelligence POST result, stored with its
// manifest; listed, read back by id, and exported as a JSON download or a Markdown report.
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { artifactMarkdown } from '../../resolvers/analytics/artifacts.ts';
import type { Context } from '../../resolvers/context.ts';
import { ArtifactDocument, ArtifactsDocument, type ArtifactSummaryFieldsFragment } from '../operations/generated.ts';
import { listEnvelope, operationRoute, pageParams, viewParam, type Route } from '../route.ts';

const what =
  'Every analytics and intelligence POST (portfolio analysis, risk, …) stores its result as an artifact of the organization and answers with its `artifactId`; `artifact.created` is recorded for it. ' +
  'An artifact holds the `result` (the POST\'s response body less its `requestId` and artifact fields) and a `manifest`: `inputs` (the request body as validated), `sources` (the market files read, each `{sourceKey, kind, subject, vintage, firstDate, lastDate}`), `model` and `window` (`{from, to, days}`) when the computation had them, and `contentHash`, ' +
  'the sha256 hex of the canonical JSON of `result` (object keys sorted recursively, no whitespace): equal results have equal hashes. `createdByRequestId` is the request that made it. ' +
  'Another organization\'s artifact id is `404 artifact_not_found`; an id that is not `art_` and 24 letters or digits is `400 invalid_request_parameter`.';

const artifactId = z.string().regex(/^art_[0-9A-Za-z]{24}$/, 'expected an artifact id, art_ and 24 letters or digits');
const artifactPath = z.strictObject({ artifact_id: artifactId });

const manifest = z.object({
  inputs: z.unknown().describe('The request body as the route validated it'),
  sources: z.array(
    z.object({
      sourceKey: z.string().describe('The market file, e.g. market/prices/AAPL.daily.csv'),
      kind: z.string().describe('market_prices, factor_returns or macro_series'),
      subject: z.string().describe('A ticker, a factor dataset or a FRED series id'),
      vintage: z.string().nullable().describe('The data vintage the file states; null when it states none'),
      firstDate: z.string().nullable().describe('YYYY-MM-DD'),
      lastDate: z.string().nullable().describe('YYYY-MM-DD'),
    }),
  ),
  model: z.string().nullable(),
  window: z.object({ from: z.string(), to: z.string(), days: z.number().int() }).nullable(),
  contentHash: z.string(),
});

const artifactSummary = z.object({
  object: z.literal('artifact'),
  id: z.string().describe('`art_…`'),
  kind: z.string().describe('What made it, e.g. portfolio_analysis, portfolio_risk'),
  route: z.string().describe('The POST path that made it'),
  title: z.string(),
  contentHash: z.string().describe('sha256 hex of the canonical JSON of `result`'),
  createdByRequestId: z.string().describe('The request that made it (GET /v1/requests/{request_id})'),
  createdAt: z.iso.datetime(),
  manifest,
});
const artifact = artifactSummary.extend({ result: z.record(z.string(), z.unknown()).describe('The POST\'s response body, less its requestId and artifact fields') });

type Summary = z.input<typeof artifactSummary>;
const toSummary = (a: ArtifactSummaryFieldsFragment): Summary => ({
  object: 'artifact',
  id: a.id,
  kind: a.kind,
  route: a.route,
  title: a.title,
  contentHash: a.contentHash,
  createdByRequestId: a.requestId,
  createdAt: a.createdAt,
  manifest: a.manifest as Summary['manifest'],
});

const common = { tag: 'Artifacts', access: 'org' as const, meter: 'platform' };

const artifactsList = operationRoute({
  name: 'artifacts_list',
  method: 'GET',
  path: '/v1/artifacts',
  summary: 'List the organization\'s analytics artifacts, newest first',
  description: `${what} The list leaves out each artifact's \`result\` (GET /v1/artifacts/{artifact_id} has it).`,
  ...common,
  mcp: true,
  params: {
    query: z.strictObject({
      ...pageParams,
      kind: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'expected an artifact kind, e.g. portfolio_analysis').optional().describe('Only artifacts of this kind, e.g. portfolio_analysis'),
      view: viewParam,
    }),
  },
  response: listEnvelope(artifactSummary),
  operation: ArtifactsDocument,
  variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null, kind: query.kind ?? null }),
}).reshape(({ artifacts: page }, meta) => ({
  object: 'list',
  data: page.nodes.map(toSummary),
  hasMore: page.pageInfo.hasNextPage,
  nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
  ...meta,
}));

/** The Artifact operation: the artifact with its result. */
const readArtifact = ({ query, ...def }: { name: string; path: string; summary: string; description: string; query: z.ZodObject<z.ZodRawShape>; mcp?: boolean }) =>
  operationRoute({
    ...def,
    method: 'GET',
    ...common,
    params: { path: artifactPath, query },
    response: artifact.extend({ requestId: z.string() }),
    errors: ['artifact_not_found'],
    operation: ArtifactDocument,
    variables: ({ path }) => ({ id: path.artifact_id }),
  }).reshape(({ artifact: a }, meta) => ({ ...toSummary(a), result: a.result as Record<string, unknown>, ...meta }));

const artifactGet = readArtifact({
  name: 'artifacts_get',
  path: '/v1/artifacts/{artifact_id}',
  summary: 'Retrieve an analytics artifact with its result and manifest',
  description: what,
  query: z.strictObject({ view: viewParam }),
  mcp: true,
});

const exportFormat = z.enum(['json', 'markdown']).default('json').describe('`json` (default): the artifact, `application/json`; `markdown`: a readable report, `text/markdown`.');

const exportDescription =
  'The artifact as a download (`Content-Disposition: attachment; filename="art_….json"` or `"art_….md"`). ' +
  '`format=json` (default): `application/json; charset=utf-8`, the artifact exactly as GET /v1/artifacts/{artifact_id} answers it, less that answer\'s `requestId` (the documented 200 schema). ' +
  '`format=markdown`: `text/markdown; charset=utf-8`, a report: the title; the artifact id, kind, route, `createdByRequestId`, creation time and content hash; the manifest (model, window, content hash, the market files read with their vintages and coverage, the inputs); and the result, ' +
  'where lists of objects are tables (a column per field), nested objects are sections with a field/value table, and numbers are printed exactly as stored (never re-rounded). ' +
  `The artifact is read whole before the first byte, so every failure (parameters, credentials, quota, \`artifact_not_found\`) is the error envelope. ${what}`;

const exportRead = readArtifact({
  name: 'artifacts_export',
  path: '/v1/artifacts/{artifact_id}/export',
  summary: 'Export an analytics artifact as JSON or as a Markdown report',
  description: exportDescription,
  query: z.strictObject({ format: exportFormat }),
});

/** Writes the download: the artifact read through the route's own operation, then rendered. */
async function writeExport(params: { path: any; query: any; body: any }, ctx: Context, res: ServerResponse): Promise<void> {
  const { requestId: _request, ...body } = (await exportRead.run(params, ctx)) as z.output<typeof artifact> & { requestId: string };
  const markdown = params.query.format === 'markdown';
  const text = markdown ? artifactMarkdown({ ...body, requestId: body.createdByRequestId }) : `${JSON.stringify(body, null, 2)}\n`;
  res.writeHead(200, {
    'Content-Type': markdown ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Disposition': `attachment; filename="${body.id}.${markdown ? 'md' : 'json'}"`,
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

const artifactExport: Route = {
  ...exportRead,
  // the download is the artifact itself: it has no requestId (that is the request's, in Request-Id)
  response: artifact,
  stream: writeExport,
  download: {
    note: '`format=json` (default): the artifact as GET /v1/artifacts/{artifact_id} answers it, without the requestId; `format=markdown`: a readable report (the manifest, the sources with their vintages, the inputs, and the result as tables).',
    filename: 'art_….json or art_….md',
    content: { 'application/json': 'response', 'text/markdown': 'text' },
  },
};

export const artifactRoutes: Route[] = [artifactsList, artifactGet, artifactExport];
