// Analytics artifacts (SPEC 4.5): the stored results of analytics and intelligence requests.
import { requireOrg } from '../resolvers/access.ts';
import { ownArtifact } from '../resolvers/analytics/artifacts.ts';
import { builder } from './builder.ts';

const Artifact = builder.prismaObject('Artifact', {
  description: 'The stored result of an analytics or intelligence request, with the manifest of what it was computed from.',
  // only the columns a selection names are read: a list of artifacts does not load their results
  select: { id: true },
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Prefixed id, `art_…`' }),
    kind: t.exposeString('kind', { description: 'What made it, e.g. portfolio_analysis, portfolio_risk' }),
    route: t.exposeString('route', { description: 'The POST path that made it' }),
    title: t.exposeString('title'),
    requestId: t.exposeString('requestId', { description: 'The request that made it' }),
    request: t.expose('request', { type: 'JSON', description: 'The request body as the route validated it' }),
    result: t.expose('result', { type: 'JSON', description: 'The response body, less its requestId and artifact fields' }),
    manifest: t.expose('manifest', { type: 'JSON', description: '{inputs, sources: [{sourceKey, kind, subject, vintage, firstDate, lastDate}], model, window: {from, to, days} | null, contentHash}' }),
    contentHash: t.exposeString('contentHash', { description: 'sha256 hex of the canonical JSON of `result` (keys sorted recursively)' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  artifacts: t.prismaConnection({
    type: Artifact,
    cursor: 'id',
    description: 'The organization\'s artifacts, newest first.',
    defaultSize: 25,
    maxSize: 100,
    args: { kind: t.arg.string({ description: 'Only artifacts of this kind' }) },
    resolve: (query, _root, { kind }, ctx) =>
      ctx.prisma.artifact.findMany({ ...query, where: { orgId: requireOrg(ctx), ...(kind ? { kind } : {}) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  }),
  artifact: t.prismaField({
    type: Artifact,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => ctx.prisma.artifact.findUniqueOrThrow({ ...query, where: { id: (await ownArtifact(ctx, id)).id } }),
  }),
}));
